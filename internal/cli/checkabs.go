package cli

import (
	"fmt"
	"io"
	"math/big"
	"sort"
	"strings"

	"birch/internal/abstraction/data"
	"birch/internal/abstraction/data/feasible"
	"birch/internal/abstraction/data/infer"
	"birch/internal/bir/ast"
	"birch/internal/bir/format"
	"birch/internal/bir/types"
	"birch/internal/model"
	"birch/internal/search"
	"birch/internal/smt/solvers"
	"birch/internal/source"
)

// Checking with abstraction (docs/abstraction.md, "Checking with
// abstraction"): the abstract model is generated from the bindings and
// checked; a violation is looked for again with the choose-free search and
// replayed on the concrete model, which confirms it or names the first step
// where abstract and concrete part ways.

// abstractCheck holds what a check with abstraction works with.
type abstractCheck struct {
	conc     *loaded
	concM    *model.Model
	concSM   search.Model // with the concrete invariants
	abs      *loaded
	absM     *model.Model
	absSM    search.Model
	out      *abstractOutput
	inferred *infer.Result
	bindings []string
	// coercions: the declared coercions in effect, "FROM -> TO"
	coercions []string
	groupMap  []int // abstract group -> concrete group, or -1
}

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
	Confirmation  string          `json:"confirmation"`
	Replay        string          `json:"replay"`
	Diverges      *jsonDivergence `json:"diverges"`
	ValuesDiverge *jsonDivergence `json:"values_diverge"`
	AbstractTrail []jsonStep      `json:"abstract_trail"`
	// AbstractFormula is the under-approximated formula an LTL property
	// is checked with; AbstractLasso the shape of an abstract lasso.
	AbstractFormula string     `json:"abstract_formula,omitempty"`
	AbstractLasso   *jsonLasso `json:"abstract_lasso,omitempty"`
}

type jsonDivergence struct {
	Step     int    `json:"step"`
	Thread   string `json:"thread"`
	Location string `json:"location"`
	Pos      string `json:"pos"`
	Reason   string `json:"reason"`
}

type jsonAbstractReport struct {
	jsonReport
	Abstraction *jsonAbstraction `json:"abstraction"`
}

// abstractOutput is what a check needs of the generated abstract model.
type abstractOutput struct {
	// Program is the abstract model, type-checked.
	Program *types.Program
	// Origin returns the concrete transformation an abstract one stands
	// for, or nil.
	Origin func(*ast.Transformation) *ast.Transformation
	// Position maps a position of the abstract model to the concrete one.
	Position func(source.Pos) (source.Position, bool)
}

// generateAbstract builds the abstract model (package absgen); it is set
// in checkabs_gen.go.
var generateAbstract = func(prog *types.Program, res *infer.Result, cfg data.Config) (*abstractOutput, error) {
	return nil, fmt.Errorf("the abstract model generator is not available in this build")
}

