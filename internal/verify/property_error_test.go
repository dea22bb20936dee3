package verify

import (
	"strings"
	"testing"
)

// TestPropertyEvaluationErrorAttribution: a runtime error met while
// evaluating an invariant or a proposition of an ltl property is a
// failure of that property, not of safety (the model's own assertions and
// runtime errors, which the safety check finds to hold). It was reported
// as "safety (assertions, runtime errors) violated" with the property not
// decided, next to a safety check that passed.
func TestPropertyEvaluationErrorAttribution(t *testing.T) {
	res := run(t, "testdata/property-error.bir", Task{})
	if len(res.Checks) != 3 {
		t.Fatalf("%d checks, want 3 (safety with the invariants, lfrac, ends)", len(res.Checks))
	}
	safety, lfrac, ends := res.Checks[0], res.Checks[1], res.Checks[2]

	// the safety search stops at the error in frac
	if safety.Violation == nil || !strings.Contains(safety.Violation.Message, "in invariant frac") {
		t.Fatalf("safety check: violation %+v, want the division by zero in invariant frac", safety.Violation)
	}
	if p := safety.Violated(); p == nil || p.Name != "frac" || p.Kind != "invariant" {
		t.Errorf("the error in invariant frac is attributed to %+v, want invariant frac", p)
	}
	got := verdicts(safety)
	if got["invariant frac"] != Fail || got["safety (assertions, runtime errors, deadlocks)"] != Inconclusive {
		t.Errorf("safety check verdicts %v, want frac fail and safety not decided", got)
	}

	if lfrac.Violation == nil || !strings.Contains(lfrac.Violation.Message, "in proposition") {
		t.Fatalf("lfrac: violation %+v, want the division by zero in its proposition", lfrac.Violation)
	}
	if p := lfrac.Violated(); p == nil || p.Name != "lfrac" {
		t.Errorf("the error in lfrac's proposition is attributed to %+v, want ltl property lfrac", p)
	}
	if v, _ := lfrac.PropertyVerdict(lfrac.Properties[0]); v != Fail {
		t.Errorf("ltl property lfrac: %s, want fail", v)
	}
	if ends.Verdict() != Pass {
		t.Errorf("ltl property ends: %s, want pass", ends.Verdict())
	}

	// with only the ltl properties, safety is not searched: the
	// assertion-free model fails only lfrac
	res = run(t, "testdata/property-error.bir", Task{Select: Selection{Names: []string{"lfrac"}}})
	if c := res.Checks[0]; c.Violated() == nil || c.Violated().Name != "lfrac" {
		t.Errorf("--property lfrac: violated %+v, want lfrac", c.Violated())
	}
}
