package search

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"birch/internal/bir/parser"
	"birch/internal/bir/types"
	"birch/internal/model"
	"birch/internal/source"
)

// loadModel compiles a BIR file with the default options.
func loadModel(t testing.TB, path string) *model.Model {
	t.Helper()
	return loadModelOpts(t, path, model.Options{})
}

// loadModelOpts compiles a BIR file with the given bounds.
func loadModelOpts(t testing.TB, path string, opts model.Options) *model.Model {
	t.Helper()
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	fset := source.NewFileSet()
	f, err := parser.ParseFile(fset, path, src, 0)
	if err != nil {
		t.Fatal(err)
	}
	prog, err := types.Check(fset, f, nil)
	if err != nil {
		t.Fatal(err)
	}
	m, err := model.New(prog, opts)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// expectation is the `// expect:` header line of an example.
type expectation struct {
	verdict Verdict
	kind    model.ErrorKind // for fail
}

// expectKinds maps the kind names of `// expect: fail KIND` to the
// engine's violation kinds.
var expectKinds = map[string]model.ErrorKind{
	"assert":   model.Assertion,
	"deadlock": model.Deadlock,
	"null":     model.NullDereference,
	"index":    model.IndexOutOfBounds,
	"divzero":  model.DivisionByZero,
	"range":    model.RangeError,
	"overflow": model.Overflow,
	"monitor":  model.IllegalMonitorState,
	"cast":     model.TypeError,
}

func readExpect(t testing.TB, path string) expectation {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		rest, ok := strings.CutPrefix(line, "// expect:")
		if !ok {
			continue
		}
		fields := strings.Fields(rest)
		switch {
		case len(fields) == 1 && fields[0] == "pass":
			return expectation{verdict: Pass}
		case len(fields) == 2 && fields[0] == "fail":
			k, ok := expectKinds[fields[1]]
			if !ok {
				t.Fatalf("%s: unknown kind in %q", path, line)
			}
			return expectation{verdict: Fail, kind: k}
		case len(fields) == 2 && fields[0] == "inconclusive" && fields[1] == "limit":
			return expectation{verdict: Inconclusive, kind: model.LimitReached}
		}
		t.Fatalf("%s: malformed expect line %q", path, line)
	}
	t.Fatalf("%s: no // expect: line", path)
	return expectation{}
}

type example struct {
	name   string // file name, e.g. peterson.bir
	path   string
	expect expectation
}

func examples(t testing.TB) []example {
	t.Helper()
	files, err := filepath.Glob("../../examples/*.bir")
	if err != nil {
		t.Fatal(err)
	}
	if len(files) < 20 {
		t.Fatalf("found only %d examples", len(files))
	}
	var exs []example
	for _, f := range files {
		exs = append(exs, example{name: filepath.Base(f), path: f, expect: readExpect(t, f)})
	}
	return exs
}

// strategy is one search order under test.
type strategy struct {
	name     string
	strategy Strategy
	seed     uint64
}

var strategies = []strategy{
	{"dfs", DFS, 0},
	{"bfs", BFS, 0},
	{"random-1", Random, 1},
	{"random-2", Random, 2},
	{"random-12345", Random, 12345},
}

func (s strategy) config() Config { return Config{Strategy: s.strategy, Seed: s.seed} }

// TestExampleVerdicts checks every example's verdict and violation kind
// against its `// expect:` line, for every strategy.
func TestExampleVerdicts(t *testing.T) {
	for _, ex := range examples(t) {
		t.Run(ex.name, func(t *testing.T) {
			t.Parallel()
			m := loadModel(t, ex.path)
			for _, st := range strategies {
				res := Run(m, st.config())
				checkExpect(t, st.name, ex.expect, res)
			}
		})
	}
}