// runAbstractCheck is birch check with --abstract or --abstractions.
func runAbstractCheck(e *env, o *checkOptions, name string, cfg search.Config, mo model.Options) int {
	if !solvers.Available(o.solver) {
		fmt.Fprintf(e.stderr, "birch check: solver %s is not available (want %s)\n", o.solver, strings.Join(solvers.Names, ", "))
		return ExitBadInput
	}
	if o.ltl != "" || o.pattern != "" {
		return runAbstractLTL(e, o, name, cfg, mo, nil)
	}
	var ac *abstractCheck
	var ok bool
	if r := o.lim.Run(phaseSynthesis, func() { ac, ok = buildAbstractCheck(e, o, name, mo, nil) }); r != "" {
		return stoppedReport(e, o, name, phaseSynthesis, r)
	}
	if !ok {
		return ExitBadInput
	}
	invs, isLTL, ok := selectProperties(e, ac.abs, o)
	if !ok {
		return ExitBadInput
	}
	if isLTL {
		return runAbstractLTL(e, o, name, cfg, mo, ac)
	}
	ac.absSM = ac.absM
	if len(invs) > 0 {
		inv, err := search.NewInvariants(ac.absM, invs)
		if err != nil {
			fmt.Fprintf(e.stderr, "birch check: %v\n", err)
			return ExitBadInput
		}
		ac.absSM = search.WithStateCheck(ac.absM, inv)
	}
	cinvs, _, _ := selectProperties(e, ac.conc, o)
	ac.concSM = ac.concM
	if len(cinvs) > 0 {
		inv, err := search.NewInvariants(ac.concM, cinvs)
		if err != nil {
			fmt.Fprintf(e.stderr, "birch check: %v\n", err)
			return ExitBadInput
		}
		ac.concSM = search.WithStateCheck(ac.concM, inv)
	}

	o.prepareSearch(e, &cfg)
	release := o.lim.StartSearch()
	res := search.Run(ac.absSM, cfg)
	ja := &jsonAbstraction{Bindings: ac.bindings, Coercions: ac.coercions, Variables: ac.variables(), AbstractVerdict: res.Verdict.String(), AbstractTrail: []jsonStep{}}
	var cfRes *search.Result
	if res.Violation != nil && !cfg.ChooseFree {
		cf := cfg
		cf.ChooseFree = true
		cfRes = search.Run(ac.absSM, cf)
		if cfRes.Violation == nil {
			cfRes = nil
		}
	} else if res.Violation != nil {
		cfRes = res
	}
	release()

	if res.Violation == nil {
		return ac.report(e, o, name, res, ja, nil, nil)
	}
	absRes := res
	ja.FoundBy = "search"
	if cfRes != nil {
		absRes = cfRes
		ja.FoundBy = "choose-free"
	}
	absInit, absSteps, err := search.Replay(ac.absSM, absRes.Trail)
	if err != nil {
		fmt.Fprintf(e.stderr, "birch: internal error: the abstract trail does not replay: %v\n", err)
		return ExitBadInput
	}
	ja.AbstractTrail = jsonTrail(ac.describeAbstract(absSteps))
	ja.AbstractViolation = ac.abstractViolation(absRes, search.Final(absInit, absSteps))

	sc, err := feasible.FromTrail(ac.absSM, ac.absM, absRes.Trail, absRes.Violation.Kind == model.Deadlock, ac.mapGroup)
	if err != nil {
		fmt.Fprintf(e.stderr, "birch: internal error: %v\n", err)
		return ExitBadInput
	}
	fr, r, err := o.replay(ac.concM, sc, feasible.Config{Checked: ac.concSM, MaxNodes: o.maxReplay, Solver: o.solver, Agree: ac.agree})
	if r != "" {
		return stoppedReport(e, o, name, phaseReplay, r)
	}
	if err != nil {
		fmt.Fprintf(e.stderr, "birch: internal error: %v\n", err)
		return ExitBadInput
	}
	return ac.report(e, o, name, absRes, ja, fr, absSteps)
}

// buildAbstractCheck loads the concrete model, infers the abstractions and
// generates and compiles the abstract model. pre, when not nil, is the
// concrete model already loaded (with a command-line formula).
func buildAbstractCheck(e *env, o *checkOptions, name string, mo model.Options, pre *loaded) (*abstractCheck, bool) {
	dcfg := data.Config{Solver: o.solver, Context: o.lim.Ctx}
	lib, bs, cs, ok := readBindings(e, "birch check", nil, o.abstract, o.abstractions, o.use, o.coerce, dcfg)
	if !ok {
		return nil, false
	}
	var l *loaded
	var m *model.Model
	if pre != nil {
		var err error
		if m, err = model.New(pre.prog, mo); err != nil {
			fmt.Fprintln(e.stderr, err)
			return nil, false
		}
		l = pre
	} else if l, m = compileModel(e, name, mo); m == nil {
		return nil, false
	}
	sel, err := infer.Resolve(l.prog, lib, bs)
	if err != nil {
		fmt.Fprintln(e.stderr, err)
		return nil, false
	}
	var icfg infer.Config
	switch o.def {
	case "concrete":
	case "point":
		icfg.DefaultPoint = true
	default:
		fmt.Fprintf(e.stderr, "birch check: bad --default %s (want concrete or point)\n", quote(o.def))
		return nil, false
	}
	icfg.Coercions = cs
	res, err := infer.Infer(l.prog, lib, sel, icfg)
	if err != nil {
		source.Print(e.stderr, err, maxShownErrors)
		return nil, false
	}
	for _, w := range res.Warnings {
		fmt.Fprintf(e.stderr, "%s: warning: %s\n", w.Pos, w.Msg)
	}
	out, err := generateAbstract(l.prog, res, dcfg)
	if err != nil {
		if list, ok := err.(source.ErrorList); ok {
			source.Print(e.stderr, list, maxShownErrors)
		} else {
			fmt.Fprintf(e.stderr, "birch check: %v\n", err)
		}
		return nil, false
	}
	am, err := model.New(out.Program, mo)
	if err != nil {
		fmt.Fprintf(e.stderr, "birch check: the abstract model: %v\n", err)
		return nil, false
	}
	ac := &abstractCheck{conc: l, concM: m, abs: &loaded{fset: out.Program.Fset, file: out.Program.File, prog: out.Program}, absM: am, out: out, inferred: res}
	for _, s := range sel {
		ac.bindings = append(ac.bindings, s.Binding.Target+"="+s.Binding.Abstraction)
	}
	for _, c := range res.Declared {
		ac.coercions = append(ac.coercions, c.From.Name+" -> "+c.To.Name)
	}
	ac.mapGroups()
	return ac, true
}

