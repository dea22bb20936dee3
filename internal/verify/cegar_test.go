package verify

import (
	"math/rand/v2"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"birch/internal/model"
	"birch/internal/search"
	"birch/internal/testenv"
)

// TestCegarRandomSound runs the refinement loop (no predicate file, at
// most 4 refinements, cubes of one literal to keep it fast) on the random models of the predicate check, with
// their small inputs and with every choice unbounded (externChoose(int)),
// against the explicit search of the model with its small inputs: a pass
// is never wrong (with unbounded inputs the model has more behaviours,
// so its pass holds of the small one), a failure with small inputs is the
// model's, and a confirmed trail replays into its violation (with the
// input values it records); every inconclusive end says why, and a round
// is reported for each abstraction.
func TestCegarRandomSound(t *testing.T) {
	n := 4 // about two seconds on a loaded machine
	if testenv.Long() {
		n = 300
	}
	counts := map[string]int{}
	for seed := 0; seed < n; seed++ {
		r := rand.New(rand.NewPCG(uint64(seed), 20))
		small, _ := randomPredModel(r, seed%3 == 2)
		cegarAgainstSearch(t, seed, small, counts)
	}
	t.Logf("%d models, small and unbounded: %v", n, counts)
	if counts["pass"] == 0 || counts["fail"] == 0 {
		t.Errorf("the models do not exercise both verdicts: %v", counts)
	}
}

// TestCegarRandomWrap is TestCegarRandomSound with x and y of
// fixed-width types (int8, uint8, int16, uint16): the stores wrap (x := x
// + -2 from 0 in a uint8 gives 254, and externChoose(int) into it any
// value of the type), and the loop must agree with the explicit search.
func TestCegarRandomWrap(t *testing.T) {
	n := 2
	if testenv.Long() {
		n = 300
	}
	// no int8 or uint8: the abstraction keeps a variable of 256 values, and
	// the abstract search of one with many predicates takes minutes
	widths := []string{"int16", "uint16", "int"}
	counts := map[string]int{}
	for seed := 0; seed < n; seed++ {
		r := rand.New(rand.NewPCG(uint64(seed), 21))
		small, _ := randomPredModel(r, seed%3 == 2)
		small = strings.Replace(small, "x : int ", "x : "+widths[r.IntN(len(widths))]+" ", 1)
		small = strings.Replace(small, "y : int ", "y : "+widths[r.IntN(len(widths))]+" ", 1)
		cegarAgainstSearch(t, seed, small, counts)
	}
	t.Logf("%d models, small and unbounded: %v", n, counts)
	if counts["pass"] == 0 || counts["fail"] == 0 {
		t.Errorf("the models do not exercise both verdicts: %v", counts)
	}
}

// cegarAgainstSearch checks the model small, and small with its choices
// made unbounded (externChoose(int)), with --cegar against the explicit
// search of small: no wrong pass, no wrong failure where the inputs are
// small, every confirmed trail replays to its error.
func cegarAgainstSearch(t *testing.T, seed int, small string, counts map[string]int) {
	t.Helper()
	choice := regexp.MustCompile(`externChoose\([^)]*\)`)
	in, err := Load("r.bir", []byte(small))
	if err != nil {
		t.Fatalf("seed %d: %v\n%s", seed, err, small)
	}
	plain, err := Run(&Task{Input: in, Search: search.Config{NoDeadlock: true}})
	if err != nil {
		t.Fatalf("seed %d: %v", seed, err)
	}
	truth := plain.Verdict()
	for _, src := range []string{small, choice.ReplaceAllString(small, "externChoose(int)")} {
		start := time.Now()
		unbounded := src != small
		in, _ := Load("r.bir", []byte(src))
		rounds := 0
		cg := &Cegar{MaxRefinements: 4, CubeLength: 1, Round: func(CegarRound) { rounds++ }}
		res, err := Run(&Task{Input: in, Cegar: cg, Search: search.Config{Strategy: search.BFS}})
		if err != nil {
			t.Fatalf("seed %d: %v\n%s", seed, err, src)
		}
		c := res.Checks[0]
		v := res.Verdict()
		t.Logf("seed %d unbounded %v: %v %v %d rounds (%s)", seed, unbounded, time.Since(start), v, rounds, c.Reason)
		counts[v.String()]++
		switch {
		case c.Cegar == nil || len(c.Cegar.Rounds) != rounds || rounds == 0 || rounds > 5:
			t.Fatalf("seed %d: %d rounds reported, info %+v", seed, rounds, c.Cegar)
		case v == Pass && truth != Pass, v == Fail && truth != Fail && !unbounded:
			t.Fatalf("seed %d (unbounded %v): %v, but the model's own search says %v (%s)\n%s", seed, unbounded, v, truth, plain.Checks[0].Reason, src)
		case v == Inconclusive && c.Reason == "":
			t.Fatalf("seed %d: inconclusive without a reason", seed)
		case v == Fail:
			cv := c.Violation
			m := compile(t, in, model.Options{ChoiceValues: cv.ChoiceValues, ExposeInvisible: cv.ExposeInvisible})
			_, steps, err := search.Replay(m, cv.Ordinals)
			if err != nil || len(steps) == 0 || steps[len(steps)-1].Step.Kind.String() != cv.Kind {
				t.Fatalf("seed %d (unbounded %v): the confirmed trail does not replay to %s with %v: %v\n%s", seed, unbounded, cv.Kind, cv.ChoiceValues, err, src)
			}
		}
	}
}

