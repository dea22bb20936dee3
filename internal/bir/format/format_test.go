package format

import (
	"bytes"
	"errors"
	"flag"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"birch/internal/bir/ast"
	"birch/internal/bir/parser"
	"birch/internal/bir/scanner"
	"birch/internal/bir/token"
	"birch/internal/source"
)

var (
	update     = flag.Bool("update", false, "rewrite the testdata/*.golden files")
	everywhere = flag.Bool("everywhere", false, "TestCommentsEverywhere: try every token boundary, not a sample")
)

// parse parses src with comments and fails the test on a syntax error.
func parse(t testing.TB, name string, src []byte) *ast.File {
	t.Helper()
	f, err := parser.ParseFile(source.NewFileSet(), name, src, parser.ParseComments)
	if err != nil {
		t.Fatalf("%s does not parse: %v", name, err)
	}
	return f
}

// commentTexts lists the comments of f in source order, as the printer
// writes them (trailing white space of each line removed).
func commentTexts(f *ast.File) []string {
	var out []string
	for _, g := range f.Comments {
		for _, c := range g.List {
			out = append(out, trimComment(c.Text))
		}
	}
	return out
}

// checkLayout checks the rules every formatted file follows.
func checkLayout(t testing.TB, name string, out []byte) {
	t.Helper()
	s := string(out)
	if len(s) > 0 && !strings.HasSuffix(s, "\n") {
		t.Errorf("%s: output does not end with a newline", name)
	}
	if strings.HasSuffix(s, "\n\n") {
		t.Errorf("%s: output ends with a blank line", name)
	}
	if strings.HasPrefix(s, "\n") {
		t.Errorf("%s: output starts with a blank line", name)
	}
	if strings.Contains(s, "\n\n\n") {
		t.Errorf("%s: two blank lines in a row", name)
	}
	for i, line := range strings.Split(s, "\n") {
		if strings.TrimRight(line, " \t") != line {
			t.Errorf("%s:%d: trailing white space: %q", name, i+1, line)
		}
		if strings.HasPrefix(line, "\t") {
			t.Errorf("%s:%d: indented with a tab: %q", name, i+1, line)
		}
	}
}

// checkFormat formats src and checks idempotence, comment preservation,
// meaning preservation and the layout rules. It returns the formatted text.
func checkFormat(t testing.TB, name string, src []byte) []byte {
	t.Helper()
	out, err := Source(name, src)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	checkLayout(t, name, out)
	out2, err := Source(name, out)
	if err != nil {
		t.Fatalf("%s: formatted output does not parse: %v\n%s", name, err, out)
	}
	if !bytes.Equal(out, out2) {
		t.Errorf("%s: formatting is not idempotent:\n--- once\n%s--- twice\n%s", name, out, out2)
	}
	before, after := parse(t, name, src), parse(t, name, out)
	if !Equal(before, after) {
		t.Errorf("%s: formatting changed the syntax tree:\n--- before\n%s--- after\n%s",
			name, DumpAST(before), DumpAST(after))
	}
	if a, b := commentTexts(before), commentTexts(after); strings.Join(a, "\x00") != strings.Join(b, "\x00") {
		t.Errorf("%s: comments changed:\n--- before\n%q\n--- after\n%q", name, a, b)
	}
	return out
}

func TestGolden(t *testing.T) {
	inputs, err := filepath.Glob(filepath.Join("testdata", "*.input"))
	if err != nil {
		t.Fatal(err)
	}
	if len(inputs) == 0 {
		t.Fatal("no testdata/*.input files")
	}
	for _, in := range inputs {
		name := strings.TrimSuffix(filepath.Base(in), ".input")
		t.Run(name, func(t *testing.T) {
			src, err := os.ReadFile(in)
			if err != nil {
				t.Fatal(err)
			}
			out := checkFormat(t, in, src)
			golden := strings.TrimSuffix(in, ".input") + ".golden"
			if *update {
				if err := os.WriteFile(golden, out, 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run go test -update to create it)", err)
			}
			if !bytes.Equal(out, want) {
				t.Errorf("%s: output differs from %s (run go test -update to accept):\n--- got\n%s--- want\n%s",
					in, golden, out, want)
			}
			// A golden file is itself canonical.
			checkFormat(t, golden, want)
		})
	}
}

