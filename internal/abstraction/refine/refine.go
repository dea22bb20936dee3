package refine

import (
	"errors"
	"fmt"

	"birch/internal/abstraction/data/feasible"
	"birch/internal/abstraction/predicate"
	"birch/internal/bir/types"
	"birch/internal/model"
	"birch/internal/smt"
)

// Result is what Refine found for one abstract trail.
type Result struct {
	*Decision
	// Path is the path formula (for Confirm and Refutes).
	Path *Path
	// Newton and Interpolation are the new predicates of an infeasible
	// path, by method, each (scope, text) once, in the order of the
	// points of the path.
	Newton, Interpolation []Predicate
	// Interpolants are the interpolants after steps 1..Step-1, over the
	// path's SSA constants (nil when interpolation gave up).
	Interpolants []*smt.Term
	// NoInterpolant says why interpolation gave up ("" when it did not).
	NoInterpolant string
	// Dropped lists atoms that could not be stated as predicates, and why.
	Dropped []string
}

// Predicates returns the new predicates of both methods, each (scope,
// text) once: interpolation's first, which generalize.
func (r *Result) Predicates() []Predicate {
	set := &predSet{}
	for _, p := range r.Interpolation {
		set.add(p)
	}
	for _, p := range r.Newton {
		set.add(p)
	}
	return set.list
}

// Refine builds the path formula of the schedule sc on the concrete model
// m, decides it, and for an infeasible path finds new predicates by both
// methods. An error says the schedule does not fit m, or that the path
// formula cannot encode it (*UnsupportedError).
func Refine(m *model.Model, sc feasible.Schedule, cfg Config) (res *Result, err error) {
	defer func() {
		if r := recover(); r != nil { // panics never cross the package's boundary
			res, err = nil, fmt.Errorf("internal error in the refinement: %v", r)
		}
	}()
	p, err := Build(m, sc)
	if err != nil {
		return nil, err
	}
	d, err := p.Decide(cfg)
	if err != nil {
		return nil, err
	}
	r := &Result{Decision: d, Path: p}
	if d.Status != Infeasible {
		return r, nil
	}
	nw := p.newton(d, cfg)
	r.Newton, r.Dropped = nw.list, nw.dropped
	// a predicate that does not read back would break the next
	// abstraction: it is dropped (none is expected to)
	var bad []string
	r.Newton, bad = parsable(p.prog, r.Newton)
	r.Dropped = append(r.Dropped, bad...)
	itps, err := p.interpolation(d, cfg)
	var no errNoInterpolant
	switch {
	case errors.As(err, &no):
		r.NoInterpolant = no.why
	case err != nil:
		return nil, err
	default:
		r.Interpolants = itps
		is := p.interpolants(itps)
		r.Interpolation = is.list
		r.Dropped = append(r.Dropped, is.dropped...)
		r.Interpolation, bad = parsable(p.prog, r.Interpolation)
		r.Dropped = append(r.Dropped, bad...)
	}
	return r, nil
}

// ErrUndecided is the error of Refutes when the solver does not decide
// one of its queries: the path is then not known to be ruled out.
var ErrUndecided = errors.New("the solver could not decide")

