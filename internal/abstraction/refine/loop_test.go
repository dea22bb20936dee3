package refine

import (
	"strings"
	"testing"
	"time"

	"birch/internal/abstraction/data/feasible"
	"birch/internal/abstraction/predicate"
	"birch/internal/abstraction/predicate/c2bp"
	"birch/internal/bir/ast"
	"birch/internal/bir/types"
	"birch/internal/model"
	"birch/internal/search"
	"birch/internal/testenv"
)

// loopResult is what the test loop ends in.
type loopResult struct {
	verdict string // pass, fail or inconclusive
	why     string
	rounds  int // abstractions built
	preds   []*predicate.Predicate
	inputs  []Input
}

// cegar is the refinement loop as a test drives it (the command comes
// with issue 19's next piece): seed, abstract with c2bp, search the
// abstract model breadth-first, refine the trail on the concrete model,
// and again, at most max rounds.
func cegar(t *testing.T, prog *types.Program, max int) loopResult {
	t.Helper()
	seed, err := Seed(prog)
	if err != nil {
		t.Fatal(err)
	}
	text := FileText(seed)
	conc, err := model.New(prog, model.Options{ChoiceValues: []int64{}})
	if err != nil {
		t.Fatal(err)
	}
	for round := 1; round <= max; round++ {
		file, err := predicate.ParseFile(prog, "round.pred", []byte(text))
		if err != nil {
			t.Fatalf("round %d: %v\n%s", round, err, text)
		}
		out, err := c2bp.Abstract(prog, file, c2bp.Config{})
		if err != nil {
			t.Fatalf("round %d: %v", round, err)
		}
		abs, err := model.New(out.Program, model.Options{})
		if err != nil {
			t.Fatalf("round %d: the abstract model: %v", round, err)
		}
		res := search.Run(abs, search.Config{Strategy: search.BFS, NoDeadlock: true})
		if res.Violation == nil {
			if res.Verdict != search.Pass {
				return loopResult{verdict: "inconclusive", why: res.Reason, rounds: round, preds: file.Predicates}
			}
			return loopResult{verdict: "pass", rounds: round, preds: file.Predicates}
		}
		sc := abstractSchedule(t, out, abs, conc, res)
		r, err := Refine(conc, sc, Config{})
		if err != nil {
			return loopResult{verdict: "inconclusive", why: err.Error(), rounds: round, preds: file.Predicates}
		}
		switch r.Status {
		case Feasible:
			return loopResult{verdict: "fail", rounds: round, preds: file.Predicates, inputs: r.Inputs}
		case Unknown:
			return loopResult{verdict: "inconclusive", why: r.Reason, rounds: round, preds: file.Predicates}
		}
		chosen, refuted, err := r.Choose(prog, file.Predicates, Config{})
		if err != nil {
			t.Fatal(err)
		}
		if len(chosen) == 0 || !refuted {
			return loopResult{verdict: "inconclusive", why: "no new predicate rules out the trail (" + r.Why + ")", rounds: round, preds: file.Predicates}
		}
		text += FileText(chosen)
	}
	return loopResult{verdict: "inconclusive", why: "the refinement limit", rounds: max}
}

// abstractSchedule maps an abstract trail to a schedule of the concrete
// model through c2bp's origins (as verify's predicate check does).
func abstractSchedule(t *testing.T, out *c2bp.Output, abs, conc *model.Model, res *search.Result) feasible.Schedule {
	t.Helper()
	cgroups := conc.Groups()
	mapGroup := func(ag int) int {
		o := out.Map.Transformation(abs.Groups()[ag].Decl)
		if o == nil {
			return -1
		}
		for i, g := range cgroups {
			if g.Proc == o.Proc && g.From == o.Location && g.Decl == o.Transformation {
				return i
			}
		}
		t.Fatalf("no concrete transformation for %v", o.Transformation.Pos())
		return -1
	}
	kind := res.Violation.Kind
	for _, g := range res.Violation.Groups {
		o := out.Map.Transformation(abs.Groups()[g].Decl)
		if o == nil {
			continue
		}
		for i, a := range o.Abstract.Actions {
			if as, ok := a.(*ast.AssertAction); ok && as.Pos() == res.Violation.Pos {
				if e, ok := o.Errors[i]; ok {
					kind = e.Kind
				}
			}
		}
	}
	_, steps, err := search.Replay(abs, res.Trail)
	if err != nil {
		t.Fatal(err)
	}
	var sc feasible.Schedule
	for _, st := range steps {
		fs := feasible.Step{Thread: st.Step.Thread}
		for _, g := range st.Step.Groups {
			if c := mapGroup(int(g)); c >= 0 {
				fs.Groups = append(fs.Groups, c)
			}
		}
		if len(fs.Groups) > 0 {
			sc.Steps = append(sc.Steps, fs)
		}
	}
	sc.End = feasible.End{Kind: feasible.EndError, Error: kind}
	return sc
}

// The loop on the examples of predicate abstraction, with no predicate
// file: the counting loop is proved in two rounds (interpolation finds
// i <= n), the locking loop in one (its guard cur == old is in the
// seed), the payload bug is found with an input in its narrow band, the
// fixed receiver is proved, and the counter under a lock is proved in
// five rounds (count and each thread's t pinned to 0, 1, 2).
func TestLoopOnExamples(t *testing.T) {
	for _, tc := range []struct {
		file    string
		verdict string
		rounds  int
		why     string
	}{
		{"countbound.bir", "pass", 2, ""},
		{"lockloop.bir", "pass", 1, ""},
		{"payload.bir", "fail", 1, ""},
		{"payload-fixed.bir", "pass", 1, ""},
		{"lockedcounter.bir", "pass", 5, ""},
	} {
		prog, _ := compileFile(t, "../../../examples/predicates/"+tc.file)
		start := time.Now()
		r := cegar(t, prog, 10)
		t.Logf("%s: %v", tc.file, time.Since(start))
		var ps []string
		for _, p := range r.preds {
			ps = append(ps, p.String())
		}
		t.Logf("%s: %s after %d rounds (%s); predicates %s; inputs %v", tc.file, r.verdict, r.rounds, r.why, strings.Join(ps, ", "), r.inputs)
		if r.verdict != tc.verdict || r.rounds != tc.rounds || !strings.Contains(r.why, tc.why) {
			t.Errorf("%s: %s after %d rounds (%s), want %s after %d (%s)", tc.file, r.verdict, r.rounds, r.why, tc.verdict, tc.rounds, tc.why)
		}
	}
}

// The list partition (a heap of up to three cells) does not converge
// yet: the refinement finds shape predicates (head == null, curr ==
// nextCurr, …) round after round but not the paper's prev.val > v, and
// stops, inconclusive, saying why — never a wrong verdict. Long: its
// rounds take seconds.
func TestLoopPartition(t *testing.T) {
	testenv.SkipUnlessLong(t)
	prog, _ := compileFile(t, "../../../examples/predicates/partition.bir")
	r := cegar(t, prog, 8)
	t.Logf("%s after %d rounds (%s); %d predicates", r.verdict, r.rounds, r.why, len(r.preds))
	if r.verdict != "inconclusive" && r.verdict != "pass" || r.verdict == "inconclusive" && r.why == "" {
		t.Fatalf("%s (%s)", r.verdict, r.why)
	}
}
