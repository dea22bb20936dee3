package search

import (
	"testing"
	"time"

	"birch/internal/ltl"
)

// BenchmarkProductVsSafety measures the time per state of the product
// search against that of the plain safety search on the same model, in the
// same run and interleaved (each iteration runs both), so that the load of
// a shared machine affects both alike. The property is a response
// property that holds, [] (!p -> <> p) with p the invariant incs <= 1, over
// bench/models/mutex.bir: its negation's automaton has two states, and the
// product as many states as the model. Reported: ns per state of each
// search and their ratio (docs/performance.md, "Product search").
func BenchmarkProductVsSafety(b *testing.B) {
	m := benchModel(b, "../../bench/models/mutex.bir")
	pool := invariantsPool(m) // p: incs <= 1
	f := ltl.Un(ltl.Always, ltl.Bin(ltl.Implies, ltl.Un(ltl.Not, ltl.Prop(0)), ltl.Un(ltl.Eventually, ltl.Prop(0))))
	var plain, prod time.Duration
	var plainStates, prodStates int
	for b.Loop() {
		t0 := time.Now()
		r := Run(m, Config{})
		plain += time.Since(t0)
		plainStates += r.Stats.States
		t1 := time.Now()
		lr, _ := ltlCheck(b, m, pool, f, false)
		prod += time.Since(t1)
		prodStates += lr.Stats.States
		if lr.Verdict != Pass {
			b.Fatalf("%v: %s", lr.Verdict, lr.Reason)
		}
	}
	ps := float64(plain.Nanoseconds()) / float64(plainStates)
	qs := float64(prod.Nanoseconds()) / float64(prodStates)
	b.ReportMetric(ps, "ns/state")
	b.ReportMetric(qs, "ns/product-state")
	b.ReportMetric(qs/ps, "ratio")
	b.ReportMetric(float64(prodStates)/float64(plainStates), "product/model-states")
}
