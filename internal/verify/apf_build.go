package verify

import (
	"errors"
	"fmt"

	"slices"

	"birch/internal/apf"
	"birch/internal/bir/format"
	"birch/internal/bir/types"
	"birch/internal/model"
	"birch/internal/source"
)

// instrumentOnTheFly reads the predicate file src against t's model,
// instruments the model (package apf: P′) and compiles P′ with the
// runtime as its native code. A predicate file that does not read is a
// source.ErrorList; constructs the runtime cannot handle soundly are the
// result's unsupported.
func instrumentOnTheFly(t *Task, src []byte) (*otfModel, error) {
	in, o := t.Input, t.OnTheFly
	// the model's file name in its file set, not the user's ("-"), so
	// that P′'s positions print as the model's
	name := in.Fset.File(in.File.Pos()).Name()
	p, err := apf.Instrument(source.NewFileSet(), name, in.Src, o.File, src)
	if err != nil {
		return nil, err
	}
	om := &otfModel{prog: p.Prog, reads: p.Reads, hidden: map[string]string{}}
	om.isAbstracted = func(name string) bool {
		v, arr := describedVar(p.Prog, name)
		return v != nil && p.Abstracted[v] || arr != nil && p.AbstractArrays[arr]
	}
	for i, pr := range p.Preds.Predicates {
		om.preds = append(om.preds, pr.String())
		om.hidden[p.Slots[i].Var.Name()] = format.Expr(pr.Expr)
	}
	if p.Unsupported != nil {
		om.unsupported = p.Unsupported
		return om, nil
	}
	fieldOf := map[*types.Var]string{}
	for _, tn := range p.Prog.Types {
		if r, ok := tn.Type().Underlying().(*types.Record); ok {
			for _, f := range r.Fields {
				fieldOf[f] = tn.Name() + "." + f.Name()
			}
		}
	}
	for v := range p.Abstracted {
		name := varName(v)
		if f, ok := fieldOf[v]; ok {
			name = f
		}
		om.abstracted = append(om.abstracted, name)
	}
	for n := range p.AbstractArrays {
		// a heap array's elements; its length stays concrete
		om.abstracted = append(om.abstracted, n.String()+" elements")
	}
	slices.Sort(om.abstracted)
	rt, err := apf.NewRuntime(p, apf.Config{Solver: o.Solver, Ctx: t.limits().Ctx})
	if err != nil {
		return nil, errorf("birch: %v", err)
	}
	mo := t.Model
	mo.Native = rt
	if om.m, err = model.New(p.Prog, mo); err != nil {
		rt.Close()
		var ue *model.UnboundedChoiceError
		if errors.As(err, &ue) {
			// a choice the runtime does not replace: of concrete data
			c := ue.Choices[0]
			om.unsupported = fmt.Errorf("%v: %s chooses concrete data (a fixed-width type stays concrete on the fly) among %s values, more than explicit search enumerates", c.Pos, c.Action, c.Values)
			return om, nil
		}
		return nil, plainError(err)
	}
	om.stats = func() OnTheFlyStats {
		s := rt.Stats()
		return OnTheFlyStats{Steps: s.Steps, Queries: s.Queries, CacheHits: s.CacheHits, Unknowns: s.Unknowns, UnknownGuards: s.GuardUnknowns, Branches: s.Branches}
	}
	om.err, om.close = rt.Err, rt.Close
	return om, nil
}
