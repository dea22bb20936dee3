package lia

import (
	"slices"
)

// eqTests switches eqTest on (a variable for tests).
var eqTests = true

// Limits of eqTest: rows considered, entries per row propagated,
// propagation rounds, elimination steps.
const (
	eqMaxRows   = 400
	eqMaxRowLen = 16
	eqRounds    = 8
	eqMaxSteps  = 2000
)

// eqBound is a bound derived by eqTest, with the ids of the asserted
// bounds it follows from.
type eqBound struct {
	val Q
	set bool
	why []int32
}

// Branch and bound cannot refute an integer problem whose relaxation is
// unbounded along a line without integer points: 2a = y - 1 with
// y - 1 <= 2b + 1 <= y - 1, say, has rational solutions a = b + 1/2 for
// every b, and each branch moves the solution one step along the line.
// eqTest looks for such problems: it propagates the bounds through the
// rows of the tableau (rounding those of integer variables), takes the
// variables whose bounds meet as fixed, and decides the equations of the
// rows over the integers with those values substituted — a system of
// linear Diophantine equations, which Gaussian elimination with the
// "least coefficient" step decides (Griggio, "A Practical Approach to
// Satisfiability Modulo Linear Integer Arithmetic", JSAT 2012).
// When either the propagation meets a variable with crossed bounds or the
// equations have no integer solution, the problem has none: eqTest
// returns false and sets the conflict to the ids of the bounds used. It
// returns true when it proves nothing, or when the problem is beyond its
// limits.
func (s *Simplex) eqTest() bool {
	if len(s.rows) == 0 || len(s.rows) > eqMaxRows {
		return true
	}
	n := len(s.val)
	lo := make([]eqBound, n)
	hi := make([]eqBound, n)
	usable := func(b bound) bool { return b.set && b.id >= 0 }
	init := func(v Var) {
		if b := s.lo[v]; usable(b) && !lo[v].set {
			lo[v] = eqBound{val: b.val, set: true, why: []int32{b.id}}
		}
		if b := s.hi[v]; usable(b) && !hi[v].set {
			hi[v] = eqBound{val: b.val, set: true, why: []int32{b.id}}
		}
	}
	for r := range s.rows {
		rw := &s.rows[r]
		init(rw.basic)
		for _, e := range rw.es {
			init(e.v)
		}
	}
	crossed := func(v Var) bool {
		return lo[v].set && hi[v].set && lo[v].val.Cmp(hi[v].val) > 0
	}
	fail := func(whys ...[]int32) bool {
		s.conflict = s.conflict[:0]
		for _, w := range whys {
			s.conflict = append(s.conflict, w...)
		}
		slices.Sort(s.conflict)
		s.conflict = slices.Compact(s.conflict)
		return false
	}

	// propagation over the rows: basic = Σ cⱼxⱼ, i.e. Σ aₖxₖ = 0 with
	// a = -1 for the basic variable
	var terms []Term
	for round, changed := 0, true; changed && round < eqRounds; round++ {
		changed = false
		for r := range s.rows {
			rw := &s.rows[r]
			if len(rw.es) >= eqMaxRowLen {
				continue
			}
			terms = append(terms[:0], Term{V: rw.basic, C: Int(-1)})
			for _, e := range rw.es {
				terms = append(terms, Term{V: e.v, C: e.c})
			}
			for i, ti := range terms {
				// aᵢxᵢ = -S with S = Σ_{k≠i} aₖxₖ in [minS, maxS]
				minS, maxS := Int(0), Int(0)
				minOK, maxOK := true, true
				var minWhy, maxWhy []int32
				for k, tk := range terms {
					if k == i {
						continue
					}
					l, h := &lo[tk.V], &hi[tk.V]
					if tk.C.Sign() < 0 {
						l, h = h, l
					}
					if minOK = minOK && l.set; minOK {
						minS = minS.Add(tk.C.Mul(l.val))
						minWhy = append(minWhy, l.why...)
					}
					if maxOK = maxOK && h.set; maxOK {
						maxS = maxS.Add(tk.C.Mul(h.val))
						maxWhy = append(maxWhy, h.why...)
					}
					if !minOK && !maxOK {
						break
					}
				}
				// xᵢ in [-maxS/aᵢ, -minS/aᵢ] for aᵢ > 0, swapped for aᵢ < 0
				upOK, up, upWhy := minOK, minS, minWhy
				dnOK, dn, dnWhy := maxOK, maxS, maxWhy
				if ti.C.Sign() < 0 {
					upOK, up, upWhy, dnOK, dn, dnWhy = dnOK, dn, dnWhy, upOK, up, upWhy
				}
				v := ti.V
				if upOK {
					u := up.Neg().Div(ti.C)
					if s.isInt[v] {
						u = u.Floor()
					}
					if !hi[v].set || u.Cmp(hi[v].val) < 0 {
						hi[v] = eqBound{val: u, set: true, why: compactIDs(upWhy)}
						changed = true
					}
				}
				if dnOK {
					d := dn.Neg().Div(ti.C)
					if s.isInt[v] {
						d = d.Ceil()
					}
					if !lo[v].set || d.Cmp(lo[v].val) > 0 {
						lo[v] = eqBound{val: d, set: true, why: compactIDs(dnWhy)}
						changed = true
					}
				}
				if crossed(v) {
					return fail(lo[v].why, hi[v].why)
				}
			}
		}
	}

	// the rows over integer variables, the fixed ones substituted
	fixed := func(v Var) bool {
		return lo[v].set && hi[v].set && lo[v].val.Equal(hi[v].val)
	}
	var sys dioph
	var why [][]int32
	for r := range s.rows {
		rw := &s.rows[r]
		if !s.isInt[rw.basic] {
			continue
		}
		allInt := true
		for _, e := range rw.es {
			allInt = allInt && s.isInt[e.v]
		}
		if !allInt {
			continue
		}
		eq := dEq{c: map[Var]Q{}, k: Int(0)}
		add := func(v Var, c Q) {
			if fixed(v) {
				eq.k = eq.k.Add(c.Mul(lo[v].val))
				why = append(why, lo[v].why, hi[v].why)
			} else {
				eq.c[v] = c
			}
		}
		add(rw.basic, Int(-1))
		for _, e := range rw.es {
			add(e.v, e.c)
		}
		eq.integral()
		sys.eqs = append(sys.eqs, eq)
	}
	sys.next = Var(n)
	if sys.solvable(s.Stop) {
		return true
	}
	return fail(why...)
}

