package search

import "birch/internal/model"

// dfs is an iterative depth-first search. Successors are inserted into the
// store when they are generated and pushed on the stack; the path from the
// initial state to the state being expanded is kept for the trail.
func (s *searcher) dfs(root StateID) {
	stack := []entry{{id: root, depth: 0, ord: -1}}
	var path []entry
	for len(stack) > 0 {
		if !s.check() {
			return
		}
		e := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		path = append(path[:e.depth], e)
		d := int(e.depth)
		if d > s.res.Stats.MaxDepth {
			s.res.Stats.MaxDepth = d
		}
		if s.cfg.MaxDepth > 0 && d >= s.cfg.MaxDepth {
			s.cut = true
			continue
		}
		s.curID, s.curDepth = e.id, d
		s.succ = s.succ[:0]
		n, allDone := s.m.Next(s.store.State(e.id), s.visitFn)
		if s.found {
			s.res.Trail = pathTrail(path, s.failOrd)
			return
		}
		if n == 0 && !allDone && !s.cfg.NoDeadlock {
			s.violation(&model.Step{Kind: model.Deadlock, Msg: "no thread can move", Thread: -1}, -1)
			s.res.Trail = pathTrail(path, -1)
			return
		}
		if s.cfg.Strategy == Random {
			s.rng.Shuffle(len(s.succ), func(i, j int) { s.succ[i], s.succ[j] = s.succ[j], s.succ[i] })
		}
		// push in reverse so that the first successor is expanded first
		for i := len(s.succ) - 1; i >= 0; i-- {
			stack = append(stack, s.succ[i])
		}
		s.stackMem = int64(cap(stack)+cap(path)) * 16
	}
}

// pathTrail turns a DFS path into ordinals, adding the failing step.
func pathTrail(path []entry, failOrd int) []int {
	tr := make([]int, 0, len(path))
	for _, e := range path[1:] {
		tr = append(tr, int(e.ord))
	}
	if failOrd >= 0 {
		tr = append(tr, failOrd)
	}
	return tr
}
