package data

import (
	"strings"
	"testing"
	"time"

	"birch/internal/procgroup/proctest"
)

// TestQueryTimeoutBackstop: a z3 that never answers a query does not hang
// the synthesis when no time limit is set: the query's wall-clock backstop
// ends it, the tokens it would have decided stay undecided (sound), and the
// abstraction says the solver failed.
func TestQueryTimeoutBackstop(t *testing.T) {
	pidFile := proctest.HungZ3(t)

	l := &Library{Config: Config{Solver: "z3", QueryTimeout: 200 * time.Millisecond}}
	done := make(chan struct{})
	var a *Abstraction
	var err error
	go func() {
		defer close(done)
		a, err = l.Lookup("signs")
	}()
	select {
	case <-done:
	case <-time.After(30 * time.Second):
		t.Fatal("the synthesis with a z3 that never answers did not end within 30 s")
	}
	switch {
	case err != nil:
		// The compilation's own questions (does the abstraction function
		// cover every integer?) came back unknown: the abstraction is
		// refused, which is as sound as undecided tokens.
		if !strings.Contains(err.Error(), "unknown") {
			t.Errorf("error %v does not say the solver answered unknown", err)
		}
	default:
		if !strings.Contains(a.Warnings.Error(), "the solver failed") {
			t.Errorf("no warning that the solver failed: %v", a.Warnings)
		}
		undecided := false
		for _, tab := range a.Ops {
			for _, cell := range tab.Cells {
				if cell.Undecided.Len() > 0 {
					undecided = true
				}
			}
		}
		if !undecided {
			t.Errorf("no token is undecided although the solver never answered")
		}
	}
	if proctest.AliveInFile(t, pidFile) {
		t.Errorf("z3's helper still runs after the synthesis")
	}
}
