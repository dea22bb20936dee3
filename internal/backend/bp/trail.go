package bp

import (
	"fmt"
	"strconv"

	"birch/internal/bir/ast"
	"birch/internal/bir/types"
	"birch/internal/boolprog"
	"birch/internal/model"
)

// Schedule turns a trail of the boolean program (boolprog.Result.Trail, or
// bebop's through Result.BoolprogResult) into the BIR transformations it
// takes; failing says that the trail ends in a failing assertion. A step
// starts at the label of a transformation's first statement and ends at
// the next location label, whose values are the step's After; the failing
// assertion of a failing trail ends the last step. An error says why the
// trail does not fit the program (it was cut, or comes from another
// program).
func (m *Map) Schedule(trail []boolprog.Step, failing bool) (*Schedule, error) {
	b := &scheduler{m: m, sc: &Schedule{}}
	for i, st := range trail {
		if err := b.step(st); err != nil {
			return nil, fmt.Errorf("trail step %d: %v", i+1, err)
		}
	}
	cur := b.cur
	if !failing {
		if cur != nil {
			return nil, fmt.Errorf("the trail ends inside the transformation at %s", cur.Location.Name())
		}
		return b.sc, nil
	}
	if len(trail) == 0 || cur == nil {
		return nil, fmt.Errorf("the trail does not end inside a transformation")
	}
	last := trail[len(trail)-1]
	a, ok := m.asserts[lineCol{last.Pos.Line, last.Pos.Column}]
	if !ok || a.trans.decl != cur.Transformation {
		return nil, fmt.Errorf("the trail's last step, at %s, is no assertion of the transformation at %s", last.Pos, cur.Location.Name())
	}
	cur.Assert, cur.Fail = a.action, a.kind
	b.sc.Steps = append(b.sc.Steps, *cur)
	b.sc.Fails = true
	return b.sc, nil
}

// scheduler reads a trail step by step.
type scheduler struct {
	m     *Map
	sc    *Schedule
	cur   *Step // the step under way, or nil
	trans *transMap
	depth int // active calls
	// frames: the values of the active calls' variables after the last
	// step (the thread's first); caller: a calling step's values at its
	// call statement
	frames [][]Value
	caller []Value
}

func (b *scheduler) step(st boolprog.Step) error {
	m := b.m
	pm := m.procs[st.Proc]
	if pm == nil {
		return fmt.Errorf("no procedure %s in the boolean program", st.Proc)
	}
	if l := pm.locs[st.Label]; st.Label != "" && l != nil {
		vals, err := m.values(pm, st)
		if err != nil {
			return err
		}
		vars := vals[len(m.globals):]
		if b.cur == nil {
			if len(b.frames) == 0 {
				// the thread's first location: its values before any step
				b.frames = append(b.frames, vars)
			}
			return nil
		}
		switch {
		case b.trans.call:
			if b.caller == nil {
				return fmt.Errorf("the call of the transformation at %s is not in the trail", b.cur.Location.Name())
			}
			b.frames[len(b.frames)-1] = b.caller
			b.frames = append(b.frames, nil)
		case b.trans.ret:
			if len(b.frames) < 2 {
				return fmt.Errorf("a return from the thread")
			}
			b.frames = b.frames[:len(b.frames)-1]
		}
		b.frames[len(b.frames)-1] = vars
		b.cur.To, b.cur.After = l, vals
		b.cur.Frames = append([][]Value(nil), b.frames...)
		b.sc.Steps = append(b.sc.Steps, *b.cur)
		b.cur, b.caller = nil, nil
		return nil
	}
	if st.Label != "" {
		tm := pm.trans[st.Label]
		if tm == nil {
			return fmt.Errorf("no label %s in %s", st.Label, st.Proc)
		}
		if b.cur != nil {
			return fmt.Errorf("%s starts before the transformation at %s ends", st.Label, b.cur.Location.Name())
		}
		if len(b.frames) == 0 {
			return fmt.Errorf("the trail does not start at the thread's first location")
		}
		b.cur = &Step{Proc: tm.proc, Location: tm.loc, Index: tm.index, Transformation: tm.decl, Depth: b.depth, Assert: -1}
		b.trans = tm
		switch {
		case tm.call:
			b.depth++
		case tm.ret:
			b.depth--
		}
	}
	if b.cur != nil && b.trans.call && b.caller == nil && m.calls[lineCol{st.Pos.Line, st.Pos.Column}] {
		vals, err := m.values(pm, st)
		if err != nil {
			return err
		}
		b.caller = vals[len(m.globals):]
	}
	return nil
}

// values reads the BIR values of a trail step of procedure pm: the
// globals, then pm's variables, in the BIR program's order.
func (m *Map) values(pm *procMap, st boolprog.Step) ([]Value, error) {
	ng, nv := nbits(m.globals), nbits(pm.vars)
	if len(st.Values) != ng+nv+pm.temps {
		return nil, fmt.Errorf("%d values, but %s has %d globals and variables", len(st.Values), st.Proc, ng+nv+pm.temps)
	}
	out := make([]Value, 0, len(m.globals)+len(pm.vars))
	for _, part := range []struct {
		slots []slot
		vals  []boolprog.Value
	}{{m.globals, st.Values[:ng]}, {pm.vars, st.Values[ng : ng+nv]}} {
		for _, sl := range part.slots {
			if sl.d == nil {
				out = append(out, Value{sl.v, types.ConstValue{Kind: types.BoolConst, Bool: part.vals[sl.bits[0]].Value}})
				continue
			}
			i := 0
			for j, k := range sl.bits {
				if part.vals[k].Value {
					i |= 1 << j
				}
			}
			if i >= len(sl.d.vals) {
				return nil, fmt.Errorf("the bits of %s hold no value of %s", sl.v.Name(), sl.v.Type())
			}
			out = append(out, Value{sl.v, types.ConstValue{Kind: types.IntConst, Int: sl.d.vals[i]}})
		}
	}
	return out, nil
}

