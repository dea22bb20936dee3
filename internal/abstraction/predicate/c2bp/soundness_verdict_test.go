package c2bp_test

import (
	"fmt"
	"strings"
	"testing"

	"birch/internal/abstraction/predicate/c2bp"
	"birch/internal/search"
	"birch/internal/testenv"
	"birch/internal/verify"
)

// TestPredicateVerdicts runs birch check's pipeline (package verify) on
// the soundness test's random models, once on the model as written (its
// inputs are small lists: the explicit search decides it) and once with
// predicate abstraction and its predicates, and compares the verdicts: a
// pass with predicates is a pass of the model, and a failure with
// predicates (confirmed on the concrete model) is a failure of the model.
// Inconclusive is allowed (the random predicates seldom suffice), and so
// is a model the explicit search cannot finish. Deadlocks are left out:
// the predicate abstraction does not check them.
func TestPredicateVerdicts(t *testing.T) {
	first, last := uint64(14), uint64(21) // a failure both ways among them
	if testenv.Long() {
		first, last = 1, 500
	}
	count := map[string]int{}
	for _, kind := range []string{"threads", "calls", "start", "heap", "arrays", "invariant"} {
		for seed := first; seed <= last; seed++ {
			src, preds := c2bp.GenForTest(seed, kind)
			plain := verdictOf(t, src, nil)
			abs := verdictOf(t, src, &verify.PredicateAbstraction{File: "gen.pred", ReadFile: func(string) ([]byte, error) { return []byte(preds), nil }})
			count[plain.Verdict().String()+"/"+abs.Verdict().String()]++
			wrong := ""
			switch {
			case abs.Verdict() == verify.Pass && plain.Verdict() == verify.Fail:
				wrong = "a wrong pass"
			case abs.Verdict() == verify.Fail && plain.Verdict() == verify.Pass:
				wrong = "a wrong failure"
			}
			if wrong != "" {
				t.Errorf("%s seed %d: %s: the model %s (%s), with predicates %s (%s)\nmodel:\n%s\npredicates:\n%s",
					kind, seed, wrong, plain.Verdict(), reasonOf(plain), abs.Verdict(), reasonOf(abs), src, preds)
			}
		}
	}
	t.Logf("verdicts (model/with predicates): %v", count)
	if count["pass/pass"] == 0 || count["fail/fail"] == 0 {
		t.Errorf("the random models should give agreeing passes and failures: %v", count)
	}
}

func verdictOf(t *testing.T, src string, pa *verify.PredicateAbstraction) *verify.Result {
	t.Helper()
	in, err := verify.Load("gen.bir", []byte(src))
	if err != nil {
		t.Fatalf("%v\n%s", err, src)
	}
	res, err := verify.Run(&verify.Task{Input: in, Predicates: pa, Search: search.Config{NoDeadlock: true, MaxStates: 20000}})
	if err != nil {
		t.Fatalf("%v\n%s", err, src)
	}
	return res
}

func reasonOf(r *verify.Result) string {
	var out []string
	for _, c := range r.Checks {
		s := c.Reason
		if v := c.Violation; v != nil {
			s += fmt.Sprintf(" [%s: %s]", v.Kind, v.Message)
		}
		out = append(out, s)
	}
	return strings.Join(out, "; ")
}
