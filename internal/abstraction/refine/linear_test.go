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
