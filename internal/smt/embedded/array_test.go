package embedded

import (
	"math/rand/v2"
	"testing"

	"birch/internal/smt"
)

// decide asserts fs in a new scope of s, checks, verifies a sat model by
// evaluation and pops the scope.
func decide(t *testing.T, s *Solver, want smt.Result, fs ...*smt.Term) {
	t.Helper()
	s.Push()
	defer s.Pop(1)
	for _, f := range fs {
		s.Assert(f)
	}
	got, err := s.Check()
	if err != nil {
		t.Fatalf("%v: %v", fs, err)
	}
	if got != want {
		t.Fatalf("%v: got %v, want %v", s.tm.And(fs...), got, want)
	}
	if got != smt.Sat {
		return
	}
	m, err := s.Model()
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range fs {
		if ok, err := m.Holds(f); !ok || err != nil {
			t.Fatalf("model\n%v\nfalsifies %v (%v)", m, f, err)
		}
	}
}

// valid checks that f holds in every model (and that its negation has
// none), in a long-lived solver.
func valid(t *testing.T, s *Solver, f *smt.Term) {
	t.Helper()
	decide(t, s, smt.Unsat, s.tm.Not(f))
}

func TestReadOverWrite(t *testing.T) {
	tm := smt.NewTermManager()
	ai := tm.ArraySort(smt.IntSort, smt.IntSort)
	a := tm.Const("a", ai)
	i, j, v := tm.Const("i", smt.IntSort), tm.Const("j", smt.IntSort), tm.Const("v", smt.IntSort)
	s := New(tm)
	st := tm.Store(a, i, v)
	valid(t, s, tm.Eq(tm.Select(st, i), v))
	valid(t, s, tm.Implies(tm.Eq(i, j), tm.Eq(tm.Select(st, j), v)))
	valid(t, s, tm.Implies(tm.Distinct(i, j), tm.Eq(tm.Select(st, j), tm.Select(a, j))))
	valid(t, s, tm.Eq(tm.Select(st, tm.Add(i, tm.Int(1))), tm.Select(a, tm.Add(i, tm.Int(1)))))
	// the index as an expression: i = j+1 makes a[j+1] the stored value
	decide(t, s, smt.Unsat, tm.Eq(i, tm.Add(j, tm.Int(1))), tm.Distinct(tm.Select(st, tm.Add(j, tm.Int(1))), v))
	// without i = j either answer is possible
	decide(t, s, smt.Sat, tm.Distinct(tm.Select(st, j), v))
	decide(t, s, smt.Sat, tm.Distinct(tm.Select(st, j), tm.Select(a, j)))
	// overwriting: the last store wins
	st2 := tm.Store(st, i, tm.Add(v, tm.Int(1)))
	valid(t, s, tm.Eq(tm.Select(st2, i), tm.Add(v, tm.Int(1))))
	// a chain of stores at 0..4 read back in a loop-like way
	arr := a
	for k := range 5 {
		arr = tm.Store(arr, tm.Int(int64(k)), tm.Int(int64(10*k)))
	}
	for k := range 5 {
		valid(t, s, tm.Eq(tm.Select(arr, tm.Int(int64(k))), tm.Int(int64(10*k))))
	}
	decide(t, s, smt.Sat, tm.Le(tm.Int(0), j), tm.Le(j, tm.Int(4)), tm.Eq(tm.Select(arr, j), tm.Int(30)))
	decide(t, s, smt.Unsat, tm.Le(tm.Int(0), j), tm.Le(j, tm.Int(4)), tm.Eq(tm.Select(arr, j), tm.Int(35)))
	// Bool elements
	ab := tm.Const("b", tm.ArraySort(smt.IntSort, smt.BoolSort))
	p := tm.Const("p", smt.BoolSort)
	valid(t, s, tm.Eq(tm.Select(tm.Store(ab, i, p), i), p))
	decide(t, s, smt.Unsat, tm.Select(tm.Store(ab, i, tm.False()), j), tm.Eq(i, j))
	decide(t, s, smt.Sat, tm.Select(tm.Store(ab, i, tm.False()), j), tm.Not(tm.Select(ab, i)))
	// congruence of the base array
	valid(t, s, tm.Implies(tm.Eq(i, j), tm.Eq(tm.Select(a, i), tm.Select(a, j))))
	decide(t, s, smt.Sat, tm.Distinct(tm.Select(a, i), tm.Select(a, j)))
	// an array-valued ite
	c := tm.Ite(p, a, st)
	valid(t, s, tm.Implies(tm.Not(p), tm.Eq(tm.Select(c, i), v)))
	decide(t, s, smt.Sat, tm.Distinct(tm.Select(c, i), v))
}

