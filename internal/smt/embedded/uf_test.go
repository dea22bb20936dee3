package embedded

import (
	"math/rand/v2"
	"testing"

	"birch/internal/smt"
)

func TestCongruence(t *testing.T) {
	tm := smt.NewTermManager()
	x, y := tm.Const("x", smt.IntSort), tm.Const("y", smt.IntSort)
	fs, _ := tm.Declare("f", []*smt.Sort{smt.IntSort}, smt.IntSort)
	ps, _ := tm.Declare("P", []*smt.Sort{smt.IntSort, smt.BoolSort}, smt.BoolSort)
	f := func(a *smt.Term) *smt.Term { return tm.Apply(fs, a) }
	s := New(tm)
	s.Assert(tm.Eq(x, tm.Add(y, tm.Int(1))))
	s.Assert(tm.Distinct(f(x), f(tm.Add(y, tm.Int(1)))))
	check(t, s, smt.Unsat)

	// f(f(x)) = x, f(f(f(x))) = x  ->  f(x) = x
	s = New(tm)
	s.Assert(tm.Eq(f(f(x)), x))
	s.Assert(tm.Eq(f(f(f(x))), x))
	s.Assert(tm.Distinct(f(x), x))
	check(t, s, smt.Unsat)

	// satisfiable, with a model the evaluator accepts
	s = New(tm)
	p := tm.Const("p", smt.BoolSort)
	fa := []*smt.Term{
		tm.Distinct(f(x), f(y)),
		tm.Apply(ps, f(x), p),
		tm.Not(tm.Apply(ps, f(y), tm.Not(p))),
		tm.Eq(tm.Add(f(x), f(y)), tm.Int(10)),
	}
	for _, a := range fa {
		s.Assert(a)
	}
	check(t, s, smt.Sat)
	m, err := s.Model()
	if err != nil {
		t.Fatal(err)
	}
	for _, a := range fa {
		if ok, err := m.Holds(a); !ok || err != nil {
			t.Fatalf("model\n%v\nfalsifies %v (%v)", m, a, err)
		}
	}
}

// TestLazyCongruence checks the model-based congruence lemmas: a lemma is
// made only when the values break congruence, the arguments' definitions
// (here an ite) take part in the check, and a long-lived solver's lemmas
// from an earlier query serve a later one.
func TestLazyCongruence(t *testing.T) {
	tm := smt.NewTermManager()
	x, y, z := tm.Const("x", smt.IntSort), tm.Const("y", smt.IntSort), tm.Const("z", smt.IntSort)
	p := tm.Const("p", smt.BoolSort)
	fs, _ := tm.Declare("f", []*smt.Sort{smt.IntSort}, smt.IntSort)
	gs, _ := tm.Declare("g", []*smt.Sort{smt.BoolSort}, smt.IntSort)
	f := func(a *smt.Term) *smt.Term { return tm.Apply(fs, a) }
	s := New(tm)

	// f(ite(p, x, y)) = f(z) follows from p and x = z
	s.Push()
	s.Assert(p)
	s.Assert(tm.Eq(x, z))
	s.Assert(tm.Distinct(f(tm.Ite(p, x, y)), f(z)))
	check(t, s, smt.Unsat)
	s.Pop(1)

	// models must satisfy what they answer, lemmas or not
	g := func(a *smt.Term) *smt.Term { return tm.Apply(gs, a) }
	for _, c := range []struct {
		fa   []*smt.Term
		want smt.Result
	}{
		{[]*smt.Term{tm.Not(p), tm.Distinct(y, z), tm.Distinct(f(tm.Ite(p, x, y)), f(z))}, smt.Sat},
		{[]*smt.Term{tm.Distinct(f(x), f(y)), tm.Le(x, y), tm.Le(y, x)}, smt.Unsat},
		{[]*smt.Term{tm.Distinct(g(p), g(tm.Lt(x, y))), tm.Lt(x, y)}, smt.Sat}, // p false
		{[]*smt.Term{tm.Distinct(g(p), g(tm.Lt(x, y))), p, tm.Lt(x, y)}, smt.Unsat},
		{[]*smt.Term{tm.Eq(f(f(x)), y), tm.Eq(f(y), x), tm.Eq(x, f(x)), tm.Distinct(x, y)}, smt.Unsat},
		{[]*smt.Term{tm.Eq(f(f(x)), y), tm.Eq(f(y), x), tm.Distinct(x, y)}, smt.Sat},
	} {
		s.Push()
		for _, a := range c.fa {
			s.Assert(a)
		}
		check(t, s, c.want)
		if c.want == smt.Sat {
			m, err := s.Model()
			if err != nil {
				t.Fatal(err)
			}
			for _, a := range c.fa {
				if ok, err := m.Holds(a); !ok || err != nil {
					t.Fatalf("model\n%v\nfalsifies %v (%v)", m, a, err)
				}
			}
		}
		s.Pop(1)
	}
}

func TestUFAgainstZ3(t *testing.T) {
	tm := smt.NewTermManager()
	z3 := newZ3(t, tm)
	r := rand.New(rand.NewPCG(8, 8))
	vars := []*smt.Term{tm.Const("x", smt.IntSort), tm.Const("y", smt.IntSort), tm.Const("z", smt.IntSort)}
	bools := []*smt.Term{tm.Const("p", smt.BoolSort), tm.Const("q", smt.BoolSort)}
	f, _ := tm.Declare("f", []*smt.Sort{smt.IntSort}, smt.IntSort)
	g, _ := tm.Declare("g", []*smt.Sort{smt.IntSort, smt.IntSort}, smt.IntSort)
	var intTerm func(d int) *smt.Term
	intTerm = func(d int) *smt.Term {
		switch k := r.IntN(10); {
		case d == 0 || k < 3:
			return vars[r.IntN(len(vars))]
		case k < 4:
			return tm.Int(r.Int64N(5) - 2)
		case k < 6:
			return tm.Apply(f, intTerm(d-1))
		case k < 7:
			return tm.Apply(g, intTerm(d-1), intTerm(d-1))
		case k < 9:
			return tm.Add(intTerm(d-1), intTerm(d-1))
		default:
			return tm.Ite(boolTerm(r, tm, bools, intTerm, d-1), intTerm(d-1), intTerm(d-1))
		}
	}
	n := 500
	if testing.Short() {
		n = 100
	}
	unknown := 0
	// One long-lived solver, one scope per formula: what popped scopes
	// leave behind (congruence clauses, definitions) must not matter.
	s := New(tm)
	for iter := range n {
		var fs []*smt.Term
		for range 1 + r.IntN(5) {
			fs = append(fs, boolTerm(r, tm, bools, intTerm, 3))
		}
		if got, _ := checkAgainst(t, iter, tm, s, z3, fs); got == smt.Unknown {
			unknown++
		}
	}
	if unknown > 0 {
		t.Logf("%d of %d unknown", unknown, n)
	}
}
