package search

// bfsBatch is the number of states whose successors a breadth-first
// search inserts together: their cache misses in the store overlap.
const bfsBatch = 32

// bfs is a breadth-first search; each stored state keeps its parent and the
// ordinal of the step from it, so trails are shortest. The states of a
// level are expanded in batches of up to bfsBatch, whose successors are
// inserted together in the order they were generated, which is the order
// one-by-one insertion would give: the search, its counts and its trails
// are the same. The exception is a model with a state check (checkNew): a
// violating state is found when the batch is inserted, so the states of the
// batch after its parent have been expanded by then (and one of them may
// report an error step of its own instead); the trail is as short.
func (s *searcher) bfs(root StateID) {
	queue := []StateID{root}
	head, levelEnd, depth := 0, 1, 0
	batch := bfsBatch
	if s.cfg.MaxDepth > 0 {
		// a state at the bound looks its successors up in the store: they
		// must all be there
		batch = 1
	}
	for head < len(queue) {
		if head == levelEnd {
			depth++
			levelEnd = len(queue)
		}
		if head >= 1<<16 && head*2 >= len(queue) {
			// drop the expanded prefix
			n := copy(queue, queue[head:])
			queue = queue[:n]
			levelEnd -= head
			head = 0
		}
		s.succ = s.succ[:0]
		for k := 0; k < batch && head < levelEnd; k++ {
			if s.cfg.MaxStates > 0 && s.store.Len()+len(s.batchOff) >= s.cfg.MaxStates {
				// the successors waiting in the batch may reach the state
				// limit: insert them, so that it stops where one-by-one
				// insertion would
				if s.bfsFlush() {
					return
				}
			}
			if !s.check() {
				s.bfsFlush()
				return
			}
			id := queue[head]
			head++
			if s.generate(id, depth) {
				s.flush()
				s.res.Trail = s.bfsTrail(id, s.failOrd)
				return
			}
		}
		if s.bfsFlush() {
			return
		}
		for _, e := range s.succ {
			queue = append(queue, e)
		}
		s.stackMem = int64(cap(queue)) * 8
	}
}

// bfsFlush inserts the batch (flush) and returns true when the state check
// failed on a new state, with the trail to it set.
func (s *searcher) bfsFlush() bool {
	s.flush()
	if s.found {
		s.res.Trail = s.bfsTrail(s.failFrom, s.failOrd)
		return true
	}
	return false
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
