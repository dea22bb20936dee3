package amcs

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"birch/internal/abstraction/predicate"
	"birch/internal/bir/types"
	"birch/internal/model"
	"birch/internal/search"
)

// fig21 is Figure 2.1 of the thesis (x := 0; y := 0; while (y >= 0)
// y := x + y;) with x's initial value and y's type as parameters; with
// x = 0 it loops forever on one state, which is finite.
func fig21(x int, yType string) string {
	return fmt.Sprintf(`system Fig21()
  x : int;
  y : %s;
  main thread M()
    loc l0: when true do { x := %d; y := 0; } goto l1;
    loc l1: when y >= 0 do { } goto l2;
            when y < 0 do { } goto l3;
    loc l2: when true do { y := x + y; } goto l1;
    loc l3:
  end M;
end Fig21;
`, yType, x)
}

// Figure 2.1 terminates under each GeneralSplitting heuristic: as written
// (x = 0) with a pass and as many abstract states as concrete ones; with
// x = 1 and y of a range type, y runs out of its range, and every heuristic
// finds that violation with a trail that replays.
func TestFigure21(t *testing.T) {
	lit := compile(t, fig21(0, "int"))
	want := bfsStates(t, lit)
	wrap := compile(t, fig21(1, "range 0..20"))
	for _, v := range splitting {
		res := Run(lit, lit, Config{Variant: v})
		if res.Verdict != search.Pass || res.Rounds[len(res.Rounds)-1].AbstractStates != want {
			t.Errorf("%v, x = 0: %v %s, want pass with %d states", v, res.Verdict, res.Reason, want)
		}
		res = Run(wrap, wrap, Config{Variant: v, Seed: 7})
		if res.Verdict != search.Fail || res.Violation.Kind != model.RangeError {
			t.Fatalf("%v, x = 1: %v %s, want a range error", v, res.Verdict, res.Reason)
		}
		checkTrail(t, wrap, res)
		// the trail goes round the loop 20 times: the shortest one
		if len(res.Trail) != 1+2*21 {
			t.Errorf("%v: trail of %d steps, want %d", v, len(res.Trail), 1+2*21)
		}
		t.Logf("%v: %d rounds, predicates %v", v, len(res.Rounds), res.Predicates)
	}
}

// errSrc has two counters moved by two threads and an assertion that fails
// when b == B and a == A, which no early round reaches (both threads stay
// at one location, so with no predicates every state is one abstract
// state).
func errSrc(a, b int) string {
	return fmt.Sprintf(`system Err()
  a : range 0..7;
  b : range 0..7;
  main thread TA()
    loc s: when a < 7 do { a := a + 1; } goto s;
           when a == 7 do { } goto e;
    loc e:
  end TA;
  main thread TB()
    loc s: when b < 7 do { b := b + 1; } goto s;
           when b == %d do { assert(a != %d); } goto s;
           when b == 7 do { } goto e;
    loc e:
  end TB;
end Err;
`, b, a)
}

// A model with a reachable error never gets a pass: every heuristic finds
// the violation, whose trail replays to the assertion; the error's place is
// drawn at random.
func TestSplittingFindsErrors(t *testing.T) {
	rng := rand.New(rand.NewPCG(21, 21))
	for i := 0; i < 6; i++ {
		a, b := rng.IntN(8), rng.IntN(7)
		m := compile(t, errSrc(a, b))
		for _, v := range splitting {
			res := Run(m, m, Config{Variant: v, Seed: uint64(i)})
			if res.Verdict != search.Fail || res.Violation.Kind != model.Assertion {
				t.Fatalf("a=%d b=%d %v: %v %s", a, b, v, res.Verdict, res.Reason)
			}
			checkTrail(t, m, res)
			if len(res.Rounds) < 2 {
				t.Errorf("a=%d b=%d %v: found in round 1", a, b, v)
			}
		}
	}
}

const deadlockSrc = `system D()
  x : range 0..5;
  main thread M()
    loc s: when x < 5 do { x := x + 1; } goto s;
  end M;
end D;
`

// A state with no outcome whose threads have not all terminated is a
// deadlock, with a trail to it; with NoDeadlock the search is exact.
func TestDeadlock(t *testing.T) {
	m := compile(t, deadlockSrc)
	for _, v := range splitting {
		res := Run(m, m, Config{Variant: v})
		if res.Verdict != search.Fail || res.Violation.Kind != model.Deadlock || len(res.Trail) != 5 {
			t.Fatalf("%v: %v %v %v", v, res.Verdict, res.Violation, res.Trail)
		}
		checkTrail(t, m, res)
		res = Run(m, m, Config{Variant: v, NoDeadlock: true})
		if res.Verdict != search.Pass || res.Rounds[len(res.Rounds)-1].AbstractStates != 6 {
			t.Fatalf("%v, no deadlock: %v %s", v, res.Verdict, res.Reason)
		}
	}
}