func checkExpect(t *testing.T, what string, want expectation, res *Result) {
	t.Helper()
	if res.Verdict != want.verdict {
		t.Errorf("%s: verdict %v (%s), want %v", what, res.Verdict, res.Reason, want.verdict)
		return
	}
	switch want.verdict {
	case Pass:
		if res.Violation != nil || !res.Complete || len(res.LimitsHit) > 0 || res.Trail != nil {
			t.Errorf("%s: pass with violation %v, complete %v, limits %v, trail %v", what, res.Violation, res.Complete, res.LimitsHit, res.Trail)
		}
	case Fail:
		if res.Violation == nil {
			t.Errorf("%s: fail without a violation", what)
			return
		}
		if res.Violation.Kind != want.kind {
			t.Errorf("%s: violation %v (%s), want %v", what, res.Violation.Kind, res.Violation.Msg, want.kind)
		}
		if res.Complete {
			t.Errorf("%s: a failed search claims to be complete", what)
		}
		if !strings.HasPrefix(res.Reason, want.kind.String()) {
			t.Errorf("%s: reason %q does not name %v", what, res.Reason, want.kind)
		}
	case Inconclusive:
		if res.Violation != nil {
			t.Errorf("%s: inconclusive with violation %v", what, res.Violation)
		}
		if len(res.LimitsHit) == 0 {
			t.Errorf("%s: inconclusive (%s) but no limit was hit", what, res.Reason)
		}
		for _, h := range res.LimitsHit {
			if h.Count <= 0 || h.Msg == "" || !h.Pos.IsValid() {
				t.Errorf("%s: bad limit hit %+v", what, h)
			}
		}
		if !res.Complete {
			t.Errorf("%s: a search cut only by the model's bounds should be complete within them", what)
		}
		if !strings.Contains(res.Reason, "bound") {
			t.Errorf("%s: reason %q does not mention the bound", what, res.Reason)
		}
	}
}

// exhaustiveCounts are the numbers of states and transitions of a complete
// search of each example that has no violation. They were derived
// independently of this engine, by the Python reference interpreter:
// `python3 tools/birsim/bir.py examples/NAME.bir` (a breadth-first search
// over BIR.md's semantics, written without reference to the Go engine), and
// are recorded in docs/examples.md. A complete search stores the same states
// and generates the same transitions whatever its order.
var exhaustiveCounts = map[string]struct{ states, transitions int }{
	"msgqueue.bir":                 {69892, 147209},
	"philosophers-ordered.bir":     {43, 104},
	"bounded-buffer-notifyall.bir": {6504, 15849},
	"peterson.bir":                 {26, 44},
	"factorial.bir":                {357, 676},
	"choose.bir":                   {216, 350},
	"invisible.bir":                {5, 5},
	"dynamic-threads.bir":          {47, 83},
	"heap-list.bir":                {44, 51},
	"reentrant.bir":                {72, 108},
	"collection-limit.bir":         {5, 5},
}

// TestExampleCounts checks the exact state and transition counts of every
// example without a violation, for every strategy.
func TestExampleCounts(t *testing.T) {
	seen := map[string]bool{}
	for _, ex := range examples(t) {
		if ex.expect.verdict == Fail {
			continue
		}
		want, ok := exhaustiveCounts[ex.name]
		if !ok {
			t.Errorf("%s: no expected counts in the table (add them from docs/examples.md)", ex.name)
			continue
		}
		seen[ex.name] = true
		t.Run(ex.name, func(t *testing.T) {
			t.Parallel()
			m := loadModel(t, ex.path)
			for _, st := range strategies {
				res := Run(m, st.config())
				if res.Stats.States != want.states || res.Stats.Transitions != int64(want.transitions) {
					t.Errorf("%s: states=%d transitions=%d, want states=%d transitions=%d",
						st.name, res.Stats.States, res.Stats.Transitions, want.states, want.transitions)
				}
				if !res.Complete {
					t.Errorf("%s: search not complete (%s)", st.name, res.Reason)
				}
				if res.Stats.Memory <= 0 || res.Stats.Seconds < 0 {
					t.Errorf("%s: bad stats %+v", st.name, res.Stats)
				}
				if res.Stats.MaxDepth <= 0 || res.Stats.MaxDepth >= want.states {
					t.Errorf("%s: max depth %d out of range for %d states", st.name, res.Stats.MaxDepth, want.states)
				}
			}
		})
	}
	for name := range exhaustiveCounts {
		if !seen[name] {
			t.Errorf("%s is in the table but is not an example without violation", name)
		}
	}
}

// shortest is the result of an independent breadth-first exploration: for
// each violation kind, the length of the shortest trail to it.
type shortest map[model.ErrorKind]int

