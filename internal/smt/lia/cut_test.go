package lia

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// boxed adds -10 <= x <= 10 for each of n variables to cs.
func boxed(n int, cs ...constraint) []constraint {
	for j := range n {
		c := make([]int64, n)
		c[j] = 1
		cs = append(cs, constraint{c, ge, -10}, constraint{c, le, 10})
	}
	return cs
}

// bruteForce reports whether cs has an integer solution in [-r, r]ⁿ.
func bruteForce(n int, r int64, cs []constraint) bool {
	pt := make([]int64, n)
	var rec func(k int) bool
	rec = func(k int) bool {
		if k == n {
			return satisfies(cs, func(j int) Q { return Int(pt[j]) })
		}
		for x := -r; x <= r; x++ {
			pt[k] = x
			if rec(k + 1) {
				return true
			}
		}
		return false
	}
	return rec(0)
}

// TestCutsDecide checks problems that branch and bound alone leaves open
// within a budget of 4 branches (it answered Unknown before CheckInt made
// Gomory cuts) and that the cuts decide.
func TestCutsDecide(t *testing.T) {
	for i, cs := range [][]constraint{
		boxed(3, constraint{[]int64{5, 1, 1}, le, -11}, constraint{[]int64{-5, -7, 0}, eq, 2}, constraint{[]int64{4, -8, 0}, ge, -17}),
		boxed(3, constraint{[]int64{-5, -9, 7}, ge, 5}, constraint{[]int64{-1, -6, 9}, eq, -14}, constraint{[]int64{6, 6, 2}, le, -11}),
		boxed(2, constraint{[]int64{6, 7}, eq, -3}, constraint{[]int64{2, -3}, ge, -16}),
		boxed(2, constraint{[]int64{-5, 2}, eq, 2}, constraint{[]int64{-4, 2}, le, 15}, constraint{[]int64{0, -8}, ge, 4}),
		boxed(3, constraint{[]int64{8, -9, -6}, eq, -9}, constraint{[]int64{-9, 8, 2}, le, -7}),
		boxed(2, constraint{[]int64{-8, 6}, eq, 18}, constraint{[]int64{3, -9}, le, -17}),
	} {
		n := len(cs[len(cs)-1].coef)
		want := bruteForce(n, 10, cs)
		savedEq := eqTests
		eqTests = false // the cuts alone
		saved := maxCuts
		maxCuts = 0
		s, _, _ := build(n, true, cs)
		old := s.CheckInt(4)
		maxCuts = saved
		if old != Unknown {
			t.Errorf("problem %d: branching alone answered %v; the test wants a problem it leaves open", i, old)
		}
		s, xs, _ := build(n, true, cs)
		got := s.CheckInt(4)
		eqTests = savedEq
		if got == Unknown || (got == Sat) != want {
			t.Fatalf("problem %d: got %v, want sat=%v", i, got, want)
		}
		if got == Sat && !satisfies(cs, func(j int) Q { return s.Value(xs[j]) }) {
			t.Fatalf("problem %d: model violates the constraints", i)
		}
		if got == Unsat && bruteForce(n, 10, subset(cs, s.Conflict())) {
			t.Fatalf("problem %d: explanation %v has an integer solution", i, s.Conflict())
		}
		checkTableau(t, s)
	}
}

// TestCutsAgainstBruteForce compares CheckInt, with cuts and a small
// budget, with enumeration on boxed random problems: every decided answer
// is right, models satisfy the constraints, explanations are infeasible,
// and with cuts fewer problems stay open than with branching alone.
func TestCutsAgainstBruteForce(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	open := map[bool]int{}
	for iter := range 3000 {
		n := 2 + r.IntN(2)
		var extra []constraint
		for range 2 + r.IntN(2) {
			c := make([]int64, n)
			for j := range c {
				c[j] = r.Int64N(19) - 9
			}
			extra = append(extra, constraint{c, op(r.IntN(3)), r.Int64N(41) - 20})
		}
		cs := boxed(n, extra...)
		want := bruteForce(n, 10, cs)
		for _, cuts := range []bool{false, true} {
			saved := maxCuts
			if !cuts {
				maxCuts = 0
			}
			s, xs, ok := build(n, true, cs)
			got := Unsat
			if ok {
				got = s.CheckInt(4)
			}
			maxCuts = saved
			switch {
			case got == Unknown:
				open[cuts]++
			case (got == Sat) != want:
				t.Fatalf("iter %d (cuts %v): got %v, want sat=%v: %v", iter, cuts, got, want, extra)
			case got == Sat && !satisfies(cs, func(j int) Q { return s.Value(xs[j]) }):
				t.Fatalf("iter %d: model violates the constraints", iter)
			case got == Unsat && ok && bruteForce(n, 10, subset(cs, s.Conflict())):
				t.Fatalf("iter %d: explanation %v has an integer solution", iter, s.Conflict())
			}
			if ok {
				checkTableau(t, s)
			}
		}
	}
	t.Logf("open with branching alone: %d, with cuts: %d", open[false], open[true])
	if open[true] >= open[false] {
		t.Errorf("cuts left %d problems open, branching alone %d", open[true], open[false])
	}
}

// TestAddDef checks that a variable defined with AddDef stays out of the
// tableau (its bounds are not enforced) until a Restrict keeps it, and is
// then a row like one made by AddRow.
func TestAddDef(t *testing.T) {
	var s Simplex
	x, y := s.NewVar(true), s.NewVar(true)
	d := s.AddDef([]Term{{V: x, C: Int(1)}, {V: y, C: Int(1)}}) // x + y
	if !s.IsSlack(d) || len(s.Def(d)) != 2 {
		t.Fatal("AddDef made no slack variable")
	}
	s.AssertLower(x, Int(3), 0)
	s.AssertLower(y, Int(4), 1)
	s.AssertUpper(d, Int(5), 2) // x + y <= 5: infeasible, once enforced
	if s.Check() != Sat {
		t.Fatal("a definition out of the tableau was enforced")
	}
	s.Restrict([]Var{d})
	if s.Check() != Unsat {
		t.Fatal("x >= 3, y >= 4, x + y <= 5 is unsat")
	}
	slices.Sort(s.Conflict())
	if !slices.Equal(s.Conflict(), []int32{0, 1, 2}) {
		t.Fatalf("conflict %v, want [0 1 2]", s.Conflict())
	}
	checkTableau(t, &s)
}
