package verify

import (
	"birch/internal/bir/types"
	"birch/internal/model"
	"birch/internal/search"
)

// Run checks a task: every property it selects, one search for safety
// (with the invariants) and one per ltl property, each a Check of the
// Result, with the technique the task asks for (the explicit search of the
// model as written, or the check with data abstraction; RunSpin runs SPIN
// instead). An error is bad input (a positioned source.ErrorList where the
// input has positions, a *UsageError for a selection that does not fit
// the model).
func Run(t *Task) (*Result, error) {
	pl, stopped, err := t.plan(t.Search.Strategy.String())
	if stopped != nil || err != nil {
		return stopped, err
	}
	if !pl.safety && t.Search.Strategy != search.DFS {
		return nil, usagef("ltl properties are checked by a depth-first search; --search=%s does not apply", t.Search.Strategy)
	}
	if t.OnTheFly != nil {
		// no static stop for unbounded choices: the predicates stand for
		// the data they choose
		return runOnTheFly(t, pl)
	}
	if t.AMCS != nil {
		a, err := newAMCSTechnique(t)
		if err != nil {
			return nil, err
		}
		return runPlan(t, pl, unbounded(t, a))
	}
	if t.Cegar != nil {
		return runCegar(t, pl)
	}
	if t.Predicates != nil {
		if t.Abstraction != nil {
			return nil, usagef("give only one of --predicates and --abstract/--abstractions")
		}
		// the abstract model has no unbounded choice: the static stop of
		// unbounded() does not apply
		return runPredicates(t, pl)
	}
	if t.Abstraction != nil {
		a, err := newAbstractTechnique(t)
		if err != nil {
			return nil, err
		}
		// the static stop for unbounded choices applies to the abstract
		// model (abstractTechnique.unboundedLeft): a choice into an
		// abstracted variable is a choice among tokens there
		return runPlan(t, pl, a)
	}
	return runPlan(t, pl, unbounded(t, &explicitTechnique{models: modelCache{t: t}}))
}

// explicitTechnique checks the model as written with the explicit steps:
// SearchSafety, and SearchLTL with invisible runs exposed for a formula
// with X.
type explicitTechnique struct{ models modelCache }

func (e *explicitTechnique) name() string { return e.models.t.Search.Strategy.String() }

func (e *explicitTechnique) safetyProperties(invs []*types.Property) []*Property {
	return safetyProperties(invs, e.models.t.Search.NoDeadlock)
}

func (e *explicitTechnique) safety(t *Task, props []*Property, invs []*types.Property) (*Check, error) {
	m, stopped, err := e.models.get(t.Input, false)
	if err != nil {
		return nil, err
	}
	if stopped != "" {
		return (&Check{Properties: props, Search: e.name()}).stop(PhaseModel, stopped), nil
	}
	return SearchSafety(t, t.Input, m, invs)
}

func (e *explicitTechnique) ltl(t *Task, p *ltlProperty) (*Check, error) {
	m, stopped, err := e.models.get(p.in, false)
	if err == nil && stopped == "" && p.spec.Formula.HasNext() && hasInvisible(m) {
		// X counts steps: turn the coarsening of invisible runs off
		m, stopped, err = e.models.get(p.in, true)
		if err == nil && stopped == "" {
			t.warn(xWarning(p.Title))
		}
	}
	if err != nil {
		return nil, err
	}
	if stopped != "" {
		return (&Check{Properties: []*Property{p.Property}, Search: "dfs"}).stop(PhaseModel, stopped), nil
	}
	return SearchLTL(t, p, m)
}

// Stopped is the result of a run that a limit stopped in phase before it
// knew its properties (while the CLI loaded the input, say).
func Stopped(name, search, phase, reason string) *Result {
	c := (&Check{Search: search}).stop(phase, reason)
	return &Result{Model: name, Checks: []*Check{c}}
}

// notStarted is a check that a limit kept from starting: the run ended
// before it.
func notStarted(props []*Property, search, reason string) *Check {
	c := &Check{Properties: props, Search: search, Limit: reason}
	c.Stopped = &Stop{Reason: reason}
	c.Reason = reason + " before this check started"
	c.RestsOn = RestsOn{{Bounded, c.Reason}}
	return c
}

// modelCache builds each compiled model a run needs once, within the
// limits.
type modelCache struct {
	t      *Task
	models map[modelKey]*model.Model
}

type modelKey struct {
	in     *Input
	expose bool
}

// get compiles in (with invisible runs exposed when expose is set);
// stopped is the reason a limit stopped it.
func (mc *modelCache) get(in *Input, expose bool) (m *model.Model, stopped string, err error) {
	k := modelKey{in, expose}
	if m := mc.models[k]; m != nil {
		return m, "", nil
	}
	mo := mc.t.Model
	mo.ExposeInvisible = expose
	stopped = mc.t.limits().Run(PhaseModel, func() { m, err = model.New(in.Prog, mo) })
	if stopped != "" || err != nil {
		return nil, stopped, err
	}
	if mc.models == nil {
		mc.models = map[modelKey]*model.Model{}
	}
	mc.models[k] = m
	return m, "", nil
}