// shortestViolations explores the whole state space of m with a Go map and
// returns, for each violation kind, the length of the shortest trail: the
// depth of a state with an Error outcome of that kind plus one for the
// failing step, or for a deadlock the depth of a deadlocked state.
func shortestViolations(t *testing.T, m *model.Model, limitError bool) shortest {
	t.Helper()
	res := shortest{}
	note := func(k model.ErrorKind, n int) {
		if old, ok := res[k]; !ok || n < old {
			res[k] = n
		}
	}
	s0, fail := m.Initial(nil)
	if fail != nil {
		t.Fatalf("initial state: %s", fail.Msg)
	}
	depth := map[string]int{string(s0): 0}
	queue := [][]byte{s0}
	for len(queue) > 0 {
		s := queue[0]
		queue = queue[1:]
		d := depth[string(s)]
		n, done := m.Next(s, func(st *model.Step) {
			switch st.Outcome {
			case model.OK:
				if _, ok := depth[string(st.State)]; !ok {
					depth[string(st.State)] = d + 1
					queue = append(queue, bytes.Clone(st.State))
				}
			case model.Error:
				note(st.Kind, d+1)
			case model.Limit:
				if limitError {
					note(model.LimitReached, d+1)
				}
			}
		})
		if n == 0 && !done {
			note(model.Deadlock, d)
		}
		if len(depth) > 1_000_000 {
			t.Fatal("state space too large for the reference exploration")
		}
	}
	return res
}

// TestShortestTrails checks that BFS trails are shortest, and DFS and
// random trails no shorter, against an independent exploration.
func TestShortestTrails(t *testing.T) {
	for _, ex := range examples(t) {
		if ex.expect.verdict != Fail {
			continue
		}
		t.Run(ex.name, func(t *testing.T) {
			t.Parallel()
			m := loadModel(t, ex.path)
			sh := shortestViolations(t, m, false)
			want, ok := sh[ex.expect.kind]
			if !ok {
				t.Fatalf("the reference exploration finds no %v (found %v)", ex.expect.kind, sh)
			}
			t.Logf("shortest trails by kind: %v", sh)
			minAny := want
			for _, n := range sh {
				minAny = min(minAny, n)
			}
			for _, st := range strategies {
				res := Run(m, st.config())
				if res.Violation == nil {
					t.Errorf("%s: no violation (%s)", st.name, res.Reason)
					continue
				}
				if res.Violation.Kind != ex.expect.kind {
					t.Errorf("%s: violation %v, want %v", st.name, res.Violation.Kind, ex.expect.kind)
					continue
				}
				got := len(res.Trail)
				if st.strategy == BFS {
					if got != want {
						t.Errorf("bfs: trail of %d steps %v, shortest to a %v is %d", got, res.Trail, ex.expect.kind, want)
					}
					if got != minAny {
						t.Errorf("bfs: trail of %d steps, but some violation is %d steps away (%v)", got, minAny, sh)
					}
				} else if got < want {
					t.Errorf("%s: trail of %d steps %v is shorter than the shortest (%d)", st.name, got, res.Trail, want)
				}
			}
		})
	}
}