// Refutes reports whether the predicates make the first k steps of the
// path infeasible to a predicate abstraction: whether no sequence of
// valuations of the predicates, one after each step, is such that every
// step can go from one valuation to the next (each step decided exactly,
// with nothing known of the data but the predicates and the domains of
// their types). It asks the solver one query per abstract state reached
// and one per abstract successor, at most Config.MaxValuations in all
// (ErrUndecided past it). The predicates are parsed against the
// program (predicate.ParseFile); a `[thread T]` predicate is evaluated
// on the one instance of T of the path (an error if there are several),
// and only after it is started.
func (p *Path) Refutes(preds []*predicate.Predicate, k int, cfg Config) (bool, error) {
	if k < 1 || k > len(p.sched.Steps) {
		return false, fmt.Errorf("no step %d in a path of %d steps", k, len(p.sched.Steps))
	}
	// the predicates at each point, as formulas (nil: not defined there)
	at := make([][]*smt.Term, k+1)
	for j := 0; j <= k; j++ {
		for _, pr := range preds {
			t, err := p.evalAt(pr, j)
			if err != nil {
				return false, err
			}
			at[j] = append(at[j], t)
		}
	}
	s, err := p.newSolver(cfg)
	if err != nil {
		return false, err
	}
	defer s.Close()
	tm := p.tm
	// valuation: the values of the predicates defined at a point
	type valuation []bool
	fix := func(ts []*smt.Term, v valuation) *smt.Term {
		var cs []*smt.Term
		for i, t := range ts {
			if t == nil {
				continue
			}
			if v[i] {
				cs = append(cs, t)
			} else {
				cs = append(cs, tm.Not(t))
			}
		}
		return tm.And(cs...)
	}
	// successors enumerates the valuations of ts satisfiable with the
	// solver's assertions
	budget := cfg.MaxValuations
	if budget <= 0 {
		budget = 20000
	}
	successors := func(ts []*smt.Term) ([]valuation, error) {
		var out []valuation
		s.Push()
		defer s.Pop(1)
		for {
			if budget--; budget < 0 {
				return nil, fmt.Errorf("%w: more than %d abstract states along the path", ErrUndecided, cfg.MaxValuations)
			}
			r, err := s.Check()
			if err != nil || r == smt.Unknown {
				if err == nil {
					err = ErrUndecided
				}
				return nil, fmt.Errorf("%w: an abstract step (%v)", ErrUndecided, err)
			}
			if r == smt.Unsat {
				return out, nil
			}
			mdl, err := s.Model()
			if err != nil {
				return nil, err
			}
			v := make(valuation, len(ts))
			for i, t := range ts {
				if t != nil {
					v[i], _ = mdl.Holds(t)
				}
			}
			out = append(out, v)
			s.Assert(tm.Not(fix(ts, v)))
		}
	}
	s.Push()
	for _, f := range p.stepFacts(0) { // the initial values
		s.Assert(f)
	}
	reach, err := successors(at[0])
	s.Pop(1)
	if err != nil {
		return false, err
	}
	for j := 1; j <= k && len(reach) > 0; j++ {
		seen := map[string]bool{}
		var next []valuation
		for _, v := range reach {
			s.Push()
			s.Assert(fix(at[j-1], v))
			for _, f := range p.domainFacts(j - 1) {
				s.Assert(f)
			}
			for _, f := range p.stepFacts(j) {
				s.Assert(f)
			}
			succ, err := successors(at[j])
			s.Pop(1)
			if err != nil {
				return false, err
			}
			for _, w := range succ {
				if key := fmt.Sprint(w); !seen[key] {
					seen[key] = true
					next = append(next, w)
				}
			}
		}
		reach = next
	}
	return len(reach) == 0, nil
}

// domainFacts bound the integer constants current at a point by their
// types (int: 64 bits; a range: its bounds; an enum: its ordinals).
func (p *Path) domainFacts(j int) []*smt.Term {
	tm := p.tm
	var out []*smt.Term
	for k, t := range p.points[j] {
		if t.Op() != smt.OpVar || !t.IsInt() {
			continue
		}
		if lo, hi, ok := integerBounds(k.v.Type()); ok {
			out = append(out, tm.Le(tm.Int(lo), t), tm.Le(t, tm.Int(hi)))
		}
	}
	return out
}

// stepFacts are step j's definitions and conjuncts.
func (p *Path) stepFacts(j int) []*smt.Term {
	var out []*smt.Term
	for _, d := range p.defs {
		if d.step == j {
			out = append(out, p.tm.Eq(d.c, d.v))
		}
	}
	for _, f := range p.facts {
		if f.step == j {
			out = append(out, f.c)
		}
	}
	for _, c := range p.Conjuncts {
		if c.Step == j {
			out = append(out, c.Term)
		}
	}
	return out
}

// evalAt evaluates a predicate over the state after step j (0: the
// initial state); nil when its thread has not started yet.
func (p *Path) evalAt(pr *predicate.Predicate, j int) (t *smt.Term, err error) {
	x := &encoder{Path: p, info: p.prog.Info, quiet: true, state: p.points[j], threads: p.threads[j], cond: p.tm.True()}
	x.cur = -1
	if pr.Proc != nil {
		for i, th := range x.threads {
			if th.frameOf(pr.Proc) >= 0 {
				if x.cur >= 0 {
					return nil, fmt.Errorf("%s: %s runs in several threads of the path", pr, pr.Proc.Name())
				}
				x.cur = i
			}
		}
		if x.cur < 0 {
			return nil, nil
		}
	}
	defer func() {
		if r := recover(); r != nil {
			u, ok := r.(unsupported)
			if !ok {
				t, err = nil, fmt.Errorf("internal error evaluating %s: %v", pr, r)
				return
			}
			t, err = nil, &UnsupportedError{Pos: u.pos, Msg: u.msg}
		}
	}()
	return x.boolean(pr.Expr), nil
}

// integerBounds are the values of an int, range or enum type.
func integerBounds(t types.Type) (lo, hi int64, ok bool) {
	if e, isEnum := t.Underlying().(*types.Enum); isEnum {
		if len(e.Consts) == 0 {
			return 0, 0, false
		}
		lo, hi = e.Consts[0].Ordinal, e.Consts[0].Ordinal
		for _, c := range e.Consts {
			lo, hi = min(lo, c.Ordinal), max(hi, c.Ordinal)
		}
		return lo, hi, true
	}
	return types.IntegerBounds(t)
}
