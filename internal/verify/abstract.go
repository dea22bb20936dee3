package verify

import (
	"strconv"
	"strings"

	"birch/internal/abstraction/data"
	"birch/internal/abstraction/data/feasible"
	"birch/internal/bir/ast"
	"birch/internal/bir/types"
	"birch/internal/model"
	"birch/internal/search"
	"birch/internal/smt/solvers"
	"birch/internal/source"
)

// The check with data abstraction (docs/abstraction.md, "Checking with
// abstraction") composes three steps: the abstraction synthesis builds the
// abstract model (abstract_model.go); the explicit step searches it, and
// searches it again choose-free when it has a violation; the confirmation
// step replays the abstract trail on the concrete model (feasible.Replay),
// which confirms it or names the first step where the two part ways.

// abstractTechnique checks the plan's properties with data abstraction:
// one check for safety (with the invariants) and one per ltl property, as
// without abstraction.
type abstractTechnique struct{ cache *abstractCache }

// newAbstractTechnique checks the options of t's abstraction.
func newAbstractTechnique(t *Task) (*abstractTechnique, error) {
	da := *t.Abstraction
	if da.Solver == "" {
		da.Solver = solvers.Default
	}
	if !solvers.Available(da.Solver) {
		return nil, usagef("solver %s is not available (want %s)", da.Solver, strings.Join(solvers.Names, ", "))
	}
	switch da.Default {
	case "":
		da.Default = "concrete"
	case "concrete", "point":
	default:
		return nil, usagef("bad --default %s (want concrete or point)", strconv.Quote(source.Excerpt(da.Default)))
	}
	t.Abstraction = &da
	return &abstractTechnique{cache: &abstractCache{t: t}}, nil
}

func (a *abstractTechnique) name() string { return a.cache.t.Search.Strategy.String() }

func (a *abstractTechnique) safetyProperties(invs []*types.Property) []*Property {
	return abstractSafetyProperties(invs, a.cache.t.Search.NoDeadlock)
}

func (a *abstractTechnique) safety(t *Task, props []*Property, invs []*types.Property) (*Check, error) {
	am, stop, err := a.cache.get(t.Input, false)
	if err != nil {
		return nil, err
	}
	if stop != nil {
		return (&Check{Properties: props, Search: a.name()}).stop(stop.Phase, stop.Reason), nil
	}
	if u := a.unboundedLeft(am); u != nil {
		return u.check(props), nil
	}
	return searchAbstractSafety(t, am, invs)
}

// unboundedLeft is the stop of a check whose abstract model still has
// unbounded choices (of values no abstraction stands for), which explicit
// search cannot enumerate; nil when it has none. The concrete model's
// unbounded choices into abstracted variables are choices among tokens in
// the abstract model (Run does not stop for them).
func (a *abstractTechnique) unboundedLeft(am *abstractModel) *unboundedTechnique {
	if len(am.left) == 0 {
		return nil
	}
	max := a.cache.t.Model.MaxChoiceRange
	if max <= 0 {
		max = 1 << 20
	}
	return &unboundedTechnique{inner: a, err: &model.UnboundedChoiceError{Choices: am.left, Max: max}}
}

func (a *abstractTechnique) ltl(t *Task, p *ltlProperty) (*Check, error) {
	if am, stop, err := a.cache.get(p.in, false); err == nil && stop == nil {
		if u := a.unboundedLeft(am); u != nil {
			return u.check([]*Property{p.Property}), nil
		}
	}
	return checkAbstractLTL(t, a.cache, p)
}

// abstractCache synthesizes the abstract model of each input a run needs
// once, within the limits.
type abstractCache struct {
	t        *Task
	bindings *Bindings
	models   map[modelKey]*abstractModel
}

// get returns the abstract model of in (compiled with invisible runs
// exposed when expose is set), or the limit that stopped its synthesis.
func (ac *abstractCache) get(in *Input, expose bool) (*abstractModel, *Stop, error) {
	k := modelKey{in, expose}
	if am := ac.models[k]; am != nil {
		return am, nil, nil
	}
	t, lim := ac.t, ac.t.limits()
	var am *abstractModel
	var err error
	if expose {
		base, stop, err := ac.get(in, false)
		if stop != nil || err != nil {
			return nil, stop, err
		}
		if r := lim.Run(PhaseModel, func() { am, err = base.exposed(t.Model) }); r != "" {
			return nil, &Stop{PhaseModel, r}, nil
		}
	} else {
		b := ac.bindings
		if r := lim.Run(PhaseSynthesis, func() {
			if b == nil {
				dcfg := data.Config{Solver: t.Abstraction.Solver, Context: lim.Ctx}
				if b, err = ReadBindings(t.Abstraction, nil, dcfg, t.Abstraction.ReadFile, t.warnAt); err != nil {
					return
				}
			}
			am, err = synthesize(t, in, b, t.Model)
		}); r != "" {
			return nil, &Stop{PhaseSynthesis, r}, nil
		}
		ac.bindings = b
	}
	if err != nil {
		return nil, nil, err
	}
	if ac.models == nil {
		ac.models = map[modelKey]*abstractModel{}
	}
	ac.models[k] = am
	return am, nil, nil
}

