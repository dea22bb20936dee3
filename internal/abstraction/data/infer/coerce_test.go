package infer

import (
	"strings"
	"testing"

	"birch/internal/source"
)

// coercions parses and resolves --coerce arguments.
func coercions(t *testing.T, args ...string) []DeclaredCoercion {
	t.Helper()
	var ds []CoercionDecl
	for _, a := range args {
		d, err := ParseCoercion(a)
		if err != nil {
			t.Fatal(err)
		}
		ds = append(ds, d)
	}
	cs, err := ResolveCoercions(&lib, ds)
	if err != nil {
		t.Fatal(err)
	}
	return cs
}

// varsOf names the abstraction of every variable of a result.
func varsOf(res *Result) map[string]string {
	names := map[string]string{}
	for v, a := range res.Vars {
		names[v.Name()] = a.Name
	}
	return names
}

// TestDeclaredCoercion: a signs value and a range(-1,1) value meet in y.
// Without a declaration they meet at point, with a warning; with
// signs -> range(-1,1), y is range(-1,1) and x's value is coerced where it
// flows into y; with the opposite declaration, y is signs and w - 1 is
// coerced.
func TestDeclaredCoercion(t *testing.T) {
	prog := load(t, "testdata/coerce.bir")
	out, res := run(t, prog, Config{}, "Main.x=signs", "Main.w=range(-1,1)")
	golden(t, "coerce-point", out)
	if res == nil || varsOf(res)["y"] != "point" || !strings.Contains(out, "warning: coerce.bir:13:26: range(-1,1) and signs meet in y: point abstracts it") {
		t.Fatalf("without a declaration:\n%s", out)
	}

	out, res = run(t, prog, Config{Coercions: coercions(t, "signs->range(-1,1)")}, "Main.x=signs", "Main.w=range(-1,1)")
	golden(t, "coerce", out)
	if res == nil || varsOf(res)["y"] != "range(-1,1)" || len(res.Warnings) != 0 {
		t.Fatalf("with signs -> range(-1,1):\n%s", out)
	}
	found := false
	for _, c := range res.Coercions {
		if c.From.Name == "signs" && c.To.Name == "range(-1,1)" && prog.Fset.Position(c.Pos).Line == 11 {
			found = true
		}
		if c.From.Name == "range(-1,1)" && c.To.Name == "signs" {
			t.Errorf("coercion against the order at %s", prog.Fset.Position(c.Pos))
		}
	}
	if !found || len(res.Declared) != 1 {
		t.Errorf("no coercion signs -> range(-1,1) at y := x:\n%s", out)
	}

	_, res = run(t, prog, Config{Coercions: coercions(t, "range(-1,1)->signs")}, "Main.x=signs", "Main.w=range(-1,1)")
	if res == nil || varsOf(res)["y"] != "signs" {
		t.Fatalf("with range(-1,1) -> signs: %v", res)
	}
	found = false
	for _, c := range res.Coercions {
		if c.From.Name == "range(-1,1)" && c.To.Name == "signs" && prog.Fset.Position(c.Pos).Line == 13 {
			found = true
		}
	}
	if !found {
		t.Errorf("no coercion range(-1,1) -> signs at y := w - 1")
	}
}