// The loop checks the invariants of the properties section with the
// assertions: one that holds passes with the seed's predicates, one that an
// input breaks is a confirmed failure (the path formula does not encode a
// trail that ends in an invariant, so the confirmation replays it).
func TestCegarInvariants(t *testing.T) {
	const src = `system Inv ()
i, n : int;

main thread Main ()
  loc input:
    when true do { n := externChoose(int); } goto admit;
  loc admit:
    when n >= 0 do { i := n; } goto loop;
    when n < 0 do { } goto done;
  loc loop:
    when i > 0 do { i := i - 1; } goto loop;
    when i <= 0 do { } goto done;
  loc done:
end Main;

properties
  invariant nonneg: i >= 0;
  INV
end Inv;
`
	for _, tc := range []struct {
		inv  string
		want Verdict
	}{
		{"", Pass},
		{"invariant small: i < 1000;", Fail},
	} {
		in, err := Load("inv.bir", []byte(strings.Replace(src, "INV", tc.inv, 1)))
		if err != nil {
			t.Fatal(err)
		}
		res, err := Run(&Task{Input: in, Cegar: &Cegar{}, Search: search.Config{Strategy: search.BFS}})
		if err != nil {
			t.Fatal(err)
		}
		c := res.Checks[0]
		if res.Verdict() != tc.want || len(c.Cegar.Rounds) != 1 {
			t.Fatalf("%q: %v after %d rounds (%s), want %v", tc.inv, res.Verdict(), len(c.Cegar.Rounds), c.Reason, tc.want)
		}
		if v := c.Violation; tc.want == Fail && (v.Kind != "invariant" || len(v.Inputs) != 1 || v.Inputs[0].Value < 1000) {
			t.Errorf("violation %+v, want invariant small with an input of 1000 or more", v)
		}
	}
}

// A refinement that would put more than 16 predicates on one variable
// stops before the round that abstracts with them (its abstract steps
// would expand into 2^25 valuations: this model's second round ran out of
// memory), inconclusive with the reason, and keeps the predicates it had.
func TestCegarPredicateLimit(t *testing.T) {
	const src = `system R ()
  x : int := 0;
  y : int := 2;
  main thread M ()
    loc l0:
      when y >= 1 do { x := externChoose(2, 4); y := externChoose(0, 1, 3); assert(true); } goto l2;
      when x != 0 do { x := externChoose(1, 3); assert(true); } goto l2;
    loc l1:
      when true do { x := externChoose(0, 4); assert(!(y == x + 0)); assert(x == 0); } goto l3;
    loc l2:
      when y >= 2 do { y := x + y; y := x + y; } goto l3;
    loc l3:
  end M;
end R;
`
	in, err := Load("r.bir", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	res, err := Run(&Task{Input: in, Cegar: &Cegar{MaxRefinements: 4, CubeLength: 1}, Search: search.Config{Strategy: search.BFS}})
	if err != nil {
		t.Fatal(err)
	}
	c := res.Checks[0]
	if res.Verdict() != Inconclusive || !strings.Contains(c.Reason, "the predicate limit: 25 predicates would read y") {
		t.Fatalf("%v: %s", res.Verdict(), c.Reason)
	}
	if len(c.Cegar.Rounds) != 1 || c.Cegar.Count != 4 || strings.Count(c.Cegar.Predicates, "\n") != 4 {
		t.Errorf("%d rounds, %d predicates:\n%s", len(c.Cegar.Rounds), c.Cegar.Count, c.Cegar.Predicates)
	}
}

// TestCegarRecordPredicates: a [record T] predicate in the starting file
// is a positioned error in that file (the boolean programs of the
// refinement keep no value per object).
func TestCegarRecordPredicates(t *testing.T) {
	in := load(t, examples+"/heap-list.bir")
	read := func(string) ([]byte, error) { return []byte("head == null\n[record Node]  this.next == null\n"), nil }
	_, err := Run(&Task{Input: in, Cegar: &Cegar{File: "rec.pred", ReadFile: read}})
	if err == nil || !strings.Contains(err.Error(), "rec.pred:2:16: --cegar reads predicates over globals, threads and functions; a [record Node] predicate is for --on-the-fly") {
		t.Errorf("a record predicate: %v, want a positioned error", err)
	}
}

// TestCegarWideRange: a range choice of more values than the explicit
// engine enumerates (Java's Verify.getInt(0, 100000000)) is an input whose
// value the refinement's replay takes from the solver; the replay hit the
// range's limit and a real violation was inconclusive.
func TestCegarWideRange(t *testing.T) {
	res := checkCegar(t, "wide", `system W ()
main thread M ()
  x : int32;
  loc s0: when true do { x := externChoose(0 .. 100000000); } goto s1;
  loc s1: when true do { assert(x != 99999999); } goto s2;
  loc s2:
end M;
end W;
`)
	c := res.Checks[0]
	if res.Verdict() != Fail || c.Violation == nil || !c.Violation.Confirmation.Confirmed {
		t.Fatalf("--cegar gives %v (%s), want a confirmed violation", res.Verdict(), c.Reason)
	}
	if got := c.Violation.ChoiceValues; !slices.Contains(got, 99999999) {
		t.Errorf("choice values %v, want 99999999 among them", got)
	}
}
