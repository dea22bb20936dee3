package apf

import (
	"cmp"
	"errors"
	"fmt"
	"math"
	"slices"
	"time"

	"birch/internal/smt"
	"birch/internal/smt/solvers"
)

// tri is a three-valued truth value, stored as a predicate's hidden
// variable holds it: 0 unknown, 1 false, 2 true.
type tri int64

const (
	unknown tri = 0
	isFalse tri = 1
	isTrue  tri = 2
)

func triOf(b bool) tri {
	if b {
		return isTrue
	}
	return isFalse
}

// literal is t or its negation for a known value, nil for unknown (or an
// undefined term).
func literal(tm *smt.TermManager, t *smt.Term, v tri) *smt.Term {
	switch {
	case t == nil:
		return nil
	case v == isTrue:
		return t
	case v == isFalse:
		return tm.Not(t)
	}
	return nil
}

// valid reports whether hyp implies goal, through the query cache. A
// query the solver cannot decide, or a failure, is "not proved".
func (r *Runtime) valid(hyp, goal *smt.Term) bool {
	if goal == r.tm.True() {
		return true
	}
	// the question as asked (hash-consed terms): no formula to build and
	// simplify for the cache
	key := [2]*smt.Term{hyp, goal}
	if v, ok := r.answers[key]; ok {
		r.stats.CacheHits++
		return v
	}
	if r.undecided[key] {
		r.stats.CacheHits++
		return false
	}
	v, decided := r.ask(hyp, goal)
	if !decided {
		r.undecided[key] = true
		return false
	}
	if len(r.answers) >= maxMemo {
		clear(r.answers)
	}
	r.answers[key] = v
	return v
}

// ask asks the query cache whether hyp implies goal; decided is false when
// the solver could not decide (ok is false then). valid remembers
// undecided answers for good, which keeps the answers, and so a run's
// choice points, the same when the model runs a transformation again for
// another alternative of its choices.
func (r *Runtime) ask(hyp, goal *smt.Term) (ok, decided bool) {
	defer func() {
		// a solver that panics has not answered: the question is
		// undecided, and a fresh solver answers the next ones
		if p := recover(); p != nil {
			ok, decided = false, false
			r.stats.Unknowns++
			if r.err == nil {
				r.err = fmt.Errorf("the solver failed: %v", p)
			}
			if s, err := solvers.NewContext(r.ctx, r.solverName, r.tm); err == nil {
				r.solver.Close()
				r.solver, r.cache = s, smt.NewCache(s)
				s.SetLimit(queryLimit)
			}
		}
	}()
	before := r.cache.Stats()
	ok, err := r.cache.Implies(hyp, goal)
	after := r.cache.Stats()
	r.stats.Queries += after.Misses - before.Misses
	r.stats.CacheHits += after.Hits - before.Hits + after.Trivial - before.Trivial
	if err != nil {
		if errors.Is(err, smt.ErrUnknown) {
			r.stats.Unknowns++
		} else if r.err == nil {
			r.err = err
		}
		return false, false
	}
	return ok, true
}

// queryLimit bounds each question (as C2bp's cube queries): one the
// solver cannot decide within it counts as not proved. The step bound is
// deterministic; the time bound is a safety net.
var queryLimit = smt.Limit{Steps: 20000, Timeout: time.Second}

// decide is the value of the formula t under hyp: true when hyp implies
// t, false when it implies ¬t, unknown otherwise.
func (r *Runtime) decide(hyp, t *smt.Term) tri {
	tm := r.tm
	switch {
	case t == nil:
		return unknown
	case t == tm.True():
		return isTrue
	case t == tm.False():
		return isFalse
	case r.valid(hyp, t):
		return isTrue
	case r.valid(hyp, tm.Not(t)):
		return isFalse
	}
	return unknown
}

// vars returns the declared constants t reads (memoized).
func (r *Runtime) vars(t *smt.Term) []*smt.Term {
	if vs, ok := r.varsOf[t]; ok {
		return vs
	}
	if len(r.varsOf) > maxMemo {
		clear(r.varsOf)
	}
	seen := map[*smt.Term]bool{}
	var out []*smt.Term
	var walk func(t *smt.Term)
	walk = func(t *smt.Term) {
		if seen[t] {
			return
		}
		seen[t] = true
		if t.Op() == smt.OpVar {
			out = append(out, t)
			return
		}
		for _, a := range t.Args() {
			walk(a)
		}
	}
	walk(t)
	r.varsOf[t] = out
	return out
}

// maxMemo bounds the runtime's memo tables: a full table is emptied,
// which costs work again, never answers.
const maxMemo = 1 << 18

