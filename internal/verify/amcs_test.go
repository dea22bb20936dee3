package verify

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"birch/internal/amcs"
	"birch/internal/model"
	"birch/internal/search"
	"birch/internal/testenv"
)

// allVariants are the variants of --amcs.
var allVariants = []amcs.Variant{amcs.AMCS, amcs.AddAll, amcs.NoTP, amcs.MaxOverlap, amcs.MinSet, amcs.MinOnly}

// splitting reports whether v is one of GeneralSplitting's variants, which
// end on every finite model (Kudra's Theorem 1).
func splitting(v amcs.Variant) bool {
	return v == amcs.MaxOverlap || v == amcs.MinSet || v == amcs.MinOnly
}

// amcsTask is a task that checks with variant v; the variants with weakest
// preconditions may not end (Kudra's Figure 2.1): their rounds are bounded.
// Its limits are armed as birch check arms them (a time limit, so that a
// test never hangs); the caller releases them.
func amcsTask(v amcs.Variant, cfg search.Config) (Task, func()) {
	a := &AMCS{Variant: v, Seed: 1}
	if !splitting(v) {
		a.MaxRounds = 8
	}
	cfg.TimeLimit, cfg.MaxMemory = 10*time.Second, 2<<30
	lim := StartLimits(&cfg)
	return Task{AMCS: a, Search: cfg, Limits: lim}, lim.Release
}

// amcsReplayed checks that c's violation is confirmed and its trail, saved as
// birch check --trail saves it, replays on the model compiled afresh to
// the violation it records.
func amcsReplayed(t *testing.T, what string, in *Input, c *Check) {
	t.Helper()
	v := c.Violation
	if v == nil || !v.Confirmation.Confirmed || v.Ordinals == nil {
		t.Errorf("%s: violation %+v, want a confirmed one with a trail", what, v)
		return
	}
	m := compile(t, in, model.Options{ExposeInvisible: v.ExposeInvisible})
	r := ReplayTrail(in, m, savedTrail(c))
	if r.Verdict() != Fail || r.Mismatch != "" || len(r.Steps) != len(v.Trail) {
		t.Errorf("%s: the trail of %d steps does not replay to its violation %q: %d steps, end %d, mismatch %q",
			what, len(v.Trail), v.Message, len(r.Steps), r.End, r.Mismatch)
	}
}

// TestAMCSViolationsReplay: every variant finds the violation of models
// with each kind of reachable violation (an assertion, a deadlock, a
// runtime error, an invariant, one that needs refinement: the variants
// with weakest preconditions within 8 rounds); every violation is
// confirmed and its trail replays on the model as written.
func TestAMCSViolationsReplay(t *testing.T) {
	models := []struct {
		path string
		sel  Selection
	}{
		{examples + "/peterson-broken.bir", Selection{}},
		{examples + "/philosophers-deadlock.bir", Selection{}},
		{examples + "/divzero.bir", Selection{}},
		{examples + "/index-error.bir", Selection{}},
		{"testdata/invariants-unsafe.bir", Selection{Names: []string{"inv2"}}},
		{"testdata/counter-unsafe-amcs.bir", Selection{}},
	}
	for _, v := range allVariants {
		for _, tc := range models {
			what := fmt.Sprintf("--amcs=%s %s", v, tc.path)
			task, release := amcsTask(v, search.Config{})
			task.Select = tc.sel
			res := run(t, tc.path, task)
			release()
			c := res.Checks[0]
			if c.AMCS == nil || c.AMCS.Variant != v.String() {
				t.Fatalf("%s: the check has no AMCS details of its variant: %+v", what, c.AMCS)
			}
			if c.Verdict() != Fail {
				t.Errorf("%s: %s (%s), want the violation", what, c.Verdict(), c.Reason)
				continue
			}
			amcsReplayed(t, what, load(t, tc.path), c)
		}
	}
}

