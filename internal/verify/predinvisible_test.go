package verify

import (
	"os"
	"testing"
)

// TestPredicatesInvisibleRunConfirmed: c2bp drops `invisible`, so its
// abstract trail takes an invisible run's transformations one step each;
// the replay joins them into the concrete model's step (the run of init
// through its return, work's choice and test). Before, the replay parted
// ways at init's first step ("the invisible run goes on differently")
// and the real violation (g - a < 0 for a positive a) was inconclusive.
func TestPredicatesInvisibleRunConfirmed(t *testing.T) {
	src, err := os.ReadFile("testdata/invisible-call.bir")
	if err != nil {
		t.Fatal(err)
	}
	in, err := Load("invisible-call.bir", src)
	if err != nil {
		t.Fatal(err)
	}
	preds := "g >= 0\n[function work] a > 0\n[function work] a >= 0\n"
	pa := &PredicateAbstraction{File: "inv.pred", ReadFile: func(string) ([]byte, error) { return []byte(preds), nil }}
	res, err := Run(&Task{Input: in, Predicates: pa})
	if err != nil {
		t.Fatal(err)
	}
	c := res.Checks[0]
	if c.Verdict() != Fail || c.Violation == nil || !c.Violation.Confirmation.Confirmed {
		t.Fatalf("%s: %s", c.Verdict(), c.Reason)
	}
}
