package verify

import (
	"birch/internal/bir/types"
	"birch/internal/model"
)

// unboundedTechnique stands in for a technique when the model has choices
// of the type form among more values than explicit search enumerates
// (model.UnboundedChoices: `x := externChoose(int);`, say): every check of
// the plan is inconclusive at once, before any search, naming the first
// such choice and the options that can check the model. The check rests
// on no search at all; it says so.
//
// The check is static: it sits here, before model construction, because
// the type of a choice is known without running the model, and an
// enumeration of 2^64 values must never start. A choice that is not
// reachable makes the check inconclusive too, as SPIN refuses a model it
// cannot represent whatever its reachable states.
type unboundedTechnique struct {
	inner technique
	err   *model.UnboundedChoiceError
}

// unbounded returns tech, or an unboundedTechnique in its place when t's
// model has unbounded choices.
func unbounded(t *Task, tech technique) technique {
	cs := model.UnboundedChoices(t.Input.Prog, t.Model.MaxChoiceRange)
	if cs == nil {
		return tech
	}
	max := t.Model.MaxChoiceRange
	if max <= 0 {
		max = 1 << 20
	}
	return &unboundedTechnique{inner: tech, err: &model.UnboundedChoiceError{Choices: cs, Max: max}}
}

func (u *unboundedTechnique) name() string { return u.inner.name() }

func (u *unboundedTechnique) safetyProperties(invs []*types.Property) []*Property {
	return u.inner.safetyProperties(invs)
}

func (u *unboundedTechnique) safety(t *Task, props []*Property, invs []*types.Property) (*Check, error) {
	return u.check(props), nil
}

func (u *unboundedTechnique) ltl(t *Task, p *ltlProperty) (*Check, error) {
	return u.check([]*Property{p.Property}), nil
}

// check is the inconclusive check of props.
func (u *unboundedTechnique) check(props []*Property) *Check {
	msg := u.err.Error()
	c := &Check{Properties: props, Search: u.name(), Reason: msg}
	c.Stopped = &Stop{Phase: PhaseModel, Reason: msg}
	c.RestsOn = RestsOn{{Bounded, "no search: the model has a choice among more values than explicit search enumerates"}}
	return c
}
