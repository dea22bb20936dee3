package embedded

import (
	"fmt"

	"birch/internal/smt/lia"
	"birch/internal/smt/sat"
)

// Nonlinear products x·y are decided by lazy linearization: the product is
// a fresh integer p, and when the search answers Sat with values a of x
// and b of y such that p ≠ a·b, the solver adds the valid lemmas
//
//	x = a → p = a·y        y = b → p = x·b
//
// and the search goes on. Each lemma pins the product for one value of one
// factor, so a problem whose factor ranges over finitely many values (the
// bounded questions birch asks: a quotient bounded by its dividend, a
// choice over a range) is decided after at most that many lemmas; an
// unbounded one may not be, and answers Unknown after maxProductRounds
// rounds.
//
// Division and remainder by a non-constant b are a fresh quotient q and
// remainder r with a = q·b + r and 0 ≤ r < |b| when b ≠ 0, the product q·b
// linearized as above. SMT-LIB leaves (div a 0) unspecified but functional;
// rather than relate such terms to each other, an assignment that gives a
// relevant divisor the value 0 makes the check answer Unknown.

// maxProductRounds bounds the rounds of product lemmas in one check.
const maxProductRounds = 256

// A prod is the fresh integer x standing for the product of a and b.
type prod struct {
	id   int32
	x    lia.Var
	a, b *lin
	mark uint32 // relGen when relevant
}

type prodKey struct {
	id   int32
	side uint8  // 0: a is fixed, 1: b is
	val  string // the value of the fixed factor
}

// nonlinear is the memory of the products; it lives in the Solver.
type nonlinear struct {
	list   []*prod
	ofLia  []int32 // by simplex variable: 1 + the product it stands for, or 0
	act    []*prod // the relevant products of the last check
	lemmas map[prodKey][]sat.Var
	rooted []prodKey // the lemmas of the current check
	rounds int
	gaveUp string // why the current check stopped adding lemmas, or ""

	divOfLia []*lin // by simplex variable of a quotient: its divisor
	actDivs  []*lin // the divisors of the relevant quotients of the last check
}

// divide returns fresh q and r with a = q·b + r, 0 ≤ r < |b| when b ≠ 0
// (Euclidean division), for b not a constant.
func (s *Solver) divide(a, b *lin) (q, r *lin) {
	q, r = s.freshInt(), s.freshInt()
	p := s.product(q, b)
	e := s.eqZero(addLin(addLin(a, p, lia.Int(-1)), r, lia.Int(-1))) // a - p - r = 0
	lo := s.leq(scaleLin(r, lia.Int(-1)), lia.Int(0))                // r >= 0
	pos := s.leq(b, lia.Int(0)).Not()                                // b > 0
	neg := s.leq(b, lia.Int(-1))                                     // b < 0
	hiPos := s.leq(addLin(r, b, lia.Int(-1)), lia.Int(-1))           // r - b <= -1
	hiNeg := s.leq(addLin(r, b, lia.Int(1)), lia.Int(-1))            // r + b <= -1
	g := s.guard(q)
	s.fresh(r.ts[0].V).guard, s.fresh(r.ts[0].V).guarded = g, true
	for _, c := range [][]sat.Lit{
		{g.Not(), pos.Not(), e}, {g.Not(), neg.Not(), e},
		{g.Not(), pos.Not(), lo}, {g.Not(), neg.Not(), lo},
		{g.Not(), pos.Not(), hiPos}, {g.Not(), neg.Not(), hiNeg},
	} {
		s.sat.AddClause(c...)
	}
	deps := []sat.Var{e.Var(), lo.Var(), pos.Var(), neg.Var(), hiPos.Var(), hiNeg.Var()}
	s.fresh(q.ts[0].V).deps, s.fresh(r.ts[0].V).deps = deps, deps
	for _, x := range []lia.Var{q.ts[0].V, r.ts[0].V} {
		for int(x) >= len(s.nl.divOfLia) {
			s.nl.divOfLia = append(s.nl.divOfLia, nil)
		}
		s.nl.divOfLia[x] = b
	}
	return q, r
}

// product returns the linear form of a fresh integer standing for a·b,
// where a and b are not constants.
func (s *Solver) product(a, b *lin) *lin {
	v := s.freshInt()
	x := v.ts[0].V
	p := &prod{id: int32(len(s.nl.list)), x: x, a: a, b: b}
	s.nl.list = append(s.nl.list, p)
	for int(x) >= len(s.nl.ofLia) {
		s.nl.ofLia = append(s.nl.ofLia, 0)
	}
	s.nl.ofLia[x] = p.id + 1
	return v
}

// activateProduct marks the factors of a relevant product relevant.
func (s *Solver) activateProduct(p *prod, gen uint32, st []sat.Var) []sat.Var {
	if p.mark == gen {
		return st
	}
	p.mark = gen
	s.nl.act = append(s.nl.act, p)
	for _, l := range []*lin{p.a, p.b} {
		for _, t := range l.ts {
			st = s.markLia(t.V, gen, st)
		}
	}
	return st
}

// productLemmas adds the lemmas that the current assignment's products
// break. stuck reports a lemma that was already in force (which would
// loop) or too many rounds.
func (s *Solver) productLemmas() (added int, stuck bool) {
	for _, b := range s.nl.actDivs {
		if s.linValueFloor(b).IsZero() {
			s.nl.gaveUp = "division by a non-constant: the divisor may be 0"
			return added, true
		}
	}
	for _, p := range s.nl.act {
		va, vb := s.linValueFloor(p.a), s.linValueFloor(p.b)
		if s.th.lp.Value(p.x).Floor().Equal(va.Mul(vb)) {
			continue
		}
		if s.nl.rounds++; s.nl.rounds > maxProductRounds {
			s.nl.gaveUp = fmt.Sprintf("nonlinear multiplication: no decision after %d rounds of lemmas", maxProductRounds)
			return added, true
		}
		for side, fixed := range [2]struct{ f, other *lin }{{p.a, p.b}, {p.b, p.a}} {
			key := prodKey{p.id, uint8(side), va.String()}
			v := va
			if side == 1 {
				key.val, v = vb.String(), vb
			}
			for _, k := range s.nl.rooted {
				if k == key {
					return added, true
				}
			}
			s.nl.rooted = append(s.nl.rooted, key)
			s.productLemma(key, p, fixed.f, fixed.other, v)
			added++
		}
	}
	return added, false
}

// productLemma adds (or roots again) f = v → p = v·other.
func (s *Solver) productLemma(key prodKey, p *prod, f, other *lin, v lia.Q) {
	vs, ok := s.nl.lemmas[key]
	if !ok {
		if s.nl.lemmas == nil {
			s.nl.lemmas = map[prodKey][]sat.Var{}
		}
		lo, hi := s.leq(f, v), s.leq(f, v.Sub(lia.Int(1))).Not() // f <= v, f >= v
		d := varLin(p.x)                                         // p - v·other; addLin keeps zero coefficients when v is 0
		if !v.IsZero() {
			d = addLin(d, other, v.Neg())
		}
		for _, c := range [][]sat.Lit{
			{lo.Not(), hi.Not(), s.leq(d, lia.Int(0))},
			{lo.Not(), hi.Not(), s.leq(d, lia.Int(-1)).Not()},
		} {
			s.sat.AddClause(c...)
			for _, l := range c {
				vs = append(vs, l.Var())
			}
		}
		s.nl.lemmas[key] = vs
	}
	s.ar.roots = append(s.ar.roots, vs...)
}
