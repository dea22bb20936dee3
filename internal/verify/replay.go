package verify

import (
	"fmt"
	"math/rand/v2"
	"strings"

	"birch/internal/bir/types"
	"birch/internal/ltl"
	"birch/internal/model"
	"birch/internal/search"
)

// The replay of a saved trail (birch replay) and the random simulation
// (birch simulate): executions of the model step by step, in the terms
// of the user's model.

// SavedTrail is a trail that a check saved (--trail): the ordinals of its
// steps and what the check recorded of them.
type SavedTrail struct {
	Ordinals []int
	// Recorded: the steps as the check described them (only Thread, From
	// and To are compared); nil when the trail has none.
	Recorded []Step
	// Violation: the kind of the violation the trail ends in ("" for none);
	// Message: its message, as recorded ("" if unknown).
	Violation, Message string
	// CycleStart: for a lasso (an ltl violation), the number of steps
	// before its cycle; nil for none. Stutter: the lasso ends by repeating
	// its last state.
	CycleStart *int
	Stutter    bool
}

// ReplayEnd is how a replayed trail ends.
type ReplayEnd int

// The ends of a replay.
const (
	// ReplayNoViolation: the steps end without a violation.
	ReplayNoViolation ReplayEnd = iota
	// ReplayMismatch: the trail does not fit the model (Replay.Mismatch).
	ReplayMismatch
	// ReplayInitial: the initial state cannot be created, the violation
	// the trail records (it has no steps).
	ReplayInitial
	// ReplayStep: the last step fails (an error, or a bound).
	ReplayStep
	// ReplayDeadlock: no thread can move in the last state.
	ReplayDeadlock
	// ReplayInvariant: an invariant is false, or cannot be evaluated (a
	// runtime error), in the last state.
	ReplayInvariant
	// ReplayStutter: an ltl lasso that repeats its last state forever.
	ReplayStutter
	// ReplayLasso: an ltl lasso whose cycle returns to the state it
	// starts from.
	ReplayLasso
	// ReplayProposition: a proposition of an ltl property of the model
	// cannot be evaluated in the last state (a runtime error).
	ReplayProposition
)

// ReplayedStep is one step of a replay: the step in user terms, its
// println output, and the state it leads to (nil for a failing step).
type ReplayedStep struct {
	Step
	Output string
	State  []model.Var
}

// Replay is a trail re-executed on a model.
type Replay struct {
	// Initial is the initial state (nil when the replay did not get to
	// it).
	Initial []model.Var
	// Steps are the steps replayed, up to the violation or the first
	// step that does not fit.
	Steps []ReplayedStep
	End   ReplayEnd
	// Violation: for the ends with a violation, the violation (Kind and
	// Message; Threads for a deadlock; Lasso for an ltl lasso).
	Violation *Violation
	// Mismatch: why the trail does not fit the model (End is
	// ReplayMismatch), for instance "the trail does not fit the model:
	// step 2: the state has no outcome number 5".
	Mismatch string
}

// Verdict is fail for a trail that ends in the violation it records,
// pass for one that replays without one; a trail that does not fit the
// model has no verdict (inconclusive: its caller reports bad input).
func (r *Replay) Verdict() Verdict {
	switch r.End {
	case ReplayNoViolation:
		return Pass
	case ReplayMismatch:
		return Inconclusive
	}
	return Fail
}