// searchAbstract is the explicit step on the abstract model: run (a
// search of it) with cfg, and when that finds a violation, with the
// choose-free search, whose trails take no choice of the abstraction
// (chooseFree is nil when it finds none).
func searchAbstract(t *Task, run func(cfg search.Config) *search.Result, cfg search.Config) (res, chooseFree *search.Result) {
	release := t.limits().StartSearch()
	defer release()
	res = run(cfg)
	switch {
	case res.Violation != nil && cfg.ChooseFree:
		chooseFree = res
	case res.Violation != nil:
		cf := cfg
		cf.ChooseFree = true
		if chooseFree = run(cf); chooseFree.Violation == nil {
			chooseFree = nil
		}
	}
	return res, chooseFree
}

// abstractProperties are the abstract model's versions of the invariants
// invs of the concrete model.
func (am *abstractModel) abstractProperties(invs []*types.Property) []*types.Property {
	var out []*types.Property
	for _, p := range invs {
		for _, q := range am.abs.Prog.Properties {
			if !q.LTL && q.Name() == p.Name() {
				out = append(out, q)
			}
		}
	}
	return out
}

// safetyModels are the abstract and the concrete model with the
// invariants invs checked in every state (the abstract model with its
// versions of them).
func (am *abstractModel) safetyModels(invs []*types.Property) (abs, conc search.Model, err error) {
	if abs, err = safetyModel(am.absM, am.abstractProperties(invs)); err != nil {
		return nil, nil, err
	}
	conc, err = safetyModel(am.concM, invs)
	return abs, conc, err
}

// searchAbstractSafety checks safety and the invariants invs with the
// abstraction: the abstract model is searched, and a violation is replayed
// on the concrete model.
func searchAbstractSafety(t *Task, am *abstractModel, invs []*types.Property) (*Check, error) {
	absSM, concSM, err := am.safetyModels(invs)
	if err != nil {
		return nil, err
	}
	cfg := t.Search
	res, cfRes := searchAbstract(t, func(cfg search.Config) *search.Result { return search.Run(absSM, cfg) }, cfg)
	pass := "; deadlock freedom is not preserved"
	if cfg.NoDeadlock {
		pass = ""
	}
	c := &Check{
		Properties: abstractSafetyProperties(invs, cfg.NoDeadlock), Search: cfg.Strategy.String(),
		RestsOn:     append(RestsOn{am.basis(pass)}, restsOnSearch(cfg, res)...),
		Abstraction: am.info(res.Verdict),
	}
	if res.Violation == nil {
		c.fromAbstractSearch(am, res)
		if res.Verdict == search.Pass {
			c.Reason = "no violation: every reachable state of the abstract model was explored; proven " + am.using()
			if !cfg.NoDeadlock {
				// an abstract state may have a transformation that only may
				// be enabled where the concrete states it stands for have
				// none: over-approximation does not preserve deadlocks
				c.Reason += "; deadlock freedom is not preserved by abstraction (not proven)"
			}
			var exprs []ast.Expr
			for _, p := range invs {
				exprs = append(exprs, p.Decl.Expr)
			}
			if pos := am.unraisedDivision(exprs...); pos != "" {
				am.notProven(c, pos)
			}
		}
		am.qualifyWraps(c, res.Verdict == search.Pass && c.Explored)
		c.Unreached = am.unreached(res)
		return c, nil
	}
	absRes := c.foundBy(res, cfRes)
	c.fromAbstractSearch(am, absRes)
	if _, err := c.abstractTrail(am, absSM, absRes); err != nil {
		return nil, err
	}
	sc, err := feasible.FromTrail(absSM, am.absM, absRes.Trail, absRes.Violation.Kind == model.Deadlock, am.mapGroup)
	if err != nil {
		return nil, errorf("birch: internal error: %v", err)
	}
	rcfg := feasible.Config{Checked: concSM, AnyError: true}
	var given *givenModel
	if am.unbounded {
		// the symbolic replay solves for the unbounded choices
		given = &givenModel{t: t, in: am.conc, invs: invs}
		rcfg.Given = given.compile
		for _, inv := range invs {
			rcfg.Invariants = append(rcfg.Invariants, inv.Decl.Expr)
		}
	}
	fr, stopped, err := am.replay(t, sc, rcfg)
	if err != nil || stopped != "" {
		return c.stopIf(PhaseReplay, stopped), err
	}
	if given == nil {
		return c, am.confirm(c, concSM, absRes.Violation, fr)
	}
	if fr.Confirmed && given.m != nil {
		// the trail replays on the model given the values found
		x := *am
		x.concM, concSM = given.m, given.sm
		am = &x
	}
	if err := am.confirm(c, concSM, absRes.Violation, fr); err != nil {
		return c, err
	}
	if v := c.Violation; fr.Confirmed && v != nil {
		v.Inputs = choiceInputs(am.conc, fr.Choices)
		v.ChoiceValues = given.values
	}
	return c, nil
}

