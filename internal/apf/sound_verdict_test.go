package apf_test

import (
	"fmt"
	"regexp"
	"strings"
	"testing"

	"birch/internal/bir/ast"
	"birch/internal/model"
	"birch/internal/search"
	"birch/internal/verify"
)

// rverdictSeeds are the default run's seeds of the verdict tests: the first
// 30 of 1..120 whose checks take under 25 ms each here (the check goes
// on after each violation it does not confirm, and a few models have
// dozens: a second each).
var rverdictSeeds = []uint64{3, 4, 5, 6, 7, 8, 9, 12, 13, 17, 18, 19, 20, 21, 22, 23, 24, 25, 27, 28, 29, 30, 32, 33, 34, 35, 41, 42, 44, 45}

// TestOnTheFlyRandomVerdicts is the verdict-level differential test of
// issue 22 on random models whose concrete state space the explicit search
// exhausts: the on-the-fly check never passes a model the explicit search
// finds a violation in, never fails one it passes, and every violation it
// reports as confirmed replays on the model as written to an error of its
// kind (or to a state where the invariant is false). Deadlocks are not
// checked by either search. A model with an invariant is compared twice:
// without it, and with it (one search checks it with the assertions and
// runtime errors: an invariant cannot be selected alone).
func TestOnTheFlyRandomVerdicts(t *testing.T) {
	counts, reasons := map[string]int{}, map[string]int{}
	for _, seed := range rseedList(rverdictSeeds, 400) {
		m := rgenerate(seed, ropt)
		rverdicts(t, m, m.Src, verify.Selection{}, "", counts, reasons)
		if m.Inv != "" {
			rverdicts(t, m, m.WithInvariant(), verify.Selection{}, "with inv ", counts, reasons)
		}
	}
	t.Logf("explicit/on-the-fly verdicts: %v; inconclusive: %v", counts, reasons)
	if counts["pass/pass"] == 0 || counts["fail/fail"] == 0 || counts["with inv fail/fail"] == 0 {
		t.Errorf("the models do not exercise both verdicts: %v", counts)
	}
}

// rverdicts compares the verdicts of the explicit search and the
// on-the-fly check of src (m's model, maybe with its invariant) for the
// properties sel selects, counting them under the prefix what.
func rverdicts(t *testing.T, m *rmodel, src string, sel verify.Selection, what string, counts, reasons map[string]int) {
	t.Helper()
	name := fmt.Sprintf("r%d.bir", m.Seed)
	in, err := verify.Load(name, []byte(src))
	if err != nil {
		t.Fatalf("seed %d: %v\n%s", m.Seed, err, src)
	}
	plain, err := verify.Run(&verify.Task{Input: in, Select: sel, Search: search.Config{NoDeadlock: true, MaxStates: 20000}})
	if err != nil {
		t.Fatalf("seed %d: %v", m.Seed, err)
	}
	truth := plain.Verdict()
	if truth == verify.Inconclusive {
		counts[what+"infinite"]++ // values grow without bound: no truth to compare with
		return
	}
	in, _ = verify.Load(name, []byte(src))
	res, err := ronTheFlyCheck(in, m, sel)
	if err != nil {
		t.Fatalf("seed %d: %v\n%s%s", m.Seed, err, src, m.PredFile())
	}
	v := res.Verdict()
	counts[what+truth.String()+"/"+v.String()]++
	if v == verify.Inconclusive {
		reasons[rreason(res.Deciding().Reason)]++
	}
	switch {
	case v == verify.Pass && truth != verify.Pass, v == verify.Fail && truth != verify.Fail:
		t.Errorf("seed %d (%s): on the fly %v, the explicit search %v (%s)\nmodel:\n%s\npredicates:\n%s", m.Seed, what, v, truth, res.Deciding().Reason, src, m.PredFile())
	case v == verify.Fail:
		if err := rreplay(in, res.Deciding().Violation); err != nil {
			t.Errorf("seed %d (%s): %v\nmodel:\n%s\npredicates:\n%s", m.Seed, what, err, src, m.PredFile())
		}
	}
}

// rreason is the kind of an inconclusive check's reason: its words up to
// the first position or number.
func rreason(s string) string {
	var out []string
	for _, w := range strings.Fields(s) {
		if strings.ContainsAny(w, "0123456789:") {
			break
		}
		out = append(out, w)
	}
	return strings.Join(out, " ")
}

