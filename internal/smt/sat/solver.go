package sat

import (
	"math"
	"slices"
)

// cref is the offset of a clause in the arena. Header words: size<<2|flags,
// LBD, activity (float32 bits); then the literals. A clause's watched
// literals are always its first two.
type cref int32

const (
	noRef   cref = -1
	binFlag      = cref(1) << 30 // in a watcher: the clause is binary
	hdr          = 3

	flagLearnt  = 1
	flagDeleted = 2
)

type watcher struct {
	c       cref // with binFlag for binary clauses
	blocker Lit  // a literal of the clause other than the watched one
}

// Stats counts the work of a solver over its lifetime.
type Stats struct {
	Solves, Conflicts, Decisions, Propagations, Restarts int64
	TheoryChecks, TheoryConflicts, Lemmas                int64
}

// Solver is a CDCL SAT solver. Its zero value is not ready; use New.
type Solver struct {
	ok bool // false once the clauses are unsatisfiable without assumptions

	mem     []Lit // clause arena
	wasted  int
	clauses []cref // problem clauses and theory lemmas
	learnts []cref

	watches [][]watcher // indexed by literal p: clauses that contain ¬p
	vals    []int8      // indexed by literal: 1 true, -1 false, 0 unassigned
	level   []int32     // indexed by var
	reason  []cref
	phase   []bool // saved polarity: true means negative
	seen    []int8
	isTh    []bool
	decide  []bool // whether the search may decide the variable

	trail    []Lit
	trailLim []int32
	qhead    int

	// VSIDS
	activity []float64
	varInc   float64
	heap     []Var
	heapIdx  []int32 // -1 when not in the heap

	claInc float64

	assumptions []Lit
	core        []Lit
	model       []uint32 // model[v] == modelGen: v is true in the last model
	modelGen    uint32
	modelOK     bool

	// theory
	theory    Theory
	thHead    int     // trail index up to which theory literals were told
	thTold    []int32 // trail index of each told literal
	thBusy    bool    // inside Theory.Check
	thImplied []Lit   // pending implications: lit, reason length, reason...
	thLemmas  []Lit   // pending lemmas: length, literals...
	thAbort   bool
	thDid     bool

	// scratch
	learnt   []Lit
	toClear  []Lit
	stack    []Lit
	lbdStamp []int32
	lbdGen   int32

	budget      int64
	solveConfl  int64 // conflicts before this Solve
	nextReduce  int64
	reduceInc   int64
	simpAssigns int
	simpProps   int64
	lubyBase    float64

	stats Stats
}

// New returns an empty solver.
func New() *Solver {
	return &Solver{
		ok:          true,
		varInc:      1,
		claInc:      1,
		nextReduce:  2000,
		reduceInc:   300,
		simpAssigns: -1,
		lubyBase:    100,
		lbdStamp:    []int32{0},
	}
}

// NumVars returns the number of variables.
func (s *Solver) NumVars() int { return len(s.level) }

// Stats returns the solver's counters.
func (s *Solver) Stats() Stats { return s.stats }

// NewVar adds a variable. It may be called at any time, also from
// Theory.Check.
func (s *Solver) NewVar() Var {
	v := Var(len(s.level))
	s.watches = append(s.watches, nil, nil)
	s.vals = append(s.vals, 0, 0)
	s.level = append(s.level, 0)
	s.reason = append(s.reason, noRef)
	s.phase = append(s.phase, true)
	s.seen = append(s.seen, 0)
	s.isTh = append(s.isTh, false)
	s.decide = append(s.decide, true)
	s.activity = append(s.activity, 0)
	s.heapIdx = append(s.heapIdx, -1)
	s.lbdStamp = append(s.lbdStamp, 0)
	s.heapInsert(v)
	return v
}

// Reserve makes room for n variables in all, so that adding them up to
// there does not grow the solver's tables step by step.
func (s *Solver) Reserve(n int) {
	if n <= cap(s.level) {
		return
	}
	s.watches = slices.Grow(s.watches, 2*n-len(s.watches))
	s.vals = slices.Grow(s.vals, 2*n-len(s.vals))
	k := n - len(s.level)
	s.level = slices.Grow(s.level, k)
	s.reason = slices.Grow(s.reason, k)
	s.phase = slices.Grow(s.phase, k)
	s.seen = slices.Grow(s.seen, k)
	s.isTh = slices.Grow(s.isTh, k)
	s.decide = slices.Grow(s.decide, k)
	s.activity = slices.Grow(s.activity, k)
	s.heapIdx = slices.Grow(s.heapIdx, k)
	s.lbdStamp = slices.Grow(s.lbdStamp, n+1-len(s.lbdStamp))
}

