package verify

import (
	"fmt"
	"strings"

	"birch/internal/abstraction/data/feasible"
	"birch/internal/abstraction/predicate"
	"birch/internal/abstraction/predicate/c2bp"
	"birch/internal/bir/types"
	"birch/internal/model"
	"birch/internal/search"
	"birch/internal/smt/solvers"
)

// The check with predicate abstraction (docs/predicates.md, "Checking with
// predicates") composes the steps of the check with data abstraction
// around another pass: the predicate file is read and the abstract model
// built by c2bp.Abstract (phase abstraction synthesis, predabs.go); the
// explicit step searches it (deadlocks excluded: an over-approximation of
// the guards does not preserve them); an abstract violation is solved
// along its schedule on the concrete model (feasible.Replay), whose
// unbounded inputs the symbolic replay solves for. No choose-free search:
// the abstract guards over-approximate without a choice, so a choose-free
// trail is no more real than another.

// PredicateAbstraction is a check with predicate abstraction
// (docs/predicates.md).
type PredicateAbstraction struct {
	File       string // --predicates FILE
	CubeLength int    // --cube-length (0: predicate.DefaultCubeLength)
	// Engine searches the abstract model: "explicit", "bebop" (a
	// one-thread model whose abstraction is a boolean program), or "" for
	// bebop where it applies and the explicit engine otherwise.
	Engine string
	Solver string // of the cube queries and of the confirmation
	// ReadFile reads the predicate file (nil: os.ReadFile).
	ReadFile ReadFunc

	// abstract, when not nil, replaces c2bp.Abstract (in tests)
	abstract func(*types.Program, *predicate.File, c2bp.Config) (*c2bp.Output, error)
	// cache, when not nil, is shared by the abstractions of a refinement
	// loop's rounds (c2bp.Config.Cache)
	cache *predicate.QueryCache
	// decide, when not nil, is asked about the schedule of an abstract
	// violation before the confirmation (the refinement loop decides its
	// path formula; steps[i] is the abstract step of the schedule's step
	// i): false leaves the violation not confirmed, without a replay
	decide func(am *abstractModel, sc feasible.Schedule, steps []int) bool
}

// PredicateInfo describes a check with predicate abstraction.
type PredicateInfo struct {
	File       string
	Predicates []string // as written in the file, with their scope
	Variables  []string // the boolean variable of each predicate
	Abstracted []string // the concrete variables and fields the abstract model no longer has
	Stats      c2bp.Stats
	// Engine is the engine that searched the abstract model.
	Engine Engine
}

// Engine says which engine searched the abstract model: "explicit" or
// "bebop" (with its BDD nodes), and why not bebop where it was to be
// tried (Note).
type Engine struct {
	Name     string
	BDDNodes int
	Note     string
}

// predicateTechnique checks a plan with predicate abstraction: its safety
// check is a search of the abstract model with the confirmation of a
// violation; ltl properties and the invariants the abstraction does not
// carry are not checked.
type predicateTechnique struct {
	t     *Task
	built bool
	am    *abstractModel
	// check, when not nil, is the check of every search: a limit stopped
	// the abstraction, or it cannot be built soundly
	check *Check
}

// newPredicateTechnique checks the options of t's predicate abstraction.
func newPredicateTechnique(t *Task) (*predicateTechnique, error) {
	pa := *t.Predicates
	if pa.Solver == "" {
		pa.Solver = solvers.Default
	}
	if !solvers.Available(pa.Solver) {
		return nil, usagef("solver %s is not available (want %s)", pa.Solver, strings.Join(solvers.Names, ", "))
	}
	switch pa.Engine {
	case "", "auto":
		pa.Engine = ""
	case "explicit", bebopEngine:
	default:
		return nil, usagef("bad --engine %s (want auto, explicit or bebop)", pa.Engine)
	}
	if pa.CubeLength < 0 {
		return nil, usagef("bad --cube-length %d (want 1 or more, or 0 for %d)", pa.CubeLength, predicate.DefaultCubeLength)
	}
	t.Predicates = &pa
	return &predicateTechnique{t: t}, nil
}

