package search

import (
	"fmt"

	"birch/internal/model"
)

// TrailStep is one step of a replayed trail.
type TrailStep struct {
	Step   model.Step // a copy: Groups and State are owned by the TrailStep
	Before []byte     // the state the step starts from
	After  []byte     // the state it leads to (nil for an error or a limit)
}

// Replay re-executes a trail (a list of step ordinals) from the initial
// state. It fails if an ordinal does not name an outcome of its state, or if
// a step other than the last is not a successor state.
func Replay(m Model, trail []int) (initial []byte, steps []TrailStep, err error) {
	init, fail := m.Initial(nil)
	if fail != nil {
		if len(trail) == 0 {
			return nil, nil, nil
		}
		return nil, nil, fmt.Errorf("the initial state cannot be created: %s", fail.Msg)
	}
	cur := init
	for i, ord := range trail {
		var got *model.Step
		m.Next(cur, func(st *model.Step) {
			if st.Ordinal == ord && got == nil {
				c := *st
				c.Groups = append([]int32(nil), st.Groups...)
				c.State = append([]byte(nil), st.State...)
				got = &c
			}
		})
		if got == nil {
			return init, steps, fmt.Errorf("step %d: the state has no outcome number %d", i+1, ord)
		}
		ts := TrailStep{Step: *got, Before: cur}
		if got.Outcome == model.OK {
			ts.After = got.State
			cur = got.State
		} else if i != len(trail)-1 {
			return init, steps, fmt.Errorf("step %d ends in %s, but the trail goes on", i+1, got.Kind)
		}
		steps = append(steps, ts)
	}
	return init, steps, nil
}

// Final returns the state a replayed trail ends in.
func Final(initial []byte, steps []TrailStep) []byte {
	if n := len(steps); n > 0 {
		if steps[n-1].After != nil {
			return steps[n-1].After
		}
		return steps[n-1].Before
	}
	return initial
}
