package search

import (
	"bytes"

	"birch/internal/model"
)

// marker separates the successors of one expanded state on the DFS stack
// from those of its ancestors; popping it pops the path.
const marker = NoState

// dfs is an iterative depth-first search. Successors are inserted into the
// store when they are generated and pushed on the stack after a marker; the
// path from the initial state to the state being expanded is kept for the
// trail. A pending state costs 8 bytes of stack.
func (s *searcher) dfs(root StateID) {
	stack := []StateID{root}
	var path []StateID
	for len(stack) > 0 {
		if !s.check() {
			return
		}
		id := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if id == marker {
			path = path[:len(path)-1]
			continue
		}
		path = append(path, id)
		if s.expand(id, len(path)-1) {
			s.res.Trail = s.pathTrail(path, s.failOrd)
			return
		}
		if s.cfg.Strategy == Random {
			s.rng.Shuffle(len(s.succ), func(i, j int) { s.succ[i], s.succ[j] = s.succ[j], s.succ[i] })
		}
		stack = append(stack, marker)
		// push in reverse so that the first successor is expanded first
		for i := len(s.succ) - 1; i >= 0; i-- {
			stack = append(stack, s.succ[i].id)
		}
		s.stackMem = int64(cap(stack)+cap(path)) * 8
	}
}

// pathTrail turns a path of states into the ordinals of the steps between
// them (found by generating each state's successors again), adding the
// failing step.
func (s *searcher) pathTrail(path []StateID, failOrd int) []int {
	tr := make([]int, 0, len(path))
	for i := 1; i < len(path); i++ {
		child := s.store.State(path[i])
		ord := -1
		s.m.Next(s.store.State(path[i-1]), func(st *model.Step) {
			if ord < 0 && st.Outcome == model.OK && !(s.cfg.ChooseFree && st.Intern) && bytes.Equal(st.State, child) {
				ord = st.Ordinal
			}
		})
		tr = append(tr, ord)
	}
	if failOrd >= 0 {
		tr = append(tr, failOrd)
	}
	return tr
}
