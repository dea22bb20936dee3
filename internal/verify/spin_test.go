package verify

import (
	"strings"
	"testing"

	"birch/internal/backend/promela"
	"birch/internal/model"
)

// The SPIN step without the CLI. Each SPIN run compiles pan (with gcc -O0
// and a small hash table, -w18, to keep the tests fast); the tests skip
// when spin or gcc is not on PATH.

// counter: Main counts x up to 2 and ends. Its ltl properties: stays is
// false (x leaves 0), reaches holds.
const counterModel = `system Counter ()
x : range 0..3;

main thread Main ()
  loc a:
    when x < 2 do { x := x + 1; } goto a;
    when x == 2 do { } goto b;
  loc b:
end Main;

properties
  invariant small: x <= 2;
  ltl stays: [] (x == 0);
  ltl reaches: <> (x == 2);

end Counter;
`

func needSpin(t *testing.T) {
	t.Helper()
	if err := promela.LookSpin(); err != nil {
		t.Skip(err)
	}
}

// spinTask is a task for the counter model, selecting names (none: every
// property).
func spinTask(t *testing.T, names ...string) *Task {
	t.Helper()
	in, err := Load("counter.bir", []byte(counterModel))
	if err != nil {
		t.Fatal(err)
	}
	return &Task{Input: in, Select: Selection{Names: names}}
}

// quickSpin: the options of the tests' SPIN runs.
var quickSpin = SpinOptions{PanArgs: []string{"-w18"}, quickBuild: true}

// checkOf is the check of r that decided the property name.
func checkOf(t *testing.T, r *Result, name string) (*Check, *Property) {
	t.Helper()
	for _, c := range r.Checks {
		for _, p := range c.Properties {
			if p.Name == name {
				return c, p
			}
		}
	}
	t.Fatalf("no check decided %s", name)
	return nil, nil
}

// TestSpinModelLTL: without a selection, RunSpin checks every property of
// the model, the false ltl property too, which fails with a lasso SPIN
// found and birch replayed. Before, birch spin checked the ltl properties
// only when --property named one, and passed this model.
func TestSpinModelLTL(t *testing.T) {
	needSpin(t)
	r, err := RunSpin(spinTask(t), quickSpin)
	if err != nil {
		t.Fatal(err)
	}
	if got := len(r.Checks); got != 3 {
		t.Fatalf("%d checks, want 3: safety with the invariant, and one per ltl property", got)
	}
	if r.Verdict() != Fail {
		t.Errorf("verdict %v, want fail", r.Verdict())
	}
	c, p := checkOf(t, r, "stays")
	if v, why := c.PropertyVerdict(p); v != Fail {
		t.Errorf("stays: %v (%s), want fail", v, why)
	}
	v := c.Violation
	if v == nil || v.Kind != "ltl" || v.Lasso == nil || len(v.Trail) == 0 || v.Ordinals == nil {
		t.Fatalf("stays: violation %+v, want an ltl violation with a lasso replayed in birch", v)
	}
	if v.Confirmation != byReplay {
		t.Errorf("stays: confirmation %+v, want %+v", v.Confirmation, byReplay)
	}
	if c.Search != "spin" || c.Spin == nil || !strings.Contains(strings.Join(c.Spin.PanArgs, " "), "-a -N ltl_stays") {
		t.Errorf("stays: search %q, SPIN's details %+v; want pan -a -N ltl_stays", c.Search, c.Spin)
	}
	for _, name := range []string{"safety", "small", "reaches"} {
		c, p := checkOf(t, r, name)
		if v, why := c.PropertyVerdict(p); v != Pass || len(c.RestsOn) != 0 {
			t.Errorf("%s: %v (%s), rests on %s; want a pass of a complete search", name, v, why, c.RestsOn)
		}
	}
}

