package apf_test

import (
	"fmt"
	"testing"

	"birch/internal/apf"
	"birch/internal/smt/solvers"
	"birch/internal/testenv"
)

// rresult is the outcome of the soundness check of one model.
type rresult struct {
	unsupported bool
	concrete    int // concrete states found
	complete    bool
	abstract    int    // on-the-fly states
	limited     string // the on-the-fly search reached this limit (not compared)
	large       bool   // the on-the-fly search has more than maxAbstract states (not compared)
	counts      rcounts
}

// rsound runs the soundness check on one model and returns the first
// discrepancy as an error.
func rsound(m *rmodel, maxAbstract int, solver string) (res rresult, err error) {
	_, cg, err := rconcrete(m, rMaxConcrete)
	if err != nil {
		return res, err
	}
	p, err := rinstrument(m)
	if err != nil {
		return res, fmt.Errorf("Instrument: %v", err)
	}
	if p.Unsupported != nil {
		res.unsupported = true
		return res, nil
	}
	rt, err := apf.NewRuntime(p, apf.Config{Solver: solver})
	if err != nil {
		return res, fmt.Errorf("NewRuntime: %v", err)
	}
	defer rt.Close()
	ag, err := ronTheFly(m, p, rt, maxAbstract)
	if err != nil {
		return res, err
	}
	if err := rt.Err(); err != nil {
		return res, fmt.Errorf("the solver failed: %v", err)
	}
	if !ag.complete {
		res.large = true // beyond the bound: not compared
		return res, nil
	}
	if len(ag.limits) > 0 {
		// a limit makes the check inconclusive, never a pass; the
		// states past it are missing
		res.limited = ag.limits[0]
		return res, nil
	}
	res.concrete, res.complete, res.abstract = len(cg.states), cg.complete, len(ag.states)
	res.counts, err = rcompare(cg, ag)
	return res, err
}

// TestSoundnessByEnumeration is issue 22's soundness test on random models
// (the comment at the top of sound_test.go says what it checks).
func TestSoundnessByEnumeration(t *testing.T) {
	max := 1000 // a few models have many more states than the others
	if testenv.Long() {
		max = rMaxAbstract
	}
	rsoundRun(t, rseeds(20, 600), rlocked, max, "")
	// the runtime's queries asked of z3 and cvc5 instead of the embedded
	// solver (long suite only: a process per model)
	for _, solver := range []string{"z3", "cvc5"} {
		t.Run(solver, func(t *testing.T) {
			testenv.SkipUnlessLong(t)
			if !solvers.Available(solver) {
				t.Skipf("%s is not installed", solver)
			}
			rsoundRun(t, rseeds(0, 150), rlocked, rMaxAbstract, solver)
		})
	}
}

func rsoundRun(t *testing.T, seeds []uint64, o ropts, maxAbstract int, solver string) {
	var sum rresult
	checked, unsupported, limited, large, complete := 0, 0, 0, 0, 0
	fracs, withInstances := 0.0, 0 // the fraction of known instances, per model
	for _, seed := range seeds {
		m := rgenerate(seed, o)
		res, err := rsound(m, maxAbstract, solver)
		if err != nil {
			t.Errorf("seed %d: %v\nmodel:\n%s\npredicates:\n%s", seed, err, m.Src, m.PredFile())
			continue
		}
		switch {
		case res.unsupported:
			unsupported++
			continue
		case res.limited != "":
			limited++
			t.Logf("seed %d: a limit: %s", seed, res.limited)
			continue
		case res.large:
			large++
			continue
		}
		checked++
		if res.complete {
			complete++
		}
		sum.concrete += res.concrete
		sum.abstract += res.abstract
		sum.counts.matched += res.counts.matched
		sum.counts.errors += res.counts.errors
		sum.counts.steps += res.counts.steps
		sum.counts.same += res.counts.same
		sum.counts.instances += res.counts.instances
		sum.counts.known += res.counts.known
		if res.counts.instances > 0 {
			fracs += float64(res.counts.known) / float64(res.counts.instances)
			withInstances++
		}
	}
	t.Logf("%d models checked (%d explored completely), %d unsupported, %d limited, %d with more than %d on-the-fly states; concrete states %d, %d of them matched, %d steps matched; on-the-fly states %d; concrete errors %d, %d of the same kind; predicate instances of the matched states %d, known %d (%.0f%% per model on average)",
		checked, complete, unsupported, limited, large, maxAbstract, sum.concrete, sum.counts.matched, sum.counts.steps, sum.abstract, sum.counts.errors, sum.counts.same, sum.counts.instances, sum.counts.known, 100*fracs/float64(max(withInstances, 1)))
	if fracs < 0.4*float64(withInstances) {
		t.Errorf("the runtime knows too few predicates for the comparison to mean much")
	}
	if checked < len(seeds)*3/4 {
		t.Errorf("only %d of %d models checked", checked, len(seeds))
	}
}