// SetTheoryVar marks v as a theory atom: the Theory is told of its
// assignments.
func (s *Solver) SetTheoryVar(v Var) { s.isTh[v] = true }

// SetDecisionVar sets whether the search may decide v (by default it may).
// A variable that is not a decision variable is only assigned by
// propagation, and may stay unassigned in a model: a caller may exclude
// variables that only occur in clauses it knows to be satisfiable whatever
// the decision variables are, such as definitions of unused subformulas.
func (s *Solver) SetDecisionVar(v Var, b bool) {
	s.decide[v] = b
	switch {
	case b && s.heapIdx[v] < 0:
		s.heapInsert(v)
	case !b && s.heapIdx[v] >= 0 && len(s.trailLim) == 0:
		s.heapRemove(v)
	}
}

// SetTheory installs the theory consulted by Solve (nil for none).
func (s *Solver) SetTheory(t Theory) { s.theory = t }

// SetConflictBudget bounds the number of conflicts of each later call to
// Solve; n <= 0 means no bound.
func (s *Solver) SetConflictBudget(n int64) { s.budget = n }

// SetPhase sets the polarity tried first when v is decided.
func (s *Solver) SetPhase(v Var, value bool) { s.phase[v] = !value }

// Okay reports whether the clauses may still be satisfiable: false once
// they were found unsatisfiable without assumptions.
func (s *Solver) Okay() bool { return s.ok }

func (s *Solver) value(l Lit) int8 { return s.vals[l] }

// Value returns the current value of l: 1 true, -1 false, 0 unassigned.
// During Theory.Check it reflects the search's partial assignment.
func (s *Solver) Value(l Lit) int8 { return s.vals[l] }

// Level returns the decision level of an assigned variable.
func (s *Solver) Level(v Var) int { return int(s.level[v]) }

// DecisionLevel returns the current decision level.
func (s *Solver) DecisionLevel() int { return len(s.trailLim) }

// ModelValue returns the value of v in the model found by the last Solve
// that answered Sat (false for variables created since).
func (s *Solver) ModelValue(v Var) bool {
	return s.modelOK && int(v) < len(s.model) && s.model[v] == s.modelGen
}

// ModelLit reports whether l is true in the last model.
func (s *Solver) ModelLit(l Lit) bool { return s.ModelValue(l.Var()) != l.IsNeg() }

// Core returns, after Solve answered Unsat, a subset of its assumptions
// that is unsatisfiable together with the clauses (empty when the clauses
// alone are). The slice is owned by the solver until the next Solve.
func (s *Solver) Core() []Lit { return s.core }

// --- clause arena

func (s *Solver) clSize(c cref) int   { return int(s.mem[c] >> 2) }
func (s *Solver) clLits(c cref) []Lit { return s.mem[c+hdr : c+hdr+cref(s.mem[c]>>2)] }
func (s *Solver) clLearnt(c cref) bool {
	return s.mem[c]&flagLearnt != 0
}
func (s *Solver) clDeleted(c cref) bool { return s.mem[c]&flagDeleted != 0 }
func (s *Solver) clAct(c cref) float32  { return math.Float32frombits(uint32(s.mem[c+2])) }
func (s *Solver) setClAct(c cref, a float32) {
	s.mem[c+2] = Lit(math.Float32bits(a))
}

func (s *Solver) alloc(lits []Lit, learnt bool) cref {
	c := cref(len(s.mem))
	h := Lit(len(lits)) << 2
	if learnt {
		h |= flagLearnt
	}
	s.mem = append(s.mem, h, 0, 0)
	s.mem = append(s.mem, lits...)
	return c
}

func (s *Solver) attach(c cref) {
	lits := s.clLits(c)
	if len(lits) == 2 {
		s.watches[lits[0].Not()] = append(s.watches[lits[0].Not()], watcher{c | binFlag, lits[1]})
		s.watches[lits[1].Not()] = append(s.watches[lits[1].Not()], watcher{c | binFlag, lits[0]})
		return
	}
	s.watches[lits[0].Not()] = append(s.watches[lits[0].Not()], watcher{c, lits[1]})
	s.watches[lits[1].Not()] = append(s.watches[lits[1].Not()], watcher{c, lits[0]})
}

