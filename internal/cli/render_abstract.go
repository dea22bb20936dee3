package cli

import (
	"fmt"
	"io"
	"sort"
	"strings"

	"birch/internal/verify"
)

// Rendering of a check with data abstraction (docs/abstraction.md,
// "Checking with abstraction"): the report of an ordinary check with the
// abstraction's lines (the bindings, the abstracted variables, how the
// violation was found and whether the concrete model confirms it) and, in
// JSON, the "abstraction" object.

// jsonAbstraction is the "abstraction" object of the JSON report.
type jsonAbstraction struct {
	Bindings []string `json:"bindings"`
	// Coercions lists the declared coercions in effect ("FROM -> TO").
	Coercions []string          `json:"coercions,omitempty"`
	Variables map[string]string `json:"variables"`
	// AbstractVerdict is the verdict of the search of the abstract model.
	AbstractVerdict   string         `json:"abstract_verdict"`
	AbstractViolation *jsonViolation `json:"abstract_violation"`
	// FoundBy: "choose-free" when the choose-free search found the
	// violation, "search" when only the full search did, "" without one.
	FoundBy string `json:"found_by"`
	// Confirmation: "confirmed", "not confirmed" or "" without a violation.
	Confirmation  string             `json:"confirmation"`
	Replay        string             `json:"replay"`
	Diverges      *verify.Divergence `json:"diverges"`
	ValuesDiverge *verify.Divergence `json:"values_diverge"`
	AbstractTrail []jsonStep         `json:"abstract_trail"`
	// AbstractFormula is the under-approximated formula an LTL property
	// is checked with; AbstractLasso the shape of an abstract lasso.
	AbstractFormula string     `json:"abstract_formula,omitempty"`
	AbstractLasso   *jsonLasso `json:"abstract_lasso,omitempty"`
	// Wraps lists the places where an abstracted value may wrap around a
	// fixed-width type ("FILE:LINE:COL: WHAT"): a pass does not cover the
	// executions in which one of them wraps.
	Wraps []string `json:"wraps,omitempty"`
}

// abstractDoc completes the JSON document of a check with abstraction:
// the violation and trail are those of the concrete model (none for a
// violation that is not confirmed), and the abstraction object.
func abstractDoc(doc *jsonCheckReport, c *verify.Check) {
	a := c.Abstraction
	doc.Complete = c.Explored && c.Violation == nil
	v := c.Violation
	ja := &jsonAbstraction{
		Bindings: a.Bindings, Coercions: a.Coercions, Variables: a.Variables, AbstractVerdict: a.AbstractVerdict.String(),
		FoundBy: a.FoundBy, Replay: a.Replay, ValuesDiverge: a.ValuesDiverge, AbstractTrail: jsonTrail(a.AbstractTrail),
		AbstractFormula: a.AbstractFormula, Wraps: a.Wraps,
	}
	if av := violationDoc(a.AbstractViolation); av != nil {
		av.Confirmation, av.ConfirmedBy = "", ""
		ja.AbstractViolation = av
	}
	if l := a.AbstractLasso; l != nil {
		ja.AbstractLasso = &jsonLasso{CycleStart: l.CycleStart, Stutter: l.Stutter, End: l.End}
	}
	if v != nil {
		ja.Confirmation, ja.Diverges = "not confirmed", v.Confirmation.Diverges
		if v.Confirmation.Confirmed {
			// by the replay, or by the choose-free search when the
			// replay did not finish (violation.confirmed_by says which)
			ja.Confirmation = "confirmed"
		}
		if !v.Confirmation.Confirmed {
			doc.Violation, doc.Lasso = nil, nil
		}
	}
	doc.Abstraction = ja
}

