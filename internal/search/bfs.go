package search

// bfs is a breadth-first search; each stored state keeps its parent and the
// ordinal of the step from it, so trails are shortest.
func (s *searcher) bfs(root StateID) {
	queue := []StateID{root}
	head, levelEnd, depth := 0, 1, 0
	for head < len(queue) {
		if !s.check() {
			return
		}
		if head == levelEnd {
			depth++
			levelEnd = len(queue)
		}
		id := queue[head]
		head++
		if head >= 1<<16 && head*2 >= len(queue) {
			// drop the expanded prefix
			n := copy(queue, queue[head:])
			queue = queue[:n]
			levelEnd -= head
			head = 0
		}
		if s.expand(id, depth) {
			s.res.Trail = s.bfsTrail(id, s.failOrd)
			return
		}
		for _, e := range s.succ {
			queue = append(queue, e.id)
		}
		s.stackMem = int64(cap(queue)) * 8
	}
}

// bfsTrail follows parent links from id back to the initial state.
func (s *searcher) bfsTrail(id StateID, failOrd int) []int {
	var rev []int
	if failOrd >= 0 {
		rev = append(rev, failOrd)
	}
	for {
		parent, ord := unpackAux(s.store.Aux(id))
		if parent == NoState {
			break
		}
		rev = append(rev, ord)
		id = parent
	}
	for i, j := 0, len(rev)-1; i < j; i, j = i+1, j-1 {
		rev[i], rev[j] = rev[j], rev[i]
	}
	return rev
}
