package boolprog

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"birch/internal/source"
)

// TestExplicitTestdata checks every testdata program against the verdict in
// its name (-safe or -unsafe) and, for unsafe ones, that the trail starts in
// main and ends at the failing assertion with values that falsify it.
func TestExplicitTestdata(t *testing.T) {
	files, _ := filepath.Glob("testdata/*.bp")
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		_, info, fset := mustParse(t, f, string(src))
		res := CheckExplicit(fset, info, Limits{})
		want := Pass
		if strings.HasSuffix(f, "-unsafe.bp") {
			want = Fail
		}
		if res.Verdict != want {
			t.Errorf("%s: %v (%s), want %v", f, res.Verdict, res.Reason, want)
			continue
		}
		if want == Fail {
			checkTrailEnds(t, f, fset, info, res)
		}
	}
}

func checkTrailEnds(t *testing.T, name string, fset *source.FileSet, info *Info, res *Result) {
	t.Helper()
	if err := replayTrail(fset, info, res); err != nil {
		var b strings.Builder
		WriteTrail(&b, res)
		t.Errorf("%s: the trail does not replay: %v\n%s", name, err, b.String())
	}
	if len(res.Trail) == 0 {
		t.Errorf("%s: fail without a trail", name)
		return
	}
	if first := res.Trail[0]; first.Proc != "main" {
		t.Errorf("%s: the trail starts in %s, not main", name, first.Proc)
	}
	last := res.Trail[len(res.Trail)-1]
	if last.Pos != res.AssertPos || !strings.HasPrefix(last.Stmt, "assert(") {
		t.Errorf("%s: the trail ends at %s %q, not at the assertion %s", name, last.Pos, last.Stmt, res.AssertPos)
	}
}

// TestExplicitTrail checks the trail of summary-unsafe.bp step by step: the
// third call of set fails, and the trail shows the first two calls in full.
func TestExplicitTrail(t *testing.T) {
	src, err := os.ReadFile("testdata/summary-unsafe.bp")
	if err != nil {
		t.Fatal(err)
	}
	_, info, fset := mustParse(t, "summary-unsafe.bp", string(src))
	res := CheckExplicit(fset, info, Limits{})
	if res.Verdict != Fail {
		t.Fatalf("verdict %v, want fail", res.Verdict)
	}
	var b strings.Builder
	WriteTrail(&b, res)
	want := `summary-unsafe.bp:13:5: main x, y := F, F; [x=0 y=0 p=0 q=0]
summary-unsafe.bp:14:5: main p, q := set(T, F); [x=0 y=0 p=0 q=0]
summary-unsafe.bp:6:5: set assert(!(a & b & x)); [x=0 y=0 a=1 b=0]
summary-unsafe.bp:7:5: set x := a | x; [x=0 y=0 a=1 b=0]
summary-unsafe.bp:8:5: set return b, a; [x=1 y=0 a=1 b=0]
summary-unsafe.bp:15:5: main p, q := set(p, q); [x=1 y=0 p=0 q=1]
summary-unsafe.bp:6:5: set assert(!(a & b & x)); [x=1 y=0 a=0 b=1]
summary-unsafe.bp:7:5: set x := a | x; [x=1 y=0 a=0 b=1]
summary-unsafe.bp:8:5: set return b, a; [x=1 y=0 a=0 b=1]
summary-unsafe.bp:16:5: main p, q := set(p, T); [x=1 y=0 p=1 q=0]
summary-unsafe.bp:6:5: set assert(!(a & b & x)); [x=1 y=0 a=1 b=1]
`
	if got := b.String(); got != want {
		t.Errorf("trail:\n%s\nwant:\n%s", got, want)
	}
}

