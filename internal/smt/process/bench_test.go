package process

import (
	"testing"

	"birch/internal/smt"
)

// BenchmarkValid measures small Implies queries over a pipe — push, two
// asserts, check-sat, pop. "atom": one atom implies another; "cube": the
// shape of predicate abstraction's questions, a cube of three atoms implies
// a weakest precondition. The formulas vary with the iteration so that no
// solver-side caching helps.
func BenchmarkValid(b *testing.B) {
	for _, k := range []Kind{Z3, CVC5} {
		for _, shape := range []string{"atom", "cube"} {
			b.Run(string(k)+"/"+shape, func(b *testing.B) {
				if !Available(k) {
					b.Skip(string(k) + " not on PATH")
				}
				tm := smt.NewTermManager()
				s, err := New(tm, k)
				if err != nil {
					b.Fatal(err)
				}
				defer s.Close()
				x, y, z := tm.Const("x", smt.IntSort), tm.Const("y", smt.IntSort), tm.Const("z", smt.IntSort)
				for i := 0; b.Loop(); i++ {
					c := tm.Int(int64(i % 1000))
					var hyp, concl *smt.Term
					if shape == "atom" {
						hyp, concl = tm.Lt(x, c), tm.Le(x, c)
					} else {
						hyp = tm.And(tm.Lt(x, y), tm.Le(y, c), tm.Eq(z, tm.Add(x, tm.Int(1))))
						concl = tm.Le(tm.Add(z, tm.Int(1)), tm.Add(c, tm.Int(1)))
					}
					ok, err := smt.Implies(s, hyp, concl)
					if err != nil || !ok {
						b.Fatalf("Implies = %v, %v", ok, err)
					}
				}
			})
		}
	}
}