const invariantSrc = `system I()
  x : range 0..9;
  y : range 0..9;
  main thread M()
    loc s: when x < 9 do { x := x + 1; } goto s;
           when x > 0 do { y := x; x := 0; } goto s;
  end M;
properties
  invariant small: y != 7;
end I;
`

// An invariant, through search.WithStateCheck: its violation is an Error
// outcome of the step into the violating state, found whether or not that
// state's abstract state was seen, and the trail replays on the wrapped
// model.
func TestInvariant(t *testing.T) {
	m := compile(t, invariantSrc)
	var props []*types.Property
	for _, p := range m.Program().Properties {
		props = append(props, p)
	}
	inv, err := search.NewInvariants(m, props)
	if err != nil {
		t.Fatal(err)
	}
	sm := search.WithStateCheck(m, inv)
	for _, v := range splitting {
		res := Run(m, sm, Config{Variant: v})
		if res.Verdict != search.Fail || res.Violation.Kind != model.InvariantViolated {
			t.Fatalf("%v: %v %s", v, res.Verdict, res.Reason)
		}
		checkTrail(t, sm, res)
	}
}

const limitSrc = `system L()
  Node = record { val : int; };
  Nodes : collection [2] of Node;
  NodeRef = ref Node {Nodes};
  size : range 0..3;
  main thread B()
    n : NodeRef;
    loc b0: when true do { n := new Nodes; size := size + 1; } goto b0;
  end B;
end L;
`

// A Limit outcome makes the round not exact: the run is inconclusive and
// lists the limit; with LimitError it is a violation with a trail.
func TestLimitOutcome(t *testing.T) {
	m := compile(t, limitSrc)
	for _, v := range splitting {
		res := Run(m, m, Config{Variant: v})
		if res.Verdict != search.Inconclusive || len(res.LimitsHit) == 0 || res.Exact {
			t.Fatalf("%v: %v %s %v", v, res.Verdict, res.Reason, res.LimitsHit)
		}
		if !strings.Contains(res.Reason, "under-approximation") {
			t.Errorf("%v: reason %q", v, res.Reason)
		}
		res = Run(m, m, Config{Variant: v, LimitError: true})
		if res.Verdict != search.Fail || res.Violation.Kind != model.LimitReached {
			t.Fatalf("%v, limit error: %v %s", v, res.Verdict, res.Reason)
		}
		checkTrail(t, m, res)
	}
}

// Limits of the run: each ends it inconclusive, saying why, never pass.
func TestRunLimits(t *testing.T) {
	m := compile(t, errSrc(5, 3))
	stop := &atomic.Bool{}
	stop.Store(true)
	for _, tc := range []struct {
		cfg  Config
		want string
	}{
		{Config{MaxStates: 3}, "state limit reached (--max-states=3)"},
		{Config{Stop: stop}, "interrupted"},
		{Config{TimeLimit: time.Nanosecond}, "time limit reached"},
		{Config{MaxMemory: 1}, "memory limit reached"},
		{Config{MaxRounds: 2}, "round bound (2)"},
	} {
		for _, v := range splitting {
			tc.cfg.Variant = v
			res := Run(m, m, tc.cfg)
			if res.Verdict != search.Inconclusive || !strings.Contains(res.Reason, tc.want) {
				t.Errorf("%v %+v: %v %q, want inconclusive: %s", v, tc.cfg, res.Verdict, res.Reason, tc.want)
			}
			if tc.cfg.MaxRounds == 0 && res.Stopped == "" {
				t.Errorf("%v %+v: Stopped not set", v, tc.cfg)
			}
			if tc.cfg.MaxRounds == 2 && len(res.Rounds) != 2 {
				t.Errorf("%v: %d rounds, want 2", v, len(res.Rounds))
			}
		}
	}
}

