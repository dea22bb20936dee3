package cli

import (
	"fmt"
	"io"
	"strings"

	"birch/internal/abstraction/data/feasible"
	"birch/internal/bir/ast"
	"birch/internal/ltl"
	"birch/internal/model"
	"birch/internal/search"
	"birch/internal/source"
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

// jsonAbstractLTLReport is the document of an LTL check with abstraction.
type jsonAbstractLTLReport struct {
	jsonLTLReport
	Abstraction *jsonAbstraction `json:"abstraction"`
}

// runAbstractLTL checks an LTL property (--property NAME of an ltl
// property, --ltl, --pattern) with abstraction. ac is the check when it is
// built already (for --property).
func runAbstractLTL(e *env, o *checkOptions, name string, cfg search.Config, mo model.Options, ac *abstractCheck) int {
	if o.search != "dfs" {
		fmt.Fprintf(e.stderr, "birch check: ltl properties are checked by a depth-first search; --search=%s does not apply\n", o.search)
		return ExitBadInput
	}
	var pre *loaded
	if ac != nil {
		pre = ac.conc
	}
	var p *ltlProperty
	if r := o.lim.Run(phaseModel, func() { p = loadLTL(e, o, name, pre) }); r != "" {
		return stoppedReport(e, o, name, phaseModel, r)
	}
	if p == nil {
		return ExitBadInput
	}
	if ac == nil {
		ok := false
		if r := o.lim.Run(phaseSynthesis, func() { ac, ok = buildAbstractCheck(e, o, name, mo, p.l) }); r != "" {
			return stoppedReport(e, o, name, phaseSynthesis, r)
		}
		if !ok {
			return ExitBadInput
		}
	}
	var absExpr ast.Expr
	for _, pr := range ac.abs.prog.Properties {
		if pr.LTL && pr.Name() == p.prop {
			absExpr = pr.Decl.Expr
		}
	}
	if absExpr == nil {
		fmt.Fprintf(e.stderr, "birch: internal error: the abstract model has no ltl property %s\n", p.prop)
		return ExitBadInput
	}
	absSpec, err := ltl.FromExpr(ac.abs.fset, absExpr)
	if err != nil {
		source.Print(e.stderr, err, maxShownErrors)
		return ExitBadInput
	}
	if p.spec.Formula.HasNext() && (hasInvisible(ac.concM) || hasInvisible(ac.absM)) {
		// X counts steps: as in runLTLCheck, on both models
		mo.ExposeInvisible = true
		if r := o.lim.Run(phaseModel, func() {
			if ac.concM, err = model.New(ac.conc.prog, mo); err == nil {
				ac.absM, err = model.New(ac.abs.prog, mo)
			}
		}); r != "" {
			return stoppedReport(e, o, name, phaseModel, r)
		}
		if err != nil {
			fmt.Fprintln(e.stderr, err)
			return ExitBadInput
		}
		ac.mapGroups()
		fmt.Fprintf(e.stderr, "birch check: warning: %s uses X (next), which counts steps: invisible runs are "+
			"exposed for it (each of their transformations is a step and the states inside them are checked; "+
			"they are still not interleaved with other threads), so the search is larger (docs/properties.md)\n", p.title)
	}
	ac.absSM, ac.concSM = ac.absM, ac.concM
	absEv, err := ac.absM.NewEvaluator(propExprs(absSpec))
	if err != nil {
		source.Print(e.stderr, err, maxShownErrors)
		return ExitBadInput
	}
	concEv, err := ac.concM.NewEvaluator(propExprs(p.spec))
	if err != nil {
		source.Print(e.stderr, err, maxShownErrors)
		return ExitBadInput
	}
	aut, r := o.translate(absSpec.Formula, absSpec.Names())
	if r != "" {
		return stoppedReport(e, o, name, phaseTranslation, r)
	}
	if aut == nil {
		return ExitBadInput
	}
	prop := search.Property{Automaton: aut, Labels: absEv, Fair: o.fair, Msg: fmt.Sprintf("%s violated: %s", p.title, p.formula)}

	o.prepareSearch(e, &cfg)
	release := o.lim.StartSearch()
	res := search.RunLTL(ac.absM, prop, cfg)
	var cfRes, unfair *search.LTLResult
	switch {
	case res.Violation != nil && !cfg.ChooseFree:
		cf := cfg
		cf.ChooseFree = true
		if cfRes = search.RunLTL(ac.absM, prop, cf); cfRes.Violation == nil {
			cfRes = nil
		}
	case res.Violation != nil:
		cfRes = res
	case res.Verdict == search.Pass && o.fair:
		// weak fairness is not preserved by abstraction: see whether the
		// abstract model needs it
		nf := prop
		nf.Fair = false
		unfair = search.RunLTL(ac.absM, nf, cfg)
	}
	release()

	ja := &jsonAbstraction{Bindings: ac.bindings, Coercions: ac.coercions, Variables: ac.variables(), AbstractVerdict: res.Verdict.String(),
		AbstractTrail: []jsonStep{}, AbstractFormula: absSpec.String()}
	if res.Violation == nil {
		return ac.reportLTLNoViolation(e, o, name, p, res, unfair, ja)
	}
	absRes := res
	ja.FoundBy = "search"
	if cfRes != nil {
		absRes, ja.FoundBy = cfRes, "choose-free"
	}
	absInit, absSteps, err := search.Replay(ac.absM, absRes.Trail)
	if err != nil {
		fmt.Fprintf(e.stderr, "birch: internal error: the abstract trail does not replay: %v\n", err)
		return ExitBadInput
	}
	ja.AbstractTrail = jsonTrail(ac.describeAbstract(absSteps))
	ja.AbstractViolation = ac.abstractViolation(&absRes.Result, search.Final(absInit, absSteps))
	if absRes.CycleStart < 0 {
		// a runtime error on the way: replayed as for a safety check
		sc, err := feasible.FromTrail(ac.absM, ac.absM, absRes.Trail, false, ac.mapGroup)
		if err != nil {
			fmt.Fprintf(e.stderr, "birch: internal error: %v\n", err)
			return ExitBadInput
		}
		fr, r, err := o.replay(ac.concM, sc, feasible.Config{MaxNodes: o.maxReplay, Solver: o.solver, Agree: ac.agree})
		if r != "" {
			return stoppedReport(e, o, name, phaseReplay, r)
		}
		if err != nil {
			fmt.Fprintf(e.stderr, "birch: internal error: %v\n", err)
			return ExitBadInput
		}
		return ac.report(e, o, name, &absRes.Result, ja, fr, absSteps)
	}
	ja.AbstractLasso = &jsonLasso{CycleStart: absRes.CycleStart, Stutter: absRes.Stutter, End: lassoEnd(ac.absM, absRes, search.Final(absInit, absSteps))}
	sc, err := feasible.FromTrail(ac.absM, ac.absM, absRes.Trail, false, ac.mapGroup)
	if err != nil {
		fmt.Fprintf(e.stderr, "birch: internal error: %v\n", err)
		return ExitBadInput
	}
	sc.End = feasible.End{Kind: feasible.EndLasso, CycleStart: absRes.CycleStart, Msg: prop.Msg}
	accept := func(states [][]byte, _ []int) string {
		return ac.lassoViolates(p, concEv, sc, states, o.fair)
	}
	fr, r, err := o.replay(ac.concM, sc, feasible.Config{MaxNodes: o.maxReplay, Solver: o.solver, Agree: ac.agree, Accept: accept})
	if r != "" {
		return stoppedReport(e, o, name, phaseReplay, r)
	}
	if err != nil {
		fmt.Fprintf(e.stderr, "birch: internal error: %v\n", err)
		return ExitBadInput
	}
	return ac.reportLTLLasso(e, o, name, p, absRes, ja, fr, absSteps)
}

func propExprs(s *ltl.Spec) []ast.Expr {
	var exprs []ast.Expr
	for _, pr := range s.Props {
		exprs = append(exprs, pr.Expr)
	}
	return exprs
}

// lassoEnd says how a stutter lasso ends: "terminated" or "deadlock".
func lassoEnd(m *model.Model, res *search.LTLResult, final []byte) string {
	if res.CycleStart < 0 || !res.Stutter {
		return ""
	}
	if _, allDone := m.Next(final, func(*model.Step) {}); allDone {
		return "terminated"
	}
	return "deadlock"
}

// lassoViolates decides whether a concrete lasso that follows the
// schedule of an abstract one violates the concrete formula: states[0] is
// the initial state, states[i] the state after step i, and the cycle
// closes (or stutters on the last state). It returns "" when it does, and
// otherwise why not.
func (ac *abstractCheck) lassoViolates(p *ltlProperty, ev *model.Evaluator, sc feasible.Schedule, states [][]byte, fair bool) string {
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
	if !fair || cs == n {
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
		ac.concM.Next(s, func(st *model.Step) { en[st.Thread] = true })
		for t := range en {
			always[t]++
		}
	}
	for t, k := range always {
		if k == n-cs && !moved[t] {
			return "the concrete cycle is not weakly fair: thread " + ac.concM.ThreadName(states[cs], t) + " is enabled throughout it and never moves"
		}
	}
	return ""
}

// reportLTLNoViolation reports an abstract product search without a
// violation: a pass (for the executions a pass covers) or inconclusive.
func (ac *abstractCheck) reportLTLNoViolation(e *env, o *checkOptions, name string, p *ltlProperty, res, unfair *search.LTLResult, ja *jsonAbstraction) int {
	verdict, reason := res.Verdict, res.Reason
	using := "with abstraction (" + strings.Join(ac.bindings, ", ") + ")"
	switch {
	case res.Verdict == search.Pass && unfair != nil && unfair.Violation != nil:
		verdict = search.Inconclusive
		reason = "the abstract model satisfies the under-approximated formula only on its weakly fair executions, and weak fairness is not preserved by abstraction " +
			"(a thread the abstraction may enable where the concrete model cannot move it makes fair concrete executions unfair in the abstract model); not proven " + using
	case res.Verdict == search.Pass:
		reason = "no violation: every execution of the abstract model satisfies the under-approximated formula; proven " + using +
			" for every execution of the concrete model that is infinite or ends with every thread terminated"
		if o.fair {
			reason += " (fair or not: the abstract model satisfies it without --fair)"
		}
		reason += "; " + notCoveredLTL
	default:
		reason += " (abstract model, " + using + ")"
	}
	if o.json {
		printJSON(e.stdout, jsonAbstractLTLReport{jsonLTLReport: ac.ltlDoc(o, name, p, verdict, reason, res, nil, nil, nil), Abstraction: ja})
		return exitStatus(verdict)
	}
	w := e.stdout
	fmt.Fprintf(w, "%s: %s\n", verdict, reason)
	ac.printAbstraction(w)
	fmt.Fprintf(w, "  formula: %s\n  under-approximated: %s\n", p.formula, ja.AbstractFormula)
	for _, lh := range res.LimitsHit {
		fmt.Fprintf(w, "bound hit %d times: %s: %s\n", lh.Count, ac.concretePos(lh.Pos), lh.Msg)
	}
	fmt.Fprintf(w, "stats: %s (abstract model)\n", statsLine(res.Stats))
	return exitStatus(verdict)
}

// ltlDoc is the JSON document of an LTL check with abstraction; viol,
// steps and lasso describe a confirmed violation on the concrete model.
func (ac *abstractCheck) ltlDoc(o *checkOptions, name string, p *ltlProperty, verdict search.Verdict, reason string, res *search.LTLResult, viol *jsonViolation, steps []trailStep, lasso *jsonLasso) jsonLTLReport {
	return jsonLTLReport{
		Model: name, Verdict: verdict.String(), Complete: res.Complete && res.Violation == nil, Reason: reason,
		Violation: viol, Stats: statsJSON(res.Stats), Trail: jsonTrail(steps),
		LimitsHit: limitsJSON(ac.abs.fset, res.LimitsHit), Search: o.search,
		Property: jsonProperty{Name: p.name, Kind: "ltl", Source: p.source, Formula: p.formula, Fair: o.fair, AutomatonStates: res.AutomatonStates},
		Lasso:    lasso,
	}
}

// reportLTLLasso reports an abstract lasso and its replay on the concrete
// model.
func (ac *abstractCheck) reportLTLLasso(e *env, o *checkOptions, name string, p *ltlProperty, res *search.LTLResult, ja *jsonAbstraction, fr *feasible.Result, absSteps []search.TrailStep) int {
	var viol *jsonViolation
	var steps []trailStep
	var lasso *jsonLasso
	saved := false
	verdict := search.Inconclusive
	reason := "the abstract model has a violation (ltl) that is not confirmed on the concrete model"
	ja.Replay = fr.Method
	ja.Diverges = divergenceJSON(ac.conc.fset, fr.Diverge)
	ja.ValuesDiverge = divergenceJSON(ac.conc.fset, fr.ValuesDiverge)
	if fr.Confirmed {
		ja.Confirmation = "confirmed"
		verdict = search.Fail
		init, ts, err := search.Replay(ac.concM, fr.Trail)
		if err != nil {
			fmt.Fprintf(e.stderr, "birch: internal error: the confirmed trail does not replay: %v\n", err)
			return ExitBadInput
		}
		steps = describeTrail(ac.concM, ac.conc.fset, ts)
		final := search.Final(init, ts)
		cv := &search.Violation{Kind: model.LTLViolated, Msg: fmt.Sprintf("%s violated: %s", p.title, p.formula), Thread: -1}
		viol = violationJSON(ac.conc, ac.concM, &search.Result{Violation: cv}, final)
		reason = viol.Kind + ": " + viol.Message
		cres := &search.LTLResult{CycleStart: res.CycleStart, Stutter: res.Stutter}
		lasso = &jsonLasso{CycleStart: res.CycleStart, Stutter: res.Stutter, End: lassoEnd(ac.concM, cres, final)}
		if o.trail != "" {
			cs := res.CycleStart
			tf := lassoTrailFile{trailFile: newTrailFile(name, o.search, fr.Trail, viol, steps)}
			tf.Stutter, tf.ExposeInvisible, tf.CycleStart = res.Stutter, ac.concM.Options().ExposeInvisible, &cs
			saved = saveTrail(e, "check", o.trail, tf)
		}
	} else {
		ja.Confirmation = "not confirmed"
		if fr.Incomplete {
			// a choose-free lasso may be spurious too (the formula is
			// under-approximated): it is not reported without a concrete one
			reason += " (" + fr.Note + ")"
		}
	}
	if o.json {
		printJSON(e.stdout, jsonAbstractLTLReport{jsonLTLReport: ac.ltlDoc(o, name, p, verdict, reason, res, viol, steps, lasso), Abstraction: ja})
		return exitStatus(verdict)
	}
	w := e.stdout
	fmt.Fprintf(w, "%s: %s\n", verdict, reason)
	ac.printAbstraction(w)
	fmt.Fprintf(w, "  formula: %s\n  under-approximated: %s\n", p.formula, ja.AbstractFormula)
	if fr.Confirmed {
		if ja.FoundBy == "choose-free" {
			fmt.Fprintf(w, "found by the choose-free search of the abstract model; confirmed on the concrete model (%s replay): a concrete lasso that violates the formula\n", fr.Method)
		} else {
			fmt.Fprintf(w, "found by the search of the abstract model; confirmed on the concrete model (%s replay): a concrete lasso that violates the formula\n", fr.Method)
		}
		printLasso(w, steps, res.CycleStart, res.Stutter, lasso.End, true, o.fullTrail)
	} else {
		if ja.FoundBy == "choose-free" {
			fmt.Fprintln(w, "found by the choose-free search of the abstract model (which does not make the lasso real: the formula is under-approximated)")
		} else {
			fmt.Fprintln(w, "found by the search of the abstract model; the choose-free search finds no violation")
		}
		fmt.Fprintf(w, "abstract violation: ltl: %s\n", ja.AbstractViolation.Message)
		fmt.Fprintf(w, "abstract lasso (%d %s):\n", len(absSteps), plural(len(absSteps), "step", "steps"))
		printLasso(w, ac.describeAbstract(absSteps), res.CycleStart, res.Stutter, ja.AbstractLasso.End, false, o.fullTrail)
		printNotConfirmed(w, ac.conc.fset, fr)
	}
	if fr.ValuesDiverge != nil && fr.Confirmed {
		d := fr.ValuesDiverge
		fmt.Fprintf(w, "note: the concrete values differ from the abstract trail's from step %d: %s\n", d.Step, d.Reason)
	}
	for _, lh := range res.LimitsHit {
		fmt.Fprintf(w, "bound hit %d times: %s: %s\n", lh.Count, ac.concretePos(lh.Pos), lh.Msg)
	}
	if o.trail != "" {
		if saved {
			fmt.Fprintf(w, "trail saved to %s\n", o.trail)
		} else if fr.Confirmed {
			fmt.Fprintf(w, "trail NOT saved to %s (see the warning above)\n", o.trail)
		} else {
			fmt.Fprintln(w, "no trail saved: no concrete lasso was found")
		}
	}
	fmt.Fprintf(w, "stats: %s (abstract model)\n", statsLine(res.Stats))
	return exitStatus(verdict)
}

// printLasso prints a lasso's steps as birch check prints an LTL
// violation: the prefix (under a "trail (N steps):" header when header is
// set), then the cycle or the stutter.
func printLasso(w io.Writer, steps []trailStep, cycleStart int, stutter bool, end string, header, full bool) {
	show := func(w io.Writer, steps []trailStep) { printSteps(w, steps, full) }
	if header {
		show = func(w io.Writer, steps []trailStep) { printTrail(w, steps, full) }
	}
	if stutter || cycleStart >= len(steps) {
		show(w, steps)
		what := "every thread has terminated"
		if end == "deadlock" {
			what = "no thread can move"
		}
		fmt.Fprintf(w, "then the last state repeats forever (%s)\n", what)
		return
	}
	show(w, steps[:cycleStart])
	n := len(steps) - cycleStart
	from := "the initial state"
	if cycleStart > 0 {
		from = fmt.Sprintf("the state after step %d", cycleStart)
	}
	fmt.Fprintf(w, "cycle (%d %s, back to %s), repeated forever:\n", n, plural(n, "step", "steps"), from)
	printSteps(w, steps[cycleStart:], full)
}