func TestExtensionality(t *testing.T) {
	tm := smt.NewTermManager()
	ai := tm.ArraySort(smt.IntSort, smt.IntSort)
	a, b := tm.Const("a", ai), tm.Const("b", ai)
	i, j, x, y := tm.Const("i", smt.IntSort), tm.Const("j", smt.IntSort), tm.Const("x", smt.IntSort), tm.Const("y", smt.IntSort)
	s := New(tm)
	decide(t, s, smt.Unsat, tm.Eq(a, b), tm.Distinct(tm.Select(a, i), tm.Select(b, i)))
	// a ≠ b needs a witness index where they differ
	decide(t, s, smt.Sat, tm.Distinct(a, b))
	decide(t, s, smt.Sat, tm.Distinct(a, b), tm.Eq(tm.Select(a, i), tm.Select(b, i)))
	// storing what is there changes nothing
	valid(t, s, tm.Eq(tm.Store(a, i, tm.Select(a, i)), a))
	decide(t, s, smt.Sat, tm.Eq(tm.Store(a, i, x), a), tm.Distinct(x, tm.Int(0)))
	decide(t, s, smt.Unsat, tm.Eq(tm.Store(a, i, x), a), tm.Distinct(x, tm.Select(a, i)))
	// stores at different indices commute; at the same index they do not
	swap := tm.Eq(tm.Store(tm.Store(a, i, x), j, y), tm.Store(tm.Store(a, j, y), i, x))
	valid(t, s, tm.Implies(tm.Distinct(i, j), swap))
	decide(t, s, smt.Sat, tm.Not(swap))
	decide(t, s, smt.Unsat, tm.Not(swap), tm.Eq(x, y))
	// b is a with one element changed: they differ exactly there
	decide(t, s, smt.Unsat, tm.Eq(b, tm.Store(a, i, x)), tm.Distinct(x, tm.Select(a, i)), tm.Eq(a, b))
	decide(t, s, smt.Sat, tm.Eq(b, tm.Store(a, i, x)), tm.Distinct(a, b), tm.Eq(tm.Select(a, j), tm.Select(b, j)))
	decide(t, s, smt.Unsat, tm.Eq(b, tm.Store(a, i, x)), tm.Distinct(tm.Select(a, j), tm.Select(b, j)), tm.Distinct(i, j))
	// distinct over three arrays of Bool elements: only two can differ at
	// any one index, yet three pairwise different arrays exist
	ab := tm.ArraySort(smt.IntSort, smt.BoolSort)
	p, q, r := tm.Const("p", ab), tm.Const("q", ab), tm.Const("r", ab)
	decide(t, s, smt.Sat, tm.Distinct(p, q, r))
	decide(t, s, smt.Unsat, tm.Distinct(p, q, r),
		tm.Eq(p, tm.Store(r, i, tm.True())), tm.Eq(q, tm.Store(r, i, tm.False())), tm.Eq(i, j), tm.Select(r, j))
}

func TestConstArrays(t *testing.T) {
	tm := smt.NewTermManager()
	ai := tm.ArraySort(smt.IntSort, smt.IntSort)
	a := tm.Const("a", ai)
	i, x := tm.Const("i", smt.IntSort), tm.Const("x", smt.IntSort)
	k := func(v int64) *smt.Term { return tm.ConstArray(ai, tm.Int(v)) }
	s := New(tm)
	valid(t, s, tm.Eq(tm.Select(k(5), i), tm.Int(5)))
	decide(t, s, smt.Unsat, tm.Eq(k(1), k(2)))
	// a constant array with one element changed is not constant: the
	// indices no term names (ω) must agree too
	decide(t, s, smt.Unsat, tm.Eq(k(1), tm.Store(a, tm.Int(0), tm.Int(1))), tm.Eq(a, k(2)))
	decide(t, s, smt.Sat, tm.Eq(k(1), tm.Store(a, tm.Int(0), tm.Int(1))), tm.Eq(tm.Select(a, tm.Int(0)), tm.Int(2)))
	decide(t, s, smt.Sat, tm.Eq(tm.Store(k(0), i, x), a), tm.Eq(tm.Select(a, tm.Int(3)), tm.Int(7)))
	decide(t, s, smt.Unsat, tm.Eq(tm.Store(k(0), i, x), a), tm.Eq(tm.Select(a, tm.Int(3)), tm.Int(7)), tm.Distinct(i, tm.Int(3)))
	decide(t, s, smt.Unsat, tm.Eq(tm.Store(k(0), i, tm.Int(1)), tm.Store(k(0), x, tm.Int(1))), tm.Distinct(i, x))
}

