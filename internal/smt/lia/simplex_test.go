package lia

import (
	"math/rand/v2"
	"slices"
	"testing"
)

type op int8

const (
	le op = iota
	ge
	eq
)

type constraint struct {
	coef []int64
	op   op
	rhs  int64
}

// build loads the constraints into a fresh Simplex with n variables; the
// id of a constraint's bounds is its index.
func build(n int, isInt bool, cs []constraint) (*Simplex, []Var, bool) {
	s := &Simplex{}
	xs := make([]Var, n)
	for i := range xs {
		xs[i] = s.NewVar(isInt)
	}
	ok := true
	for i, c := range cs {
		var ts []Term
		for j, a := range c.coef {
			if a != 0 {
				ts = append(ts, Term{xs[j], Int(a)})
			}
		}
		v := s.AddRow(ts)
		if c.op != ge {
			ok = ok && s.AssertUpper(v, Int(c.rhs), int32(i))
		}
		if c.op != le {
			ok = ok && s.AssertLower(v, Int(c.rhs), int32(i))
		}
	}
	return s, xs, ok
}

func satisfies(cs []constraint, val func(j int) Q) bool {
	for _, c := range cs {
		var sum Q
		for j, a := range c.coef {
			sum = sum.Add(Int(a).Mul(val(j)))
		}
		k := sum.Cmp(Int(c.rhs))
		if c.op == le && k > 0 || c.op == ge && k < 0 || c.op == eq && k != 0 {
			return false
		}
	}
	return true
}

func subset(cs []constraint, ids []int32) []constraint {
	var out []constraint
	for _, id := range ids {
		out = append(out, cs[id])
	}
	return out
}

func TestSimplexEmpty(t *testing.T) {
	var s Simplex
	if s.Check() != Sat || s.CheckInt(0) != Sat {
		t.Fatal("empty problem")
	}
	x := s.NewVar(false)
	if s.Check() != Sat || !s.Value(x).IsZero() {
		t.Fatal("one unbounded variable")
	}
}

func TestSimplexUnbounded(t *testing.T) {
	// x - y >= 5, x + y >= 7: unbounded above, feasible.
	s, xs, _ := build(2, false, []constraint{{[]int64{1, -1}, ge, 5}, {[]int64{1, 1}, ge, 7}})
	if s.Check() != Sat {
		t.Fatal("want sat")
	}
	x, y := s.Value(xs[0]), s.Value(xs[1])
	if x.Sub(y).Cmp(Int(5)) < 0 || x.Add(y).Cmp(Int(7)) < 0 {
		t.Fatalf("bad model x=%v y=%v", x, y)
	}
}

func TestSimplexEqualities(t *testing.T) {
	// x + y = 10, x - y = 2 -> x = 6, y = 4; then x = 7 conflicts.
	cs := []constraint{{[]int64{1, 1}, eq, 10}, {[]int64{1, -1}, eq, 2}}
	s, xs, _ := build(2, false, cs)
	if s.Check() != Sat || !s.Value(xs[0]).Equal(Int(6)) || !s.Value(xs[1]).Equal(Int(4)) {
		t.Fatalf("got x=%v y=%v", s.Value(xs[0]), s.Value(xs[1]))
	}
	m := s.Mark()
	s.AssertLower(xs[0], Int(7), 2)
	if s.Check() != Unsat {
		t.Fatal("x >= 7 should conflict")
	}
	got := slices.Sorted(slices.Values(s.Conflict()))
	if !slices.Equal(got, []int32{0, 1, 2}) {
		t.Errorf("conflict %v, want [0 1 2]", got)
	}
	s.Backtrack(m)
	if s.Check() != Sat {
		t.Fatal("after backtracking")
	}
	// rational, not integer: x + y = 1, x - y = 0
	s2, xs2, _ := build(2, true, []constraint{{[]int64{1, 1}, eq, 1}, {[]int64{1, -1}, eq, 0}})
	if s2.Check() != Sat || !s2.Value(xs2[0]).Equal(Frac(1, 2)) {
		t.Fatal("rational solution 1/2")
	}
	if s2.CheckInt(0) != Unsat {
		t.Fatal("no integer solution")
	}
}

