package absgen

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"birch/internal/abstraction/data/infer"
	"birch/internal/backend/promela"
	"birch/internal/bir/ast"
	"birch/internal/bir/types"
	"birch/internal/model"
	"birch/internal/search"
	"birch/internal/source"
)

// check runs the engine on an abstract model with its invariants.
func check(t *testing.T, prog *types.Program, chooseFree bool) *search.Result {
	t.Helper()
	m, err := model.New(prog, model.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var props []*types.Property
	for _, p := range prog.Properties {
		if !p.LTL {
			props = append(props, p)
		}
	}
	var sm search.Model = m
	if len(props) > 0 {
		inv, err := search.NewInvariants(m, props)
		if err != nil {
			t.Fatal(err)
		}
		sm = search.WithStateCheck(m, inv)
	}
	return search.Run(sm, search.Config{ChooseFree: chooseFree, MaxStates: 100000})
}

// translates checks that the Promela back end accepts the model.
func translates(t *testing.T, out *Output) {
	t.Helper()
	var b bytes.Buffer
	if err := promela.Translate(out.Program, &b, promela.Options{}); err != nil {
		t.Errorf("promela: %v\n%s", err, out.Source)
	}
}

// TestPowerPasses is the paper's example: with m abstracted by evenodd,
// "m odd implies result odd" holds of the abstract model, whose search is
// complete.
func TestPowerPasses(t *testing.T) {
	prog := load(t, "testdata/power.bir")
	out, err := generate(t, prog, infer.Config{}, "Main.m=evenodd")
	if err != nil {
		t.Fatal(err)
	}
	res := check(t, out.Program, false)
	if res.Verdict != search.Pass || !res.Complete {
		t.Fatalf("verdict %v complete %v (%s)\n%s", res.Verdict, res.Complete, res.Reason, out.Source)
	}
	translates(t, out)
	// The concrete precision is kept: no step of the abstract model is an
	// abstraction's choice.
	for _, o := range out.Map.Origins {
		if o.Imprecise {
			t.Errorf("%s is imprecise", o.Case)
		}
	}
}

// TestPowerFails: "m odd implies result even" is false (n = 0 gives 1),
// and the choose-free search finds it: the violation is not caused by the
// abstraction.
func TestPowerFails(t *testing.T) {
	src := strings.Replace(mustRead(t, "testdata/power.bir"), "result % 2 != 0", "result % 2 == 0", 1)
	prog := loadSource(t, "power-bad.bir", []byte(src))
	out, err := generate(t, prog, infer.Config{}, "Main.m=evenodd")
	if err != nil {
		t.Fatal(err)
	}
	for _, cf := range []bool{false, true} {
		res := check(t, out.Program, cf)
		if res.Verdict != search.Fail || res.Violation.Kind != model.Assertion {
			t.Fatalf("choose-free %v: verdict %v (%s)", cf, res.Verdict, res.Reason)
		}
		p, ok := out.Map.Position(res.Violation.Pos)
		if !ok || p.Line != 11 || p.Filename != "power-bad.bir" {
			t.Errorf("the violation maps to %v, %v; want power-bad.bir:11", p, ok)
		}
	}
}

// TestCounterFinite: an unbounded counter becomes finite with signs, and
// the invariant and the assertion, decided exactly, hold.
func TestCounterFinite(t *testing.T) {
	prog := load(t, "testdata/counter.bir")
	out, err := generate(t, prog, infer.Config{}, "x=signs")
	if err != nil {
		t.Fatal(err)
	}
	res := check(t, out.Program, false)
	if res.Verdict != search.Pass || !res.Complete {
		t.Fatalf("verdict %v complete %v (%s)\n%s", res.Verdict, res.Complete, res.Reason, out.Source)
	}
	// x has 3 tokens, y 11 values: few states.
	if res.Stats.States > 3*11*2+3 {
		t.Errorf("%d states", res.Stats.States)
	}
	translates(t, out)
	// x := x + 1 from POS is precise, from NEG it is not.
	imprecise := 0
	for _, o := range out.Map.Origins {
		if o.Imprecise {
			imprecise++
		}
	}
	if imprecise == 0 {
		t.Errorf("no imprecise transformation:\n%s", out.Source)
	}
}

// TestDivideByZero: division by a ZERO divisor raises the concrete
// model's error, found by the choose-free search since ZERO is one value.
func TestDivideByZero(t *testing.T) {
	prog := load(t, "testdata/divide.bir")
	out, err := generate(t, prog, infer.Config{}, "d=signs")
	if err != nil {
		t.Fatal(err)
	}
	for _, cf := range []bool{false, true} {
		res := check(t, out.Program, cf)
		if res.Verdict != search.Fail || res.Violation.Kind != model.DivisionByZero {
			t.Fatalf("choose-free %v: verdict %v (%s)\n%s", cf, res.Verdict, res.Reason, out.Source)
		}
		p, ok := out.Map.Position(res.Violation.Pos)
		if !ok || p.Line != 9 {
			t.Errorf("the violation maps to %v, %v; want line 9", p, ok)
		}
	}
	translates(t, out)
}

// TestRangeError: c := c + 1 on a range 0..3 abstracted by signs may leave
// the range (POS has integers above 3): the abstract model reaches the
// concrete model's range error, through an abstraction's choice.
func TestRangeError(t *testing.T) {
	prog := load(t, "testdata/range.bir")
	out, err := generate(t, prog, infer.Config{}, "c=signs")
	if err != nil {
		t.Fatal(err)
	}
	res := check(t, out.Program, false)
	if res.Verdict != search.Fail || res.Violation.Kind != model.RangeError {
		t.Fatalf("verdict %v (%s)\n%s", res.Verdict, res.Reason, out.Source)
	}
	// The error needs the abstraction's choice: the choose-free search
	// does not find it.
	if res := check(t, out.Program, true); res.Verdict == search.Fail {
		t.Errorf("choose-free search found %v", res.Violation.Kind)
	}
	// With range(0,3) the error is certain, and choose-free.
	out, err = generate(t, prog, infer.Config{}, "c=range(0,3)")
	if err != nil {
		t.Fatal(err)
	}
	res = check(t, out.Program, true)
	if res.Verdict != search.Fail || res.Violation.Kind != model.RangeError {
		t.Fatalf("range(0,3): verdict %v (%s)\n%s", res.Verdict, res.Reason, out.Source)
	}
}

// TestCalls follows abstract values through a call, a field and an array.
func TestCalls(t *testing.T) {
	prog := load(t, "testdata/calls.bir")
	out, err := generate(t, prog, infer.Config{}, "Acct.bal=signs")
	if err != nil {
		t.Fatal(err)
	}
	src := string(out.Source)
	for _, want := range []string{
		"function twice (v : signs_t) : signs_t",
		"bal : signs_t;",
		"h : array [2] of signs_t;",
		"acct.bal := externChoose(signs_POS);",
		"r := call twice(acct.bal);",
	} {
		if !strings.Contains(src, want) {
			t.Errorf("missing %q in\n%s", want, src)
		}
	}
	res := check(t, out.Program, false)
	if res.Verdict != search.Pass || !res.Complete {
		t.Fatalf("verdict %v (%s)\n%s", res.Verdict, res.Reason, out.Source)
	}
	translates(t, out)
}

// TestMap checks the map back: every abstract transformation comes from
// the concrete transformation at its place, with the same thread or
// function, location and target, and its actions from concrete actions of
// the same kind.
func TestMap(t *testing.T) {
	for _, c := range [][2]string{
		{"testdata/power.bir", "Main.m=evenodd"},
		{"testdata/counter.bir", "x=signs"},
		{"testdata/calls.bir", "Acct.bal=signs"},
		{"testdata/props.bir", "x=signs"},
	} {
		prog := load(t, c[0])
		out, err := generate(t, prog, infer.Config{}, c[1])
		if err != nil {
			t.Fatal(err)
		}
		n := 0
		for _, p := range append(append([]*types.Proc(nil), out.Program.Threads...), out.Program.Functions...) {
			cp := out.Map.Proc(p)
			if cp == nil || cp.Name() != p.Name() || len(cp.Locations) != len(p.Locations) {
				t.Fatalf("%s: %s has no concrete counterpart", c[0], p.Name())
			}
			for _, l := range p.Locations {
				for _, at := range l.Decl.Transformations {
					n++
					o := out.Map.Transformation(at)
					if o == nil {
						t.Fatalf("%s: no origin for a transformation of %s", c[0], l.Name())
					}
					if o.Proc != cp || o.Location.Name() != l.Name() || o.Location.Decl.Transformations[o.Index] != o.Transformation {
						t.Errorf("%s: %s.%s maps to %s.%s[%d]", c[0], p.Name(), l.Name(), o.Proc.Name(), o.Location.Name(), o.Index)
					}
					if (at.Target == nil) != (o.Transformation.Target == nil) || at.Target != nil && at.Target.Name != o.Transformation.Target.Name {
						t.Errorf("%s: %s.%s: the target differs", c[0], p.Name(), l.Name())
					}
					if len(o.Actions) != len(at.Actions) {
						t.Fatalf("%s: %d action origins for %d actions", c[0], len(o.Actions), len(at.Actions))
					}
					for i, k := range o.Actions {
						if k < 0 {
							continue
						}
						_, choice := at.Actions[i].(*ast.ChooseAction)
						_, assign := o.Transformation.Actions[k].(*ast.AssignAction)
						if fmt.Sprintf("%T", at.Actions[i]) != fmt.Sprintf("%T", o.Transformation.Actions[k]) && !(choice && assign) {
							t.Errorf("%s: action %d is a %T from a %T", c[0], i, at.Actions[i], o.Transformation.Actions[k])
						}
						pos, ok := out.Map.Position(at.Actions[i].Pos())
						want := prog.Fset.Position(o.Transformation.Actions[k].Pos())
						if !ok || pos != want {
							t.Errorf("%s: action %d at %v maps to %v, want %v", c[0], i, out.Program.Fset.Position(at.Actions[i].Pos()), pos, want)
						}
					}
					pos, ok := out.Map.Position(at.Pos())
					if want := prog.Fset.Position(o.Transformation.Pos()); !ok || pos != want {
						t.Errorf("%s: transformation at %v maps to %v, want %v", c[0], out.Program.Fset.Position(at.Pos()), pos, want)
					}
				}
			}
		}
		if n != len(out.Map.Origins) || n == 0 {
			t.Errorf("%s: %d transformations, %d origins", c[0], n, len(out.Map.Origins))
		}
	}
}

// TestUnsupported: what the generator cannot encode is reported at its
// position in the concrete model.
func TestUnsupported(t *testing.T) {
	prog := load(t, "testdata/unsupported.bir")
	_, err := generate(t, prog, infer.Config{}, "Acct.id=signs", "Main.x=evenodd")
	if err == nil {
		t.Fatal("no error")
	}
	var b bytes.Buffer
	source.Print(&b, err, 0)
	got := b.String()
	for _, want := range []string{
		"unsupported.bir:3:17: cannot abstract Acct.id with signs: its initial value 1 is POS, but a new signs field or element starts with the default token ZERO",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("missing %q in\n%s", want, got)
		}
	}
	// A call's result has the abstraction of the variable it is assigned
	// to: seven's result becomes evenodd.
	out, err := generate(t, prog, infer.Config{}, "Main.x=evenodd")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(out.Source), "function seven () : evenodd_t") || !strings.Contains(string(out.Source), "return evenodd_ODD;") {
		t.Errorf("seven:\n%s", out.Source)
	}
}

