package apf_test

import (
	"fmt"
	"slices"
	"testing"

	"birch/internal/apf"
	"birch/internal/bir/ast"
	"birch/internal/model"
	"birch/internal/source"
)

// hookCheck wraps the runtime and checks what the model promises about
// its hooks (model.Native's doc) on every call: Begin and End of a run
// pair up (End only after Begin of the same transformation and thread;
// a Begin without End only when the run blocked or failed), the state
// before the step (Pre) does not change during the run, a guard's Value
// sees Pre equal to Cur, and the context names the transformation.
type hookCheck struct {
	rt       *apf.Runtime
	mod      *model.Model
	problems []string
	inRun    bool
	g, t     int
	pre      []int64
}

func (h *hookCheck) problem(format string, args ...any) {
	if len(h.problems) < 5 {
		h.problems = append(h.problems, fmt.Sprintf(format, args...))
	}
}

func (h *hookCheck) Replaces(n ast.Node) bool { return h.rt.Replaces(n) }

func (h *hookCheck) Value(c *model.NativeContext, e ast.Expr) int64 {
	g := c.Group()
	if g < 0 || g >= len(h.mod.Groups()) {
		h.problem("Value with Group %d", g)
		return h.rt.Value(c, e)
	}
	if h.mod.Groups()[g].Decl.Guard == e {
		// a guard: evaluated in the state the transformation leaves
		h.inRun = false
		if !slices.Equal(c.Pre().Slots(), c.Cur().Slots()) {
			h.problem("a guard's Value: Pre differs from Cur")
		}
		return h.rt.Value(c, e)
	}
	if !h.inRun {
		h.problem("Value of an argument or a result outside a run")
	} else {
		// an argument or a result, during the run
		h.samePre(c, "Value")
		if c.Group() != h.g || c.Thread() != h.t {
			h.problem("Value during the run of %d/%d names %d/%d", h.t, h.g, c.Thread(), c.Group())
		}
	}
	return h.rt.Value(c, e)
}

func (h *hookCheck) samePre(c *model.NativeContext, what string) {
	if !slices.Equal(c.Pre().Slots(), h.pre) {
		h.problem("%s of %d/%d: Pre changed since Begin", what, h.t, h.g)
	}
}

func (h *hookCheck) Action(c *model.NativeContext, a ast.Action) model.NativeResult {
	if !h.inRun {
		h.problem("Action outside a run")
	}
	h.samePre(c, "Action")
	return h.rt.Action(c, a)
}

func (h *hookCheck) Begin(c *model.NativeContext, g int) {
	// a Begin after a Begin: the last run blocked or failed (the model
	// does not call End then), which the wrapper cannot see: allowed
	h.inRun, h.g, h.t = true, g, c.Thread()
	h.pre = append(h.pre[:0], c.Pre().Slots()...)
	if c.Group() != g {
		h.problem("Begin(%d) with Group %d", g, c.Group())
	}
	h.rt.Begin(c, g)
}

func (h *hookCheck) End(c *model.NativeContext, g int) model.NativeResult {
	switch {
	case !h.inRun:
		h.problem("End(%d) without Begin", g)
	case g != h.g || c.Thread() != h.t || c.Group() != g:
		h.problem("End(%d) of thread %d after Begin(%d) of thread %d", g, c.Thread(), h.g, h.t)
	case c.Failed():
		h.problem("End(%d) of a run that failed", g)
	}
	h.samePre(c, "End")
	h.inRun = false
	return h.rt.End(c, g)
}

func (h *hookCheck) Initial(c *model.NativeContext) model.NativeResult {
	if c.Thread() != -1 || c.Group() != -1 || !slices.Equal(c.Pre().Slots(), c.Cur().Slots()) {
		h.problem("Initial: thread %d group %d", c.Thread(), c.Group())
	}
	return h.rt.Initial(c)
}

func TestNativeHooksOnRandomModels(t *testing.T) {
	calls := 0
	for _, expose := range []bool{false, true} {
		for seed := uint64(1); seed <= 25; seed++ {
			m := rgenerate(seed, ropt)
			p, err := apf.Instrument(source.NewFileSet(), "r.bir", []byte(m.Src), "r.pred", []byte(m.PredFile()))
			if err != nil || p.Unsupported != nil {
				continue
			}
			rt, err := apf.NewRuntime(p, apf.Config{})
			if err != nil {
				t.Fatal(err)
			}
			h := &hookCheck{rt: rt}
			mod, err := model.New(p.Prog, model.Options{Native: h, ExposeInvisible: expose})
			if err != nil {
				t.Fatal(err)
			}
			h.mod = mod
			init, fail := mod.Initial(nil)
			if fail == nil {
				seen := map[string]bool{string(init): true}
				queue := [][]byte{init}
				for n := 0; len(queue) > 0 && n < 400; n++ {
					s := queue[0]
					queue = queue[1:]
					mod.Next(s, func(st *model.Step) {
						calls++
						if st.Outcome == model.OK && !seen[string(st.State)] {
							seen[string(st.State)] = true
							queue = append(queue, append([]byte(nil), st.State...))
						}
					})
				}
			}
			rt.Close()
			for _, pr := range h.problems {
				t.Errorf("seed %d (expose %v): %s", seed, expose, pr)
			}
		}
	}
	t.Logf("%d outcomes", calls)
}
