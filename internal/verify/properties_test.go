package verify

import (
	"errors"
	"reflect"
	"strings"
	"testing"

	"birch/internal/search"
)

// TestFalseLTLPropertyFailsByDefault: a run without a selection checks
// every property of the model, the ltl ones too: testdata/ltl-unsafe.bir,
// whose only false property is `ltl recurs`, fails, with the violation
// attributed to recurs and the other properties passing.
func TestFalseLTLPropertyFailsByDefault(t *testing.T) {
	res := run(t, "testdata/ltl-unsafe.bir", Task{})
	if v := res.Verdict(); v != Fail {
		t.Fatalf("verdict %s, want fail", v)
	}
	var got [][]string
	for _, c := range res.Checks {
		got = append(got, titles(c.Properties))
	}
	want := [][]string{
		{"safety (assertions, runtime errors, deadlocks)", "invariant bounded"},
		{"ltl property settles"},
		{"ltl property recurs"},
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("checks %q, want %q", got, want)
	}
	for i, v := range []Verdict{Pass, Pass, Fail} {
		if cv := res.Checks[i].Verdict(); cv != v {
			t.Errorf("%v: %s, want %s", got[i], cv, v)
		}
	}
	c := res.Deciding()
	if c != res.Checks[2] || c.Violated() != c.Properties[0] || c.Violation.Kind != "ltl" || c.Violation.Lasso == nil {
		t.Errorf("deciding check %v, violated %v, violation %+v; want recurs's lasso", titles(c.Properties), c.Violated(), c.Violation)
	}
	// by hand: m0 with x = 0, 1, 2, then m1: 4 states, 3 transitions
	if st := res.Checks[0].Stats; st.States != 4 || st.Transitions != 3 {
		t.Errorf("safety search: %d states, %d transitions; want 4, 3", st.States, st.Transitions)
	}
}

// TestSelectTwoProperties: two names check both: an invariant and an ltl
// property in two checks (the invariant with safety), two invariants in
// one safety check, each with its own verdict.
func TestSelectTwoProperties(t *testing.T) {
	res := run(t, examples+"/peterson.bir", Task{Select: Selection{Names: []string{"mutex", "safety"}}})
	if len(res.Checks) != 2 {
		t.Fatalf("mutex, safety: %d checks, want 2", len(res.Checks))
	}
	if got := titles(res.Checks[0].Properties); !reflect.DeepEqual(got, []string{"safety (assertions, runtime errors, deadlocks)", "invariant mutex"}) {
		t.Errorf("mutex, safety: first check %q", got)
	}
	if got := titles(res.Checks[1].Properties); !reflect.DeepEqual(got, []string{"ltl property safety"}) {
		t.Errorf("mutex, safety: second check %q", got)
	}
	if v := res.Verdict(); v != Pass {
		t.Errorf("mutex, safety: %s, want pass", v)
	}

	res = run(t, examples+"/peterson.bir", Task{Select: Selection{Names: []string{"mutex", "exclusive"}}})
	if len(res.Checks) != 1 {
		t.Fatalf("mutex, exclusive: %d checks, want 1", len(res.Checks))
	}
	want := map[string]Verdict{"safety (assertions, runtime errors, deadlocks)": Pass, "invariant mutex": Pass, "invariant exclusive": Pass}
	if got := verdicts(res.Checks[0]); !reflect.DeepEqual(got, want) {
		t.Errorf("mutex, exclusive: %v, want %v", got, want)
	}

	// the per-property verdicts of one search that stopped at a violation
	res = run(t, "testdata/invariants-unsafe.bir", Task{Select: Selection{Names: []string{"inv", "inv2"}}})
	if len(res.Checks) != 1 || res.Verdict() != Fail {
		t.Fatalf("inv, inv2: %d checks, %s; want 1 check, fail", len(res.Checks), res.Verdict())
	}
	want = map[string]Verdict{"safety (assertions, runtime errors, deadlocks)": Inconclusive, "invariant inv": Inconclusive, "invariant inv2": Fail}
	if got := verdicts(res.Checks[0]); !reflect.DeepEqual(got, want) {
		t.Errorf("inv, inv2: %v, want %v", got, want)
	}

	// a name given twice is checked once
	res = run(t, examples+"/peterson.bir", Task{Select: Selection{Names: []string{"safety", "safety"}}})
	if len(res.Checks) != 1 || len(res.Checks[0].Properties) != 1 {
		t.Errorf("safety twice: %d checks", len(res.Checks))
	}
}

