package amcs

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"birch/internal/bir/types"
	"birch/internal/model"
	"birch/internal/search"
	"birch/internal/testenv"
)

// Every variant on the repository's example models (locks with wait and
// notify, reentrant monitors, dynamic threads, heap lists and arrays,
// casts, runtime errors, invisible runs) against the explicit search, as in
// the differential test: no pass where the explicit search fails or is cut,
// an exact round as large as the explicit search, every trail replays.
func TestExamplesAgainstExplicit(t *testing.T) {
	testenv.SkipUnlessLong(t)
	var files []string
	for _, g := range []string{"../../examples/*.bir", "../../examples/*/*.bir", "../../bench/models/small/*.bir"} {
		fs, _ := filepath.Glob(g)
		files = append(files, fs...)
	}
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		prog := testenv.CheckBIR(src)
		if prog == nil {
			continue
		}
		m, err := model.New(prog, model.Options{})
		if err != nil {
			continue
		}
		var sm search.Model = m
		if len(prog.Properties) > 0 {
			var invs []*types.Property
			for _, p := range prog.Properties {
				if !p.LTL {
					invs = append(invs, p)
				}
			}
			if len(invs) > 0 {
				inv, err := search.NewInvariants(m, invs)
				if err != nil {
					t.Fatal(err)
				}
				sm = search.WithStateCheck(m, inv)
			}
		}
		ex := search.Run(sm, search.Config{Strategy: search.BFS, MaxStates: 100000, TimeLimit: 10 * time.Second})
		for v := AMCS; v <= MinOnly; v++ {
			cfg := Config{Variant: v, Seed: 1, TimeLimit: 10 * time.Second, MaxRounds: 200}
			if ex.Stopped != "" {
				cfg.MaxStates = 100000
			}
			res := Run(m, sm, cfg)
			t.Logf("%s %v: %v (explicit %v, %d states) %s", filepath.Base(f), v, res.Verdict, ex.Verdict, ex.Stats.States, res.Reason)
			switch res.Verdict {
			case search.Pass:
				if ex.Verdict != search.Pass || res.Rounds[len(res.Rounds)-1].AbstractStates != ex.Stats.States {
					t.Errorf("%s %v: pass with %d states; explicit %v with %d", f, v, res.Rounds[len(res.Rounds)-1].AbstractStates, ex.Verdict, ex.Stats.States)
				}
			case search.Fail:
				if len(res.Trail) > 0 || res.Violation.Kind == model.Deadlock {
					checkTrail(t, sm, res)
				}
				if ex.Verdict == search.Pass {
					t.Errorf("%s %v: %v, explicit pass", f, v, res.Violation.Kind)
				}
			}
		}
	}
}
