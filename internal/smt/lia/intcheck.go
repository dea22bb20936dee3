package lia

import (
	"math/big"
	"slices"
)

// CheckInt decides the asserted bounds over the integers for the integer
// variables (the others stay rational). It runs Check, then a GCD test on
// the rows and branch and bound, depth first, exploring at most budget
// branches (budget <= 0 means 1000); if half of them are not enough, an
// equation test (eqTest), then branch and bound in growing boxes, and
// after that Unknown. On Unsat, Conflict holds the union of the explanations of the
// leaves of the search tree, which is infeasible over the integers. The
// bounds asserted by the caller are as before when it returns.
func (s *Simplex) CheckInt(budget int) Result {
	if budget <= 0 {
		budget = 1000
	}
	s.acc = s.acc[:0]
	defer s.dropCuts()
	// a conflict of the search tree has no single Farkas proof
	defer func() { s.farkas = s.farkas[:0] }()

	cuts := maxCuts
	left := budget / 2
	r := s.branch(&left, &cuts)
	if r == Unsat {
		slices.Sort(s.acc)
		s.conflict = append(s.conflict[:0], slices.Compact(s.acc)...)
	}
	if r != Unknown {
		return r
	}
	// an unbounded line without integer points
	if eqTests && !s.eqTest() {
		return Unsat
	}
	// Branch and bound need not terminate on unbounded problems. Search
	// growing boxes around the origin (or around the nearest bound), where
	// it does: a solution in a box is a solution, and a box whose bounds no
	// leaf of the search used proves that there is none.
	left += budget - budget/2
	for m := int64(8); left > 0 && m <= 1<<40 && (s.Stop == nil || !s.Stop()); m *= 16 {
		mark := s.Mark()
		s.boxVars = s.boxVars[:0]
		for _, u := range s.undo[:mark] {
			s.collectProblemVars(u.v)
		}
		for _, v := range s.boxVars {
			s.boxMark[v] = false
			lo, hi := s.lo[v], s.hi[v]
			c := Int(0)
			switch {
			case lo.set && lo.val.Sign() > 0:
				c = lo.val
			case hi.set && hi.val.Sign() < 0:
				c = hi.val
			}
			s.AssertUpper(v, c.Add(Int(m)), boxID)
			s.AssertLower(v, c.Sub(Int(m)), boxID)
		}
		s.acc = s.acc[:0]
		s.boxUsed = false
		r := s.branch(&left, &cuts)
		s.Backtrack(mark)
		switch {
		case r == Sat:
			return Sat
		case r == Unsat && !s.boxUsed:
			slices.Sort(s.acc)
			s.conflict = append(s.conflict[:0], slices.Compact(s.acc)...)
			return Unsat
		}
	}
	return Unknown
}

// collectProblemVars adds to boxVars the integer problem variables of v
// (v itself, or those of its definition).
func (s *Simplex) collectProblemVars(v Var) {
	if d := s.def[v]; d != nil {
		for _, t := range d {
			s.collectProblemVars(t.V)
		}
		return
	}
	for int(v) >= len(s.boxMark) {
		s.boxMark = append(s.boxMark, false)
	}
	if s.isInt[v] && !s.boxMark[v] {
		s.boxMark[v] = true
		s.boxVars = append(s.boxVars, v)
	}
}

