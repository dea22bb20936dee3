package verify

import "birch/internal/bir/types"

// A technique is one way of checking the searches of a run's plan, as
// CPAchecker's algorithms are: the explicit search of the model as written
// (explicitTechnique), the check with data abstraction and its
// confirmation on the concrete model (abstractTechnique), SPIN as a second
// opinion (spinTechnique). runPlan drives a technique over a plan: one
// check for safety (with the invariants) unless only ltl properties were
// selected, and one per ltl property, each a Check; the checks a limit
// keeps from starting say so.
//
// A new technique (predicate abstraction, abstract matching, ...) is a
// type that implements technique, in a file of its own, that composes the
// steps of its pass and engine packages; Run picks it by a field of the
// Task, which one flag of the command line sets (docs/architecture.md).
type technique interface {
	// name is the Search of the technique's checks (dfs, spin, ...).
	name() string
	// safetyProperties are the properties its safety check decides.
	safetyProperties(invs []*types.Property) []*Property
	// safety checks the assertions, runtime errors and deadlocks, and the
	// invariants invs; props are safetyProperties(invs).
	safety(t *Task, props []*Property, invs []*types.Property) (*Check, error)
	// ltl checks one ltl property.
	ltl(t *Task, p *ltlProperty) (*Check, error)
}

// runPlan checks the searches of pl with tech.
func runPlan(t *Task, pl *plan, tech technique) (*Result, error) {
	lim := t.limits()
	res := &Result{Model: t.Input.Name}
	add := func(props []*Property, check func() (*Check, error)) error {
		if r := lim.Reason(); r != "" {
			// a limit ended the run: the checks left are not started
			res.Checks = append(res.Checks, notStarted(props, tech.name(), r))
			return nil
		}
		c, err := check()
		if err != nil {
			return err
		}
		res.Checks = append(res.Checks, c)
		return nil
	}
	if pl.safety {
		props := tech.safetyProperties(pl.invariants)
		if err := add(props, func() (*Check, error) { return tech.safety(t, props, pl.invariants) }); err != nil {
			return nil, err
		}
	}
	for _, p := range pl.ltl {
		if err := add([]*Property{p.Property}, func() (*Check, error) { return tech.ltl(t, p) }); err != nil {
			return nil, err
		}
	}
	return res, nil
}

// plan plans the run of t: the searches of the properties it selects. A
// limit that stops the planning (which parses the model again with a
// formula of the command line) gives the result to report instead.
func (t *Task) plan(search string) (*plan, *Result, error) {
	var pl *plan
	var err error
	if stopped := t.limits().Run(PhaseModel, func() { pl, err = makePlan(t) }); stopped != "" {
		return nil, Stopped(t.Input.Name, search, PhaseModel, stopped), nil
	}
	return pl, nil, err
}

// runCarrying runs the plan pl with tech, an abstraction that checks only
// the invariants carried reports true of: the others get a check of their
// own that says why they are not checked (why).
func runCarrying(t *Task, pl *plan, tech technique, carried func(*types.Property) bool, why string) (*Result, error) {
	var kept, dropped []*types.Property
	for _, inv := range pl.invariants {
		if carried(inv) {
			kept = append(kept, inv)
		} else {
			dropped = append(dropped, inv)
		}
	}
	q := *pl
	q.invariants = kept
	res, err := runPlan(t, &q, tech)
	if err != nil {
		return nil, err
	}
	if len(dropped) > 0 {
		props := safetyProperties(dropped, true)[1:]
		res.Checks = append(res.Checks, notChecked(tech.name(), props, why))
	}
	return res, nil
}

// notChecked is the check of props that a technique (its search named
// search) cannot decide: inconclusive, never a pass.
func notChecked(search string, props []*Property, why string) *Check {
	c := &Check{Properties: props, Search: search, Reason: "not checked: " + why}
	c.RestsOn = RestsOn{{Bounded, "no search: " + why}}
	return c
}

// noDeadlockProperties are the properties of a safety check that does
// not check deadlocks (why: why not).
func noDeadlockProperties(invs []*types.Property, why string) []*Property {
	ps := safetyProperties(invs, true)
	ps[0].Source = "assertions, runtime errors (deadlocks not checked: " + why + ")"
	ps[0].Title = "safety (assertions, runtime errors; deadlocks not checked)"
	return ps
}

// of is a copy of c, a check that decides every search of a run alike
// (not checked, or stopped), as the check of props.
func (c *Check) of(props []*Property) *Check {
	d := *c
	d.Properties = props
	return &d
}
