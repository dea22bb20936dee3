package bebop

import (
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"birch/internal/boolprog"
	"birch/internal/testenv"
)

// TestTestdataExplicitAgrees: the explicit checker gives every test
// program the verdict in its name too.
func TestTestdataExplicitAgrees(t *testing.T) {
	files, _ := filepath.Glob("testdata/*.bp")
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		_, info, fset := parse(t, f, string(src))
		ex := boolprog.CheckExplicit(fset, info, boolprog.Limits{})
		if want := strings.HasSuffix(f, "-unsafe.bp"); ex.Verdict == boolprog.Inconclusive || (ex.Verdict == boolprog.Fail) != want {
			t.Errorf("%s: explicit %v (%s)", f, ex.Verdict, ex.Reason)
		}
	}
}

// TestManyVariablesExplicit: the explicit checker cannot decide
// TestManyVariables' program within its bounds (why the BDDs are there).
func TestManyVariablesExplicit(t *testing.T) {
	_, info, fset := parse(t, "parity-safe.bp", parityProgram(40))
	if ex := boolprog.CheckExplicit(fset, info, boolprog.Limits{MaxStates: 1 << 16}); ex.Verdict != boolprog.Inconclusive {
		t.Errorf("explicit: %v, expected its state bound to stop it", ex.Verdict)
	}
}

// TestAgreesWithExplicit: on random programs, with and without recursion,
// the symbolic checker and the explicit one (boolprog.CheckExplicit) give
// the same verdict, and every unsafe trail replays. 1000 programs by
// default, 20000 with BIRCH_LONG=1.
func TestAgreesWithExplicit(t *testing.T) {
	n := 1000
	if testenv.Long() {
		n = 20000
	}
	counts := map[string]int{}
	for seed := int64(0); seed < int64(n); seed++ {
		g := &gen{r: rand.New(rand.NewSource(seed)), recursive: seed%2 == 1}
		src := g.program()
		name := fmt.Sprintf("gen%d.bp", seed)
		_, info, fset := parse(t, name, src)
		ex := boolprog.CheckExplicit(fset, info, boolprog.Limits{})
		res := Check(info, Config{})
		if ex.Verdict == boolprog.Inconclusive || res.Outcome == Inconclusive {
			t.Fatalf("%s: explicit %v (%s), bdd %v (%s)\n%s", name, ex.Verdict, ex.Reason, res.Outcome, res.Reason, src)
		}
		if (ex.Verdict == boolprog.Fail) != (res.Outcome == Unsafe) {
			t.Fatalf("%s: explicit %v, bdd %v\n%s", name, ex.Verdict, res.Outcome, src)
		}
		counts[res.Outcome.String()]++
		if res.Outcome == Unsafe {
			checkTrail(t, name, info, fset, res)
		}
	}
	// Both verdicts must be well represented for the agreement to mean
	// something.
	if counts["safe"] < n/10 || counts["unsafe"] < n/10 {
		t.Errorf("verdicts %v: the generator is unbalanced", counts)
	}
	t.Logf("verdicts: %v", counts)
}
