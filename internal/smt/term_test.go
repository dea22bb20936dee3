package smt

import (
	"errors"
	"math/big"
	"strings"
	"testing"
)

func TestHashConsing(t *testing.T) {
	tm := NewTermManager()
	x := tm.Const("x", IntSort)
	y := tm.Const("y", IntSort)
	a := tm.Add(x, tm.Scale(3, y))
	b := tm.Add(tm.Const("x", IntSort), tm.Mul(tm.Int(3), y))
	if a != b {
		t.Fatalf("structurally equal terms differ: %s, %s", a, b)
	}
	if tm.Add(y, x) == tm.Add(x, y) {
		t.Fatalf("construction must not reorder arguments")
	}
	huge, _ := new(big.Int).SetString("123456789012345678901234567890", 10)
	if tm.BigInt(huge) != tm.BigInt(new(big.Int).Set(huge)) {
		t.Fatalf("big literals not interned")
	}
	if tm.BigInt(big.NewInt(-7)) != tm.Int(-7) {
		t.Fatalf("small big literal differs from Int")
	}
	arr := tm.ArraySort(IntSort, IntSort)
	if arr != tm.ArraySort(IntSort, IntSort) {
		t.Fatalf("array sorts not interned")
	}
	if tm.And() != tm.True() || tm.And(tm.Lt(x, y)) != tm.Lt(x, y) || tm.Add() != tm.Int(0) {
		t.Fatalf("unit cases of n-ary constructors")
	}
	if _, err := tm.Declare("x", nil, BoolSort); err == nil {
		t.Fatalf("redeclaring x with another sort succeeded")
	}
	for i, term := range []*Term{x, y, a} {
		if int(term.ID()) >= tm.NumTerms() {
			t.Errorf("term %d: ID %d beyond NumTerms %d", i, term.ID(), tm.NumTerms())
		}
	}
}

func TestPrint(t *testing.T) {
	tm := NewTermManager()
	x := tm.Const("x", IntSort)
	y := tm.Const("y", IntSort)
	p := tm.Const("p", BoolSort)
	u := tm.UninterpretedSort("U")
	f, _ := tm.Declare("f", []*Sort{IntSort, u}, IntSort)
	e := tm.Const("e", u)
	odd := tm.Const("a b", IntSort)
	arr := tm.Const("A", tm.ArraySort(IntSort, BoolSort))
	huge, _ := new(big.Int).SetString("-99999999999999999999", 10)
	for _, c := range []struct {
		t    *Term
		want string
	}{
		{tm.Int(-5), "(- 5)"},
		{tm.Int(-1 << 63), "(- 9223372036854775808)"},
		{tm.BigInt(huge), "(- 99999999999999999999)"},
		{tm.Add(x, tm.Scale(-2, y), tm.Int(1)), "(+ x (* (- 2) y) 1)"},
		{tm.Sub(x, y, tm.Neg(x)), "(- x y (- x))"},
		{tm.Implies(p, tm.Distinct(x, y, tm.Int(0))), "(=> p (distinct x y 0))"},
		{tm.Ite(p, tm.Div(x, tm.Int(2)), tm.Mod(x, tm.Int(-3))), "(ite p (div x 2) (mod x (- 3)))"},
		{tm.Apply(f, x, e), "(f x e)"},
		{tm.Le(odd, tm.Int(0)), "(<= |a b| 0)"},
		{tm.Select(tm.Store(arr, x, p), y), "(select (store A x p) y)"},
		{tm.ConstArray(tm.ArraySort(IntSort, IntSort), tm.Int(0)), "((as const (Array Int Int)) 0)"},
		{tm.Value(u, 2), "(as @U_2 U)"},
		{tm.Bound(1, IntSort), "x!1"},
	} {
		if got := c.t.String(); got != c.want {
			t.Errorf("got %s, want %s", got, c.want)
		}
	}
	s := tm.Add(x, y)
	shared := tm.And(tm.Lt(s, tm.Int(3)), tm.Gt(s, tm.Int(0)))
	if got, want := Sprint(shared), "(let ((?t1 (+ x y))) (and (< ?t1 3) (> ?t1 0)))"; got != want {
		t.Errorf("Sprint: got %s, want %s", got, want)
	}
	var b strings.Builder
	WriteScript(&b, "QF_UFLIA", tm.Eq(tm.Apply(f, x, e), y))
	want := "(set-logic QF_UFLIA)\n(declare-sort U 0)\n(declare-fun x () Int)\n(declare-fun y () Int)\n(declare-fun f (Int U) Int)\n(declare-fun e () U)\n(assert (= (f x e) y))\n(check-sat)\n"
	if b.String() != want {
		t.Errorf("WriteScript:\n%s\nwant\n%s", b.String(), want)
	}
}

