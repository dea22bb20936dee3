package verify

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"birch/internal/abstraction/data/feasible"
	"birch/internal/bir/ast"
	"birch/internal/bir/types"
	"birch/internal/model"
	"birch/internal/search"
	"birch/internal/smt/solvers"
)

// The check with on-the-fly predicate abstraction (docs/apf.md, issue 22,
// Abstract Pathfinder's approach): the predicate file is read against the
// model and the model instrumented (package apf: P′, the model with one
// hidden variable per predicate and context, and the runtime that updates
// them as the model's native code); the explicit step searches P′ as it
// searches any model (deadlocks excluded: a guard whose value is unknown
// is taken); a violation's schedule is the same transformations on the
// model as written (P′ has the original's transformations in the same
// order), replayed there as for c2bp's trails (confirmSchedule).

// OnTheFly is a check with on-the-fly predicate abstraction
// (docs/apf.md).
type OnTheFly struct {
	File   string // --predicates FILE
	Solver string // of the runtime's queries and of the confirmation
	// ReadFile reads the predicate file (nil: os.ReadFile).
	ReadFile ReadFunc

	// instrument, when not nil, replaces instrumentOnTheFly (in tests)
	instrument func(t *Task, predSrc []byte) (*otfModel, error)
}

// OnTheFlyInfo describes a check with on-the-fly predicate abstraction.
type OnTheFlyInfo struct {
	File       string
	Predicates []string // as written in the file, with their context
	// Abstracted: the variables, parameters and fields whose values the
	// predicates stand for (their slots keep their initial values).
	Abstracted []string
	Stats      OnTheFlyStats
}

// OnTheFlyStats is the work of the runtime during the search.
type OnTheFlyStats struct {
	Steps     int // runs of transformations the runtime updated the predicates after
	Queries   int // solver queries
	CacheHits int // queries answered from the cache
	Unknowns  int // queries the solver could not decide (taken as unknown)
	// UnknownGuards: guards whose value was unknown, so that the search
	// took the transformation with the guard as a fact of the path.
	UnknownGuards int
	// Branches: the runtime's choices: a possible runtime error taken both
	// ways, a concrete location given each value abstracted data may have.
	Branches int
}

// otfModel is what the check searches: P′ compiled with the runtime as
// its native code (model.Options.Native), and what the check needs to
// know of it. When unsupported is not nil, only preds is set.
type otfModel struct {
	prog       *types.Program // P′
	m          *model.Model
	preds      []string
	abstracted []string
	// hidden maps the name of each predicate's hidden variable to the
	// predicate's expression, for the abstract trail
	hidden map[string]string
	// isAbstracted reports whether a model.Describe name of P′ is
	// abstracted data (its slot keeps its initial value: the predicates
	// stand for its value)
	isAbstracted func(name string) bool
	// reads reports whether an expression of P′ reads abstracted data
	reads       func(e ast.Expr) bool
	unsupported error // why the model cannot be abstracted soundly
	stats       func() OnTheFlyStats
	// err, when not nil, is the first failure of the solver (its query
	// counted as undecided: sound, but the check says so)
	err   func() error
	close func()
}

// onTheFlyTechnique checks a plan with on-the-fly predicate abstraction:
// its safety check searches P′ and confirms a violation on the model as
// written; ltl properties, deadlocks and the invariants that read
// abstracted data are not checked.
type onTheFlyTechnique struct {
	t     *Task
	built bool
	otf   *otfModel
	am    *abstractModel // P′ and the model as written, for the confirmation
	// unbounded: the model as written has unbounded choices, compiled
	// without values (the confirmation solves for them)
	unbounded bool
	// check, when not nil, is the check of every search: a limit stopped
	// the instrumentation, or it cannot be done soundly
	check *Check
}

// runOnTheFly checks the plan pl with on-the-fly predicate abstraction:
// the model is instrumented first, so that the invariants that read
// abstracted data are reported as not checked.
func runOnTheFly(t *Task, pl *plan) (*Result, error) {
	if t.Abstraction != nil || t.Predicates != nil || t.Cegar != nil || t.AMCS != nil {
		return nil, usagef("--on-the-fly checks with the predicates of --predicates FILE: give no --abstract, --abstractions, --cegar or --amcs with it")
	}
	o := *t.OnTheFly
	if o.File == "" {
		return nil, usagef("--on-the-fly needs --predicates FILE")
	}
	if o.Solver == "" {
		o.Solver = solvers.Default
	}
	if !solvers.Available(o.Solver) {
		return nil, usagef("solver %s is not available (want %s)", o.Solver, strings.Join(solvers.Names, ", "))
	}
	t.OnTheFly = &o
	p := &onTheFlyTechnique{t: t}
	defer p.close()
	if err := p.build(); err != nil {
		return nil, err
	}
	carried := func(inv *types.Property) bool {
		q := p.instrumented(inv)
		return p.am == nil || q != nil && !p.otf.reads(q.Decl.Expr)
	}
	return runCarrying(t, pl, p, carried, "the invariant reads data the predicates stand for (on-the-fly predicate abstraction checks only invariants over concrete data)")
}

