package boolprog

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"birch/internal/source"
)

func parseString(t *testing.T, src string) (*Program, *source.FileSet, error) {
	t.Helper()
	fset := source.NewFileSet()
	prog, err := Parse(fset, "t.bp", []byte(src))
	return prog, fset, err
}

func mustParse(t *testing.T, name, src string) (*Program, *Info, *source.FileSet) {
	t.Helper()
	fset := source.NewFileSet()
	prog, err := Parse(fset, name, []byte(src))
	if err != nil {
		t.Fatalf("parse %s: %v", name, err)
	}
	info, err := Resolve(fset, prog)
	if err != nil {
		t.Fatalf("resolve %s: %v", name, err)
	}
	return prog, info, fset
}

// TestParseErrors checks positioned syntax errors: each case gives the
// expected "line:col: message" of its first error.
func TestParseErrors(t *testing.T) {
	cases := []struct{ src, want string }{
		{"void main() begin skip end", "1:24: expected ';', found 'end'"},
		{"void main() begin end", "1:19: expected statement, found 'end'"},
		{"decl a\nvoid main() begin skip; end", "2:1: expected ';', found 'void'"},
		{"void main() begin\n  x := 2;\nend", "2:8: boolean constants are 0 and 1 (and T and F), found 2"},
		{"void main() begin\n  assert(a &);\nend", "2:13: expected expression, found ')'"},
		{"void main() begin\n  if (a) skip; fi\nend", "2:10: expected 'then', found 'skip'"},
		{"void main() begin\n  while (a) do skip; end", "2:22: expected 'od', found 'end'"},
		{"int main() begin skip; end", "1:1: expected procedure (bool or void), found identifier int"},
		{"void main() begin\n  x := {abc;\nend", "2:8: braced name not terminated on its line"},
		{"void main() begin\n  x := a # b;\nend", "2:10: expected ';', found illegal character \"#\""},
		{"bool<a> f() begin skip; end", "1:6: expected number of return values, found identifier a"},
		{"void main() begin skip; end\ndecl g;", "2:1: global declarations must come before the procedures"},
		{"void main() begin\n  x := schoose[a; b];\nend", "2:17: expected ',', found ';'"},
		{"void main() begin /* open\n skip; end", "1:19: comment not terminated"},
		{"void main() begin\n  L: end", "2:6: expected statement, found 'end'"},
	}
	checkFirstErrors(t, cases, false)
}

// checkFirstErrors parses (and with resolve, resolves) each case's source
// and compares the first error with the case's "line:col: message".
func checkFirstErrors(t *testing.T, cases []struct{ src, want string }, resolve bool) {
	t.Helper()
	for _, c := range cases {
		prog, fset, err := parseString(t, c.src)
		if resolve {
			if err != nil {
				t.Errorf("%q: parse: %v", c.src, err)
				continue
			}
			_, err = Resolve(fset, prog)
		}
		if err == nil {
			t.Errorf("%q: no error, want %s", c.src, c.want)
			continue
		}
		first := err.(source.ErrorList)[0].Error()
		if first != "t.bp:"+c.want {
			t.Errorf("%q:\n got  %s\n want t.bp:%s", c.src, first, c.want)
		}
	}
}

