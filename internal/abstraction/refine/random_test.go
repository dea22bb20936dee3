package refine

import (
	"errors"
	"fmt"
	"math/rand"
	"strings"
	"testing"

	"birch/internal/abstraction/data/feasible"
	"birch/internal/model"
	"birch/internal/testenv"
)

// randomModel writes a model of two threads over globals x, y, f, an
// array h and a
// local each (a, b), with random guards, assignments and assumptions;
// M ends in an assertion at s3.
func randomModel(rng *rand.Rand, arrays bool) string {
	expr := func(local string) string {
		terms := []string{"x", "y", local, fmt.Sprint(rng.Intn(7) - 3), "x + " + local, "y - 1", local + " * 2", "x - y"}
		if arrays {
			terms = append(terms, "h[1]", "h["+local+"]")
		}
		return terms[rng.Intn(len(terms))]
	}
	cond := func(local string) string {
		ops := []string{"<", "<=", "==", "!=", ">="}
		c := expr(local) + " " + ops[rng.Intn(len(ops))] + " " + expr(local)
		switch rng.Intn(7) {
		case 0:
			c += " && " + expr(local) + " < " + expr(local)
		case 1:
			c += " || " + expr(local) + " == " + expr(local)
		case 2:
			c = "f && " + c
		case 3:
			c = "!f || " + c
		}
		return c
	}
	actions := func(local string) string {
		var b strings.Builder
		vars := []string{"x", "y", local}
		if arrays {
			vars = append(vars, "h[0]", "h["+local+"]")
		}
		for k := rng.Intn(3); k >= 0; k-- {
			switch rng.Intn(6) {
			case 0:
				fmt.Fprintf(&b, "assume(%s); ", cond(local))
			case 1:
				fmt.Fprintf(&b, "f := %s; ", cond(local))
			default:
				fmt.Fprintf(&b, "%s := %s; ", vars[rng.Intn(len(vars))], expr(local))
			}
		}
		return b.String()
	}
	tr := func(local, to string) string {
		return fmt.Sprintf("when %s do { %s} goto %s;", cond(local), actions(local), to)
	}
	return fmt.Sprintf(`system R ()
  x : int;
  y : int;
  f : boolean;
  h : array [3] of int;
  main thread M ()
    a : int;
    loc s0: when true do { a := externChoose(-3 .. 3); } goto s1;
    loc s1: %s
            %s
    loc s2: %s
            %s
    loc s3: when true do { assert(%s); } goto s3;
  end M;
  main thread N ()
    b : int;
    loc t0: when true do { b := internChoose(-2 .. 2); } goto t1;
    loc t1: %s
            %s
  end N;
end R;
`, tr("a", "s2"), tr("a", "s1"), tr("a", "s1"), tr("a", "s3"), cond("a"), tr("b", "t1"), tr("b", "t1"))
}

// randomSchedule walks both threads, taking any transformation of the
// current location (whatever its guard), until M asserts or the length
// runs out.
func randomSchedule(rng *rand.Rand, m *model.Model) feasible.Schedule {
	groups := m.Groups()
	loc := map[int]string{0: "s0", 1: "t0"}
	var sc feasible.Schedule
	for len(sc.Steps) < 9 {
		th := rng.Intn(2)
		proc := []string{"M", "N"}[th]
		var cands []int
		for i, g := range groups {
			if g.Proc.Name() == proc && g.From.Name() == loc[th] {
				cands = append(cands, i)
			}
		}
		gi := cands[rng.Intn(len(cands))]
		sc.Steps = append(sc.Steps, feasible.Step{Thread: th, Groups: []int{gi}})
		if loc[th] == "s3" {
			sc.End = feasible.End{Kind: feasible.EndError, Error: model.Assertion}
			return sc
		}
		loc[th] = groups[gi].To.Name()
	}
	return sc
}

