package parser_test

import (
	"strings"
	"testing"

	"birch/internal/bir/ast"
	"birch/internal/bir/parser"
	"birch/internal/bir/token"
	"birch/internal/source"
)

func parse(t *testing.T, src string, mode parser.Mode) (*ast.File, source.ErrorList) {
	t.Helper()
	f, err := parser.ParseFile(source.NewFileSet(), "test.bir", []byte(src), mode)
	if f == nil || f.System == nil {
		t.Fatal("ParseFile returned no file or no system")
	}
	if err == nil {
		return f, nil
	}
	return f, err.(source.ErrorList)
}

// The paper's own spellings parse to the same nodes as birch's.
func TestPaperForms(t *testing.T) {
	src := `process P ()
const N 3;
Msg = record { tid : tid; };
Msg extends Object;
thread Client (this : Msg_ref; q : int;)
  loc s125:
    when true do { this.tid := start(Client, this, 1); } goto s125;
end Client;
predicates
  sending = Client[null] @ s125;
end P;
`
	f, errs := parse(t, src, 0)
	if errs != nil {
		t.Fatal(errs)
	}
	sys := f.System
	if !sys.Process {
		t.Error("process keyword not recorded")
	}
	k := sys.Decls[0].(*ast.ConstDecl)
	if k.Assign.IsValid() || k.Value.(*ast.BasicLit).Value != "3" {
		t.Errorf("const N 3: got %+v", k)
	}
	if _, ok := sys.Decls[2].(*ast.ExtendsDecl); !ok {
		t.Errorf("Msg extends Object: got %T", sys.Decls[2])
	}
	th := sys.Decls[3].(*ast.ThreadDecl)
	if n := len(th.Body.Params); n != 2 {
		t.Errorf("params separated by ';': got %d declarations, want 2", n)
	}
	st := th.Body.Locations[0].Transformations[0].Actions[0].(*ast.StartAction)
	if !st.PaperForm || st.Thread.Name != "Client" || len(st.Args) != 2 {
		t.Errorf("start(Client, this, 1): got %+v", st)
	}
	lt := sys.Predicates.Predicates[0].Expr.(*ast.LocationTest)
	if lit, ok := lt.Instance.(*ast.BasicLit); !ok || lit.Kind != token.NULL || lt.Loc.Name != "s125" {
		t.Errorf("Client[null] @ s125: got %+v", lt)
	}
}

func TestErrors(t *testing.T) {
	for _, tc := range []struct {
		src, want string
	}{
		{"system S ()\nmain thread M ()\n  loc s0:\n    when true do { println(\"abc); } goto s0;\nend M;\nend S;\n", "4:28: string literal not terminated"},
		{"system S ()\nx : int;\n/* open", "3:1: comment not terminated"},
		{"system S ()\nx : int;\n", "3:1: expected end, found end of file"},
		{"", "1:1: expected system, found end of file"},
		{"system S ()\nx : int;\nend S;\nend S;\n", "4:1: expected end of file after 'end S;', found keyword end"},
	} {
		_, errs := parse(t, tc.src, parser.AllErrors)
		found := false
		for _, e := range errs {
			if strings.HasSuffix(e.Error(), tc.want) {
				found = true
			}
		}
		if !found {
			t.Errorf("%q: want error %q, got %v", tc.src, tc.want, errs)
		}
	}
}

// Without AllErrors the parser stops after 10 errors; with it, it goes on.
func TestErrorLimit(t *testing.T) {
	var b strings.Builder
	b.WriteString("system S ()\n")
	for i := 0; i < 30; i++ {
		b.WriteString("x : ;\n")
	}
	b.WriteString("end S;\n")
	_, errs := parse(t, b.String(), 0)
	if len(errs) != 10 {
		t.Errorf("default mode: got %d errors, want 10", len(errs))
	}
	_, errs = parse(t, b.String(), parser.AllErrors)
	if len(errs) != 30 {
		t.Errorf("AllErrors: got %d errors, want 30", len(errs))
	}
}

