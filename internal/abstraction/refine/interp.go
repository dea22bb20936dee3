package refine

import (
	"fmt"

	"birch/internal/smt"
	"birch/internal/smt/lia"
)

// An item is one constraint of the infeasible prefix for interpolation:
// a conjunct of the core or a definition, with the step it belongs to.
type item struct {
	step  int
	term  *smt.Term
	cubes [][]lit // its disjunctive normal form
}

// lit is a literal of a cube: an integer comparison, or a boolean
// constant (read as an unknown in 0..1).
type lit struct {
	t   *smt.Term
	pos bool
}

// errNoInterpolant says why interpolation gave up; Newton's predicates
// stand alone then.
type errNoInterpolant struct{ why string }

func (e errNoInterpolant) Error() string { return e.why }

const maxCubes = 16

// dnf returns the cubes of t (positive) or of its negation.
func dnf(tm *smt.TermManager, t *smt.Term, pos bool) ([][]lit, error) {
	switch t.Op() {
	case smt.OpTrue, smt.OpFalse:
		if (t.Op() == smt.OpTrue) == pos {
			return [][]lit{{}}, nil
		}
		return nil, nil
	case smt.OpNot:
		return dnf(tm, t.Arg(0), !pos)
	case smt.OpAnd, smt.OpOr:
		if (t.Op() == smt.OpAnd) == pos {
			out := [][]lit{{}}
			for _, a := range t.Args() {
				c, err := dnf(tm, a, pos)
				if err != nil {
					return nil, err
				}
				if out, err = product(out, c); err != nil {
					return nil, err
				}
			}
			return out, nil
		}
		var out [][]lit
		for _, a := range t.Args() {
			c, err := dnf(tm, a, pos)
			if err != nil {
				return nil, err
			}
			out = append(out, c...)
			if len(out) > maxCubes {
				return nil, errNoInterpolant{"a constraint has more than 16 cases"}
			}
		}
		return out, nil
	case smt.OpImplies:
		a, b := t.Arg(0), t.Arg(1)
		if pos { // !a || b
			x, err := dnf(tm, a, false)
			if err != nil {
				return nil, err
			}
			y, err := dnf(tm, b, true)
			if err != nil {
				return nil, err
			}
			return append(x, y...), nil
		}
		x, err := dnf(tm, a, true)
		if err != nil {
			return nil, err
		}
		y, err := dnf(tm, b, false)
		if err != nil {
			return nil, err
		}
		return product(x, y)
	case smt.OpEq:
		if t.Arg(0).IsBool() {
			a, b := t.Arg(0), t.Arg(1)
			// a == b is (a && b) || (!a && !b); its negation (a && !b) || (!a && b)
			var out [][]lit
			for _, va := range []bool{true, false} {
				x, err := dnf(tm, a, va)
				if err != nil {
					return nil, err
				}
				y, err := dnf(tm, b, va == pos)
				if err != nil {
					return nil, err
				}
				c, err := product(x, y)
				if err != nil {
					return nil, err
				}
				out = append(out, c...)
			}
			return out, nil
		}
		if !pos { // a != b: a < b or a > b
			return [][]lit{{{tm.Lt(t.Arg(0), t.Arg(1)), true}}, {{tm.Gt(t.Arg(0), t.Arg(1)), true}}}, nil
		}
		return [][]lit{{{t, true}}}, nil
	case smt.OpLt, smt.OpLe, smt.OpGt, smt.OpGe, smt.OpVar:
		return [][]lit{{{t, pos}}}, nil
	}
	return nil, errNoInterpolant{"the path formula has a construct interpolation does not split: " + t.Op().String()}
}

func product(a, b [][]lit) ([][]lit, error) {
	if len(a)*len(b) > maxCubes {
		return nil, errNoInterpolant{"a constraint has more than 16 cases"}
	}
	var out [][]lit
	for _, x := range a {
		for _, y := range b {
			out = append(out, append(append([]lit(nil), x...), y...))
		}
	}
	return out, nil
}

