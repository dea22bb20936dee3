package embedded

import (
	"context"
	"time"

	"birch/internal/smt/lia"
	"birch/internal/smt/sat"
)

// atom is the meaning of a theory variable of the SAT solver: the bound
// x <= k; its negation is x >= k+1 (all variables are integers).
type atom struct {
	x lia.Var
	k lia.Q
}

// arith connects the simplex to the SAT search (sat.Theory). The
// explanation id of a bound is the SAT literal that asserted it.
type arith struct {
	sat   *sat.Solver
	lp    lia.Simplex
	atoms []atom // by SAT variable; x < 0 for a variable that is no atom

	marks      []int     // simplex mark before each told literal
	told       []sat.Lit // the told literals
	conflictAt int       // index of the told literal whose bound failed, or -1
	conflict   []sat.Lit

	// limits of the current query
	deadline  time.Time
	ctx       context.Context // nil, or the solver's context (NewContext)
	steps     int64           // 0: no bound
	stepBase  int64
	checks    int
	bbBudget  int
	outOfTime bool
	bbUnknown bool

	// An assignment whose integer problem branch and bound leaves open is
	// blocked, so that the search may find another: the clause of the
	// negated theory literals, guarded by ¬gate, where gate is assumed
	// during the query and retired after it. Unsat then means unknown.
	gate    sat.Lit
	blocked int
	// rephase asks for a search from fresh phases after a blocked
	// assignment (the search is aborted and started again).
	rephase bool

	// With abortOnBlock set, an assignment that would be blocked aborts
	// the search instead (blockAbort tells), so that the solver may first
	// add the array lemmas it instantiates lazily.
	abortOnBlock, blockAbort bool
}

// branchBudget is the number of branches CheckInt may explore per final
// check (a variable for tests).
var branchBudget = 1000

// maxBlocked bounds the assignments one query may block.
const maxBlocked = 100

func (a *arith) Assert(l sat.Lit) {
	a.marks = append(a.marks, a.lp.Mark())
	a.told = append(a.told, l)
	if a.conflictAt >= 0 {
		return
	}
	at := a.atoms[l.Var()]
	var ok bool
	if l.IsNeg() {
		ok = a.lp.AssertLower(at.x, at.k.Add(lia.Int(1)), int32(l))
	} else {
		ok = a.lp.AssertUpper(at.x, at.k, int32(l))
	}
	if !ok {
		a.conflictAt = len(a.marks) - 1
		a.setConflict()
	}
}

func (a *arith) setConflict() {
	a.conflict = a.conflict[:0]
	for _, id := range a.lp.Conflict() {
		a.conflict = append(a.conflict, sat.Lit(id).Not())
	}
}

func (a *arith) Backtrack(n int) {
	if n >= len(a.marks) {
		return
	}
	a.lp.Backtrack(a.marks[n])
	a.marks = a.marks[:n]
	a.told = a.told[:n]
	if a.conflictAt >= n {
		a.conflictAt = -1
	}
}

func (a *arith) Check(final bool) []sat.Lit {
	if a.conflictAt >= 0 {
		return a.conflict
	}
	a.checks++
	if a.checks&63 == 0 && a.expired() {
		a.outOfTime = true
		a.sat.Abort()
		return nil
	}
	if a.steps > 0 && a.work()-a.stepBase > a.steps {
		a.outOfTime = true
		a.sat.Abort()
		return nil
	}
	if !final {
		switch a.lp.Check() {
		case lia.Unsat:
			a.setConflict()
			return a.conflict
		case lia.Unknown: // the deadline passed
			a.sat.Abort()
		}
		return nil
	}
	switch a.lp.CheckInt(a.bbBudget) {
	case lia.Unsat:
		a.setConflict()
		return a.conflict
	case lia.Unknown:
		if !a.outOfTime && a.abortOnBlock {
			a.blockAbort = true
			a.sat.Abort()
			return nil
		}
		if !a.outOfTime && a.blocked < maxBlocked {
			a.blocked++
			c := append(a.conflict[:0], a.gate.Not())
			for _, l := range a.told {
				c = append(c, l.Not())
			}
			a.conflict = c
			a.sat.AddLemma(c)
			a.rephase = true
			a.sat.Abort()
			return nil
		}
		a.bbUnknown = true
		a.sat.Abort()
	}
	return nil
}

// expired reports whether the query's deadline has passed or its context
// is done.
func (a *arith) expired() bool {
	return !a.deadline.IsZero() && time.Now().After(a.deadline) || a.ctx != nil && a.ctx.Err() != nil
}

// stop reports, for the simplex's branch and bound, whether the deadline
// has passed (or the context is done).
func (a *arith) stop() bool {
	if a.expired() {
		a.outOfTime = true
		return true
	}
	return false
}

func (a *arith) work() int64 {
	return a.sat.Stats().Conflicts + a.lp.Pivots + a.lp.Branches
}
