package model

import (
	"fmt"

	"birch/internal/bir/types"
)

// Label is a named boolean function of a state: a predicate of the
// program's predicates section. Property engines (invariants, LTL) read
// states only through labels.
type Label struct {
	Name string
	Pred *types.Predicate
	eval evalFn
}

func (m *Model) compileLabels() {
	for _, p := range m.prog.Predicates {
		if p.Decl == nil || p.Decl.Expr == nil {
			continue
		}
		m.labels = append(m.labels, Label{Name: p.Name(), Pred: p, eval: m.expr(p.Decl.Expr, scope{})})
	}
}

// Labels lists the state labels.
func (m *Model) Labels() []Label { return m.labels }

// EvalLabel evaluates label i in state. A runtime error in the predicate
// (a null dereference, say) is returned as an error.
func (m *Model) EvalLabel(state []byte, i int) (bool, error) {
	x := &exec{m: m}
	var ok bool
	x.s, ok = m.decodeState(nil, state)
	if !ok {
		return false, fmt.Errorf("not a state of this model")
	}
	x.off = m.threadOffsets(x.s, nil)
	x.t = -1
	v := m.labels[i].eval(x)
	if x.failed {
		return false, fmt.Errorf("%s: %s", x.kind, x.msg)
	}
	return v != 0, nil
}