// instrumented is P′'s version of the invariant inv of the model, or nil.
func (p *onTheFlyTechnique) instrumented(inv *types.Property) *types.Property {
	for _, q := range p.otf.prog.Properties {
		if !q.LTL && q.Name() == inv.Name() {
			return q
		}
	}
	return nil
}

func (p *onTheFlyTechnique) close() {
	if p.otf != nil && p.otf.close != nil {
		p.otf.close()
	}
}

func (p *onTheFlyTechnique) name() string { return p.t.Search.Strategy.String() }

func (p *onTheFlyTechnique) safetyProperties(invs []*types.Property) []*Property {
	return noDeadlockProperties(invs, "on-the-fly predicate abstraction takes a guard whose value is unknown, which does not preserve them")
}

func (p *onTheFlyTechnique) ltl(t *Task, lp *ltlProperty) (*Check, error) {
	return notChecked(p.name(), []*Property{lp.Property}, "on-the-fly predicate abstraction takes a guard whose value is unknown both ways, which does not preserve ltl properties"), nil
}

func (p *onTheFlyTechnique) safety(t *Task, props []*Property, invs []*types.Property) (*Check, error) {
	if err := p.build(); err != nil {
		return nil, err
	}
	if p.check != nil {
		return p.check.of(props), nil
	}
	return p.searchSafety(props, invs)
}

// what names the abstraction in bases and reasons.
func (p *onTheFlyTechnique) what() string {
	n := len(p.otf.preds)
	return fmt.Sprintf("on-the-fly predicate abstraction (%d %s of %s)", n, plural(n, "predicate", "predicates"), p.t.OnTheFly.File)
}

// build reads the predicate file and instruments the model once, within
// the limits, and compiles the model as written for the confirmation.
func (p *onTheFlyTechnique) build() error {
	if p.built {
		return nil
	}
	p.built = true
	t := p.t
	o := t.OnTheFly
	src, err := readPredicates(t.Input, o.ReadFile, o.File)
	if err != nil {
		return err
	}
	instrument := instrumentOnTheFly
	if o.instrument != nil {
		instrument = o.instrument
	}
	var otf *otfModel
	if r := t.limits().Run(PhaseSynthesis, func() { otf, err = instrument(t, src) }); r != "" {
		p.check = (&Check{Search: p.name()}).stop(PhaseSynthesis, r)
		return nil
	}
	if err != nil {
		return err
	}
	p.otf = otf
	if otf.unsupported != nil {
		why := "the on-the-fly predicate abstraction cannot check the model soundly: " + otf.unsupported.Error()
		p.check = &Check{Search: p.name(), Reason: why, RestsOn: RestsOn{{Bounded, "no search: " + why}}}
		return nil
	}
	in, mo := t.Input, t.Model
	if p.unbounded = model.UnboundedChoices(in.Prog, mo.MaxChoiceRange) != nil; p.unbounded {
		mo.ChoiceValues = []int64{}
	}
	concM, err := model.New(in.Prog, mo)
	if err != nil {
		return plainError(err)
	}
	am := &abstractModel{
		conc: in, concM: concM, absM: otf.m, onTheFly: p.what(),
		abs: &Input{Name: in.Name, Fset: otf.prog.Fset, File: otf.prog.File, Prog: otf.prog, Src: in.Src},
	}
	if err := am.sameGroups(); err != nil {
		return errorf("birch: internal error: the instrumented model: %v", err)
	}
	p.am = am
	return nil
}

// The violations of the instrumented model the check tries to confirm: a
// violation not confirmed (the predicates too weak for it, a single
// thread's run where the race needs two) does not end the check, which
// searches again with every error step of the model left out and noted
// with the way to it (errorCollector), and replays each in turn, up to
// maxOnTheFlyTrails violations, in a search of at most maxSearchOnStates
// states.
const (
	maxOnTheFlyTrails = 100
	maxSearchOnStates = 200000
)