// TestDeclaredCoercionBound: a signs value flowing into a variable bound to
// range(-1,1) is a conflict, unless signs -> range(-1,1) is declared.
func TestDeclaredCoercionBound(t *testing.T) {
	prog := load(t, "testdata/coerce.bir")
	out, res := run(t, prog, Config{}, "Main.x=signs", "Main.y=range(-1,1)")
	golden(t, "coerce-conflict", out)
	if res != nil || !strings.Contains(out, "coerce.bir:11:25: conflict: a value abstracted by signs (from Main.x, bound by --abstract Main.x=signs) flows into Main.y, which is bound to range(-1,1) by --abstract Main.y=range(-1,1) (no coercion from signs to range(-1,1) is declared)") {
		t.Fatalf("no conflict:\n%s", out)
	}
	// The opposite declaration does not help.
	out, res = run(t, prog, Config{Coercions: coercions(t, "range(-1,1)->signs")}, "Main.x=signs", "Main.y=range(-1,1)")
	if res != nil || !strings.Contains(out, "conflict") {
		t.Fatalf("no conflict:\n%s", out)
	}
	out, res = run(t, prog, Config{Coercions: coercions(t, "signs->range(-1,1)")}, "Main.x=signs", "Main.y=range(-1,1)")
	if res == nil || varsOf(res)["y"] != "range(-1,1)" || varsOf(res)["w"] != "concrete" {
		t.Fatalf("with the declaration:\n%s", out)
	}
}

// TestJoin: where neither abstraction lies below the other, they meet at
// the least abstraction declared above both (transitively), and at point
// when there is none or no least one.
func TestJoin(t *testing.T) {
	prog := load(t, "testdata/coerce.bir")
	for _, c := range []struct {
		coerce []string
		want   string
	}{
		{nil, "point"},
		// evenodd is not below range(-1,1): point.
		{[]string{"signs->range(-1,1)"}, "point"},
		// range(-2,2) is the only common upper bound.
		{[]string{"signs->range(-2,2)", "evenodd->range(-2,2)"}, "range(-2,2)"},
		// Transitively: signs -> modulo(3) -> range(-2,2).
		{[]string{"signs->modulo(3)", "modulo(3)->range(-2,2)", "evenodd->range(-2,2)"}, "range(-2,2)"},
		// Two common upper bounds, the least of them chosen.
		{[]string{"signs->range(-1,1)", "evenodd->range(-1,1)", "range(-1,1)->range(-2,2)", "evenodd->range(-2,2)"}, "range(-1,1)"},
		// Two common upper bounds, neither below the other: point.
		{[]string{"signs->range(-1,1)", "evenodd->range(-1,1)", "signs->range(-2,2)", "evenodd->range(-2,2)"}, "point"},
		// Redundant declarations change nothing.
		{[]string{"signs->point", "concrete->evenodd"}, "point"},
	} {
		cfg := Config{Coercions: coercions(t, c.coerce...)}
		out, res := run(t, prog, cfg, "Main.x=signs", "Main.w=evenodd")
		if res == nil {
			t.Errorf("%v: %s", c.coerce, out)
			continue
		}
		if got := varsOf(res)["y"]; got != c.want {
			t.Errorf("%v: y is %s, want %s\n%s", c.coerce, got, c.want, out)
		}
		if warned := len(res.Warnings) > 0; warned != (c.want == "point") {
			t.Errorf("%v: warnings %v", c.coerce, res.Warnings)
		}
	}
}

