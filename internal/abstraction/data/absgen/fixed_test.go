package absgen

import (
	"bytes"
	"strings"
	"testing"

	"birch/internal/abstraction/data/infer"
	"birch/internal/bir/types"
	"birch/internal/search"
	"birch/internal/source"
)

// fixedModel is a model of two threads' worth of fixed-width code: y is
// int32, c uint8, and ACT is the action under test (m is an int, the
// variable the tests abstract unless they say otherwise).
func fixedModel(decl, act string) string {
	return "system S ()\nmain thread Main ()\n  m : int;\n  " + decl + "\n  loc s0:\n    when true do { m := m + 1; " + act + " } goto s1;\n  loc s1:\nend Main;\nend S;\n"
}

// wrapsText prints out.Wraps as "LINE:COL WHAT" lines.
func wrapsText(prog *types.Program, out *Output) string {
	var s []string
	for _, w := range out.Wraps {
		p := prog.Fset.Position(w.Pos)
		s = append(s, p.String()+" "+w.What)
	}
	return strings.Join(s, "\n")
}

// TestFixedWidthConcreteKept: fixed-width types, conversions and bitwise
// operators that no abstraction reaches are kept as written (the explicit
// engine runs them exactly) and are no place where an abstracted value
// wraps. Before, data abstraction refused such a model at its first use.
func TestFixedWidthConcreteKept(t *testing.T) {
	for _, c := range []struct{ decl, act, want string }{
		{"y : uint8;", "y := 300;", "y := 300;"},
		{"y : int;", "y := int32(y * y);", "y := int32(y * y);"},
		{"y : int;", "y := y & 3;", "y := y & 3;"},
		{"y : int32;", "y := ~y << 2;", "y := ~y << 2;"},
	} {
		prog := loadSource(t, "f.bir", []byte(fixedModel(c.decl, c.act)))
		out, err := generate(t, prog, infer.Config{}, "Main.m=evenodd")
		if err != nil {
			t.Errorf("%s %s: %v", c.decl, c.act, err)
			continue
		}
		if !strings.Contains(string(out.Source), c.want) || !strings.Contains(string(out.Source), strings.Fields(c.decl)[2]) {
			t.Errorf("%s %s: not kept:\n%s", c.decl, c.act, out.Source)
		}
		if len(out.Wraps) != 0 || strings.Contains(string(out.Source), "wraps around") {
			t.Errorf("%s %s: wraps %s\n%s", c.decl, c.act, wrapsText(prog, out), out.Source)
		}
	}
}

// TestBitwiseOnAbstractRefused: abstract tokens have no bits, so a bitwise
// operator or shift with an abstracted operand is an error at the operand.
func TestBitwiseOnAbstractRefused(t *testing.T) {
	for _, c := range []struct{ act, want string }{
		{"m := m & 3;", "f.bir:6:37: the operand m of the bitwise operator & in m & 3 needs a concrete value, but it is abstracted by evenodd (from Main.m, bound by --abstract Main.m=evenodd)"},
		{"y := 1 << m;", "f.bir:6:42: the operand m of the bitwise operator << in 1 << m needs a concrete value, but it is abstracted by evenodd"},
		{"m := ~m;", "f.bir:6:38: the operand m of the bitwise operator ~ in ~m needs a concrete value, but it is abstracted by evenodd"},
	} {
		prog := loadSource(t, "f.bir", []byte(fixedModel("y : int32;", c.act)))
		b0, _ := infer.ParseBinding("Main.m=evenodd")
		sel, err := infer.Resolve(prog, &lib, []infer.Binding{b0})
		if err != nil {
			t.Fatal(err)
		}
		_, err = infer.Infer(prog, &lib, sel, infer.Config{})
		var b bytes.Buffer
		source.Print(&b, err, 0)
		if err == nil || !strings.Contains(b.String(), c.want) {
			t.Errorf("%s: got %v, want %s", c.act, b.String(), c.want)
		}
	}
}