// TestRandomAgainstReplay (120 paths, 3000 with an array with
// BIRCH_LONG=1) compares the path formula's answer with the
// concrete replay of package feasible, which enumerates every choice:
// feasible exactly when the replay confirms, at the same first
// infeasible step otherwise. A feasible answer's inputs replay on the
// model; an infeasible one's predicates parse back and refute the path,
// and its interpolants are interpolants.
func TestRandomAgainstReplay(t *testing.T) {
	rng := rand.New(rand.NewSource(19))
	counts := map[Status]int{}
	refuted, noItp, undecided := 0, 0, 0
	// BIRCH_LONG=1: 3000 paths, with an array (the embedded solver is
	// slow on arrays: seconds for some paths on a loaded machine)
	n, arrays := 120, false
	if testenv.Long() {
		n, arrays = 3000, true
	}
	for iter := 0; iter < n; iter++ {
		src := randomModel(rng, arrays)
		prog, m := compile(t, src)
		sc := randomSchedule(rng, m)
		want, err := feasible.Replay(m, sc, feasible.Config{NoSymbolic: true})
		if err != nil {
			t.Fatal(err)
		}
		r, err := Refine(m, sc, Config{})
		if err != nil {
			t.Fatalf("%d: %v\n%s", iter, err, src)
		}
		// a schedule that does not fit the model (a step's transformation
		// replaced by any other) is an error or an answer, never a crash
		if len(sc.Steps) > 0 {
			bad := feasible.Schedule{End: sc.End, Steps: append([]feasible.Step(nil), sc.Steps...)}
			k := rng.Intn(len(bad.Steps))
			bad.Steps[k] = feasible.Step{Thread: rng.Intn(3), Groups: []int{rng.Intn(len(m.Groups()) + 1)}}
			if _, err := Refine(m, bad, Config{}); err != nil && strings.Contains(err.Error(), "internal error") {
				t.Fatalf("%d: %v", iter, err)
			}
		}
		counts[r.Status]++
		fail := func(format string, args ...any) {
			t.Helper()
			t.Fatalf("%d: %s\nreplay: %v\nschedule %v\n%s", iter, fmt.Sprintf(format, args...), want, sc, src)
		}
		switch {
		case want.Incomplete:
			continue
		case r.Status == Unknown:
			fail("unknown: %s", r.Reason)
		case want.Confirmed != (r.Status == Feasible):
			fail("the path formula says %v (%s)", r.Status, r.Why)
		case r.Status == Feasible:
			trail, err := r.Path.Confirm(r.Decision, func([]int64) (*model.Model, error) { return m, nil })
			if err != nil {
				fail("the inputs %v do not replay: %v", r.Inputs, err)
			}
			if len(trail) != len(sc.Steps) {
				fail("a trail of %d steps for %d", len(trail), len(sc.Steps))
			}
		default:
			if want.Diverge == nil || want.Diverge.Step != r.Step {
				fail("infeasible at step %d (%s)", r.Step, r.Why)
			}
			for _, d := range r.Dropped {
				if strings.Contains(d, "does not read back") {
					fail("a predicate printed wrong: %s", d)
				}
			}
			preds := r.Predicates()
			ok, err := r.Path.Refutes(parsePreds(t, prog, preds), r.Step, Config{})
			if errors.Is(err, ErrUndecided) {
				undecided++ // the embedded solver's integer search gave up
				continue
			}
			if err != nil {
				fail("%v", err)
			}
			if !ok && len(r.Dropped) == 0 {
				fail("the predicates %v do not refute the path", preds)
			}
			if ok {
				refuted++
			}
			if r.NoInterpolant != "" {
				noItp++
			}
			checkInterpolants(t, r)
		}
	}
	t.Logf("%v; refuted by their predicates %d; no interpolant %d; undecided %d", counts, refuted, noItp, undecided)
	if counts[Feasible] < n/40 || counts[Infeasible] < n/4 {
		t.Fatalf("too few of a kind: %v", counts)
	}
}
