package embedded

import (
	"slices"
	"testing"
	"time"

	"birch/internal/smt"
	"birch/internal/smt/gen"
	"birch/internal/smt/process"
)

// predAbsWorkloads are the query streams of the predicate abstraction
// benchmark (see gen.PredAbs): every query drawn afresh, or as
// abstraction passes ask them (predicates recur), with and without
// uninterpreted functions.
var predAbsWorkloads = []struct {
	name string
	cfg  gen.PredAbsConfig
}{
	{"distinct", gen.PredAbsConfig{}},
	{"distinct-uf", gen.PredAbsConfig{UF: true}},
	{"pass", gen.PredAbsConfig{Programs: 20, PerProgram: 100}},
	{"pass-uf", gen.PredAbsConfig{UF: true, Programs: 20, PerProgram: 100}},
}

// BenchmarkPredAbs asks predicate abstraction's queries — does a cube of
// 2–8 atoms over 2–6 integer variables imply a weakest precondition? — of
// the embedded solver and of z3 over a pipe (when installed), side by
// side, one Implies query (push, assert cube, assert ¬wp, check, pop) per
// iteration on a long-lived solver, cycling through 2000 queries. It
// reports the median and 90th percentile latency per query:
//
//	go test ./internal/smt/embedded -run '^$' -bench PredAbs -benchtime 4000x
//
// The command go run ./internal/smt/bench prints the same comparison as a
// table, with QF_LIA problems of growing size.
func BenchmarkPredAbs(b *testing.B) {
	for _, w := range predAbsWorkloads {
		for _, name := range []string{"embedded", "z3"} {
			b.Run(w.name+"/"+name, func(b *testing.B) {
				tm := smt.NewTermManager()
				var s smt.Solver
				if name == "embedded" {
					s = New(tm)
				} else {
					if !process.Available(process.Z3) {
						b.Skip("z3 not on PATH")
					}
					var err error
					if s, err = process.New(tm, process.Z3); err != nil {
						b.Fatal(err)
					}
				}
				defer s.Close()
				benchQueries(b, s, gen.PredAbs(tm, 1, 2000, w.cfg))
			})
		}
	}
}

// benchQueries asks the queries in turn of s and reports the median and
// 90th percentile latency.
func benchQueries(b *testing.B, s smt.Solver, qs []gen.Query) {
	times := make([]time.Duration, 0, b.N)
	results := map[bool]int{}
	unknown := 0
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		q := qs[i%len(qs)]
		t0 := time.Now()
		ok, err := smt.Implies(s, q.Cube, q.WP)
		times = append(times, time.Since(t0))
		if err != nil {
			unknown++
		}
		results[ok]++
	}
	b.StopTimer()
	slices.Sort(times)
	b.ReportMetric(float64(times[len(times)/2].Nanoseconds()), "median-ns/query")
	b.ReportMetric(float64(times[len(times)*9/10].Nanoseconds()), "p90-ns/query")
	if unknown > 0 {
		b.Logf("%d unknown of %d", unknown, b.N)
	}
}

// TestPredicateAbstractionQueries checks the benchmark's queries against
// fresh solvers: a long-lived solver must answer as a new one does.
func TestPredicateAbstractionQueries(t *testing.T) {
	tm := smt.NewTermManager()
	var qs []gen.Query
	for _, w := range predAbsWorkloads {
		cfg := w.cfg
		if cfg.Programs > 0 {
			cfg.Programs = 3
		}
		qs = append(qs, gen.PredAbs(tm, 1, 300, cfg)...)
	}
	s := New(tm)
	counts := map[smt.Result]int{}
	for i, q := range qs {
		ok, err := smt.Implies(s, q.Cube, q.WP)
		fresh := New(tm)
		fresh.Assert(q.Cube)
		fresh.Assert(tm.Not(q.WP))
		r, _ := fresh.Check()
		counts[r]++
		if err != nil || ok != (r == smt.Unsat) {
			t.Fatalf("query %d: implies %v (%v), fresh solver %v", i, ok, err, r)
		}
		if r == smt.Sat {
			m, err := fresh.Model()
			if err != nil {
				t.Fatal(err)
			}
			for _, f := range []*smt.Term{q.Cube, tm.Not(q.WP)} {
				if ok, err := m.Holds(f); !ok || err != nil {
					t.Fatalf("query %d: model\n%v\nfalsifies %v", i, m, f)
				}
			}
		}
	}
	t.Logf("%v", counts)
}

// BenchmarkPredAbsFresh asks each query of a new solver (no reuse at all).
func BenchmarkPredAbsFresh(b *testing.B) {
	tm := smt.NewTermManager()
	qs := gen.PredAbs(tm, 1, 2000, gen.PredAbsConfig{})
	times := make([]time.Duration, 0, b.N)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		q := qs[i%len(qs)]
		t0 := time.Now()
		s := New(tm)
		s.Assert(q.Cube)
		s.Assert(tm.Not(q.WP))
		s.Check()
		times = append(times, time.Since(t0))
	}
	b.StopTimer()
	slices.Sort(times)
	b.ReportMetric(float64(times[len(times)/2].Nanoseconds()), "median-ns/query")
	b.ReportMetric(float64(times[len(times)*9/10].Nanoseconds()), "p90-ns/query")
}

// TestRecurringQueryAllocs checks that a query whose atoms the solver has
// encoded before (the common case of an abstraction pass) allocates next
// to nothing: encodings, rows, scope bookkeeping and the SAT and simplex
// state are all reused.
func TestRecurringQueryAllocs(t *testing.T) {
	for _, w := range predAbsWorkloads {
		tm := smt.NewTermManager()
		qs := gen.PredAbs(tm, 1, 50, w.cfg)
		s := New(tm)
		for _, q := range qs {
			smt.Implies(s, q.Cube, q.WP)
		}
		i := 0
		n := testing.AllocsPerRun(500, func() {
			q := qs[i%len(qs)]
			i++
			smt.Implies(s, q.Cube, q.WP)
		})
		if n > 4 {
			t.Errorf("%s: %.1f allocations per recurring query, want at most 4", w.name, n)
		}
	}
}
