package amcs

import (
	"os"
	"strconv"
	"testing"
	"time"

	"birch/internal/search"
)

// BenchmarkRun runs each GeneralSplitting heuristic to its exact round (or
// for at most BIRCH_AMCS_SECONDS, default 120) on a model of bench/models
// (BIRCH_AMCS_MODEL, default counters.bir: 10^6 states, error-free) and
// reports the transitions (outcomes of expanded states) per second over
// all rounds, beside a breadth-first search of the same model.
func BenchmarkRun(b *testing.B) {
	path := os.Getenv("BIRCH_AMCS_MODEL")
	if path == "" {
		path = "../../bench/models/counters.bir"
	}
	m := compileFile(b, path)
	limit := 120 * time.Second
	if sec, err := strconv.Atoi(os.Getenv("BIRCH_AMCS_SECONDS")); err == nil {
		limit = time.Duration(sec) * time.Second
	}
	b.Run("bfs", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			r := search.Run(m, search.Config{Strategy: search.BFS})
			b.ReportMetric(float64(r.Stats.Transitions)/r.Stats.Seconds, "transitions/s")
			b.ReportMetric(float64(r.Stats.States), "states")
			b.ReportMetric(float64(r.Stats.Transitions), "transitions")
		}
	})
	for _, v := range splitting {
		b.Run(v.String(), func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				res := Run(m, m, Config{Variant: v, Seed: 1, TimeLimit: limit})
				var gen, tr int64
				var sec float64
				for _, r := range res.Rounds {
					gen += r.Generated
					tr += r.Transitions
					sec += r.Seconds
				}
				last := res.Rounds[len(res.Rounds)-1]
				b.ReportMetric(float64(tr)/sec, "transitions/s")
				b.ReportMetric(float64(len(res.Rounds)), "rounds")
				b.ReportMetric(float64(last.AbstractStates), "states")
				b.ReportMetric(float64(len(res.Predicates)), "predicates")
				b.ReportMetric(float64(gen)/sec, "generated/s")
				if res.Verdict != search.Pass {
					b.Logf("%v: %s", res.Verdict, res.Reason)
				}
			}
		})
	}
}

// BenchmarkRounds runs BIRCH_AMCS_VARIANT (default minset) for
// BIRCH_AMCS_ROUNDS rounds (default 100) on BIRCH_AMCS_MODEL (default
// bench/amcs/models/sumtonbig.bir): a fixed amount of work, whose CPU time
// compares two versions on a loaded machine better than a rate does.
func BenchmarkRounds(b *testing.B) {
	path := os.Getenv("BIRCH_AMCS_MODEL")
	if path == "" {
		path = "../../bench/amcs/models/sumtonbig.bir"
	}
	v, ok := ParseVariant(os.Getenv("BIRCH_AMCS_VARIANT"))
	if !ok {
		v = MinSet
	}
	rounds := 100
	if n, err := strconv.Atoi(os.Getenv("BIRCH_AMCS_ROUNDS")); err == nil {
		rounds = n
	}
	m := compileFile(b, path)
	for i := 0; i < b.N; i++ {
		res := Run(m, m, Config{Variant: v, Seed: 1, MaxRounds: rounds})
		var tr int64
		for _, r := range res.Rounds {
			tr += r.Transitions
		}
		b.ReportMetric(float64(tr), "transitions")
	}
}