// TestExamples checks every model under examples/ (written separately);
// it skips when there are none yet.
func TestExamples(t *testing.T) {
	root := filepath.Join("..", "..", "..", "examples")
	var files []string
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() && strings.HasSuffix(path, ".bir") {
			files = append(files, path)
		}
		return nil
	})
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		t.Fatal(err)
	}
	if len(files) == 0 {
		t.Skip("no examples/*.bir files yet")
	}
	for _, path := range files {
		t.Run(filepath.ToSlash(path), func(t *testing.T) {
			src, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := parser.ParseFile(source.NewFileSet(), path, src, 0); err != nil {
				t.Skipf("does not parse (not the formatter's concern): %v", err)
			}
			checkFormat(t, path, src)
		})
	}
}

// name returns an identifier of n characters.
func name(n int) string { return "v" + strings.Repeat("x", n-1) }

// sys wraps lines in a system S for the table tests.
func sys(lines ...string) string {
	return "system S ()\n" + strings.Join(lines, "\n") + "\nend S;\n"
}

// TestSource checks individual layout rules on small inputs.
func TestSource(t *testing.T) {
	long := strings.Repeat("x", 40)
	tests := []struct {
		name, in, want string
	}{
		{"paper const", "system S() const N 3; end S;", sys("const N 3;", "")},
		{"ext const", "system S() const N=3; end S;", sys("const N = 3;", "")},
		{"process", "process P ( ) end P ;", "process P ()\n\nend P;\n"},
		{"globals", "system S() x,y:int:=1; end S;", sys("x, y : int := 1;", "")},
		{"collection", "system S() C:collection of T; D : collection[ 2 ]of T; end S;",
			sys("C : collection of T;", "D : collection [2] of T;", "")},
		{"extends", "system S() A extends B; end S;", sys("A extends B;", "")},
		{"types", "system S() R=range - 1 .. 3; A=array[4]of R; L=lock reentrant; F=ref T; G=ref T{ A ,B }; E=enum{A,B=5}; end S;",
			sys("R = range -1..3;", "A = array [4] of R;", "L = lock reentrant;", "F = ref T;", "G = ref T {A, B};", "E = enum {A, B = 5};", "")},
		{"record one line", "system S() R = record {a:int;b,c:boolean;}; end S;",
			sys("R = record { a : int; b, c : boolean; };", "")},
		{"record at 100 columns", "system S() R = record { " + name(77) + " : int; }; end S;",
			sys("R = record { "+name(77)+" : int; };", "")},
		{"record at 101 columns", "system S() R = record { " + name(78) + " : int; }; end S;",
			sys("R = record {", "  "+name(78)+" : int;", "};", "")},
		{"record with comment", "system S() R = record { a : int; // the a\n}; end S;",
			sys("R = record {", "  a : int; // the a", "};", "")},
		{"thread header", "system S() main thread M ( a : int ; b , c : boolean ; ) end M; end S;",
			sys("", "main thread M (a : int, b, c : boolean)", "end M;", "")},
		{"function header", "system S() function f(n:int):int end f; function g() end g; end S;",
			sys("", "function f (n : int) : int", "end f;", "", "function g ()", "end g;", "")},
		{"live sets", "system S() thread T() loc a: live{} loc b: live{x,y} loc c: end T; end S;",
			sys("", "thread T ()", "  loc a: live { }", "  loc b: live { x, y }", "  loc c:", "end T;", "")},
		{"transformation", "system S() thread T() loc a: when x>0 do invisible{x:=x-1;y:=2;}goto a; when true do{}return; when true do{}return x+1; end T; end S;",
			sys("", "thread T ()", "  loc a:",
				"    when x > 0 do invisible { x := x - 1; y := 2; } goto a;",
				"    when true do { } return;",
				"    when true do { } return x + 1;", "end T;", "")},
		{"transformation at 100 columns", "system S() thread T() loc a: when true do { x := " + name(65) + "; } goto a; end T; end S;",
			sys("", "thread T ()", "  loc a:", "    when true do { x := "+name(65)+"; } goto a;", "end T;", "")},
		{"transformation at 101 columns", "system S() thread T() loc a: when true do { x := " + name(66) + "; } goto a; end T; end S;",
			sys("", "thread T ()", "  loc a:", "    when true do {", "      x := "+name(66)+";", "    } goto a;", "end T;", "")},
		{"long transformation without actions", "system S() thread T() loc a: when " + long + " && " + long + " && " + long + " do { } goto a; end T; end S;",
			sys("", "thread T ()", "  loc a:", "    when "+long+" && "+long+" && "+long+" do { } goto a;", "end T;", "")},
		{"actions", "system S() thread T() loc a: when true do { x := new C; y := new D[ 3 ]; z := internChoose(1,2); w := externChoose( 0..3 ); v := forall(R); u := reachable(v.next, R); lock(l); exit; } goto a; end T; end S;",
			sys("", "thread T ()", "  loc a:", "    when true do {",
				"      x := new C;", "      y := new D[3];", "      z := internChoose(1, 2);", "      w := externChoose(0 .. 3);",
				"      v := forall(R);", "      u := reachable(v.next, R);", "      lock(l);", "      exit;",
				"    } goto a;", "end T;", "")},
		{"start paper form", "system S() thread T() loc a: when true do { t := start(U, x, 1); start(U); } goto a; end T; end S;",
			sys("", "thread T ()", "  loc a:", "    when true do { t := start U(x, 1); start U(); } goto a;", "end T;", "")},
		{"call print assert assume", "system S() thread T() loc a: when true do { r := call f(1,2); call g(); println(\"a\",x); assert(x); assume(y); } goto a; end T; end S;",
			sys("", "thread T ()", "  loc a:",
				"    when true do { r := call f(1, 2); call g(); println(\"a\", x); assert(x); assume(y); } goto a;", "end T;", "")},
		{"parentheses kept", "system S() const A ((1+2))*3; const B 1+(2*3); const C --1; const D -(-1); const E +-1; end S;",
			sys("const A ((1 + 2)) * 3;", "const B 1 + (2 * 3);", "const C - -1;", "const D -(-1);", "const E +-1;", "")},
		{"sections", "system S() predicates a=T@s; b=T[t]@s; c=T:x; d=T[null]:x.f; properties invariant i:a||b; ltl l:[](a-><>b) ; end S;",
			sys("", "predicates", "  a = T @ s;", "  b = T[t] @ s;", "  c = T : x;", "  d = T[null] : x.f;",
				"", "properties", "  invariant i: a || b;", "  ltl l: [] (a -> <> b);", "")},
		{"empty sections", "system S() predicates properties end S;", sys("", "predicates", "", "properties", "")},
		{"ltl operators", "system S() properties ltl l: X a U b R c W !d <-> e; end S;",
			sys("", "properties", "  ltl l: X a U b R c W !d <-> e;", "")},
		{"trailing comment", "system S() const N 3; // three\nend S;", sys("const N 3; // three", "")},
		{"own-line comment", "system S() const N 3;\n// four\nconst M 4;\nend S;", sys("const N 3;", "// four", "const M 4;", "")},
		{"comment breaks an expression", "system S() const N 1 + // one\n2; end S;", sys("const N 1 + // one", "    2;", "")},
		{"inline block comments stay", "system S() const N 1 + /* one */ 2; end S;", sys("const N 1 + /* one */ 2;", "")},
		{"comment before end of thread", "system S() thread T()\n loc a:\n  // bye\nend T; end S;",
			sys("", "thread T ()", "  loc a:", "  // bye", "end T;", "")},
		{"comment after the system", "system S() end S; // done\n/* more */", "system S ()\n\nend S; // done\n/* more */\n"},
		{"comment in multi-line block", "system S() thread T() loc a: when true do { x := 1; // one\n } goto a; end T; end S;",
			sys("", "thread T ()", "  loc a:", "    when true do {", "      x := 1; // one", "    } goto a;", "end T;", "")},
		{"blank lines", "system S()\n\n\nconst A 1;\n\n\n\nconst B 2;\nconst C 3;\nend S;",
			sys("", "const A 1;", "", "const B 2;", "const C 3;", "")},
		{"blank lines around blocks", "system S() x : int; thread T() end T; y : int; end S;",
			sys("x : int;", "", "thread T ()", "end T;", "", "y : int;", "")},
		{"no blank after headers", "system S() thread T()\n\n x : int;\n\n loc a:\n\n when true do { } goto a;\n\nend T; end S;",
			sys("", "thread T ()", "  x : int;", "", "  loc a:", "    when true do { } goto a;", "end T;", "")},
		{"comment trailing spaces trimmed", "system S() // a   \nend S;", "system S () // a\n\nend S;\n"},
		{"CRLF line ends", "system S ()\r\n// a \r\nconst N 3; /* b\r\n c */\r\n\r\nend S;\r\n",
			sys("// a", "const N 3; /* b", " c */", "")},
		{"empty file", "", ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if tc.in == "" {
				// no system: the parser reports an error
				if _, err := Source("empty.bir", nil); err == nil {
					t.Error("Source of an empty file: want an error")
				}
				return
			}
			got := checkFormat(t, tc.name, []byte(tc.in))
			if string(got) != tc.want {
				t.Errorf("Source(%q) =\n%s\nwant\n%s", tc.in, got, tc.want)
			}
		})
	}
}