func (s *Solver) locked(c cref) bool {
	lits := s.clLits(c)
	for _, l := range lits[:2] {
		if s.vals[l] == 1 && s.reason[l.Var()] == c {
			return true
		}
	}
	return false
}

func (s *Solver) markDeleted(c cref) {
	s.mem[c] |= flagDeleted
	s.wasted += hdr + s.clSize(c)
}

// --- adding clauses

// AddClause adds the clause (disjunction) of lits. It must not be called
// during Solve (a theory adds clauses with AddLemma). It returns false if
// the solver is now known to be unsatisfiable. lits is not retained.
func (s *Solver) AddClause(lits ...Lit) bool {
	if !s.ok {
		return false
	}
	s.cancelUntil(0)
	buf := append(s.learnt[:0], lits...)
	slices.Sort(buf)
	j := 0
	prev := NoLit
	for _, l := range buf {
		if l == prev || s.vals[l] == -1 && s.level[l.Var()] == 0 {
			continue
		}
		if l == prev.Not() || s.vals[l] == 1 && s.level[l.Var()] == 0 {
			s.learnt = buf
			return true
		}
		buf[j] = l
		j++
		prev = l
	}
	buf = buf[:j]
	s.learnt = buf
	switch len(buf) {
	case 0:
		s.ok = false
	case 1:
		s.enqueue(buf[0], noRef)
	default:
		c := s.alloc(buf, false)
		s.clauses = append(s.clauses, c)
		s.attach(c)
	}
	return s.ok
}

// --- assignment

func (s *Solver) enqueue(l Lit, from cref) {
	v := l.Var()
	s.vals[l] = 1
	s.vals[l^1] = -1
	s.level[v] = int32(len(s.trailLim))
	s.reason[v] = from
	s.trail = append(s.trail, l)
}

func (s *Solver) newDecisionLevel() { s.trailLim = append(s.trailLim, int32(len(s.trail))) }

func (s *Solver) cancelUntil(lvl int) {
	if len(s.trailLim) <= lvl {
		return
	}
	lim := int(s.trailLim[lvl])
	for i := len(s.trail) - 1; i >= lim; i-- {
		l := s.trail[i]
		v := l.Var()
		s.vals[l] = 0
		s.vals[l^1] = 0
		s.reason[v] = noRef
		s.phase[v] = l.IsNeg()
		if s.heapIdx[v] < 0 {
			s.heapInsert(v)
		}
	}
	s.trail = s.trail[:lim]
	s.trailLim = s.trailLim[:lvl]
	s.qhead = lim
	if s.thHead > lim {
		s.thHead = lim
		n := len(s.thTold)
		for n > 0 && int(s.thTold[n-1]) >= lim {
			n--
		}
		if n < len(s.thTold) {
			s.thTold = s.thTold[:n]
			s.theory.Backtrack(n)
		}
	}
}

// propagate runs unit propagation to a fixpoint and returns a conflicting
// clause or noRef.
func (s *Solver) propagate() cref {
	confl := noRef
	for s.qhead < len(s.trail) {
		p := s.trail[s.qhead]
		s.qhead++
		s.stats.Propagations++
		ws := s.watches[p]
		falseLit := p.Not()
		i, j := 0, 0
		n := len(ws)
		for i < n {
			w := ws[i]
			bv := s.vals[w.blocker]
			if bv == 1 {
				ws[j] = w
				i++
				j++
				continue
			}
			if w.c&binFlag != 0 {
				ws[j] = w
				i++
				j++
				if bv == -1 {
					confl = w.c &^ binFlag
					break
				}
				s.enqueue(w.blocker, w.c&^binFlag)
				continue
			}
			c := w.c
			i++
			if s.mem[c]&flagDeleted != 0 {
				continue
			}
			lits := s.mem[c+hdr : c+hdr+cref(s.mem[c]>>2)]
			if lits[0] == falseLit {
				lits[0], lits[1] = lits[1], falseLit
			}
			first := lits[0]
			nw := watcher{c, first}
			if first != w.blocker && s.vals[first] == 1 {
				ws[j] = nw
				j++
				continue
			}
			found := false
			for k := 2; k < len(lits); k++ {
				if s.vals[lits[k]] != -1 {
					lits[1], lits[k] = lits[k], falseLit
					q := lits[1].Not()
					s.watches[q] = append(s.watches[q], nw)
					found = true
					break
				}
			}
			if found {
				continue
			}
			ws[j] = nw
			j++
			if s.vals[first] == -1 {
				confl = c
				break
			}
			s.enqueue(first, c)
		}
		if confl != noRef {
			for i < n {
				ws[j] = ws[i]
				i++
				j++
			}
			s.watches[p] = ws[:j]
			s.qhead = len(s.trail)
			break
		}
		s.watches[p] = ws[:j]
	}
	return confl
}