// cone returns the hypothesis for a question about the goals: the facts
// that share a constant with the goals, transitively (the cone of
// influence D of the paper), and the domain fact of every constant they
// and the goals read (an int lies in [-2^63, 2^63-1], a range in its
// bounds).
func (r *Runtime) cone(facts []*smt.Term, goals ...*smt.Term) *smt.Term {
	in := r.coneIn
	clear(in)
	for _, g := range goals {
		if g != nil {
			for _, v := range r.vars(g) {
				in[v] = true
			}
		}
	}
	used := r.coneUsed[:0]
	for range facts {
		used = append(used, false)
	}
	parts := r.coneParts[:0]
	for changed := true; changed; {
		changed = false
		for i, f := range facts {
			if used[i] || f == nil {
				continue
			}
			vs := r.vars(f)
			meets := len(vs) == 0
			for _, v := range vs {
				if in[v] {
					meets = true
					break
				}
			}
			if !meets {
				continue
			}
			used[i], changed = true, true
			parts = append(parts, f)
			for _, v := range vs {
				in[v] = true
			}
		}
	}
	for v := range in {
		if d := r.dom[v]; d != nil {
			parts = append(parts, d)
		}
	}
	// one set of facts is one formula (and one cache key) whatever order
	// it was collected in
	slices.SortFunc(parts, func(a, b *smt.Term) int { return cmp.Compare(a.ID(), b.ID()) })
	r.coneUsed, r.coneParts = used, parts
	return r.tm.And(parts...)
}

// closeVars adds to set the constants of every term of terms that reads
// one of set's, transitively: the constants a question about a formula
// over set's constants may be answered through (its cone). An unknown
// predicate that shares no constant with a newly known one or a new fact
// may still be decided by them through a known one between (x > 0
// through x == y once y > 0 is known).
func (r *Runtime) closeVars(set map[*smt.Term]bool, terms []*smt.Term) {
	used := make([]bool, len(terms))
	for changed := len(set) > 0; changed; {
		changed = false
		for i, f := range terms {
			if used[i] || f == nil {
				continue
			}
			vs := r.vars(f)
			if !meets(vs, set) {
				continue
			}
			used[i], changed = true, true
			for _, v := range vs {
				set[v] = true
			}
		}
	}
}

// intDomain is the domain fact of an int: -2^63 <= v <= 2^63-1.
func intDomain(tm *smt.TermManager, v *smt.Term) *smt.Term {
	return tm.And(tm.Le(tm.Int(math.MinInt64), v), tm.Le(v, tm.Int(math.MaxInt64)))
}

// predValue is one predicate instance for refine: its formula and value.
type predValue struct {
	term *smt.Term // nil: undefined, stays unknown
	val  tri
}

// refine decides the unknown predicates from the known ones and the facts
// to a fixpoint (the paper's §3.6 and Figure 3): an unknown p becomes true
// when the facts and the known predicates sharing a constant with p
// (transitively) imply p, false when they imply ¬p. Each round asks only
// about the unknown predicates that share a constant with a predicate
// that became known in the round before (or, in the first round, with
// any known predicate or fact).
func (r *Runtime) refine(ps []predValue, facts []*smt.Term) {
	fresh := make([]bool, len(ps))
	for i := range ps {
		fresh[i] = ps[i].val != unknown
	}
	r.refineLoop(ps, facts, fresh, true)
}

// refineFrom is refine after a step has decided its predicates under the
// facts: the first round asks only about the unknown predicates that
// share a constant with one the step decided (fresh).
func (r *Runtime) refineFrom(ps []predValue, facts []*smt.Term, fresh []bool) {
	r.refineLoop(ps, facts, fresh, false)
}

// refineLoop runs the rounds of refine; fresh marks the predicates that
// became known in the round before, and first whether the facts are new.
func (r *Runtime) refineLoop(ps []predValue, facts []*smt.Term, fresh []bool, first bool) {
	tm := r.tm
	for {
		var lits, newVars []*smt.Term
		for i, p := range ps {
			if l := literal(tm, p.term, p.val); l != nil {
				lits = append(lits, l)
				if fresh[i] {
					newVars = append(newVars, r.vars(p.term)...)
				}
			}
		}
		if first {
			for _, f := range facts {
				newVars = append(newVars, r.vars(f)...)
			}
		}
		touched := map[*smt.Term]bool{}
		for _, v := range newVars {
			touched[v] = true
		}
		all := append(append([]*smt.Term(nil), facts...), lits...)
		r.closeVars(touched, all)
		clear(fresh)
		changed := false
		for i := range ps {
			p := &ps[i]
			if p.val != unknown || p.term == nil {
				continue
			}
			meets := false
			for _, v := range r.vars(p.term) {
				if touched[v] {
					meets = true
					break
				}
			}
			if !meets {
				continue
			}
			if v := r.decide(r.cone(all, p.term), p.term); v != unknown {
				p.val, fresh[i], changed = v, true, true
			}
		}
		first = false
		if !changed {
			return
		}
	}
}
