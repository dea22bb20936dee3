package sat

import (
	"math/bits"
	"math/rand/v2"
	"testing"
)

// cardTheory is a test theory over the theory variables vars: at least lo
// and at most hi of them are true. It answers at-most violations with
// conflicts, propagates at the bound, and enforces at-least in the final
// check with lemmas; it also introduces, once, a fresh variable defined
// equal to vars[0] by two lemmas.
type cardTheory struct {
	s        *Solver
	vars     []Var
	lo, hi   int
	asserted []Lit
	fresh    Var
	defined  bool
	checks   int
}

func (c *cardTheory) Assert(l Lit) { c.asserted = append(c.asserted, l) }

func (c *cardTheory) Backtrack(n int) { c.asserted = c.asserted[:n] }

func (c *cardTheory) Check(final bool) []Lit {
	c.checks++
	var trues []Lit
	for _, l := range c.asserted {
		if !l.IsNeg() && l.Var() != c.fresh {
			trues = append(trues, l)
		}
	}
	if len(trues) > c.hi {
		confl := make([]Lit, 0, c.hi+1)
		for _, l := range trues[:c.hi+1] {
			confl = append(confl, l.Not())
		}
		return confl
	}
	if len(trues) == c.hi {
		for _, v := range c.vars {
			if c.s.Value(Pos(v)) == 0 {
				reason := []Lit{Neg(v)}
				for _, l := range trues {
					reason = append(reason, l.Not())
				}
				c.s.Imply(Neg(v), reason)
			}
		}
	}
	if final {
		if !c.defined {
			c.defined = true
			c.fresh = c.s.NewVar()
			c.s.SetTheoryVar(c.fresh)
			c.s.AddLemma([]Lit{Neg(c.fresh), Pos(c.vars[0])})
			c.s.AddLemma([]Lit{Pos(c.fresh), Neg(c.vars[0])})
			return nil
		}
		if len(trues) < c.lo {
			var lemma []Lit
			for _, v := range c.vars {
				if c.s.Value(Pos(v)) == -1 {
					lemma = append(lemma, Pos(v))
				}
			}
			c.s.AddLemma(lemma)
		}
	}
	return nil
}

func TestTheoryHook(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 12))
	counts := [3]int{}
	for i := range 500 {
		n := 5 + r.IntN(8)
		f := random3SAT(r, n, int(float64(n)*(2+2*r.Float64())))
		k := 2 + r.IntN(5)
		if k > n {
			k = n
		}
		var tv []Var
		var mask uint32
		for v := range k {
			tv = append(tv, Var(v))
			mask |= 1 << v
		}
		lo := r.IntN(k + 1)
		hi := lo + r.IntN(k+1-lo)
		s := load(f)
		th := &cardTheory{s: s, vars: tv, lo: lo, hi: hi, fresh: -1}
		s.SetTheory(th)
		for _, v := range tv {
			s.SetTheoryVar(v)
		}
		var as []Lit
		if i%2 == 1 {
			as = append(as, MkLit(Var(r.IntN(n)), r.IntN(2) == 0))
		}
		got := s.Solve(as)
		// brute force
		all := f.clauses[:len(f.clauses):len(f.clauses)]
		for _, l := range as {
			all = append(all, []Lit{l})
		}
		want := false
		for a := uint32(0); a < 1<<n && !want; a++ {
			if c := bits.OnesCount32(a & mask); c < lo || c > hi {
				continue
			}
			ok := true
			for _, c := range all {
				sat := false
				for _, l := range c {
					if (a>>l.Var()&1 == 1) != l.IsNeg() {
						sat = true
					}
				}
				if !sat {
					ok = false
					break
				}
			}
			want = ok
		}
		counts[got]++
		if got == Unknown || (got == Sat) != want {
			t.Fatalf("instance %d (card %d..%d of %d): got %v, want sat=%v", i, lo, hi, k, got, want)
		}
		if got == Sat {
			checkModel(t, s, f, as)
			c := 0
			for _, v := range tv {
				if s.ModelValue(v) {
					c++
				}
			}
			if c < lo || c > hi {
				t.Fatalf("instance %d: model has %d of %d true, want %d..%d", i, c, k, lo, hi)
			}
			if th.defined && s.ModelValue(th.fresh) != s.ModelValue(tv[0]) {
				t.Fatalf("instance %d: fresh variable differs from its definition", i)
			}
		}
		// The theory's view must equal the theory literals on the trail.
		if len(th.asserted) != len(s.thTold) {
			t.Fatalf("theory has %d literals, solver told %d", len(th.asserted), len(s.thTold))
		}
	}
	if counts[Sat] == 0 || counts[Unsat] == 0 {
		t.Errorf("unbalanced: %v", counts)
	}
}

type abortTheory struct{ s *Solver }

func (a abortTheory) Assert(Lit)    {}
func (a abortTheory) Backtrack(int) {}
func (a abortTheory) Check(final bool) []Lit {
	if final {
		a.s.Abort()
	}
	return nil
}

func TestTheoryAbort(t *testing.T) {
	s := New()
	v := s.NewVar()
	s.AddClause(Pos(v))
	s.SetTheory(abortTheory{s})
	if got := s.Solve(nil); got != Unknown {
		t.Fatalf("got %v, want unknown", got)
	}
	s.SetTheory(nil)
	if got := s.Solve(nil); got != Sat {
		t.Fatalf("got %v after removing the theory", got)
	}
}
