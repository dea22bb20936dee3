package model

import (
	"fmt"
	"io"

	"birch/internal/source"
)

// exec is the machine that evaluates compiled code against one state vector.
type exec struct {
	m   *Model
	s   []int64 // the state being read or changed
	off []int   // s's thread records
	t   int     // the current thread (-1 in predicates)
	fb  int     // the current frame's first slot

	// the first runtime error or limit of the current evaluation
	failed  bool
	outcome Outcome
	kind    ErrorKind
	pos     source.Pos
	msg     string
	block   string // why the last run was blocked (only when explaining)
	explain bool

	// choice points of the current run: the alternative taken at each and
	// how many there were.
	choices, counts []int32
	cp              int
	intern          bool
	// nonlocal is set when the current thread's expansion read another
	// thread's record or started a thread (the transition cache must not
	// keep it)
	nonlocal bool
	// tracing: the fixed-part slots the run reads or writes are recorded in
	// trace, as (first slot, count) pairs (see tcache.go)
	tracing   bool
	heapNoted bool
	trace     []int32

	args  []int64 // scratch for argument values
	tmp   []int64 // scratch for multi-slot values
	seen  []bool  // scratch for reachable
	stack []int64
	cands []int64

	print io.Writer // println output, or nil

	nc NativeContext // the context of the calls of Options.Native
	// unsure: native code let the current run (or the guard being
	// evaluated) go on for only some of the states the current one
	// stands for (NativeContext.Unsure)
	unsure bool
	// nblocked: native code's Begin blocked the run (NativeContext.Block)
	nblocked bool
}

func (x *exec) fail(k ErrorKind, pos source.Pos, format string, args ...any) {
	if x.failed {
		return
	}
	x.failed, x.outcome, x.kind, x.pos = true, Error, k, pos
	x.msg = fmt.Sprintf(format, args...)
}

func (x *exec) limit(pos source.Pos, format string, args ...any) {
	if x.failed {
		return
	}
	x.failed, x.outcome, x.kind, x.pos = true, Limit, LimitReached, pos
	x.msg = fmt.Sprintf(format, args...)
}

func (x *exec) clearError() {
	// the other fields change only together with failed
	if !x.failed {
		return
	}
	x.failed, x.outcome, x.kind, x.pos, x.msg = false, OK, NoError, source.NoPos, ""
}

// object returns the first slot of the object r refers to, or -1 after a
// null dereference.
func (x *exec) object(r int64, pos source.Pos, what string) int {
	if x.failed {
		return -1
	}
	if r <= 0 || int(r) > len(x.m.objBase) {
		x.fail(NullDereference, pos, "null dereference: %s is null", what)
		return -1
	}
	if x.tracing {
		x.noteHeap()
	}
	return x.m.objBase[r-1]
}

// note records, while the transition cache traces a run, that it accesses
// the n slots of the fixed part at p.
func (x *exec) note(p, n int) {
	x.trace = append(x.trace, int32(p), int32(n))
}

// noteHeap records that the traced run accesses the heap (the collections'
// counts and objects), which the trace does not follow object by object.
func (x *exec) noteHeap() {
	if !x.heapNoted {
		x.heapNoted = true
		m := x.m
		x.note(m.heapOff, m.heapEnd-m.heapOff)
	}
}

// choose returns the alternative to take at the next choice point, which
// has n alternatives (n >= 1).
func (x *exec) choose(n int) int {
	i := x.cp
	x.cp++
	if i < len(x.choices) {
		x.counts[i] = int32(n)
		return int(x.choices[i])
	}
	x.choices = append(x.choices, 0)
	x.counts = append(x.counts, int32(n))
	return 0
}