// mapGroups maps every transformation of the abstract model to the
// concrete one it was generated from.
func (ac *abstractCheck) mapGroups() {
	byDecl := map[*ast.Transformation]int{}
	for _, g := range ac.concM.Groups() {
		byDecl[g.Decl] = g.Index
	}
	ac.groupMap = ac.groupMap[:0]
	for _, g := range ac.absM.Groups() {
		c := -1
		if orig := ac.out.Origin(g.Decl); orig != nil {
			if i, ok := byDecl[orig]; ok {
				c = i
			}
		}
		ac.groupMap = append(ac.groupMap, c)
	}
}

func (ac *abstractCheck) mapGroup(i int) int {
	if i < 0 || i >= len(ac.groupMap) {
		return -1
	}
	return ac.groupMap[i]
}

// variables names every variable the abstraction applies to, with its
// abstraction.
func (ac *abstractCheck) variables() map[string]string {
	out := map[string]string{}
	for v, a := range ac.inferred.Vars {
		if a == nil || a.Identity {
			continue
		}
		out[varName(v)] = a.Name
	}
	return out
}

// varName names a variable as bindings do: x, Thread.x, fn.x, Record.f.
func varName(v *types.Var) string {
	switch v.Kind {
	case types.LocalVar, types.ParamVar:
		if v.Owner != nil {
			return v.Owner.Name() + "." + v.Name()
		}
	case types.FieldVar:
		return "field " + v.Name()
	}
	return v.Name()
}

// abstractionOf finds the abstraction of the value a model.Describe name
// denotes in the concrete model: a global, a thread's or frame's local, or
// a field of an object.
func (ac *abstractCheck) abstractionOf(name string) *data.Abstraction {
	base := func(s string) string {
		if i := strings.IndexByte(s, '['); i >= 0 {
			return s[:i]
		}
		return s
	}
	prog := ac.conc.prog
	dot := strings.IndexByte(name, '.')
	if dot < 0 {
		if v, ok := prog.Lookup(base(name)).(*types.Var); ok {
			return ac.inferred.Vars[v]
		}
		return nil
	}
	head, rest := name[:dot], name[dot+1:]
	owner := base(head)
	if i := strings.LastIndexByte(rest, '.'); i >= 0 {
		// a frame: fn#depth.x
		fn := rest[:i]
		if j := strings.IndexByte(fn, '#'); j >= 0 {
			fn = fn[:j]
		}
		owner, rest = fn, rest[i+1:]
	}
	vname := base(rest)
	if p, ok := prog.Procs.LookupLocal(owner).(*types.Proc); ok {
		for _, v := range p.Vars() {
			if v.Name() == vname {
				return ac.inferred.Vars[v]
			}
		}
	}
	for _, c := range prog.Collections {
		if c.Name() != owner {
			continue
		}
		if r, ok := c.Elem.Underlying().(*types.Record); ok {
			if f := r.Field(vname); f != nil {
				return ac.inferred.Vars[f]
			}
		}
	}
	return nil
}

// agree compares a concrete state with the abstract state of a step: every
// abstracted value must be abstracted by its token.
func (ac *abstractCheck) agree(abstract map[string]string, state []byte) string {
	var diffs []string
	for _, v := range ac.concM.Describe(state) {
		tok, ok := abstract[v.Name]
		if !ok {
			continue
		}
		a := ac.abstractionOf(v.Name)
		if a == nil || a.Identity || len(a.Tokens) == 0 {
			continue
		}
		n, ok := new(big.Int).SetString(v.Value, 10)
		if !ok {
			continue
		}
		k := a.Abstract(n)
		if k < 0 {
			continue
		}
		want := a.Tokens[k].Name
		if tok == want || strings.HasSuffix(tok, "_"+want) {
			continue
		}
		diffs = append(diffs, fmt.Sprintf("%s = %s (%s), abstract %s", v.Name, v.Value, want, tok))
	}
	return strings.Join(diffs, ", ")
}

