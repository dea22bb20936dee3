package feasible

import (
	"context"
	"fmt"
	"math"
	"slices"
	"strings"

	"birch/internal/bir/ast"
	"birch/internal/bir/types"
	"birch/internal/model"
	"birch/internal/search"
	"birch/internal/source"
)

// Step is one step of a schedule: a thread of the concrete model and the
// transformations it takes, in terms of the concrete model.
type Step struct {
	// Thread is the index of the thread in the pool (its tid minus one).
	Thread int
	// Groups are the transformations of the step (one, or several for an
	// invisible run), as indices into the concrete model's Groups.
	Groups []int
	// Abstract, when not nil, is the abstract state the step leads to
	// (the names and values of model.Describe of the abstract model). It
	// is used to explain where values part ways (Config.Agree).
	Abstract map[string]string
}

// EndKind says what a schedule ends in.
type EndKind int

// What a schedule ends in.
const (
	// EndNone: the schedule ends in an ordinary state.
	EndNone EndKind = iota
	// EndError: the last step ends in an error outcome (an assertion, a
	// runtime error, a violated invariant, or a limit).
	EndError
	// EndDeadlock: the schedule ends in a state where no thread can move
	// and some thread has not terminated.
	EndDeadlock
	// EndLasso: the schedule is a lasso of an LTL violation: its steps from
	// End.CycleStart on are a cycle, which the concrete execution must
	// close (the state after the last step is the state after step
	// CycleStart). With CycleStart == len(Steps) the cycle is a stutter:
	// the last state must have no outcome at all (every thread has
	// terminated, or a deadlock). Config.Accept then decides whether the
	// concrete lasso violates the property.
	EndLasso
)

// End is what the abstract trail ends in, which a concrete trail must
// reproduce to confirm it.
type End struct {
	Kind EndKind
	// Error is the violation kind of EndError.
	Error model.ErrorKind
	// Msg is the abstract violation's message, for reports.
	Msg string
	// CycleStart is where the cycle of an EndLasso schedule starts (an
	// index into Steps; len(Steps) for a stutter).
	CycleStart int
}

// Schedule is the sequence of steps of an abstract trail and what it ends
// in. For EndError the last step is the failing one.
type Schedule struct {
	Steps []Step
	End   End
}

// Config configures Replay; its zero value works.
type Config struct {
	// Checked, when set, is the concrete model wrapped with the state
	// checks of the check (its invariants, search.WithStateCheck); Replay
	// explores it instead of the bare model, so that a violated invariant
	// is an error outcome of the step into the violating state.
	Checked search.Model
	// MaxNodes bounds the number of (state, step) pairs the concrete
	// replay explores; 0 means 100000.
	MaxNodes int
	// Solver names the decision procedure of the symbolic replay
	// (smt/solvers); "" is the embedded solver.
	Solver string
	// Context, when not nil, stops the replay's queries once it is done
	// (they answer unknown; z3 and cvc5 are killed).
	Context context.Context
	// NoSymbolic disables the symbolic replay.
	NoSymbolic bool
	// AnyError accepts, as the end of an error schedule and at any step
	// before it, a runtime error or failed assertion of the concrete model
	// other than the one the schedule ends in: a concrete execution that
	// follows the schedule into any error is a real violation of a safety
	// check (the explicit search reports every error). A limit is not an
	// error. The concrete replay only; the symbolic one solves for the
	// schedule's own end.
	AnyError bool
	// Agree, when set, compares a concrete state with the abstract state a
	// step leads to (Step.Abstract). It returns "" when they agree (every
	// concrete value is abstracted by its abstract token) and otherwise
	// what differs, e.g. "result = 4 (EVEN), abstract ODD". Replay prefers
	// concrete executions that agree, and reports the first step at which
	// the values of the deepest execution part ways.
	Agree func(abstract map[string]string, concrete []byte) string
	// Given, when set, says that the concrete model has unbounded choices
	// (model.UnboundedChoices) and was compiled without values for them
	// (model.Options.ChoiceValues empty), so that its choices cannot be
	// enumerated: Replay solves for them symbolically, then calls Given
	// with every choice's value to get the model that takes them (and its
	// version with the state checks, as Checked), on which it finds the
	// concrete trail.
	Given func(values []int64) (*model.Model, search.Model, error)
	// Invariants are the invariants Checked checks, for the symbolic
	// replay: it requires them after every step, and solves for their
	// violation after the last step of a schedule that ends in one.
	Invariants []ast.Expr
	// Accept, when set, decides whether a concrete lasso that follows an
	// EndLasso schedule confirms it (whether it violates the property):
	// states[0] is the initial state and states[i] the state after step
	// i; ordinals are the steps' ordinals. It returns "" to confirm, and
	// otherwise why not (e.g. "the concrete lasso satisfies the formula");
	// Replay then tries the other concrete executions.
	Accept func(states [][]byte, ordinals []int) string
}