// TestReplayRejectsBadTrails checks the trail checker used by the other
// tests: every single flipped value of a real trail, and the trail with a
// step left out, are rejected.
func TestReplayRejectsBadTrails(t *testing.T) {
	src, err := os.ReadFile("testdata/summary-unsafe.bp")
	if err != nil {
		t.Fatal(err)
	}
	_, info, fset := mustParse(t, "summary-unsafe.bp", string(src))
	res := CheckExplicit(fset, info, Limits{})
	if err := replayTrail(fset, info, res); err != nil {
		t.Fatalf("the real trail: %v", err)
	}
	for i := range res.Trail {
		for j, v := range res.Trail[i].Values {
			if i == 0 && (v.Name == "x" || v.Name == "y") {
				continue // the first statement sets them whatever they were
			}
			bad := *res
			bad.Trail = append([]Step(nil), res.Trail...)
			bad.Trail[i].Values = append([]Value(nil), res.Trail[i].Values...)
			bad.Trail[i].Values[j].Value = !bad.Trail[i].Values[j].Value
			if replayTrail(fset, info, &bad) == nil {
				t.Errorf("step %d, %s flipped: accepted", i+1, bad.Trail[i].Values[j].Name)
			}
		}
		bad := *res
		bad.Trail = append(append([]Step(nil), res.Trail[:i]...), res.Trail[i+1:]...)
		if replayTrail(fset, info, &bad) == nil {
			t.Errorf("step %d left out: accepted", i+1)
		}
	}
}

// TestExplicitBounds checks that programs too large for the bounds end
// inconclusive, quickly and with the reason, never pass.
func TestExplicitBounds(t *testing.T) {
	var names []string
	for i := range 12 {
		names = append(names, fmt.Sprintf("x%d", i))
	}
	stars := strings.TrimSuffix(strings.Repeat("*, ", 12), ", ")
	list := strings.Join(names, ", ")
	var many []string
	for i := range 65 {
		many = append(many, fmt.Sprintf("g%d", i))
	}
	cases := []struct {
		name, src string
		lim       Limits
		want      string
	}{
		{"states", "decl " + strings.Join(many[:30], ", ") + ";\nvoid main() begin assert(T); end", Limits{MaxStates: 10000}, "the state bound was reached"},
		{"work", "void main() begin\n decl " + list + ";\n " + list + " := " + stars + ";\n " + list + " := " + stars + ";\n assert(T);\nend", Limits{MaxStates: 10000}, "the work bound was reached"},
		{"globals", "decl " + strings.Join(many, ", ") + ";\nvoid main() begin assert(T); end", Limits{}, "65 global variables: the explicit checker handles at most 64"},
	}
	for _, c := range cases {
		_, info, fset := mustParse(t, c.name, c.src)
		res := CheckExplicit(fset, info, c.lim)
		if res.Verdict != Inconclusive || !strings.Contains(res.Reason, c.want) {
			t.Errorf("%s: %v (%s), want inconclusive: %s", c.name, res.Verdict, res.Reason, c.want)
		}
		if c.lim.MaxStates > 0 && res.States+res.Contexts+res.Summaries > c.lim.MaxStates {
			t.Errorf("%s: %d states stored, over the bound %d", c.name, res.States+res.Contexts+res.Summaries, c.lim.MaxStates)
		}
	}
}

// TestExplicitLongTrail checks a violation at the end of a path longer than
// MaxTrailSteps: a 16-bit counter counts from 0 to all ones (131072 steps)
// before assert(F). The verdict stands, the trail keeps its last steps and
// says it is cut.
func TestExplicitLongTrail(t *testing.T) {
	const n = 16
	var names, incr []string
	for i := range n {
		names = append(names, fmt.Sprintf("c%d", i))
		if i == 0 {
			incr = append(incr, "!c0")
		} else {
			incr = append(incr, fmt.Sprintf("%s ^ (%s)", names[i], strings.Join(names[:i], " & ")))
		}
	}
	list := strings.Join(names, ", ")
	src := "decl " + list + ";\nvoid main() begin\n" +
		"  " + list + " := " + strings.TrimSuffix(strings.Repeat("F, ", n), ", ") + ";\n" +
		"  while (!(" + strings.Join(names, " & ") + ")) do " + list + " := " + strings.Join(incr, ", ") + "; od\n" +
		"  assert(F);\nend\n"
	_, info, fset := mustParse(t, "counter.bp", src)
	res := CheckExplicit(fset, info, Limits{})
	if res.Verdict != Fail {
		t.Fatalf("%v (%s), want fail", res.Verdict, res.Reason)
	}
	if !res.TrailCut || len(res.Trail) != MaxTrailSteps {
		t.Errorf("trail of %d steps, cut %v; want the last %d steps, cut", len(res.Trail), res.TrailCut, MaxTrailSteps)
	}
	last := res.Trail[len(res.Trail)-1]
	if last.Stmt != "assert(F);" {
		t.Errorf("the trail ends at %q", last.Stmt)
	}
	for _, v := range last.Values {
		if !v.Value {
			t.Errorf("at the assertion %s = 0, want the counter all ones", v.Name)
		}
	}
}