// checkReplay replays the trail of a failed search and checks that it ends
// in the violation reported.
func checkReplay(t *testing.T, what string, m *model.Model, res *Result) {
	t.Helper()
	v := res.Violation
	if v == nil {
		t.Errorf("%s: no violation to replay (%s)", what, res.Reason)
		return
	}
	init, steps, err := Replay(m, res.Trail)
	if err != nil {
		t.Errorf("%s: replay of %v: %v", what, res.Trail, err)
		return
	}
	if len(steps) != len(res.Trail) {
		t.Errorf("%s: replay gave %d steps for a trail of %d", what, len(steps), len(res.Trail))
		return
	}
	for i, s := range steps {
		if s.Step.Ordinal != res.Trail[i] {
			t.Errorf("%s: step %d has ordinal %d, trail says %d", what, i+1, s.Step.Ordinal, res.Trail[i])
		}
		if i < len(steps)-1 && s.Step.Outcome != model.OK {
			t.Errorf("%s: step %d is not a successor", what, i+1)
		}
		if i > 0 && !bytes.Equal(s.Before, steps[i-1].After) {
			t.Errorf("%s: step %d does not start where step %d ended", what, i+1, i)
		}
	}
	switch v.Kind {
	case model.Deadlock:
		if v.Thread != -1 {
			t.Errorf("%s: deadlock names thread %d", what, v.Thread)
		}
		if n := len(steps); n > 0 && steps[n-1].Step.Outcome != model.OK {
			t.Errorf("%s: deadlock trail ends in a %v step", what, steps[n-1].Step.Kind)
		}
		final := Final(init, steps)
		n, done := m.Next(final, func(*model.Step) {})
		if n != 0 || done {
			t.Errorf("%s: the trail's final state has %d outcomes, all done %v: not a deadlock", what, n, done)
		}
	default:
		if len(steps) == 0 {
			t.Errorf("%s: empty trail for %v", what, v.Kind)
			return
		}
		last := steps[len(steps)-1].Step
		wantOutcome := model.Error
		if v.Kind == model.LimitReached {
			wantOutcome = model.Limit
		} else if last.Kind != v.Kind {
			t.Errorf("%s: the last step fails with %v, violation is %v", what, last.Kind, v.Kind)
		}
		if last.Outcome != wantOutcome {
			t.Errorf("%s: the last step's outcome is %d, want %d", what, last.Outcome, wantOutcome)
		}
		if last.Msg != v.Msg || last.Pos != v.Pos || last.Thread != v.Thread || !slices.Equal(last.Groups, v.Groups) {
			t.Errorf("%s: the last step (%q at %v, thread %d, groups %v) is not the violation (%q at %v, thread %d, groups %v)",
				what, last.Msg, last.Pos, last.Thread, last.Groups, v.Msg, v.Pos, v.Thread, v.Groups)
		}
		if steps[len(steps)-1].After != nil {
			t.Errorf("%s: a failing step has a successor state", what)
		}
	}
}

// TestTrailsReplay checks that every trail replays to its violation.
func TestTrailsReplay(t *testing.T) {
	for _, ex := range examples(t) {
		if ex.expect.verdict != Fail {
			continue
		}
		t.Run(ex.name, func(t *testing.T) {
			t.Parallel()
			m := loadModel(t, ex.path)
			for _, st := range strategies {
				checkReplay(t, st.name, m, Run(m, st.config()))
			}
			// more random orders, more distinct trails
			for seed := uint64(100); seed < 120; seed++ {
				checkReplay(t, fmt.Sprintf("random-%d", seed), m, Run(m, Config{Strategy: Random, Seed: seed}))
			}
		})
	}
	t.Run("collection-limit.bir/on-limit-error", func(t *testing.T) {
		t.Parallel()
		m := loadModel(t, "../../examples/collection-limit.bir")
		sh := shortestViolations(t, m, true)
		for _, st := range strategies {
			cfg := st.config()
			cfg.LimitError = true
			res := Run(m, cfg)
			if res.Verdict != Fail || res.Violation == nil || res.Violation.Kind != model.LimitReached {
				t.Errorf("%s: verdict %v (%s), want a limit violation", st.name, res.Verdict, res.Reason)
				continue
			}
			checkReplay(t, st.name, m, res)
			if st.strategy == BFS && len(res.Trail) != sh[model.LimitReached] {
				t.Errorf("bfs: trail %v, shortest to the limit is %d steps", res.Trail, sh[model.LimitReached])
			}
		}
	})
	t.Run("testdata", func(t *testing.T) {
		t.Parallel()
		for _, f := range []string{"testdata/extern-fail.bir", "testdata/intern-fail.bir", "testdata/intern-later.bir"} {
			m := loadModel(t, f)
			for _, cf := range []bool{false, true} {
				for _, st := range strategies {
					cfg := st.config()
					cfg.ChooseFree = cf
					res := Run(m, cfg)
					if res.Verdict == Fail {
						checkReplay(t, fmt.Sprintf("%s %s choose-free=%v", f, st.name, cf), m, res)
					}
				}
			}
		}
	})
}