func TestSimplexBoundConflict(t *testing.T) {
	var s Simplex
	x := s.NewVar(true)
	if !s.AssertUpper(x, Frac(7, 2), 0) { // x <= 3
		t.Fatal("upper")
	}
	if s.AssertLower(x, Frac(13, 4), 1) { // x >= 4
		t.Fatal("x <= 7/2 and x >= 13/4 have no integer between")
	}
	if got := slices.Sorted(slices.Values(s.Conflict())); !slices.Equal(got, []int32{0, 1}) {
		t.Errorf("conflict %v", got)
	}
	// a weaker bound is a no-op, and survives backtracking of nothing
	m := s.Mark()
	s.AssertUpper(x, Int(10), 2)
	if s.Mark() != m {
		t.Error("weaker bound recorded")
	}
}

func TestSimplexDegenerate(t *testing.T) {
	// Many constraints tight at the origin (degenerate vertex):
	// x >= 0, y >= 0, x + y <= 0, x - y <= 0, y - x <= 0, 2x + 3y >= 0,
	// then x + y >= 1 makes it infeasible.
	cs := []constraint{
		{[]int64{1, 0}, ge, 0}, {[]int64{0, 1}, ge, 0}, {[]int64{1, 1}, le, 0},
		{[]int64{1, -1}, le, 0}, {[]int64{-1, 1}, le, 0}, {[]int64{2, 3}, ge, 0},
	}
	s, _, ok := build(2, false, cs)
	if !ok || s.Check() != Sat {
		t.Fatal("origin is feasible")
	}
	cs = append(cs, constraint{[]int64{1, 1}, ge, 1})
	s, _, ok = build(2, false, cs)
	if ok && s.Check() != Unsat {
		t.Fatal("want unsat")
	}
	if ok {
		if s2, _, ok2 := build(2, false, subset(cs, s.Conflict())); ok2 && s2.Check() != Unsat {
			t.Fatalf("explanation %v is feasible", s.Conflict())
		}
	}
}

func TestParity(t *testing.T) {
	// 2x = 2y + 1: sat over the rationals, unsat over the integers.
	cs := []constraint{{[]int64{2, -2}, eq, 1}}
	s, _, _ := build(2, true, cs)
	if s.Check() != Sat {
		t.Fatal("rational")
	}
	if r := s.CheckInt(0); r != Unsat {
		t.Fatalf("integer: %v", r)
	}
	// The same through an auxiliary variable: a = 2x, a = 2y + 1.
	cs = []constraint{{[]int64{1, -2, 0}, eq, 0}, {[]int64{1, 0, -2}, eq, 1}}
	s, _, _ = build(3, true, cs)
	if r := s.CheckInt(0); r != Unsat {
		t.Fatalf("with a = 2x = 2y + 1: %v", r)
	}
	// x + y + z = 3 with x = 2a, y = 2b, z = 2c + 1 is sat (e.g. 0 + 2 + 1).
	cs = []constraint{
		{[]int64{1, 1, 1, 0, 0, 0}, eq, 3}, {[]int64{1, 0, 0, -2, 0, 0}, eq, 0},
		{[]int64{0, 1, 0, 0, -2, 0}, eq, 0}, {[]int64{0, 0, 1, 0, 0, -2}, eq, 1},
	}
	s, xs, _ := build(6, true, cs)
	if r := s.CheckInt(0); r != Sat {
		t.Fatalf("odd sum: %v", r)
	}
	if !satisfies(cs, func(j int) Q { return s.Value(xs[j]) }) {
		t.Fatal("bad model")
	}
	// ... and unsat with z = 2c.
	cs[3].rhs = 0
	s, _, _ = build(6, true, cs)
	if r := s.CheckInt(0); r != Unsat {
		t.Fatalf("even = odd: %v", r)
	}
}

