package refine

import (
	"testing"
	"time"
)

// BenchmarkRefineLoop refines the spurious trail of the counting loop
// that leaves after eight iterations: the path formula, the shortest
// infeasible prefix, the core, Newton and interpolation.
func BenchmarkRefineLoop(b *testing.B) {
	t := &testing.T{}
	_, m := compile(t, countbound)
	steps := []step{{0, "Main", "input", 0}, {0, "Main", "admit", 0}}
	for k := 0; k < 8; k++ {
		steps = append(steps, step{0, "Main", "loop", 0})
	}
	steps = append(steps, step{0, "Main", "loop", 1})
	sc := schedule(t, m, assertion, steps...)
	var queries int
	var solver time.Duration
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		r, err := Refine(m, sc, Config{})
		if err != nil || r.Status != Infeasible {
			b.Fatalf("%v %v", r, err)
		}
		queries += r.Queries
		solver += r.SolverTime
	}
	b.ReportMetric(float64(queries)/float64(b.N), "queries/op")
	b.ReportMetric(float64(solver.Nanoseconds())/float64(b.N), "solver-ns/op")
}
