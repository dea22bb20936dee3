package apf

import (
	"slices"
	"testing"

	"birch/internal/bir/ast"
	"birch/internal/model"
)

// keepNative is a model.Native that replaces nothing and, in End, sets a
// hidden variable to 2 (true) after the first step and records its value
// and y's after every step.
type keepNative struct {
	p          *Program
	slot       PredSlot
	y          string
	hidden, ys []int64
}

func (k *keepNative) Replaces(ast.Node) bool                     { return false }
func (k *keepNative) Value(*model.NativeContext, ast.Expr) int64 { return 0 }
func (k *keepNative) Action(*model.NativeContext, ast.Action) model.NativeResult {
	return model.NativeOK
}
func (k *keepNative) Begin(*model.NativeContext, int)                 {}
func (k *keepNative) Initial(*model.NativeContext) model.NativeResult { return model.NativeOK }
func (k *keepNative) End(c *model.NativeContext, g int) model.NativeResult {
	s := c.Cur()
	h := s.Local(0, 0, k.slot.Var)
	if g == 0 {
		s.Slots()[h] = 2
	}
	k.hidden = append(k.hidden, s.Slots()[h])
	for _, v := range k.slot.Proc.Locals {
		if v.Name() == k.y {
			k.ys = append(k.ys, s.Slots()[s.Local(0, 0, v)])
		}
	}
	return model.NativeOK
}

// TestHiddenLocalNeverReset runs P′ of a model whose live sets reset its
// locals: the model resets the dead variable y on arriving at a location
// whose live set leaves it out, and never the hidden local, which is in
// every live set.
func TestHiddenLocalNeverReset(t *testing.T) {
	src := `system L ()
main thread M ()
  x, y : range 0..3;
  loc s0: live { x, y }
    when true do { x := 1; y := 2; } goto s1;
  loc s1: live { y }
    when true do { y := 3; } goto s2;
  loc s2: live { }
    when true do { } goto s3;
  loc s3:
    when true do { y := 1; } goto s4;
  loc s4: live { x }
end M;
end L;
`
	p := instrumentSource(t, "live.bir", src, "[thread M] x == y\n")
	k := &keepNative{p: p, slot: p.Slots[0], y: "y"}
	m, err := model.New(p.Prog, model.Options{Native: k})
	if err != nil {
		t.Fatal(err)
	}
	state, fail := m.Initial(nil)
	if fail != nil {
		t.Fatal(fail.Msg)
	}
	for steps := 0; ; steps++ {
		var next []byte
		m.Next(state, func(st *model.Step) {
			if st.Outcome == model.OK {
				next = slices.Clone(st.State)
			}
		})
		if next == nil || steps > 10 {
			break
		}
		state = next
	}
	// y: 2 at s1; 3, reset on arriving at s2 (live { }); 1, reset on
	// arriving at s4 (live { x })
	if want := []int64{2, 2, 2, 2}; !slices.Equal(k.hidden, want) {
		t.Errorf("the hidden local after each step: %v, want %v", k.hidden, want)
	}
	if want := []int64{2, 0, 0, 0}; !slices.Equal(k.ys, want) {
		t.Errorf("y after each step: %v, want %v (reset where dead)", k.ys, want)
	}
}
