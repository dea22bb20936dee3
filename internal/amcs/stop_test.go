package amcs

import (
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"birch/internal/abstraction/predicate"
	"birch/internal/model"
	"birch/internal/search"
)

// A refiner whose run was stopped (Config.Stop: Ctrl-C, the memory watch,
// the time limit of the command) or is past Config.TimeLimit makes no more
// solver queries and adds nothing: the search looks at the limits between
// expansions only, and one expansion of a round with thousands of
// predicates made thousands of queries past the limit (--time-limit 8s
// ended after 17 s). The same step of a run not stopped is checked.
func TestRefinerStopsWithRun(t *testing.T) {
	for _, tc := range []struct {
		name      string
		stop      bool
		timeLimit time.Duration
	}{{"running", false, 0}, {"stopped", true, 0}, {"past the time limit", false, time.Nanosecond}} {
		m := compile(t, countSrc)
		f, err := predicate.ParseFile(m.Program(), "test.pred", []byte("x < 5\n"))
		if err != nil {
			t.Fatal(err)
		}
		stop := new(atomic.Bool)
		ref, err := newWPRefiner(m, &Config{Variant: AMCS, Predicates: f.Predicates, Stop: stop, TimeLimit: tc.timeLimit})
		if err != nil {
			t.Fatal(err)
		}
		r := ref.(*wpRefiner)
		defer r.close()
		stop.Store(tc.stop)
		time.Sleep(time.Millisecond)
		s := walk(t, m, 0, 0, 0, 0) // x = 4: x < 5 is not preserved
		r.expand(s)
		m.Next(s, func(st *model.Step) {
			if st.Outcome == model.OK {
				r.step(s, st)
			}
		})
		busy := r.queries > 0 || len(r.next) > 0
		if busy != (tc.name == "running") {
			t.Errorf("%s: %d solver queries, %d predicates proposed", tc.name, r.queries, len(r.next))
		}
	}
}

// No-TP's predicates stop changing when the weakest preconditions it
// proposes are too large to add (x := x + x doubles x > 500's each
// round): the reason says some were left out, not that every weakest
// precondition is a predicate already.
func TestNoTPStableLargeLeftOut(t *testing.T) {
	m := compile(t, `system D ()
  x : int := 1;
  main thread M ()
    loc l0: when x < 1000 do { x := x + x; } goto l0;
  end M;
end D;
`)
	f, err := predicate.ParseFile(m.Program(), "d.pred", []byte("x > 500\n"))
	if err != nil {
		t.Fatal(err)
	}
	res := Run(m, m, Config{Variant: NoTP, Predicates: f.Predicates, MaxRounds: 30})
	if res.Verdict != search.Inconclusive || !strings.Contains(res.Reason, "stopped changing") || !strings.Contains(res.Reason, "left out") {
		t.Errorf("%v: %s", res.Verdict, res.Reason)
	}
}