func TestEval(t *testing.T) {
	tm := NewTermManager()
	x := tm.Const("x", IntSort)
	y := tm.Const("y", IntSort)
	f, _ := tm.Declare("f", []*Sort{IntSort}, IntSort)
	arr := tm.Const("A", tm.ArraySort(IntSort, IntSort))
	m := NewModel(tm)
	m.SetConst(x.Symbol(), tm.Int(-7))
	m.SetConst(y.Symbol(), tm.Int(2))
	m.SetConst(arr.Symbol(), tm.Store(tm.ConstArray(arr.Sort(), tm.Int(5)), tm.Int(1), tm.Int(9)))
	m.SetFunc(f, &FuncValue{Entries: []FuncEntry{{Args: []*Term{tm.Int(-7)}, Value: tm.Int(100)}}, Default: tm.Int(1)})
	for _, c := range []struct {
		t    *Term
		want *Term
	}{
		{tm.Div(x, y), tm.Int(-4)},         // Euclidean: -7 = 2·(-4) + 1
		{tm.Mod(x, y), tm.Int(1)},          // 0 ≤ r < |2|
		{tm.Div(x, tm.Int(-2)), tm.Int(4)}, // -7 = (-2)·4 + 1
		{tm.Mod(x, tm.Int(-2)), tm.Int(1)}, //
		{tm.TDiv(x, y), tm.Int(-3)},        // C: -7 / 2 == -3
		{tm.TRem(x, y), tm.Int(-1)},        // C: -7 % 2 == -1
		{tm.TDiv(tm.Int(7), tm.Int(-2)), tm.Int(-3)},
		{tm.TRem(tm.Int(7), tm.Int(-2)), tm.Int(1)},
		{tm.Apply(f, x), tm.Int(100)},
		{tm.Apply(f, y), tm.Int(1)},
		{tm.Select(arr, tm.Int(1)), tm.Int(9)},
		{tm.Select(arr, x), tm.Int(5)},
		{tm.Eq(tm.Store(arr, tm.Int(1), tm.Int(5)), tm.ConstArray(arr.Sort(), tm.Int(5))), tm.True()},
		{tm.Mul(x, x, x), tm.Int(-343)},
		{tm.Abs(x), tm.Int(7)},
		{tm.Distinct(x, y, tm.Int(2)), tm.False()},
		{tm.Lt(tm.Mul(tm.Int(1<<62), tm.Int(8)), tm.Int(0)), tm.False()}, // no int64 overflow
		{tm.Or(tm.Eq(tm.Div(x, tm.Int(0)), y), tm.True()), tm.True()},
		{tm.Const("unset", IntSort), tm.Int(0)},
	} {
		got, err := m.Eval(c.t)
		if err != nil || got != c.want {
			t.Errorf("Eval %s = %v, %v; want %s", c.t, got, err, c.want)
		}
	}
	if _, err := m.Eval(tm.Div(x, tm.Int(0))); !errors.Is(err, ErrUndefined) {
		t.Errorf("division by zero: err = %v", err)
	}
	want := "(\n  (define-fun x () Int (- 7))\n  (define-fun y () Int 2)\n  (define-fun f ((x!0 Int)) Int (ite (= x!0 (- 7)) 100 1))\n  (define-fun A () (Array Int Int) (store ((as const (Array Int Int)) 5) 1 9))\n)"
	if got := m.String(); got != want {
		t.Errorf("model:\n%s\nwant\n%s", got, want)
	}
}

func TestSubstitute(t *testing.T) {
	tm := NewTermManager()
	x := tm.Const("x", IntSort)
	y := tm.Const("y", IntSort)
	post := tm.And(tm.Lt(x, y), tm.Eq(tm.Add(x, tm.Int(1)), y))
	// wp(x := x + y, post) = post[x+y / x]
	wp := tm.Substitute(post, map[*Term]*Term{x: tm.Add(x, y)})
	if got, want := wp.String(), "(and (< (+ x y) y) (= (+ (+ x y) 1) y))"; got != want {
		t.Errorf("wp: got %s, want %s", got, want)
	}
	if got, want := tm.Simplify(wp).String(), "(and (<= x (- 1)) (= x (- 1)))"; got != want {
		t.Errorf("simplified wp: got %s, want %s", got, want)
	}
	// Simultaneous: swap.
	sw := tm.Substitute(tm.Lt(x, y), map[*Term]*Term{x: y, y: x})
	if sw != tm.Lt(y, x) {
		t.Errorf("swap: got %s", sw)
	}
	body := tm.Add(tm.Bound(0, IntSort), tm.Scale(2, tm.Bound(1, IntSort)))
	if got := tm.SubstituteBound(body, []*Term{y, tm.Int(4)}); got != tm.Add(y, tm.Scale(2, tm.Int(4))) {
		t.Errorf("SubstituteBound: got %s", got)
	}
}

