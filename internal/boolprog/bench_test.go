package boolprog

import (
	"fmt"
	"strings"
	"testing"
)

// counterProgram is a k-bit counter counting from 0 to all ones in a loop,
// then assert(T): a pass with about 2^(k+1) path edges in one context.
func counterProgram(k int) string {
	var names, incr []string
	for i := range k {
		names = append(names, fmt.Sprintf("c%d", i))
		if i == 0 {
			incr = append(incr, "!c0")
		} else {
			incr = append(incr, fmt.Sprintf("%s ^ (%s)", names[i], strings.Join(names[:i], " & ")))
		}
	}
	list := strings.Join(names, ", ")
	return "void main() begin\n  decl " + list + ";\n" +
		"  " + list + " := " + strings.TrimSuffix(strings.Repeat("F, ", k), ", ") + ";\n" +
		"  while (!(" + strings.Join(names, " & ") + ")) do " + list + " := " + strings.Join(incr, ", ") + "; od\n" +
		"  assert(T);\nend\n"
}

// BenchmarkExplicitCounter reports the explicit checker's speed in path
// edges per second on an 18-bit counter, and its memory per path edge.
func BenchmarkExplicitCounter(b *testing.B) {
	_, info, fset := mustParse(&testing.T{}, "counter.bp", counterProgram(18))
	var states int
	b.ReportAllocs()
	for b.Loop() {
		res := CheckExplicit(fset, info, Limits{})
		if res.Verdict != Pass {
			b.Fatalf("%v %s", res.Verdict, res.Reason)
		}
		states = res.States
	}
	b.ReportMetric(float64(states)*float64(b.N)/b.Elapsed().Seconds(), "states/s")
}

// BenchmarkExplicitRecursion: flip-even-safe.bp's recursion, with 10
// globals that multiply the calling contexts.
func BenchmarkExplicitRecursion(b *testing.B) {
	src := `decl g, h0, h1, h2, h3, h4, h5, h6, h7, h8, h9;
void flip2(n) begin
    decl m;
    g := !g;
    if (n) then m := *; flip2(m); fi
    g := !g;
end
void main() begin
    decl old;
    old := g;
    flip2(*);
    assert(g = old);
end
`
	_, info, fset := mustParse(&testing.T{}, "rec.bp", src)
	var states int
	for b.Loop() {
		res := CheckExplicit(fset, info, Limits{})
		if res.Verdict != Pass {
			b.Fatalf("%v %s", res.Verdict, res.Reason)
		}
		states = res.States + res.Contexts + res.Summaries
	}
	b.ReportMetric(float64(states)*float64(b.N)/b.Elapsed().Seconds(), "states/s")
}