// searchSafety searches P′ for a violation of safety (without deadlocks)
// and of the invariants invs, and confirms a violation on the model as
// written. A violation not confirmed does not end the check at once: the
// other violations of the instrumented model are tried (errorCollector),
// and the first one confirmed is the check's `fail`. When none is, the
// check is the first violation's, `inconclusive`, never `pass`: the
// violations not confirmed may be real.
func (p *onTheFlyTechnique) searchSafety(props []*Property, invs []*types.Property) (*Check, error) {
	t, am := p.t, p.am
	var pinvs []*types.Property
	for _, inv := range invs {
		pinvs = append(pinvs, p.instrumented(inv))
	}
	checked := func(m search.Model) (search.Model, error) {
		if len(pinvs) == 0 {
			return m, nil
		}
		inv, err := search.NewInvariants(am.absM, pinvs)
		if err != nil {
			return nil, err
		}
		return search.WithStateCheck(m, inv), nil
	}
	absSM, err := checked(am.absM)
	if err != nil {
		return nil, err
	}
	concSM, err := safetyModel(am.concM, invs)
	if err != nil {
		return nil, err
	}
	cfg := t.Search
	cfg.NoDeadlock = true
	// the runtime's terms, symbols and query cache grow outside the
	// search's count of its memory: the memory watch samples the process
	t.limits().StartWatchedSearch()
	res := search.Run(absSM, cfg)
	first, key, err := p.checkOf(props, absSM, concSM, invs, res)
	if err != nil || key == "" {
		return first, err
	}

	col := &errorCollector{Model: am.absM, skip: key, parent: map[string]link{}}
	init, _ := am.absM.Initial(nil)
	col.init = string(init)
	csm, err := checked(col)
	if err != nil {
		return nil, err
	}
	ccfg := cfg
	// the shortest way to each error
	ccfg.Strategy = search.BFS
	if ccfg.MaxStates == 0 || ccfg.MaxStates > maxSearchOnStates {
		ccfg.MaxStates = maxSearchOnStates
	}
	cres := search.Run(csm, ccfg)
	var cands []*search.Result
	for _, pt := range col.points {
		st := pt.step
		cands = append(cands, &search.Result{Verdict: search.Fail, Violation: search.StepViolation(&st), Trail: col.trail(pt), Stats: cres.Stats})
	}
	if cres.Violation != nil {
		// an invariant's violation ends the search
		cands = append(cands, cres)
	}
	tried := 0
	for _, r := range cands {
		if tried == maxOnTheFlyTrails-1 {
			break
		}
		tried++
		c, _, err := p.checkOf(props, absSM, concSM, invs, r)
		if err != nil {
			return nil, err
		}
		if v := c.Violation; v != nil && v.Confirmation.Confirmed {
			c.Notes = append(c.Notes, fmt.Sprintf("found after %d %s of the instrumented model not confirmed on the model as written", tried, plural(tried, "violation", "violations")))
			return c, nil
		}
		if c.Stopped != nil {
			break
		}
	}
	note := fmt.Sprintf("the search found %d other %s of the instrumented model, none confirmed on the model as written", len(cands), plural(len(cands), "violation", "violations"))
	switch {
	case len(cands) == 0 && cres.Verdict == search.Pass:
		note = "the search finds no other violation of the instrumented model"
	case tried < len(cands):
		note = fmt.Sprintf("the search found other violations of the instrumented model, %d tried, none confirmed on the model as written", tried)
	}
	if cres.Verdict != search.Pass && cres.Violation == nil {
		note += " (" + cres.Reason + ")"
	}
	first.Notes = append(first.Notes, note)
	return first, nil
}

// checkOf is the check of the search result res of absSM: the violation
// it found confirmed or not on the model as written (concSM, with the
// invariants invs). key is the violation's refutedKey when it is a step's
// error not confirmed ("" otherwise: an invariant's violation, say).
func (p *onTheFlyTechnique) checkOf(props []*Property, absSM, concSM search.Model, invs []*types.Property, res *search.Result) (c *Check, key string, err error) {
	t, am := p.t, p.am
	cfg := t.Search
	c = &Check{
		Properties: props, Search: cfg.Strategy.String(),
		RestsOn:     append(RestsOn{{Abstracted, p.what() + ": an over-approximation, so a pass is a proof"}}, restsOnSearch(cfg, res)...),
		Abstraction: &AbstractionInfo{AbstractVerdict: res.Verdict},
		OnTheFly:    p.info(),
	}
	if p.otf.err != nil {
		if err := p.otf.err(); err != nil {
			c.Notes = append(c.Notes, "the solver failed on a query, counted as undecided (the predicate unknown, which keeps the abstraction sound): "+err.Error())
		}
	}
	c.fromAbstractSearch(am, res)
	if res.Violation == nil {
		if res.Verdict == search.Pass {
			c.Reason = "no violation: every reachable state of the instrumented model was explored; proven with " + p.what() + "; deadlocks not checked"
		}
		c.Unreached = am.unreached(res)
		return c, "", nil
	}
	c.Abstraction.FoundBy = "search"
	_, steps, err := c.abstractTrailSteps(am, absSM, res)
	if err != nil {
		return nil, "", err
	}
	p.otf.wordPredicates(c.Abstraction.AbstractTrail)
	// P′ has the transformations of the model as written, in the same
	// order: the trail's steps are the schedule
	var sc feasible.Schedule
	if len(steps) > 0 {
		sc, err = feasible.FromSteps(steps, nil, false, am.mapGroup)
	} else {
		sc, err = feasible.FromTrail(absSM, nil, res.Trail, false, am.mapGroup)
	}
	if err != nil {
		return nil, "", errorf("birch: internal error: %v", err)
	}
	if err := confirmSchedule(t, am, c, sc, nil, *res.Violation, concSM, invs, t.OnTheFly.Solver, p.unbounded); err != nil {
		return nil, "", err
	}
	if v := c.Violation; v != nil && !v.Confirmation.Confirmed && c.Stopped == nil && len(steps) > 0 {
		// the error step of the model (not an invariant's violation,
		// which the state check adds) from the state before it
		if last := steps[len(steps)-1]; last.Step.Outcome == model.Error && last.Step.Kind != model.InvariantViolated {
			key = refutedKey(last.Before, last.Step.Ordinal)
		}
	}
	return c, key, nil
}

