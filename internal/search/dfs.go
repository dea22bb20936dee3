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
//
// Telling a successor from the stored states takes two cache misses in a
// large store, one after the other: its table slot, then the arena entry
// the slot points to, whose bytes are compared. The search overlaps the
// second with the next expansion. classify reads the slots only: a
// successor whose probe sequence ends before a slot with matching hash bits
// is new and is inserted at once; one with a match is almost always stored
// (all 64-idBits stored hash bits agree), and is deferred, its entry
// fetched. The next state is generated while the entries arrive (the first
// definitely new successor, or else the first state under the markers on
// top of the stack, popped only after), and only then does verify insert
// the deferred successors. The state whose successors they are is still on
// top of the path, so a deferred successor found new after all (about one
// new state in a thousand on the bench models) is pushed as its child; the
// state generated in the meantime is then taken back (undoGenerate) and
// expanded later from the stack. With --max-depth the deferred successors
// are verified before the next generation, which may look states up.
func (s *searcher) dfs(root StateID) {
	var stack, path idStack
	stack.push(root)
	overlap := s.cfg.MaxDepth == 0
	for {
		if !s.found && !s.check() {
			// a limit or Ctrl-C: the states generated are stored (and
			// checked) all the same
			s.verify()
			if !s.found {
				return
			}
		}
		if s.found {
			// the state check failed on a successor of the state on top
			// of the path (checkNew, from classify or verify)
			s.res.Trail = s.pathTrail(path.all(), s.failOrd)
			return
		}
		k := stack.markersOnTop()
		if k == stack.len() {
			// only markers left: the search is over unless a deferred
			// successor is new
			if s.verify() {
				s.pushLate(&stack)
				continue
			}
			return
		}
		if !overlap && s.verify() {
			s.pushLate(&stack)
			continue
		}
		id := stack.peek(k)
		// after the k markers are popped, id's depth is path.len()-k
		t0, d0 := s.res.Stats.Transitions, s.res.Stats.MaxDepth
		found := s.generate(id, path.len()-k)
		if !found && s.verify() {
			s.undoGenerate(t0, d0)
			s.pushLate(&stack)
			continue
		}
		for ; k > 0; k-- {
			stack.pop()
			path.pop()
		}
		stack.pop()
		path.push(id)
		if found {
			// every state generated is stored, as it would be one by
			// one: the deferred successors, and the successors id had
			// before the violation (checkNew does nothing now)
			s.verify()
			s.classify()
			s.verify()
			s.res.Trail = s.pathTrail(path.all(), s.failOrd)
			return
		}
		if n := len(stack.top); n > 0 && stack.top[n-1] != marker {
			// the state expanded next unless this one has a new
			// successor (two times in three on most models): its bytes
			// were stored long ago, so fetch them while this one is
			// classified
			s.store.PrefetchState(stack.top[n-1])
		}
		s.succ = s.succ[:0]
		s.classify()
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

// classify inserts the successors in the batch that the store's table shows
// to be new, appending their ids to s.succ, and defers the others to verify,
// fetching the entries that verify will compare them with.
func (s *searcher) classify() {
	n := len(s.batchOff)
	if n == 0 {
		return
	}
	s.batchOff = append(s.batchOff, int32(len(s.batch)))
	for k := 0; k < n; k++ {
		b, h := s.batch[s.batchOff[k]:s.batchOff[k+1]], s.batchHash[k]
		if m := s.store.Match(h); m != NoState || s.cfg.deferAll {
			s.deferredOff = append(s.deferredOff, int32(len(s.deferred)))
			s.deferred = append(s.deferred, b...)
			s.deferredHash = append(s.deferredHash, h)
			if s.chk != nil {
				s.deferredOrd = append(s.deferredOrd, s.batchOrd[k])
			}
			if m != NoState {
				s.store.PrefetchEntry(m)
			}
			continue
		}
		// new, unless an earlier successor in the batch was the same
		// state, which InsertHash finds
		if id, isNew := s.store.InsertHash(b, h, 0); isNew {
			s.succ = append(s.succ, id)
			if s.cfg.Visit != nil {
				s.cfg.Visit(b, s.curDepth+1)
			}
			if s.chk != nil {
				s.checkNew(b, s.curID, int(s.batchOrd[k]))
			}
		}
	}
	s.deferredFrom, s.deferredDepth = s.curID, s.curDepth+1
	s.resetBatch()
}

// verify inserts the successors classify deferred. It returns true when
// some were new, with their ids in s.late.
func (s *searcher) verify() bool {
	s.late = s.late[:0]
	n := len(s.deferredOff)
	if n == 0 {
		return false
	}
	s.deferredOff = append(s.deferredOff, int32(len(s.deferred)))
	for k := 0; k < n; k++ {
		b := s.deferred[s.deferredOff[k]:s.deferredOff[k+1]]
		if id, isNew := s.store.InsertHash(b, s.deferredHash[k], 0); isNew {
			s.late = append(s.late, id)
			if s.cfg.Visit != nil {
				s.cfg.Visit(b, s.deferredDepth)
			}
			if s.chk != nil {
				s.checkNew(b, s.deferredFrom, int(s.deferredOrd[k]))
			}
		}
	}
	s.deferred, s.deferredOff, s.deferredHash, s.deferredOrd = s.deferred[:0], s.deferredOff[:0], s.deferredHash[:0], s.deferredOrd[:0]
	return len(s.late) > 0
}

// pushLate pushes the states verify found new, as children of the state on
// top of the path (whose successors they are), the first on top.
func (s *searcher) pushLate(stack *idStack) {
	s.res.lateStates += len(s.late)
	if s.cfg.Strategy == Random {
		s.rng.Shuffle(len(s.late), func(i, j int) { s.late[i], s.late[j] = s.late[j], s.late[i] })
	}
	for i := len(s.late) - 1; i >= 0; i-- {
		stack.push(s.late[i])
	}
}

// undoGenerate takes back a generation that found no violation: its
// successors in the batch, its transitions and the maximum depth (t0 and d0
// before) and its limit hits. The state stays on the stack and is generated
// again when it is popped.
func (s *searcher) undoGenerate(t0 int64, d0 int) {
	s.res.undone++
	s.res.Stats.Transitions, s.res.Stats.MaxDepth = t0, d0
	for _, h := range s.genLimits {
		h.Count--
		if h.Count == 0 {
			delete(s.limits, limitKey{h.Msg, h.Pos})
		}
	}
	s.genLimits = s.genLimits[:0]
	s.resetBatch()
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

// markersOnTop returns the number of markers on top of the stack, above its
// topmost state (all of its ids when it holds no state).
func (st *idStack) markersOnTop() int {
	k := 0
	for k < st.n && st.peek(k) == marker {
		k++
	}
	return k
}

// peek returns the id k places below the top (peek(0) is the top); k must
// be less than len().
func (st *idStack) peek(k int) StateID {
	if k < len(st.top) {
		return st.top[len(st.top)-1-k]
	}
	// full chunks hold idStackChunk ids each
	i := st.n - 1 - k
	return st.full[i/idStackChunk][i%idStackChunk]
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
