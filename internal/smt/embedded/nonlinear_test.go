package embedded

import (
	"math/rand/v2"
	"os"
	"testing"

	"birch/internal/smt"
)

// TestNonlinearAgainstZ3 compares random problems with products, div and
// mod by variables, over bounded and unbounded variables, with z3: both
// must agree where both answer, and every Sat model must satisfy the
// problem. BIRCH_LONG=1 asks eight times as many.
func TestNonlinearAgainstZ3(t *testing.T) {
	tm := smt.NewTermManager()
	z3 := newZ3(t, tm)
	z3.SetLimit(smt.Limit{Steps: 2_000_000})
	s := New(tm)
	n := 25
	if os.Getenv("BIRCH_LONG") != "" {
		n = 200
	}
	r := rand.New(rand.NewPCG(16, 9))
	vs := []*smt.Term{tm.Const("x", smt.IntSort), tm.Const("y", smt.IntSort), tm.Const("z", smt.IntSort)}
	var term func(d int) *smt.Term
	term = func(d int) *smt.Term {
		k := r.IntN(10)
		if d > 2 || k < 3 {
			if r.IntN(3) == 0 {
				return tm.Int(int64(r.IntN(19) - 9))
			}
			return vs[r.IntN(len(vs))]
		}
		switch k {
		case 3, 4:
			return tm.Mul(term(d+1), term(d+1))
		case 5:
			return tm.Div(term(d+1), vs[r.IntN(len(vs))])
		case 6:
			return tm.Mod(term(d+1), vs[r.IntN(len(vs))])
		case 7, 8:
			return tm.Add(term(d+1), term(d+1))
		}
		return tm.Ite(tm.Lt(term(d+1), term(d+1)), term(d+1), term(d+1))
	}
	decided := 0
	for i := range n {
		var fs []*smt.Term
		if m := []int64{2, 4, 8, 20, 0}[r.IntN(5)]; m > 0 {
			for _, v := range vs {
				fs = append(fs, tm.Le(tm.Int(-m), v), tm.Le(v, tm.Int(m)))
			}
		}
		if r.IntN(2) == 0 {
			for _, v := range vs {
				fs = append(fs, tm.Not(tm.Eq(v, tm.Int(0))))
			}
		}
		for range 1 + r.IntN(3) {
			a, b := term(0), term(0)
			fs = append(fs, []*smt.Term{tm.Lt(a, b), tm.Le(a, b), tm.Eq(a, b)}[r.IntN(3)])
		}
		if got, _ := checkAgainst(t, i, tm, s, z3, fs); got != smt.Unknown {
			decided++
		}
	}
	t.Logf("embedded decided %d of %d", decided, n)
}
