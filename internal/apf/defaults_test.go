package apf_test

import (
	"fmt"
	"strings"
	"testing"

	"birch/internal/apf"
	"birch/internal/bir/types"
	"birch/internal/model"
	"birch/internal/source"
)

// The abstracted slots keep their initial or default values in every
// state of an on-the-fly search: nothing the model runs itself writes
// abstracted data (the dynamic side of TestCompleteness), so abstracted
// data never split states and the runtime may read a new object's or
// frame's abstracted slots as their initial values.

// defaultSlot is the default value of a slot of scalar type t.
func defaultSlot(t types.Type) int64 {
	if u, ok := t.Underlying().(*types.Range); ok && (u.Lo > 0 || u.Hi < 0) {
		return u.Lo
	}
	return 0
}

// scalar returns the element type of the slots of t (t itself, or the
// innermost element type of a value array).
func scalar(t types.Type) types.Type {
	for {
		a, ok := t.Underlying().(*types.Array)
		if !ok {
			return t
		}
		t = a.Elem
	}
}

// checkSlots reports the abstracted slots of ns that hold neither their
// variable's initial value nor their type's default.
func checkSlots(p *apf.Program, ns model.NativeState) []string {
	var bad []string
	s := ns.Slots()
	check := func(where string, slot int, v *types.Var, t types.Type) {
		if slot < 0 {
			return
		}
		st := scalar(t)
		ok := map[int64]bool{defaultSlot(st): true}
		if v != nil && v.Init.Kind == types.IntConst {
			ok[v.Init.Int] = true
		}
		for i := 0; i < int(types.Slots(t)); i++ {
			if !ok[s[slot+i]] {
				bad = append(bad, fmt.Sprintf("%s slot %d holds %d", where, i, s[slot+i]))
			}
		}
	}
	for _, v := range p.Prog.Globals {
		if p.Abstracted[v] {
			check("global "+v.Name(), ns.Global(v), v, v.Type())
		}
	}
	for _, f := range ns.Frames(nil) {
		for _, v := range f.Proc.Vars() {
			if p.Abstracted[v] {
				check(fmt.Sprintf("%s#%d.%s", f.Proc.Name(), f.Depth, v.Name()), ns.Local(f.Thread, f.Depth, v), v, v.Type())
			}
		}
	}
	for _, o := range ns.Objects(nil) {
		n, _ := o.Type.(*types.Named)
		if n == nil {
			continue
		}
		switch u := n.Underlying().(type) {
		case *types.Record:
			for _, f := range u.Fields {
				if p.Abstracted[f] {
					check(fmt.Sprintf("object %d.%s", o.Ref, f.Name()), ns.Field(o.Ref, f), nil, f.Type())
				}
			}
		case *types.Array:
			if p.AbstractArrays[n] {
				for k := int64(0); k < ns.Length(o.Ref); k++ {
					check(fmt.Sprintf("object %d[%d]", o.Ref, k), ns.Elem(o.Ref, k), nil, u.Elem)
				}
			}
		}
	}
	return bad
}

// defaultsHold searches src on the fly (up to max states) and returns the
// first state whose abstracted slots changed, described, or "", and the
// number of states it looked at.
func defaultsHold(t *testing.T, name, src, preds string, max int) (string, int) {
	return slotsHold(t, name, src, preds, max, true)
}

// slotsHold is defaultsHold, with the runtime as the native code or
// (native false, the check's self-test) without native code.
func slotsHold(t *testing.T, name, src, preds string, max int, native bool) (string, int) {
	t.Helper()
	p, err := apf.Instrument(source.NewFileSet(), name, []byte(src), name+".pred", []byte(preds))
	if err != nil || p.Unsupported != nil {
		return "", 0
	}
	rt, err := apf.NewRuntime(p, apf.Config{})
	if err != nil {
		t.Fatal(err)
	}
	defer rt.Close()
	opts := model.Options{Native: rt}
	if !native {
		opts.Native = nil
	}
	m, err := model.New(p.Prog, opts)
	if err != nil {
		return "", 0
	}
	// every state reachable through OK steps (search.Run would stop at
	// the first error)
	init, fail := m.Initial(nil)
	if fail != nil {
		return "", 0
	}
	seen := map[string]bool{string(init): true}
	queue := [][]byte{init}
	found, n := "", 0
	for len(queue) > 0 && n < max && found == "" {
		state := queue[0]
		queue = queue[1:]
		n++
		if bad := checkSlots(p, m.NativeState(state)); len(bad) > 0 {
			found = strings.Join(bad, "; ")
		}
		m.Next(state, func(st *model.Step) {
			if st.Outcome == model.OK && !seen[string(st.State)] {
				seen[string(st.State)] = true
				queue = append(queue, append([]byte(nil), st.State...))
			}
		})
	}
	return found, n
}

func TestAbstractedSlotsKeepDefaults(t *testing.T) {
	models, states := 0, 0
	try := func(what, name, src, preds string) {
		bad, n := defaultsHold(t, name, src, preds, 3000)
		if bad != "" {
			t.Errorf("%s: %s", what, bad)
		}
		if n > 0 {
			models++
			states += n
		}
	}
	for name, c := range completeModels(t) {
		if c[1] != "" { // the examples with predicate files
			try(name, name, c[0], c[1])
		}
	}
	for name, src := range completeCorners {
		try(name, name, src, "g > 0\n")
	}
	for seed := uint64(1); seed <= 60; seed++ {
		m := rgenerate(seed, ropt)
		try(fmt.Sprintf("seed %d", seed), "r.bir", m.Src, m.PredFile())
	}
	t.Logf("%d models searched, %d states", models, states)
	// the check finds the values P′ run without native code stores
	m := rgenerate(1, ropt)
	if bad, _ := slotsHold(t, "r.bir", m.Src, m.PredFile(), 100, false); bad == "" {
		t.Errorf("without native code, seed 1's abstracted slots keep their defaults: the check sees nothing")
	}
	if models < 40 {
		t.Errorf("only %d models searched", models)
	}
}