func TestExpr(t *testing.T) {
	tests := []struct{ in, want string }{
		{"a+b*c", "a + b * c"},
		{"(a+b)*c", "(a + b) * c"},
		{"!x", "!x"},
		{"!!x", "!!x"},
		{"- -x", "- -x"},
		{"-(-x)", "-(-x)"},
		{"+ +x", "+ +x"},
		{"-+x", "-+x"},
		{"a.b.c[i].length", "a.b.c[i].length"},
		{"x instanceof T", "x instanceof T"},
		{"lockAvailable(q.l)&&hasLock(q.l)", "lockAvailable(q.l) && hasLock(q.l)"},
		{"wasNotified(l)||threadTerminated(t)", "wasNotified(l) || threadTerminated(t)"},
		{"a%b/c-d<=e", "a % b / c - d <= e"},
		{"a==b!=c", "a == b != c"},
		{"007", "007"},
		{"null==x", "null == x"},
		{"true||false", "true || false"},
	}
	for _, tc := range tests {
		x, err := parser.ParseExpr(tc.in)
		if err != nil {
			t.Errorf("ParseExpr(%q): %v", tc.in, err)
			continue
		}
		if got := Expr(x); got != tc.want {
			t.Errorf("Expr(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
	// Nodes that only predicates and ltl formulas contain, built by hand.
	hand := []struct {
		x    ast.Expr
		want string
	}{
		{&ast.UnaryExpr{Op: token.ALWAYS, X: &ast.UnaryExpr{Op: token.EVENTUAL, X: &ast.Ident{Name: "p"}}}, "[] <> p"},
		{&ast.UnaryExpr{Op: token.NEXT, X: &ast.Ident{Name: "p"}}, "X p"},
		{&ast.BinaryExpr{X: &ast.Ident{Name: "p"}, Op: token.UNTIL, Y: &ast.Ident{Name: "q"}}, "p U q"},
		{&ast.BinaryExpr{X: &ast.Ident{Name: "p"}, Op: token.IFF, Y: &ast.Ident{Name: "q"}}, "p <-> q"},
		{&ast.LocationTest{Thread: &ast.Ident{Name: "T"}, Loc: &ast.Ident{Name: "s"}}, "T @ s"},
		{&ast.LocationTest{Thread: &ast.Ident{Name: "T"}, Instance: &ast.BasicLit{Kind: token.NULL, Value: "null"}, Loc: &ast.Ident{Name: "s"}}, "T[null] @ s"},
		{&ast.RemoteRef{Thread: &ast.Ident{Name: "T"}, X: &ast.Ident{Name: "x"}}, "T : x"},
		{&ast.RemoteRef{Thread: &ast.Ident{Name: "T"}, Instance: &ast.Ident{Name: "t"}, X: &ast.Ident{Name: "x"}}, "T[t] : x"},
		{&ast.BasicLit{Kind: token.STRING, Value: `"a\"b"`}, `"a\"b"`},
		{&ast.BadExpr{}, "/* bad */"},
		{nil, "/* bad */"},
		{(*ast.Ident)(nil), "/* bad */"},
		{&ast.BinaryExpr{Op: token.ADD}, "/* bad */ + /* bad */"},
	}
	for _, tc := range hand {
		if got := Expr(tc.x); got != tc.want {
			t.Errorf("Expr(%#v) = %q, want %q", tc.x, got, tc.want)
		}
	}
}

func TestTypeExpr(t *testing.T) {
	tests := []struct{ in, want string }{
		{"boolean", "boolean"},
		{"int", "int"},
		{"tid", "tid"},
		{"Count", "Count"},
		{"range -1 .. N-1", "range -1..N - 1"},
		{"enum{A,B=5,C}", "enum {A, B = 5, C}"},
		{"record{a:int;b,c:boolean;}", "record { a : int; b, c : boolean; }"},
		{"record{}", "record { }"},
		{"array[4]of array [2] of int", "array [4] of array [2] of int"},
		{"lock", "lock"},
		{"lock wait", "lock wait"},
		{"lock wait reentrant", "lock wait reentrant"},
		{"ref T", "ref T"},
		{"ref T{A,B}", "ref T {A, B}"},
		{"ref T{}", "ref T {}"},
		{"record { " + strings.Repeat("a", 100) + " : int; }", "record { " + strings.Repeat("a", 100) + " : int; }"},
	}
	for _, tc := range tests {
		src := "system S () X = " + tc.in + "; end S;"
		f := parse(t, "type", []byte(src))
		d, ok := f.System.Decls[0].(*ast.TypeDecl)
		if !ok {
			t.Errorf("%s: not a type declaration", tc.in)
			continue
		}
		if got := TypeExpr(d.Type); got != tc.want {
			t.Errorf("TypeExpr(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
	if got := TypeExpr(nil); got != badText {
		t.Errorf("TypeExpr(nil) = %q", got)
	}
}

func TestSourceErrors(t *testing.T) {
	for _, src := range []string{
		"system S () const N ; end S;",
		"system S () thread T () loc a: when do { } goto a; end T; end S;",
		"system S ()",
		"nothing here",
	} {
		out, err := Source("bad.bir", []byte(src))
		if err == nil {
			t.Errorf("Source(%q) = %q, want an error", src, out)
			continue
		}
		var list source.ErrorList
		if !errors.As(err, &list) {
			t.Errorf("Source(%q): error %T, want source.ErrorList", src, err)
		}
	}
}

// TestFilePartial prints the partial trees that the parser returns after
// errors, and hand-built trees with missing parts: File must not panic
// (its recover would turn a panic into an error) and marks bad parts.
func TestFilePartial(t *testing.T) {
	for _, src := range []string{
		"system S () const N ; x : ; T = ; end S;",
		"system S () thread T () loc a: when do { x := ; lock(); } goto ; end T; end S;",
		"system S () function f ( : int) : end f; end S;",
		"system S () predicates p = ; properties invariant : ; ltl l: [] ; end S;",
		"system S () R = record { a : ; }; E = enum { = 3 }; end S;",
		"system S",
		"// only a comment",
	} {
		fset := source.NewFileSet()
		f, perr := parser.ParseFile(fset, "partial.bir", []byte(src), parser.ParseComments)
		if perr == nil {
			t.Errorf("%q parses without error", src)
		}
		var buf bytes.Buffer
		if err := File(&buf, fset, f); err != nil {
			t.Errorf("File(%q): %v", src, err)
		}
	}

	id := func(s string) *ast.Ident { return &ast.Ident{Name: s} }
	hand := []*ast.File{
		{},
		{System: &ast.System{}},
		{System: &ast.System{Name: id("S"), EndName: id("S"), Decls: []ast.Decl{
			nil,
			(*ast.ConstDecl)(nil),
			&ast.ConstDecl{},
			&ast.TypeDecl{},
			&ast.TypeDecl{Type: &ast.RecordType{Fields: []*ast.VarDecl{nil, {}}}},
			&ast.TypeDecl{Type: &ast.EnumType{Consts: []*ast.EnumConst{nil, {}}}},
			&ast.TypeDecl{Type: &ast.ArrayType{}},
			&ast.TypeDecl{Type: &ast.RangeType{}},
			&ast.TypeDecl{Type: &ast.RefType{Collections: []*ast.Ident{nil}}},
			&ast.ExtendsDecl{},
			&ast.CollectionDecl{Size: &ast.BadExpr{}},
			&ast.VarDecl{},
			&ast.ThreadDecl{},
			&ast.FunctionDecl{},
			&ast.ThreadDecl{Body: &ast.Body{Params: []*ast.VarDecl{nil, {}}, Locals: []*ast.VarDecl{nil, {}},
				Locations: []*ast.Location{nil, {}, {Live: &ast.LiveSet{}, Transformations: []*ast.Transformation{
					nil, {}, {Return: true}, {Actions: []ast.Action{
						nil, &ast.AssignAction{}, &ast.NewAction{Len: &ast.BadExpr{}}, &ast.ChooseAction{}, &ast.ChooseAction{Lo: &ast.BadExpr{}},
						&ast.ForallAction{}, &ast.ReachableAction{}, &ast.LockAction{}, &ast.StartAction{}, &ast.ExitAction{},
						&ast.CallAction{}, &ast.PrintAction{Args: []ast.Expr{nil}}, &ast.AssertAction{}, &ast.AssumeAction{},
						&ast.BadAction{}, (*ast.AssignAction)(nil),
					}},
				}}}}},
			&ast.FunctionDecl{Body: &ast.Body{}, Result: &ast.BadType{}},
			&ast.BadDecl{},
		},
			Predicates: &ast.PredicatesSection{Predicates: []*ast.PredicateDecl{nil, {}}},
			Properties: &ast.PropertiesSection{Properties: []*ast.PropertyDecl{nil, {}}},
		}},
	}
	for i, f := range hand {
		var buf bytes.Buffer
		if err := File(&buf, nil, f); err != nil {
			t.Errorf("hand-built tree %d: %v", i, err)
		}
		if i == 2 && !strings.Contains(buf.String(), badText) {
			t.Errorf("hand-built tree %d: no %s marker in\n%s", i, badText, buf.String())
		}
		_ = DumpAST(f)
	}
	if err := File(&bytes.Buffer{}, nil, nil); err == nil {
		t.Error("File(nil): want an error")
	}
}

func TestDumpAST(t *testing.T) {
	src := `process P ()
const N = 3;
L = lock wait;
main thread M ()
  x : int := N;
  loc a: live { x }
    when x > 0 do invisible { x := -x; t := start W(x); } goto a;
end M;
predicates
  p = M @ a;
properties
  ltl l: [] p;
end P;
`
	want := `File
  System: System
    Process: true
    Name: Ident "P"
    Decls: [3]
      [0] ConstDecl
        Name: Ident "N"
        Value: BasicLit INT "3"
      [1] TypeDecl
        Name: Ident "L"
        Type: LockType
          Wait: true
          Reentrant: false
      [2] ThreadDecl
        Main: true
        Name: Ident "M"
        Body: Body
          Params: []
          Locals: [1]
            [0] VarDecl
              Names: [1]
                [0] Ident "x"
              Type: BasicType
                Kind: int
              Init: Ident "N"
          Locations: [1]
            [0] Location
              Name: Ident "a"
              Live: LiveSet
                Names: [1]
                  [0] Ident "x"
              Transformations: [1]
                [0] Transformation
                  Guard: BinaryExpr
                    X: Ident "x"
                    Op: >
                    Y: BasicLit INT "0"
                  Invisible: true
                  Actions: [2]
                    [0] AssignAction
                      Lhs: Ident "x"
                      Rhs: UnaryExpr
                        Op: -
                        X: Ident "x"
                    [1] StartAction
                      Lhs: Ident "t"
                      Thread: Ident "W"
                      Args: [1]
                        [0] Ident "x"
                      PaperForm: false
                  Return: false
                  Target: Ident "a"
                  Result: nil
          EndName: Ident "M"
    Predicates: PredicatesSection
      Predicates: [1]
        [0] PredicateDecl
          Name: Ident "p"
          Expr: LocationTest
            Thread: Ident "M"
            Instance: nil
            Loc: Ident "a"
    Properties: PropertiesSection
      Properties: [1]
        [0] PropertyDecl
          Kind: ltl
          Name: Ident "l"
          Expr: UnaryExpr
            Op: []
            X: Ident "p"
    EndName: Ident "P"
`
	f := parse(t, "dump.bir", []byte(src))
	if got := DumpAST(f); got != want {
		t.Errorf("DumpAST =\n%s\nwant\n%s", got, want)
	}

	// Equal ignores layout, comments, the file name and the spelling of start;
	// it sees every other difference.
	base := "system S () thread T () loc a: when true do { t := start U(x); } goto a; end T; end S;"
	same := []string{
		"// hello\nsystem S ()\n  thread T ()\n  loc a:\n  when true do {\n t := start(U, x);\n } goto a; end T; end S;",
	}
	different := []string{
		"process S () thread T () loc a: when true do { t := start U(x); } goto a; end T; end S;",
		"system S () main thread T () loc a: when true do { t := start U(x); } goto a; end T; end S;",
		"system S () thread T () loc a: when true do invisible { t := start U(x); } goto a; end T; end S;",
		"system S () thread T () loc a: when (true) do { t := start U(x); } goto a; end T; end S;",
		"system S () thread T () loc a: when true do { t := start U(y); } goto a; end T; end S;",
		"system S () thread T () loc a: live { } when true do { t := start U(x); } goto a; end T; end S;",
		"system S () thread T () loc a: when true do { t := call U(x); } goto a; end T; end S;",
		"system S () thread T () loc a: when true do { t := start U(x); } return; end T; end S;",
	}
	fb := parse(t, "base", []byte(base))
	for _, s := range same {
		if !Equal(fb, parse(t, "same", []byte(s))) {
			t.Errorf("Equal(%q, %q) = false, want true", base, s)
		}
	}
	for _, s := range different {
		if Equal(fb, parse(t, "different", []byte(s))) {
			t.Errorf("Equal(%q, %q) = true, want false", base, s)
		}
	}
	if DumpAST(fb) == DumpAST(parse(t, "paper", []byte(same[0]))) {
		t.Error("DumpAST does not show PaperForm")
	}
}

// FuzzSource checks, for every input that parses, that formatting is
// idempotent and keeps the syntax tree and the comments.
func FuzzSource(f *testing.F) {
	inputs, _ := filepath.Glob(filepath.Join("testdata", "*.input"))
	for _, in := range inputs {
		if src, err := os.ReadFile(in); err == nil {
			f.Add(src)
		}
	}
	f.Add([]byte("system S () const N 1 + // c\n 2; end S;"))
	f.Fuzz(func(t *testing.T, src []byte) {
		if _, err := parser.ParseFile(source.NewFileSet(), "fuzz.bir", src, parser.ParseComments); err != nil {
			return
		}
		checkFormat(t, "fuzz.bir", src)
	})
}

// TestCommentsEverywhere inserts a comment of each kind at every token
// boundary of the testdata inputs, one at a time, and checks each result as
// checkFormat does: the comment must survive, in place, and formatting must
// stay idempotent.
func TestCommentsEverywhere(t *testing.T) {
	inputs, _ := filepath.Glob(filepath.Join("testdata", "*.input"))
	comments := []string{
		" /* c */ ",
		"/* c */",
		" // c\n",
		"\n// c\n",
		"\n\n// c\n\n",
		"\n/* c\n   d */\n",
		" /* c\n */ ",
	}
	for _, in := range inputs {
		src, err := os.ReadFile(in)
		if err != nil {
			t.Fatal(err)
		}
		offsets := tokenOffsets(src)
		stride := 1
		if !*everywhere {
			stride = len(offsets)/150 + 1
		}
		for i := 0; i < len(offsets); i += stride {
			off := offsets[i]
			for _, c := range comments {
				mod := make([]byte, 0, len(src)+len(c))
				mod = append(mod, src[:off]...)
				mod = append(mod, c...)
				mod = append(mod, src[off:]...)
				if _, err := parser.ParseFile(source.NewFileSet(), in, mod, 0); err != nil {
					continue // e.g. a comment inside a string literal
				}
				checkFormat(t, in, mod)
				if t.Failed() {
					t.Fatalf("first failure with %q inserted at offset %d of %s", c, off, in)
				}
			}
		}
	}
}

// tokenOffsets returns the offset of every token of src.
func tokenOffsets(src []byte) []int {
	fset := source.NewFileSet()
	file := fset.AddFile("x", src)
	var s scanner.Scanner
	s.Init(file, src, nil)
	var offs []int
	for {
		pos, tok, _ := s.Scan()
		offs = append(offs, file.Offset(pos))
		if tok == token.EOF {
			return offs
		}
	}
}

// TestDocExample checks that the example in the package documentation is
// what the formatter prints.
func TestDocExample(t *testing.T) {
	doc, err := os.ReadFile("doc.go")
	if err != nil {
		t.Fatal(err)
	}
	block := func(after string) string {
		s := string(doc)
		i := strings.Index(s, after)
		if i < 0 {
			t.Fatalf("doc.go: no %q", after)
		}
		var lines []string
		for _, l := range strings.Split(s[i+len(after):], "\n")[2:] {
			if !strings.HasPrefix(l, "//\t") && l != "//" {
				break
			}
			lines = append(lines, strings.TrimPrefix(strings.TrimPrefix(l, "//"), "\t"))
		}
		return strings.TrimRight(strings.Join(lines, "\n"), "\n") + "\n"
	}
	in, want := block("This input, in the paper's spelling:"), block("is printed as:")
	got := checkFormat(t, "doc example", []byte(in))
	if string(got) != want {
		t.Errorf("the doc.go example prints as\n%s\nnot as the documentation says:\n%s", got, want)
	}
}

// TestLineDirectivesKept checks that formatting keeps line directives in
// column 1, so that every name keeps the file and line they map it to.
func TestLineDirectivesKept(t *testing.T) {
	src, err := os.ReadFile(filepath.Join("testdata", "fixed.input"))
	if err != nil {
		t.Fatal(err)
	}
	lines := func(src []byte) []string {
		fset := source.NewFileSet()
		f, err := parser.ParseFile(fset, "fixed.bir", src, parser.ParseComments)
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		ast.Inspect(f, func(n ast.Node) bool {
			if id, ok := n.(*ast.Ident); ok {
				p := fset.Position(id.Pos())
				out = append(out, id.Name+"@"+p.Filename+":"+strconv.Itoa(p.Line))
			}
			return true
		})
		return out
	}
	out, err := Source("fixed.bir", src)
	if err != nil {
		t.Fatal(err)
	}
	before, after := lines(src), lines(out)
	if strings.Join(before, " ") != strings.Join(after, " ") {
		t.Errorf("mapped lines changed:\n%v\n%v", before, after)
	}
	if !strings.Contains(strings.Join(before, " "), "b@prog.c:12 x@prog.c:12") || !strings.Contains(strings.Join(before, " "), "a@prog.c:41") {
		t.Errorf("directives not applied: %v", before)
	}
}