// The callbacks: Visit sees every generated concrete state (the rounds'
// Generated add up to its calls), depths are trail lengths (the initial
// state at 0, at most one more than the round's deepest so far); Round is
// called once per round, in order, and the rounds' Added are the
// predicates.
func TestCallbacks(t *testing.T) {
	m := compile(t, errSrc(5, 3))
	for _, v := range splitting {
		var visits int64
		var rounds []Round
		lastRound, maxDepth := 0, 0
		cfg := Config{Variant: v,
			Visit: func(state []byte, depth int, c Counters) {
				visits++
				if c.Round != lastRound {
					lastRound, maxDepth = c.Round, 0
					if depth != 0 {
						t.Fatalf("round %d starts at depth %d", c.Round, depth)
					}
				}
				if depth > maxDepth+1 {
					t.Fatalf("depth %d after %d: not breadth-first", depth, maxDepth)
				}
				if depth > maxDepth {
					maxDepth = depth
				}
				if c.Generated != visits {
					t.Fatalf("Generated %d after %d visits", c.Generated, visits)
				}
			},
			Round: func(r Round) { rounds = append(rounds, r) },
		}
		res := Run(m, m, cfg)
		if len(rounds) != len(res.Rounds) {
			t.Fatalf("%v: %d Round calls, %d rounds", v, len(rounds), len(res.Rounds))
		}
		var gen int64
		var added []string
		for i, r := range rounds {
			if r.N != i+1 || r.Generated == 0 || r.AbstractStates == 0 {
				t.Errorf("%v: round %d: %+v", v, i+1, r)
			}
			if i > 0 && r.Predicates != rounds[i-1].Predicates+len(rounds[i-1].Added) {
				t.Errorf("%v: round %d has %d predicates after %d + %d", v, r.N, r.Predicates, rounds[i-1].Predicates, len(rounds[i-1].Added))
			}
			gen += r.Generated
			added = append(added, r.Added...)
		}
		if gen != visits {
			t.Errorf("%v: rounds generated %d, Visit called %d times", v, gen, visits)
		}
		if len(added) != len(res.Predicates) {
			t.Errorf("%v: added %v, predicates %v", v, added, res.Predicates)
		}
	}
}

// GeneralSplitting starts from initial expression predicates (Algorithm 3
// takes Φ): they are in every round's count and among the final
// predicates, and the exact round still has the concrete state count.
func TestSplittingInitialPredicates(t *testing.T) {
	m := compileFile(t, "../../bench/models/small/counters.bir")
	want := bfsStates(t, m)
	f, err := predicate.ParseFile(m.Program(), "p.preds", []byte("cnt[0] > 1\ncnt[1] == 0\n"))
	if err != nil {
		t.Fatal(err)
	}
	for _, v := range splitting {
		res := Run(m, m, Config{Variant: v, Predicates: f.Predicates})
		if res.Verdict != search.Pass || res.Rounds[len(res.Rounds)-1].AbstractStates != want {
			t.Fatalf("%v: %v %s", v, res.Verdict, res.Reason)
		}
		if res.Rounds[0].Predicates != 2 || len(res.Predicates) < 2 || res.Predicates[0] != "cnt[0] > 1" {
			t.Errorf("%v: first round %d predicates, final %v", v, res.Rounds[0].Predicates, res.Predicates)
		}
		bare := Run(m, m, Config{Variant: v})
		if res.Rounds[0].AbstractStates <= bare.Rounds[0].AbstractStates {
			t.Errorf("%v: round 1 has %d abstract states with the predicates, %d without", v, res.Rounds[0].AbstractStates, bare.Rounds[0].AbstractStates)
		}
	}
}

// memRefiner is a refiner that only reports its memory.
type memRefiner struct{ bytes int64 }

func (r *memRefiner) appendKey(key, state []byte) []byte { return key }
func (r *memRefiner) expand(state []byte)                {}
func (r *memRefiner) step(src []byte, st *model.Step)    {}
func (r *memRefiner) refine(round int) ([]string, error) { return nil, nil }
func (r *memRefiner) predicates() []string               { return nil }
func (r *memRefiner) solverQueries() int                 { return 0 }
func (r *memRefiner) memory() int64                      { return r.bytes }

// --max-memory counts what a refiner says it holds.
func TestRefinerMemory(t *testing.T) {
	m := compile(t, errSrc(5, 3))
	saved := refiners[NoTP]
	defer func() { refiners[NoTP] = saved }()
	for _, held := range []int64{0, 1 << 40} {
		refiners[NoTP] = func(*model.Model, *Config) (refiner, error) { return &memRefiner{held}, nil }
		res := Run(m, m, Config{Variant: NoTP, MaxMemory: 1 << 30})
		limited := strings.Contains(res.Reason, "memory limit reached")
		if limited != (held > 0) || res.Verdict != search.Inconclusive {
			t.Errorf("refiner holding %d bytes: %v %s", held, res.Verdict, res.Reason)
		}
	}
}
