package verify

import (
	"strings"
	"testing"

	"birch/internal/model"
)

// TestAbstractInvariantTrailIsTheModels: the confirmed trail of an
// invariant violation found with abstraction is the concrete model's:
// its last step leads into the state where the invariant is false (with
// its changes), and the trail replays (birch replay) on the model. It was
// replayed on the model with the invariants' check, so its last step read
// 'm0 -> error' and birch replay rejected the saved trail ("step 3: the
// trail has Main[1] m0 -> error, the model gives Main[1] m0 -> m0").
func TestAbstractInvariantTrailIsTheModels(t *testing.T) {
	file := "testdata/abstract-invariant-unsafe.bir"
	c := oneCheck(t, checkAbstract(t, file, Task{}, DataAbstraction{Bindings: []string{"x=range(0,3)"}}))
	v := c.Violation
	if c.Verdict() != Fail || v == nil || v.Kind != model.InvariantViolated.String() {
		t.Fatalf("%s: %s, violation %+v; want a confirmed violation of small", file, c.Verdict(), v)
	}
	if p := c.Violated(); p == nil || p.Name != "small" {
		t.Errorf("violated %+v, want invariant small", p)
	}
	// by hand: three increments, the last to x = 3
	if len(v.Trail) != 3 {
		t.Fatalf("trail of %d steps, want 3", len(v.Trail))
	}
	last := v.Trail[2]
	if last.To != "m0" || len(last.Changes) != 1 || last.Changes[0].Value != "3" {
		t.Errorf("last step %s -> %s with changes %+v, want m0 -> m0 with x = 3", last.From, last.To, last.Changes)
	}
	in := load(t, file)
	r := ReplayTrail(in, compile(t, in, model.Options{ExposeInvisible: v.ExposeInvisible}),
		&SavedTrail{Ordinals: v.Ordinals, Recorded: v.Trail, Violation: v.Kind})
	if r.End != ReplayInvariant {
		t.Errorf("the trail replays to %v (%s), want a false invariant", r.End, r.Mismatch)
	}
}

// TestAbstractDivisionNotProven: abstract operations in guards, predicates
// and properties do not raise division by zero, so an abstract model
// without a violation proves nothing of a model that divides by an
// abstracted value there. abstract-division.bir fails without abstraction
// (a division by zero in a guard, in the invariant frac and in lfrac's
// proposition); with x=range(0,3) it passed, "proven with abstraction".
func TestAbstractDivisionNotProven(t *testing.T) {
	file := "testdata/abstract-division.bir"
	if v := run(t, file, Task{}).Verdict(); v != Fail {
		t.Fatalf("%s without abstraction: %s, want fail", file, v)
	}
	da := DataAbstraction{Bindings: []string{"x=range(0,3)"}}
	res := checkAbstract(t, file, Task{}, da)
	if len(res.Checks) != 3 {
		t.Fatalf("%d checks, want 3", len(res.Checks))
	}
	// ends has no division, but its product search meets the guard's
	// (concretely a runtime error that leaves it not decided)
	for i, want := range []Verdict{Inconclusive, Inconclusive, Inconclusive} {
		if c := res.Checks[i]; c.Verdict() != want {
			t.Errorf("%v: %s (%s), want %s", titles(c.Properties), c.Verdict(), c.Reason, want)
		} else if s := c.RestsOn.String(); strings.Contains(s, "a pass is a proof") || !strings.Contains(s, "no proof here") {
			// the rests-on line said "a pass is a proof" next to a reason
			// saying it was not proven
			t.Errorf("%v: rests on %s, want no claim of a proof", titles(c.Properties), s)
		}
	}
	// a division in a formula of the command line is named by the
	// formula, not by the line it has in the model text it was inserted
	// into (that named a line past the end of the model)
	res = checkAbstract(t, "testdata/abstract-invariant-unsafe.bir", Task{Select: Selection{LTL: "[] (6 / (3 - x) >= 0)"}}, da)
	if c := oneCheck(t, res); c.Verdict() != Inconclusive || !strings.Contains(c.Reason, "the division in the --ltl formula") {
		t.Errorf("--ltl: %s (%s), want inconclusive because of the division in the --ltl formula", c.Verdict(), c.Reason)
	}
	// the invariant half divides by a constant, which never fails; the
	// guard's division alone keeps the safety check from a proof (the
	// remainders by 2 of parity.bir's formulas do not: TestAbstractLTL)
	res = checkAbstract(t, file, Task{Select: Selection{Names: []string{"half"}}}, da)
	if c := oneCheck(t, res); c.Verdict() != Inconclusive || !strings.Contains(c.Reason, "abstract-division.bir:13:") {
		t.Errorf("half: %s (%s), want inconclusive because of the division in the guard at line 13", c.Verdict(), c.Reason)
	}
}

// TestAbstractLTLPassNamesDeadlocks: a pass of an ltl property with
// abstraction holds only of the executions that do not end in a deadlock
// (abstraction does not preserve deadlocks); the property it names says
// so. abstract-ltl-deadlock.bir's ends is false (its one execution
// deadlocks), yet the run printed "pass: all 2 properties hold" and
// "ltl property ends: pass".
func TestAbstractLTLPassNamesDeadlocks(t *testing.T) {
	file := "testdata/abstract-ltl-deadlock.bir"
	if c := run(t, file, Task{Select: Selection{Names: []string{"ends"}}}).Checks[0]; c.Verdict() != Fail {
		t.Fatalf("%s without abstraction: %s, want fail", file, c.Verdict())
	}
	c := oneCheck(t, checkAbstract(t, file, Task{Select: Selection{Names: []string{"ends"}}}, DataAbstraction{Bindings: []string{"x=range(0,2)"}}))
	if c.Verdict() != Pass {
		t.Fatalf("with abstraction: %s (%s), want the abstraction's pass", c.Verdict(), c.Reason)
	}
	p := c.Properties[0]
	if p.Name != "ends" || !strings.Contains(p.Title, "executions that end in a deadlock not covered") {
		t.Errorf("the property passed is %q, want ends qualified: its executions that end in a deadlock are not covered", p.Title)
	}
	if v, _ := c.PropertyVerdict(p); v != Pass || p.AutomatonStates == 0 {
		t.Errorf("ends: %s with %d automaton states, want pass and the automaton's states", v, p.AutomatonStates)
	}
}

// TestAbstractPassNamesOverflow: abstract operators work on the
// mathematical integers, so a pass with abstraction does not prove that
// the model is free of int overflow, and its safety property says so.
// abstract-overflow.bir overflows at its second step, yet with x=signs it
// printed "safety (assertions, runtime errors; deadlock freedom not
// proven): pass".
func TestAbstractPassNamesOverflow(t *testing.T) {
	file := "testdata/abstract-overflow.bir"
	if c := run(t, file, Task{}).Checks[0]; c.Verdict() != Fail || c.Violation.Kind != "overflow" {
		t.Fatalf("%s without abstraction: %s (%s), want an overflow", file, c.Verdict(), c.Reason)
	}
	for _, noDeadlock := range []bool{false, true} {
		task := Task{}
		task.Search.NoDeadlock = noDeadlock
		c := oneCheck(t, checkAbstract(t, file, task, DataAbstraction{Bindings: []string{"x=signs"}}))
		p := c.Properties[0]
		if c.Verdict() != Pass || !strings.Contains(p.Title, "the absence of int overflow not proven") ||
			!strings.Contains(p.Source, "int overflow") {
			t.Errorf("--no-deadlock=%v: %s of %q (%s), want a pass that says int overflow is not proven", noDeadlock, c.Verdict(), p.Title, p.Source)
		}
	}
}