func TestKnapsack(t *testing.T) {
	// 3a + 5b + 7c = 1 + 0..: exact weights with 0 <= a,b,c <= 3.
	for target := int64(0); target <= 50; target++ {
		cs := []constraint{{[]int64{3, 5, 7}, eq, target}}
		for j := range 3 {
			c := make([]int64, 3)
			c[j] = 1
			cs = append(cs, constraint{c, ge, 0}, constraint{c, le, 3})
		}
		want := false
		for a := int64(0); a <= 3; a++ {
			for b := int64(0); b <= 3; b++ {
				for c := int64(0); c <= 3; c++ {
					if 3*a+5*b+7*c == target {
						want = true
					}
				}
			}
		}
		s, xs, _ := build(3, true, cs)
		got := s.CheckInt(0)
		if got == Unknown || (got == Sat) != want {
			t.Fatalf("target %d: got %v, want sat=%v", target, got, want)
		}
		if got == Sat && !satisfies(cs, func(j int) Q { return s.Value(xs[j]) }) {
			t.Fatalf("target %d: bad model", target)
		}
	}
}

func TestBudget(t *testing.T) {
	// Unbounded parity through three rows defeats the GCD test's single-row
	// view only if the tableau is unlucky; an unbounded equation in many
	// variables with no integer solution gets Unknown rather than a loop.
	cs := []constraint{{[]int64{6, 10, 15}, eq, 1}, {[]int64{6, 10, 0}, eq, 0}}
	s, _, _ := build(3, true, cs)
	r := s.CheckInt(10)
	if r == Sat {
		t.Fatal("no integer solution: 15z = 1 - 0 needs z = 1/15")
	}
}

// TestRandomAgainstBruteForce compares CheckInt with enumeration over a
// box, and checks every rational answer and explanation.
func TestRandomAgainstBruteForce(t *testing.T) {
	r := rand.New(rand.NewPCG(2, 3))
	counts := [3]int{}
	for iter := range 3000 {
		n := 1 + r.IntN(4)
		const box = 3
		var cs []constraint
		for j := range n { // the box
			c := make([]int64, n)
			c[j] = 1
			cs = append(cs, constraint{c, ge, -box}, constraint{c, le, box})
		}
		for range 1 + r.IntN(5) {
			c := make([]int64, n)
			for j := range c {
				c[j] = r.Int64N(7) - 3
			}
			cs = append(cs, constraint{c, op(r.IntN(3)), r.Int64N(13) - 6})
		}
		r.Shuffle(len(cs), func(i, j int) { cs[i], cs[j] = cs[j], cs[i] })

		want := false
		pt := make([]int64, n)
		var rec func(k int)
		rec = func(k int) {
			if want {
				return
			}
			if k == n {
				want = satisfies(cs, func(j int) Q { return Int(pt[j]) })
				return
			}
			for x := int64(-box); x <= box; x++ {
				pt[k] = x
				rec(k + 1)
			}
		}
		rec(0)

		// rational
		s, xs, ok := build(n, false, cs)
		if ok && s.Check() == Sat {
			if !satisfies(cs, func(j int) Q { return s.Value(xs[j]) }) {
				t.Fatalf("iter %d: rational model violates constraints", iter)
			}
		} else {
			if want {
				t.Fatalf("iter %d: rational unsat but integer sat", iter)
			}
			if s2, _, ok2 := build(n, false, subset(cs, s.Conflict())); ok2 && s2.Check() != Unsat {
				t.Fatalf("iter %d: rational explanation %v feasible", iter, s.Conflict())
			}
		}

		// integer
		s, xs, ok = build(n, true, cs)
		got := Unsat
		if ok {
			got = s.CheckInt(0)
		}
		counts[got]++
		if got == Unknown || (got == Sat) != want {
			t.Fatalf("iter %d: got %v, brute force sat=%v: %v", iter, got, want, cs)
		}
		if got == Sat {
			if !satisfies(cs, func(j int) Q { return s.Value(xs[j]) }) {
				t.Fatalf("iter %d: integer model violates constraints", iter)
			}
			for _, x := range xs {
				if !s.Value(x).IsInt() {
					t.Fatalf("iter %d: non-integer model", iter)
				}
			}
		} else {
			s2, _, ok2 := build(n, true, subset(cs, s.Conflict()))
			if ok2 && s2.CheckInt(0) != Unsat {
				t.Fatalf("iter %d: integer explanation %v feasible", iter, s.Conflict())
			}
		}
	}
	if counts[Sat] < 100 || counts[Unsat] < 100 {
		t.Errorf("unbalanced: %v", counts)
	}
}

