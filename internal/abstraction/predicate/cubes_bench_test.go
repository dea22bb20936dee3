package predicate

import (
	"testing"
	"time"

	"birch/internal/smt"
	"birch/internal/smt/embedded"
)

// BenchmarkF computes F and G, cube length 3, of six formulas over eight
// integer predicates, with a fresh cache each time, and reports cube
// queries per second and the share of the time spent in the solver:
//
//	go test ./internal/abstraction/predicate -run '^$' -bench BenchmarkF -benchtime 20x
func BenchmarkF(b *testing.B) {
	tm := smt.NewTermManager()
	x, y, z := tm.Const("x", smt.IntSort), tm.Const("y", smt.IntSort), tm.Const("z", smt.IntSort)
	preds := []*smt.Term{
		tm.Lt(x, tm.Int(5)), tm.Eq(x, y), tm.Gt(y, tm.Int(0)), tm.Lt(x, tm.Int(3)),
		tm.Le(y, z), tm.Eq(z, tm.Int(0)), tm.Gt(tm.Add(x, z), tm.Int(2)), tm.Eq(x, z),
	}
	phis := []*smt.Term{
		tm.Lt(tm.Add(x, tm.Int(1)), tm.Int(5)),
		tm.Gt(tm.Add(x, y), tm.Int(0)),
		tm.Le(x, z),
		tm.Eq(tm.Add(y, tm.Int(1)), z),
		tm.And(tm.Gt(z, tm.Int(-1)), tm.Lt(x, tm.Int(9))),
		tm.Or(tm.Eq(x, y), tm.Gt(z, y)),
	}
	for _, noPrune := range []bool{false, true} {
		name := "pruned"
		if noPrune {
			name = "unpruned"
		}
		b.Run(name, func(b *testing.B) { benchF(b, tm, preds, phis, noPrune) })
	}
}

func benchF(b *testing.B, tm *smt.TermManager, preds, phis []*smt.Term, noPrune bool) {
	s := embedded.New(tm)
	var queries, hits int
	var solver time.Duration
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		cs := NewCubes(s, preds)
		cs.NoPrune = noPrune
		for _, phi := range phis {
			cs.F(phi)
			cs.G(phi)
		}
		st := cs.Stats()
		queries += st.Queries
		hits += st.Hits
		solver += st.SolverTime
	}
	el := b.Elapsed()
	b.ReportMetric(float64(queries)/el.Seconds(), "queries/s")
	b.ReportMetric(float64(queries)/float64(b.N), "queries/op")
	b.ReportMetric(float64(hits)/float64(b.N), "hits/op")
	b.ReportMetric(100*solver.Seconds()/el.Seconds(), "%solver")
}
