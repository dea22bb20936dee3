package refine

import (
	"testing"

	"birch/internal/smt"
	"birch/internal/smt/lia"
)

// A Farkas sum has rational coefficients: normalizing scales them to
// integers before rounding the constant (a + y/2 + 3/2 <= 0 is
// 2a + y <= -3, not a + y <= -2).
func TestNormalizeRational(t *testing.T) {
	tm := smt.NewTermManager()
	a, y := tm.Const("a", smt.IntSort), tm.Const("y", smt.IntSort)
	l := newLin()
	l.c[a] = lia.Int(1)
	l.c[y] = lia.Frac(1, 2)
	l.k = lia.Frac(3, 2)
	p := &Path{tm: tm}
	got := p.atomTerm(normalize(atom{l: l}))
	want := tm.Le(tm.Add(tm.Mul(tm.Int(2), a), tm.Mul(tm.Int(1), y)), tm.Int(-3))
	if got != want {
		t.Fatalf("got %v, want %v", got, want)
	}
	// an integer inequality is divided by the gcd, its constant rounded:
	// 2a + 4y + 3 <= 0 is a + 2y <= -2
	l = newLin()
	l.c[a], l.c[y], l.k = lia.Int(2), lia.Int(4), lia.Int(3)
	got = p.atomTerm(normalize(atom{l: l}))
	want = tm.Le(tm.Add(tm.Mul(tm.Int(1), a), tm.Mul(tm.Int(2), y)), tm.Int(-2))
	if got != want {
		t.Fatalf("got %v, want %v", got, want)
	}
}

// An interpolant over a boolean (weighed as 0 or 1) is the boolean: -f + 1
// <= 0 says f; an atom that holds for both values, or mixes a boolean with
// a number, says nothing a predicate can.
func TestBoolAtom(t *testing.T) {
	tm := smt.NewTermManager()
	f, x := tm.Const("f", smt.BoolSort), tm.Const("x", smt.IntSort)
	mk := func(cf, cx, k int64) *atom {
		l := newLin()
		if cf != 0 {
			l.c[f] = lia.Int(cf)
		}
		if cx != 0 {
			l.c[x] = lia.Int(cx)
		}
		l.k = lia.Int(k)
		return &atom{l: l}
	}
	if b, ok := boolAtom(mk(-1, 0, 1)); !ok || b != f {
		t.Errorf("-f + 1 <= 0: %v %v", b, ok)
	}
	if b, ok := boolAtom(mk(1, 0, 0)); !ok || b != f { // f <= 0: !f
		t.Errorf("f <= 0: %v %v", b, ok)
	}
	if b, ok := boolAtom(mk(1, 0, -5)); !ok || b != nil {
		t.Errorf("f <= 5 holds always: %v %v", b, ok)
	}
	if b, ok := boolAtom(mk(1, 1, 0)); !ok || b != nil {
		t.Errorf("f + x <= 0 mixes: %v %v", b, ok)
	}
	if _, ok := boolAtom(mk(0, 1, 0)); ok {
		t.Errorf("x <= 0 is no boolean atom")
	}
}

// Reads of written arrays: the same index reads the value written, two
// different literals read the array before, others split the cases; and
// the cases rise out of a comparison.
func TestReadOverWrite(t *testing.T) {
	tm := smt.NewTermManager()
	p := &Path{tm: tm, opaque: map[*smt.Term]opaqueOp{}}
	a := tm.Const("a", tm.ArraySort(smt.IntSort, smt.IntSort))
	i, j, v := tm.Const("i", smt.IntSort), tm.Const("j", smt.IntSort), tm.Const("v", smt.IntSort)
	if got := p.readOverWrite(tm.Select(tm.Store(a, i, v), i)); got != v {
		t.Errorf("same index: %v", got)
	}
	if got := p.readOverWrite(tm.Select(tm.Store(a, tm.Int(1), v), tm.Int(2))); got != tm.Select(a, tm.Int(2)) {
		t.Errorf("different literals: %v", got)
	}
	split := p.readOverWrite(tm.Select(tm.Store(a, i, v), j))
	if split != tm.Ite(tm.Eq(i, j), v, tm.Select(a, j)) {
		t.Errorf("aliased: %v", split)
	}
	lifted := p.liftIte(tm.Lt(split, tm.Int(3)), 0)
	want := tm.Or(tm.And(tm.Eq(i, j), tm.Lt(v, tm.Int(3))), tm.And(tm.Not(tm.Eq(i, j)), tm.Lt(tm.Select(a, j), tm.Int(3))))
	if lifted != want {
		t.Errorf("lifted: %v", lifted)
	}
}