func TestSimplify(t *testing.T) {
	tm := NewTermManager()
	x := tm.Const("x", IntSort)
	y := tm.Const("y", IntSort)
	p := tm.Const("p", BoolSort)
	q := tm.Const("q", BoolSort)
	arr := tm.Const("A", tm.ArraySort(IntSort, IntSort))
	for _, c := range []struct {
		in   *Term
		want string
	}{
		{tm.Add(x, tm.Int(2), tm.Neg(x), tm.Int(3)), "5"},
		{tm.Sub(tm.Scale(2, x), y, x), "(+ x (* (- 1) y))"},
		{tm.Lt(x, y), "(<= (+ x (* (- 1) y)) (- 1))"},
		{tm.Ge(tm.Scale(2, x), tm.Int(3)), "(<= (* (- 1) x) (- 2))"}, // 2x ≥ 3 ⇔ -x ≤ -2 (tightened)
		{tm.Eq(tm.Scale(2, x), tm.Int(3)), "false"},
		{tm.Eq(tm.Scale(-2, x), tm.Scale(4, y)), "(= (+ x (* 2 y)) 0)"},
		{tm.And(p, tm.And(q, tm.True()), p), "(and p q)"},
		{tm.And(p, tm.Not(p)), "false"},
		{tm.Or(p, tm.Or(tm.Not(q), tm.False())), "(or p (not q))"},
		{tm.Implies(p, tm.False()), "(not p)"},
		{tm.Not(tm.Not(p)), "p"},
		{tm.Ite(tm.Not(p), x, y), "(ite p y x)"},
		{tm.Ite(p, tm.True(), q), "(or p q)"},
		{tm.Eq(p, tm.False()), "(not p)"},
		{tm.Div(tm.Int(-7), tm.Int(2)), "(- 4)"},
		{tm.Mod(tm.Int(-7), tm.Int(2)), "1"},
		{tm.Div(x, tm.Int(0)), "(div x 0)"},
		{tm.Mod(x, tm.Int(-1)), "0"},
		{tm.Select(tm.Store(tm.Store(arr, tm.Int(1), x), tm.Int(2), y), tm.Int(1)), "x"},
		{tm.Select(tm.Store(arr, x, y), x), "y"},
		{tm.Select(tm.Store(arr, x, y), tm.Int(0)), "(select (store A x y) 0)"},
		{tm.Store(tm.Store(arr, x, y), x, tm.Int(3)), "(store A x 3)"},
		{tm.Distinct(x, tm.Add(x, tm.Int(0))), "false"},
		{tm.Xor(p, p), "false"},
		{tm.Mul(tm.Int(2), x, tm.Int(3), y), "(* 6 (* x y))"},
	} {
		got := tm.Simplify(c.in)
		if got.String() != c.want {
			t.Errorf("Simplify %s = %s, want %s", c.in, got, c.want)
		}
		if tm.Simplify(got) != got {
			t.Errorf("Simplify not idempotent on %s: %s", got, tm.Simplify(got))
		}
	}
}

// TestSharedDAG runs every traversal of the term layer on a chain of 200
// doubling links (x1 = x0 + x0, … under ite and a comparison), a DAG of a
// few hundred terms whose tree has 2²⁰⁰ nodes: each must work on the DAG.
func TestSharedDAG(t *testing.T) {
	tm := NewTermManager()
	x0, y := tm.Const("x0", IntSort), tm.Const("y", IntSort)
	f, err := tm.Declare("f", []*Sort{IntSort}, IntSort)
	if err != nil {
		t.Fatal(err)
	}
	x := x0
	for i := 0; i < 200; i++ {
		x = tm.Add(x, x)
		if i%50 == 0 {
			x = tm.Ite(tm.Lt(x, y), x, tm.Apply(f, x))
		}
	}
	p := tm.Lt(x, tm.Add(y, tm.Bound(0, IntSort)))
	if HasBound(tm.SubstituteBound(p, []*Term{tm.Int(1)})) || !HasBound(p) {
		t.Error("SubstituteBound left a parameter, or HasBound missed one")
	}
	if !IsLinear(p) {
		t.Error("IsLinear: the chain is linear")
	}
	q := tm.Substitute(p, map[*Term]*Term{x0: tm.Int(0)})
	if s := tm.Simplify(q); s.Op() == OpInvalid {
		t.Error("Simplify failed")
	}
	if got := len(Symbols(p)); got != 3 {
		t.Errorf("Symbols: %d symbols, want 3", got)
	}
	if s := Sprint(p); len(s) > 100_000 {
		t.Errorf("Sprint printed %d bytes: shared terms are not bound with let", len(s))
	}
	m := NewModel(tm)
	m.SetConst(x0.Symbol(), tm.Int(0))
	m.SetConst(y.Symbol(), tm.Int(1))
	if v, err := m.Eval(tm.SubstituteBound(p, []*Term{tm.Int(0)})); err != nil || v != tm.True() {
		t.Errorf("Eval: %v, %v; want true (0 < 1 + 0)", v, err)
	}
}
