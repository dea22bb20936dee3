package verify

import (
	"strings"

	"birch/internal/backend/bp"
	"birch/internal/bir/types"
	"birch/internal/boolprog/bebop"
	"birch/internal/model"
	"birch/internal/search"
)

// The BDD step of a check with predicate abstraction: the abstract model
// of a one-thread model, written as a SLAM boolean program (package
// backend/bp), is decided by Bebop's checker (boolprog/bebop), exactly and
// without a call-depth bound; a failing trail of the boolean program is
// mapped back to the ordinals of the abstract model, and the confirmation
// runs as after the explicit search. The step applies when the boolean
// program can be written (one thread, booleans only, no properties
// section, so no invariant) and its trail replays on the abstract model;
// otherwise the explicit engine searches (PredicateAbstraction.Engine).

// bebopEngine is the name of the step in reports.
const bebopEngine = "bebop"

// searchBebop decides the assertions and runtime errors of am's abstract
// model (whose safety model, with invs, is absSM) with Bebop. It returns
// nil and why when the step does not apply.
//
// A boolean program has no call-depth bound. Where BIR's bounds can cut
// the abstract model's paths (out.Bounds), a pass of bebop covers every
// call depth, which is more than birch check claims within BIR's bounds
// and still true of every execution BIR has; but with --on-limit=error
// (limitError) reaching a bound is a violation that bebop cannot see, so
// the step does not apply.
func searchBebop(t *Task, am *abstractModel, absSM search.Model, invs []*types.Property, limitError bool) (res *search.Result, stats *bebop.Stats, why string) {
	if len(invs) > 0 {
		return nil, nil, "a boolean program has no invariants"
	}
	out, err := bp.Translate(am.abs.Prog, bp.Config{})
	if err != nil {
		return nil, nil, "the abstract model is not a boolean program: " + firstLine(err.Error())
	}
	if limitError && out.Bounds != "" {
		return nil, nil, "--on-limit=error, and a bound of BIR that a boolean program does not have may be reached: " + out.Bounds
	}
	release := t.limits().StartSearch()
	r := bebop.Check(out.Info, bebop.Config{Context: t.limits().Ctx})
	release()
	switch r.Outcome {
	case bebop.Safe:
		reason := "no violation: no assertion of the abstract model's boolean program can fail (bebop)"
		if out.Bounds != "" {
			reason = "no violation: no assertion of the abstract model's boolean program can fail at any call depth (bebop; " + out.Bounds + ")"
		}
		return &search.Result{Verdict: search.Pass, Complete: true, Reason: reason}, &r.Stats, ""
	case bebop.Inconclusive:
		return nil, nil, "bebop: " + r.Reason
	}
	if r.Trail == nil || r.TrailCut {
		return nil, nil, "bebop found a violation without a whole trail"
	}
	// mapping the trail back enumerates the successors of each of its
	// states, which the abstraction's choices make many (2^k for k
	// unknown predicates): the limits stop it (a --time-limit of 50 s ran
	// for ten minutes there)
	var v *search.Violation
	var ords []int
	stopped := t.limits().Run(PhaseSearch, func() {
		sc, err := out.Map.Schedule(r.BoolprogResult(out.Fset).Trail, true)
		if err != nil {
			why = "bebop's trail: " + err.Error()
			return
		}
		ords, err = sc.Ordinals(am.absM)
		if err != nil {
			why = "bebop's trail does not replay on the abstract model: " + err.Error()
			return
		}
		_, steps, err := search.Replay(absSM, ords)
		if err != nil || len(steps) == 0 || steps[len(steps)-1].Step.Outcome == model.OK {
			why = "bebop's trail does not end in a violation of the abstract model"
			return
		}
		st := steps[len(steps)-1].Step
		v = &search.Violation{Kind: st.Kind, Msg: st.Msg, Thread: st.Thread, Pos: st.Pos, Groups: st.Groups}
	})
	if stopped != "" {
		return &search.Result{Verdict: search.Inconclusive, Reason: stopped, Stopped: stopped}, &r.Stats, ""
	}
	if v == nil {
		return nil, nil, why
	}
	return &search.Result{Verdict: search.Fail, Violation: v, Trail: ords, Reason: v.Kind.String() + ": " + v.Msg}, &r.Stats, ""
}

// firstLine is s up to its first newline.
func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}

// searchAbstractPredicates searches the abstract model of am (absSM, with
// the invariants invs) with the engine t asks for: bebop where it applies
// (Engine "" or "bebop", and no option of the explicit search that bebop
// has not: --max-depth, --max-states, --choose-free), the explicit engine
// with cfg otherwise.
func searchAbstractPredicates(t *Task, am *abstractModel, absSM search.Model, invs []*types.Property, cfg search.Config) (*search.Result, Engine, error) {
	want := t.Predicates.Engine
	engine := Engine{Name: "explicit"}
	if want != "explicit" {
		why := "--max-depth, --max-states and --choose-free are options of the explicit search"
		if cfg.MaxDepth == 0 && cfg.MaxStates == 0 && !cfg.ChooseFree {
			res, st, reason := searchBebop(t, am, absSM, invs, cfg.LimitError)
			if res != nil {
				return res, Engine{Name: bebopEngine, BDDNodes: st.BDDNodes}, nil
			}
			why = reason
		}
		if want == bebopEngine {
			return nil, Engine{}, usagef("--engine=bebop does not apply: %s", why)
		}
		engine.Note = why
	}
	if why := tooManyOutcomes(am.absM, func(g model.Group) string { return PosString(am.abs.Fset, g.Decl.Pos()) }); why != "" {
		return unsearched(why), engine, nil
	}
	release := t.limits().StartSearch()
	defer release()
	return search.Run(absSM, cfg), engine, nil
}