// TestInvariantViolationAttributed: an invariant's violation is that
// invariant's (inv2, not inv, whose name is a prefix of it); the other
// properties of the same search are not decided, not passed; the ltl
// property, searched on its own, passes.
func TestInvariantViolationAttributed(t *testing.T) {
	res := run(t, "testdata/invariants-unsafe.bir", Task{})
	if v := res.Verdict(); v != Fail || len(res.Checks) != 2 {
		t.Fatalf("verdict %s with %d checks, want fail with 2", v, len(res.Checks))
	}
	c := res.Checks[0]
	if c.Violated() == nil || c.Violated().Name != "inv2" || c.Violation.Kind != "invariant" {
		t.Fatalf("violated %v, want inv2", c.Violated())
	}
	for _, p := range c.Properties {
		v, why := c.PropertyVerdict(p)
		switch {
		case p.Name == "inv2" && v != Fail:
			t.Errorf("%s: %s, want fail", p.Title, v)
		case p.Name != "inv2" && (v != Inconclusive || why != "not decided: the search stopped at the violation of invariant inv2"):
			t.Errorf("%s: %s (%s), want inconclusive, not decided", p.Title, v, why)
		}
	}
	if v := res.Checks[1].Verdict(); v != Pass {
		t.Errorf("ltl settles: %s, want pass", v)
	}
	if d := res.Deciding(); d != c {
		t.Errorf("the deciding check is not the invariant's")
	}
}

// TestSelectionUsageErrors: a selection that does not fit the model is a
// *UsageError, before any search.
func TestSelectionUsageErrors(t *testing.T) {
	for _, tc := range []struct {
		path string
		task Task
		msg  string
	}{
		{examples + "/peterson.bir", Task{Select: Selection{Names: []string{"mutex", "nosuch"}}},
			"--property nosuch: the model has no property nosuch (its properties are invariant mutex, invariant exclusive, ltl safety, ltl mirrors, ltl flagged)"},
		{"testdata/choice-unsafe.bir", Task{Select: Selection{Names: []string{"p"}}},
			"--property p: the model has no property p (it has no properties section)"},
		{examples + "/peterson.bir", Task{Select: Selection{Names: []string{"mutex", "exclusive"}, Fair: true}},
			"--fair applies only to ltl properties; mutex is an invariant"},
		{"testdata/invariants-unsafe.bir", Task{Select: Selection{Fair: true, NoInvariants: true}},
			""}, // settles is ltl: fine
		{"testdata/choice-unsafe.bir", Task{Select: Selection{Fair: true}},
			"--fair applies only to ltl properties, and the model has none (give --ltl or --pattern)"},
		{examples + "/peterson.bir", Task{Select: Selection{Names: []string{"mutex"}, LTL: "[] true"}},
			"give only one of --property, --ltl and --pattern"},
		{examples + "/peterson.bir", Task{Select: Selection{Names: []string{"safety"}}, Search: search.Config{Strategy: search.BFS}},
			"ltl properties are checked by a depth-first search; --search=bfs does not apply"},
	} {
		tc.task.Input = load(t, tc.path)
		_, err := Run(&tc.task)
		if tc.msg == "" {
			if err != nil {
				t.Errorf("%s %+v: %v", tc.path, tc.task.Select, err)
			}
			continue
		}
		var ue *UsageError
		if !errors.As(err, &ue) || ue.Msg != tc.msg {
			t.Errorf("%s %+v: error %T %v, want usage error %q", tc.path, tc.task.Select, err, err, tc.msg)
		}
	}
}

// TestCommandLineFormula: --ltl checks only the formula, on the model
// parsed again with it inserted; an error in it is positioned in the
// formula.
func TestCommandLineFormula(t *testing.T) {
	res := run(t, examples+"/peterson.bir", Task{Select: Selection{LTL: "[] <> p0cs"}})
	if len(res.Checks) != 1 || res.Verdict() != Fail {
		t.Fatalf("--ltl=[]<>p0cs: %d checks, %s; want 1 check, fail", len(res.Checks), res.Verdict())
	}
	c := res.Checks[0]
	if p := c.Properties[0]; p.Name != "--ltl" || c.Violated() != p || c.Violation.Lasso == nil {
		t.Errorf("--ltl: property %+v, violated %v", p, c.Violated())
	}
	task := Task{Input: load(t, examples+"/peterson.bir"), Select: Selection{LTL: "[] nosuch"}}
	if _, err := Run(&task); err == nil || !strings.Contains(err.Error(), "--ltl:1:") {
		t.Errorf("--ltl=[] nosuch: %v, want an error at --ltl:1:COL", err)
	}
}