// printAbstractCheck prints the report of a check with abstraction in
// text.
func printAbstractCheck(e *env, o *checkOptions, name string, c *verify.Check) {
	saved := saveCheckTrail(e, o, name, c)
	w, a, v := e.stdout, c.Abstraction, c.Violation
	placed := v // a violation not confirmed is the abstract model's
	if v != nil && !v.Confirmation.Confirmed {
		placed = nil
	}
	printCheckHead(w, o, c, placed)
	if c.Predicates != nil {
		printPredicates(w, c)
		if c.Cegar != nil {
			printCegar(w, o, c)
		}
	} else if c.OnTheFly != nil {
		printOnTheFly(w, c)
	} else {
		printAbstraction(w, a)
	}
	if p := ltlPropertyOf(c); p != nil && a.AbstractFormula != "" {
		fmt.Fprintf(w, "  formula: %s\n  under-approximated: %s\n", p.Formula, a.AbstractFormula)
	}
	if v != nil {
		if a.AbstractLasso != nil {
			printAbstractLasso(w, o, c)
		} else {
			printAbstractViolation(w, o, c)
		}
		printInputs(w, c)
		if d := a.ValuesDiverge; d != nil && a.ReplayConfirmed {
			fmt.Fprintf(w, "note: the concrete values differ from the abstract trail's from step %d: %s\n", d.Step, d.Reason)
		}
	}
	if c.OnTheFly != nil {
		for _, n := range c.Notes {
			fmt.Fprintf(w, "note: %s\n", n)
		}
	}
	printUnreached(w, unreachedDoc(c.Unreached), len(c.LimitsHit) > 0)
	for _, lh := range c.LimitsHit {
		fmt.Fprintf(w, "bound hit %d times: %s: %s\n", lh.Count, lh.Pos, lh.Message)
	}
	if o.trail != "" && v != nil {
		switch {
		case saved:
			fmt.Fprintf(w, "trail saved to %s\n", o.trail)
		case v.Ordinals != nil:
			fmt.Fprintf(w, "trail NOT saved to %s (see the warning above)\n", o.trail)
		case a.AbstractLasso != nil:
			fmt.Fprintln(w, "no trail saved: no concrete lasso was found")
		default:
			fmt.Fprintln(w, "no trail saved: no concrete trail was found")
		}
	}
	switch {
	case c.OnTheFly != nil:
		fmt.Fprintf(w, "stats: %s (instrumented model)\n", statsLine(c.Stats))
	case c.Predicates == nil || c.Predicates.Engine.Name != "bebop":
		fmt.Fprintf(w, "stats: %s (abstract model)\n", statsLine(c.Stats))
	}
}

// printAbstraction prints the bindings and the abstracted variables.
func printAbstraction(w io.Writer, a *verify.AbstractionInfo) {
	fmt.Fprintf(w, "abstraction: %s\n", strings.Join(a.Bindings, ", "))
	if len(a.Coercions) > 0 {
		fmt.Fprintf(w, "declared coercions: %s\n", strings.Join(a.Coercions, ", "))
	}
	var names []string
	for n := range a.Variables {
		names = append(names, n)
	}
	sort.Strings(names)
	var parts []string
	for _, n := range names {
		parts = append(parts, n+" "+a.Variables[n])
	}
	fmt.Fprintf(w, "  abstracted: %s\n", strings.Join(parts, ", "))
	if len(a.Wraps) > 0 {
		// abstracted values are mathematical integers: where the concrete
		// model wraps them, the abstract model does not
		fmt.Fprintf(w, "  may wrap (not covered): %s\n", strings.Join(a.Wraps, ", "))
	}
}

// foundByLine says which search of the abstract model found the violation.
func foundByLine(a *verify.AbstractionInfo, chooseFree string) string {
	switch a.FoundBy {
	case "choose-free":
		return "found by the choose-free search of the abstract model" + chooseFree
	case "bebop":
		return "found by bebop on the abstract model's boolean program"
	}
	return "found by the search of the abstract model"
}

// foundOnTheFly says where the on-the-fly predicate abstraction found a
// violation: its abstract model is the model instrumented with the
// predicates.
const foundOnTheFly = "found by the search of the instrumented model"