// ReplayTrail re-executes tr on m, compiled from in (with the options the
// check that saved it had): it follows the ordinals step by step,
// compares each step with the one recorded, and checks that the trail
// ends in the violation it records.
func ReplayTrail(in *Input, m *model.Model, tr *SavedTrail) *Replay {
	r := &Replay{}
	notFit := func(format string, args ...any) *Replay {
		r.End, r.Mismatch = ReplayMismatch, "the trail does not fit the model: "+fmt.Sprintf(format, args...)
		return r
	}
	if len(tr.Recorded) > 0 && len(tr.Recorded) != len(tr.Ordinals) {
		return notFit("it has %d ordinals but %d recorded steps", len(tr.Ordinals), len(tr.Recorded))
	}
	init, fail := m.Initial(nil)
	if fail != nil {
		if len(tr.Ordinals) == 0 && tr.Violation == failKind(fail) {
			r.End, r.Violation = ReplayInitial, &Violation{Kind: failKind(fail), Message: fail.Msg}
			return r
		}
		r.End, r.Mismatch = ReplayMismatch, "the initial state cannot be created: "+fail.Msg
		return r
	}
	r.Initial = m.Describe(init)
	cur := init
	states := [][]byte{init} // states[i]: the state before step i+1
	for i, ord := range tr.Ordinals {
		var out strings.Builder
		st := m.Print(cur, ord, &out)
		if st == nil {
			return notFit("step %d: the state has no outcome number %d", i+1, ord)
		}
		d := describeStep(in, m, cur, st)
		d.N = i + 1
		if i < len(tr.Recorded) {
			if rec := tr.Recorded[i]; rec.Thread != d.Thread || rec.From != d.From || rec.To != d.To {
				why := ""
				if st.Outcome != model.OK {
					why = " (" + st.Msg + ")"
				}
				return notFit("step %d: the trail has %s %s -> %s, the model gives %s %s -> %s%s",
					i+1, rec.Thread, rec.From, rec.To, d.Thread, d.From, d.To, why)
			}
		}
		rs := ReplayedStep{Step: d, Output: out.String()}
		if st.Outcome != model.OK {
			r.Steps = append(r.Steps, rs)
			if i != len(tr.Ordinals)-1 {
				return notFit("step %d ends in %s, but the trail goes on", i+1, failKind(st))
			}
			if tr.Violation != "" && tr.Violation != failKind(st) {
				return notFit("it ends in %s, but records %s", failKind(st), tr.Violation)
			}
			r.End, r.Violation = ReplayStep, &Violation{Kind: failKind(st), Message: st.Msg, Pos: d.Pos}
			return r
		}
		rs.State = m.Describe(st.State)
		r.Steps = append(r.Steps, rs)
		cur = st.State
		states = append(states, cur)
	}
	switch tr.Violation {
	case "":
		return r
	case model.Deadlock.String():
		n, allDone := m.Next(cur, func(*model.Step) {})
		if n != 0 || allDone {
			return notFit("it records a deadlock, but its last state has successors")
		}
		v := &Violation{Kind: model.Deadlock.String(), Message: "no thread can move", Threads: threadStates(m, cur)}
		r.End, r.Violation = ReplayDeadlock, v
		return r
	case model.InvariantViolated.String():
		if v := invariantFails(in, m, cur); v != nil && v.Kind == tr.Violation {
			r.End, r.Violation = ReplayInvariant, v
			return r
		}
		return notFit("it records a false invariant, but every invariant holds in its last state")
	case model.LTLViolated.String():
		if tr.CycleStart == nil {
			break
		}
		cs := *tr.CycleStart
		if cs < 0 || cs > len(tr.Ordinals) {
			return notFit("its cycle starts at step %d of %d", cs, len(tr.Ordinals))
		}
		v := &Violation{Kind: model.LTLViolated.String(), Lasso: &Lasso{CycleStart: cs, Stutter: tr.Stutter}}
		if tr.Stutter {
			if n, _ := m.Next(cur, func(*model.Step) {}); n != 0 {
				return notFit("it ends by repeating its last state, but that state has successors")
			}
			r.End, r.Violation = ReplayStutter, v
			return r
		}
		if cs == len(tr.Ordinals) || string(states[cs]) != string(cur) {
			return notFit("its cycle (from step %d) does not return to the state it starts from", cs+1)
		}
		r.End, r.Violation = ReplayLasso, v
		return r
	}
	// a runtime error in evaluating an invariant or a proposition of an
	// ltl property in the last state (the check stopped there)
	inv, prop := invariantFails(in, m, cur), propositionFails(in, m, cur)
	if prop != nil && prop.Kind == tr.Violation && (strings.HasPrefix(tr.Message, "in proposition ") || inv == nil || inv.Kind != tr.Violation) {
		r.End, r.Violation = ReplayProposition, prop
		return r
	}
	if inv != nil && inv.Kind == tr.Violation {
		r.End, r.Violation = ReplayInvariant, inv
		return r
	}
	return notFit("it records a violation (%s), but its steps end without one", tr.Violation)
}

// invariantFails is the violation of the first invariant of in that is
// false, or cannot be evaluated, in state; nil when they all hold.
func invariantFails(in *Input, m *model.Model, state []byte) *Violation {
	var invs []*types.Property
	for _, p := range in.Prog.Properties {
		if !p.LTL {
			invs = append(invs, p)
		}
	}
	checker, err := search.NewInvariants(m, invs)
	if err != nil || checker == nil {
		return nil
	}
	v := &model.Step{}
	if checker.Check(state, v) {
		return nil
	}
	return &Violation{Kind: v.Kind.String(), Message: v.Msg, Pos: PosString(in.Fset, v.Pos)}
}