func TestUninterpretedSorts(t *testing.T) {
	tm := smt.NewTermManager()
	u := tm.UninterpretedSort("U")
	a, b, c := tm.Const("a", u), tm.Const("b", u), tm.Const("c", u)
	f, _ := tm.Declare("f", []*smt.Sort{u}, u)
	p, _ := tm.Declare("P", []*smt.Sort{u}, smt.BoolSort)
	fa := func(x *smt.Term) *smt.Term { return tm.Apply(f, x) }
	s := New(tm)
	decide(t, s, smt.Sat, tm.Distinct(a, b, c), tm.Eq(fa(a), b), tm.Eq(fa(b), c), tm.Eq(fa(c), a))
	decide(t, s, smt.Unsat, tm.Eq(fa(fa(fa(a))), a), tm.Eq(fa(fa(a)), a), tm.Distinct(fa(a), a))
	decide(t, s, smt.Unsat, tm.Eq(a, b), tm.Apply(p, fa(a)), tm.Not(tm.Apply(p, fa(b))))
	decide(t, s, smt.Sat, tm.Apply(p, a), tm.Not(tm.Apply(p, fa(a))), tm.Eq(tm.Ite(tm.Apply(p, b), a, c), fa(a)))
	// arrays indexed by and holding elements of U
	arr := tm.Const("m", tm.ArraySort(u, u))
	decide(t, s, smt.Unsat, tm.Distinct(tm.Select(tm.Store(arr, a, b), c), b), tm.Eq(a, c))
	decide(t, s, smt.Sat, tm.Distinct(tm.Select(tm.Store(arr, a, b), c), b), tm.Eq(tm.Select(arr, b), c))
	decide(t, s, smt.Unsat, tm.Eq(tm.Select(tm.Store(arr, a, b), c), b), tm.Distinct(tm.Select(arr, c), b), tm.Distinct(a, c))
}

// TestArraysUFLIA mixes arrays, functions and arithmetic.
func TestArraysUFLIA(t *testing.T) {
	tm := smt.NewTermManager()
	ai := tm.ArraySort(smt.IntSort, smt.IntSort)
	a, b := tm.Const("a", ai), tm.Const("b", ai)
	i, j, n := tm.Const("i", smt.IntSort), tm.Const("j", smt.IntSort), tm.Const("n", smt.IntSort)
	f, _ := tm.Declare("f", []*smt.Sort{smt.IntSort}, smt.IntSort)
	fa := func(x *smt.Term) *smt.Term { return tm.Apply(f, x) }
	one := tm.Int(1)
	s := New(tm)
	// a[i] = i, b = a[i+1 := a[i] + 1]: b[i+1] = i + 1, and f(b[i+1]) = f(i+1)
	bdef := tm.Eq(b, tm.Store(a, tm.Add(i, one), tm.Add(tm.Select(a, i), one)))
	ai0 := tm.Eq(tm.Select(a, i), i)
	valid(t, s, tm.Implies(tm.And(bdef, ai0), tm.Eq(fa(tm.Select(b, tm.Add(i, one))), fa(tm.Add(i, one)))))
	decide(t, s, smt.Sat, bdef, ai0, tm.Distinct(fa(tm.Select(b, j)), fa(tm.Add(i, one))))
	decide(t, s, smt.Unsat, bdef, ai0, tm.Distinct(fa(tm.Select(b, j)), fa(tm.Add(i, one))), tm.Eq(j, tm.Add(i, one)))
	// an index computed by a function and by arithmetic
	decide(t, s, smt.Unsat,
		tm.Eq(fa(n), tm.Add(n, tm.Int(2))),
		tm.Eq(tm.Select(tm.Store(a, fa(n), tm.Int(7)), tm.Add(n, tm.Int(2))), tm.Int(8)))
	decide(t, s, smt.Sat,
		tm.Eq(fa(n), tm.Add(n, tm.Int(2))),
		tm.Eq(tm.Select(tm.Store(a, fa(n), tm.Int(7)), tm.Add(n, tm.Int(3))), tm.Int(8)),
		tm.Eq(tm.Select(a, fa(fa(n))), tm.Mod(n, tm.Int(3))))
	// a sorted prefix: a[0] <= a[1] <= a[2], a[2] < a[0] is impossible
	s0, s1, s2 := tm.Select(a, tm.Int(0)), tm.Select(a, tm.Int(1)), tm.Select(a, tm.Int(2))
	decide(t, s, smt.Unsat, tm.Le(s0, s1), tm.Le(s1, s2), tm.Lt(s2, s0))
	// arrays as function results are outside the fragment
	g, _ := tm.Declare("g", []*smt.Sort{smt.IntSort}, ai)
	s.Push()
	s.Assert(tm.Eq(tm.Select(tm.Apply(g, i), j), one))
	check(t, s, smt.Unknown)
	s.Pop(1)
	check(t, s, smt.Sat)
}