// interpolation computes Craig interpolants of the infeasible prefix of
// a path split after each step j (A: the steps up to j, B: the rest), by
// McMillan's method for linear arithmetic: each case of the path's
// disjunctions is a conjunction of linear constraints, which the simplex
// (lia) refutes with Farkas coefficients; the part of the Farkas sum that
// comes from A is an inequality over the variables A and B share, which
// A implies and which contradicts B. Cases of a disjunction of A combine
// by or, of B by and. It returns the interpolant after each step 1..k-1
// (index j-1), as formulas over the path's SSA constants.
func (p *Path) interpolation(d *Decision, cfg Config) ([]*smt.Term, error) {
	items, err := p.items(d)
	if err != nil {
		return nil, err
	}
	maxCases := cfg.MaxCases
	if maxCases <= 0 {
		maxCases = 64
	}
	cases := 1
	var splits []int
	var fixed []lit
	var fixedItem []int
	for i, it := range items {
		switch len(it.cubes) {
		case 0:
			fixed = append(fixed, lit{p.tm.False(), true})
			fixedItem = append(fixedItem, i)
		case 1:
			for _, l := range it.cubes[0] {
				fixed = append(fixed, l)
				fixedItem = append(fixedItem, i)
			}
		default:
			splits = append(splits, i)
			cases *= len(it.cubes)
			if cases > maxCases {
				return nil, errNoInterpolant{fmt.Sprintf("the path's disjunctions have more than %d cases", maxCases)}
			}
		}
	}
	k := d.Step
	var rec func(level int, lits []lit, owner []int) ([]*smt.Term, error)
	rec = func(level int, lits []lit, owner []int) ([]*smt.Term, error) {
		if level == len(splits) {
			return p.leaf(items, lits, owner, k)
		}
		i := splits[level]
		var kids [][]*smt.Term
		for _, cube := range items[i].cubes {
			l2 := append([]lit(nil), lits...)
			o2 := append([]int(nil), owner...)
			for _, l := range cube {
				l2 = append(l2, l)
				o2 = append(o2, i)
			}
			r, err := rec(level+1, l2, o2)
			if err != nil {
				return nil, err
			}
			kids = append(kids, r)
		}
		out := make([]*smt.Term, k-1)
		for j := 1; j < k; j++ {
			var parts []*smt.Term
			for _, r := range kids {
				parts = append(parts, r[j-1])
			}
			if items[i].step <= j {
				out[j-1] = p.tm.Or(parts...)
			} else {
				out[j-1] = p.tm.And(parts...)
			}
		}
		return out, nil
	}
	return rec(0, fixed, fixedItem)
}

// items lists the constraints of the infeasible prefix: the core and the
// definitions of the constants they read, transitively.
func (p *Path) items(d *Decision) ([]item, error) {
	var items []item
	need := map[*smt.Term]bool{}
	var mark func(t *smt.Term)
	mark = func(t *smt.Term) {
		if t.Op() == smt.OpVar {
			if !need[t] {
				need[t] = true
				if v, ok := p.defOf[t]; ok {
					mark(v)
				}
			}
			return
		}
		for _, a := range t.Args() {
			mark(a)
		}
	}
	for _, c := range d.Core {
		mark(c.Term)
		items = append(items, item{step: c.Step, term: c.Term})
	}
	for _, df := range p.defs {
		// the heap's arrays are not linear arithmetic: their definitions
		// are left out, which weakens the formula (an interpolant of the
		// rest, if it is still infeasible, is one of the whole)
		if need[df.c] && df.step <= d.Step && !df.c.IsArray() {
			items = append(items, item{step: df.step, term: p.tm.Eq(df.c, df.v)})
		}
	}
	var out []item
	for _, it := range items {
		cubes, err := dnf(p.tm, it.term, true)
		if err != nil {
			return nil, err
		}
		it.cubes = cubes
		out = append(out, it)
	}
	return out, nil
}