// runPredicates checks the plan pl with predicate abstraction: the
// abstraction is built first, so that the invariants it does not carry
// are reported as not checked.
func runPredicates(t *Task, pl *plan) (*Result, error) {
	p, err := newPredicateTechnique(t)
	if err != nil {
		return nil, err
	}
	if err := p.build(); err != nil {
		return nil, err
	}
	carried := func(inv *types.Property) bool {
		return p.am == nil || len(p.am.abstractProperties([]*types.Property{inv})) == 1
	}
	return runCarrying(t, pl, p, carried, "the predicate abstraction does not carry this invariant")
}

func (p *predicateTechnique) name() string { return p.t.Search.Strategy.String() }

func (p *predicateTechnique) safetyProperties(invs []*types.Property) []*Property {
	return noDeadlockProperties(invs, "predicate abstraction does not preserve them")
}

func (p *predicateTechnique) ltl(t *Task, lp *ltlProperty) (*Check, error) {
	return notChecked(p.name(), []*Property{lp.Property}, "predicate abstraction over-approximates the guards, which does not preserve ltl properties"), nil
}

func (p *predicateTechnique) safety(t *Task, props []*Property, invs []*types.Property) (*Check, error) {
	if err := p.build(); err != nil {
		return nil, err
	}
	if p.check != nil {
		return p.check.of(props), nil
	}
	return searchPredicateSafety(t, p.am, props, invs)
}

// build builds the abstract model once, within the limits.
func (p *predicateTechnique) build() error {
	if p.built {
		return nil
	}
	p.built = true
	t := p.t
	var pa *predAbstraction
	var err error
	if r := t.limits().Run(PhaseSynthesis, func() { pa, err = abstractPredicates(t) }); r != "" {
		p.check = (&Check{Search: p.name()}).stop(PhaseSynthesis, r)
		return nil
	}
	if u, ok := err.(*c2bp.UnsupportedError); ok {
		var each []string
		for _, e := range u.List {
			each = append(each, e.Error())
		}
		why := "the predicate abstraction cannot translate the model soundly: " + strings.Join(each, "; ")
		p.check = &Check{Search: p.name(), Reason: why, RestsOn: RestsOn{{Bounded, "no search: " + why}}}
		return nil
	}
	if err != nil {
		return err
	}
	p.am, err = pa.compile(t)
	return err
}

// searchPredicateSafety checks safety (without deadlocks) and the
// invariants invs on the abstract model of am, and confirms a violation
// on the concrete model.
func searchPredicateSafety(t *Task, am *abstractModel, props []*Property, invs []*types.Property) (*Check, error) {
	absSM, concSM, err := am.safetyModels(invs)
	if err != nil {
		return nil, err
	}
	cfg := t.Search
	cfg.NoDeadlock = true
	res, engine, err := searchAbstractPredicates(t, am, absSM, invs, cfg)
	if err != nil {
		return nil, err
	}
	c := &Check{
		Properties: props, Search: cfg.Strategy.String(),
		RestsOn:     append(RestsOn{am.basis("")}, restsOnSearch(cfg, res)...),
		Abstraction: &AbstractionInfo{AbstractVerdict: res.Verdict},
		Predicates:  am.pred.info(engine),
	}
	c.fromAbstractSearch(am, res)
	if engine.Name == bebopEngine {
		c.Search = bebopEngine
	}
	if res.Violation == nil {
		if res.Verdict == search.Pass {
			c.Reason = "no violation: every reachable state of the abstract model was explored; proven " + am.using() + "; deadlocks not checked"
			if engine.Name == bebopEngine {
				c.Reason = res.Reason + "; proven " + am.using() + "; deadlocks not checked"
			}
		}
		c.Unreached = am.unreached(res)
		return c, nil
	}
	c.Abstraction.FoundBy = "search"
	if engine.Name == bebopEngine {
		c.Abstraction.FoundBy = bebopEngine
	}
	if _, err := c.abstractTrail(am, absSM, res); err != nil {
		return nil, err
	}
	sc, steps, err := am.pred.schedule(am, absSM, res)
	if err != nil {
		return nil, errorf("birch: internal error: %v", err)
	}
	if d := t.Predicates.decide; d != nil && !d(am, sc, steps) {
		v, av := *c.Abstraction.AbstractViolation, *res.Violation
		av.Kind, av.Msg = am.violationOf(av.Kind, av.Msg, av.Groups, av.Pos)
		c.Violation = &v
		c.attribute(&av)
		c.Explored = false
		c.Reason = "the abstract model has a violation (" + v.Kind + ") that is not confirmed on the concrete model"
		return c, nil
	}
	return c, confirmSchedule(t, am, c, sc, steps, *res.Violation, concSM, invs, t.Predicates.Solver, am.pred.unbounded)
}