// TestRandomSeeds checks that a random search is a function of its seed,
// and that different seeds explore in different orders.
func TestRandomSeeds(t *testing.T) {
	for _, name := range []string{"peterson-broken.bir", "bounded-buffer-notify.bir", "philosophers-deadlock.bir", "msgqueue.bir"} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			m := loadModel(t, "../../examples/"+name)
			fail := readExpect(t, "../../examples/"+name).verdict == Fail
			for _, seed := range []uint64{0, 1, 42} {
				a := Run(m, Config{Strategy: Random, Seed: seed})
				b := Run(m, Config{Strategy: Random, Seed: seed})
				if !slices.Equal(a.Trail, b.Trail) || a.Verdict != b.Verdict || a.Reason != b.Reason {
					t.Errorf("seed %d: two runs differ: %v %v (%s) vs %v %v (%s)", seed, a.Verdict, a.Trail, a.Reason, b.Verdict, b.Trail, b.Reason)
				}
				if a.Stats.States != b.Stats.States || a.Stats.Transitions != b.Stats.Transitions ||
					a.Stats.MaxDepth != b.Stats.MaxDepth || a.Stats.Memory != b.Stats.Memory {
					t.Errorf("seed %d: two runs have different stats: %+v vs %+v", seed, a.Stats, b.Stats)
				}
			}
			if !fail {
				return
			}
			trails := map[string][]uint64{}
			for seed := uint64(0); seed < 16; seed++ {
				r := Run(m, Config{Strategy: Random, Seed: seed})
				trails[fmt.Sprint(r.Trail)] = append(trails[fmt.Sprint(r.Trail)], seed)
			}
			if len(trails) < 2 {
				t.Errorf("16 seeds all give the same trail: %v", trails)
			}
			// the random order is not DFS's order for every seed
			d := Run(m, Config{Strategy: DFS})
			same := 0
			for seed := uint64(0); seed < 16; seed++ {
				r := Run(m, Config{Strategy: Random, Seed: seed})
				if slices.Equal(r.Trail, d.Trail) && r.Stats.States == d.Stats.States {
					same++
				}
			}
			if same == 16 {
				t.Errorf("every random search behaves exactly like DFS")
			}
		})
	}
}