// TestGuardReadsStateBefore: a guard is evaluated in the state before the
// actions. An action that writes a variable the guard reads must not make
// the case's guard false: x < 3 with x := x + 1 is enabled for V2 (giving
// V3), and x >= 100 with x := 0 for POS. Evaluating the guard after the
// actions dropped these cases, and the abstract model lost concrete
// behaviours (an unsound pass).
func TestGuardReadsStateBefore(t *testing.T) {
	for _, c := range []struct {
		binding, src string
		states       int
		transitions  int64
	}{
		// V0 -> V1 -> V2 -> V3, where x < 3 is false; the skip in each: 4
		// states, 3 + 4 transitions.
		{"x=range(0,3)", `
  loc l0:
    when x < 3 do { x := x + 1; } goto l0;
    when true do { } goto l0;`, 4, 7},
		// (ZERO, l0) -> (POS, l1); from there x >= 100 may hold (back to
		// (ZERO, l0)) and the skip gives (POS, l0), whose step leads to
		// (POS, l1): 3 states, 1 + 2 + 1 transitions.
		{"x=signs", `
  loc l0:
    when true do { x := x + 1; } goto l1;
  loc l1:
    when x >= 100 do { x := 0; } goto l0;
    when true do { } goto l0;`, 3, 4},
	} {
		src := "system G ()\nx : int;\nmain thread T ()" + c.src + "\nend T;\nend G;\n"
		prog := loadSource(t, "guard-before.bir", []byte(src))
		out, err := generate(t, prog, infer.Config{}, c.binding)
		if err != nil {
			t.Fatal(err)
		}
		res := check(t, out.Program, false)
		if !res.Complete || res.Stats.States != c.states || res.Stats.Transitions != c.transitions {
			t.Errorf("%s: %d states, %d transitions (complete %v); want %d, %d\n%s", c.binding, res.Stats.States, res.Stats.Transitions, res.Complete, c.states, c.transitions, out.Source)
		}
	}
}