func (s *Simplex) branch(left, cuts *int) Result {
	switch s.Check() {
	case Unsat:
		s.acc = append(s.acc, s.conflict...)
		return Unsat
	case Unknown:
		return Unknown
	}
	x := s.fractional()
	if x < 0 {
		return Sat
	}
	if !s.gcdTest() {
		s.acc = append(s.acc, s.conflict...)
		return Unsat
	}
	if *left <= 0 || *left&15 == 0 && s.Stop != nil && s.Stop() {
		return Unknown
	}
	if *cuts > 0 {
		if c, k, ok := s.gomoryCut(); ok {
			// the cut holds wherever the bounds of this node do: assert
			// it for the subtree, and try again
			*cuts--
			m := s.Mark()
			r := Unsat
			if s.AssertLower(c, k, cutID) {
				r = s.branch(left, cuts)
			} else {
				s.acc = append(s.acc, s.conflict...)
			}
			s.Backtrack(m)
			return r
		}
	}
	*left--
	s.Branches++
	v := s.val[x]
	fl := v.Floor()
	ce := fl.Add(Int(1))
	downFirst := v.Sub(fl).Cmp(Frac(1, 2)) <= 0
	result := Unsat
	for i := range 2 {
		m := s.Mark()
		var ok bool
		if (i == 0) == downFirst {
			ok = s.AssertUpper(x, fl, branchID)
		} else {
			ok = s.AssertLower(x, ce, branchID)
		}
		r := Unsat
		if ok {
			r = s.branch(left, cuts)
		} else {
			s.acc = append(s.acc, s.conflict...)
		}
		s.Backtrack(m)
		switch r {
		case Sat:
			return Sat // values survive Backtrack
		case Unknown:
			result = Unknown
		}
	}
	return result
}

// fractional returns an integer problem variable with a non-integer value
// that occurs in a bound (directly or through a slack variable), or -1.
// Slack variables with integer definitions are integral once those are;
// variables in no bound may keep any value, so they need no branching.
func (s *Simplex) fractional() Var {
	best := Var(-1)
	var consider func(v Var)
	consider = func(v Var) {
		if d := s.def[v]; d != nil {
			for _, t := range d {
				consider(t.V) // definitions refer to older variables only
			}
			return
		}
		if s.isInt[v] && (best < 0 || v < best) && !s.val[v].IsInt() {
			best = v
		}
	}
	for _, u := range s.undo {
		consider(u.v)
	}
	return best
}

// gcdTest looks for a row whose variables are all integers and whose
// non-fixed coefficients have a common divisor that does not divide the
// contribution of the fixed ones: no integer solution then exists.
func (s *Simplex) gcdTest() bool {
	for r := range s.rows {
		rw := &s.rows[r]
		if !s.isInt[rw.basic] {
			continue
		}
		ok, done := s.gcdRowSmall(rw)
		if !done {
			ok = s.gcdRowBig(rw)
		}
		if ok {
			continue
		}
		s.conflict = s.conflict[:0]
		for _, e := range rw.es {
			if s.fixed(e.v) {
				s.addID(s.lo[e.v].id)
				s.addID(s.hi[e.v].id)
			}
		}
		if s.fixed(rw.basic) {
			s.addID(s.lo[rw.basic].id)
			s.addID(s.hi[rw.basic].id)
		}
		return false
	}
	return true
}

// gcdRowSmall is the GCD test of one row in int64 arithmetic; done is
// false when a number does not fit.
func (s *Simplex) gcdRowSmall(rw *row) (ok, done bool) {
	lcm := int64(1)
	for _, e := range rw.es {
		if !s.isInt[e.v] {
			return true, true
		}
		if e.c.b != nil {
			return false, false
		}
		d := e.c.den()
		g := int64(gcd64(uint64(lcm), uint64(d)))
		var fits bool
		if lcm, fits = mul64(lcm, d/g); !fits {
			return false, false
		}
	}
	var g uint64
	var cst int64
	term := func(v Var, c int64) bool {
		if s.fixed(v) {
			x, small := s.val[v].Int64()
			if !small {
				return false
			}
			p, fits := mul64(c, x)
			if !fits {
				return false
			}
			if cst, fits = add64(cst, p); !fits {
				return false
			}
		} else {
			g = gcd64(g, abs64(c))
		}
		return true
	}
	for _, e := range rw.es {
		c, fits := mul64(e.c.n, lcm/e.c.den())
		if !fits || !term(e.v, c) {
			return false, false
		}
	}
	if !term(rw.basic, -lcm) {
		return false, false
	}
	return g == 0 || cst%int64(g) == 0, true
}

