package cli

import (
	"fmt"
	"io"

	"birch/internal/verify"
)

// jsonCheckReport is the document of one check (docs/check.md): the
// verdict, what it rests on, the properties it decided, the violation and
// its trail, the statistics; for an ltl property the property and the
// lasso; for a check stopped outside its search the phase.
type jsonCheckReport struct {
	jsonReport
	RestsOn    []verify.Basis        `json:"rests_on"`
	Properties []jsonCheckedProperty `json:"properties"`
	Property   *jsonProperty         `json:"property,omitempty"`
	Lasso      *jsonLasso            `json:"lasso,omitempty"`
	Phase      string                `json:"phase,omitempty"`
	// Abstraction: a check with data abstraction (render_abstract.go).
	Abstraction *jsonAbstraction `json:"abstraction,omitempty"`
	// Spin: a check run by SPIN (render_spin.go).
	Spin *jsonSpin `json:"spin,omitempty"`
	// Predicates: a check with predicate abstraction
	// (render_predicates.go).
	Predicates *jsonPredicates `json:"predicates,omitempty"`
	// Cegar: a check by refinement (render_cegar.go).
	Cegar *jsonCegar `json:"cegar,omitempty"`
	// AMCS: a check by abstract matching (amcs.go).
	AMCS *jsonAMCS `json:"amcs,omitempty"`
	// APF: a check with on-the-fly predicate abstraction (apf.go).
	APF *jsonAPF `json:"apf,omitempty"`
	// SVCOMP: the answer to an SV-COMP task (svcomp.go).
	SVCOMP *jsonSVCOMP `json:"svcomp,omitempty"`
}

// violationDoc is a violation's JSON object.
func violationDoc(v *verify.Violation) *jsonViolation {
	if v == nil {
		return nil
	}
	jv := &jsonViolation{Kind: v.Kind, Message: v.Message, ModelMessage: v.ModelMessage, Thread: v.Thread, Location: v.Location, Pos: v.Pos,
		Confirmation: v.Confirmation.String(), ConfirmedBy: v.Confirmation.By}
	for _, t := range v.Threads {
		jv.Threads = append(jv.Threads, jsonThread{Thread: t.Thread, Location: t.Location, Terminated: t.Terminated, Waits: t.Waits})
	}
	return jv
}

// ltlPropertyOf is the one ltl property of a check, or nil.
func ltlPropertyOf(c *verify.Check) *verify.Property {
	if len(c.Properties) == 1 && c.Properties[0].Kind == "ltl" {
		return c.Properties[0]
	}
	return nil
}

// checkDoc is the JSON document of a check (the caller saves the trail,
// saveCheckTrail).
func checkDoc(o *checkOptions, name string, c *verify.Check) jsonCheckReport {
	var trail []trailStep
	if c.Violation != nil {
		trail = c.Violation.Trail
	}
	doc := jsonCheckReport{
		jsonReport: jsonReport{
			Model: name, Verdict: c.Verdict().String(), Complete: c.Explored && c.Violation == nil && c.Stopped == nil,
			Reason: c.Reason, Violation: violationDoc(c.Violation), Stats: statsJSON(c.Stats), Trail: jsonTrail(trail),
			LimitsHit: limitsDoc(c.LimitsHit), Search: c.Search, Unreached: unreachedDoc(c.Unreached),
		},
		RestsOn: jsonRestsOn(c.RestsOn), Properties: checkedProperties(c),
	}
	if c.Stopped != nil {
		doc.Phase = c.Stopped.Phase
	}
	if p := ltlPropertyOf(c); p != nil {
		doc.Property = &jsonProperty{Name: p.Name, Kind: "ltl", Source: p.Source, Formula: p.Formula, Fair: p.Fair, AutomatonStates: p.AutomatonStates}
		if v := c.Violation; v != nil && v.Lasso != nil {
			doc.Lasso = &jsonLasso{CycleStart: v.Lasso.CycleStart, Stutter: v.Lasso.Stutter, End: v.Lasso.End}
		}
	}
	if c.Abstraction != nil {
		abstractDoc(&doc, c)
	}
	doc.Spin = spinDoc(c.Spin)
	doc.Predicates = predicatesDoc(c)
	doc.Cegar = cegarDoc(c)
	doc.AMCS = amcsDoc(c)
	doc.APF = apfDoc(c)
	doc.SVCOMP = o.svcompDoc()
	return doc
}

func limitsDoc(ls []verify.Limit) []jsonLimit {
	out := []jsonLimit{}
	for _, l := range ls {
		out = append(out, jsonLimit{Message: l.Message, Pos: l.Pos, Count: l.Count})
	}
	return out
}

func unreachedDoc(us []verify.Unreached) []jsonUnreached {
	if us == nil {
		return nil
	}
	out := []jsonUnreached{}
	for _, u := range us {
		out = append(out, jsonUnreached{Proc: u.Proc, Kind: u.Kind, Location: u.Location, Pos: u.Pos, Source: u.Source})
	}
	return out
}

