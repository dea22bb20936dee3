package apf

import (
	"testing"

	"birch/internal/model"
	"birch/internal/search"
	"birch/internal/source"
)

// BenchmarkRuntimeWorkers measures the runtime on four threads that
// update heap cells under locks, each cell described by three [record
// Cell] predicates: the first 20,000 states of a depth-first search (the
// whole space is 291,605 states). It reports the runtime's time per
// transition.
func BenchmarkRuntimeWorkers(b *testing.B) {
	src := `system Big ()
Cell = record { v : int; m : lock; };
Cells : collection [4] of Cell;
CellRef = ref Cell {Cells};
cs : array [4] of CellRef;
thread W (c : CellRef, d : CellRef)
  loc w0:
    when lockAvailable(c.m) do { lock(c.m); } goto w1;
  loc w1:
    when c.v < 3 do { c.v := c.v + 1; } goto w2;
    when !(c.v < 3) do { c.v := 0; } goto w2;
  loc w2:
    when true do { assert(c.v >= 0); unlock(c.m); } goto w3;
  loc w3:
    when lockAvailable(d.m) do { lock(d.m); } goto w4;
  loc w4:
    when d.v > 0 do { d.v := d.v - 1; } goto w5;
    when !(d.v > 0) do { } goto w5;
  loc w5:
    when true do { unlock(d.m); } goto w0;
end W;
main thread Main ()
  i : range 0..4;
  loc s0:
    when i < 4 do { cs[i] := new Cells; i := i + 1; } goto s0;
    when i == 4 do { start W(cs[0], cs[1]); start W(cs[1], cs[2]); start W(cs[2], cs[3]); start W(cs[3], cs[0]); } goto s1;
  loc s1:
end Main;
end Big;
`
	p, err := Instrument(source.NewFileSet(), "workers.bir", []byte(src), "workers.pred", []byte("[record Cell] this.v >= 0\n[record Cell] this.v < 3\n[record Cell] this.v > 0\n"))
	if err != nil || p.Unsupported != nil {
		b.Fatal(err, p.Unsupported)
	}
	b.ResetTimer()
	transitions := 0
	for range b.N {
		rt, err := NewRuntime(p, Config{})
		if err != nil {
			b.Fatal(err)
		}
		m, err := model.New(p.Prog, model.Options{Native: rt})
		if err != nil {
			b.Fatal(err)
		}
		res := search.Run(m, search.Config{Strategy: search.DFS, NoDeadlock: true, MaxStates: 20000})
		if res.Violation != nil {
			b.Fatal(res.Violation.Msg)
		}
		transitions += int(res.Stats.Transitions)
		rt.Close()
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(transitions), "ns/transition")
}
