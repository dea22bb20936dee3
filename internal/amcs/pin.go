package amcs

import (
	"birch/internal/bir/ast"
	"birch/internal/bir/types"
	"birch/internal/model"
	"birch/internal/smt"
)

// The control part of a state (booleans, enum values, references) is
// concrete in its abstract state: every concrete state of α(s) has s's.
// The precision check and the guard check therefore pin each variable of
// such a type that their formulas read to its value in s; without it, a
// guard b && x > 0 would look undecided wherever b is read, and a
// transition precise only because of b imprecise.

// pinVar is a variable whose value a pin fixes: the variable, and the
// frame of a copy of a local (thread and depth; -1 for a global, or a
// local of the executing frame).
type pinVar struct {
	v             *types.Var
	thread, depth int
}

// pins holds the control variables of the model and their constants.
type pins struct {
	fe    *model.FrameEvaluator
	index map[*types.Var]int // variable -> condition of fe
	of    map[*smt.Term]pinVar
	found map[*smt.Term][]*smt.Term // a formula's pinned constants
}

// pinnable reports whether a variable of type t is part of the control:
// a boolean, an enum value or a reference.
func pinnable(t types.Type) bool {
	switch u := t.Underlying().(type) {
	case *types.Basic:
		return u.Kind == types.Bool
	case *types.Enum, *types.Ref:
		return true
	}
	return false
}

// newPins compiles a read of every control variable of m's program (the
// globals, and the variables of every thread and function).
func (r *wpRefiner) newPins() error {
	p := &pins{index: map[*types.Var]int{}, of: map[*smt.Term]pinVar{}, found: map[*smt.Term][]*smt.Term{}}
	info := r.prog.Info
	var conds []ast.Expr
	var procs []*types.Proc
	add := func(v *types.Var, proc *types.Proc) {
		if !pinnable(v.Type()) {
			return
		}
		t, err := r.enc.Var(v)
		if err != nil {
			return
		}
		id := &ast.Ident{Name: v.Name()}
		info.Uses[id] = v
		info.Types[id] = types.TypeAndValue{Type: v.Type()}
		p.index[v] = len(conds)
		p.of[t] = pinVar{v, -1, -1}
		conds = append(conds, id)
		procs = append(procs, proc)
	}
	for _, g := range r.prog.Globals {
		add(g, nil)
	}
	for _, ps := range [][]*types.Proc{r.prog.Threads, r.prog.Functions} {
		for _, proc := range ps {
			for _, v := range proc.Vars() {
				add(v, proc)
			}
		}
	}
	fe, err := r.m.NewFrameEvaluator(conds, procs)
	if err != nil {
		return err
	}
	p.fe = fe
	r.pins = p
	return nil
}

// pinCopy registers c, the copy of local v in frame at.
func (r *wpRefiner) pinCopy(c, v *types.Var, at model.Frame) {
	if r.pins == nil || !pinnable(v.Type()) {
		return
	}
	if t, err := r.enc.Var(c); err == nil {
		r.pins.of[t] = pinVar{v, at.Thread, at.Depth}
	}
}

// constants appends the pinned constants of t to dst.
func (p *pins) constants(t *smt.Term) []*smt.Term {
	if cs, ok := p.found[t]; ok {
		return cs
	}
	var cs []*smt.Term
	seen := map[*smt.Term]bool{}
	var walk func(t *smt.Term)
	walk = func(t *smt.Term) {
		if seen[t] {
			return
		}
		seen[t] = true
		if _, ok := p.of[t]; ok {
			cs = append(cs, t)
		}
		for _, a := range t.Args() {
			walk(a)
		}
	}
	walk(t)
	if len(p.found) >= maxAnswers {
		clear(p.found)
	}
	p.found[t] = cs
	return cs
}

// pin is the conjunction of the values in the loaded source of the
// control variables that the formulas read, the locals of the executing
// frame exec read as they are.
func (r *wpRefiner) pin(exec model.Frame, formulas ...*smt.Term) *smt.Term {
	p := r.pins
	if p == nil {
		return r.tm.True()
	}
	tm := r.tm
	var out []*smt.Term
	done := map[*smt.Term]bool{}
	for _, f := range formulas {
		for _, c := range p.constants(f) {
			if done[c] {
				continue
			}
			done[c] = true
			pv := p.of[c]
			thread, depth := pv.thread, pv.depth
			if pv.v.Owner != nil && thread < 0 {
				thread, depth = exec.Thread, exec.Depth
			}
			val, err := p.fe.Value(p.index[pv.v], thread, depth)
			if err != nil {
				continue
			}
			if c.IsBool() {
				if val == 0 {
					out = append(out, tm.Not(c))
				} else {
					out = append(out, c)
				}
				continue
			}
			out = append(out, tm.Eq(c, tm.Int(val)))
		}
	}
	return tm.And(out...)
}
