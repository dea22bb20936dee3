package predicate

import (
	"os"
	"strings"
	"testing"

	"birch/internal/bir/ast"
	"birch/internal/bir/parser"
	"birch/internal/bir/types"
	"birch/internal/source"
)

func loadModel(t *testing.T, name string) *types.Program {
	t.Helper()
	src, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	fset := source.NewFileSet()
	f, err := parser.ParseFile(fset, name, src, 0)
	if err != nil {
		t.Fatal(err)
	}
	prog, err := types.Check(fset, f, nil)
	if err != nil {
		t.Fatal(err)
	}
	return prog
}

// TestParseFile reads a predicate file with every form of line and checks
// the predicates it gives, each printed back as a line of a predicate file.
func TestParseFile(t *testing.T) {
	prog := loadModel(t, "testdata/heap.bir")
	src := `# predicates of heap.bir
g < 2
  flag || n == g   # trailing comment

[thread Main] p.next.v == g
[thread Main]p == q   
[ function inc ] r <= k && a[g] == 1#no space before the comment
[thread Main] b[i] == d[j + 1] -> p.v != 0
`
	f, err := ParseFile(prog, "heap.pred", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, p := range f.Predicates {
		got = append(got, p.String())
	}
	want := []string{
		"g < 2",
		"flag || n == g",
		"[thread Main] p.next.v == g",
		"[thread Main] p == q",
		"[function inc] r <= k && a[g] == 1",
		"[thread Main] b[i] == d[j + 1] -> p.v != 0",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("predicates:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if p := f.Predicates[2]; p.Proc != prog.Threads[0] || prog.Fset.Position(p.Expr.Pos()).String() != "heap.pred:5:15" {
		t.Errorf("predicate 3: scope %v at %s", p.Proc, prog.Fset.Position(p.Expr.Pos()))
	}
}

// TestParseFileRecord reads `[record T]` lines: the expression reads
// `this`, a reference to T (and its subtypes), and the globals.
func TestParseFileRecord(t *testing.T) {
	prog := loadModel(t, "testdata/heap.bir")
	src := "[record Cell] this.v < g\n[ record Big ]this.big -> this.next != null && this.next.v == n # comment\n[record Cell] this != null\n"
	f, err := ParseFile(prog, "rec.pred", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, p := range f.Predicates {
		got = append(got, p.String())
	}
	want := "[record Cell] this.v < g\n[record Big] this.big -> this.next != null && this.next.v == n\n[record Cell] this != null"
	if strings.Join(got, "\n") != want {
		t.Errorf("predicates:\n%s\nwant:\n%s", strings.Join(got, "\n"), want)
	}
	cell := prog.Lookup("Cell").(*types.TypeName).Named()
	p := f.Predicates[0]
	if p.Record != cell || p.Proc != nil || p.This == nil || p.This.Kind != types.ThisVar || p.Scope() != "record Cell" {
		t.Fatalf("predicate 1: record %v proc %v this %v", p.Record, p.Proc, p.This)
	}
	ref, ok := p.This.Type().(*types.Ref)
	if !ok || ref.Target != cell || len(ref.Collections) != 3 { // Bigs, Cells, Spare
		t.Errorf("this : %v", p.This.Type())
	}
	// the uses of this in the expression are the predicate's This
	this := p.Expr.(*ast.BinaryExpr).X.(*ast.SelectorExpr).X.(*ast.Ident)
	if prog.Info.Uses[this] != p.This {
		t.Errorf("this resolves to %v, not the predicate's This", prog.Info.Uses[this])
	}
	if f.Predicates[1].This == p.This {
		t.Error("two record predicates share one this")
	}
}

// TestParseFileErrors gives one bad line at a time and checks the
// positioned message: line and column in the predicate file.
func TestParseFileErrors(t *testing.T) {
	prog := loadModel(t, "testdata/heap.bir")
	for _, tc := range []struct{ src, want string }{
		{"g < 2\nh < 2\n", "bad.pred:2:1: undefined: h"},
		{"g < 2\n  g + 1  # not boolean\n", "bad.pred:2:3: a predicate must be boolean, not int"},
		{"p == null\n", "bad.pred:1:1: undefined: p"},
		{"[thread Main] r == 0\n", "bad.pred:1:15: undefined: r"},
		{"[function inc] p == null\n", "bad.pred:1:16: undefined: p"},
		{"[thread Worker] g == 0\n", "bad.pred:1:9: undefined thread Worker"},
		{"[function Main] g == 0\n", "bad.pred:1:11: Main is a thread, not a function: write [thread Main]"},
		{"[thread inc] g == 0\n", "bad.pred:1:9: inc is a function, not a thread: write [function inc]"},
		{"[process Main] g == 0\n", "bad.pred:1:2: expected thread, function or record in the scope, found process"},
		{"[thread Main g == 0\n", "bad.pred:1:20: expected ] to close the scope [thread T], [function f] or [record T]"},
		{"[thread Main]   # nothing\n", "bad.pred:1:14: expected a predicate after the scope"},
		{"\n\n   g < \n", "bad.pred:3:7: expected expression, found end of line"},
		{"g < 2 2\n", "bad.pred:1:7: expected end of expression, found number 2"},
		{"[thread Main] p.w == 0\n", "bad.pred:1:17: Cell has no field w"},
		{"[thread Main] Main @ s0\n", "bad.pred:1:15: a predicate file's predicate reads data: a location test is not allowed (locations stay concrete)"},
		{"lockAvailable(m)\n", "bad.pred:1:1: a predicate file's predicate reads data: lockAvailable is not allowed (locks and threads stay concrete)"},
		{"[thread Main] Main : p == null\n", "bad.pred:1:15: a predicate file's predicate reads data in its scope: a remote reference is not allowed (write [thread Main] in front)"},
		{"[thread Main] p.next == o\n", "bad.pred:1:22: cannot compare Cell_ref and Other_ref with =="},
		{"low\n", "bad.pred:1:1: a predicate file's predicate cannot use the model's predicate low"},
		{"g == BLUE\n", "bad.pred:1:6: undefined: BLUE"},
		{"[record Cell] this.w == 0\n", "bad.pred:1:20: Cell has no field w"},
		{"[record Cell] p.v == 0\n", "bad.pred:1:15: undefined: p"},
		{"[record Cell] v == 0\n", "bad.pred:1:15: undefined: v"},
		{"[record Cell] this.v + 1\n", "bad.pred:1:15: a predicate must be boolean, not int"},
		{"[record Cell] this == g\n", "bad.pred:1:20: cannot compare ref Cell and range 0..3 with =="},
		{"[record Cel] this.v == 0\n", "bad.pred:1:9: undefined record type Cel"},
		{"[record Buf] this == null\n", "bad.pred:1:9: Buf is not a record type, but array [3] of range 0..3"},
		{"[record Color] this == null\n", "bad.pred:1:9: Color is not a record type, but enum {RED = 0, GREEN = 1}"},
		{"[record Object] this == null\n", "bad.pred:1:9: Object is predeclared and has no fields: name a record type the model declares"},
		{"[record Main] this == null\n", "bad.pred:1:9: undefined record type Main"},
		{"[record] g == 0\n", "bad.pred:1:8: expected the name of a record type after record"},
		{"[record Cell Big] g == 0\n", "bad.pred:1:14: expected ], found Big"},
		{"[record Cell] Main @ s0\n", "bad.pred:1:15: a predicate file's predicate reads data: a location test is not allowed (locations stay concrete)"},
	} {
		_, err := ParseFile(prog, "bad.pred", []byte(tc.src))
		if err == nil {
			t.Errorf("%q: no error, want %s", tc.src, tc.want)
			continue
		}
		if got := err.Error(); !strings.HasPrefix(got, tc.want) {
			t.Errorf("%q:\n got %s\nwant %s", tc.src, got, tc.want)
		}
	}
}

// TestParseFileManyErrors: every bad line is reported, and the good ones
// still give predicates.
func TestParseFileManyErrors(t *testing.T) {
	prog := loadModel(t, "testdata/heap.bir")
	f, err := ParseFile(prog, "bad.pred", []byte("x < 1\ng < 1\ny < 1\nflag\n"))
	list, ok := err.(source.ErrorList)
	if !ok || len(list) != 2 || list[0].Pos.Line != 1 || list[1].Pos.Line != 3 {
		t.Fatalf("errors: %v", err)
	}
	if len(f.Predicates) != 2 {
		t.Errorf("%d predicates, want 2", len(f.Predicates))
	}
}