// TestArraysAgainstZ3 decides random formulas over the array terms the
// generator of package gen does not make — constant arrays, array-valued
// ite, arrays of Bool compared for equality, arrays indexed by and holding
// an uninterpreted sort — with the embedded solver and z3, in one
// long-lived solver, and checks every model.
func TestArraysAgainstZ3(t *testing.T) {
	tm := smt.NewTermManager()
	z3 := newZ3(t, tm)
	r := rand.New(rand.NewPCG(11, 12))
	u := tm.UninterpretedSort("U")
	ai, ab, au := tm.ArraySort(smt.IntSort, smt.IntSort), tm.ArraySort(smt.IntSort, smt.BoolSort), tm.ArraySort(u, u)
	ints := []*smt.Term{tm.Const("i", smt.IntSort), tm.Const("j", smt.IntSort), tm.Const("k", smt.IntSort)}
	elems := []*smt.Term{tm.Const("e0", u), tm.Const("e1", u), tm.Const("e2", u)}
	p := tm.Const("p", smt.BoolSort)
	arrs := map[*smt.Sort][]*smt.Term{
		ai: {tm.Const("A", ai), tm.Const("B", ai)},
		ab: {tm.Const("C", ab), tm.Const("D", ab)},
		au: {tm.Const("M", au), tm.Const("N", au)},
	}
	index := func(s *smt.Sort) *smt.Term {
		if s == u {
			return elems[r.IntN(len(elems))]
		}
		if r.IntN(3) == 0 {
			return tm.Int(r.Int64N(3))
		}
		return ints[r.IntN(len(ints))]
	}
	var value func(s *smt.Sort) *smt.Term
	var array func(s *smt.Sort, d int) *smt.Term
	value = func(s *smt.Sort) *smt.Term {
		switch s {
		case smt.BoolSort:
			if r.IntN(2) == 0 {
				return p
			}
			return tm.Bool(r.IntN(2) == 0)
		case u:
			if r.IntN(4) == 0 {
				return tm.Select(arrs[au][r.IntN(2)], index(u))
			}
			return elems[r.IntN(len(elems))]
		}
		if r.IntN(4) == 0 {
			return tm.Select(arrs[ai][r.IntN(2)], index(smt.IntSort))
		}
		return tm.Int(r.Int64N(5) - 2)
	}
	array = func(s *smt.Sort, d int) *smt.Term {
		switch k := r.IntN(8); {
		case d == 0 || k < 3:
			return arrs[s][r.IntN(2)]
		case k < 5:
			return tm.Store(array(s, d-1), index(s.Index()), value(s.Elem()))
		case k < 6 && s.Index() != u:
			return tm.ConstArray(s, value(s.Elem()))
		case k < 7:
			return tm.Ite(p, array(s, d-1), array(s, d-1))
		}
		return array(s, d-1)
	}
	atom := func() *smt.Term {
		sorts := []*smt.Sort{ai, ab, au}
		s := sorts[r.IntN(3)]
		switch r.IntN(4) {
		case 0:
			return tm.Eq(array(s, 2), array(s, 2))
		case 1:
			if s == ab {
				return tm.Select(array(s, 2), index(smt.IntSort))
			}
			return tm.Eq(tm.Select(array(s, 2), index(s.Index())), value(s.Elem()))
		case 2:
			return tm.Distinct(array(s, 1), array(s, 1), array(s, 1))
		}
		return tm.Eq(index(smt.IntSort), index(smt.IntSort))
	}
	n := 300
	if testing.Short() {
		n = 80
	}
	s := New(tm)
	counts := map[smt.Result]int{}
	for iter := range n {
		var fs []*smt.Term
		for range 2 + r.IntN(4) {
			a := atom()
			if r.IntN(3) == 0 {
				a = tm.Not(a)
			}
			if r.IntN(3) == 0 {
				a = tm.Or(a, atom())
			}
			fs = append(fs, a)
		}
		got, _ := checkAgainst(t, iter, tm, s, z3, fs)
		counts[got]++
	}
	t.Logf("%v", counts)
}