// TestLimits checks that the resource limits end a search inconclusive,
// with statistics.
func TestLimits(t *testing.T) {
	msgqueue := loadModel(t, "../../examples/msgqueue.bir")
	peterson := loadModel(t, "../../examples/peterson.bir")

	inconclusive := func(t *testing.T, what string, res *Result, reason string) {
		t.Helper()
		if res.Verdict != Inconclusive {
			t.Errorf("%s: verdict %v (%s), want inconclusive", what, res.Verdict, res.Reason)
		}
		if res.Complete {
			t.Errorf("%s: a stopped search claims to be complete", what)
		}
		if res.Violation != nil || res.Trail != nil {
			t.Errorf("%s: violation %v, trail %v", what, res.Violation, res.Trail)
		}
		if !strings.Contains(res.Reason, reason) {
			t.Errorf("%s: reason %q does not contain %q", what, res.Reason, reason)
		}
		if res.Stats.States < 1 || res.Stats.Memory <= 0 || res.Stats.Seconds < 0 {
			t.Errorf("%s: bad stats %+v", what, res.Stats)
		}
	}

	t.Run("max-states", func(t *testing.T) {
		for _, st := range strategies {
			cfg := st.config()
			cfg.MaxStates = 100
			res := Run(msgqueue, cfg)
			inconclusive(t, st.name, res, "--max-states=100")
			// the limit is checked before each expansion, which may add a
			// few states more
			if res.Stats.States < 100 || res.Stats.States > 150 {
				t.Errorf("%s: %d states stored with --max-states=100", st.name, res.Stats.States)
			}
			if res.Stats.Transitions < 99 {
				t.Errorf("%s: only %d transitions for %d states", st.name, res.Stats.Transitions, res.Stats.States)
			}
		}
		// a bound above the state count does not change a complete search
		for _, st := range strategies {
			cfg := st.config()
			cfg.MaxStates = 27
			res := Run(peterson, cfg)
			if res.Verdict != Pass || res.Stats.States != 26 || res.Stats.Transitions != 44 {
				t.Errorf("%s: --max-states=27 on peterson: %v (%s), %+v", st.name, res.Verdict, res.Reason, res.Stats)
			}
		}
	})

	t.Run("time-limit", func(t *testing.T) {
		for _, m := range []*model.Model{msgqueue, peterson} {
			for _, st := range strategies {
				cfg := st.config()
				cfg.TimeLimit = time.Nanosecond
				inconclusive(t, st.name, Run(m, cfg), "time limit")
			}
		}
	})

	t.Run("max-memory", func(t *testing.T) {
		for _, m := range []*model.Model{msgqueue, peterson} {
			for _, st := range strategies {
				cfg := st.config()
				cfg.MaxMemory = 1
				inconclusive(t, st.name, Run(m, cfg), "memory limit")
			}
		}
	})

	t.Run("max-depth", func(t *testing.T) {
		for _, st := range strategies {
			cfg := st.config()
			cfg.MaxDepth = 3
			res := Run(peterson, cfg)
			inconclusive(t, st.name, res, "--max-depth=3")
			if res.Stats.MaxDepth > 3 {
				t.Errorf("%s: max depth %d with --max-depth=3", st.name, res.Stats.MaxDepth)
			}
			if res.Stats.States >= 26 {
				t.Errorf("%s: %d states with --max-depth=3", st.name, res.Stats.States)
			}
		}
		// a bound no path reaches does not change a complete search
		for _, st := range strategies {
			cfg := st.config()
			cfg.MaxDepth = 1000
			res := Run(peterson, cfg)
			if res.Verdict != Pass || !res.Complete || res.Stats.States != 26 || res.Stats.Transitions != 44 {
				t.Errorf("%s: --max-depth=1000 on peterson: %v (%s), %+v", st.name, res.Verdict, res.Reason, res.Stats)
			}
		}
		// a violation within the bound is still found; BFS finds it with
		// the bound set to the length of the shortest trail
		m := loadModel(t, "../../examples/peterson-broken.bir")
		want := shortestViolations(t, m, false)[model.Assertion]
		res := Run(m, Config{Strategy: BFS, MaxDepth: want})
		if res.Verdict != Fail || len(res.Trail) != want {
			t.Errorf("bfs --max-depth=%d on peterson-broken: %v (%s), trail %v", want, res.Verdict, res.Reason, res.Trail)
		}
		res = Run(m, Config{Strategy: BFS, MaxDepth: want - 1})
		inconclusive(t, fmt.Sprintf("bfs --max-depth=%d on peterson-broken", want-1), res, "max-depth")
	})

	t.Run("stop", func(t *testing.T) {
		var stop atomic.Bool
		stop.Store(true)
		for _, m := range []*model.Model{msgqueue, peterson} {
			for _, st := range strategies {
				cfg := st.config()
				cfg.Stop = &stop
				res := Run(m, cfg)
				inconclusive(t, st.name, res, "interrupted")
				if res.Reason != "interrupted" {
					t.Errorf("%s: reason %q, want %q", st.name, res.Reason, "interrupted")
				}
			}
		}
	})

	t.Run("choose-free", func(t *testing.T) {
		m := loadModel(t, "../../examples/choose.bir")
		for _, st := range strategies {
			cfg := st.config()
			cfg.ChooseFree = true
			res := Run(m, cfg)
			if res.Verdict != Inconclusive || res.Violation != nil || res.Complete {
				t.Errorf("%s: choose-free on choose.bir: %v complete %v (%s)", st.name, res.Verdict, res.Complete, res.Reason)
			}
			if !strings.Contains(res.Reason, "choose-free") {
				t.Errorf("%s: reason %q does not mention choose-free", st.name, res.Reason)
			}
			if res.Stats.States >= 216 || res.Stats.Transitions >= 350 {
				t.Errorf("%s: choose-free explored the whole space: %+v", st.name, res.Stats)
			}
		}

		cases := []struct {
			file       string
			chooseFree Verdict
		}{
			{"testdata/extern-fail.bir", Fail},         // externChoose stays allowed
			{"testdata/intern-fail.bir", Inconclusive}, // the failure needs an internChoose
			{"testdata/intern-later.bir", Fail},        // another thread's internChoose is avoided
			{"testdata/forall-fail.bir", Inconclusive}, // forall is a choice of M_D too
			{"testdata/reachable-fail.bir", Inconclusive},
		}
		for _, c := range cases {
			m := loadModel(t, c.file)
			for _, st := range strategies {
				res := Run(m, st.config())
				if res.Verdict != Fail || res.Violation.Kind != model.Assertion {
					t.Errorf("%s %s: verdict %v (%s), want fail", c.file, st.name, res.Verdict, res.Reason)
				}
				cfg := st.config()
				cfg.ChooseFree = true
				res = Run(m, cfg)
				if res.Verdict != c.chooseFree {
					t.Errorf("%s %s choose-free: verdict %v (%s), want %v", c.file, st.name, res.Verdict, res.Reason, c.chooseFree)
					continue
				}
				if res.Verdict == Fail {
					if res.Violation.Kind != model.Assertion {
						t.Errorf("%s %s choose-free: violation %v", c.file, st.name, res.Violation.Kind)
					}
					_, steps, err := Replay(m, res.Trail)
					if err != nil {
						t.Errorf("%s %s choose-free: replay: %v", c.file, st.name, err)
					}
					for i, s := range steps {
						if s.Step.Intern {
							t.Errorf("%s %s choose-free: step %d of the trail executes an internChoose", c.file, st.name, i+1)
						}
					}
				} else if res.Complete || !strings.Contains(res.Reason, "choose-free") {
					t.Errorf("%s %s choose-free: complete %v, reason %q", c.file, st.name, res.Complete, res.Reason)
				}
			}
		}
	})

	t.Run("no-deadlock", func(t *testing.T) {
		// with deadlock detection off, these models have no other
		// violation: a complete search passes. The counts are the Python
		// reference interpreter's (it counts deadlocked states but keeps
		// exploring): philosophers-deadlock 88 states, 220 transitions;
		// bounded-buffer-notify 8765 states, 19865 transitions.
		for _, c := range []struct {
			name                string
			states, transitions int
		}{
			{"philosophers-deadlock.bir", 88, 220},
			{"bounded-buffer-notify.bir", 8765, 19865},
		} {
			m := loadModel(t, "../../examples/"+c.name)
			for _, st := range strategies {
				cfg := st.config()
				cfg.NoDeadlock = true
				res := Run(m, cfg)
				if res.Verdict != Pass || !res.Complete || res.Violation != nil {
					t.Errorf("%s %s no-deadlock: %v (%s)", c.name, st.name, res.Verdict, res.Reason)
				}
				if res.Stats.States != c.states || res.Stats.Transitions != int64(c.transitions) {
					t.Errorf("%s %s no-deadlock: states=%d transitions=%d, want %d %d",
						c.name, st.name, res.Stats.States, res.Stats.Transitions, c.states, c.transitions)
				}
			}
		}
	})
}

