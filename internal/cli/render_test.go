package cli

import (
	"os"

	"birch/internal/verify"
	"strings"
	"testing"
)

// TestRunReasonRuntimeErrorInLTLSearch: when the searches of ltl
// properties stop at a runtime error, the run fails on a violation of
// none of the properties checked: the summary says which, and that the
// properties are not decided (it said "2 of 2 properties not decided"
// under "fail", or, before verify attributed the error to safety, that
// both ltl properties were violated).
func TestRunReasonRuntimeErrorInLTLSearch(t *testing.T) {
	const model = `system Two ()
x : range 0..2;
main thread Main ()
  loc m0:
    when x < 2 do { x := x + 1; } goto m0;
    when x == 2 do { assert(x < 2); } goto m1;
  loc m1:
end Main;
properties
  ltl settles: <> [] (x == 2);
  ltl recurs: [] <> (x == 0);
end Two;
`
	path := t.TempDir() + "/two.bir"
	if err := os.WriteFile(path, []byte(model), 0o666); err != nil {
		t.Fatal(err)
	}
	status, stdout, _ := runMain("check", "--property", "settles", "--property", "recurs", path)
	if status != ExitViolation {
		t.Errorf("status %d, want %d", status, ExitViolation)
	}
	for _, want := range []string{
		"fail: safety (assertions, runtime errors) violated; 2 of 2 properties not decided: ltl property settles, ltl property recurs\n",
		"properties: ltl property settles: inconclusive; ltl property recurs: inconclusive\n",
	} {
		if !strings.Contains(stdout, want) {
			t.Errorf("output lacks %q:\n%s", want, stdout)
		}
	}
}

// TestAbstractDocConfirmedByChooseFree: a violation that stands because
// the choose-free search found it (its replay did not finish) is a
// confirmed fail; the abstraction object said "not confirmed" next to it.
func TestAbstractDocConfirmedByChooseFree(t *testing.T) {
	by := "found by the choose-free search of the abstract model, whose steps take no choice of the abstraction; the concrete replay did not finish"
	c := &verify.Check{
		Violation:   &verify.Violation{Kind: "assertion", Confirmation: verify.Confirmation{Confirmed: true, By: by}},
		Abstraction: &verify.AbstractionInfo{FoundBy: "choose-free", ReplayNote: "the budget ran out"},
	}
	var doc jsonCheckReport
	doc.Violation = violationDoc(c.Violation)
	abstractDoc(&doc, c)
	if got := doc.Abstraction.Confirmation; got != "confirmed" {
		t.Errorf("abstraction.confirmation = %q, want confirmed", got)
	}
	if doc.Violation == nil {
		t.Errorf("the confirmed violation was dropped from the document")
	}
	c.Violation.Confirmation = verify.Confirmation{}
	doc = jsonCheckReport{}
	doc.Violation = violationDoc(c.Violation)
	abstractDoc(&doc, c)
	if got := doc.Abstraction.Confirmation; got != "not confirmed" || doc.Violation != nil {
		t.Errorf("not confirmed: abstraction.confirmation = %q, violation %v", got, doc.Violation)
	}
}