// propositionFails is the runtime error of the first proposition of an
// ltl property of in that cannot be evaluated in state, or nil.
func propositionFails(in *Input, m *model.Model, state []byte) *Violation {
	for _, p := range in.Prog.Properties {
		if !p.LTL {
			continue
		}
		spec, err := ltl.FromExpr(in.Fset, p.Decl.Expr)
		if err != nil {
			continue
		}
		ev, err := m.NewEvaluator(propExprs(spec))
		if err != nil {
			continue
		}
		if _, failed, cerr := ev.Mask(state); cerr != nil {
			return &Violation{Kind: cerr.Kind.String(), Message: "in proposition " + spec.Props[failed].Text + ": " + cerr.Msg,
				Pos: PosString(in.Fset, cerr.Pos)}
		}
	}
	return nil
}

// describeStep is the step st of m from state, in user terms.
func describeStep(in *Input, m *model.Model, state []byte, st *model.Step) Step {
	ts := search.TrailStep{Step: *st, Before: state, After: st.State}
	if st.Outcome != model.OK {
		ts.After = nil
	}
	return DescribeTrail(m, in.Fset, []search.TrailStep{ts})[0]
}

// failKind names the violation kind of an Error or Limit outcome.
func failKind(st *model.Step) string {
	if st.Outcome == model.Limit {
		return model.LimitReached.String()
	}
	return st.Kind.String()
}

// SimulationEnd is how a simulation ends.
type SimulationEnd int

// The ends of a simulation.
const (
	// SimulationStepLimit: it took the steps it was given.
	SimulationStepLimit SimulationEnd = iota
	// SimulationTerminated: every thread terminated.
	SimulationTerminated
	// SimulationInitial: the initial state cannot be created.
	SimulationInitial
	// SimulationDeadlock: no thread can move.
	SimulationDeadlock
	// SimulationError: a step failed (an assertion, a runtime error).
	SimulationError
	// SimulationBound: a step hit a bound of the model (a full
	// collection, too many threads, ...).
	SimulationBound
)

// Simulation is the end of a random execution.
type Simulation struct {
	// Steps is the number of steps taken (the failing one included).
	Steps int
	End   SimulationEnd
	// Violation: for the initial state, a deadlock (Threads) and a failed
	// step (Pos), the violation.
	Violation *Violation
	// Bound: the bound a step hit.
	Bound *Limit
}

// Verdict is fail for an execution that ends in a violation, inconclusive
// for one cut by a bound of the model, pass otherwise.
func (s *Simulation) Verdict() Verdict {
	switch s.End {
	case SimulationInitial, SimulationDeadlock, SimulationError:
		return Fail
	case SimulationBound:
		return Inconclusive
	}
	return Pass
}

// SimulationConfig configures a simulation.
type SimulationConfig struct {
	Seed     uint64
	MaxSteps int
	// Each, when not nil, receives each step as it is taken, with its
	// println output; the step is in user terms only when Describe is
	// set (else only its N is).
	Each     func(st *Step, output string)
	Describe bool
}

// Simulate runs one random execution of m, compiled from in: at each step
// it picks one of the enabled outcomes uniformly at random (the same seed
// gives the same execution), until MaxSteps steps, the end of every
// thread, a deadlock, a violation or a bound.
func Simulate(in *Input, m *model.Model, cfg SimulationConfig) *Simulation {
	rng := rand.New(rand.NewPCG(cfg.Seed, cfg.Seed^0x9e3779b97f4a7c15))
	cur, fail := m.Initial(nil)
	if fail != nil {
		return &Simulation{End: SimulationInitial, Violation: &Violation{Kind: fail.Kind.String(), Message: fail.Msg}}
	}
	for i := 0; i < cfg.MaxSteps; i++ {
		n, allDone := m.Next(cur, func(*model.Step) {})
		if n == 0 {
			if allDone {
				return &Simulation{Steps: i, End: SimulationTerminated}
			}
			v := &Violation{Kind: model.Deadlock.String(), Message: "no thread can move", Threads: threadStates(m, cur)}
			return &Simulation{Steps: i, End: SimulationDeadlock, Violation: v}
		}
		var out strings.Builder
		st := m.Print(cur, rng.IntN(n), &out)
		if cfg.Each != nil {
			d := Step{N: i + 1}
			if cfg.Describe {
				d = describeStep(in, m, cur, st)
				d.N = i + 1
			}
			cfg.Each(&d, out.String())
		}
		switch st.Outcome {
		case model.Error:
			return &Simulation{Steps: i + 1, End: SimulationError,
				Violation: &Violation{Kind: st.Kind.String(), Message: st.Msg, Pos: PosString(in.Fset, st.Pos)}}
		case model.Limit:
			return &Simulation{Steps: i + 1, End: SimulationBound, Bound: &Limit{Message: st.Msg, Pos: PosString(in.Fset, st.Pos)}}
		}
		cur = st.State
	}
	return &Simulation{Steps: cfg.MaxSteps, End: SimulationStepLimit}
}
