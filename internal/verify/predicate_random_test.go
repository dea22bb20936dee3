package verify

import (
	"fmt"
	"math/rand/v2"
	"regexp"
	"strings"
	"testing"

	"birch/internal/model"
	"birch/internal/search"
	"birch/internal/testenv"
)

// randomPredModel is a random model of one thread (or two) over two int
// globals with
// an acyclic control flow (so that the explicit search of the model itself
// is exhaustive), small inputs, assertions and assumptions, and a random
// predicate file over its variables.
func randomPredModel(r *rand.Rand, twoThreads bool) (src, preds string) {
	cond := func() string {
		c := r.IntN(5) - 2
		switch r.IntN(7) {
		case 0:
			return "true"
		case 1:
			return fmt.Sprintf("x < y + %d", c)
		case 2:
			return fmt.Sprintf("x == %d", c)
		case 3:
			return fmt.Sprintf("y >= %d", c)
		case 4:
			return fmt.Sprintf("x + y > %d", c)
		case 5:
			return fmt.Sprintf("!(y == x + %d)", c)
		}
		return fmt.Sprintf("x != %d", c)
	}
	action := func() string {
		c := r.IntN(5) - 2
		v := []string{"x", "y"}[r.IntN(2)]
		switch r.IntN(7) {
		case 0:
			return fmt.Sprintf("%s := x + %d;", v, c)
		case 1:
			return fmt.Sprintf("%s := y - x;", v)
		case 2:
			return fmt.Sprintf("%s := %d;", v, c)
		case 3:
			return fmt.Sprintf("%s := externChoose(%d, %d, %d);", v, c, c+1, c+3)
		case 4:
			return "assert(" + cond() + ");"
		case 5:
			return "assume(" + cond() + ");"
		}
		return fmt.Sprintf("%s := x + y;", v)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "system R ()\n  x : int := %d;\n  y : int := %d;\n", r.IntN(3), r.IntN(3))
	thread := func(name string, n int) {
		fmt.Fprintf(&b, "  main thread %s ()\n", name)
		for l := 0; l < n; l++ {
			fmt.Fprintf(&b, "    loc l%d:\n", l)
			choose := r.IntN(2) == 0 // all transformations of a location choose, or none
			for k := 0; k < 1+r.IntN(2); k++ {
				var acts []string
				for a := 0; a < 1+r.IntN(2); a++ {
					act := action()
					if strings.Contains(act, "externChoose") != choose {
						act = "assert(" + cond() + ");"
					}
					acts = append(acts, act)
				}
				if choose {
					acts = append([]string{fmt.Sprintf("x := externChoose(%d, %d);", r.IntN(3), 3+r.IntN(3))}, acts...)
				}
				fmt.Fprintf(&b, "      when %s do { %s } goto l%d;\n", cond(), strings.Join(acts, " "), l+1+r.IntN(n-l))
			}
		}
		fmt.Fprintf(&b, "    loc l%d:\n  end %s;\n", n, name)
	}
	thread("M", 3+r.IntN(4))
	if twoThreads {
		thread("N", 1+r.IntN(3))
	}
	b.WriteString("end R;\n")
	atoms := []string{"x < y", "x == y", "x >= 0", "x == 1", "y > 2", "x + y > 1", "y == x + 1", "x < 3", "y >= 0"}
	r.Shuffle(len(atoms), func(i, j int) { atoms[i], atoms[j] = atoms[j], atoms[i] })
	return b.String(), strings.Join(atoms[:1+r.IntN(4)], "\n") + "\n"
}