// randomAMCSModel is a random model of one thread (or two) over two int
// globals and a local, with loops, whose values stay small (every
// assignment is modulo 5), assertions, and guards that may leave a thread
// stuck (a deadlock, where deadlocks are checked).
func randomAMCSModel(r *rand.Rand, twoThreads bool) string {
	cond := func(local bool) string {
		c := r.IntN(7) - 3
		vs := []string{"x", "y"}
		if local {
			vs = append(vs, "n")
		}
		v, w := vs[r.IntN(len(vs))], vs[r.IntN(len(vs))]
		switch r.IntN(6) {
		case 0:
			return "true"
		case 1:
			return fmt.Sprintf("%s < %s + %d", v, w, c)
		case 2:
			return fmt.Sprintf("%s == %d", v, c)
		case 3:
			return fmt.Sprintf("%s + %s >= %d", v, w, c)
		case 4:
			return fmt.Sprintf("%s != %s", v, w)
		}
		return fmt.Sprintf("%s > %d", v, c)
	}
	action := func(local bool) string {
		c := r.IntN(5) - 2
		vs := []string{"x", "y"}
		if local {
			vs = append(vs, "n")
		}
		v, w := vs[r.IntN(len(vs))], vs[r.IntN(len(vs))]
		switch r.IntN(6) {
		case 0:
			return fmt.Sprintf("%s := (%s + %d) %% 5;", v, w, c)
		case 1:
			return fmt.Sprintf("%s := (%s + %s) %% 5;", v, v, w)
		case 2:
			return fmt.Sprintf("%s := %d;", v, c)
		case 3:
			if r.IntN(3) == 0 {
				return "assert(" + cond(local) + ");"
			}
		}
		return fmt.Sprintf("%s := (%s - %s + %d) %% 5;", v, w, v, c)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "system R ()\n  x : int := %d;\n  y : int := %d;\n", r.IntN(3), r.IntN(3))
	thread := func(name string, local bool, n int) {
		fmt.Fprintf(&b, "  main thread %s ()\n", name)
		if local {
			b.WriteString("    n : int;\n")
		}
		for l := 0; l < n; l++ {
			fmt.Fprintf(&b, "    loc l%d:\n", l)
			for k := 0; k < 1+r.IntN(2); k++ {
				var acts []string
				for a := 0; a < 1+r.IntN(2); a++ {
					acts = append(acts, action(local))
				}
				fmt.Fprintf(&b, "      when %s do { %s } goto l%d;\n", cond(local), strings.Join(acts, " "), r.IntN(n+1))
			}
		}
		fmt.Fprintf(&b, "    loc l%d:\n  end %s;\n", n, name)
	}
	thread("M", true, 2+r.IntN(4))
	if twoThreads {
		thread("N", false, 1+r.IntN(3))
	}
	b.WriteString("end R;\n")
	return b.String()
}

// TestAMCSRandomNeverPass checks random models with loops against the
// explicit search of the model (which decides which have a reachable
// violation): abstract matching never passes a model with one; when it
// passes, it was exact and stored exactly the states of the explicit
// search; every violation it reports is one the model has, and its trail
// replays. GeneralSplitting's variants, which end on finite models, decide
// every model as the explicit search does. The variants with weakest
// preconditions and the solver (bounded rounds) check every fourth model.
// BIRCH_LONG=1 checks many more.
func TestAMCSRandomNeverPass(t *testing.T) {
	n := 24
	if testenv.Long() {
		n = 600
	}
	counts := map[string]int{}
	for seed := 0; seed < n; seed++ {
		r := rand.New(rand.NewPCG(uint64(seed), 21))
		src := randomAMCSModel(r, seed%3 == 2)
		in, err := Load("r.bir", []byte(src))
		if err != nil {
			t.Fatalf("seed %d: %v\n%s", seed, err, src)
		}
		cfg := search.Config{NoDeadlock: seed%2 == 1}
		plain, err := Run(&Task{Input: in, Search: cfg})
		if err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
		truth := plain.Verdict()
		if truth == Inconclusive {
			t.Fatalf("seed %d: the explicit search is inconclusive: %s\n%s", seed, plain.Checks[0].Reason, src)
		}
		counts["model "+truth.String()]++
		for _, v := range allVariants {
			if !splitting(v) && seed%4 != 0 {
				continue
			}
			task, release := amcsTask(v, cfg)
			task.Input = in
			res, err := Run(&task)
			release()
			if err != nil {
				t.Fatalf("seed %d --amcs=%s: %v", seed, v, err)
			}
			c := res.Checks[0]
			got := res.Verdict()
			counts[v.String()+" "+got.String()]++
			what := fmt.Sprintf("seed %d --amcs=%s (no-deadlock %v)", seed, v, cfg.NoDeadlock)
			switch {
			case got == Pass && truth != Pass:
				t.Errorf("%s: pass on a model with a reachable violation (%s)\n%s", what, plain.Checks[0].Reason, src)
			case got == Pass && (!c.AMCS.Exact || c.Stats.States != plain.Checks[0].Stats.States):
				t.Errorf("%s: pass with exact %v and %d states; the explicit search stores %d", what, c.AMCS.Exact, c.Stats.States, plain.Checks[0].Stats.States)
			case got == Fail && truth != Fail:
				t.Errorf("%s: a violation (%s) that the explicit search does not find\n%s", what, c.Reason, src)
			case got == Fail:
				amcsReplayed(t, what, in, c)
			case got == Inconclusive && c.AMCS.Exact:
				t.Errorf("%s: inconclusive but exact: %s", what, c.Reason)
			}
			if splitting(v) && got != truth {
				t.Errorf("%s: %s (%s), the explicit search's verdict is %s\n%s", what, got, c.Reason, truth, src)
			}
		}
	}
	t.Logf("%v", counts)
	if counts["model pass"] == 0 || counts["model fail"] == 0 {
		t.Errorf("the models are all of one verdict: %v", counts)
	}
}