// --- conflict analysis

func (s *Solver) abstractLevel(v Var) uint32 { return 1 << (uint32(s.level[v]) & 31) }

// analyze derives the first-UIP clause from the conflict confl into
// s.learnt (asserting literal first, a literal of the backjump level
// second) and returns the backjump level and the clause's LBD.
func (s *Solver) analyze(confl cref) (int, int) {
	learnt := append(s.learnt[:0], NoLit)
	pathC := 0
	p := NoLit
	idx := len(s.trail) - 1
	dl := int32(len(s.trailLim))
	for {
		if s.clLearnt(confl) {
			s.bumpClause(confl)
		}
		for _, q := range s.clLits(confl) {
			v := q.Var()
			if p != NoLit && v == p.Var() {
				continue
			}
			if s.seen[v] == 0 && s.level[v] > 0 {
				s.bumpVar(v)
				s.seen[v] = 1
				if s.level[v] >= dl {
					pathC++
				} else {
					learnt = append(learnt, q)
				}
			}
		}
		for s.seen[s.trail[idx].Var()] == 0 {
			idx--
		}
		p = s.trail[idx]
		idx--
		confl = s.reason[p.Var()]
		s.seen[p.Var()] = 0
		pathC--
		if pathC <= 0 {
			break
		}
	}
	learnt[0] = p.Not()

	// recursive minimization
	s.toClear = append(s.toClear[:0], learnt...)
	var abs uint32
	for _, l := range learnt[1:] {
		abs |= s.abstractLevel(l.Var())
	}
	j := 1
	for i := 1; i < len(learnt); i++ {
		l := learnt[i]
		if s.reason[l.Var()] == noRef || !s.redundant(l, abs) {
			learnt[j] = l
			j++
		}
	}
	learnt = learnt[:j]
	for _, l := range s.toClear {
		s.seen[l.Var()] = 0
	}

	bt := 0
	if len(learnt) > 1 {
		m := 1
		for i := 2; i < len(learnt); i++ {
			if s.level[learnt[i].Var()] > s.level[learnt[m].Var()] {
				m = i
			}
		}
		learnt[1], learnt[m] = learnt[m], learnt[1]
		bt = int(s.level[learnt[1].Var()])
	}
	s.learnt = learnt
	return bt, s.lbd(learnt)
}

// redundant reports whether p is implied by the other literals of the
// learnt clause (marked seen) through reasons.
func (s *Solver) redundant(p Lit, abs uint32) bool {
	s.stack = append(s.stack[:0], p)
	top := len(s.toClear)
	for len(s.stack) > 0 {
		q := s.stack[len(s.stack)-1]
		s.stack = s.stack[:len(s.stack)-1]
		for _, l := range s.clLits(s.reason[q.Var()]) {
			v := l.Var()
			if v == q.Var() || s.seen[v] != 0 || s.level[v] == 0 {
				continue
			}
			if s.reason[v] != noRef && s.abstractLevel(v)&abs != 0 {
				s.seen[v] = 1
				s.stack = append(s.stack, l)
				s.toClear = append(s.toClear, l)
				continue
			}
			for _, c := range s.toClear[top:] {
				s.seen[c.Var()] = 0
			}
			s.toClear = s.toClear[:top]
			return false
		}
	}
	return true
}

func (s *Solver) lbd(lits []Lit) int {
	s.lbdGen++
	n := 0
	for _, l := range lits {
		lv := s.level[l.Var()]
		if int(lv) >= len(s.lbdStamp) {
			// assumptions open a decision level each, even when already
			// true: levels may outnumber the variables
			s.lbdStamp = append(s.lbdStamp, make([]int32, int(lv)+1-len(s.lbdStamp))...)
		}
		if s.lbdStamp[lv] != s.lbdGen {
			s.lbdStamp[lv] = s.lbdGen
			n++
		}
	}
	return n
}