// TestSpinTwoProperties: two properties named (--property twice) are two
// checks, each with its own SPIN run and verdict.
func TestSpinTwoProperties(t *testing.T) {
	needSpin(t)
	r, err := RunSpin(spinTask(t, "reaches", "stays"), quickSpin)
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Checks) != 2 {
		t.Fatalf("%d checks, want 2", len(r.Checks))
	}
	for i, want := range []struct {
		name    string
		verdict Verdict
	}{{"reaches", Pass}, {"stays", Fail}} {
		c := r.Checks[i]
		if len(c.Properties) != 1 || c.Properties[0].Name != want.name || c.Verdict() != want.verdict || c.Spin == nil {
			t.Errorf("check %d: properties %v, verdict %v; want %s: %v", i, c.Properties, c.Verdict(), want.name, want.verdict)
		}
	}
}

// TestSpinRestsOn: a bitstate search may miss states (under-approximated)
// and pan's depth bound cuts paths (bounded): neither can pass.
func TestSpinRestsOn(t *testing.T) {
	needSpin(t)
	for _, tc := range []struct {
		so   SpinOptions
		kind BasisKind
		what string
	}{
		{SpinOptions{Bitstate: true}, UnderApproximated, "bitstate"},
		{SpinOptions{PanArgs: []string{"-m2"}}, Bounded, "depth bound (pan -m2)"},
	} {
		so := tc.so
		so.PanArgs, so.quickBuild = append(so.PanArgs, "-w18"), true
		r, err := RunSpin(spinTask(t, "small"), so)
		if err != nil {
			t.Fatal(err)
		}
		c := r.Checks[0]
		if c.Verdict() != Inconclusive || !c.RestsOn.Has(tc.kind) || !strings.Contains(c.RestsOn.String(), tc.what) {
			t.Errorf("%+v: verdict %v, rests on %s; want inconclusive, %s (%s)", tc.so, c.Verdict(), c.RestsOn, tc.kind, tc.what)
		}
	}
}

// TestSpinStopped: a limit that ends the run during the translation to
// Promela stops the first check before SPIN runs, and the others do not
// start: each inconclusive and bounded.
func TestSpinStopped(t *testing.T) {
	needSpin(t)
	task := spinTask(t)
	task.limits().OnPhase = func(phase string, l *Limits) {
		if phase == PhasePromela {
			l.End("interrupted")
		}
	}
	r, err := RunSpin(task, quickSpin)
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Checks) != 3 {
		t.Fatalf("%d checks, want 3", len(r.Checks))
	}
	for i, c := range r.Checks {
		phase := PhasePromela
		if i > 0 {
			phase = "" // not started
		}
		if c.Verdict() != Inconclusive || c.Stopped == nil || c.Stopped.Phase != phase || c.Spin != nil || !c.RestsOn.Has(Bounded) {
			t.Errorf("check %d: verdict %v, stopped %+v, rests on %s; want stopped in phase %q", i, c.Verdict(), c.Stopped, c.RestsOn, phase)
		}
	}
}

// TestSpinInvariantTrailIsTheModels (regression): SPIN's trail of an
// invariant violation is shown and saved as birch check's: its last step
// leads into the state where the invariant is false, and it replays with
// birch replay. Before, it was described on the model with the invariants
// checked (last step `m0 -> error`), and the saved trail did not fit the
// model.
func TestSpinInvariantTrailIsTheModels(t *testing.T) {
	needSpin(t)
	in := load(t, "testdata/invariants-unsafe.bir")
	res, err := RunSpin(&Task{Input: in, Select: Selection{Names: []string{"inv2"}}}, quickSpin)
	if err != nil {
		t.Fatal(err)
	}
	c := res.Checks[0]
	v := c.Violation
	if v == nil || v.Kind != "invariant" || v.Ordinals == nil {
		t.Fatalf("violation %+v", v)
	}
	if last := v.Trail[len(v.Trail)-1]; last.To != "m0" || last.Outcome != model.OK {
		t.Errorf("last step %+v, want Main[1] m0 -> m0", last)
	}
	r := ReplayTrail(in, compile(t, in, model.Options{}), savedTrail(c))
	if r.End != ReplayInvariant || r.Violation.Message != v.Message {
		t.Errorf("replay: end %d (%s), want the invariant", r.End, r.Mismatch)
	}
}
