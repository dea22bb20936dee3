package verify

import (
	"os"
	"strings"
	"testing"

	"birch/internal/model"
	"birch/internal/search"
)

// Tests of the check with data abstraction composed without the CLI: the
// abstraction synthesis, the explicit step on the abstract model and the
// confirmation step on the concrete one, on the models of
// examples/abstraction.

const absExamples = "../../examples/abstraction"

// checkAbstract runs the task with the data abstraction da on file.
func checkAbstract(t *testing.T, file string, task Task, da DataAbstraction) *Result {
	t.Helper()
	src, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	in, err := Load(file, src)
	if err != nil {
		t.Fatal(err)
	}
	task.Input, task.Abstraction = in, &da
	var warnings []string
	task.Warn = func(msg string) { warnings = append(warnings, msg) }
	res, err := Run(&task)
	if err != nil {
		t.Fatalf("%s: %v", file, err)
	}
	return res
}

// oneCheck is the only check of res.
func oneCheck(t *testing.T, res *Result) *Check {
	t.Helper()
	if len(res.Checks) != 1 {
		t.Fatalf("%d checks, want 1", len(res.Checks))
	}
	return res.Checks[0]
}

// TestAbstractPass: with range(0,3) every test and operation on the
// counter of buffer.bir is decided exactly; the abstract model's 4 states
// and 6 transitions (derived by hand in the example) satisfy the
// invariant: a pass that rests on the abstraction, and says that it does
// not prove deadlock freedom.
func TestAbstractPass(t *testing.T) {
	c := oneCheck(t, checkAbstract(t, absExamples+"/buffer.bir", Task{}, DataAbstraction{Bindings: []string{"count=range(0,3)"}}))
	if v := c.Verdict(); v != Pass {
		t.Fatalf("verdict %s (%s), want pass", v, c.Reason)
	}
	if len(c.RestsOn) != 1 || c.RestsOn[0].Kind != Abstracted || !strings.Contains(c.RestsOn[0].What, "count=range(0,3)") ||
		!strings.Contains(c.RestsOn[0].What, "deadlock freedom is not preserved") {
		t.Errorf("rests on %s", c.RestsOn)
	}
	if !strings.Contains(c.Reason, "proven with abstraction (count=range(0,3)); deadlock freedom is not preserved by abstraction (not proven)") {
		t.Errorf("reason %q", c.Reason)
	}
	if c.Stats.States != 4 || c.Stats.Transitions != 6 {
		t.Errorf("abstract model: %d states, %d transitions; want 4, 6", c.Stats.States, c.Stats.Transitions)
	}
	a := c.Abstraction
	if a == nil || a.AbstractVerdict != Pass || a.Variables["count"] != "range(0,3)" || a.FoundBy != "" || c.Violation != nil {
		t.Errorf("abstraction %+v, violation %v", a, c.Violation)
	}
	if len(c.Properties) != 2 || c.Properties[1].Name != "bounded" {
		t.Errorf("properties %v", c.Properties)
	}
	// the safety property that passes does not claim deadlock freedom
	if p := c.Properties[0]; p.Kind != "safety" || !strings.Contains(p.Title, "deadlock freedom and the absence of int overflow not proven") {
		t.Errorf("safety property %q: a pass with abstraction claims deadlock freedom", p.Title)
	}
}

// TestAbstractConfirmed: in withdraw.bir two customers may both withdraw
// from a balance that covers only one of them. The choose-free search of
// the abstract model finds the overdraft, and the replay on the concrete
// model confirms it: a fail, with a trail of the concrete model that
// replays to the failed assertion.
func TestAbstractConfirmed(t *testing.T) {
	file := absExamples + "/withdraw.bir"
	c := oneCheck(t, checkAbstract(t, file, Task{}, DataAbstraction{Bindings: []string{"balance=range(0,2)"}}))
	if v := c.Verdict(); v != Fail {
		t.Fatalf("verdict %s (%s), want fail", v, c.Reason)
	}
	v := c.Violation
	if !v.Confirmation.Confirmed || v.Confirmation.By != "replayed on the concrete model (concrete replay)" || v.Confirmation.Diverges != nil {
		t.Errorf("confirmation %+v", v.Confirmation)
	}
	if v.Kind != "assertion" || v.Message != "assertion violated: balance >= 0" || !c.RestsOn.Has(Abstracted) {
		t.Errorf("violation %s: %s; rests on %s", v.Kind, v.Message, c.RestsOn)
	}
	if a := c.Abstraction; a.FoundBy != "choose-free" || !a.ReplayConfirmed || a.Replay != "concrete" || len(a.AbstractTrail) == 0 {
		t.Errorf("abstraction: found by %q, replay %q (%v), %d abstract steps", a.FoundBy, a.Replay, a.ReplayConfirmed, len(a.AbstractTrail))
	}
	// the trail is one of the concrete model: it replays to the violation
	src, _ := os.ReadFile(file)
	in, _ := Load(file, src)
	m, err := model.New(in.Prog, model.Options{})
	if err != nil {
		t.Fatal(err)
	}
	_, ts, err := search.Replay(m, v.Ordinals)
	if err != nil || len(ts) == 0 || len(ts) != len(v.Trail) || ts[len(ts)-1].Step.Kind != model.Assertion {
		t.Fatalf("the confirmed trail does not replay to the assertion on the concrete model: %v (%d steps)", err, len(ts))
	}
}

