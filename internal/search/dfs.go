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
	var stack, path idStack
	stack.push(root)
	for stack.len() > 0 {
		if !s.check() {
			return
		}
		id := stack.pop()
		if id == marker {
			path.pop()
			continue
		}
		path.push(id)
		if n := len(stack.top); n > 0 && stack.top[n-1] != marker {
			// the state expanded next unless this one has a new
			// successor (two times in three on most models): its bytes
			// were stored long ago, so fetch them while this one expands
			s.store.PrefetchState(stack.top[n-1])
		}
		if s.expand(id, path.len()-1) {
			s.res.Trail = s.pathTrail(path.all(), s.failOrd)
			return
		}
		if s.cfg.Strategy == Random {
			s.rng.Shuffle(len(s.succ), func(i, j int) { s.succ[i], s.succ[j] = s.succ[j], s.succ[i] })
		}
		stack.push(marker)
		// push in reverse so that the first successor is expanded first
		for i := len(s.succ) - 1; i >= 0; i-- {
			stack.push(s.succ[i])
		}
		s.stackMem = (stack.bytes() + path.bytes())
	}
}

// idStackChunk is the number of ids in a chunk of an idStack (512 KiB).
const idStackChunk = 1 << 16

// idStack is a stack of state ids kept in chunks of idStackChunk ids, so
// that growing it never copies what it holds (a slice doubling would copy
// the whole stack, and on a deep search that is tens of megabytes each
// time), and the memory of a chunk is reused when the stack shrinks and
// grows again across a chunk boundary.
type idStack struct {
	full  [][]StateID // full chunks, bottom first
	top   []StateID   // the top chunk
	spare []StateID   // a chunk emptied by pop, kept for the next push
	n     int
}

func (st *idStack) len() int { return st.n }

func (st *idStack) push(id StateID) {
	if len(st.top) == cap(st.top) {
		if st.top != nil {
			st.full = append(st.full, st.top)
		}
		st.top, st.spare = st.spare, nil
		if st.top == nil {
			st.top = make([]StateID, 0, idStackChunk)
		}
	}
	st.top = append(st.top, id)
	st.n++
}

// pop removes and returns the top id; the stack must not be empty.
func (st *idStack) pop() StateID {
	if len(st.top) == 0 {
		st.spare = st.top
		st.top = st.full[len(st.full)-1]
		st.full = st.full[:len(st.full)-1]
	}
	id := st.top[len(st.top)-1]
	st.top = st.top[:len(st.top)-1]
	st.n--
	return id
}

// all returns the ids from the bottom up, in a new slice.
func (st *idStack) all() []StateID {
	out := make([]StateID, 0, st.n)
	for _, c := range st.full {
		out = append(out, c...)
	}
	return append(out, st.top...)
}

// bytes returns the memory the stack holds.
func (st *idStack) bytes() int64 {
	n := len(st.full)*idStackChunk + cap(st.top) + cap(st.spare)
	return 8*int64(n) + 24*int64(cap(st.full))
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
