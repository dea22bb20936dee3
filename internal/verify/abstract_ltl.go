package verify

import (
	"fmt"

	"birch/internal/abstraction/data/feasible"
	"birch/internal/bir/ast"
	"birch/internal/ltl"
	"birch/internal/model"
	"birch/internal/search"
)

// LTL properties with abstraction (docs/abstraction.md, "LTL properties"):
// the product search checks the abstract model against the
// under-approximated formula that absgen wrote. A pass holds of the
// concrete model's executions that are infinite or end with every thread
// terminated (a concrete deadlock may have no abstract counterpart: the
// abstraction may enable a transformation where the concrete state has
// none). A violation is a lasso of the abstract model: its schedule is
// replayed on the concrete model, which confirms it only with a concrete
// lasso (the cycle closes, or the last state is final for a stutter) that
// violates the concrete formula, evaluated by ltl.Holds on the concrete
// propositions.

// notCoveredLTL is what a pass with abstraction does not prove of an LTL
// property.
const notCoveredLTL = "executions that end in a deadlock are not covered (abstraction does not preserve deadlocks)"

// checkAbstractLTL checks the ltl property p with the abstraction.
func checkAbstractLTL(t *Task, ac *abstractCache, p *ltlProperty) (*Check, error) {
	c := &Check{Properties: []*Property{p.Property}, Search: "dfs"}
	am, stop, err := ac.get(p.in, false)
	if err == nil && stop == nil && p.spec.Formula.HasNext() && (hasInvisible(am.concM) || hasInvisible(am.absM)) {
		// X counts steps: as without abstraction, on both models
		if am, stop, err = ac.get(p.in, true); err == nil && stop == nil {
			t.warn(xWarning(p.Title))
		}
	}
	if err != nil {
		return nil, err
	}
	if stop != nil {
		return c.stop(stop.Phase, stop.Reason), nil
	}
	var absExpr ast.Expr
	for _, pr := range am.abs.Prog.Properties {
		if pr.LTL && pr.Name() == p.prop {
			absExpr = pr.Decl.Expr
		}
	}
	if absExpr == nil {
		return nil, errorf("birch: internal error: the abstract model has no ltl property %s", p.prop)
	}
	absSpec, err := ltl.FromExpr(am.abs.Fset, absExpr)
	if err != nil {
		return nil, err
	}
	absEv, err := am.absM.NewEvaluator(propExprs(absSpec))
	if err != nil {
		return nil, err
	}
	concEv, err := am.concM.NewEvaluator(propExprs(p.spec))
	if err != nil {
		return nil, err
	}
	aut, stopped, err := t.translate(absSpec.Formula, absSpec.Names())
	if err != nil || stopped != "" {
		return c.stopIf(PhaseTranslation, stopped), err
	}
	prop := search.Property{Automaton: aut, Labels: absEv, Fair: p.Fair, Msg: fmt.Sprintf("%s violated: %s", p.Title, p.Formula)}
	cfg := t.Search
	cfg.Strategy = search.DFS
	ltlOf := map[*search.Result]*search.LTLResult{}
	run := func(prop search.Property) func(search.Config) *search.Result {
		return func(cfg search.Config) *search.Result {
			r := search.RunLTL(am.absM, prop, cfg)
			ltlOf[&r.Result] = r
			return &r.Result
		}
	}
	res, cfRes := searchAbstract(t, run(prop), cfg)
	p.AutomatonStates = ltlOf[res].AutomatonStates
	c.RestsOn = append(RestsOn{am.basis(" for the executions that are infinite or end with every thread terminated")},
		restsOnSearch(cfg, res)...)
	c.Abstraction = am.info(res.Verdict)
	c.Abstraction.AbstractFormula = absSpec.String()
	if res.Violation == nil {
		c.fromAbstractSearch(am, res)
		if res.Verdict != search.Pass {
			return c, nil
		}
		var unfair *search.Result
		if p.Fair {
			// weak fairness is not preserved by abstraction: see whether
			// the abstract model needs it
			nf := prop
			nf.Fair = false
			release := t.limits().StartSearch()
			unfair = run(nf)(cfg)
			release()
		}
		if unfair != nil && unfair.Violation != nil {
			c.Explored = false
			c.Reason = "the abstract model satisfies the under-approximated formula only on its weakly fair executions, and weak fairness is not preserved by abstraction " +
				"(a thread the abstraction may enable where the concrete model cannot move it makes fair concrete executions unfair in the abstract model); not proven " + am.using()
			return c, nil
		}
		where := am.unraisedDivision()
		if f := am.concreteFormula(p); where == "" && am.unraisedDivision(f) != "" {
			where = am.unraisedDivision(f)
			if p.prop != p.Name {
				// a formula of the command line: its position is
				// in the text the formula was inserted into
				where = "in " + p.Title
			}
		}
		if where != "" {
			am.notProven(c, where)
			return c, nil
		}
		c.Reason = "no violation: every execution of the abstract model satisfies the under-approximated formula; proven " + am.using() +
			" for every execution of the concrete model that is infinite or ends with every thread terminated"
		if p.Fair {
			c.Reason += " (fair or not: the abstract model satisfies it without --fair)"
		}
		c.Reason += "; " + notCoveredLTL
		// the property proven is weaker than the one written: name it
		// so (a check that fails or is not decided claims nothing of it)
		q := *p.Property
		q.Title += " (executions that end in a deadlock not covered)"
		c.Properties = []*Property{&q}
		am.qualifyWraps(c, true)
		return c, nil
	}
	absRes := ltlOf[c.foundBy(res, cfRes)]
	c.fromAbstractSearch(am, &absRes.Result)
	final, err := c.abstractTrail(am, am.absM, &absRes.Result)
	if err != nil {
		return nil, err
	}
	sc, err := feasible.FromTrail(am.absM, am.absM, absRes.Trail, false, am.mapGroup)
	if err != nil {
		return nil, errorf("birch: internal error: %v", err)
	}
	if absRes.CycleStart < 0 {
		// a runtime error on the way: replayed as for a safety check
		fr, stopped, err := am.replay(t, sc, feasible.Config{})
		if err != nil || stopped != "" {
			return c.stopIf(PhaseReplay, stopped), err
		}
		return c, am.confirm(c, am.concM, absRes.Violation, fr)
	}
	c.Abstraction.AbstractLasso = &Lasso{CycleStart: absRes.CycleStart, Stutter: absRes.Stutter, End: lassoEnd(am.absM, absRes, final)}
	sc.End = feasible.End{Kind: feasible.EndLasso, CycleStart: absRes.CycleStart, Msg: prop.Msg}
	accept := func(states [][]byte, _ []int) string { return am.lassoViolates(p, concEv, sc, states) }
	fr, stopped, err := am.replay(t, sc, feasible.Config{Accept: accept})
	if err != nil || stopped != "" {
		return c.stopIf(PhaseReplay, stopped), err
	}
	return c, am.confirmLasso(c, p, absRes, fr)
}