// fromAbstractSearch fills c from the search of the abstract model that
// decides it: its reason (with the abstraction named), statistics and
// bounds.
func (c *Check) fromAbstractSearch(am *abstractModel, res *search.Result) {
	// a search complete within the bounds of the model explored every
	// state it was to explore; the bounds it hit are in RestsOn
	c.Explored = res.Complete && res.Violation == nil && res.Stopped == ""
	c.Reason = res.Reason + " (abstract model, " + am.using() + ")"
	c.Stats = res.Stats
	c.LimitsHit = am.limits(res.LimitsHit)
}

// foundBy picks the abstract search whose trail is replayed: the
// choose-free one when it found a violation.
func (c *Check) foundBy(res, chooseFree *search.Result) *search.Result {
	if chooseFree != nil {
		c.Abstraction.FoundBy = "choose-free"
		return chooseFree
	}
	c.Abstraction.FoundBy = "search"
	return res
}

// abstractTrail describes the abstract trail of res (a trail of sm) and
// its violation in the terms of the concrete model; final is the state
// the trail ends in.
func (c *Check) abstractTrail(am *abstractModel, sm search.Model, res *search.Result) (final []byte, err error) {
	final, _, err = c.abstractTrailSteps(am, sm, res)
	return final, err
}

// abstractTrailSteps is abstractTrail that also gives the replayed steps.
func (c *Check) abstractTrailSteps(am *abstractModel, sm search.Model, res *search.Result) (final []byte, steps []search.TrailStep, err error) {
	init, steps, err := search.Replay(sm, res.Trail)
	if err != nil {
		return nil, nil, errorf("birch: internal error: the abstract trail does not replay: %v", err)
	}
	final = search.Final(init, steps)
	c.Abstraction.AbstractTrail = am.describeAbstract(steps)
	c.Abstraction.AbstractViolation = am.abstractViolation(res.Violation, final)
	return final, steps, nil
}

// stopIf marks c as stopped by a limit in phase when stopped (the
// limit's reason) is not "".
func (c *Check) stopIf(phase, stopped string) *Check {
	if stopped != "" {
		c.stop(phase, stopped)
	}
	return c
}

// replay is the confirmation step: it replays the schedule of an abstract
// trail on the concrete model within the limits; stopped is the reason
// when a limit stopped it.
func (am *abstractModel) replay(t *Task, sc feasible.Schedule, cfg feasible.Config) (fr *feasible.Result, stopped string, err error) {
	cfg.MaxNodes, cfg.Solver, cfg.Agree = t.Abstraction.MaxReplay, t.Abstraction.Solver, am.agree
	return replayOn(t, am.concM, sc, cfg)
}

// replayOn replays sc on the concrete model m with cfg within the limits;
// stopped is the reason when a limit stopped it.
func replayOn(t *Task, m *model.Model, sc feasible.Schedule, cfg feasible.Config) (fr *feasible.Result, stopped string, err error) {
	lim := t.limits()
	cfg.Context = lim.Ctx
	stopped = lim.Run(PhaseReplay, func() { fr, err = feasible.Replay(m, sc, cfg) })
	if err != nil {
		err = errorf("birch: internal error: %v", err)
	}
	return fr, stopped, err
}

// divergence is a step where the abstract and concrete trails part ways,
// in user terms.
func (am *abstractModel) divergence(d *feasible.Divergence) *Divergence {
	if d == nil {
		return nil
	}
	return &Divergence{Step: d.Step, Thread: d.Thread, Location: d.Location, Pos: PosString(am.conc.Fset, d.Pos), Reason: am.concreteWords(d.Reason)}
}

