package search

import (
	"fmt"

	"birch/internal/bir/ast"
	"birch/internal/bir/format"
	"birch/internal/bir/types"
	"birch/internal/model"
	"birch/internal/source"
)

// StateCheck is a condition every reachable state must satisfy, such as the
// invariants of a model's properties section.
type StateCheck interface {
	// Check reports whether state satisfies the condition. When it does
	// not, Check fills in v's Kind, Msg and Pos.
	Check(state []byte, v *model.Step) bool
}

// WithStateCheck returns a model whose successor states are checked by c: a
// successor that violates it becomes an Error outcome with the same ordinal
// (so a trail still replays on m, its last step leading to the violating
// state), and an initial state that violates it is a failure of Initial.
// Every reachable state is therefore checked by any search of the returned
// model; with --search=bfs the trail to a violation is a shortest one.
// Next checks each successor it delivers, also one stored already (the
// invariants are evaluated on the successor's slots as Next has them,
// Invariants.CheckStep, without decoding the state). Run does better: it
// searches the wrapped model and checks each state once, when it stores it
// (a state found again was checked then), with Check; on a violation it
// asks the returned model's Next for the step into the violating state, so
// that the violation and the trail are the same. A violating state is then
// counted among the states stored.
//
// Because the violating state becomes an outcome of the step into it, a
// search bounded by MaxDepth sees violations up to that depth exactly: a
// state one step beyond the bound is not checked (the step is cut).
func WithStateCheck(m Model, c StateCheck) Model {
	w := &checkedModel{Model: m, c: c}
	w.sc, _ = c.(stepChecker)
	w.visit = w.check
	return w
}

type checkedModel struct {
	Model
	c     StateCheck
	sc    stepChecker // c, when it is one
	fail  model.Step  // what c says of a violation
	yield func(*model.Step)
	visit func(*model.Step) // w.check, bound once so Next allocates nothing
	step  model.Step
}

func (w *checkedModel) Initial(dst []byte) ([]byte, *model.Step) {
	init, fail := w.Model.Initial(dst)
	if fail != nil {
		return init, fail
	}
	v := &model.Step{Outcome: model.Error, Thread: -1}
	if !w.c.Check(init, v) {
		return init, v
	}
	return init, nil
}

// CacheBytes is the wrapped model's (see cacheSizer).
func (w *checkedModel) CacheBytes() int64 {
	if c, ok := w.Model.(cacheSizer); ok {
		return c.CacheBytes()
	}
	return 0
}

func (w *checkedModel) Next(state []byte, yield func(*model.Step)) (int, bool) {
	w.yield = yield
	n, done := w.Model.Next(state, w.visit)
	w.yield = nil
	return n, done
}

// stepChecker is a StateCheck that can read a successor's state from the
// step Next delivers, without decoding it.
type stepChecker interface {
	CheckStep(st *model.Step, v *model.Step) bool
}

func (w *checkedModel) check(st *model.Step) {
	if st.Outcome == model.OK {
		var ok bool
		v := &w.fail
		if w.sc != nil {
			ok = w.sc.CheckStep(st, v)
		} else {
			ok = w.c.Check(st.State, v)
		}
		if !ok {
			w.step = *st
			w.step.Kind, w.step.Msg, w.step.Pos = v.Kind, v.Msg, v.Pos
			w.step.Outcome = model.Error
			w.step.State = nil
			w.yield(&w.step)
			return
		}
	}
	w.yield(st)
}

// Invariants checks the invariants of a model's properties section on
// every state: it is a StateCheck.
type Invariants struct {
	ev    *model.Evaluator
	names []string
	texts []string
	pos   []source.Pos
}

// NewInvariants compiles the given properties (invariants of m's program)
// into a StateCheck. It returns nil (and no error) when props is empty.
func NewInvariants(m *model.Model, props []*types.Property) (*Invariants, error) {
	if len(props) == 0 {
		return nil, nil
	}
	inv := &Invariants{}
	var exprs []ast.Expr
	for _, p := range props {
		if p.LTL {
			return nil, fmt.Errorf("%s is an ltl property, not an invariant", p.Name())
		}
		exprs = append(exprs, p.Decl.Expr)
		inv.names = append(inv.names, p.Name())
		inv.texts = append(inv.texts, format.Expr(p.Decl.Expr))
		inv.pos = append(inv.pos, p.Decl.Expr.Pos())
	}
	ev, err := m.NewEvaluator(exprs)
	if err != nil {
		return nil, err
	}
	ev.SourcesHold()
	inv.ev = ev
	return inv, nil
}

// Names lists the invariants checked.
func (inv *Invariants) Names() []string { return inv.names }

// Check evaluates every invariant on state. The violation names the first
// invariant (in the order of the properties section) that is false; a
// runtime error while evaluating one (a null dereference, say) is reported
// with its own kind.
func (inv *Invariants) Check(state []byte, v *model.Step) bool {
	inv.ev.Load(state)
	return inv.check(v)
}

// CheckStep is Check on the successor state of st, read from the step
// (Evaluator.LoadStep) rather than decoded. The state st comes from must
// satisfy the invariants, as every state a search of WithStateCheck's model
// expands does (the initial state is checked, and a successor that violates
// one is an error outcome, never stored): an invariant whose slots the step
// leaves unchanged is then not evaluated again (Evaluator.SourcesHold).
func (inv *Invariants) CheckStep(st *model.Step, v *model.Step) bool {
	inv.ev.LoadStep(st)
	return inv.check(v)
}

func (inv *Invariants) check(v *model.Step) bool {
	for i := range inv.names {
		ok, err := inv.ev.Eval(i)
		if err != nil {
			v.Kind, v.Msg, v.Pos = err.Kind, "in invariant "+inv.names[i]+": "+err.Msg, err.Pos
			return false
		}
		if !ok {
			v.Kind, v.Msg, v.Pos = model.InvariantViolated, "invariant "+inv.names[i]+" violated: "+inv.texts[i], inv.pos[i]
			return false
		}
	}
	return true
}
