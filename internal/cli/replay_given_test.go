package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// unboundedAssert is a model with an unbounded input whose assertion
// fails on the step that takes no input (g0 is 0 there).
const unboundedAssert = `system Ub ()
g0 : int;
main thread T ()
  loc l0:
    when true do { assert(g0 == 1); } goto l1;
    when true do { g0 := externChoose(int); } goto l2;
  loc l1:
  loc l2:
end T;
end Ub;
`

// TestReplayTrailWithoutChoiceValues: a confirmed trail of a model with
// unbounded choices that takes none of them (its trail file has no
// choice_values) replays to its violation after --on-the-fly,
// --predicates and --cegar alike, as the check confirmed it on the model
// given no values (birch replay stopped, inconclusive: "chooses among
// 2^64 values"); a trail that does take one but gives no value for it
// does not fit the model, and the replay says the choice has no value.
func TestReplayTrailWithoutChoiceValues(t *testing.T) {
	dir := t.TempDir()
	model := writeModel(t, dir, "ub.bir", unboundedAssert)
	preds := writeModel(t, dir, "ub.pred", "g0 == 1\n")
	for _, flags := range [][]string{
		{"--on-the-fly", "--predicates", preds},
		{"--predicates", preds},
		{"--cegar"},
	} {
		trail := filepath.Join(dir, "ub.trail")
		args := append(append([]string{"check"}, flags...), "--trail", trail, model)
		status, out, errs := runMain(args...)
		if status != ExitViolation || !strings.Contains(out, "fail: assertion: assertion violated: g0 == 1\n") {
			t.Fatalf("%v: status %d:\n%s%s", flags, status, out, errs)
		}
		b, err := os.ReadFile(trail)
		if err != nil {
			t.Fatal(err)
		}
		if strings.Contains(string(b), "choice_values") {
			t.Fatalf("%v: the trail takes no input but gives values:\n%s", flags, b)
		}
		status, out, errs = runMain("replay", model, trail)
		if status != ExitViolation || !strings.Contains(out, "step 1: T[1]  l0 -> error") ||
			!strings.HasSuffix(out, "fail: assertion: assertion violated: g0 == 1\n") || errs != "" {
			t.Errorf("%v: replay: status %d:\n%s%s", flags, status, out, errs)
		}
	}

	// the input's step, with the value the check found left out of the
	// trail file
	model = writeModel(t, dir, "input.bir", strings.Replace(unboundedAssert,
		"when true do { assert(g0 == 1); } goto l1;\n    when true do { g0 := externChoose(int); } goto l2;\n  loc l1:",
		"when true do { g0 := externChoose(int); } goto l1;\n  loc l1:\n    when true do { assert(g0 != 7); } goto l2;", 1))
	preds = writeModel(t, dir, "input.pred", "g0 == 7\n")
	trail := filepath.Join(dir, "input.trail")
	if status, out, errs := runMain("check", "--on-the-fly", "--predicates", preds, "--trail", trail, model); status != ExitViolation {
		t.Fatalf("status %d:\n%s%s", status, out, errs)
	}
	if status, out, errs := runMain("replay", model, trail); status != ExitViolation || !strings.Contains(out, "  g0 = 7\n") {
		t.Errorf("replay with the input's value: status %d:\n%s%s", status, out, errs)
	}
	b, err := os.ReadFile(trail)
	if err != nil {
		t.Fatal(err)
	}
	var tf map[string]any
	if err := json.Unmarshal(b, &tf); err != nil || tf["choice_values"] == nil {
		t.Fatalf("trail file (%v), want choice_values:\n%s", err, b)
	}
	delete(tf, "choice_values")
	if b, err = json.Marshal(tf); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(trail, b, 0o644); err != nil {
		t.Fatal(err)
	}
	status, out, errs := runMain("replay", model, trail)
	if status != ExitBadInput || !strings.Contains(errs, "the model gives T[1] l0 -> limit (no value is given to the unbounded choice") {
		t.Errorf("replay without the input's value: status %d:\n%s%s", status, out, errs)
	}
}
