package lia

import (
	"math/big"
	"slices"
)

// CheckInt decides the asserted bounds over the integers for the integer
// variables (the others stay rational). It runs Check, then a GCD test on
// the rows and branch and bound, depth first, exploring at most budget
// branches (budget <= 0 means 1000); if that is not enough it answers
// Unknown. On Unsat, Conflict holds the union of the explanations of the
// leaves of the search tree, which is infeasible over the integers. The
// bounds asserted by the caller are as before when it returns.
func (s *Simplex) CheckInt(budget int) Result {
	if budget <= 0 {
		budget = 1000
	}
	s.acc = s.acc[:0]
	left := budget / 2
	r := s.branch(&left)
	if r == Unsat {
		slices.Sort(s.acc)
		s.conflict = append(s.conflict[:0], slices.Compact(s.acc)...)
	}
	if r != Unknown {
		return r
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
		r := s.branch(&left)
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

func (s *Simplex) branch(left *int) Result {
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
			r = s.branch(left)
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