// saveCheckTrail saves a check's trail to --trail (when there is one to
// save) and reports whether it did.
func saveCheckTrail(e *env, o *checkOptions, name string, c *verify.Check) bool {
	v := c.Violation
	if o.trail == "" || v == nil || v.Ordinals == nil || !v.Confirmation.Confirmed {
		return false
	}
	// a trail saved is always confirmed: the file (birch-trail/1) does not
	// say so
	jv := violationDoc(v)
	jv.Confirmation, jv.ConfirmedBy = "", ""
	steps := v.Trail
	if t, ok := o.modelTrails[v]; ok {
		steps = t // a Java program's trail in the model's names (jterms.go)
	}
	tf := lassoTrailFile{trailFile: newTrailFile(name, c.Search, v.Ordinals, jv, steps)}
	tf.ExposeInvisible = v.ExposeInvisible
	tf.ChoiceValues = v.ChoiceValues
	if v.Lasso != nil {
		cs := v.Lasso.CycleStart
		tf.CycleStart, tf.Stutter = &cs, v.Lasso.Stutter
	}
	cmd := "check"
	if o.cmd != "" {
		cmd = o.cmd
	}
	return saveTrail(e, cmd, o.trail, tf)
}

// printCheck prints a check's report in text.
func printCheck(e *env, o *checkOptions, name string, c *verify.Check) {
	if c.Abstraction != nil && c.Stopped == nil {
		printAbstractCheck(e, o, name, c)
		return
	}
	saved := saveCheckTrail(e, o, name, c)
	w, v := e.stdout, c.Violation
	printCheckHead(w, o, c, v)
	if c.Cegar != nil {
		printCegar(w, o, c)
	}
	if c.AMCS != nil {
		printAMCS(w, o, c)
	}
	if c.Stopped != nil {
		return
	}
	if v != nil && v.Trail != nil {
		if l := v.Lasso; l != nil {
			printLasso(w, v.Trail, l.CycleStart, l.Stutter, l.End, true, o.fullTrail)
		} else {
			printTrail(w, v.Trail, o.fullTrail)
		}
		printDeadlockThreads(w, violationDoc(v).Threads)
	}
	for _, n := range c.Notes {
		fmt.Fprintf(w, "note: %s\n", n)
	}
	printUnreached(w, unreachedDoc(c.Unreached), len(c.LimitsHit) > 0)
	for _, lh := range c.LimitsHit {
		if lh.Count == 0 {
			fmt.Fprintf(w, "bound hit: %s: %s\n", lh.Pos, lh.Message)
			continue
		}
		fmt.Fprintf(w, "bound hit %d times: %s: %s\n", lh.Count, lh.Pos, lh.Message)
	}
	switch {
	case saved:
		fmt.Fprintf(w, "trail saved to %s\n", o.trail)
	case o.trail == "" || v == nil:
	case !v.Confirmation.Confirmed:
		fmt.Fprintln(w, "no trail saved: no concrete trail was found")
	case v.Ordinals == nil:
		fmt.Fprintln(w, "no trail saved: the violation has no trail that birch can replay")
	default:
		fmt.Fprintf(w, "trail NOT saved to %s (see the warning above)\n", o.trail)
	}
	if c.AMCS != nil && len(c.AMCS.Rounds) > 0 {
		fmt.Fprintf(w, "stats: %s\n", amcsStatsLine(c))
		return
	}
	if c.Spin != nil {
		fmt.Fprintf(w, "stats: SPIN: %s\n", statsLine(c.Stats))
		printSpinTail(w, c.Spin)
		return
	}
	if c.Stats.States > 0 || v != nil {
		// a check without a search (not checked) has no statistics
		fmt.Fprintf(w, "stats: %s\n", statsLine(c.Stats))
	}
}

// printCheckHead prints a check's verdict line, where its violation v
// happened (when not nil), its properties and what it rests on.
func printCheckHead(w io.Writer, o *checkOptions, c *verify.Check, v *verify.Violation) {
	fmt.Fprintf(w, "%s: %s\n", c.Verdict(), c.Reason)
	if v != nil {
		if v.Thread != "" {
			fmt.Fprintf(w, "  thread %s at %s\n", v.Thread, v.Location)
		}
		if v.Pos != "" {
			fmt.Fprintf(w, "  at %s\n", v.Pos)
		}
		if c.Spin != nil && c.Spin.Assertion != "" {
			fmt.Fprintf(w, "  SPIN: assertion violated %s\n", c.Spin.Assertion)
		}
	}
	if !o.inRun {
		// a run of several checks lists the properties first
		printProperties(w, c)
	}
	fmt.Fprintln(w, restsOnLine(c))
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
