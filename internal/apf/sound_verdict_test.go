package apf_test

import (
	"fmt"
	"regexp"
	"strings"
	"testing"

	"birch/internal/model"
	"birch/internal/search"
	"birch/internal/verify"
)

// TestOnTheFlyRandomVerdicts is the verdict-level differential test of
// issue 22 on random models whose concrete state space the explicit search
// exhausts: the on-the-fly check never passes a model the explicit search
// finds a violation in, never fails one it passes, and every violation it
// reports as confirmed replays on the model as written to an error of its
// kind. Deadlocks are not checked by either search.
func TestOnTheFlyRandomVerdicts(t *testing.T) {
	counts, reasons := map[string]int{}, map[string]int{}
	for _, seed := range rseeds(30, 800) {
		m := rgenerate(seed, ropt)
		name := fmt.Sprintf("r%d.bir", seed)
		in, err := verify.Load(name, []byte(m.Src))
		if err != nil {
			t.Fatalf("seed %d: %v\n%s", seed, err, m.Src)
		}
		plain, err := verify.Run(&verify.Task{Input: in, Search: search.Config{NoDeadlock: true, MaxStates: 20000}})
		if err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
		truth := plain.Verdict()
		if truth == verify.Inconclusive {
			counts["infinite"]++ // values grow without bound: no truth to compare with
			continue
		}
		in, _ = verify.Load(name, []byte(m.Src))
		res, err := ronTheFlyCheck(in, m)
		if err != nil {
			t.Fatalf("seed %d: %v\n%s%s", seed, err, m.Src, m.PredFile())
		}
		v := res.Verdict()
		counts[truth.String()+"/"+v.String()]++
		if v == verify.Inconclusive {
			reasons[rreason(res.Checks[0].Reason)]++
		}
		switch {
		case v == verify.Pass && truth != verify.Pass, v == verify.Fail && truth != verify.Fail:
			t.Errorf("seed %d: on the fly %v, the explicit search %v (%s)\nmodel:\n%s\npredicates:\n%s", seed, v, truth, res.Checks[0].Reason, m.Src, m.PredFile())
		case v == verify.Fail:
			if err := rreplay(in, res.Checks[0].Violation); err != nil {
				t.Errorf("seed %d: %v\nmodel:\n%s\npredicates:\n%s", seed, err, m.Src, m.PredFile())
			}
		}
	}
	t.Logf("explicit/on-the-fly verdicts: %v; inconclusive: %v", counts, reasons)
	if counts["pass/pass"] == 0 || counts["fail/fail"] == 0 {
		t.Errorf("the models do not exercise both verdicts: %v", counts)
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
	for _, seed := range rseeds(30, 800) {
		m := rgenerate(seed, ropt)
		if !choice.MatchString(m.Src) {
			continue
		}
		src := choice.ReplaceAllString(m.Src, "externChoose(int)")
		name := fmt.Sprintf("r%d.bir", seed)
		in, err := verify.Load(name, []byte(src))
		if err != nil {
			t.Fatalf("seed %d: %v\n%s", seed, err, src)
		}
		res, err := ronTheFlyCheck(in, m)
		if err != nil {
			t.Fatalf("seed %d: %v\n%s%s", seed, err, src, m.PredFile())
		}
		v := res.Verdict()
		counts[v.String()]++
		switch v {
		case verify.Pass:
			small, _ := verify.Load(name, []byte(m.Src))
			plain, err := verify.Run(&verify.Task{Input: small, Search: search.Config{NoDeadlock: true, MaxStates: 20000}})
			if err != nil {
				t.Fatalf("seed %d: %v", seed, err)
			}
			if plain.Verdict() == verify.Fail {
				t.Errorf("seed %d: a pass with unbounded inputs, a violation with small ones\nmodel:\n%s\npredicates:\n%s", seed, src, m.PredFile())
			}
		case verify.Fail:
			if err := rreplay(in, res.Checks[0].Violation); err != nil {
				t.Errorf("seed %d: %v\nmodel:\n%s\npredicates:\n%s", seed, err, src, m.PredFile())
			}
		}
	}
	t.Logf("on-the-fly verdicts with unbounded inputs: %v", counts)
	if counts["pass"] == 0 || counts["fail"] == 0 {
		t.Errorf("the models do not exercise both verdicts: %v", counts)
	}
}

// ronTheFlyCheck runs the on-the-fly check of in with m's predicates.
func ronTheFlyCheck(in *verify.Input, m *rmodel) (*verify.Result, error) {
	otf := &verify.OnTheFly{File: fmt.Sprintf("r%d.pred", m.Seed), ReadFile: func(string) ([]byte, error) { return []byte(m.PredFile()), nil }}
	return verify.Run(&verify.Task{Input: in, OnTheFly: otf})
}

// rreplay replays a confirmed violation's trail on the model as written
// (with the input values it records) and checks that it ends in an error
// of the violation's kind.
func rreplay(in *verify.Input, cv *verify.Violation) error {
	cm, err := model.New(in.Prog, model.Options{ExposeInvisible: cv.ExposeInvisible, ChoiceValues: cv.ChoiceValues})
	if err != nil {
		return err
	}
	_, steps, err := search.Replay(cm, cv.Ordinals)
	if err != nil || len(steps) == 0 || steps[len(steps)-1].Step.Kind.String() != cv.Kind {
		return fmt.Errorf("the confirmed trail does not replay to %s with inputs %v: %v", cv.Kind, cv.ChoiceValues, err)
	}
	return nil
}