// concreteWords words a text of the confirmation for the check: the
// on-the-fly abstraction's abstract model is the instrumented model and its
// concrete model the model as written.
func (am *abstractModel) concreteWords(s string) string {
	if am.onTheFly == "" {
		return s
	}
	s = strings.ReplaceAll(s, "the abstract model", "the instrumented model")
	return strings.ReplaceAll(s, "the concrete model", "the model as written")
}

// replayed records the replay fr of c's abstract trail in c's details.
func (am *abstractModel) replayed(c *Check, fr *feasible.Result) *AbstractionInfo {
	info := c.Abstraction
	info.Replay = fr.Method
	info.ValuesDiverge = am.divergence(fr.ValuesDiverge)
	if fr.Incomplete {
		info.ReplayNote = am.concreteWords(fr.Note)
	}
	c.Explored = false
	return info
}

// confirm fills c from the replay fr of its abstract trail (whose
// violation is av) on the concrete model (concSM: with the invariants):
// confirmed, with the concrete violation and trail, or not.
func (am *abstractModel) confirm(c *Check, concSM search.Model, av *search.Violation, fr *feasible.Result) error {
	info := am.replayed(c, fr)
	if fr.Confirmed {
		init, ts, err := search.Replay(concSM, fr.Trail)
		if err != nil {
			return errorf("birch: internal error: the confirmed trail does not replay: %v", err)
		}
		cv := concreteViolation(ts)
		if len(ts) == 0 {
			// the initial state violates the property
			if _, fail := concSM.Initial(nil); fail != nil {
				cv = &search.Violation{Kind: fail.Kind, Msg: fail.Msg, Thread: -1, Pos: fail.Pos}
			}
		}
		if concSM != search.Model(am.concM) {
			// the trail in user terms is the model's (as fromSearch): its
			// last step leads into the state that violates an invariant,
			// not to the error state of the invariants' check
			if init, ts, err = search.Replay(am.concM, fr.Trail); err != nil {
				return errorf("birch: internal error: the confirmed trail does not replay: %v", err)
			}
		}
		v := describeViolation(am.conc.Fset, am.concM, cv, search.Final(init, ts))
		v.Trail = DescribeTrail(am.concM, am.conc.Fset, ts)
		v.Ordinals = savable(fr.Trail)
		v.ExposeInvisible = am.concM.Options().ExposeInvisible
		v.Confirmation = Confirmation{Confirmed: true, By: am.concreteWords("replayed on the concrete model (" + fr.Method + " replay)")}
		info.ReplayConfirmed = true
		c.Violation, c.Reason = v, v.Kind+": "+v.Message
		c.attribute(cv)
		return nil
	}
	v := *info.AbstractViolation
	v.Confirmation = Confirmation{Diverges: am.divergence(fr.Diverge)}
	c.Violation = &v
	c.attribute(av)
	if info.FoundBy == "choose-free" && fr.Incomplete && av.Kind != model.InvariantViolated && len(am.wraps()) == 0 {
		// the choose-free trail takes no choice of the abstraction, so
		// every concrete state its last state stands for is reached, and
		// the abstract violation (an assertion certainly false, every
		// guard certainly false) is one of each of them: it stands even
		// though the replay did not finish. Not an invariant's: the
		// under-approximated invariant is false where it is not decided
		// (buffer.bir with signs). Nor where an abstracted value may wrap:
		// the concrete values that follow the trail may have wrapped
		// where the abstract ones did not (abstract_wrap.go)
		v.Confirmation.Confirmed = true
		v.Confirmation.By = "found by the choose-free search of the abstract model, whose steps take no choice of the abstraction; the concrete replay did not finish"
		c.Reason = av.Kind.String() + ": " + v.Message + " (found by the choose-free search of the abstract model; the concrete replay did not finish: " + fr.Note + ")"
		return nil
	}
	c.Reason = am.concreteWords("the abstract model has a violation (" + av.Kind.String() + ") that is not confirmed on the concrete model")
	if fr.Incomplete {
		c.Reason += " (" + am.concreteWords(fr.Note) + ")"
	}
	return nil
}

// concreteViolation is the violation a replayed concrete trail ends in.
func concreteViolation(ts []search.TrailStep) *search.Violation {
	if n := len(ts); n > 0 && ts[n-1].Step.Outcome != model.OK {
		st := ts[n-1].Step
		return &search.Violation{Kind: st.Kind, Msg: st.Msg, Thread: st.Thread, Pos: st.Pos, Groups: st.Groups}
	}
	return &search.Violation{Kind: model.Deadlock, Msg: "no thread can move", Thread: -1}
}
