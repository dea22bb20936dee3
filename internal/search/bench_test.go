package search

import (
	"os"
	"runtime"
	"testing"

	"birch/internal/bir/parser"
	"birch/internal/bir/types"
	"birch/internal/cputime"
	"birch/internal/model"
	"birch/internal/source"
)

func benchModel(b *testing.B, path string) *model.Model {
	src, err := os.ReadFile(path)
	if err != nil {
		b.Skip(err)
	}
	fset := source.NewFileSet()
	f, err := parser.ParseFile(fset, path, src, 0)
	if err != nil {
		b.Fatal(err)
	}
	prog, err := types.Check(fset, f, nil)
	if err != nil {
		b.Fatal(err)
	}
	m, err := model.New(prog, model.Options{})
	if err != nil {
		b.Fatal(err)
	}
	return m
}

// BenchmarkSearch runs complete searches of benchmark and example models;
// states/s and bytes/state are reported as metrics.
func BenchmarkSearch(b *testing.B) {
	for _, c := range []struct{ name, path string }{
		{"counters", "../../bench/models/counters.bir"},
		{"mutex", "../../bench/models/mutex.bir"},
		{"msgqueue", "../../examples/msgqueue.bir"},
		{"philosophers", "../../bench/models/philosophers.bir"},
	} {
		b.Run(c.name, func(b *testing.B) {
			m := benchModel(b, c.path)
			var r *Result
			runtime.LockOSThread()
			defer runtime.UnlockOSThread()
			c0, cpuOK := cputime.Thread()
			for b.Loop() {
				r = Run(m, Config{})
			}
			if c1, _ := cputime.Thread(); cpuOK {
				// per CPU second of the search thread: waiting for a core on a
				// shared machine does not count (the garbage collector's
				// threads do not either; searches allocate little)
				b.ReportMetric(float64(r.Stats.States)*float64(b.N)/(c1-c0).Seconds(), "states/cpu-s")
			}
			b.ReportMetric(float64(r.Stats.States)/b.Elapsed().Seconds()*float64(b.N), "states/s")
			b.ReportMetric(r.Stats.BytesPerState(), "bytes/state")
		})
	}
}
