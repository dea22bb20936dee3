package verify

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"birch/internal/search"
	"birch/internal/testenv"
)

// randomAMCSFeatureModel is a random model with what randomAMCSModel does
// not generate: a recursive function with a return value, a global array
// indexed by data, a heap record, two instances of one thread started at
// run time (each with its locals), and invisible runs over the locals.
// Values stay small (modulo 4) so that the explicit search is complete.
func randomAMCSFeatureModel(r *rand.Rand) string {
	vs := []string{"x", "n", "m", "a[n % 3]", "a[x % 3]", "p.v", "id"}
	locals := []string{"n", "m", "id"}
	pick := func(s []string) string { return s[r.IntN(len(s))] }
	cond := func(pool []string) string {
		v, w, c := pick(pool), pick(pool), r.IntN(4)
		switch r.IntN(5) {
		case 0:
			return "true"
		case 1:
			return fmt.Sprintf("%s < %s + %d", v, w, c)
		case 2:
			return fmt.Sprintf("%s == %d", v, c)
		case 3:
			return fmt.Sprintf("%s != %s", v, w)
		}
		return fmt.Sprintf("%s > %d", v, c)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "system R ()\nCell = record { v : int; };\nCellRef = ref Cell;\nCells : collection [1] of Cell;\n")
	fmt.Fprintf(&b, "x : int := %d;\na : array [3] of int;\np : CellRef;\n\n", r.IntN(3))
	fmt.Fprintf(&b, `function f (k : int) : int
  t : int;
  loc f0:
    when k <= 0 do { } return %d;
    when k > 0 do { t := call f(k - 1); } goto f1;
  loc f1:
    when true do { } return (t + k + %d) %% 4;
end f;

`, r.IntN(3), r.IntN(3))
	n := 2 + r.IntN(3)
	b.WriteString("thread W (id : int)\n  n, m : int;\n")
	for l := 0; l < n; l++ {
		fmt.Fprintf(&b, "  loc l%d:\n", l)
		if r.IntN(4) == 0 {
			// an invisible run over the locals (forward: no invisible cycle)
			for k := 0; k < 1+r.IntN(2); k++ {
				fmt.Fprintf(&b, "    when %s do invisible { %s := (%s + %d) %% 4; } goto l%d;\n", cond(locals), pick([]string{"n", "m"}), pick(locals), r.IntN(3), l+1)
			}
			continue
		}
		for k := 0; k < 1+r.IntN(2); k++ {
			to := r.IntN(n + 1)
			switch r.IntN(5) {
			case 0:
				fmt.Fprintf(&b, "    when %s do { %s := call f(x %% 3); } goto l%d;\n", cond(vs), pick([]string{"n", "m"}), to)
			case 1:
				fmt.Fprintf(&b, "    when %s do { a[(x + n) %% 3] := (%s + id) %% 4; } goto l%d;\n", cond(vs), pick(vs), to)
			case 2:
				fmt.Fprintf(&b, "    when %s do { p.v := (%s + %s) %% 4; } goto l%d;\n", cond(vs), pick(vs), pick(vs), to)
			case 3:
				fmt.Fprintf(&b, "    when %s do { assert(%s); } goto l%d;\n", cond(vs), cond(vs), to)
			default:
				fmt.Fprintf(&b, "    when %s do { x := (%s + %s) %% 4; } goto l%d;\n", cond(vs), pick(vs), pick(vs), to)
			}
		}
	}
	fmt.Fprintf(&b, "  loc l%d:\nend W;\n\n", n)
	fmt.Fprintf(&b, `main thread Main ()
  loc m0:
    when true do { p := new Cells; start W(1); } goto m1;
  loc m1:
    when %s do { start W(2); } goto m2;
  loc m2:
end Main;
end R;
`, cond([]string{"x", "a[0]", "p.v"}))
	return b.String()
}

// TestAMCSRandomFeatures is TestAMCSRandomNeverPass over models with
// functions, arrays indexed by data, heap fields, threads started at run
// time and invisible runs: abstract matching never passes a model with a
// reachable violation, passes only exact with the explicit search's
// states, and every violation it reports is the model's and replays.
func TestAMCSRandomFeatures(t *testing.T) {
	n := 12
	if testenv.Long() {
		n = 120
	}
	counts := map[string]int{}
	for seed := 0; seed < n; seed++ {
		r := rand.New(rand.NewPCG(uint64(seed), 2121))
		src := randomAMCSFeatureModel(r)
		in, err := Load("r.bir", []byte(src))
		if err != nil {
			t.Fatalf("seed %d: %v\n%s", seed, err, src)
		}
		cfg := search.Config{NoDeadlock: true}
		plain, err := Run(&Task{Input: in, Search: cfg})
		if err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
		truth := plain.Verdict()
		counts["model "+truth.String()]++
		if truth == Inconclusive {
			continue
		}
		for _, v := range allVariants {
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
			what := fmt.Sprintf("seed %d --amcs=%s", seed, v)
			switch {
			case got == Pass && truth != Pass:
				t.Errorf("%s: pass on a model with a reachable violation (%s)\n%s", what, plain.Checks[0].Reason, src)
			case got == Pass && (!c.AMCS.Exact || c.Stats.States != plain.Checks[0].Stats.States):
				t.Errorf("%s: pass with exact %v and %d states; the explicit search stores %d\n%s", what, c.AMCS.Exact, c.Stats.States, plain.Checks[0].Stats.States, src)
			case got == Fail && truth != Fail:
				t.Errorf("%s: a violation (%s) that the explicit search does not find\n%s", what, c.Reason, src)
			case got == Fail:
				amcsReplayed(t, what, in, c)
			case got == Inconclusive && c.AMCS.Exact:
				t.Errorf("%s: inconclusive but exact: %s", what, c.Reason)
			}
		}
	}
	t.Logf("%v", counts)
}