// leaf refutes one case with the simplex and splits its Farkas proof.
func (p *Path) leaf(items []item, lits []lit, owner []int, k int) ([]*smt.Term, error) {
	tm := p.tm
	s := lia.Simplex{Proofs: true}
	vars := map[*smt.Term]lia.Var{}
	terms := map[lia.Var]*smt.Term{}
	varOf := func(t *smt.Term) lia.Var {
		v, ok := vars[t]
		if !ok {
			v = s.NewVar(true)
			vars[t] = v
			terms[v] = t
		}
		return v
	}
	out := make([]*smt.Term, k-1)
	atomsOf := make([]atom, len(lits))
	for i, l := range lits {
		var a atom
		switch {
		case l.t.Op() == smt.OpFalse:
			a = atom{l: lin{c: map[*smt.Term]lia.Q{}, k: oneQ}} // 1 <= 0
		case l.t.Op() == smt.OpVar && l.t.IsBool():
			a = atom{l: newLin()}
			if l.pos { // b >= 1: -b + 1 <= 0
				a.l.c[l.t], a.l.k = oneQ.Neg(), oneQ
			} else { // b <= 0
				a.l.c[l.t] = oneQ
			}
		default:
			var ok bool
			if a, ok = atomOf(l.t, l.pos); !ok {
				return nil, errNoInterpolant{"a literal interpolation does not read: " + l.t.String()}
			}
		}
		atomsOf[i] = a
		if a.trivial() {
			if a.l.k.Sign() > 0 || a.eq && !a.l.k.IsZero() {
				// the literal alone is false
				for j := 1; j < k; j++ {
					out[j-1] = tm.Bool(items[owner[i]].step > j)
				}
				return out, nil
			}
			continue
		}
		var ts []lia.Term
		for _, v := range a.l.vars() {
			ts = append(ts, lia.Term{V: varOf(v), C: a.l.c[v]})
		}
		row := s.AddRow(ts)
		bound := a.l.k.Neg()
		ok := s.AssertUpper(row, bound, int32(2*i))
		if ok && a.eq {
			ok = s.AssertLower(row, bound, int32(2*i+1))
		}
		if !ok {
			return p.split(&s, items, owner, terms, k), nil
		}
	}
	switch s.Check() {
	case lia.Unsat:
		return p.split(&s, items, owner, terms, k), nil
	case lia.Sat:
		return nil, errNoInterpolant{"a case of the path is infeasible over the integers only (no linear proof over the rationals)"}
	}
	return nil, errNoInterpolant{"the simplex did not decide a case"}
}

// split sums the A part of the Farkas proof for each cut.
func (p *Path) split(s *lia.Simplex, items []item, owner []int, terms map[lia.Var]*smt.Term, k int) []*smt.Term {
	proof := s.FarkasProof()
	out := make([]*smt.Term, k-1)
	for j := 1; j < k; j++ {
		sum := newLin()
		any := false
		for _, f := range proof {
			if items[owner[f.ID/2]].step > j {
				continue
			}
			any = true
			c := f.C
			if !f.Upper {
				c = c.Neg()
			}
			def := s.Def(f.V)
			if def == nil {
				def = []lia.Term{{V: f.V, C: oneQ}}
			}
			for _, t := range def {
				sum.add(lin{c: map[*smt.Term]lia.Q{terms[t.V]: t.C}}, c)
			}
			sum.k = sum.k.Sub(c.Mul(f.Bound))
		}
		if !any {
			out[j-1] = p.tm.True()
			continue
		}
		out[j-1] = p.atomTerm(normalize(atom{l: sum}))
	}
	return out
}

// atomTerm is an atom as a formula.
func (p *Path) atomTerm(a atom) *smt.Term {
	tm := p.tm
	if a.trivial() {
		if a.eq {
			return tm.Bool(a.l.k.IsZero())
		}
		return tm.Bool(a.l.k.Sign() <= 0)
	}
	var parts []*smt.Term
	for _, v := range a.l.vars() {
		t := v
		if v.IsBool() { // a boolean unknown is 0 or 1
			t = tm.Ite(v, tm.Int(1), tm.Int(0))
		}
		parts = append(parts, tm.Mul(tm.BigInt(a.l.c[v].Num()), t))
	}
	rhs := tm.BigInt(a.l.k.Neg().Num())
	if a.eq {
		return tm.Eq(tm.Add(parts...), rhs)
	}
	return tm.Le(tm.Add(parts...), rhs)
}

// interpolants turns the interpolants into predicates: their atoms, each
// stated at its cut.
func (p *Path) interpolants(itps []*smt.Term) *predSet {
	set := &predSet{}
	for j, t := range itps {
		atoms(t, func(t *smt.Term, a *atom) { p.state(t, a, j+1, Interpolation, set) })
	}
	return set
}
