package cli

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestAbstractionWrapQualified: bank.bir fails without abstraction, only
// through a wrap of Java's int (two deposits of 2^31 - 1), and passes with
// signs, whose operators work on the mathematical integers. The pass must
// not be unqualified: the property passed, the reason, the basis and the
// abstraction's lines say that executions where an abstracted value wraps
// are not covered, and name the conversion, in text and in JSON.
func TestAbstractionWrapQualified(t *testing.T) {
	model := abstractionExamples + "/bank.bir"
	if status, out, errs := runMain("check", model); status != ExitViolation || !strings.Contains(out, "balance = -2") {
		t.Fatalf("without abstraction: status %d, want a violation through the wrap\n%s%s", status, out, errs)
	}
	status, out, errs := runMain("check", model, "--abstract", "Account.balance=signs")
	if status != ExitPass {
		t.Fatalf("status %d\n%s%s", status, out, errs)
	}
	conv := model + ":65:36: conversion int32(…)"
	for _, want := range []string{
		"; executions in which an abstracted value wraps around a fixed-width type are not covered (abstract operators work on the mathematical integers; it may wrap at " + conv + ")\n",
		"properties: safety (assertions, runtime errors; deadlock freedom and the absence of int overflow not proven; executions where an abstracted value wraps around not covered): pass\n",
		"an over-approximation, so a pass is a proof; deadlock freedom is not preserved; executions where an abstracted value wraps around a fixed-width type are not covered)\n",
		"  may wrap (not covered): " + conv + "\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	status, out, _ = runMain("check", model, "--abstract", "Account.balance=signs", "--no-deadlock")
	if want := "properties: safety (assertions, runtime errors; the absence of int overflow not proven; executions where an abstracted value wraps around not covered): pass\n"; !strings.Contains(out, want) {
		t.Errorf("--no-deadlock: output lacks %q:\n%s", want, out)
	}
	status, out, _ = runMain("check", "--json", model, "--abstract", "Account.balance=signs", "--no-deadlock")
	var doc struct {
		Verdict     string
		Reason      string
		Properties  []struct{ Source, Verdict string }
		RestsOn     []struct{ Kind, What string } `json:"rests_on"`
		Abstraction struct {
			Wraps []string
		}
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil || status != ExitPass {
		t.Fatalf("status %d, %v\n%s", status, err, out)
	}
	if len(doc.Abstraction.Wraps) != 1 || doc.Abstraction.Wraps[0] != conv {
		t.Errorf("wraps %q, want [%q]", doc.Abstraction.Wraps, conv)
	}
	p := doc.Properties[0]
	if p.Verdict != "pass" || !strings.Contains(p.Source, "a pass does not cover the executions in which an abstracted value wraps around a fixed-width type") || !strings.Contains(p.Source, conv) {
		t.Errorf("property %+v", p)
	}
	if !strings.Contains(doc.Reason, "wraps around a fixed-width type are not covered") || !strings.Contains(doc.RestsOn[0].What, "wraps around a fixed-width type are not covered") {
		t.Errorf("reason %q, rests on %q", doc.Reason, doc.RestsOn)
	}
	// The same model with a positive balance from the start in place of
	// the conversion (no fixed-width type is abstracted): no qualification.
	status, out, _ = runMain("check", abstractionExamples+"/counter.bir", "--abstract", "x=signs")
	if status != ExitPass || strings.Contains(out, "wraps") {
		t.Errorf("counter.bir: status %d, a qualification where nothing wraps:\n%s", status, out)
	}
}

// TestAbstractionConcreteWrapKept: a concrete fixed-width variable keeps
// its exact meaning in the abstract model. The counter c wraps (int32 and
// uint8 alike) and fails the assertion only through the wrap; with x
// abstracted, the abstract model must fail the same way, confirmed, where
// a mathematical reading of c would have passed. And a bitwise operator
// on concrete values stays exact: (c & 255) fits a uint8.
func TestAbstractionConcreteWrapKept(t *testing.T) {
	src := `system Wrap ()
x : int;
c : int32;
u : uint8 := 250;

main thread Main ()
  loc s0:
    when true do { x := externChoose(1, 2); } goto s1;
  loc s1:
    when true do { c := int32(c + 2147483647); x := x + 1; } goto s2;
  loc s2:
    when true do { u := u + 10; c := int32(c + 2147483647); } goto s3;
  loc s3:
    when true do { assert((c & 255) == c % 256 || c < 0); assert(u == 4); assert(x > 0 && c >= 0); } goto s4;
  loc s4:
end Main;

end Wrap;
`
	model := writeModel(t, t.TempDir(), "wrap.bir", src)
	status, out, errs := runMain("check", model, "--abstract", "x=signs")
	if status != ExitViolation {
		t.Fatalf("status %d, want the violation of c >= 0 (c is -2)\n%s%s", status, out, errs)
	}
	for _, want := range []string{
		"fail: assertion: assertion violated: x > 0 && c >= 0\n",
		"confirmed on the concrete model",
		"c = -2\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "may wrap") {
		t.Errorf("x does not meet a fixed-width type:\n%s", out)
	}
}

// TestAbstractionChooseFreeWrapNotConfirmed: a choose-free trail stands for
// a violation when its replay does not finish only because its steps take
// no choice of the abstraction, so that every concrete state it stands for
// is reached: not when an abstracted value may wrap. Here x + x of two
// positive int32 values is POS for signs, so assert(x < 0) is certainly
// false in the abstract model, while the concrete x wraps to -2 or -4 and
// the model passes; with the replay cut short (in a function, where the
// symbolic replay does not decide) the check said "fail".
func TestAbstractionChooseFreeWrapNotConfirmed(t *testing.T) {
	model := writeModel(t, t.TempDir(), "cf.bir", `system CF ()
x : int32;
function f ()
  loc s0:
    when true do { x := externChoose(2147483646, 2147483647); } goto s1;
  loc s1:
    when true do { x := int32(x + x); } goto s2;
  loc s2:
    when true do { assert(x < 0); } return;
end f;
main thread Main ()
  loc s0:
    when true do { call f(); } goto s1;
  loc s1:
end Main;
end CF;
`)
	if status, out, errs := runMain("check", model); status != ExitPass {
		t.Fatalf("without abstraction: status %d\n%s%s", status, out, errs)
	}
	status, out, errs := runMain("check", model, "--abstract", "x=signs", "--max-replay", "1")
	if status != ExitInconclusive || !strings.Contains(out, "not confirmed on the concrete model (the concrete replay stopped") {
		t.Errorf("status %d, want inconclusive\n%s%s", status, out, errs)
	}
}

// TestAbstractionLTLWrapQualified: x counts up in an int32 and wraps to a
// negative value after 2^31 steps, so [] (x >= 0) is false of the model;
// with signs it passes for the executions without a wrap, and says so.
func TestAbstractionLTLWrapQualified(t *testing.T) {
	model := writeModel(t, t.TempDir(), "ltl.bir", `system L ()
x : int32;
main thread Main ()
  loc s0:
    when true do { x := int32(x + 1); } goto s0;
end Main;
properties
  ltl nonneg: [] (x >= 0);
end L;
`)
	status, out, errs := runMain("check", model, "--abstract", "x=signs", "--property", "nonneg")
	if status != ExitPass {
		t.Fatalf("status %d\n%s%s", status, out, errs)
	}
	for _, want := range []string{
		"properties: ltl property nonneg (executions that end in a deadlock, and where an abstracted value wraps around not covered): pass\n",
		"executions in which an abstracted value wraps around a fixed-width type are not covered (abstract operators work on the mathematical integers; it may wrap at " + model + ":5:25: conversion int32(…))\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
}