// TestIncrementalBacktrack asserts and retracts bounds in a random order on
// one Simplex, comparing each check with a fresh one.
func TestIncrementalBacktrack(t *testing.T) {
	r := rand.New(rand.NewPCG(4, 5))
	for iter := range 300 {
		n := 2 + r.IntN(3)
		s := &Simplex{}
		xs := make([]Var, n)
		for i := range xs {
			xs[i] = s.NewVar(true)
		}
		var cs []constraint
		var vs []Var
		for range 8 {
			c := make([]int64, n)
			var ts []Term
			for j := range c {
				c[j] = r.Int64N(7) - 3
				if c[j] != 0 {
					ts = append(ts, Term{xs[j], Int(c[j])})
				}
			}
			cs = append(cs, constraint{c, op(r.IntN(3)), r.Int64N(13) - 6})
			vs = append(vs, s.AddRow(ts))
		}
		var active []int32
		var marks []int
		var failed []bool
		restricted := false
		for step := range 30 {
			if len(active) > 0 && r.IntN(3) == 0 {
				k := r.IntN(len(active))
				s.Backtrack(marks[k])
				active, marks, failed = active[:k], marks[:k], failed[:k]
			} else {
				id := int32(r.IntN(len(cs)))
				marks = append(marks, s.Mark())
				active = append(active, id)
				c := cs[id]
				ok := true
				if c.op != ge {
					ok = s.AssertUpper(vs[id], Int(c.rhs), id)
				}
				if c.op != le && ok {
					ok = s.AssertLower(vs[id], Int(c.rhs), id)
				}
				failed = append(failed, !ok)
			}
			sub := subset(cs, active)
			fresh, _, ok := build(n, true, sub)
			fr := Unsat
			if ok {
				fr = fresh.CheckInt(0)
			}
			if fr == Unknown {
				continue
			}
			want := fr == Sat
			got := Unsat
			if !slices.Contains(failed, true) {
				if restricted || r.IntN(3) == 0 {
					// keep the rows with bounds, and a few others (once
					// restricted, the rows of new bounds must be kept)
					restricted = true
					var keep []Var
					for i, v := range vs {
						if slices.Contains(active, int32(i)) || r.IntN(4) == 0 {
							keep = append(keep, v)
						}
					}
					r.Shuffle(len(keep), func(i, j int) { keep[i], keep[j] = keep[j], keep[i] })
					s.Restrict(keep)
				}
				got = s.CheckInt(0)
				checkTableau(t, s)
			}
			if got == Unknown {
				continue
			}
			if (got == Sat) != want {
				t.Fatalf("iter %d step %d: incremental %v, fresh sat=%v; model ok %v; %v active %v", iter, step, got, want, got == Sat && satisfies(sub, func(j int) Q { return s.Value(xs[j]) }), sub, active)
			}
			if got == Sat && !satisfies(sub, func(j int) Q { return s.Value(xs[j]) }) {
				t.Fatalf("iter %d step %d: bad model", iter, step)
			}
		}
	}
}