// confirmLasso fills c from the replay fr of the abstract lasso of res on
// the concrete model.
func (am *abstractModel) confirmLasso(c *Check, p *ltlProperty, res *search.LTLResult, fr *feasible.Result) error {
	info := am.replayed(c, fr)
	c.violated = p.Property
	if fr.Confirmed {
		init, ts, err := search.Replay(am.concM, fr.Trail)
		if err != nil {
			return errorf("birch: internal error: the confirmed trail does not replay: %v", err)
		}
		final := search.Final(init, ts)
		cv := &search.Violation{Kind: model.LTLViolated, Msg: fmt.Sprintf("%s violated: %s", p.Title, p.Formula), Thread: -1}
		v := describeViolation(am.conc.Fset, am.concM, cv, final)
		v.Trail = DescribeTrail(am.concM, am.conc.Fset, ts)
		v.Ordinals = savable(fr.Trail)
		v.ExposeInvisible = am.concM.Options().ExposeInvisible
		v.Lasso = &Lasso{CycleStart: res.CycleStart, Stutter: res.Stutter,
			End: lassoEnd(am.concM, &search.LTLResult{CycleStart: res.CycleStart, Stutter: res.Stutter}, final)}
		v.Confirmation = Confirmation{Confirmed: true, By: "replayed on the concrete model (" + fr.Method + " replay): a concrete lasso that violates the formula"}
		info.ReplayConfirmed = true
		c.Violation, c.Reason = v, v.Kind+": "+v.Message
		return nil
	}
	v := *info.AbstractViolation
	v.Lasso = info.AbstractLasso
	// a choose-free lasso may be spurious too (the formula is
	// under-approximated): it is not reported without a concrete one
	v.Confirmation = Confirmation{Diverges: am.divergence(fr.Diverge)}
	c.Violation = &v
	c.Reason = "the abstract model has a violation (ltl) that is not confirmed on the concrete model"
	if fr.Incomplete {
		c.Reason += " (" + fr.Note + ")"
	}
	return nil
}

// lassoViolates decides whether a concrete lasso that follows the
// schedule of an abstract one violates the concrete formula: states[0] is
// the initial state, states[i] the state after step i, and the cycle
// closes (or stutters on the last state). It returns "" when it does, and
// otherwise why not.
func (am *abstractModel) lassoViolates(p *ltlProperty, ev *model.Evaluator, sc feasible.Schedule, states [][]byte) string {
	masks := make([]uint64, len(states))
	for i, s := range states {
		mask, failed, cerr := ev.Mask(s)
		if cerr != nil {
			where := "the initial state"
			if i > 0 {
				where = fmt.Sprintf("the state after step %d", i)
			}
			return fmt.Sprintf("proposition %s cannot be evaluated in %s of the concrete model: %v", p.spec.Props[failed].Text, where, cerr)
		}
		masks[i] = mask
	}
	n, cs := len(states)-1, sc.End.CycleStart
	prefix, cycle := masks[:cs], masks[cs:n]
	if cs == n {
		prefix, cycle = masks[:n], masks[n:]
	}
	if ltl.Holds(p.spec.Formula, prefix, cycle) {
		return "the concrete lasso satisfies the formula"
	}
	if !p.Fair || cs == n {
		return ""
	}
	// weak fairness: a thread enabled in every state of the cycle moves in it
	moved := map[int]bool{}
	for _, st := range sc.Steps[cs:] {
		moved[st.Thread] = true
	}
	always := map[int]int{}
	for _, s := range states[cs:n] {
		en := map[int]bool{}
		am.concM.Next(s, func(st *model.Step) { en[st.Thread] = true })
		for t := range en {
			always[t]++
		}
	}
	for t, k := range always {
		if k == n-cs && !moved[t] {
			return "the concrete cycle is not weakly fair: thread " + am.concM.ThreadName(states[cs], t) + " is enabled throughout it and never moves"
		}
	}
	return ""
}

// concreteFormula is the formula of p in the concrete model am checks.
func (am *abstractModel) concreteFormula(p *ltlProperty) ast.Expr {
	for _, pr := range am.conc.Prog.Properties {
		if pr.LTL && pr.Name() == p.prop {
			return pr.Decl.Expr
		}
	}
	return nil
}
