package infer

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"birch/internal/abstraction/data"
	"birch/internal/bir/parser"
	"birch/internal/bir/types"
	"birch/internal/source"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

var lib data.Library

func load(t *testing.T, path string) *types.Program {
	t.Helper()
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	fset := source.NewFileSet()
	f, err := parser.ParseFile(fset, filepath.Base(path), src, 0)
	if err != nil {
		t.Fatal(err)
	}
	prog, err := types.Check(fset, f, nil)
	if err != nil {
		t.Fatal(err)
	}
	return prog
}

func bindings(t *testing.T, args ...string) []Binding {
	t.Helper()
	var bs []Binding
	for _, a := range args {
		b, err := ParseBinding(a)
		if err != nil {
			t.Fatal(err)
		}
		bs = append(bs, b)
	}
	return bs
}

// run infers and explains; the output is the explanation, or the errors.
func run(t *testing.T, prog *types.Program, cfg Config, args ...string) (string, *Result) {
	t.Helper()
	sel, err := Resolve(prog, &lib, bindings(t, args...))
	if err != nil {
		return "error: " + err.Error() + "\n", nil
	}
	res, err := Infer(prog, &lib, sel, cfg)
	if err != nil {
		var b bytes.Buffer
		source.Print(&b, err, 0)
		return b.String(), nil
	}
	var b bytes.Buffer
	if err := Explain(&b, prog, res, sel); err != nil {
		t.Fatal(err)
	}
	for _, w := range res.Warnings {
		b.WriteString("warning: " + w.Error() + "\n")
	}
	return b.String(), res
}

func golden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", name+".golden")
	if *update {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (go test -update creates it)", err)
	}
	if got != string(want) {
		t.Errorf("%s differs:\n%s", path, got)
	}
}

// TestPower is the paper's example: m is bound to evenodd; result, which
// m's values flow into, becomes evenodd; n stays concrete, and the
// constant 1 is coerced where it flows into result.
func TestPower(t *testing.T) {
	prog := load(t, "testdata/power.bir")
	out, res := run(t, prog, Config{}, "Main.m=evenodd")
	golden(t, "power", out)
	if res == nil {
		t.Fatal(out)
	}
	names := map[string]string{}
	for v, a := range res.Vars {
		names[VarName(prog, v)] = a.Name
	}
	if names["Main.m"] != "evenodd" || names["Main.result"] != "evenodd" || names["Main.n"] != "concrete" {
		t.Errorf("variables: %v", names)
	}
	out, _ = run(t, prog, Config{DefaultPoint: true}, "Main.m=evenodd")
	golden(t, "power-point", out)
}

func TestConflict(t *testing.T) {
	prog := load(t, "testdata/power.bir")
	out, _ := run(t, prog, Config{}, "Main.m=evenodd", "Main.result=signs")
	golden(t, "power-conflict", out)
}

func TestResolveErrors(t *testing.T) {
	prog := load(t, "testdata/power.bir")
	for args, want := range map[string]string{
		"x=signs":                     "no global variable x",
		"Main.q=signs":                "thread Main has no variable q",
		"Nope.q=signs":                "no thread, function or record type Nope",
		"Main.m=intervals":            "unknown abstraction",
		"Main.m=signs;Main.m=evenodd": "Main.m is already bound by --abstract Main.m=signs",
		// a Java program's dotted names parse (verify resolves them); a
		// model has none
		"a.b.c=signs": "no thread, function or record type a",
	} {
		_, err := Resolve(prog, &lib, bindings(t, strings.Split(args, ";")...))
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: error %v, want %q", args, err, want)
		}
	}
	for _, bad := range []string{"x", "=signs", "x=", "a..c=signs", "a.=signs", "1x=signs", "a-b=signs"} {
		if _, err := ParseBinding(bad); err == nil {
			t.Errorf("ParseBinding(%q) succeeded", bad)
		}
	}
}

func TestParseBindings(t *testing.T) {
	src := `# bindings for the power program
use "evenodd.basl"
Main.m = EvenOdd   // the paper's choice
Main.result=signs;
bad line
use evenodd.basl
`
	f, err := ParseBindings("b.txt", []byte(src))
	bs, uses := f.Bindings, f.Uses
	if len(bs) != 2 || bs[0].Target != "Main.m" || bs[0].Abstraction != "EvenOdd" || bs[1].Where != "b.txt:4:1" {
		t.Errorf("bindings: %+v", bs)
	}
	if len(uses) != 1 || uses[0].Path != "evenodd.basl" || uses[0].Pos.Line != 2 {
		t.Errorf("uses: %+v", uses)
	}
	list, _ := err.(source.ErrorList)
	if len(list) != 2 || list[0].Error() != "b.txt:5:1: expected NAME=ABSTRACTION" || list[1].Error() != `b.txt:6:1: expected use "FILE.basl"` {
		t.Errorf("errors: %v", err)
	}
}

// TestFlows follows a selection through a field, a call's argument and
// result, a start's argument and an array.
func TestFlows(t *testing.T) {
	prog := load(t, "testdata/flows.bir")
	out, res := run(t, prog, Config{}, "Acct.bal=signs")
	golden(t, "flows", out)
	if res == nil {
		t.Fatal(out)
	}
	names := map[string]string{}
	for v, a := range res.Vars {
		names[VarName(prog, v)] = a.Name
	}
	for v, want := range map[string]string{
		"Acct.bal": "signs", "deposit.amt": "concrete", "Main.r": "signs", "total": "signs",
		"Worker.k": "signs", "Worker.j": "signs", "hist": "signs", "Acct.id": "concrete", "Main.unused": "concrete",
	} {
		if names[v] != want {
			t.Errorf("%s is %s, want %s", v, names[v], want)
		}
	}
	for p, a := range res.Funcs {
		if p.Name() == "deposit" && a.Name != "signs" {
			t.Errorf("deposit's result is %s", a.Name)
		}
	}
}

// TestConcreteContexts: an abstract value where BIR needs a concrete one
// (an index, the length of a new array, a bound of a range choice) is an
// error at that value.
func TestConcreteContexts(t *testing.T) {
	prog := load(t, "testdata/concrete.bir")
	out, res := run(t, prog, Config{}, "Main.k=signs")
	golden(t, "concrete-errors", out)
	if res != nil {
		t.Fatalf("no error:\n%s", out)
	}
	for _, want := range []string{
		"concrete.bir:13:32: the index i of buf[i] needs a concrete value, but it is abstracted by signs (from Main.k, bound by --abstract Main.k=signs)",
		"concrete.bir:15:34: the length n of new Arrs needs a concrete value",
		"concrete.bir:15:61: the bound k of a range choice needs a concrete value",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("missing %q", want)
		}
	}
	// Unconstrained values in concrete contexts stay concrete, even with
	// --default=point; the LTL property's proposition is inferred.
	prog = load(t, "testdata/concrete.bir")
	out, res = run(t, prog, Config{DefaultPoint: true}, "buf=signs")
	if res == nil {
		t.Fatal(out)
	}
	names := map[string]string{}
	for v, a := range res.Vars {
		names[VarName(prog, v)] = a.Name
	}
	if names["Main.j"] != "concrete" || names["Main.n"] != "concrete" || names["Main.k"] != "concrete" || names["Main.i"] != "concrete" || names["buf"] != "signs" {
		t.Errorf("variables: %v", names)
	}
	found := false
	for x, a := range res.Tests {
		if prog.Fset.Position(x.Pos()).Line == 19 {
			found = a.Name == "concrete"
		}
	}
	if !found {
		t.Errorf("the LTL proposition k < 3 was not inferred:\n%s", out)
	}
}
