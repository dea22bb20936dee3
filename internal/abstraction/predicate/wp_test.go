package predicate

import (
	"flag"
	"os"
	"strings"
	"testing"

	"birch/internal/bir/ast"
	"birch/internal/bir/format"
	"birch/internal/bir/parser"
	"birch/internal/bir/types"
	"birch/internal/source"
)

var update = flag.Bool("update", false, "rewrite testdata/*.golden")

// withActions returns heap.bir with Main's transformation doing actions.
func withActions(t testing.TB, actions string) *types.Program {
	t.Helper()
	src, err := os.ReadFile("testdata/heap.bir")
	if err != nil {
		t.Fatal(err)
	}
	text := strings.Replace(string(src), "p := new Cells;", actions, 1)
	fset := source.NewFileSet()
	f, err := parser.ParseFile(fset, "heap.bir", []byte(text), 0)
	if err == nil {
		var prog *types.Program
		if prog, err = types.Check(fset, f, nil); err == nil {
			return prog
		}
	}
	t.Fatalf("%s: %v", actions, err)
	return nil
}

// mainActions returns the actions of Main's only transformation.
func mainActions(prog *types.Program) []ast.Action {
	return prog.Threads[0].Locations[0].Decl.Transformations[0].Actions
}

// wpOf computes WP(actions, pred) in the scope of Main and prints it.
func wpOf(t *testing.T, actions, pred string) string {
	t.Helper()
	prog := withActions(t, actions)
	f, err := ParseFile(prog, "case.pred", []byte("[thread Main] "+pred))
	if err != nil {
		t.Fatalf("%s | %s: %v", actions, pred, err)
	}
	out, err := NewWP(prog).Actions(mainActions(prog), f.Predicates[0].Expr)
	if err != nil {
		return "error: " + err.Error()
	}
	return format.Expr(out)
}