// TestPredicatesRandomSound checks random models (a third of them with
// two threads) with predicates, with either engine, against the explicit search of the model itself: a pass
// is never wrong (the model has no violation), a failure is never wrong
// (the model has one, and the confirmed trail ends in it on the model), and
// bebop and the explicit engine agree on whether the abstract model has a
// violation.
func TestPredicatesRandomSound(t *testing.T) {
	n := 10 // about a second; most models are spurious (their overflows need bounds no random predicate gives)
	if testenv.Long() {
		n = 1500
	}
	counts := map[string]int{}
	for seed := 0; seed < n; seed++ {
		r := rand.New(rand.NewPCG(uint64(seed), 18))
		twoThreads := seed%3 == 2
		src, preds := randomPredModel(r, twoThreads)
		in, err := Load("r.bir", []byte(src))
		if err != nil {
			t.Fatalf("seed %d: %v\n%s", seed, err, src)
		}
		plain, err := Run(&Task{Input: in, Search: search.Config{NoDeadlock: true}})
		if err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
		truth := plain.Verdict()
		var verdicts []Verdict
		engines := []string{"explicit", "bebop"}
		if twoThreads {
			engines[1] = "" // bebop checks one thread: auto is the explicit engine
		}
		for _, engine := range engines {
			in, _ := Load("r.bir", []byte(src))
			pa := &PredicateAbstraction{File: "r.pred", Engine: engine, ReadFile: func(string) ([]byte, error) { return []byte(preds), nil }}
			res, err := Run(&Task{Input: in, Predicates: pa})
			if err != nil {
				t.Fatalf("seed %d, %s: %v\n%s%s", seed, engine, err, src, preds)
			}
			v := res.Verdict()
			verdicts = append(verdicts, v)
			switch {
			case truth == Inconclusive:
				t.Fatalf("seed %d: the model's own search is inconclusive: %s", seed, plain.Checks[0].Reason)
			case v == Pass && truth != Pass, v == Fail && truth != Fail:
				t.Fatalf("seed %d, %s: %v, but the model's own search says %v (%s)\n%s%s", seed, engine, v, truth, plain.Checks[0].Reason, src, preds)
			case v == Fail:
				cv := res.Checks[0].Violation
				_, steps, err := search.Replay(compile(t, in, model.Options{}), cv.Ordinals)
				if err != nil || len(steps) == 0 || steps[len(steps)-1].Step.Kind.String() != cv.Kind {
					t.Fatalf("seed %d, %s: the confirmed trail does not replay to %s: %v", seed, engine, cv.Kind, err)
				}
			}
		}
		if (verdicts[0] == Pass || verdicts[1] == Pass) && verdicts[0] != verdicts[1] {
			// both search the same abstract model: it has a violation or
			// not (which violation each finds first, real or spurious,
			// may differ)
			t.Fatalf("seed %d: explicit %v, bebop %v\n%s%s", seed, verdicts[0], verdicts[1], src, preds)
		}
		counts[verdicts[0].String()]++
	}
	t.Logf("%d models: %v", n, counts)
	if counts["pass"] == 0 || counts["fail"] == 0 {
		t.Errorf("the models do not exercise both verdicts: %v", counts)
	}
}

// TestPredicatesRandomUnbounded checks the random models with every
// choice made unbounded (externChoose(int)), which only predicates can
// check: a pass holds of the model with its original small inputs too
// (which has fewer behaviours), and a confirmed failure's trail replays
// on the model with the input values it records (as birch replay does).
func TestPredicatesRandomUnbounded(t *testing.T) {
	n := 10
	if testenv.Long() {
		n = 1000
	}
	choice := regexp.MustCompile(`externChoose\([^)]*\)`)
	counts := map[string]int{}
	for seed := 0; seed < n; seed++ {
		r := rand.New(rand.NewPCG(uint64(seed), 19))
		small, preds := randomPredModel(r, seed%3 == 2)
		src := choice.ReplaceAllString(small, "externChoose(int)")
		in, err := Load("r.bir", []byte(src))
		if err != nil {
			t.Fatalf("seed %d: %v\n%s", seed, err, src)
		}
		pa := &PredicateAbstraction{File: "r.pred", ReadFile: func(string) ([]byte, error) { return []byte(preds), nil }}
		res, err := Run(&Task{Input: in, Predicates: pa})
		if err != nil {
			t.Fatalf("seed %d: %v\n%s%s", seed, err, src, preds)
		}
		v := res.Verdict()
		counts[v.String()]++
		switch v {
		case Pass:
			in, _ := Load("r.bir", []byte(small))
			if plain, err := Run(&Task{Input: in, Search: search.Config{NoDeadlock: true}}); err != nil || plain.Verdict() != Pass {
				t.Fatalf("seed %d: pass with unbounded inputs, but not with small ones (%v)\n%s%s", seed, err, src, preds)
			}
		case Fail:
			cv := res.Checks[0].Violation
			m := compile(t, in, model.Options{ChoiceValues: cv.ChoiceValues})
			_, steps, err := search.Replay(m, cv.Ordinals)
			unbounded := model.UnboundedChoices(in.Prog, 0) != nil
			if unbounded != (cv.ChoiceValues != nil) || err != nil || len(steps) == 0 || steps[len(steps)-1].Step.Kind.String() != cv.Kind {
				t.Fatalf("seed %d: the confirmed trail does not replay to %s with %v: %v\n%s%s", seed, cv.Kind, cv.ChoiceValues, err, src, preds)
			}
		}
	}
	t.Logf("%d models: %v", n, counts)
	if counts["fail"] == 0 {
		t.Errorf("no model fails: %v", counts)
	}
}
