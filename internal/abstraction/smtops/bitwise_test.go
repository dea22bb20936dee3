package smtops

import (
	"math"
	"testing"

	"birch/internal/bir/token"
	"birch/internal/smt"
)

// TestBitwise evaluates every form Bitwise encodes, on a variable (the
// linear term with mod and div) and on constants (folded), against Go's
// own operators on int64, and checks that the other forms give nil.
func TestBitwise(t *testing.T) {
	tm := smt.NewTermManager()
	m := smt.NewModel(tm)
	x := tm.Const("x", smt.IntSort)
	values := []int64{0, 1, -1, 2, 5, -6, 127, -128, 255, 256, 1000, -1000, 1 << 40, -(1 << 40) - 3, math.MaxInt64, math.MinInt64, math.MaxInt64 - 7, math.MinInt64 + 9}
	var masks []int64
	for k := 0; k < 64; k++ {
		masks = append(masks, int64(uint64(1)<<k-1), -int64(uint64(1)<<k))
	}
	masks = append(masks, math.MaxInt64)
	want := func(op token.Kind, a, b int64) int64 {
		switch op {
		case token.AND:
			return a & b
		case token.OR:
			return a | b
		case token.XOR:
			return a ^ b
		case token.SHL:
			return a << b
		}
		return a >> b
	}
	check := func(term *smt.Term, what string, w int64) {
		t.Helper()
		if term == nil {
			t.Errorf("%s: no encoding", what)
			return
		}
		r, err := m.Eval(term)
		if got, ok := r.Int64(); err != nil || !ok || got != w {
			t.Errorf("%s = %v (%v), want %d", what, r, err, w)
		}
	}
	for _, a := range values {
		if err := m.SetConst(x.Symbol(), tm.Int(a)); err != nil {
			t.Fatal(err)
		}
		for _, op := range []token.Kind{token.AND, token.OR, token.XOR} {
			for _, c := range masks {
				check(Bitwise(tm, op, x, tm.Int(c)), "x "+op.String()+" mask", want(op, a, c))
				check(Bitwise(tm, op, tm.Int(c), x), "mask "+op.String()+" x", want(op, a, c))
				check(Bitwise(tm, op, tm.Int(a), tm.Int(c)), "folded", want(op, a, c))
			}
		}
		for k := int64(0); k < 64; k++ {
			for _, op := range []token.Kind{token.SHL, token.SHR} {
				check(Bitwise(tm, op, x, tm.Int(k)), "x "+op.String()+" k", want(op, a, k))
			}
		}
		check(Complement(tm, x), "~x", ^a)
		check(Complement(tm, tm.Int(a)), "~a folded", ^a)
	}
	// not linear: a mask of mixed bits, a shift by a variable or out of
	// range, a shifted constant
	for _, bad := range []*smt.Term{
		Bitwise(tm, token.AND, x, tm.Int(6)),
		Bitwise(tm, token.OR, x, x),
		Bitwise(tm, token.SHL, x, tm.Int(64)),
		Bitwise(tm, token.SHR, x, tm.Int(-1)),
		Bitwise(tm, token.SHL, tm.Int(1), x),
		Bitwise(tm, token.SHL, tm.Int(1), tm.Int(70)),
		Bitwise(tm, token.ADD, x, tm.Int(1)),
	} {
		if bad != nil {
			t.Errorf("a form that is not linear gave %v", bad)
		}
	}
}
