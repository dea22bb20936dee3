package search

import "birch/internal/model"

// bfs is a breadth-first search; each stored state keeps its parent and the
// ordinal of the step from it, so trails are shortest.
func (s *searcher) bfs(root StateID) {
	queue := []StateID{root}
	depths := []int32{0}
	head := 0
	for head < len(queue) {
		if !s.check() {
			return
		}
		id, d := queue[head], int(depths[head])
		head++
		if head >= 1<<16 && head*2 >= len(queue) {
			// drop the expanded prefix
			n := copy(queue, queue[head:])
			copy(depths, depths[head:])
			queue, depths, head = queue[:n], depths[:n], 0
		}
		if d > s.res.Stats.MaxDepth {
			s.res.Stats.MaxDepth = d
		}
		if s.cfg.MaxDepth > 0 && d >= s.cfg.MaxDepth {
			s.cut = true
			continue
		}
		s.curID, s.curDepth = id, d
		s.succ = s.succ[:0]
		n, allDone := s.m.Next(s.store.State(id), s.visitFn)
		if s.found {
			s.res.Trail = s.bfsTrail(id, s.failOrd)
			return
		}
		if n == 0 && !allDone && !s.cfg.NoDeadlock {
			s.violation(&model.Step{Kind: model.Deadlock, Msg: "no thread can move", Thread: -1}, -1)
			s.res.Trail = s.bfsTrail(id, -1)
			return
		}
		for _, e := range s.succ {
			queue = append(queue, e.id)
			depths = append(depths, e.depth)
		}
		s.stackMem = int64(cap(queue))*8 + int64(cap(depths))*4
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