// describeAbstract describes abstract trail steps with the positions of
// the concrete model.
func (ac *abstractCheck) describeAbstract(steps []search.TrailStep) []trailStep {
	ts := describeTrail(ac.absM, ac.abs.fset, steps)
	for i := range ts {
		st := steps[i].Step
		if len(st.Groups) > 0 {
			// the user's transformation, not the generated one
			if c := ac.mapGroup(int(st.Groups[0])); c >= 0 {
				decl := ac.concM.Groups()[c].Decl
				ts[i].Source = []string{transformationText(decl)}
				if st.Outcome == model.OK {
					ts[i].Pos = posString(ac.conc.fset, decl.Pos())
					continue
				}
			}
		}
		ts[i].Pos = ac.concretePos(st.Pos)
		if st.Outcome != model.OK {
			ts[i].Msg = st.Kind.String() + ": " + ac.violationMsg(st.Kind, st.Msg, st.Groups)
		}
	}
	return ts
}

// concretePos maps a position of the abstract model to the concrete one.
func (ac *abstractCheck) concretePos(p source.Pos) string {
	if !p.IsValid() {
		return ""
	}
	if cp, ok := ac.out.Position(p); ok {
		return cp.String()
	}
	return ac.abs.fset.Position(p).String()
}

func (ac *abstractCheck) abstractViolation(res *search.Result, final []byte) *jsonViolation {
	jv := violationJSON(ac.abs, ac.absM, res, final)
	if jv != nil && res.Violation != nil {
		jv.Pos = ac.concretePos(res.Violation.Pos)
		jv.Message = ac.violationMsg(res.Violation.Kind, res.Violation.Msg, res.Violation.Groups)
	}
	return jv
}

// violationMsg words an abstract violation in terms of the concrete model:
// the abstract text of a failed assertion is the under-approximated
// condition, so the concrete assertion of the transformation is named
// instead (when it has one).
func (ac *abstractCheck) violationMsg(k model.ErrorKind, msg string, groups []int32) string {
	if k != model.Assertion || len(groups) == 0 {
		return msg
	}
	c := ac.mapGroup(int(groups[len(groups)-1]))
	if c < 0 {
		return msg
	}
	var conds []string
	for _, a := range ac.concM.Groups()[c].Decl.Actions {
		if as, ok := a.(*ast.AssertAction); ok {
			conds = append(conds, format.Expr(as.Cond))
		}
	}
	if len(conds) != 1 {
		return msg
	}
	// the generator writes assert(false) where the condition is certainly
	// false, and asserts a chosen boolean where it may be either
	how := "may be false in the abstract state"
	if g := int(groups[len(groups)-1]); g >= 0 && g < len(ac.absM.Groups()) {
		for _, a := range ac.absM.Groups()[g].Decl.Actions {
			if as, ok := a.(*ast.AssertAction); ok && format.Expr(as.Cond) == "false" {
				how = "false in every concrete state the abstract state stands for"
			}
		}
	}
	return "assertion violated: " + conds[0] + " (" + how + ")"
}

func divergenceJSON(fset *source.FileSet, d *feasible.Divergence) *jsonDivergence {
	if d == nil {
		return nil
	}
	return &jsonDivergence{Step: d.Step, Thread: d.Thread, Location: d.Location, Pos: posString(fset, d.Pos), Reason: d.Reason}
}

