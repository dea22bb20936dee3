package types_test

import (
	"strings"
	"testing"

	"birch/internal/bir/parser"
	"birch/internal/bir/types"
	"birch/internal/source"
)

const scopeModel = `system S ()
N = record { next : N_ref; v : range 0..3; };
C : collection [2] of N;
N_ref = ref N {C};
g : range 0..3;
a : array [3] of boolean;

main thread Main ()
  i : range 0..2;
  p : N_ref;
  loc s0:
    when true do { } goto s0;
end Main;

function f (k : int) : int
  loc s0:
    when true do { } return k;
end f;

end S;
`

// TestCheckExprScope checks expressions that are not part of the model, in
// the scope of a thread, of a function and of the globals, with their
// positions in a file of their own (ParseExprAt): the line and column of
// each error are those of the other file.
func TestCheckExprScope(t *testing.T) {
	fset := source.NewFileSet()
	f, err := parser.ParseFile(fset, "s.bir", []byte(scopeModel), 0)
	if err != nil {
		t.Fatal(err)
	}
	prog, err := types.Check(fset, f, nil)
	if err != nil {
		t.Fatal(err)
	}
	main := prog.Threads[0]
	fn := prog.Functions[0]
	for _, tc := range []struct {
		proc *types.Proc
		expr string
		typ  string // or the error
	}{
		{nil, "g <= 2", "boolean"},
		{nil, "g + 1", "int"},
		{main, "p.next.v == g && a[i]", "boolean"},
		{main, "p.v", "range 0..3"},
		{fn, "k < g", "boolean"},
		{nil, "i == 0", "x.p:2:4: undefined: i"},
		{fn, "p == null", "x.p:2:4: undefined: p"},
		{main, "p.w", "x.p:2:6: N has no field w"},
		{main, "g +", "x.p:2:7: expected expression, found end of file"},
		{main, "g 1", "x.p:2:6: expected end of expression, found number 1"},
	} {
		src := []byte("# a line before\n   " + tc.expr + "   # after\n")
		file := fset.AddFile("x.p", src)
		from := len("# a line before\n") + 3
		x, err := parser.ParseExprAt(fset, file, src, from, from+len(tc.expr), false)
		var typ types.Type
		if err == nil {
			typ, err = prog.CheckExpr(fset, x, tc.proc, false)
		}
		got := ""
		if err != nil {
			got = err.Error()
		} else {
			got = typ.String()
		}
		if !strings.HasPrefix(got, tc.typ) {
			t.Errorf("%q: got %q, want %q", tc.expr, got, tc.typ)
		}
	}
}
