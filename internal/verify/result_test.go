package verify

import "testing"

// TestNoPassFromIncompleteSearch: a pass cannot be constructed from an
// incomplete or under-approximating search: a check that explored every
// state it was to explore, without a violation, is still inconclusive
// when it rests on a bound or an under-approximation, alone or with other
// grounds; an over-approximation (an abstraction) allows a pass.
func TestNoPassFromIncompleteSearch(t *testing.T) {
	bases := []Basis{
		{Bounded, "--max-depth=3 cut paths"},
		{Bounded, "a bound of the model cut paths: collection Nodes is full (2 objects)"},
		{Bounded, "state limit reached (--max-states=2)"},
		{UnderApproximated, "--choose-free"},
	}
	for _, b := range bases {
		for _, r := range []RestsOn{{b}, {{Abstracted, "x: signs"}, b}, {b, {Abstracted, "x: signs"}}} {
			c := &Check{Explored: true, RestsOn: r}
			if v := c.Verdict(); v != Inconclusive {
				t.Errorf("explored check resting on %s: %s, want inconclusive", r, v)
			}
			p := &Property{Title: "invariant p"}
			c.Properties = []*Property{p}
			if v, _ := c.PropertyVerdict(p); v != Inconclusive {
				t.Errorf("explored check resting on %s: property %s, want inconclusive", r, v)
			}
		}
	}
	if v := (&Check{Explored: true}).Verdict(); v != Pass {
		t.Errorf("explored complete check: %s, want pass", v)
	}
	if v := (&Check{Explored: true, RestsOn: RestsOn{{Abstracted, "x: signs"}}}).Verdict(); v != Pass {
		t.Errorf("explored abstracted check: %s, want pass", v)
	}
	if v := (&Check{}).Verdict(); v != Inconclusive {
		t.Errorf("unexplored check: %s, want inconclusive", v)
	}
	if v := (&Check{Explored: true, Stopped: &Stop{PhaseSearch, "interrupted"}}).Verdict(); v != Inconclusive {
		t.Errorf("stopped check: %s, want inconclusive", v)
	}
	// a violation is conclusive only when its trail is confirmed on the
	// model as written, whatever the search rests on
	for _, r := range []RestsOn{nil, {{Bounded, "--max-depth=3 cut paths"}}, {{UnderApproximated, "--choose-free"}}, {{Abstracted, "x: signs"}}} {
		c := &Check{Explored: true, RestsOn: r, Violation: &Violation{Kind: "assertion"}}
		if v := c.Verdict(); v != Inconclusive {
			t.Errorf("unconfirmed violation resting on %s: %s, want inconclusive", r, v)
		}
		c.Violation.Confirmation.Confirmed = true
		if v := c.Verdict(); v != Fail {
			t.Errorf("confirmed violation resting on %s: %s, want fail", r, v)
		}
	}
}

// TestResultVerdictIsTheWorst: a run's verdict is the worst of its
// checks' (fail, then inconclusive, then pass), and Deciding is the first
// check with it; a run without checks decides nothing.
func TestResultVerdictIsTheWorst(t *testing.T) {
	pass := &Check{Explored: true}
	open := &Check{Explored: true, RestsOn: RestsOn{{Bounded, "--max-depth=3 cut paths"}}}
	fail := &Check{Violation: &Violation{Confirmation: Confirmation{Confirmed: true}}}
	unconfirmed := &Check{Violation: &Violation{}}
	for _, tc := range []struct {
		checks   []*Check
		want     Verdict
		deciding *Check
	}{
		{nil, Inconclusive, nil},
		{[]*Check{pass}, Pass, pass},
		{[]*Check{pass, pass}, Pass, pass},
		{[]*Check{pass, open}, Inconclusive, open},
		{[]*Check{open, pass}, Inconclusive, open},
		{[]*Check{pass, unconfirmed}, Inconclusive, unconfirmed},
		{[]*Check{pass, open, fail}, Fail, fail},
		{[]*Check{fail, open}, Fail, fail},
		{[]*Check{open, unconfirmed, pass, fail}, Fail, fail},
	} {
		r := &Result{Checks: tc.checks}
		if v := r.Verdict(); v != tc.want {
			t.Errorf("%d checks: %s, want %s", len(tc.checks), v, tc.want)
		}
		if d := r.Deciding(); d != tc.deciding {
			t.Errorf("%d checks, %s: deciding check %p, want %p", len(tc.checks), tc.want, d, tc.deciding)
		}
	}
}

// TestRestsOnString: the text of what a verdict rests on.
func TestRestsOnString(t *testing.T) {
	if s := RestsOn(nil).String(); s != "complete (exhaustive search of the model as written)" {
		t.Errorf("complete: %q", s)
	}
	r := RestsOn{{UnderApproximated, "--choose-free"}, {Bounded, "--max-depth=3 cut paths"}}
	if s := r.String(); s != "under-approximated (--choose-free); bounded (--max-depth=3 cut paths)" {
		t.Errorf("%q", s)
	}
}