func (s *Simplex) gcdRowBig(rw *row) bool {
	var lcm, g, cst, t big.Int
	lcm.SetInt64(1)
	for _, e := range rw.es {
		if !s.isInt[e.v] {
			return true
		}
		d := e.c.Den()
		t.GCD(nil, nil, &lcm, d)
		lcm.Mul(&lcm, d.Quo(d, &t))
	}
	// 0 = sum(lcm*c_k x_k) - lcm*basic
	term := func(v Var, c *big.Int) {
		if s.fixed(v) {
			t.Mul(c, s.val[v].Num())
			cst.Add(&cst, &t)
		} else {
			t.Abs(c)
			g.GCD(nil, nil, &g, &t)
		}
	}
	for _, e := range rw.es {
		c := e.c.Num()
		c.Mul(c, &lcm)
		c.Quo(c, e.c.Den())
		term(e.v, c)
	}
	term(rw.basic, new(big.Int).Neg(&lcm))
	return g.Sign() == 0 || t.Rem(&cst, &g).Sign() == 0
}

func (s *Simplex) fixed(v Var) bool {
	return s.lo[v].set && s.hi[v].set && s.lo[v].val.Equal(s.hi[v].val) && s.val[v].Equal(s.lo[v].val)
}

// maxCuts bounds the cuts of one CheckInt (a variable for tests). A few
// cuts near the root of the search settle many problems branching alone
// leaves open; many slow every pivot down with their coefficients.
var maxCuts = 8

// gomoryCut derives a Gomory mixed-integer cut from a row of the tableau
// whose basic variable is an integer with a fractional value and whose
// nonbasic variables are all at a bound: writing each nonbasic xⱼ as its
// bound plus or minus tⱼ >= 0, the row reads xb - Σ aⱼtⱼ = β, and every
// integer solution satisfies Σ gⱼtⱼ >= 1 with, for f0 the fractional part
// of β and fⱼ that of aⱼ, gⱼ = fⱼ/f0 (fⱼ <= f0) or (1-fⱼ)/(1-f0) for an
// integer xⱼ, and aⱼ/f0 (aⱼ > 0) or -aⱼ/(1-f0) for a rational one. The
// current solution (all tⱼ = 0) violates it. The cut, scaled to integer
// coefficients, becomes a new row c >= k, valid wherever the bounds it
// used hold; their ids go to acc, as part of any Unsat explanation of this
// CheckInt. It returns false when no row qualifies.
func (s *Simplex) gomoryCut() (Var, Q, bool) {
	best := int32(-1)
	var bestDist Q
	half := Frac(1, 2)
	for r := range s.rows {
		rw := &s.rows[r]
		b := rw.basic
		if !s.isInt[b] || s.val[b].IsInt() {
			continue
		}
		ok := true
		for _, e := range rw.es {
			if !s.atLower(e.v) && !s.atUpper(e.v) {
				ok = false
				break
			}
		}
		if !ok {
			continue
		}
		// prefer the fractional part nearest 1/2
		f := s.val[b].Sub(s.val[b].Floor())
		d := f.Sub(half)
		if d.Sign() < 0 {
			d = d.Neg()
		}
		if best < 0 || d.Cmp(bestDist) < 0 {
			best, bestDist = int32(r), d
		}
	}
	if best < 0 {
		return 0, Q{}, false
	}
	rw := &s.rows[best]
	beta := s.val[rw.basic]
	f0 := beta.Sub(beta.Floor())
	g1 := Int(1).Sub(f0)
	terms := s.cutTerms[:0]
	ids := s.cutIDs[:0]
	k := Int(1)
	for _, e := range rw.es {
		// xb - Σ aⱼtⱼ = β with aⱼ = -cⱼ (xⱼ = lo + tⱼ) or cⱼ (xⱼ = hi - tⱼ)
		lower := s.atLower(e.v)
		alpha := e.c
		if lower {
			alpha = alpha.Neg()
		}
		var g Q
		switch {
		case s.isInt[e.v]:
			fj := alpha.Sub(alpha.Floor())
			if fj.Cmp(f0) <= 0 {
				g = fj.Div(f0)
			} else {
				g = Int(1).Sub(fj).Div(g1)
			}
		case alpha.Sign() > 0:
			g = alpha.Div(f0)
		default:
			g = alpha.Neg().Div(g1)
		}
		if g.IsZero() {
			continue
		}
		// t = x - lo, or hi - x
		if lower {
			terms = append(terms, Term{V: e.v, C: g})
			k = k.Add(g.Mul(s.lo[e.v].val))
			ids = append(ids, s.lo[e.v].id)
		} else {
			terms = append(terms, Term{V: e.v, C: g.Neg()})
			k = k.Sub(g.Mul(s.hi[e.v].val))
			ids = append(ids, s.hi[e.v].id)
		}
	}
	s.cutTerms, s.cutIDs = terms, ids
	if len(terms) == 0 {
		return 0, Q{}, false // cannot happen: β would be an integer
	}
	// integer coefficients: multiply by the lcm of the denominators
	l := Int(1)
	for _, t := range terms {
		d := FromBigInt(t.C.Den())
		if n, ok := d.Int64(); ok && n == 1 {
			continue
		}
		l = l.Mul(d).Div(gcdQ(l, d))
	}
	if !l.Equal(Int(1)) {
		for i := range terms {
			terms[i].C = terms[i].C.Mul(l)
		}
		k = k.Mul(l)
	}
	// cuts with large coefficients slow every later pivot down more than
	// they help (and cuts of cuts grow fast): skip them
	if !small(k) {
		return 0, Q{}, false
	}
	for _, t := range terms {
		if !small(t.C) {
			return 0, Q{}, false
		}
	}
	for _, id := range ids {
		if id == boxID {
			s.boxUsed = true
		}
		if id >= 0 {
			s.acc = append(s.acc, id)
		}
	}
	c := s.AddRow(terms)
	s.cutRows = append(s.cutRows, c)
	s.Cuts++
	return c, k, true
}

