package verify

import (
	"errors"
	"fmt"

	"birch/internal/backend/promela"
	"birch/internal/bir/types"
	"birch/internal/model"
	"birch/internal/search"
)

// The verdicts of the SPIN step's runs: pan's violation, its trail (or
// lasso) mapped to the BIR model and replayed by birch's engine.

// spinViolation is the violation pan reported, before its trail is read:
// its kind and SPIN's text.
func spinViolation(r *promela.PanReport) *search.Violation {
	v := &search.Violation{Thread: -1, Msg: "SPIN: " + spinErrorText(r)}
	if k, ok := model.ParseErrorKind(r.Kind); ok {
		v.Kind = k
	}
	return v
}

// Confirmations of SPIN's violations.
var (
	byReplay = Confirmation{Confirmed: true, By: "found by SPIN; replayed in birch"}
	// the verdict is SPIN's when its trail is not one of birch's
	bySpinOnly = Confirmation{Confirmed: true, By: "found by SPIN; its trail could not be replayed in birch"}
	// a 32-bit overflow: a violation under Promela's int only
	bySpinInt = Confirmation{Confirmed: true, By: "found by SPIN with Promela's 32-bit int; birch's int has 64 bits and no violation there"}
)

// setViolation sets c's violation v, found by SPIN: final is the state
// its trail ends in (nil without one), trail its steps, ords the ordinals
// that replay it (nil when it cannot be saved).
func (c *Check) setViolation(in *Input, m *model.Model, v *search.Violation, final []byte, trail []Step, ords []int, conf Confirmation) {
	c.Violation = describeViolation(in.Fset, m, v, final)
	c.Violation.Trail, c.Violation.Ordinals, c.Violation.Confirmation = trail, ords, conf
	c.attribute(v)
}

// note adds a remark to c's report and to its SpinInfo.
func (c *Check) note(s string) {
	c.Notes = append(c.Notes, s)
	if c.Spin != nil && c.Spin.Note == "" {
		c.Spin.Note = s
	}
}

// spinSafety is the SPIN run for safety: the assertions, runtime errors,
// deadlocks and the invariants invs (checked by a monitor process).
func spinSafety(t *Task, so SpinOptions, c *Check, m *model.Model, invs []*types.Property) error {
	in := t.Input
	sm, err := safetyModel(m, invs)
	if err != nil {
		return err
	}
	if invs == nil {
		invs = []*types.Property{} // none: nil would be every invariant
	}
	run, err := so.run(t, c, in, promela.Options{Invariants: invs}, promela.SpinConfig{}, false)
	if run == nil {
		return err
	}
	defer run.cleanup()
	r := run.r
	if run.stopped != "" || r.Errors == 0 {
		run.noViolation(c, so.Bitstate, "no violation: every reachable state was explored")
		return nil
	}
	sv := spinViolation(r)
	c.Reason = r.Kind + ": " + sv.Msg
	var ords []int
	var merr error
	if r.Trail == "" {
		merr = errors.New("pan wrote no trail")
	} else if spinSteps, err := promela.ReadTrail(t.limits().Ctx, run.dir, run.tr); err != nil {
		merr = err
	} else {
		ords, merr = promela.MapTrailIn(m, sm, spinSteps, r.Kind)
	}
	if merr != nil && !errors.Is(merr, promela.ErrNotInBirch) {
		c.setViolation(in, m, sv, nil, nil, nil, bySpinOnly)
		c.note(fmt.Sprintf("SPIN's trail could not be mapped to the BIR model: %v", merr))
		return nil
	}
	init, ts, err := search.Replay(sm, ords)
	if err != nil {
		c.setViolation(in, m, sv, nil, nil, nil, bySpinOnly)
		c.note(fmt.Sprintf("SPIN's trail could not be replayed in birch: %v", err))
		return nil
	}
	steps := DescribeTrail(m, in.Fset, ts)
	final := search.Final(init, ts)
	if sm != search.Model(m) && merr == nil {
		// the trail in user terms is the model's, as birch check shows
		// it: an invariant is violated by a state, not by a step, so the
		// last step leads into that state (and the trail replays with
		// birch replay)
		if minit, mts, err := search.Replay(m, ords); err == nil {
			steps, final = DescribeTrail(m, in.Fset, mts), search.Final(minit, mts)
		}
	}
	if merr != nil {
		// a 32-bit overflow: the trail's last step completes in birch
		sv.Msg = "integer overflow beyond 32 bits (Promela's int; birch's has 64 bits, so birch has no violation here)"
		c.Reason = r.Kind + ": " + sv.Msg
		if n := len(ts); n > 0 {
			last := ts[n-1].Step
			sv.Thread = last.Thread
			if len(last.Groups) > 0 {
				sv.Pos = m.Groups()[last.Groups[len(last.Groups)-1]].Decl.Pos()
			}
		}
		c.setViolation(in, m, sv, final, steps, nil, bySpinInt)
		c.note("the trail shows the steps up to the one that overflows in SPIN; it is not saved (birch replay would find no violation)")
		return nil
	}
	if _, fail := sm.Initial(nil); len(ts) == 0 && fail != nil {
		sv = &search.Violation{Kind: fail.Kind, Msg: fail.Msg, Thread: -1, Pos: fail.Pos}
	} else if n := len(ts); n > 0 && r.Kind != "deadlock" {
		last := ts[n-1].Step
		sv = &search.Violation{Kind: last.Kind, Msg: last.Msg, Thread: last.Thread, Pos: last.Pos, Groups: last.Groups}
	} else if r.Kind == "deadlock" {
		sv = &search.Violation{Kind: model.Deadlock, Msg: "no thread can move", Thread: -1}
	}
	c.Reason = sv.Kind.String() + ": " + sv.Msg
	c.setViolation(in, m, sv, final, steps, ords, byReplay)
	return nil
}