// TestAMCSVerdicts: the check's verdict follows from what the abstract
// matching reports, and never claims more: pass only for an exact run
// without a bound of the model or a limit; a run that is not exact is
// inconclusive and says how far it went; a stopped run names the limit.
func TestAMCSVerdicts(t *testing.T) {
	defer func(f func(*model.Model, search.Model, amcs.Config) *amcs.Result) { amcsRun = f }(amcsRun)
	path := examples + "/peterson.bir"
	rounds := []amcs.Round{{N: 1, AbstractStates: 5}, {N: 2, Predicates: 2, AbstractStates: 26, Exact: true}}
	for _, tc := range []struct {
		name   string
		res    amcs.Result
		want   Verdict
		restOn string
	}{
		{"exact", amcs.Result{Verdict: Pass, Exact: true, Rounds: rounds, Predicates: []string{"a", "b"}},
			Pass, "complete (a complete concrete search: the final abstraction was one-to-one)"},
		{"not exact", amcs.Result{Verdict: Inconclusive, Reason: "the round limit (--amcs-rounds 2)", Rounds: rounds[:1]},
			Inconclusive, "under-approximated (abstract matching: 5 abstract states, 0 predicates, 1 round; not exact because the round limit (--amcs-rounds 2))"},
		{"exact but cut by a bound", amcs.Result{Verdict: Pass, Exact: true, Rounds: rounds,
			LimitsHit: []search.LimitHit{{Msg: "too many threads"}}},
			Inconclusive, "not exact because a bound of the model cut paths: too many threads"},
		{"exact but stopped", amcs.Result{Verdict: Pass, Exact: true, Rounds: rounds, Stopped: "interrupted"},
			Inconclusive, "not exact because a limit stopped the last round: interrupted"},
		{"pass without exact", amcs.Result{Verdict: Pass, Rounds: rounds[:1], Reason: "the predicates stopped changing"},
			Inconclusive, "not exact because the predicates stopped changing"},
	} {
		amcsRun = func(*model.Model, search.Model, amcs.Config) *amcs.Result { r := tc.res; return &r }
		res := run(t, path, Task{AMCS: &AMCS{Variant: amcs.MinOnly}, Select: Selection{Names: []string{"mutex"}}})
		c := res.Checks[0]
		if c.Verdict() != tc.want || !strings.Contains(c.RestsOn.String(), tc.restOn) {
			t.Errorf("%s: %s resting on %q (%s), want %s resting on %q", tc.name, c.Verdict(), c.RestsOn, c.Reason, tc.want, tc.restOn)
		}
		if c.AMCS.Exact != (tc.want == Pass) {
			t.Errorf("%s: exact %v, verdict %s", tc.name, c.AMCS.Exact, c.Verdict())
		}
		if c.Explored != (tc.res.Exact && tc.res.Stopped == "") {
			t.Errorf("%s: explored (the JSON report's complete) %v, exact %v, stopped %q", tc.name, c.Explored, tc.res.Exact, tc.res.Stopped)
		}
	}
}