// maxCutCoef bounds the coefficients of a cut.
const maxCutCoef = 1 << 16

// small reports whether q's numerator and denominator are below
// maxCutCoef in absolute value.
func small(q Q) bool {
	return q.b == nil && q.n > -maxCutCoef && q.n < maxCutCoef && q.den() < maxCutCoef
}

func gcdQ(a, b Q) Q {
	return FromBigInt(new(big.Int).GCD(nil, nil, a.Num(), b.Num()))
}

func (s *Simplex) atLower(v Var) bool { return s.lo[v].set && s.val[v].Equal(s.lo[v].val) }
func (s *Simplex) atUpper(v Var) bool { return s.hi[v].set && s.val[v].Equal(s.hi[v].val) }

// dropCuts removes the rows of the cuts of the last CheckInt whose slack
// variable is basic from the tableau (their bounds are retracted already;
// such a variable occurs in no other row, so that the other rows keep
// their meaning). A cut variable that is nonbasic stays, unbounded: the
// rows still define the same set of solutions, and the next Restrict drops
// it.
func (s *Simplex) dropCuts() {
	for _, c := range s.cutRows {
		if r := s.rowOf[c]; r >= 0 {
			s.removeRow(r)
			s.inTab[c] = s.tabGen - 1
		}
	}
	s.cutRows = s.cutRows[:0]
}

// removeRow drops row r, whose basic variable occurs in no other row.
func (s *Simplex) removeRow(r int32) {
	rw := s.rows[r]
	for _, e := range rw.es {
		s.dropCol(e.v, e.ci)
	}
	s.rowOf[rw.basic] = -1
	s.inDirty[rw.basic] = false
	last := int32(len(s.rows) - 1)
	if r != last {
		moved := s.rows[last]
		s.rows[r] = moved
		s.rowOf[moved.basic] = r
		for _, e := range moved.es {
			s.col[e.v][e.ci].r = r
		}
	}
	s.rows = s.rows[:last]
	s.spare = append(s.spare, rw.es[:0])
}