func TestResolveCoercionErrors(t *testing.T) {
	for args, want := range map[string]string{
		"signs->intervals":              "--coerce signs->intervals: unknown abstraction",
		"signs->concrete":               "--coerce signs->concrete: no coercion from signs to concrete: abstract values cannot be made concrete",
		"point->signs":                  "--coerce point->signs: no coercion from point to signs: point is above every abstraction",
		"signs->signs":                  "--coerce signs->signs: a coercion from signs to itself",
		"signs->range(0,0)":             "a coercion from signs to itself (signs and range(0,0) are the same abstraction)",
		"signs->evenodd;evenodd->signs": "--coerce evenodd->signs: coercions form a cycle: evenodd -> signs -> evenodd",
		"signs->evenodd;evenodd->modulo(3);modulo(3)->signs": "--coerce modulo(3)->signs: coercions form a cycle: modulo(3) -> signs -> evenodd -> modulo(3)",
	} {
		var ds []CoercionDecl
		for _, a := range strings.Split(args, ";") {
			d, err := ParseCoercion(a)
			if err != nil {
				t.Fatal(err)
			}
			ds = append(ds, d)
		}
		_, err := ResolveCoercions(&lib, ds)
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: error %v, want %q", args, err, want)
		}
	}
	for _, bad := range []string{"signs", "->signs", "signs->", "signs=evenodd", "a->b->c"} {
		if _, err := ParseCoercion(bad); err == nil {
			t.Errorf("ParseCoercion(%q) succeeded", bad)
		}
	}
	// Infer checks a Config built without ResolveCoercions too.
	prog := load(t, "testdata/coerce.bir")
	cs := coercions(t, "signs->evenodd")
	cs = append(cs, DeclaredCoercion{From: cs[0].To, To: cs[0].From, Decl: CoercionDecl{Where: "test"}})
	sel, err := Resolve(prog, &lib, bindings(t, "Main.x=signs"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Infer(prog, &lib, sel, Config{Coercions: cs}); err == nil || !strings.Contains(err.Error(), "test: coercions form a cycle") {
		t.Errorf("Infer with a cycle: %v", err)
	}
}

// TestParseCoercionLines: coerce lines of a bindings file, with errors at
// the offending name.
func TestParseCoercionLines(t *testing.T) {
	src := `Main.x = signs
  coerce signs -> range(-1,1)   # signs values may flow into range(-1,1) contexts
coerce = evenodd
coerce signs
coerce -> signs
coerce signs ->
coerce a -> b -> c
coerce signs -> nosuch
coerce signs -> concrete
`
	f, err := ParseBindings("b.txt", []byte(src))
	list, _ := err.(source.ErrorList)
	var got []string
	for _, e := range list {
		got = append(got, e.Error())
	}
	want := []string{
		"b.txt:4:1: expected FROM -> TO (two abstractions)",
		"b.txt:5:1: no abstraction before ->",
		"b.txt:6:14: no abstraction after ->",
		"b.txt:7:15: expected one coercion FROM -> TO (declare a chain link by link)",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("errors:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	// A variable named coerce is bound, not a declaration.
	if len(f.Bindings) != 2 || f.Bindings[1].Target != "coerce" || f.Bindings[1].Abstraction != "evenodd" {
		t.Errorf("bindings: %+v", f.Bindings)
	}
	if len(f.Coercions) != 3 {
		t.Fatalf("coercions: %+v", f.Coercions)
	}
	c := f.Coercions[0]
	if c.From != "signs" || c.To != "range(-1,1)" || c.Where != "b.txt:2:3" || c.FromPos.String() != "b.txt:2:10" || c.ToPos.String() != "b.txt:2:19" {
		t.Errorf("coercion: %+v", c)
	}
	// Resolution errors point at the name.
	_, err = ResolveCoercions(&lib, f.Coercions)
	msg := ""
	if err != nil {
		msg = err.Error()
	}
	for _, want := range []string{
		"b.txt:8:17: unknown abstraction",
		"b.txt:9:8: no coercion from signs to concrete: abstract values cannot be made concrete",
	} {
		if !strings.Contains(msg, want) {
			t.Errorf("resolution errors %q lack %q", msg, want)
		}
	}
}

// FuzzParseBindings: no bindings file makes the parser panic, and every
// coercion it returns has both names and valid positions.
func FuzzParseBindings(f *testing.F) {
	for _, s := range []string{
		"coerce signs -> range(-1,1)\n",
		"coerce\ncoerce ->\ncoerce -> ->\n  coerce a->b # c\n",
		"use \"x.basl\"\ncoerce = signs\nMain.x = evenodd;\n",
		"coerce \t-> \t\n\tcoerce a -> b -> c // d\n",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		file, _ := ParseBindings("b.txt", []byte(src))
		for _, c := range file.Coercions {
			if c.From == "" || c.To == "" || !c.FromPos.IsValid() || !c.ToPos.IsValid() {
				t.Errorf("coercion %+v", c)
			}
		}
		ParseCoercion(src)
	})
}