// Divergence is where the concrete model parts ways with an abstract trail.
type Divergence struct {
	Step     int    // 1-based step of the schedule
	Thread   string // the thread of the step, e.g. Main[1]
	Location string // its concrete location before the step
	Pos      source.Pos
	Reason   string // why: "guard n >= 1 is false", "the assertion holds", …
}

// Result is what Replay found.
type Result struct {
	// Confirmed: a concrete execution follows the schedule and ends in the
	// same violation. Trail is then its ordinals on the concrete model (a
	// trail birch replay accepts).
	Confirmed bool
	Trail     []int
	// Method is how the concrete execution was found or refuted:
	// "concrete" (every choice of the concrete model enumerated),
	// "symbolic" (choices solved for with the decision procedure) or
	// "sampled" (a model's unbounded choices taking only its integer
	// constants, their neighbours, -1, 0 and 1: Config.Given).
	Method string
	// Diverge says where the deepest concrete execution parts ways with
	// the schedule (when not confirmed).
	Diverge *Divergence
	// ValuesDiverge, when Config.Agree is set, is the first step at which
	// the values of the concrete execution replayed (the confirmed one, or
	// the deepest one) stop agreeing with the abstract trail's tokens.
	ValuesDiverge *Divergence
	// Incomplete: the replay could not decide (a budget was exhausted,
	// or the solver answered unknown), so "not confirmed" only means that
	// no concrete execution was found.
	Incomplete bool
	// Note explains Incomplete.
	Note string
	// Nodes is the number of (state, step) pairs explored.
	Nodes int
	// Choices: for a trail the symbolic replay confirmed, the value of
	// each choice it solved for, in order (the inputs of the trail).
	Choices []Choice
}

// Choice is the value a choice action takes in a confirmed trail.
type Choice struct {
	Step  int        // the 1-based step of the schedule
	Pos   source.Pos // the choice action (its keyword)
	Value int64
}

// String summarizes r in one line.
func (r *Result) String() string {
	if r.Confirmed {
		return fmt.Sprintf("confirmed (%s replay, %d steps)", r.Method, len(r.Trail))
	}
	var b strings.Builder
	b.WriteString("not confirmed")
	if d := r.Diverge; d != nil {
		fmt.Fprintf(&b, ": step %d: %s at %s: %s", d.Step, d.Thread, d.Location, d.Reason)
	}
	if r.Incomplete {
		b.WriteString(" (" + r.Note + ")")
	}
	return b.String()
}

// FromTrail turns an abstract trail (ordinals on the abstract model abs)
// into a schedule of the concrete model: mapGroup maps each transformation
// of abs (an index into abs.Groups()) to the concrete one it stands for, or
// -1 for a transformation that has no counterpart (which is then left out
// of the step). The schedule's end is taken from the trail's last step:
// an error outcome, or a deadlock when deadlock is true.
func FromTrail(abs search.Model, absModel *model.Model, ordinals []int, deadlock bool, mapGroup func(int) int) (Schedule, error) {
	var sc Schedule
	if len(ordinals) == 0 {
		if _, fail := abs.Initial(nil); fail != nil {
			sc.End = End{Kind: EndError, Error: fail.Kind, Msg: fail.Msg}
			return sc, nil
		}
	}
	_, steps, err := search.Replay(abs, ordinals)
	if err != nil {
		return sc, err
	}
	return FromSteps(steps, absModel, deadlock, mapGroup)
}

