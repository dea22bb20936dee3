package absgen

import (
	"strings"
	"testing"

	"birch/internal/abstraction/data/infer"
	"birch/internal/model"
	"birch/internal/search"
)

// declared resolves --coerce arguments.
func declared(t *testing.T, args ...string) []infer.DeclaredCoercion {
	t.Helper()
	var ds []infer.CoercionDecl
	for _, a := range args {
		d, err := infer.ParseCoercion(a)
		if err != nil {
			t.Fatal(err)
		}
		ds = append(ds, d)
	}
	cs, err := infer.ResolveCoercions(&lib, ds)
	if err != nil {
		t.Fatal(err)
	}
	return cs
}

// TestDeclaredCoercion generates y := x from a signs x into a range(-1,1)
// y, declared coercible. The synthesized coercion maps NEG to {BELOW, VM1}
// and POS to {V1, ABOVE}, chosen by internChoose, and ZERO exactly to V0
// (with externChoose(0): BIR wants all or none of a location pair's
// transformations to choose).
// States, by hand: l0 with x = ZERO, y = V0 (1); l1 with each sign of x
// (3); l2 with (NEG, BELOW), (NEG, VM1), (ZERO, V0), (POS, V1),
// (POS, ABOVE) (5); l3 the same five: 14 states, 3 + 5 + 5 = 13
// transitions. "x zero implies y zero" holds: ZERO is coerced exactly.
func TestDeclaredCoercion(t *testing.T) {
	prog := load(t, "testdata/coerce.bir")
	cfg := infer.Config{Coercions: declared(t, "signs->range(-1,1)")}
	out, err := generate(t, prog, cfg, "Main.x=signs", "Main.y=range(-1,1)")
	if err != nil {
		t.Fatal(err)
	}
	src := string(out.Source)
	for _, want := range []string{
		"when x == signs_NEG do { y := internChoose(range_M1_1__BELOW, range_M1_1__VM1); } goto l2;",
		"when x == signs_ZERO do { abs_z := externChoose(0); y := range_M1_1__V0; } goto l2;",
		"when x == signs_POS do { y := internChoose(range_M1_1__V1, range_M1_1__ABOVE); } goto l2;",
	} {
		if !strings.Contains(src, want) {
			t.Errorf("missing %q in\n%s", want, src)
		}
	}
	res := check(t, out.Program, false)
	if res.Verdict != search.Pass || !res.Complete || res.Stats.States != 14 || res.Stats.Transitions != 13 {
		t.Fatalf("verdict %v complete %v, %d states, %d transitions (%s)\n%s", res.Verdict, res.Complete, res.Stats.States, res.Stats.Transitions, res.Reason, src)
	}
	translates(t, out)
	imprecise := 0
	for _, o := range out.Map.Origins {
		if o.Imprecise {
			imprecise++
		}
	}
	if imprecise != 2 {
		t.Errorf("%d imprecise transformations, want 2 (NEG and POS)\n%s", imprecise, src)
	}

	// The imprecision is the abstraction's: y = -1 is reachable in the
	// abstract model (x = -2 coerced to VM1) but not by the choose-free
	// search.
	bad := strings.Replace(mustRead(t, "testdata/coerce.bir"), "x != 0 || y == 0", "y != -1", 1)
	prog = loadSource(t, "coerce-bad.bir", []byte(bad))
	out, err = generate(t, prog, cfg, "Main.x=signs", "Main.y=range(-1,1)")
	if err != nil {
		t.Fatal(err)
	}
	if res := check(t, out.Program, false); res.Verdict != search.Fail || res.Violation.Kind != model.Assertion {
		t.Errorf("full search: %v (%s)", res.Verdict, res.Reason)
	}
	if res := check(t, out.Program, true); res.Verdict != search.Inconclusive || res.Violation != nil {
		t.Errorf("choose-free search: %v (%s)", res.Verdict, res.Reason)
	}
}

// TestDeclaredCoercionExact: the other direction, range(-1,1) -> signs, is
// exact: every token of the range has one sign, so no internChoose.
func TestDeclaredCoercionExact(t *testing.T) {
	prog := load(t, "testdata/coerce.bir")
	cfg := infer.Config{Coercions: declared(t, "range(-1,1)->signs")}
	out, err := generate(t, prog, cfg, "Main.x=range(-1,1)", "Main.y=signs")
	if err != nil {
		t.Fatal(err)
	}
	src := string(out.Source)
	if !strings.Contains(src, "when x == range_M1_1__BELOW || x == range_M1_1__VM1 do { y := signs_NEG; } goto l2;") &&
		!strings.Contains(src, "when x == range_M1_1__VM1 || x == range_M1_1__BELOW do { y := signs_NEG; } goto l2;") {
		t.Errorf("no exact coercion of NEG in\n%s", src)
	}
	for _, o := range out.Map.Origins {
		if o.Imprecise {
			t.Errorf("%s is imprecise\n%s", o.Case, src)
		}
	}
	// States, by hand: l0 (1); l1 with x = -2, 0 or 3, that is BELOW, V0
	// or ABOVE (3); l2 and l3 with y the sign of x, one each (3 + 3): 10.
	res := check(t, out.Program, false)
	if res.Verdict != search.Pass || !res.Complete || res.Stats.States != 10 {
		t.Fatalf("verdict %v complete %v, %d states (%s)\n%s", res.Verdict, res.Complete, res.Stats.States, res.Reason, src)
	}
	translates(t, out)
}