// confirmSchedule is the confirmation step of a predicate abstraction
// (c2bp's or the on-the-fly one): the schedule sc of the abstract
// violation av is replayed on the concrete model am.concM (concSM: with
// the invariants invs), whose unbounded choices, when it has them
// (unbounded), the symbolic replay solves for; c is filled from the
// replay: confirmed, with the concrete trail and the input values found,
// or not, with the step where the two part ways (steps[i] is the step of
// the abstract trail of the schedule's step i; nil: the same). A limit
// that stops the replay marks c stopped.
func confirmSchedule(t *Task, am *abstractModel, c *Check, sc feasible.Schedule, steps []int, av search.Violation, concSM search.Model, invs []*types.Property, solver string, unbounded bool) error {
	if am.pred != nil {
		sc, steps = joinInvisible(am, sc, steps) // c2bp drops invisible
	}
	rcfg := feasible.Config{Checked: concSM, Solver: solver, AnyError: true}
	for _, inv := range invs {
		rcfg.Invariants = append(rcfg.Invariants, inv.Decl.Expr)
	}
	var given *givenModel
	if unbounded {
		given = &givenModel{t: t, in: am.conc, invs: invs}
		rcfg.Given = given.compile
	}
	fr, stopped, err := replayOn(t, am.concM, sc, rcfg)
	if err != nil || stopped != "" {
		c.stopIf(PhaseReplay, stopped)
		return err
	}
	if d := fr.Diverge; d != nil && steps != nil && d.Step >= 1 && d.Step <= len(steps) {
		// name the step of the abstract trail the report shows
		dd := *d
		dd.Step = steps[d.Step-1] + 1
		fr.Diverge = &dd
	}
	av.Kind, av.Msg = am.violationOf(av.Kind, av.Msg, av.Groups, av.Pos)
	if fr.Confirmed && given != nil && given.m != nil {
		// the trail replays on the model given the values found
		x := *am
		x.concM, concSM = given.m, given.sm
		am = &x
	}
	if err := am.confirm(c, concSM, &av, fr); err != nil {
		return err
	}
	if v := c.Violation; fr.Confirmed && v != nil {
		v.Inputs = choiceInputs(am.conc, fr.Choices)
		if given != nil {
			v.ChoiceValues = given.values
		}
	}
	return nil
}

// givenModel compiles the concrete model with the values the symbolic
// replay found for its unbounded choices (feasible.Config.Given).
type givenModel struct {
	t      *Task
	in     *Input
	invs   []*types.Property
	values []int64
	m      *model.Model
	sm     search.Model
}

func (g *givenModel) compile(values []int64) (*model.Model, search.Model, error) {
	mo := g.t.Model
	mo.ChoiceValues = append([]int64{}, values...)
	m, err := model.New(g.in.Prog, mo)
	if err != nil {
		return nil, nil, err
	}
	sm, err := safetyModel(m, g.invs)
	if err != nil {
		return nil, nil, err
	}
	g.values, g.m, g.sm = mo.ChoiceValues, m, sm
	return m, sm, nil
}

// InputValue is the value a choice takes in a confirmed trail that a
// solver found.
type InputValue struct {
	Step   int    // the 1-based step of the trail
	Pos    string // the choice action
	Action string // as written: x := externChoose(int)
	Value  int64
}

// what names the abstraction in bases and reasons.
func (pa *predAbstraction) what() string {
	n := len(pa.out.Predicates)
	return fmt.Sprintf("predicate abstraction (%d %s of %s)", n, plural(n, "predicate", "predicates"), pa.file.Name)
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