// TestAbstractNotConfirmed: in decrement.bir y is always 1, but with signs
// x - z may have any sign, so the abstract model fails assert(y > 0)
// after two choices of the abstraction (the choose-free search finds
// nothing). The replay runs the four steps concretely and the assertion
// holds: inconclusive, with the step where the trails part ways (4, at
// s3) and the step where the values do (3: y = 1, abstract NEG).
func TestAbstractNotConfirmed(t *testing.T) {
	c := oneCheck(t, checkAbstract(t, absExamples+"/decrement.bir", Task{}, DataAbstraction{Bindings: []string{"Main.x=signs"}}))
	if v := c.Verdict(); v != Inconclusive {
		t.Fatalf("verdict %s (%s), want inconclusive", v, c.Reason)
	}
	v := c.Violation
	if v == nil || v.Confirmation.Confirmed || v.Trail != nil || v.Ordinals != nil {
		t.Fatalf("violation %+v: want one not confirmed, without a concrete trail", v)
	}
	d := v.Confirmation.Diverges
	if d == nil || d.Step != 4 || d.Location != "s3" || d.Reason != "the assertion holds on the concrete model" {
		t.Errorf("diverges %+v", d)
	}
	a := c.Abstraction
	if vd := a.ValuesDiverge; vd == nil || vd.Step != 3 || vd.Reason != "Main[1].y = 1 (POS), abstract signs_NEG" {
		t.Errorf("values diverge %+v", vd)
	}
	if a.FoundBy != "search" || a.ReplayConfirmed || len(a.AbstractTrail) != 4 || a.AbstractViolation == nil ||
		!strings.HasSuffix(a.AbstractViolation.Pos, "decrement.bir:30:20") {
		t.Errorf("abstraction %+v", a)
	}
	if c.Reason != "the abstract model has a violation (assertion) that is not confirmed on the concrete model" {
		t.Errorf("reason %q", c.Reason)
	}
}

// TestAbstractChooseFreeInvariantReplayIncomplete: with signs, buffer.bir's
// invariant is under-approximated to false where count is POS, which the
// choose-free search reaches in one step; the concrete model satisfies
// the invariant (TestAbstractPass proves it). A choose-free trail stands
// without its replay only where the abstract violation is one of every
// concrete state it stands for; an invariant's is not (the property is
// under-approximated), so a replay that runs out of --max-replay leaves
// the check inconclusive. (Before, it was reported as a failure.)
func TestAbstractChooseFreeInvariantReplayIncomplete(t *testing.T) {
	c := oneCheck(t, checkAbstract(t, absExamples+"/buffer.bir", Task{}, DataAbstraction{Bindings: []string{"count=signs"}, MaxReplay: 1}))
	if v := c.Verdict(); v != Inconclusive {
		t.Fatalf("verdict %s (%s), want inconclusive", v, c.Reason)
	}
	if c.Abstraction.FoundBy != "choose-free" || c.Abstraction.ReplayNote == "" || c.Violation.Confirmation.Confirmed {
		t.Errorf("found by %q, replay note %q, confirmation %+v", c.Abstraction.FoundBy, c.Abstraction.ReplayNote, c.Violation.Confirmation)
	}
}

// TestAbstractLTL: parity.bir's back_to_even holds with evenodd (a pass
// for the executions that are infinite or end with every thread
// terminated); with signs the abstract lasso's cycle does not close on the
// concrete model (inconclusive); server.bir's progress fails, with a
// concrete lasso.
func TestAbstractLTL(t *testing.T) {
	parity := absExamples + "/parity.bir"
	c := oneCheck(t, checkAbstract(t, parity, Task{Select: Selection{Names: []string{"back_to_even"}}}, DataAbstraction{Bindings: []string{"x=evenodd"}}))
	if v := c.Verdict(); v != Pass || !c.RestsOn.Has(Abstracted) || !strings.HasSuffix(c.Reason, notCoveredLTL) ||
		c.Abstraction.AbstractFormula != "[] ((x == evenodd_ODD) -> <> (x == evenodd_EVEN))" {
		t.Errorf("evenodd: verdict %s (%s), rests on %s, formula %q", v, c.Reason, c.RestsOn, c.Abstraction.AbstractFormula)
	}
	c = oneCheck(t, checkAbstract(t, parity, Task{Select: Selection{Names: []string{"back_to_even"}}}, DataAbstraction{Bindings: []string{"x=signs"}}))
	if v := c.Verdict(); v != Inconclusive || c.Violation == nil || c.Violation.Confirmation.Diverges == nil ||
		!strings.HasPrefix(c.Violation.Confirmation.Diverges.Reason, "the cycle does not close on the concrete model") || c.Abstraction.AbstractLasso == nil {
		t.Errorf("signs: verdict %s (%s), violation %+v", v, c.Reason, c.Violation)
	}
	c = oneCheck(t, checkAbstract(t, absExamples+"/server.bir", Task{Select: Selection{Names: []string{"progress"}}}, DataAbstraction{Bindings: []string{"served=signs"}}))
	if v := c.Verdict(); v != Fail || c.Violation.Lasso == nil || c.Violation.Ordinals == nil || !c.Violation.Confirmation.Confirmed || c.Violated() != c.Properties[0] {
		t.Errorf("server: verdict %s (%s), violation %+v", v, c.Reason, c.Violation)
	}
}