// TestParseRecovers checks that the parser goes on after an error, reports
// one error a line, and stops after MaxErrors.
func TestParseRecovers(t *testing.T) {
	_, _, err := parseString(t, "void main() begin\n  x := ;\n  y := T;\n  assert(;\n  z := F;\nend\nvoid f() begin skip end")
	list, _ := err.(source.ErrorList)
	var got []string
	for _, e := range list {
		got = append(got, e.Error())
	}
	want := []string{
		"t.bp:2:8: expected expression, found ';'",
		"t.bp:4:10: expected expression, found ';'",
		"t.bp:7:21: expected ';', found 'end'",
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("errors:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}

	// A body whose only statement has an error gets no second error for
	// being empty.
	_, _, err = parseString(t, "void main() begin\n  x := ;\nend")
	if list, _ := err.(source.ErrorList); len(list) != 1 {
		t.Errorf("errors %v, want only t.bp:2:8", err)
	}

	var b strings.Builder
	b.WriteString("void main() begin\n")
	for i := 0; i < 3*MaxErrors; i++ {
		b.WriteString("  x := ;\n")
	}
	b.WriteString("end\n")
	_, _, err = parseString(t, b.String())
	if list, _ := err.(source.ErrorList); len(list) != MaxErrors {
		t.Errorf("%d errors, want the parse to stop at %d", len(list), MaxErrors)
	}
}

// TestResolveErrors checks names and arities.
func TestResolveErrors(t *testing.T) {
	cases := []struct{ src, want string }{
		{"void f() begin skip; end", "1:1: no procedure main"},
		{"decl a, a;\nvoid main() begin skip; end", "1:9: global variable a already declared at t.bp:1:6"},
		{"void main() begin\n  x := T;\nend", "2:3: undefined variable x"},
		{"void main() begin\n  decl x;\n  x := y;\nend", "3:8: undefined variable y"},
		{"void main() begin\n  f();\nend", "2:3: undefined procedure f"},
		{"void f(a) begin skip; end\nvoid main() begin\n  f();\nend", "3:4: call of f with 0 arguments, it takes 1 parameter"},
		{"bool<2> f() begin return T, F; end\nvoid main() begin\n  decl x;\n  x := f();\nend", "4:3: f returns 2 values, the call assigns 1 variable"},
		{"bool f() begin return; end\nvoid main() begin skip; end", "1:16: return of 0 values in f, which returns 1 value"},
		{"void main() begin\n  decl a, b;\n  a, b := T;\nend", "3:8: assignment of 1 value to 2 variables"},
		{"void main() begin\n  decl a;\n  a, a := T, F;\nend", "3:6: a assigned twice in one statement"},
		{"void main() begin\n  goto L;\nend", "2:8: undefined label L in procedure main"},
		{"void main() begin\nL: skip;\nL: skip;\nend", "3:1: label L already defined at t.bp:2:1"},
		{"void main(a) begin\n  decl a;\n  skip;\nend", "2:8: local variable a already declared at t.bp:1:11"},
		{"decl T;\nvoid main() begin skip; end", "1:6: T is a boolean constant, not a name"},
		{"void main() begin skip; end\nvoid main() begin skip; end", "2:6: procedure main already declared at t.bp:1:6"},
		{"void f() begin\nL: skip;\nend\nvoid main() begin\n  goto L;\nend", "5:8: undefined label L in procedure main"},
	}
	checkFirstErrors(t, cases, true)
}

// stripPositions zeroes every source.Pos in the tree so that trees parsed
// from different texts compare equal when they have the same shape.
func stripPositions(v reflect.Value) {
	switch v.Kind() {
	case reflect.Pointer, reflect.Interface:
		if !v.IsNil() {
			stripPositions(v.Elem())
		}
	case reflect.Slice:
		for i := 0; i < v.Len(); i++ {
			stripPositions(v.Index(i))
		}
	case reflect.Struct:
		for i := 0; i < v.NumField(); i++ {
			f := v.Field(i)
			if f.Type() == reflect.TypeOf(source.NoPos) {
				f.SetInt(0)
			} else {
				stripPositions(f)
			}
		}
	}
}

func roundTrip(t *testing.T, name, src string) {
	t.Helper()
	fset := source.NewFileSet()
	p1, err := Parse(fset, name, []byte(src))
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	out := String(p1)
	p2, err := Parse(fset, name+".printed", []byte(out))
	if err != nil {
		t.Fatalf("%s: printed program does not parse: %v\n%s", name, err, out)
	}
	if out2 := String(p2); out2 != out {
		t.Errorf("%s: printing is not stable:\n%s\n---\n%s", name, out, out2)
	}
	p2.Filename = p1.Filename
	stripPositions(reflect.ValueOf(p1))
	stripPositions(reflect.ValueOf(p2))
	if !reflect.DeepEqual(p1, p2) {
		t.Errorf("%s: parse(print(p)) differs from p; printed:\n%s", name, out)
	}
}

// TestRoundTrip parses, prints and parses again every test program and a
// program using every construct, and compares the trees.
func TestRoundTrip(t *testing.T) {
	files, _ := filepath.Glob("testdata/*.bp")
	if len(files) == 0 {
		t.Fatal("no test programs")
	}
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		roundTrip(t, f, string(src))
	}
	roundTrip(t, "all", `
decl g, {curr == NULL};
decl h;
bool<3> f(a, b, {x > 0}) begin
  decl t; decl u;
  enforce !(a & b) => ~t;
  t, u := schoose[a | b, !a && b], *;
  L1: L2: if (?) then skip; elsif (a ^ b) then goto L1, L2; else return T, 0, 1; fi;
  while ((a => b) => t) do t := a => (b => t); od
  assume(a = (b != t));
  assert(!!a | (b & (t | u)) = (F != !{x > 0}));
  g := ((a));
  return a, b, t;
end
void main() begin
  decl x, y, z;
  x, y, z := f(g, T, schoose[x, y] ^ *);
  f(F, F, F);
  if (x) then skip; fi
  if (x) then skip; else if (y) then skip; fi fi
  return;
end
`)
}

// TestParseNoPanic feeds mangled programs to Parse and Resolve: each must
// give errors or a tree, never a panic.
func TestParseNoPanic(t *testing.T) {
	src, err := os.ReadFile("testdata/summary-unsafe.bp")
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < len(src); i += 3 {
		for _, cut := range []int{1, 5} {
			if i+cut > len(src) {
				continue
			}
			mangled := string(src[:i]) + string(src[i+cut:])
			fset := source.NewFileSet()
			prog, err := Parse(fset, "m.bp", []byte(mangled))
			if err == nil {
				Resolve(fset, prog)
				_ = String(prog)
			}
		}
	}
}

// TestParseNesting checks that deeply nested input is a positioned error,
// not a stack overflow: parentheses, negations, operator chains and
// statements beyond MaxNesting.
func TestParseNesting(t *testing.T) {
	n := MaxNesting + 1
	cases := []struct{ src, want string }{
		{"void main() begin assert(" + strings.Repeat("(", n) + "T" + strings.Repeat(")", n) + "); end", "expression nested too deeply"},
		{"void main() begin assert(" + strings.Repeat("!", n) + "T); end", "expression nested too deeply"},
		{"void main() begin assert(T" + strings.Repeat(" & T", n) + "); end", "expression nested too deeply"},
		{"void main() begin " + strings.Repeat("if (T) then ", n) + "skip;" + strings.Repeat(" fi", n) + " end", "statement nested too deeply"},
		{"void main() begin " + strings.Repeat("L: ", n) + "skip; end", "statement nested too deeply"},
	}
	for i, c := range cases {
		_, _, err := parseString(t, c.src)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("case %d: %v, want %q", i, err, c.want)
		}
	}
	// Just within the bound is fine.
	m := MaxNesting - 2
	if _, _, err := parseString(t, "void main() begin assert("+strings.Repeat("(", m)+"T"+strings.Repeat(")", m)+"); end"); err != nil {
		t.Errorf("%d parentheses: %v", m, err)
	}
}