// TestWPGolden computes the weakest precondition of every case of
// testdata/wp.cases and compares it, printed as BIR, with wp.golden.
func TestWPGolden(t *testing.T) {
	cases, err := os.ReadFile("testdata/wp.cases")
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	for _, line := range strings.Split(string(cases), "\n") {
		if strings.TrimSpace(line) == "" || strings.HasPrefix(line, "#") {
			b.WriteString(line + "\n")
			continue
		}
		actions, pred, ok := strings.Cut(line, "|")
		if !ok {
			t.Fatalf("bad case %q", line)
		}
		actions, pred = strings.TrimSpace(actions), strings.TrimSpace(pred)
		b.WriteString(line + "\n    => " + wpOf(t, actions, pred) + "\n")
	}
	got := b.String()
	if *update {
		if err := os.WriteFile("testdata/wp.golden", []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile("testdata/wp.golden")
	if err != nil {
		t.Fatal(err)
	}
	if got != string(want) {
		gl, wl := strings.Split(got, "\n"), strings.Split(string(want), "\n")
		for i := 0; i < len(gl) && i < len(wl); i++ {
			if gl[i] != wl[i] {
				t.Fatalf("wp.golden:%d:\n got %s\nwant %s", i+1, gl[i], wl[i])
			}
		}
		t.Fatalf("wp.golden: %d lines, want %d", len(gl), len(wl))
	}
}

// TestWPCallee: the step of a call does not write the caller's data (the
// result comes with the return), but it starts the callee's scope, for
// which it has no WP.
func TestWPCallee(t *testing.T) {
	prog := withActions(t, "n := call inc(g);")
	f, err := ParseFile(prog, "case.pred", []byte("[function inc] k == 1\nn == 1\n"))
	if err != nil {
		t.Fatal(err)
	}
	w := NewWP(prog)
	_, err = w.Actions(mainActions(prog), f.Predicates[0].Expr)
	if _, ok := err.(*UnsupportedError); !ok || !strings.Contains(err.Error(), "reads k of the callee inc") {
		t.Errorf("callee's predicate: %v", err)
	}
	out, err := w.Actions(mainActions(prog), f.Predicates[1].Expr)
	if err != nil || format.Expr(out) != "n == 1" {
		t.Errorf("caller's predicate: %v %v", out, err)
	}
}

// TestWPTooBig: a predicate that reads many locations a step may write has
// exponentially many alias cases; past the bound WP gives up with an
// UnsupportedError instead of building them.
func TestWPTooBig(t *testing.T) {
	reads := []string{"i", "j", "g", "i + 1", "j + 1", "g + 1", "i + 2", "j + 2", "g + 2", "i * 2", "j * 2"}
	var sum []string
	for _, r := range reads {
		sum = append(sum, "a["+r+"]")
	}
	pred := strings.Join(sum, " + ") + " == 0"
	got := wpOf(t, "a[n] := 1;", pred)
	if !strings.HasPrefix(got, "error: ") || !strings.Contains(got, "more than 1024 alias cases or 65536 nodes") {
		t.Errorf("WP of %s: %s", pred, got)
	}
	// six reads are within the bounds (64 cases)
	pred = strings.Join(sum[:6], " + ") + " == 0"
	if got := wpOf(t, "a[n] := 1;", pred); strings.HasPrefix(got, "error: ") {
		t.Errorf("WP of %s: %s", pred, got)
	}
}

// TestChanges: which predicates a step may change, by the alias analysis
// of WP; and, over every case of wp.cases without assume or assert, a
// predicate a step cannot change has itself as its WP.
func TestChanges(t *testing.T) {
	for _, tc := range []struct {
		actions, pred string
		want          bool
	}{
		{"p.v := 2;", "o.v == 2", false}, // another record type
		{"p.v := 2;", "q.v == 2", true},
		{"p.v := 2;", "q.lo == 2", false}, // another field
		{"p.v := 2;", "g < 2", false},
		{"c.v := 2;", "s.v == 2", false}, // another collection
		{"c.v := 2;", "p.v == 2", true},
		{"a[1] := 2;", "a[2] == g", false},
		{"a[1] := 2;", "a[i] == g", true},
		{"i := 1;", "a[i] == g", true}, // an index
		{"p := q;", "p.next == null", true},
		{"b := new Bufs[2];", "b.length == 2", true},
		{"n := internChoose(0 .. 99);", "n == 1", true},
		{"lock(m); println(g); assume(g > 0); assert(n != 0);", "g > 0 && n != 0", false},
		{"n := call inc(g);", "n == 1", false}, // written by the return
	} {
		prog := withActions(t, tc.actions)
		f, err := ParseFile(prog, "case.pred", []byte("[thread Main] "+tc.pred))
		if err != nil {
			t.Fatal(err)
		}
		if got := NewWP(prog).Changes(mainActions(prog), f.Predicates[0].Expr); got != tc.want {
			t.Errorf("%s changes %s: %v, want %v", tc.actions, tc.pred, got, tc.want)
		}
	}
	prog := withActions(t, "n := call inc(g);")
	f, err := ParseFile(prog, "case.pred", []byte("[function inc] k == 1"))
	if err != nil {
		t.Fatal(err)
	}
	if !NewWP(prog).Changes(mainActions(prog), f.Predicates[0].Expr) {
		t.Errorf("a call does not change its callee's k")
	}

	cases, err := os.ReadFile("testdata/wp.cases")
	if err != nil {
		t.Fatal(err)
	}
	unchanged := 0
	for _, line := range strings.Split(string(cases), "\n") {
		actions, pred, ok := strings.Cut(line, "|")
		if !ok || strings.HasPrefix(line, "#") || strings.Contains(actions, "assume") || strings.Contains(actions, "assert") {
			continue
		}
		actions, pred = strings.TrimSpace(actions), strings.TrimSpace(pred)
		prog := withActions(t, actions)
		f, err := ParseFile(prog, "case.pred", []byte("[thread Main] "+pred))
		if err != nil {
			t.Fatal(err)
		}
		if NewWP(prog).Changes(mainActions(prog), f.Predicates[0].Expr) {
			continue
		}
		unchanged++
		if got, want := wpOf(t, actions, pred), plain(t, actions, pred); got != want {
			t.Errorf("%s: unchanged, but its WP is %s, not %s", line, got, want)
		}
	}
	if unchanged < 5 {
		t.Errorf("only %d cases of wp.cases are unchanged", unchanged)
	}
}