// TestWrapPoints: a conversion of an abstracted value and a store of an
// abstracted value that may lie outside the abstracted destination's
// fixed-width type are the places where the abstract model, whose values
// are mathematical integers, does not wrap; stores that cannot wrap (a
// value of the same type, a constant in range) are not.
func TestWrapPoints(t *testing.T) {
	for _, c := range []struct{ decl, act, want string }{
		{"y : int32;", "y := int32(y + m);", "f.bir:6:37 conversion int32(…)"},
		{"y : int32;", "y := y + 1;", "f.bir:6:37 store into int32"},
		{"y : int32;", "y := m;", "f.bir:6:37 store into int32"},
		{"y : int32;", "y := y;", ""},
		{"y : int32;", "y := 5;", ""},
		{"y : int16;", "y := 40000;", "f.bir:6:37 store into int16"},
		{"y : int32; z : int16;", "y := z;", ""},
		{"y : int16; z : int32;", "y := z;", "f.bir:6:37 store into int16"},
	} {
		prog := loadSource(t, "f.bir", []byte(fixedModel(c.decl, c.act)))
		out, err := generate(t, prog, infer.Config{}, "Main.m=signs", "Main.y=signs")
		if err != nil {
			t.Errorf("%s %s: %v", c.decl, c.act, err)
			continue
		}
		if got := wrapsText(prog, out); got != c.want {
			t.Errorf("%s %s: wraps %q, want %q\n%s", c.decl, c.act, got, c.want, out.Source)
		}
	}
}

// TestFixedWidthStoreNoRangeError: a store into an abstracted fixed-width
// variable wraps in the concrete model, never fails; the abstract model
// must not raise the range error a range type's store raises (a spurious
// violation), nor drop the tokens outside the type.
func TestFixedWidthStoreNoRangeError(t *testing.T) {
	src := fixedModel("y : uint8;", "y := y - 1;")
	src = strings.Replace(src, "  loc s1:\n", "  loc s1:\n    when true do { assert(y != 0 - 1); } goto s2;\n  loc s2:\n", 1)
	prog := loadSource(t, "f.bir", []byte(src))
	out, err := generate(t, prog, infer.Config{}, "Main.y=signs")
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(out.Source), "abs_r") {
		t.Errorf("a range error for a wrapping store:\n%s", out.Source)
	}
	// The abstract value of y - 1 is NEG (the mathematical integer): the
	// abstract model fails the assertion, where the concrete y is 255.
	// That is an execution where y wraps, which a pass would not cover.
	if res := check(t, out.Program, false); res.Verdict != search.Fail {
		t.Errorf("verdict %v, want fail\n%s", res.Verdict, out.Source)
	}
	if got := wrapsText(prog, out); got != "f.bir:6:37 store into uint8" {
		t.Errorf("wraps %q", got)
	}
	// the abstract model says what it does not cover
	if want := "// of S where one wraps around a fixed-width type, which it may at\n//   f.bir:6:37: store into uint8\n"; !strings.Contains(string(out.Source), want) {
		t.Errorf("the abstract model lacks %q:\n%s", want, out.Source)
	}
}

// TestFixedWidthInitialValueWraps: the initial value of an abstracted
// fixed-width variable is stored wrapped, as the concrete model stores it
// (uint8 300 is 44; int8 200 is -56, NEG).
func TestFixedWidthInitialValueWraps(t *testing.T) {
	src := "system S ()\nmain thread Main ()\n  y : int8 := 200;\n  loc s0:\n    when true do { y := y; } goto s1;\n  loc s1:\nend Main;\nend S;\n"
	prog := loadSource(t, "f.bir", []byte(src))
	out, err := generate(t, prog, infer.Config{}, "Main.y=signs")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(out.Source), "y : signs_t := signs_NEG;") {
		t.Errorf("initial value:\n%s", out.Source)
	}
}

// TestChooseType: externChoose(T) of a fixed-width T into an abstracted
// variable chooses among the tokens that hold a value of T; into a
// concrete one it is kept.
func TestChooseType(t *testing.T) {
	src := fixedModel("y : uint8; z : int8;", "y := externChoose(uint8); z := externChoose(int8);")
	prog := loadSource(t, "f.bir", []byte(src))
	out, err := generate(t, prog, infer.Config{}, "Main.y=signs")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"y := externChoose(signs_ZERO, signs_POS);", "z := externChoose(int8);"} {
		if !strings.Contains(string(out.Source), want) {
			t.Errorf("missing %q in\n%s", want, out.Source)
		}
	}
}
