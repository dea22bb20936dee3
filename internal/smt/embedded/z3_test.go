package embedded

import (
	"math/rand/v2"
	"testing"

	"birch/internal/smt"
)

// TestAgainstZ3 decides random unbounded formulas with the embedded solver
// and z3 (when installed) and compares the answers. The full differential
// test, over every fragment, lives with the formula generator (smt/gen).
func TestAgainstZ3(t *testing.T) {
	tm := smt.NewTermManager()
	z3 := newZ3(t, tm)
	r := rand.New(rand.NewPCG(7, 7))
	vars := []*smt.Term{tm.Const("x", smt.IntSort), tm.Const("y", smt.IntSort), tm.Const("z", smt.IntSort), tm.Const("w", smt.IntSort)}
	bools := []*smt.Term{tm.Const("p", smt.BoolSort), tm.Const("q", smt.BoolSort)}
	var intTerm func(d int) *smt.Term
	intTerm = func(d int) *smt.Term {
		switch k := r.IntN(10); {
		case d == 0 || k < 3:
			return vars[r.IntN(len(vars))]
		case k < 4:
			return tm.Int(r.Int64N(21) - 10)
		case k < 6:
			return tm.Add(intTerm(d-1), intTerm(d-1))
		case k < 7:
			return tm.Sub(intTerm(d-1), intTerm(d-1))
		case k < 8:
			return tm.Scale(r.Int64N(13)-6, intTerm(d-1))
		case k < 9:
			return tm.Ite(boolTerm(r, tm, bools, intTerm, d-1), intTerm(d-1), intTerm(d-1))
		default:
			k := r.Int64N(5) + 1
			if r.IntN(2) == 0 {
				return tm.Div(intTerm(d-1), tm.Int(k))
			}
			return tm.Mod(intTerm(d-1), tm.Int(k))
		}
	}
	n := 600
	if testing.Short() {
		n = 100
	}
	unknown := 0
	s := New(tm) // long-lived, one scope per formula
	for iter := range n {
		var fs []*smt.Term
		for range 1 + r.IntN(5) {
			fs = append(fs, boolTerm(r, tm, bools, intTerm, 3))
		}
		got, want := checkAgainst(t, iter, tm, s, z3, fs)
		if got == smt.Unknown {
			unknown++
			if unknown < 4 {
				t.Logf("unknown (z3 %v): %v", want, tm.And(fs...))
			}
		}
	}
	if unknown > 0 {
		t.Logf("%d of %d unknown", unknown, n)
	}
}