// FromSteps is FromTrail of a trail already replayed on the abstract model
// (search.Replay's steps, at least one).
func FromSteps(steps []search.TrailStep, absModel *model.Model, deadlock bool, mapGroup func(int) int) (Schedule, error) {
	var sc Schedule
	for i, ts := range steps {
		st := Step{Thread: ts.Step.Thread}
		for _, g := range ts.Step.Groups {
			if c := mapGroup(int(g)); c >= 0 {
				st.Groups = append(st.Groups, c)
			}
		}
		if len(st.Groups) == 0 {
			return sc, fmt.Errorf("step %d: no transformation of the concrete model corresponds to the abstract step", i+1)
		}
		if ts.After != nil && absModel != nil {
			st.Abstract = map[string]string{}
			for _, v := range absModel.Describe(ts.After) {
				st.Abstract[v.Name] = v.Value
			}
		}
		sc.Steps = append(sc.Steps, st)
		if ts.Step.Outcome != model.OK {
			sc.End = End{Kind: EndError, Error: ts.Step.Kind, Msg: ts.Step.Msg}
		}
	}
	if deadlock && sc.End.Kind == EndNone {
		sc.End = End{Kind: EndDeadlock, Error: model.Deadlock, Msg: "no thread can move"}
	}
	return sc, nil
}

// Replay looks for an execution of the concrete model m that follows the
// schedule — the same thread takes the same transformations at every step
// — and ends in the same violation. It first replays concretely, trying
// every outcome of the concrete model that fits each step (the choices of
// externChoose and internChoose, and any other nondeterminism) within
// Config.MaxNodes; when that budget is exhausted it solves for the choices
// symbolically (not for an EndLasso schedule, whose replay is concrete
// only). An error is returned only for a schedule that does not fit m at
// all (a transformation index out of range, a cycle start out of range).
func Replay(m *model.Model, sc Schedule, cfg Config) (*Result, error) {
	groups := m.Groups()
	for i, st := range sc.Steps {
		for _, g := range st.Groups {
			if g < 0 || g >= len(groups) {
				return nil, fmt.Errorf("step %d: no transformation %d in the concrete model", i+1, g)
			}
		}
	}
	if cfg.MaxNodes <= 0 {
		cfg.MaxNodes = 100000
	}
	if sc.End.Kind == EndLasso && (sc.End.CycleStart < 0 || sc.End.CycleStart > len(sc.Steps)) {
		return nil, fmt.Errorf("the cycle starts at step %d of a schedule of %d steps", sc.End.CycleStart, len(sc.Steps))
	}
	if cfg.Given != nil && len(sc.Steps) > 0 {
		// the unbounded choices cannot be enumerated: solve for them (the
		// initial state takes no choice: the concrete replay decides a
		// schedule without steps)
		sres, why := replaySymbolic(m, sc, cfg)
		if sres != nil && (sres.Confirmed || !sres.Incomplete) {
			return sres, nil
		}
		if sres != nil {
			why = sres.Note
		}
		r := replaySampled(m, sc, cfg)
		if r != nil && r.Confirmed {
			return r, nil
		}
		if sres == nil {
			sres = &Result{Method: "symbolic", Incomplete: true}
		}
		sres.Note = why + " (the model's unbounded choices cannot be enumerated)"
		if r != nil {
			// both replays were tried (the sampled one's divergence is
			// the samples', not a refutation: it stays in the note)
			sres.Note = why + ", and " + r.Note
			sres.Nodes += r.Nodes
		}
		return sres, nil
	}
	r := newEnumerator(m, sc, cfg)
	res := r.run()
	// the symbolic replay encodes no cycle: a lasso is decided by the
	// concrete replay only
	if res.Confirmed || !res.Incomplete || cfg.NoSymbolic || sc.End.Kind == EndLasso {
		return res, nil
	}
	sres, _ := replaySymbolic(m, sc, cfg)
	if sres == nil {
		return res, nil
	}
	if sres.Diverge == nil {
		sres.Diverge = res.Diverge
	}
	sres.Nodes += res.Nodes
	return sres, nil
}