// analyzeFinal computes the assumptions responsible for p, an assumption
// found false, into s.core.
func (s *Solver) analyzeFinal(p Lit) {
	s.core = append(s.core[:0], p)
	if len(s.trailLim) == 0 {
		return
	}
	s.seen[p.Var()] = 1
	for i := len(s.trail) - 1; i >= int(s.trailLim[0]); i-- {
		l := s.trail[i]
		v := l.Var()
		if s.seen[v] == 0 {
			continue
		}
		if s.reason[v] == noRef {
			if s.level[v] > 0 {
				s.core = append(s.core, l)
			}
		} else {
			for _, q := range s.clLits(s.reason[v]) {
				if q.Var() != v && s.level[q.Var()] > 0 {
					s.seen[q.Var()] = 1
				}
			}
		}
		s.seen[v] = 0
	}
	s.seen[p.Var()] = 0
}

// --- activities

func (s *Solver) bumpVar(v Var) {
	s.activity[v] += s.varInc
	if s.activity[v] > 1e100 {
		for i := range s.activity {
			s.activity[i] *= 1e-100
		}
		s.varInc *= 1e-100
	}
	if s.heapIdx[v] >= 0 {
		s.heapUp(int(s.heapIdx[v]))
	}
}

func (s *Solver) bumpClause(c cref) {
	a := s.clAct(c) + float32(s.claInc)
	s.setClAct(c, a)
	if a > 1e20 {
		for _, l := range s.learnts {
			s.setClAct(l, s.clAct(l)*1e-20)
		}
		s.claInc *= 1e-20
	}
}

func (s *Solver) decayActivities() {
	s.varInc *= 1 / 0.95
	s.claInc *= 1 / 0.999
}

// --- heap of variables by activity

func (s *Solver) heapLess(a, b Var) bool { return s.activity[a] > s.activity[b] }

func (s *Solver) heapInsert(v Var) {
	s.heapIdx[v] = int32(len(s.heap))
	s.heap = append(s.heap, v)
	s.heapUp(len(s.heap) - 1)
}

func (s *Solver) heapUp(i int) {
	v := s.heap[i]
	for i > 0 {
		p := (i - 1) / 2
		if !s.heapLess(v, s.heap[p]) {
			break
		}
		s.heap[i] = s.heap[p]
		s.heapIdx[s.heap[i]] = int32(i)
		i = p
	}
	s.heap[i] = v
	s.heapIdx[v] = int32(i)
}

func (s *Solver) heapDown(i int) {
	v := s.heap[i]
	n := len(s.heap)
	for {
		c := 2*i + 1
		if c >= n {
			break
		}
		if c+1 < n && s.heapLess(s.heap[c+1], s.heap[c]) {
			c++
		}
		if !s.heapLess(s.heap[c], v) {
			break
		}
		s.heap[i] = s.heap[c]
		s.heapIdx[s.heap[i]] = int32(i)
		i = c
	}
	s.heap[i] = v
	s.heapIdx[v] = int32(i)
}

// heapRemove takes v out of the heap.
func (s *Solver) heapRemove(v Var) {
	i := int(s.heapIdx[v])
	last := s.heap[len(s.heap)-1]
	s.heap = s.heap[:len(s.heap)-1]
	s.heapIdx[v] = -1
	if last == v {
		return
	}
	s.heap[i] = last
	s.heapIdx[last] = int32(i)
	s.heapUp(i)
	s.heapDown(int(s.heapIdx[last]))
}

func (s *Solver) heapPop() Var {
	v := s.heap[0]
	last := s.heap[len(s.heap)-1]
	s.heap = s.heap[:len(s.heap)-1]
	s.heapIdx[v] = -1
	if len(s.heap) > 0 {
		s.heap[0] = last
		s.heapIdx[last] = 0
		s.heapDown(0)
	}
	return v
}

func (s *Solver) pickBranch() Lit {
	for len(s.heap) > 0 {
		v := s.heapPop()
		if s.vals[Pos(v)] == 0 && s.decide[v] {
			return MkLit(v, s.phase[v])
		}
	}
	return NoLit
}

// --- clause database maintenance