// Deep nesting is an error, not a stack overflow.
func TestDeepNesting(t *testing.T) {
	src := "system S ()\nconst K = " + strings.Repeat("(", 100000) + "1" + strings.Repeat(")", 100000) + ";\nend S;\n"
	_, errs := parse(t, src, 0)
	if len(errs) == 0 || !strings.Contains(errs[0].Msg, "nested too deeply") {
		t.Errorf("got %v", errs)
	}
	if _, err := parser.ParseExpr(strings.Repeat("!", 100000) + "true"); err == nil {
		t.Error("ParseExpr: deep nesting not reported")
	}
}

// exprDepth is the depth of the deepest node of the tree rooted at n.
func exprDepth(n ast.Node) int {
	depth, deepest := 0, 0
	ast.Inspect(n, func(n ast.Node) bool {
		if n == nil {
			depth--
			return false
		}
		depth++
		deepest = max(deepest, depth)
		return true
	})
	return deepest
}

// A chain of operators builds a tree as deep as the chain is long, and every
// later stage walks that tree recursively: chains of binary operators,
// selectors and indexes count towards the nesting bound (issue 16: a chain of
// 10^6 operands overflowed the stack). A chain within the bound parses.
func TestLongChains(t *testing.T) {
	model := func(decls, action string, props ...string) string {
		return "system S ()\n" + decls + "\nmain thread M ()\n  loc l0:\n    when true do { " + action + " } goto l0;\nend M;\n" +
			strings.Join(props, "") + "end S;\n"
	}
	chain := func(first, sep, operand string, n int) string {
		return first + strings.Repeat(sep+operand, n)
	}
	const rec = "R = record { next : Ref; v : int; };\nC : collection [2] of R;\nRef = ref R;\nh : Ref;\nx : int;\na : array [2] of int;\nb : boolean;"
	for _, c := range []struct {
		name         string
		build        func(n int) string
		short, depth int // a chain of short links parses to a tree of at least depth
	}{
		{"sum", func(n int) string { return model(rec, "x := "+chain("x", " + ", "x", n)+";") }, 900, 900},
		{"and", func(n int) string { return model(rec, "b := "+chain("b", " && ", "b", n)+";") }, 900, 900},
		{"mixed", func(n int) string { return model(rec, "x := "+chain("x", " - ", "x * x", n)+";") }, 900, 900},
		{"selector", func(n int) string { return model(rec, "x := h"+strings.Repeat(".next", n)+".v;") }, 900, 900},
		{"selector lhs", func(n int) string { return model(rec, "h"+strings.Repeat(".next", n)+".v := 1;") }, 900, 900},
		{"index", func(n int) string { return model(rec, "x := a"+strings.Repeat("[0]", n)+";") }, 900, 900},
		{"implication", func(n int) string {
			return model(rec, "x := 1;", "properties\n  ltl p: "+chain("b", " -> ", "b", n)+";\n")
		}, 200, 200},
	} {
		t.Run(c.name, func(t *testing.T) {
			f, errs := parse(t, c.build(1000000), 0)
			if len(errs) == 0 || !strings.Contains(errs[0].Msg, "nested too deeply") || errs[0].Pos.Line < 3 {
				t.Errorf("a chain of 10^6 links: got %v, want a positioned \"nested too deeply\"", errs)
			}
			if d := exprDepth(f); d > 1100 {
				t.Errorf("the partial tree is %d deep", d)
			}
			f, errs = parse(t, c.build(c.short), 0)
			if errs != nil {
				t.Fatalf("a chain of %d links: %v", c.short, errs)
			}
			if d := exprDepth(f); d < c.depth {
				t.Errorf("a chain of %d links parsed to a tree only %d deep", c.short, d)
			}
		})
	}
}

func TestParseExpr(t *testing.T) {
	x, err := parser.ParseExpr("a + b * c == d && !e")
	if err != nil {
		t.Fatal(err)
	}
	b, ok := x.(*ast.BinaryExpr)
	if !ok || b.Op != token.LAND {
		t.Fatalf("got %T %+v, want && at the top", x, x)
	}
	if _, err := parser.ParseExpr("a +"); err == nil {
		t.Error("a +: no error")
	}
	if _, err := parser.ParseExpr("a b"); err == nil {
		t.Error("a b: no error")
	}
}