// report prints the result of a check with abstraction and returns the
// exit status. res is the abstract search that found the violation (or
// the full one without a violation); fr the replay on the concrete model.
func (ac *abstractCheck) report(e *env, o *checkOptions, name string, res *search.Result, ja *jsonAbstraction, fr *feasible.Result, absSteps []search.TrailStep) int {
	verdict, reason := res.Verdict, res.Reason
	var viol *jsonViolation
	var steps []trailStep
	var concTrail []int
	using := "with abstraction (" + strings.Join(ac.bindings, ", ") + ")"
	switch {
	case res.Violation == nil && res.Verdict == search.Pass:
		reason = "no violation: every reachable state of the abstract model was explored; proven " + using
		if !o.noDeadlock {
			// an abstract state may have a transformation that only may
			// be enabled where the concrete states it stands for have
			// none: over-approximation does not preserve deadlocks
			reason += "; deadlock freedom is not preserved by abstraction (not proven)"
		}
	case res.Violation == nil:
		reason += " (abstract model, " + using + ")"
	case fr.Confirmed:
		ja.Confirmation, ja.Replay = "confirmed", fr.Method
		verdict = search.Fail
		init, ts, err := search.Replay(ac.concSM, fr.Trail)
		if err != nil {
			fmt.Fprintf(e.stderr, "birch: internal error: the confirmed trail does not replay: %v\n", err)
			return ExitBadInput
		}
		steps = describeTrail(ac.concM, ac.conc.fset, ts)
		concTrail = fr.Trail
		cv := concreteViolation(ts)
		if len(ts) == 0 {
			// the initial state violates the property
			if _, fail := ac.concSM.Initial(nil); fail != nil {
				cv = &search.Violation{Kind: fail.Kind, Msg: fail.Msg, Thread: -1, Pos: fail.Pos}
			}
		}
		cres := &search.Result{Violation: cv}
		viol = violationJSON(ac.conc, ac.concM, cres, search.Final(init, ts))
		reason = viol.Kind + ": " + viol.Message
	default:
		ja.Confirmation, ja.Replay = "not confirmed", fr.Method
		if ja.FoundBy == "choose-free" && fr.Incomplete {
			// the choose-free trail executes no choice of the abstraction:
			// it stands even though the replay did not finish
			verdict = search.Fail
			reason = res.Violation.Kind.String() + ": " + ja.AbstractViolation.Message + " (found by the choose-free search of the abstract model; the concrete replay did not finish: " + fr.Note + ")"
			viol = ja.AbstractViolation
			break
		}
		verdict = search.Inconclusive
		reason = "the abstract model has a violation (" + res.Violation.Kind.String() + ") that is not confirmed on the concrete model"
		if fr.Incomplete {
			reason += " (" + fr.Note + ")"
		}
	}
	if fr != nil {
		ja.Diverges = divergenceJSON(ac.conc.fset, fr.Diverge)
		ja.ValuesDiverge = divergenceJSON(ac.conc.fset, fr.ValuesDiverge)
	}
	saved := false
	if o.trail != "" && concTrail != nil {
		saved = saveTrail(e, "check", o.trail, newTrailFile(name, o.search, concTrail, viol, steps))
	}
	if o.json {
		printJSON(e.stdout, jsonAbstractReport{
			jsonReport: jsonReport{
				Model: name, Verdict: verdict.String(), Complete: res.Complete && res.Violation == nil, Reason: reason,
				Violation: viol, Stats: statsJSON(res.Stats), Trail: jsonTrail(steps),
				LimitsHit: limitsJSON(ac.abs.fset, res.LimitsHit), Search: o.search,
				Unreached: ac.unreached(res),
			},
			Abstraction: ja,
		})
		return exitStatus(verdict)
	}
	w := e.stdout
	fmt.Fprintf(w, "%s: %s\n", verdict, reason)
	if viol != nil {
		if viol.Thread != "" {
			fmt.Fprintf(w, "  thread %s at %s\n", viol.Thread, viol.Location)
		}
		if viol.Pos != "" {
			fmt.Fprintf(w, "  at %s\n", viol.Pos)
		}
	}
	ac.printAbstraction(w)
	if res.Violation != nil {
		switch {
		case fr.Confirmed && ja.FoundBy == "choose-free":
			fmt.Fprintf(w, "found by the choose-free search of the abstract model (not caused by abstraction); confirmed on the concrete model (%s replay)\n", fr.Method)
		case fr.Confirmed:
			fmt.Fprintf(w, "found by the search of the abstract model; confirmed on the concrete model (%s replay)\n", fr.Method)
		default:
			if ja.FoundBy == "choose-free" {
				fmt.Fprintln(w, "found by the choose-free search of the abstract model (not caused by abstraction)")
			} else {
				fmt.Fprintln(w, "found by the search of the abstract model; the choose-free search finds no violation")
			}
			fmt.Fprintf(w, "abstract violation: %s: %s at %s\n", res.Violation.Kind, ja.AbstractViolation.Message, ja.AbstractViolation.Pos)
			fmt.Fprintf(w, "abstract trail (%d steps):\n", len(absSteps))
			printSteps(w, ac.describeAbstract(absSteps), o.fullTrail)
			printNotConfirmed(w, ac.conc.fset, fr)
		}
		if steps != nil {
			printTrail(w, steps, o.fullTrail)
			printDeadlockThreads(w, viol.Threads)
		}
		if fr.ValuesDiverge != nil && fr.Confirmed {
			d := fr.ValuesDiverge
			fmt.Fprintf(w, "note: the concrete values differ from the abstract trail's from step %d: %s\n", d.Step, d.Reason)
		}
	}
	printUnreached(w, ac.unreached(res), len(res.LimitsHit) > 0)
	for _, lh := range res.LimitsHit {
		fmt.Fprintf(w, "bound hit %d times: %s: %s\n", lh.Count, ac.concretePos(lh.Pos), lh.Msg)
	}
	if o.trail != "" {
		if saved {
			fmt.Fprintf(w, "trail saved to %s\n", o.trail)
		} else if concTrail != nil {
			fmt.Fprintf(w, "trail NOT saved to %s (see the warning above)\n", o.trail)
		} else if res.Violation != nil {
			fmt.Fprintln(w, "no trail saved: no concrete trail was found")
		}
	}
	fmt.Fprintf(w, "stats: %s (abstract model)\n", statsLine(res.Stats))
	return exitStatus(verdict)
}