// TestAMCSLTLNotChecked: abstract matching checks no ltl property: each is
// inconclusive, not checked, and the safety check still runs.
func TestAMCSLTLNotChecked(t *testing.T) {
	res := run(t, examples+"/peterson.bir", Task{AMCS: &AMCS{Variant: amcs.MinOnly}})
	ltl := 0
	for _, c := range res.Checks {
		for _, p := range c.Properties {
			v, why := c.PropertyVerdict(p)
			switch {
			case p.Kind == "ltl" && (v != Inconclusive || !strings.Contains(why, "not checked") || c.Stats.States != 0):
				t.Errorf("%s: %s (%s), want inconclusive, not checked", p.Title, v, why)
			case p.Kind == "ltl":
				ltl++
			case v != Pass:
				t.Errorf("%s: %s (%s), want pass", p.Title, v, why)
			}
		}
	}
	if ltl == 0 || res.Verdict() != Inconclusive {
		t.Errorf("%d ltl properties, verdict %s: want some, and inconclusive", ltl, res.Verdict())
	}
}

// TestAMCSOptions: --amcs with another technique, --choose-free or
// --max-depth, or a negative round bound, is a usage error; a bad
// predicate file is a positioned error.
func TestAMCSOptions(t *testing.T) {
	in := load(t, examples+"/peterson.bir")
	for _, task := range []Task{
		{AMCS: &AMCS{}, Cegar: &Cegar{}},
		{AMCS: &AMCS{}, Predicates: &PredicateAbstraction{File: "p"}},
		{AMCS: &AMCS{}, Abstraction: &DataAbstraction{}},
		{AMCS: &AMCS{}, Search: search.Config{ChooseFree: true}},
		{AMCS: &AMCS{}, Search: search.Config{MaxDepth: 3}},
		{AMCS: &AMCS{MaxRounds: -1}},
	} {
		task.Input = in
		if _, err := Run(&task); err == nil {
			t.Errorf("%+v: no error", task)
		} else if _, ok := err.(*UsageError); !ok {
			t.Errorf("%+v: %v, want a usage error", task, err)
		}
	}
	read := func(string) ([]byte, error) { return []byte("turn == 0\nturn +\n"), nil }
	task := Task{Input: in, AMCS: &AMCS{File: "bad.pred", ReadFile: read}}
	if _, err := Run(&task); err == nil || !strings.Contains(err.Error(), "bad.pred:2:") {
		t.Errorf("a bad predicate file: %v, want an error at bad.pred:2", err)
	}
	// a [record T] predicate has no meaning for abstract matching
	in = load(t, examples+"/heap-list.bir")
	read = func(string) ([]byte, error) { return []byte("[record Node]  this.next == null\n"), nil }
	task = Task{Input: in, AMCS: &AMCS{File: "rec.pred", ReadFile: read}}
	if _, err := Run(&task); err == nil || !strings.Contains(err.Error(), "rec.pred:1:16: --amcs reads predicates over globals, threads and functions; a [record Node] predicate is for --on-the-fly") {
		t.Errorf("a record predicate: %v, want a positioned error", err)
	}
}

// TestAMCSInterrupted: a limit (or Ctrl-C) during the search ends the
// check inconclusive, naming the limit, not exact and not complete.
func TestAMCSInterrupted(t *testing.T) {
	const stop = "time limit reached (--time-limit=1s)" // the limit's words, not the search's "interrupted"
	task, release := amcsTask(amcs.MinOnly, search.Config{})
	defer release()
	task.Limits.OnPhase = func(phase string, l *Limits) {
		if phase == PhaseSearch {
			l.End(stop)
		}
	}
	res := run(t, "testdata/counter-unsafe-amcs.bir", task)
	c := res.Checks[0]
	if c.Verdict() != Inconclusive || c.Limit != stop || c.Reason != stop || c.Explored || c.AMCS == nil || c.AMCS.Exact ||
		!strings.Contains(c.RestsOn.String(), "not exact because a limit stopped the last round: "+stop) {
		t.Errorf("%s (%s), limit %q, explored %v, rests on %s: want inconclusive: %s", c.Verdict(), c.Reason, c.Limit, c.Explored, c.RestsOn, stop)
	}
}