func compactIDs(ids []int32) []int32 {
	ids = slices.Clone(ids)
	slices.Sort(ids)
	return slices.Compact(ids)
}

// A dEq is the equation Σ c[v]·v + k = 0.
type dEq struct {
	c map[Var]Q
	k Q
}

// integral scales eq to integer coefficients.
func (eq *dEq) integral() {
	l := FromBigInt(eq.k.Den())
	for _, c := range eq.c {
		d := FromBigInt(c.Den())
		l = l.Mul(d).Div(gcdQ(l, d))
	}
	if l.Equal(Int(1)) {
		return
	}
	for v, c := range eq.c {
		eq.c[v] = c.Mul(l)
	}
	eq.k = eq.k.Mul(l)
}

// A dioph is a system of linear equations with integer coefficients over
// unbounded integer variables; next is the next fresh variable.
type dioph struct {
	eqs  []dEq
	next Var
}

// solvable reports whether the system has an integer solution; it answers
// true when it runs out of steps or stop (if set) returns true.
func (d *dioph) solvable(stop func() bool) bool {
	for steps := 0; len(d.eqs) > 0; steps++ {
		if steps > eqMaxSteps || steps&63 == 63 && stop != nil && stop() {
			return true
		}
		last := len(d.eqs) - 1
		eq := &d.eqs[last]
		if len(eq.c) == 0 {
			if !eq.k.IsZero() {
				return false
			}
			d.eqs = d.eqs[:last]
			continue
		}
		// divide by the gcd of the coefficients
		var g Q
		first := true
		var xk Var
		var ak Q
		for v, c := range eq.c {
			a := c
			if a.Sign() < 0 {
				a = a.Neg()
			}
			if first {
				g, first = a, false
			} else {
				g = gcdQ(g, a)
			}
			if ak.IsZero() || a.Cmp(ak) < 0 || a.Equal(ak) && v < xk {
				xk, ak = v, a
			}
		}
		if !eq.k.Div(g).IsInt() {
			return false
		}
		if !g.Equal(Int(1)) {
			for v, c := range eq.c {
				eq.c[v] = c.Div(g)
			}
			eq.k = eq.k.Div(g)
			ak = ak.Div(g)
		}
		if eq.c[xk].Sign() < 0 {
			for v, c := range eq.c {
				eq.c[v] = c.Neg()
			}
			eq.k = eq.k.Neg()
		}
		// ak = eq.c[xk] > 0 now
		if ak.Equal(Int(1)) {
			// xk = -(Σ_{v≠xk} c·v + k): substitute it everywhere
			d.eqs = d.eqs[:last]
			sub := dEq{c: map[Var]Q{}, k: eq.k.Neg()}
			for v, c := range eq.c {
				if v != xk {
					sub.c[v] = c.Neg()
				}
			}
			d.subst(xk, sub)
			continue
		}
		// xk = σ - Σ_{v≠xk} ⌊c/ak⌋·v - ⌊k/ak⌋: the equation becomes
		// ak·σ + Σ (c mod ak)·v + (k mod ak) = 0, with smaller coefficients
		sigma := d.next
		d.next++
		sub := dEq{c: map[Var]Q{sigma: Int(1)}, k: eq.k.Div(ak).Floor().Neg()}
		for v, c := range eq.c {
			if v != xk {
				if q := c.Div(ak).Floor(); !q.IsZero() {
					sub.c[v] = q.Neg()
				}
			}
		}
		d.subst(xk, sub)
	}
	return true
}

// subst replaces x by the sum sub in every equation.
func (d *dioph) subst(x Var, sub dEq) {
	for i := range d.eqs {
		eq := &d.eqs[i]
		c, ok := eq.c[x]
		if !ok {
			continue
		}
		delete(eq.c, x)
		for v, sc := range sub.c {
			nc := eq.c[v].Add(c.Mul(sc))
			if nc.IsZero() {
				delete(eq.c, v)
			} else {
				eq.c[v] = nc
			}
		}
		eq.k = eq.k.Add(c.Mul(sub.k))
	}
}