// spinLTL is the SPIN run of an ltl property: the translation emits it as
// an ltl block (or a never claim from birch's automaton), pan searches for
// an acceptance cycle (-a, and -f with Fair), and SPIN's lasso is mapped
// back to birch. keepClaim: keep the run's files in a directory of
// so.Keep named after the claim.
func spinLTL(t *Task, so SpinOptions, c *Check, p *ltlProperty, m *model.Model, keepClaim bool) error {
	if p.spec.Formula.HasNext() && hasInvisible(m) {
		t.warn(fmt.Sprintf("warning: %s uses X (next): the translation keeps each invisible run one "+
			"atomic step, which SPIN's claim sees as one step, while birch check exposes the runs' inner states for "+
			"X: on this model the two verdicts may differ (docs/properties.md)", p.Title))
	}
	popts := promela.Options{NoInvariants: true, Formulas: []promela.Formula{{Name: p.prop, Spec: p.spec}}}
	run, err := so.run(t, c, p.in, popts, promela.SpinConfig{Fair: p.Fair}, keepClaim)
	if run == nil {
		return err
	}
	defer run.cleanup()
	r := run.r
	switch {
	case run.stopped != "" || r.Errors == 0:
		run.noViolation(c, so.Bitstate, "no violation: every reachable state of the product with the property's never claim was explored")
	case r.Kind == "ltl":
		run.lasso(t, c, p, m)
	default:
		// a runtime error of the model on the way
		sv := spinViolation(r)
		c.Reason = r.Kind + ": " + sv.Msg
		var ords []int
		spinSteps, err := promela.ReadTrail(t.limits().Ctx, run.dir, run.tr)
		if err == nil {
			ords, err = promela.MapTrail(m, spinSteps, r.Kind)
		}
		if err != nil {
			c.setViolation(p.in, m, sv, nil, nil, nil, bySpinOnly)
			c.note(fmt.Sprintf("SPIN's trail could not be mapped to the BIR model: %v", err))
			return nil
		}
		init, ts, err := search.Replay(m, ords)
		if err != nil || len(ts) == 0 {
			c.setViolation(p.in, m, sv, nil, nil, nil, bySpinOnly)
			c.note("SPIN's trail could not be replayed in birch")
			return nil
		}
		last := ts[len(ts)-1].Step
		sv = &search.Violation{Kind: last.Kind, Msg: last.Msg, Thread: last.Thread, Pos: last.Pos, Groups: last.Groups}
		c.Reason = sv.Kind.String() + ": " + sv.Msg
		c.setViolation(p.in, m, sv, search.Final(init, ts), DescribeTrail(m, p.in.Fset, ts), ords, byReplay)
	}
	return nil
}

// lasso reads the acceptance cycle (or the bad prefix) pan found for p
// and maps it to a lasso of birch's model.
func (run *spinRun) lasso(t *Task, c *Check, p *ltlProperty, m *model.Model) {
	sv := &search.Violation{Kind: model.LTLViolated, Msg: fmt.Sprintf("%s violated: %s", p.Title, p.Formula), Thread: -1}
	c.Reason = "ltl: " + sv.Msg
	steps, cyc, err := promela.ReadLasso(t.limits().Ctx, run.dir, run.tr)
	var ords []int
	stutter := false
	info := ""
	switch {
	case err != nil:
	case run.r.Cycle:
		ords, err = promela.MapLasso(m, steps, cyc)
		stutter = cyc == len(steps)
	default:
		// a bad prefix: SPIN's claim failed an assertion; birch extends
		// it into a lasso (any extension violates)
		if ords, err = promela.MapPrefix(m, steps); err == nil {
			ords, cyc, stutter, err = promela.CompleteLasso(m, ords, 1_000_000)
			info = "SPIN found a bad prefix (every continuation violates the formula); birch completed it into a lasso"
		}
	}
	var init []byte
	var ts []search.TrailStep
	if err == nil {
		init, ts, err = search.Replay(m, ords)
	}
	if err != nil {
		// the verdict stands, but there is no trail in birch's terms
		c.setViolation(p.in, m, sv, nil, nil, nil, bySpinOnly)
		c.note(fmt.Sprintf("SPIN's trail could not be mapped to the BIR model: %v", err))
		return
	}
	if stutter && cyc < len(ords) {
		stutter = false
	}
	if !stutter && cyc == len(ords) {
		stutter = true
	}
	final := search.Final(init, ts)
	c.setViolation(p.in, m, sv, final, DescribeTrail(m, p.in.Fset, ts), ords, byReplay)
	c.Violation.Lasso = &Lasso{CycleStart: cyc, Stutter: stutter,
		End: lassoEnd(m, &search.LTLResult{CycleStart: cyc, Stutter: stutter}, final)}
	if info != "" {
		c.note(info)
	}
}
