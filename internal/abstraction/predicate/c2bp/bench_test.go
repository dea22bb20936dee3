package c2bp

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"birch/internal/abstraction/predicate"
	"birch/internal/bir/parser"
	"birch/internal/bir/types"
	"birch/internal/source"
)

// BenchmarkAbstract abstracts every example of examples/predicates with
// its predicate file, each a sub-benchmark, and reports the abstraction
// time per concrete transformation, the share of it spent in the solver,
// and the solver queries and cache hits per abstraction:
//
//	go test ./internal/abstraction/predicate/c2bp -run '^$' -bench BenchmarkAbstract -benchtime 5x
func BenchmarkAbstract(b *testing.B) {
	files, err := filepath.Glob("../../../../examples/predicates/*.bir")
	if err != nil || len(files) == 0 {
		b.Fatalf("no examples: %v", err)
	}
	for _, name := range files {
		prog, preds := benchLoad(b, name)
		b.Run(strings.TrimSuffix(filepath.Base(name), ".bir"), func(b *testing.B) {
			var st Stats
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				out, err := Abstract(prog, preds, Config{})
				if err != nil {
					b.Fatalf("%s: %v", name, err)
				}
				s := out.Stats
				st.Transformations += s.Transformations
				st.Queries += s.Queries
				st.CacheHits += s.CacheHits
				st.Unknowns += s.Unknowns
				st.SolverTime += s.SolverTime
				st.Total += s.Total
			}
			if st.Transformations == 0 || st.Total == 0 {
				b.Fatalf("%s: no transformation abstracted (stats %+v)", name, st)
			}
			n := float64(b.N)
			b.ReportMetric(float64(st.Total.Microseconds())/float64(st.Transformations), "µs/transformation")
			b.ReportMetric(100*st.SolverTime.Seconds()/st.Total.Seconds(), "%solver")
			b.ReportMetric(float64(st.Queries)/n, "queries/op")
			b.ReportMetric(float64(st.CacheHits)/n, "hits/op")
			b.ReportMetric(float64(st.Transformations)/n, "transformations")
			if st.Unknowns > 0 {
				b.ReportMetric(float64(st.Unknowns)/n, "unknowns/op")
			}
			if st.Total > b.Elapsed()+time.Millisecond {
				b.Fatalf("%s: Stats.Total %v exceeds the elapsed time %v", name, st.Total, b.Elapsed())
			}
		})
	}
}

// benchLoad parses and checks an example and its predicate file.
func benchLoad(b *testing.B, name string) (*types.Program, *predicate.File) {
	b.Helper()
	src, err := os.ReadFile(name)
	if err != nil {
		b.Fatal(err)
	}
	fset := source.NewFileSet()
	f, err := parser.ParseFile(fset, name, src, 0)
	if err != nil {
		b.Fatal(err)
	}
	prog, err := types.Check(fset, f, nil)
	if err != nil {
		b.Fatal(err)
	}
	predName := strings.TrimSuffix(name, ".bir") + ".pred"
	psrc, err := os.ReadFile(predName)
	if err != nil {
		b.Fatal(err)
	}
	preds, err := predicate.ParseFile(prog, predName, psrc)
	if err != nil {
		b.Fatal(err)
	}
	return prog, preds
}