func nbits(slots []slot) int {
	n := 0
	for _, sl := range slots {
		n += len(sl.bits)
	}
	return n
}

// describe is v's value as model.Describe writes it.
func (v Value) describe() string {
	if v.Value.Kind == types.BoolConst {
		return strconv.FormatBool(v.Value.Bool)
	}
	d, _ := domainOf(v.Var.Type())
	return d.format(v.Value.Int)
}

// Groups returns, for each step, the index of its transformation in
// mod.Groups(), mod being the BIR program compiled (model.New).
func (sc *Schedule) Groups(mod *model.Model) ([]int, error) {
	index := map[*ast.Transformation]int{}
	for _, g := range mod.Groups() {
		index[g.Decl] = g.Index
	}
	out := make([]int, len(sc.Steps))
	for i, st := range sc.Steps {
		g, ok := index[st.Transformation]
		if !ok {
			return nil, fmt.Errorf("step %d: the model has no transformation at %s", i+1, st.Location.Name())
		}
		out[i] = g
	}
	return out, nil
}

// Ordinals replays the schedule on mod, the BIR program compiled
// (model.New), and returns the ordinals of the outcomes it takes: a trail
// of the BIR model (search.Replay, verify.ReplayTrail and birch replay
// accept it). At each state it takes the outcome of the thread that runs
// the next transformations (several for an invisible run) and leads to the
// step's location and values, or, for the failing last step, that ends in
// the failure of its assertion. An error names the first step no outcome
// fits (a bound of the model: the call depth, an invisible run).
func (sc *Schedule) Ordinals(mod *model.Model) ([]int, error) {
	groups, err := sc.Groups(mod)
	if err != nil {
		return nil, err
	}
	state, fail := mod.Initial(nil)
	if fail != nil {
		return nil, fmt.Errorf("the initial state cannot be created: %s", fail.Msg)
	}
	var ords []int
	for i := 0; i < len(sc.Steps); {
		var next []byte
		found, took := -1, 0
		limit := ""
		mod.Next(state, func(st *model.Step) {
			if found >= 0 || st.Thread != 0 || len(st.Groups) > len(groups)-i {
				return
			}
			for k, g := range st.Groups {
				if int(g) != groups[i+k] {
					return
				}
			}
			last := sc.Steps[i+len(st.Groups)-1]
			if st.Outcome == model.Limit {
				limit = st.Msg
			}
			switch {
			case st.Outcome == model.OK && last.To != nil:
				if !sc.fits(mod, st.State, last) {
					return
				}
				next = append([]byte(nil), st.State...)
			case st.Outcome == model.Error && last.Fail != model.NoError && st.Kind == last.Fail:
				// an assertion at its position; a runtime error by its kind
				if st.Kind == model.Assertion && st.Pos != last.Transformation.Actions[last.Assert].Pos() {
					return
				}
			default:
				return
			}
			found, took = st.Ordinal, len(st.Groups)
		})
		if found < 0 && limit != "" {
			return ords, fmt.Errorf("step %d: a bound of the BIR model stops it: %s", i+1, limit)
		}
		if found < 0 {
			st := sc.Steps[i]
			return ords, fmt.Errorf("step %d: no outcome of the model takes the transformation %d of %s at %s to the trail's state", i+1, st.Index+1, st.Proc.Name(), st.Location.Name())
		}
		ords = append(ords, found)
		i += took
		state = next
	}
	return ords, nil
}

// fits reports whether state (of the model's one thread) is at st.To
// with st.After's globals and st.Frames' values, reading them from
// mod.Describe: globals by name, the variables of the thread as
// Main[1].x, those of the d-th active call of f as Main[1].f#d.x.
func (sc *Schedule) fits(mod *model.Model, state []byte, st Step) bool {
	thread := mod.ThreadName(state, 0)
	loc := st.To.Name()
	if len(st.Frames) > 1 {
		loc = st.To.Proc.Name() + "." + loc
	}
	vals := map[string]string{}
	for _, v := range mod.Describe(state) {
		vals[v.Name] = v.Value
	}
	if vals[thread+" @"] != loc {
		return false
	}
	for _, v := range st.After {
		if v.Var.Owner == nil && vals[v.Var.Name()] != v.describe() {
			return false
		}
	}
	for d, frame := range st.Frames {
		for _, v := range frame {
			name := thread + "." + v.Var.Name()
			if d > 0 {
				name = thread + "." + v.Var.Owner.Name() + "#" + strconv.Itoa(d) + "." + v.Var.Name()
			}
			if vals[name] != v.describe() {
				return false
			}
		}
	}
	return true
}

func isCall(t *ast.Transformation) bool {
	if n := len(t.Actions); n > 0 {
		_, ok := t.Actions[n-1].(*ast.CallAction)
		return ok
	}
	return false
}