// TestInitialStateLimit checks a model whose initial state cannot be
// created: peterson.bir has two main threads, and a pool of one thread
// cannot hold them.
func TestInitialStateLimit(t *testing.T) {
	m := loadModelOpts(t, "../../examples/peterson.bir", model.Options{MaxThreads: 1})
	if _, fail := m.Initial(nil); fail == nil || fail.Outcome != model.Limit {
		t.Fatalf("Initial with one thread for two main threads: %+v", fail)
	}
	for _, st := range strategies {
		res := Run(m, st.config())
		if res.Verdict != Inconclusive || !res.Complete || res.Violation != nil || len(res.LimitsHit) != 1 || res.LimitsHit[0].Count != 1 {
			t.Errorf("%s: %v complete %v (%s), violation %v, limits %+v", st.name, res.Verdict, res.Complete, res.Reason, res.Violation, res.LimitsHit)
		}
		if res.Stats.States != 0 || res.Stats.Transitions != 0 {
			t.Errorf("%s: stats %+v, want no states and no transitions", st.name, res.Stats)
		}

		cfg := st.config()
		cfg.LimitError = true
		res = Run(m, cfg)
		if res.Verdict != Fail || res.Violation == nil || res.Violation.Kind != model.LimitReached || len(res.Trail) != 0 {
			t.Errorf("%s --on-limit=error: %v (%s), violation %+v, trail %v", st.name, res.Verdict, res.Reason, res.Violation, res.Trail)
			continue
		}
		if !strings.Contains(res.Violation.Msg, "thread") || !res.Violation.Pos.IsValid() {
			t.Errorf("%s --on-limit=error: violation %+v", st.name, res.Violation)
		}
		if _, steps, err := Replay(m, res.Trail); err != nil || len(steps) != 0 {
			t.Errorf("%s --on-limit=error: replay of the empty trail: %v, %d steps", st.name, err, len(steps))
		}
	}
}