func (s *Solver) reduceDB() {
	cand := s.learnts
	slices.SortFunc(cand, func(a, b cref) int {
		la, lb := s.mem[a+1], s.mem[b+1]
		if la != lb {
			return int(lb - la) // high LBD first
		}
		aa, ab := s.clAct(a), s.clAct(b)
		switch {
		case aa < ab:
			return -1
		case aa > ab:
			return 1
		}
		return 0
	})
	half := len(cand) / 2
	j := 0
	for i, c := range cand {
		if i < half && s.mem[c+1] > 2 && s.clSize(c) > 2 && !s.locked(c) {
			s.markDeleted(c)
			continue
		}
		cand[j] = c
		j++
	}
	s.learnts = cand[:j]
	s.collect()
}

// simplify removes clauses satisfied at level 0. It must run at level 0.
func (s *Solver) simplify() {
	if len(s.trail) == s.simpAssigns || s.stats.Propagations < s.simpProps {
		return
	}
	s.simpAssigns = len(s.trail)
	// Like MiniSat, wait for as many propagations as there are literals
	// before the next simplification, so that many small incremental
	// calls do not each pay for a pass over the clauses.
	s.simpProps = s.stats.Propagations + int64(len(s.mem))
	for _, l := range s.trail {
		s.reason[l.Var()] = noRef // level-0 reasons are never analyzed
	}
	sat := func(c cref) bool {
		for _, l := range s.clLits(c) {
			if s.vals[l] == 1 {
				return true
			}
		}
		return false
	}
	for _, list := range []*[]cref{&s.clauses, &s.learnts} {
		j := 0
		for _, c := range *list {
			if sat(c) {
				s.markDeleted(c)
				continue
			}
			(*list)[j] = c
			j++
		}
		*list = (*list)[:j]
	}
	s.collect()
}

// collect drops watchers of deleted clauses and compacts the arena when
// much of it is garbage.
func (s *Solver) collect() {
	if s.wasted == 0 {
		return
	}
	if s.wasted*5 < len(s.mem) {
		for p := range s.watches {
			ws := s.watches[p]
			j := 0
			for _, w := range ws {
				if !s.clDeleted(w.c &^ binFlag) {
					ws[j] = w
					j++
				}
			}
			s.watches[p] = ws[:j]
		}
		return
	}
	mem := make([]Lit, 0, len(s.mem)-s.wasted)
	move := func(list []cref) {
		for i, c := range list {
			nc := cref(len(mem))
			mem = append(mem, s.mem[c:c+hdr+cref(s.clSize(c))]...)
			s.mem[c+1] = Lit(nc) // forwarding address
			list[i] = nc
		}
	}
	move(s.clauses)
	move(s.learnts)
	for _, l := range s.trail {
		v := l.Var()
		if r := s.reason[v]; r != noRef {
			s.reason[v] = cref(s.mem[r+1])
		}
	}
	s.mem = mem
	s.wasted = 0
	for p := range s.watches {
		s.watches[p] = s.watches[p][:0]
	}
	for _, c := range s.clauses {
		s.attach(c)
	}
	for _, c := range s.learnts {
		s.attach(c)
	}
}

// --- clauses arriving during search

// addSearchClause stores a clause whose literals may be assigned at any
// level (a theory conflict, reason or lemma) and restores the watch
// invariants: it may backtrack, and may enqueue an implied literal. It
// returns the clause if it is conflicting at the (possibly lowered)
// current level, else noRef; s.ok turns false if the clause is empty at
// level 0.
func (s *Solver) addSearchClause(lits []Lit, learnt bool) cref {
	// drop duplicates and literals false at level 0
	j := 0
	for _, l := range lits {
		if s.vals[l] == -1 && s.level[l.Var()] == 0 {
			continue
		}
		if s.vals[l] == 1 && s.level[l.Var()] == 0 {
			return noRef
		}
		if slices.Contains(lits[:j], l) {
			continue
		}
		if slices.Contains(lits[:j], l.Not()) {
			return noRef
		}
		lits[j] = l
		j++
	}
	lits = lits[:j]
	if len(lits) == 0 {
		s.ok = false
		return noRef
	}
	// order: true or unassigned first, then false ones by level, highest first
	rank := func(l Lit) int32 {
		switch s.vals[l] {
		case 1:
			return math.MaxInt32
		case 0:
			return math.MaxInt32 - 1
		}
		return s.level[l.Var()]
	}
	for k := 0; k < 2 && k < len(lits); k++ {
		m := k
		for i := k + 1; i < len(lits); i++ {
			if rank(lits[i]) > rank(lits[m]) {
				m = i
			}
		}
		lits[k], lits[m] = lits[m], lits[k]
	}
	if len(lits) == 1 {
		s.cancelUntil(0)
		s.enqueue(lits[0], noRef)
		return noRef
	}
	c := s.alloc(lits, learnt)
	if learnt {
		s.mem[c+1] = Lit(s.lbd(lits))
		s.learnts = append(s.learnts, c)
	} else {
		s.clauses = append(s.clauses, c)
	}
	s.attach(c)
	v0, v1 := s.vals[lits[0]], s.vals[lits[1]]
	switch {
	case v0 == -1: // conflicting
		l0, l1 := int(s.level[lits[0].Var()]), int(s.level[lits[1].Var()])
		if l1 < l0 {
			s.cancelUntil(l1)
			s.enqueue(lits[0], c)
			return noRef
		}
		s.cancelUntil(l0)
		return c
	case v0 == 0 && v1 == -1: // unit
		s.cancelUntil(int(s.level[lits[1].Var()]))
		s.enqueue(lits[0], c)
	}
	return noRef
}