// TestAbstractLTLFair: weak fairness is not preserved by abstraction: B
// reaches b1 on every fair execution (A cannot keep it waiting forever),
// and the abstract model agrees only under fairness, so the check is
// inconclusive.
func TestAbstractLTLFair(t *testing.T) {
	file := "testdata/abstract-fair.bir"
	c := oneCheck(t, checkAbstract(t, file, Task{Select: Selection{Names: []string{"done"}, Fair: true}}, DataAbstraction{Bindings: []string{"x=signs"}}))
	if v := c.Verdict(); v != Inconclusive || c.Violation != nil || !strings.Contains(c.Reason, "weak fairness is not preserved by abstraction") {
		t.Errorf("verdict %s (%s)", v, c.Reason)
	}
}

// TestAbstractRun: without --property, a check with abstraction checks
// every property of the model as a check without does: parity.bir's
// safety and its two ltl properties, one search each.
func TestAbstractRun(t *testing.T) {
	res := checkAbstract(t, absExamples+"/parity.bir", Task{}, DataAbstraction{Bindings: []string{"x=evenodd"}})
	var got []string
	for _, c := range res.Checks {
		if !c.RestsOn.Has(Abstracted) || c.Abstraction == nil {
			t.Errorf("%s: rests on %s", c.Properties[0].Title, c.RestsOn)
		}
		got = append(got, c.Properties[0].Title+": "+c.Verdict().String())
	}
	want := "safety (assertions, runtime errors; deadlock freedom and the absence of int overflow not proven): pass; ltl property back_to_even (executions that end in a deadlock not covered): pass; ltl property often_odd: inconclusive"
	if strings.Join(got, "; ") != want || res.Verdict() != Inconclusive {
		t.Errorf("checks %q, verdict %s; want %q", strings.Join(got, "; "), res.Verdict(), want)
	}
}

// TestAbstractBadInput: bindings that do not fit are usage errors, and
// the synthesis stops at a limit like any phase.
func TestAbstractBadInput(t *testing.T) {
	src, _ := os.ReadFile(absExamples + "/decrement.bir")
	in, _ := Load("decrement.bir", src)
	for _, da := range []DataAbstraction{
		{Bindings: []string{"Main.x"}},
		{Bindings: []string{"Main.x=signs"}, Solver: "nosuch"},
		{Bindings: []string{"Main.x=signs"}, Default: "top"},
		{},
	} {
		if _, err := Run(&Task{Input: in, Abstraction: &da}); err == nil {
			t.Errorf("%+v: no error", da)
		}
	}
	task := &Task{Input: in, Abstraction: &DataAbstraction{Bindings: []string{"Main.x=signs"}}}
	task.limits().OnPhase = func(phase string, l *Limits) {
		if phase == PhaseSynthesis {
			l.End("interrupted")
		}
	}
	res, err := Run(task)
	if err != nil {
		t.Fatal(err)
	}
	if c := oneCheck(t, res); c.Verdict() != Inconclusive || c.Stopped == nil || c.Stopped.Phase != PhaseSynthesis {
		t.Errorf("stopped %+v, verdict %s", c.Stopped, c.Verdict())
	}
}

// TestAbstractChooseFreeStands: a trail of the choose-free search to an
// assertion that is false in every concrete state the abstract state
// stands for is a violation of the concrete model even when its replay
// cannot finish (the symbolic replay does not handle started threads, and
// the concrete replay stops at --max-replay 1): a fail, confirmed by the
// choose-free search, without a concrete trail to save.
func TestAbstractChooseFreeStands(t *testing.T) {
	c := oneCheck(t, checkAbstract(t, "testdata/abstract-choosefree-unsafe.bir", Task{}, DataAbstraction{Bindings: []string{"x=signs"}, MaxReplay: 1}))
	if v := c.Verdict(); v != Fail {
		t.Fatalf("verdict %s (%s), want fail", v, c.Reason)
	}
	v, a := c.Violation, c.Abstraction
	if !v.Confirmation.Confirmed || !strings.HasPrefix(v.Confirmation.By, "found by the choose-free search") || v.Ordinals != nil || v.Trail != nil {
		t.Errorf("violation %+v", v)
	}
	if a.FoundBy != "choose-free" || a.ReplayConfirmed || a.ReplayNote == "" {
		t.Errorf("found by %q, replay confirmed %v, note %q", a.FoundBy, a.ReplayConfirmed, a.ReplayNote)
	}
}