// concreteViolation is the violation a replayed concrete trail ends in.
func concreteViolation(ts []search.TrailStep) *search.Violation {
	if n := len(ts); n > 0 && ts[n-1].Step.Outcome != model.OK {
		st := ts[n-1].Step
		return &search.Violation{Kind: st.Kind, Msg: st.Msg, Thread: st.Thread, Pos: st.Pos, Groups: st.Groups}
	}
	return &search.Violation{Kind: model.Deadlock, Msg: "no thread can move", Thread: -1}
}

// printAbstraction prints the bindings and the inferred abstractions.
func (ac *abstractCheck) printAbstraction(w io.Writer) {
	fmt.Fprintf(w, "abstraction: %s\n", strings.Join(ac.bindings, ", "))
	if len(ac.coercions) > 0 {
		fmt.Fprintf(w, "declared coercions: %s\n", strings.Join(ac.coercions, ", "))
	}
	vars := ac.variables()
	var names []string
	for n := range vars {
		names = append(names, n)
	}
	sort.Strings(names)
	var parts []string
	for _, n := range names {
		parts = append(parts, n+" "+vars[n])
	}
	fmt.Fprintf(w, "  abstracted: %s\n", strings.Join(parts, ", "))
}

func printNotConfirmed(w io.Writer, fset *source.FileSet, fr *feasible.Result) {
	if d := fr.Diverge; d != nil {
		where := d.Thread
		if d.Location != "" {
			where += " at " + d.Location
		}
		if p := posString(fset, d.Pos); p != "" {
			where += " (" + p + ")"
		}
		if where != "" {
			where += ": "
		}
		fmt.Fprintf(w, "not confirmed: step %d: %s%s\n", d.Step, where, d.Reason)
	} else {
		fmt.Fprintln(w, "not confirmed")
	}
	if fr.Incomplete {
		fmt.Fprintf(w, "  the replay is incomplete: %s\n", fr.Note)
	}
	if d := fr.ValuesDiverge; d != nil {
		fmt.Fprintf(w, "values part ways first at step %d (%s at %s): %s\n", d.Step, d.Thread, d.Location, d.Reason)
	}
}

// unreached lists the concrete transformations that the complete search
// of the abstract model never executed: the abstract model executes every
// transformation the concrete one does (over-approximation), so these are
// unreached in the model as well. A transformation the abstract model has
// no counterpart of is not listed.
func (ac *abstractCheck) unreached(res *search.Result) []jsonUnreached {
	if !searchedAll(res) {
		return nil
	}
	covered, executed := map[*ast.Transformation]bool{}, map[*ast.Transformation]bool{}
	for _, g := range ac.absM.Groups() {
		if c := ac.mapGroup(g.Index); c >= 0 {
			d := ac.concM.Groups()[c].Decl
			covered[d] = true
			if wasExecuted(res, g.Index) {
				executed[d] = true
			}
		}
	}
	return listUnreached(ac.conc, func(t *ast.Transformation) bool { return covered[t] && !executed[t] })
}