// TestUnboundedBranchAndBound is a conjunction met by the embedded solver
// (variables renamed): unsat over the integers because of a handful of
// bounded variables (x2 = 6 forces x7 = 2 and x28 ≤ 1, yet 3·x27 + x28 = -7
// needs x28 = 2), while the unbounded x0, x1 let plain branch and bound
// wander off. The boxed search proves it without using its box.
func TestUnboundedBranchAndBound(t *testing.T) {
	// variables: 0 x0, 1 x1, 2 x2, 3 x4, 4 x5, 5 x7, 6 x9, 7 x10, 8 x13,
	// 9 x14, 10 x17, 11 x20, 12 x24, 13 x27, 14 x28, 15 x31, 16 x32,
	// 17 x34, 18 x35
	const n = 19
	row := func(kv ...int64) []int64 {
		c := make([]int64, n)
		for i := 0; i < len(kv); i += 2 {
			c[kv[i]] = kv[i+1]
		}
		return c
	}
	cs := []constraint{
		{row(0, 2, 1, -9, 3, -1, 5, 2), ge, 0},
		{row(5, 1, 6, -1), ge, 1},
		{row(16, 1), eq, 0},
		{row(1, 1, 15, -1, 16, -1), eq, 0},
		{row(18, 1), ge, 0}, {row(18, 1), le, 4},
		{row(1, 1, 17, -5, 18, -1), eq, 0},
		{row(14, 1), ge, 0}, {row(14, 1), le, 2},
		{row(13, 3, 14, 1), eq, -7},
		{row(9, 1), ge, 0}, {row(9, 1), le, 2},
		{row(0, 1, 8, -3, 9, -1), eq, 0},
		{row(4, 1), ge, 0}, {row(4, 1), le, 4},
		{row(0, 1, 3, -5, 4, -1), eq, 0},
		{row(7, 1), ge, 0}, {row(7, 1), le, 1},
		{row(5, 1, 6, 2, 7, -1), eq, 0},
		{row(0, 10, 1, -11, 16, 1, 17, 2), ge, 1},
		{row(5, 2, 12, 1, 14, -1), ge, 5},
		{row(1, 1, 5, 2), ge, 0},
		{row(2, 3, 12, 1), eq, 20},
		{row(2, 1, 12, -1), ge, 1},
		{row(1, 1, 11, -3), ge, 10},
		{row(0, 5, 1, -9, 2, 13, 5, -6, 10, -1), ge, 0},
		{row(0, 1), ge, 0},
		{row(11, 1), eq, -8},
		{row(0, 1, 11, -1), ge, 1},
		{row(5, 1, 9, -1), le, 0},
		{row(0, 1, 10, -1), eq, 0},
		{row(10, 1), ge, 5},
		{row(0, 2, 1, -1, 2, 3), ge, -14},
	}
	s, _, ok := build(n, true, cs)
	if !ok {
		t.Fatal("bounds conflict on assertion")
	}
	if s.Check() != Sat {
		t.Fatal("rationally feasible")
	}
	if r := s.CheckInt(0); r != Unsat {
		t.Fatalf("CheckInt: %v, want unsat", r)
	}
	t.Logf("%d branches", s.Branches)
	core := subset(cs, s.Conflict())
	s2, _, ok := build(n, true, core)
	if ok && s2.CheckInt(0) == Sat {
		t.Fatalf("the explanation %v is satisfiable", s.Conflict())
	}
	// Without the parity constraint it is sat, with x0, x1 unbounded.
	cs[9] = constraint{row(13, 3, 14, 1), eq, -8}
	s, xs, _ := build(n, true, cs)
	if r := s.CheckInt(0); r != Sat {
		t.Fatalf("CheckInt: %v, want sat", r)
	}
	if !satisfies(cs, func(j int) Q { return s.Value(xs[j]) }) {
		t.Fatal("bad model")
	}
}

// checkTableau verifies the column lists against the rows (test helper).
func checkTableau(t *testing.T, s *Simplex) {
	t.Helper()
	n := 0
	for r, rw := range s.rows {
		for i, e := range rw.es {
			if e.c.IsZero() {
				t.Fatalf("row %d: zero entry", r)
			}
			ce := s.col[e.v][e.ci]
			if ce.r != int32(r) || ce.ei != int32(i) {
				t.Fatalf("row %d entry %d (x%d): column says %+v", r, i, e.v, ce)
			}
			n++
		}
	}
	m := 0
	for _, c := range s.col {
		m += len(c)
	}
	if m != n {
		t.Fatalf("%d column entries for %d row entries", m, n)
	}
}