// replaySampled is the concrete replay of a model whose unbounded choices
// take only the integer constants of the model and their neighbours (and
// -1, 0, 1): where the symbolic replay cannot decide, a trail found among
// those inputs is a real one. A confirmed result is the trail on the model
// whose choices take only the values the trail's inputs took (the last
// model Config.Given compiled), with those inputs as its Choices; a result
// not confirmed says in its Note what was tried. It returns nil when
// Config.Given fails.
func replaySampled(m *model.Model, sc Schedule, cfg Config) *Result {
	samples := sampleInputs(m.Program())
	gm, gsm, err := cfg.Given(samples)
	if err != nil {
		return nil
	}
	cfg.Checked = gsm
	r := newEnumerator(gm, sc, cfg).run()
	r.Method = "sampled"
	if !r.Confirmed {
		r.Note = fmt.Sprintf("the concrete replay with each unbounded choice narrowed to %d values (-1, 0, 1 and the model's integer constants with their neighbours) found no execution", len(samples))
		if r.Incomplete {
			r.Note += fmt.Sprintf(" within %d (state, step) pairs", r.Nodes)
		}
		if d := r.Diverge; d != nil {
			r.Note += fmt.Sprintf(" (with them, step %d: %s at %s: %s)", d.Step, d.Thread, d.Location, d.Reason)
		}
		return r
	}
	cs := givenChoices(gm, r.Trail)
	var vals []int64
	for _, c := range cs {
		vals = append(vals, c.Value)
	}
	if len(vals) > 0 {
		// the same execution on the model given only its inputs: the
		// trail's model takes no value the trail does not use
		if nm, nsm, err := cfg.Given(vals); err == nil {
			cfg.Checked = nsm
			if nr := newEnumerator(nm, sc, cfg).run(); nr.Confirmed {
				nr.Method, nr.Nodes = "sampled", nr.Nodes+r.Nodes
				nr.Choices = givenChoices(nm, nr.Trail)
				return nr
			}
		}
		// (not expected) the trail stays on the model of the samples
		if _, _, err := cfg.Given(samples); err != nil {
			return nil
		}
	}
	r.Choices = cs
	return r
}

// givenChoices lists the values the unbounded choices took along the
// trail ords of m (compiled with Options.ChoiceValues).
func givenChoices(m *model.Model, ords []int) []Choice {
	state, fail := m.Initial(nil)
	if fail != nil {
		return nil
	}
	var out []Choice
	for i, ord := range ords {
		cs, st := m.GivenChoices(state, ord)
		for _, c := range cs {
			out = append(out, Choice{Step: i + 1, Pos: c.Pos, Value: c.Value})
		}
		if st == nil || st.Outcome != model.OK {
			break
		}
		state = st.State
	}
	return out
}

// maxSamples bounds the values sampleInputs gives.
const maxSamples = 64

// sampleInputs lists -1, 0, 1 and the model's integer constants with
// their neighbours, at most maxSamples values.
func sampleInputs(prog *types.Program) []int64 {
	seen := map[int64]bool{}
	var out []int64
	add := func(v int64) {
		if !seen[v] && len(out) < maxSamples {
			seen[v] = true
			out = append(out, v)
		}
	}
	for _, v := range []int64{0, 1, -1} {
		add(v)
	}
	var consts []int64
	for _, tv := range prog.Info.Types {
		if tv.Value.Kind == types.IntConst {
			consts = append(consts, tv.Value.Int)
		}
	}
	slices.Sort(consts)
	for _, c := range slices.Compact(consts) {
		add(c)
		if c > math.MinInt64 {
			add(c - 1)
		}
		if c < math.MaxInt64 {
			add(c + 1)
		}
	}
	return out
}