// refutedKey names the error step with the given ordinal from state.
func refutedKey(state []byte, ordinal int) string {
	return strconv.Itoa(ordinal) + ":" + string(state)
}

// errorCollector is the instrumented model without its error steps, each
// noted with the way to it: the search of it explores every state the
// errors do not end, and a trail to each error is the ordinals of the
// steps that first generated the states on its way (parent).
type errorCollector struct {
	*model.Model
	skip   string // the refutedKey of the violation already tried
	init   string
	parent map[string]link
	points []errorPoint // in the order the search found them, at most maxOnTheFlyTrails
}

// link is the step that first generated a state: from the state from, the
// outcome with ordinal ord.
type link struct {
	from string
	ord  int
}

// errorPoint is an error step (its State nil) from the state from.
type errorPoint struct {
	from string
	step model.Step
}

func (w *errorCollector) Next(state []byte, yield func(*model.Step)) (int, bool) {
	n := 0
	from := ""
	_, done := w.Model.Next(state, func(st *model.Step) {
		switch st.Outcome {
		case model.Error:
			if len(w.points) < maxOnTheFlyTrails && refutedKey(state, st.Ordinal) != w.skip {
				if from == "" {
					from = string(state)
				}
				c := *st
				c.Groups, c.State = append([]int32(nil), st.Groups...), nil
				w.points = append(w.points, errorPoint{from, c})
			}
			return
		case model.OK:
			if _, ok := w.parent[string(st.State)]; !ok && string(st.State) != w.init {
				if from == "" {
					from = string(state)
				}
				w.parent[string(st.State)] = link{from, st.Ordinal}
			}
		}
		n++
		yield(st)
	})
	return n, done
}

// trail is the ordinals of a trail to the error point pt.
func (w *errorCollector) trail(pt errorPoint) []int {
	ords := []int{pt.step.Ordinal}
	for s := pt.from; s != w.init; {
		l, ok := w.parent[s]
		if !ok {
			break
		}
		ords = append(ords, l.ord)
		s = l.from
	}
	slices.Reverse(ords)
	return ords
}

// info is the details of the check: the predicates and the runtime's
// work.
func (p *onTheFlyTechnique) info() *OnTheFlyInfo {
	o := p.otf
	info := &OnTheFlyInfo{File: p.t.OnTheFly.File, Predicates: o.preds, Abstracted: o.abstracted}
	if o.stats != nil {
		info.Stats = o.stats()
	}
	return info
}

// predicateValues are the values of a predicate's hidden variable.
var predicateValues = [...]string{"unknown", "false", "true"}

// wordPredicates words the changes of the hidden variables in the steps of
// an abstract trail as the predicates they hold: `Main[1].pred'1 = 0` is
// `Main[1] [x >= 10] = unknown`. It leaves out the abstracted data, whose
// slots hold their initial values whatever the values the predicates stand
// for (`Accounts[0].balance = 0` of a new object would be wrong).
func (o *otfModel) wordPredicates(steps []Step) {
	for i := range steps {
		var out []model.Var
		for _, ch := range steps[i].Changes {
			if o.isAbstracted != nil && o.isAbstracted(ch.Name) {
				continue
			}
			owner, name := "", ch.Name
			if j := strings.LastIndexByte(name, '.'); j >= 0 {
				owner, name = name[:j]+" ", name[j+1:]
			}
			if expr, ok := o.hidden[name]; ok {
				v := ch.Value
				if n, err := strconv.Atoi(v); err == nil && n >= 0 && n < len(predicateValues) {
					v = predicateValues[n]
				}
				ch = model.Var{Name: owner + "[" + expr + "]", Value: v}
			}
			out = append(out, ch)
		}
		steps[i].Changes = out
	}
}
