package verify

import (
	"birch/internal/model"
	"birch/internal/search"
)

// Run checks a task: every property it selects, one search for safety
// (with the invariants) and one per ltl property, each a Check of the
// Result. An error is bad input (a positioned source.ErrorList where the
// input has positions, a *UsageError for a selection that does not fit
// the model).
func Run(t *Task) (*Result, error) {
	lim := t.limits()
	var pl *plan
	var err error
	if stopped := lim.Run(PhaseModel, func() { pl, err = makePlan(t) }); stopped != "" {
		return stoppedRun(t, nil, PhaseModel, stopped), nil
	}
	if err != nil {
		return nil, err
	}
	if !pl.safety && t.Search.Strategy != search.DFS {
		return nil, usagef("ltl properties are checked by a depth-first search; --search=%s does not apply", t.Search.Strategy)
	}
	if t.Abstraction != nil {
		return runAbstract(t, pl)
	}
	res := &Result{Model: t.Input.Name}
	models := modelCache{t: t}
	if pl.safety {
		m, stopped, err := models.get(t.Input, false)
		if err != nil {
			return nil, err
		}
		var c *Check
		if stopped != "" {
			c = (&Check{Properties: safetyProperties(pl.invariants, t.Search.NoDeadlock), Search: t.Search.Strategy.String()}).stop(PhaseModel, stopped)
		} else if c, err = SearchSafety(t, t.Input, m, pl.invariants); err != nil {
			return nil, err
		}
		res.Checks = append(res.Checks, c)
	}
	for _, p := range pl.ltl {
		if r := lim.Reason(); r != "" {
			// a limit ended the run: the checks left are not started
			res.Checks = append(res.Checks, notStarted([]*Property{p.Property}, "dfs", r))
			continue
		}
		m, stopped, err := models.get(p.in, false)
		if err == nil && stopped == "" && p.spec.Formula.HasNext() && hasInvisible(m) {
			// X counts steps: turn the coarsening of invisible runs off
			m, stopped, err = models.get(p.in, true)
			if err == nil && stopped == "" {
				t.warn(xWarning(p.Title))
			}
		}
		if err != nil {
			return nil, err
		}
		var c *Check
		if stopped != "" {
			c = (&Check{Properties: []*Property{p.Property}, Search: "dfs"}).stop(PhaseModel, stopped)
		} else if c, err = SearchLTL(t, p, m); err != nil {
			return nil, err
		}
		res.Checks = append(res.Checks, c)
	}
	return res, nil
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

// stoppedRun is the result of a run that a limit stopped before it knew
// its properties.
func stoppedRun(t *Task, props []*Property, phase, reason string) *Result {
	c := (&Check{Properties: props, Search: t.Search.Strategy.String()}).stop(phase, reason)
	return &Result{Model: t.Input.Name, Checks: []*Check{c}}
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