// --- theory interaction

// Imply tells the solver, from Theory.Check, that l follows from the
// current assignment; reason is a theory-valid clause containing l whose
// other literals are false now. The solver copies reason.
func (s *Solver) Imply(l Lit, reason []Lit) {
	s.thImplied = append(s.thImplied, l, Lit(len(reason)))
	s.thImplied = append(s.thImplied, reason...)
}

// AddLemma adds, from Theory.Check, a theory-valid clause; its literals may
// have any values, and may be variables just created with NewVar. The
// clause is kept like a problem clause. The solver copies lits.
func (s *Solver) AddLemma(lits []Lit) {
	s.thLemmas = append(s.thLemmas, Lit(len(lits)))
	s.thLemmas = append(s.thLemmas, lits...)
}

// Abort makes the running Solve answer Unknown; it is meant for
// Theory.Check, when the theory meets what it cannot decide.
func (s *Solver) Abort() { s.thAbort = true }

// theoryCheck tells the theory of new theory literals, runs its check and
// processes what it answered. It returns a conflict or noRef.
func (s *Solver) theoryCheck(final bool) cref {
	for ; s.thHead < len(s.trail); s.thHead++ {
		l := s.trail[s.thHead]
		if s.isTh[l.Var()] {
			s.thTold = append(s.thTold, int32(s.thHead))
			s.theory.Assert(l)
		}
	}
	s.stats.TheoryChecks++
	s.thImplied = s.thImplied[:0]
	s.thLemmas = s.thLemmas[:0]
	s.thDid = false
	s.thBusy = true
	confl := s.theory.Check(final)
	s.thBusy = false
	if confl != nil {
		s.stats.TheoryConflicts++
		s.thDid = true
		buf := append(s.stack[:0], confl...)
		s.stack = buf
		if c := s.addSearchClause(buf, true); c != noRef {
			return c
		}
		// The conflict was resolved by backtracking (or made the solver
		// unsatisfiable); pending implications may be stale.
		return noRef
	}
	for i := 0; i < len(s.thImplied); {
		l := s.thImplied[i]
		n := int(s.thImplied[i+1])
		reason := s.thImplied[i+2 : i+2+n]
		i += 2 + n
		if s.vals[l] == 1 {
			continue
		}
		s.thDid = true
		// Put l first so that it is chosen as the implied literal.
		k := slices.Index(reason, l)
		if k < 0 {
			reason = append(reason, l) // tolerate a reason missing l
			k = len(reason) - 1
		}
		reason[0], reason[k] = reason[k], reason[0]
		buf := append(s.stack[:0], reason...)
		s.stack = buf
		if c := s.addSearchClause(buf, true); c != noRef {
			return c
		}
		if !s.ok {
			return noRef
		}
	}
	for i := 0; i < len(s.thLemmas); {
		n := int(s.thLemmas[i])
		buf := append(s.stack[:0], s.thLemmas[i+1:i+1+n]...)
		s.stack = buf
		i += 1 + n
		s.stats.Lemmas++
		s.thDid = true
		if c := s.addSearchClause(buf, false); c != noRef {
			return c
		}
		if !s.ok {
			return noRef
		}
	}
	return noRef
}

// --- search

func luby(y float64, x int) float64 {
	size, seq := 1, 0
	for size < x+1 {
		seq++
		size = 2*size + 1
	}
	for size-1 != x {
		size = (size - 1) >> 1
		seq--
		x = x % size
	}
	return math.Pow(y, float64(seq))
}