// tooManyChoices reports whether the choices made so far in this step
// have together more than 2^20 combinations (or MaxChoiceRange, if that is
// more; each choice alone may have fewer: two choices of 2^16 values are
// 2^32 successors of one state, which the search would collect before any
// limit could stop it). If so the step is a limit at pos, and no other
// combination of its choices is tried. (MaxChoiceRange alone is not the
// bound: refinement sets it as low as 2^8 for single inputs, and its
// abstract models choose many predicates' values in one step.)
func (x *exec) tooManyChoices(pos source.Pos) bool {
	max := uint64(max(x.m.opts.MaxChoiceRange, maxStepCombinations))
	prod := uint64(1)
	for _, c := range x.counts[:x.cp] {
		prod *= uint64(c)
		if prod > max {
			for j := range x.cp {
				x.counts[j] = x.choices[j] + 1 // nextChoice ends here
			}
			x.limit(pos, "the choices of one step have more than %d combinations", max)
			return true
		}
	}
	return false
}

// maxStepCombinations bounds the combinations of one step's choices.
const maxStepCombinations = 1 << 20

// nextChoice advances the choice vector to the next combination; it
// returns false when all have been tried.
func (x *exec) nextChoice() bool {
	x.choices = x.choices[:x.cp]
	x.counts = x.counts[:x.cp]
	for i := len(x.choices) - 1; i >= 0; i-- {
		if x.choices[i]+1 < x.counts[i] {
			x.choices[i]++
			x.choices = x.choices[:i+1]
			x.counts = x.counts[:i+1]
			return true
		}
	}
	return false
}

// threadOffsets computes the offsets of the thread records of s.
func (m *Model) threadOffsets(s []int64, dst []int) []int {
	dst = dst[:0]
	n := int(s[m.poolOff])
	p := m.poolOff + 1
	for i := 0; i < n; i++ {
		dst = append(dst, p)
		p = m.threadEnd(s, p)
	}
	return dst
}

// threadEnd returns the slot after the thread record at p.
func (m *Model) threadEnd(s []int64, p int) int {
	d := int(s[p+thDepth])
	p += thHeader
	for ; d > 0; d-- {
		p += frHeader + m.allProcs[s[p+frProc]].varSize
	}
	return p
}

// topFrame returns the first slot of the top frame of the thread at th.
func (m *Model) topFrame(s []int64, th int) int {
	d := int(s[th+thDepth])
	p := th + thHeader
	for ; d > 1; d-- {
		p += frHeader + m.allProcs[s[p+frProc]].varSize
	}
	return p
}

// arrive applies the rules for arriving at the current location of thread
// j's top frame: dead variables are reset, and a thread frame at a location
// without transformations terminates the thread.
func (x *exec) arrive(j int) {
	m := x.m
	th := x.off[j]
	fb := m.topFrame(x.s, th)
	pi := m.allProcs[x.s[fb+frProc]]
	x.arriveAt(th, fb, pi, pi.locs[x.s[fb+frLoc]])
}

// arriveAt is arrive when the thread's record th, its top frame fb, the
// frame's proc and the location are known.
func (x *exec) arriveAt(th, fb int, pi *procInfo, li *locInfo) {
	for _, v := range li.dead {
		o, n := pi.varOff[v], pi.varSlots[v]
		copy(x.s[fb+frHeader+o:fb+frHeader+o+n], pi.defaults[o:o+n])
	}
	if li.final && x.s[th+thDepth] == 1 {
		x.s[th+thStatus] = 1
	}
}

// insert inserts n slots at p in x.s and shifts the records of the threads
// after thread j.
func (x *exec) insert(p, n, j int) {
	for i := 0; i < n; i++ {
		x.s = append(x.s, 0)
	}
	copy(x.s[p+n:], x.s[p:len(x.s)-n])
	for k := j + 1; k < len(x.off); k++ {
		x.off[k] += n
	}
}

// remove deletes n slots at p in x.s.
func (x *exec) remove(p, n, j int) {
	copy(x.s[p:], x.s[p+n:])
	x.s = x.s[:len(x.s)-n]
	for k := j + 1; k < len(x.off); k++ {
		x.off[k] -= n
	}
}