// printAbstractViolation prints how a violation (not a lasso) of the
// abstract model was found and confirmed, or where it parts ways with the
// concrete model.
func printAbstractViolation(w io.Writer, o *checkOptions, c *verify.Check) {
	a, v := c.Abstraction, c.Violation
	if a.ReplayConfirmed {
		if c.OnTheFly != nil {
			fmt.Fprintf(w, "%s; confirmed on the model as written (%s replay)\n", foundOnTheFly, a.Replay)
		} else {
			fmt.Fprintf(w, "%s; confirmed on the concrete model (%s replay)\n", foundByLine(a, " (not caused by abstraction)"), a.Replay)
		}
		printTrail(w, v.Trail, o.fullTrail)
		printDeadlockThreads(w, violationDoc(v).Threads)
		return
	}
	switch {
	case a.FoundBy == "choose-free":
		fmt.Fprintln(w, foundByLine(a, " (not caused by abstraction)"))
	case c.OnTheFly != nil:
		fmt.Fprintln(w, foundOnTheFly)
	case c.Predicates != nil:
		fmt.Fprintln(w, foundByLine(a, ""))
	default:
		fmt.Fprintln(w, "found by the search of the abstract model; the choose-free search finds no violation")
	}
	av := a.AbstractViolation
	fmt.Fprintf(w, "abstract violation: %s: %s at %s\n", av.Kind, av.Message, av.Pos)
	fmt.Fprintf(w, "abstract trail (%d steps):\n", len(a.AbstractTrail))
	printSteps(w, a.AbstractTrail, o.fullTrail)
	printNotConfirmed(w, c)
}

// printAbstractLasso prints how an abstract lasso was found and confirmed,
// or where it parts ways with the concrete model.
func printAbstractLasso(w io.Writer, o *checkOptions, c *verify.Check) {
	a, v := c.Abstraction, c.Violation
	if a.ReplayConfirmed {
		fmt.Fprintf(w, "%s; confirmed on the concrete model (%s replay): a concrete lasso that violates the formula\n", foundByLine(a, ""), a.Replay)
		l := v.Lasso
		printLasso(w, v.Trail, l.CycleStart, l.Stutter, l.End, true, o.fullTrail)
		return
	}
	if a.FoundBy == "choose-free" {
		fmt.Fprintln(w, foundByLine(a, " (which does not make the lasso real: the formula is under-approximated)"))
	} else {
		fmt.Fprintln(w, "found by the search of the abstract model; the choose-free search finds no violation")
	}
	fmt.Fprintf(w, "abstract violation: ltl: %s\n", a.AbstractViolation.Message)
	n := len(a.AbstractTrail)
	fmt.Fprintf(w, "abstract lasso (%d %s):\n", n, plural(n, "step", "steps"))
	l := a.AbstractLasso
	printLasso(w, a.AbstractTrail, l.CycleStart, l.Stutter, l.End, false, o.fullTrail)
	printNotConfirmed(w, c)
}

// printNotConfirmed prints where an abstract trail and the concrete model
// part ways.
func printNotConfirmed(w io.Writer, c *verify.Check) {
	a := c.Abstraction
	if d := c.Violation.Confirmation.Diverges; d != nil {
		where := d.Thread
		if d.Location != "" {
			where += " at " + d.Location
		}
		if d.Pos != "" {
			where += " (" + d.Pos + ")"
		}
		if where != "" {
			where += ": "
		}
		fmt.Fprintf(w, "not confirmed: step %d: %s%s\n", d.Step, where, d.Reason)
	} else {
		fmt.Fprintln(w, "not confirmed")
	}
	if a.ReplayNote != "" {
		fmt.Fprintf(w, "  the replay is incomplete: %s\n", a.ReplayNote)
	}
	if d := a.ValuesDiverge; d != nil {
		fmt.Fprintf(w, "values part ways first at step %d (%s at %s): %s\n", d.Step, d.Thread, d.Location, d.Reason)
	}
}