// Solve decides the clauses under the assumptions (literals assumed true
// for this call). It answers Sat (see ModelValue), Unsat (see Core) or
// Unknown (budget exhausted or theory gave up). The solver is back at
// level 0 afterwards, ready for more clauses.
func (s *Solver) Solve(assumptions []Lit) Status {
	s.stats.Solves++
	s.core = s.core[:0]
	s.modelOK = false
	if !s.ok {
		return Unsat
	}
	s.assumptions = append(s.assumptions[:0], assumptions...)
	s.solveConfl = s.stats.Conflicts
	status := Unknown
	s.thAbort = false
	for restarts := 0; ; restarts++ {
		limit := int64(luby(2, restarts) * s.lubyBase)
		status = s.search(limit)
		if status != Unknown || s.thAbort || !s.ok {
			break
		}
		if s.budget > 0 && s.stats.Conflicts-s.solveConfl >= s.budget {
			break
		}
		s.stats.Restarts++
	}
	if !s.ok {
		status = Unsat
		s.core = s.core[:0]
	}
	if status == Sat {
		n := len(s.level)
		// the true variables are on the trail (unassigned ones are false)
		s.modelGen++
		if s.modelGen == 0 {
			clear(s.model)
			s.modelGen = 1
		}
		for len(s.model) < n {
			s.model = append(s.model, 0)
		}
		for _, l := range s.trail {
			if !l.IsNeg() {
				s.model[l.Var()] = s.modelGen
			}
		}
		s.modelOK = true
	}
	s.cancelUntil(0)
	return status
}

// learn analyzes the conflict confl, backjumps and asserts the learnt
// clause.
func (s *Solver) learn(confl cref) {
	bt, lbd := s.analyze(confl)
	s.cancelUntil(bt)
	if len(s.learnt) == 1 {
		s.enqueue(s.learnt[0], noRef)
	} else {
		c := s.alloc(s.learnt, true)
		s.mem[c+1] = Lit(lbd)
		s.learnts = append(s.learnts, c)
		s.attach(c)
		s.bumpClause(c)
		s.enqueue(s.learnt[0], c)
	}
	s.decayActivities()
}

func (s *Solver) search(limit int64) Status {
	conflicts := int64(0)
	for {
		confl := s.propagate()
		// While assumptions are being placed, one per level, the theory
		// waits: it checks them all at once when the last is in.
		if confl == noRef && s.theory != nil && len(s.trailLim) >= len(s.assumptions) {
			confl = s.theoryCheck(false)
			if !s.ok {
				return Unsat
			}
			if s.thAbort {
				return Unknown
			}
			if confl == noRef && s.qhead < len(s.trail) {
				continue
			}
		}
		if confl != noRef {
			s.stats.Conflicts++
			conflicts++
			if len(s.trailLim) == 0 {
				s.ok = false
				return Unsat
			}
			s.learn(confl)
			continue
		}
		if conflicts >= limit || s.budget > 0 && s.stats.Conflicts-s.solveConfl >= s.budget {
			// the caller checks the overall budget; restart here
			s.cancelUntil(0)
			return Unknown
		}
		if len(s.trailLim) == 0 {
			s.simplify()
		}
		if s.stats.Conflicts >= s.nextReduce {
			s.nextReduce = s.stats.Conflicts + s.reduceInc*int64(len(s.learnts)/1000+1) + 2000
			s.reduceDB()
		}

		next := NoLit
		for len(s.trailLim) < len(s.assumptions) {
			p := s.assumptions[len(s.trailLim)]
			switch s.vals[p] {
			case 1:
				s.newDecisionLevel()
				continue
			case -1:
				s.analyzeFinal(p)
				return Unsat
			}
			next = p
			break
		}
		if next == NoLit {
			s.stats.Decisions++
			next = s.pickBranch()
			if next == NoLit {
				if s.theory == nil {
					return Sat
				}
				nv := len(s.level)
				confl := s.theoryCheck(true)
				if !s.ok {
					return Unsat
				}
				if s.thAbort {
					return Unknown
				}
				if confl != noRef {
					s.stats.Conflicts++
					conflicts++
					if len(s.trailLim) == 0 {
						s.ok = false
						return Unsat
					}
					s.learn(confl)
					continue
				}
				if s.thDid || len(s.level) != nv || s.qhead < len(s.trail) {
					continue
				}
				return Sat
			}
		}
		s.newDecisionLevel()
		s.enqueue(next, noRef)
	}
}