// TestOnTheFlyRandomUnbounded checks the random models with their
// externChoose among constants made unbounded (externChoose(int)), which
// the explicit search of the model cannot enumerate and the on-the-fly
// check reads as a fresh value: a pass holds for the model with its small
// choices too (which has fewer behaviours), and a confirmed violation's
// trail replays on the unbounded model with the input values it records.
func TestOnTheFlyRandomUnbounded(t *testing.T) {
	choice := regexp.MustCompile(`externChoose\([^)]*\)`)
	counts := map[string]int{}
	for _, seed := range rseedList(rverdictSeeds, 400) {
		m := rgenerate(seed, ropt)
		if !choice.MatchString(m.Src) {
			continue
		}
		src := choice.ReplaceAllString(m.WithInvariant(), "externChoose(int)")
		name := fmt.Sprintf("r%d.bir", seed)
		in, err := verify.Load(name, []byte(src))
		if err != nil {
			t.Fatalf("seed %d: %v\n%s", seed, err, src)
		}
		res, err := ronTheFlyCheck(in, m, verify.Selection{})
		if err != nil {
			t.Fatalf("seed %d: %v\n%s%s", seed, err, src, m.PredFile())
		}
		v := res.Verdict()
		counts[v.String()]++
		switch v {
		case verify.Pass:
			small, _ := verify.Load(name, []byte(m.WithInvariant()))
			plain, err := verify.Run(&verify.Task{Input: small, Search: search.Config{NoDeadlock: true, MaxStates: 20000}})
			if err != nil {
				t.Fatalf("seed %d: %v", seed, err)
			}
			if plain.Verdict() == verify.Fail {
				t.Errorf("seed %d: a pass with unbounded inputs, a violation with small ones\nmodel:\n%s\npredicates:\n%s", seed, src, m.PredFile())
			}
		case verify.Fail:
			if err := rreplay(in, res.Deciding().Violation); err != nil {
				t.Errorf("seed %d: %v\nmodel:\n%s\npredicates:\n%s", seed, err, src, m.PredFile())
			}
		}
	}
	t.Logf("on-the-fly verdicts with unbounded inputs: %v", counts)
	if counts["pass"] == 0 || counts["fail"] == 0 {
		t.Errorf("the models do not exercise both verdicts: %v", counts)
	}
}

// ronTheFlyCheck runs the on-the-fly check of in with m's predicates, of
// the properties sel selects.
func ronTheFlyCheck(in *verify.Input, m *rmodel, sel verify.Selection) (*verify.Result, error) {
	otf := &verify.OnTheFly{File: fmt.Sprintf("r%d.pred", m.Seed), ReadFile: func(string) ([]byte, error) { return []byte(m.PredFile()), nil }}
	return verify.Run(&verify.Task{Input: in, Select: sel, OnTheFly: otf})
}

// rreplay replays a confirmed violation's trail on the model as written
// (with the input values it records) and checks that it ends in an error
// of the violation's kind, or for an invariant in a state where the
// invariant is false or its evaluation fails with that kind.
func rreplay(in *verify.Input, cv *verify.Violation) error {
	values := cv.ChoiceValues
	if values == nil && model.UnboundedChoices(in.Prog, 0) != nil {
		// a trail through none of the unbounded choices records no
		// values; the model is compiled with none, as the check's
		// confirmation compiles it (as birch replay does)
		values = []int64{}
	}
	cm, err := model.New(in.Prog, model.Options{ExposeInvisible: cv.ExposeInvisible, ChoiceValues: values})
	if err != nil {
		return err
	}
	init, steps, err := search.Replay(cm, cv.Ordinals)
	if err != nil {
		return fmt.Errorf("the confirmed trail does not replay with inputs %v: %v", values, err)
	}
	if len(steps) > 0 && steps[len(steps)-1].Step.Outcome == model.Error {
		if k := steps[len(steps)-1].Step.Kind.String(); k != cv.Kind {
			return fmt.Errorf("the confirmed trail does not replay to %s with inputs %v (it ends in %s)", cv.Kind, values, k)
		}
		return nil
	}
	// an invariant's violation, or an error evaluating one (a null
	// dereference), in the state the trail ends in
	last := init
	if len(steps) > 0 {
		last = steps[len(steps)-1].After
	}
	var invs []ast.Expr
	for _, p := range in.Prog.Properties {
		if !p.LTL {
			invs = append(invs, p.Decl.Expr)
		}
	}
	ev, err := cm.NewEvaluator(invs)
	if err != nil {
		return err
	}
	ev.Load(last)
	for i := range invs {
		holds, cerr := ev.Eval(i)
		if cerr != nil && cerr.Kind.String() == cv.Kind || cerr == nil && !holds && cv.Kind == model.InvariantViolated.String() {
			return nil
		}
	}
	return fmt.Errorf("the confirmed trail ends where no invariant is violated (%s)", cv.Kind)
}
