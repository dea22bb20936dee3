package embedded

import (
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
	atoms map[sat.Var]atom

	marks      []int // simplex mark before each told literal
	conflictAt int   // index of the told literal whose bound failed, or -1
	conflict   []sat.Lit

	// limits of the current query
	deadline  time.Time
	steps     int64 // 0: no bound
	stepBase  int64
	checks    int
	bbBudget  int
	outOfTime bool
	bbUnknown bool
}

func (a *arith) Assert(l sat.Lit) {
	a.marks = append(a.marks, a.lp.Mark())
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
	if a.conflictAt >= n {
		a.conflictAt = -1
	}
}

func (a *arith) Check(final bool) []sat.Lit {
	if a.conflictAt >= 0 {
		return a.conflict
	}
	a.checks++
	if a.checks&63 == 0 && !a.deadline.IsZero() && time.Now().After(a.deadline) {
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
		if a.lp.Check() == lia.Unsat {
			a.setConflict()
			return a.conflict
		}
		return nil
	}
	switch a.lp.CheckInt(a.bbBudget) {
	case lia.Unsat:
		a.setConflict()
		return a.conflict
	case lia.Unknown:
		a.bbUnknown = true
		a.sat.Abort()
	}
	return nil
}

func (a *arith) work() int64 {
	return a.sat.Stats().Conflicts + a.lp.Pivots + a.lp.Branches
}
