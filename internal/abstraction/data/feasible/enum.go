package feasible

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	"birch/internal/model"
	"birch/internal/search"
)

// enumerator replays a schedule on the concrete model by depth-first
// search over the outcomes that fit each step.
type enumerator struct {
	m      *model.Model
	sm     search.Model
	sc     Schedule
	cfg    Config
	groups []model.Group

	nodes     int
	exhausted bool
	seen      map[string]bool
	path      []int
	states    [][]byte // the states along path: states[0] is the initial one
	found     []int

	best      *Divergence
	bestDepth int
	bestPath  []int
}

type candidate struct {
	st    model.Step
	agree bool
}

func newEnumerator(m *model.Model, sc Schedule, cfg Config) *enumerator {
	e := &enumerator{m: m, sm: cfg.Checked, sc: sc, cfg: cfg, groups: m.Groups(), seen: map[string]bool{}, bestDepth: -1}
	if e.sm == nil {
		e.sm = m
	}
	return e
}

func (e *enumerator) run() *Result {
	res := &Result{Method: "concrete"}
	init, fail := e.sm.Initial(nil)
	if fail != nil {
		if len(e.sc.Steps) == 0 && e.sc.End.Kind == EndError && fail.Kind == e.sc.End.Error {
			res.Confirmed, res.Trail = true, []int{}
			return res
		}
		res.Diverge = &Divergence{Step: 0, Pos: fail.Pos, Reason: "the initial state of the concrete model cannot be created: " + fail.Kind.String() + ": " + fail.Msg}
		return res
	}
	e.states = append(e.states[:0], init)
	ok := e.dfs(init, 0)
	res.Nodes = e.nodes
	if ok {
		res.Confirmed = true
		res.Trail = e.found
		res.ValuesDiverge = e.valuesDiverge(e.found)
		return res
	}
	res.Diverge = e.best
	res.ValuesDiverge = e.valuesDiverge(e.bestPath)
	if e.exhausted {
		res.Incomplete = true
		res.Note = fmt.Sprintf("the concrete replay stopped after %d (state, step) pairs", e.nodes)
	}
	return res
}

// dfs looks for a continuation of the schedule from its step i in state.
func (e *enumerator) dfs(state []byte, i int) bool {
	if i == len(e.sc.Steps) {
		return e.endOK(state, i)
	}
	key := strconv.Itoa(i) + ":" + string(state)
	if e.sc.End.Kind == EndLasso && i > e.sc.End.CycleStart {
		// whether the cycle closes depends on the state it started in
		key += ":" + string(e.states[e.sc.End.CycleStart])
	}
	if e.seen[key] {
		return false
	}
	if e.nodes >= e.cfg.MaxNodes {
		e.exhausted = true
		return false
	}
	e.seen[key] = true
	e.nodes++
	step := e.sc.Steps[i]
	last := i == len(e.sc.Steps)-1
	wantErr := last && e.sc.End.Kind == EndError

	var cands []candidate
	var near []model.Step // same thread and first transformation, other continuation
	e.sm.Next(state, func(st *model.Step) {
		if st.Thread != step.Thread || len(st.Groups) == 0 || int(st.Groups[0]) != step.Groups[0] {
			return
		}
		if len(cands)+len(near)+e.nodes >= e.cfg.MaxNodes {
			e.exhausted = true
			return
		}
		c := *st
		c.Groups = append([]int32(nil), st.Groups...)
		c.State = append([]byte(nil), st.State...)
		if !sameGroups(c.Groups, step.Groups) {
			near = append(near, c)
			return
		}
		cands = append(cands, candidate{st: c})
	})

	if e.exhausted {
		return false
	}
	if wantErr {
		var other []model.Step
		for _, c := range cands {
			if c.st.Outcome != model.OK && (c.st.Kind == e.sc.End.Error || e.cfg.AnyError && c.st.Outcome == model.Error) {
				e.found = append(append([]int(nil), e.path...), c.st.Ordinal)
				return true
			}
			other = append(other, c.st)
		}
		why := e.noErrorReason(other, near)
		if why == "" {
			// the failing step is not enabled at all
			why = e.blockedReason(state, step)
		}
		e.diverge(state, i, why)
		return false
	}

	if e.cfg.Agree != nil && step.Abstract != nil {
		for k := range cands {
			if cands[k].st.Outcome == model.OK {
				cands[k].agree = e.cfg.Agree(step.Abstract, cands[k].st.State) == ""
			}
		}
		sort.SliceStable(cands, func(a, b int) bool { return cands[a].agree && !cands[b].agree })
	}
	any := false
	var failed []model.Step
	for _, c := range cands {
		if c.st.Outcome != model.OK {
			if e.cfg.AnyError && c.st.Outcome == model.Error {
				// a real error on the way (Config.AnyError)
				e.found = append(append([]int(nil), e.path...), c.st.Ordinal)
				return true
			}
			failed = append(failed, c.st)
			continue
		}
		any = true
		e.path = append(e.path, c.st.Ordinal)
		e.states = append(e.states, c.st.State)
		ok := e.dfs(c.st.State, i+1)
		e.path = e.path[:len(e.path)-1]
		e.states = e.states[:len(e.states)-1]
		if ok {
			return true
		}
		if e.exhausted {
			return false
		}
	}
	if !any {
		var why string
		switch {
		case len(failed) > 0:
			why = "the step fails on the concrete model: " + failed[0].Kind.String() + ": " + failed[0].Msg
		case len(near) > 0:
			why = e.nearReason(near[0])
		default:
			why = e.blockedReason(state, step)
		}
		e.diverge(state, i, why)
	}
	return false
}

// endOK checks the end of the schedule in state (reached after i steps).
func (e *enumerator) endOK(state []byte, i int) bool {
	switch e.sc.End.Kind {
	case EndDeadlock:
		n, done := e.sm.Next(state, func(*model.Step) {})
		if n == 0 && !done {
			e.found = append([]int(nil), e.path...)
			return true
		}
		why := "every thread has terminated: not a deadlock"
		if n > 0 {
			var movers []string
			for _, t := range e.m.Threads(state, false) {
				if !t.Done {
					movers = append(movers, t.Name)
				}
			}
			why = "not a deadlock on the concrete model: " + strconv.Itoa(n) + " steps are possible (threads " + strings.Join(movers, ", ") + ")"
		}
		e.divergeAt(state, i+1, -1, "", why)
		return false
	case EndLasso:
		return e.lassoOK(state, i)
	case EndError:
		// only an empty schedule ends here: the error is the initial
		// state's, which run handles
		e.divergeAt(state, i+1, -1, "", "the concrete model has no "+e.sc.End.Error.String()+" here")
		return false
	}
	e.found = append([]int(nil), e.path...)
	return true
}

// lassoOK checks the end of a lasso schedule in state (reached after i
// steps): the cycle closes, or the last state is final for a stutter, and
// Config.Accept accepts the concrete lasso.
func (e *enumerator) lassoOK(state []byte, i int) bool {
	cs := e.sc.End.CycleStart
	if cs >= i {
		n, _ := e.sm.Next(state, func(*model.Step) {})
		if n > 0 {
			var movers []string
			for _, t := range e.m.Threads(state, false) {
				if !t.Done {
					movers = append(movers, t.Name)
				}
			}
			e.divergeAt(state, i+1, -1, "", "the last state is not final on the concrete model: "+strconv.Itoa(n)+" steps are possible (threads "+strings.Join(movers, ", ")+"), so it does not repeat forever")
			return false
		}
	} else if start := e.states[cs]; string(start) != string(state) {
		from := "the initial state"
		if cs > 0 {
			from = "the state after step " + strconv.Itoa(cs)
		}
		why := "the cycle does not close on the concrete model: the state after step " + strconv.Itoa(i) + " is not " + from
		if d := e.stateDiff(start, state); d != "" {
			why += " (" + d + ")"
		}
		e.divergeAt(state, i+1, -1, "", why)
		return false
	}
	if e.cfg.Accept != nil {
		if why := e.cfg.Accept(e.states, e.path); why != "" {
			e.divergeAt(state, i+1, -1, "", why)
			return false
		}
	}
	e.found = append([]int(nil), e.path...)
	return true
}

// stateDiff names the first values that differ between two states: "x =
// 3, was 2".
func (e *enumerator) stateDiff(was, now []byte) string {
	old := map[string]string{}
	for _, v := range e.m.Describe(was) {
		old[v.Name] = v.Value
	}
	var parts []string
	for _, v := range e.m.Describe(now) {
		if o, ok := old[v.Name]; ok && o != v.Value {
			parts = append(parts, v.Name+" = "+v.Value+", was "+o)
		}
		if len(parts) == 3 {
			parts = append(parts, "…")
			break
		}
	}
	return strings.Join(parts, "; ")
}

// diverge records that step i (0-based) cannot be followed from state.
func (e *enumerator) diverge(state []byte, i int, why string) {
	st := e.sc.Steps[i]
	e.divergeAt(state, i+1, st.Thread, e.groupPos(st.Groups[0]), why)
}

func (e *enumerator) divergeAt(state []byte, step, thread int, _ string, why string) {
	if step-1 <= e.bestDepth {
		return
	}
	d := &Divergence{Step: step, Reason: why}
	if thread >= 0 {
		ths := e.m.Threads(state, false)
		if thread < len(ths) {
			d.Thread, d.Location = ths[thread].Name, ths[thread].Location
		} else {
			d.Thread = "thread#" + strconv.Itoa(thread+1)
		}
		if st := e.sc.Steps[step-1]; len(st.Groups) > 0 {
			d.Pos = e.groups[st.Groups[0]].Decl.Pos()
		}
	}
	e.best, e.bestDepth = d, step-1
	e.bestPath = append([]int(nil), e.path...)
}

func (e *enumerator) groupPos(g int) string {
	return e.m.Program().Fset.Position(e.groups[g].Decl.Pos()).String()
}

// blockedReason says why the first transformation of step cannot be taken
// in state.
func (e *enumerator) blockedReason(state []byte, step Step) string {
	ths := e.m.Threads(state, true)
	if step.Thread >= len(ths) {
		return "there is no thread number " + strconv.Itoa(step.Thread+1)
	}
	th := ths[step.Thread]
	if th.Done {
		return "the thread has terminated"
	}
	g := e.groups[step.Groups[0]]
	from := g.From.Name()
	if !g.Proc.Thread {
		from = g.Proc.Name() + "." + from
	}
	if th.Location != from {
		return "the thread is at " + th.Location + ", the abstract trail leaves " + from
	}
	prefix := e.groupPos(step.Groups[0]) + ": "
	for _, w := range th.Waits {
		if strings.HasPrefix(w, prefix) {
			return strings.TrimPrefix(w, prefix)
		}
	}
	return "the transformation is not enabled"
}

// nearReason explains a step whose invisible run goes on differently.
func (e *enumerator) nearReason(st model.Step) string {
	var parts []string
	for _, g := range st.Groups {
		gr := e.groups[g]
		to := "return"
		if gr.To != nil {
			to = gr.To.Name()
		}
		parts = append(parts, gr.From.Name()+" -> "+to)
	}
	return "the invisible run goes on differently on the concrete model: " + strings.Join(parts, ", ")
}

// noErrorReason explains a last step that does not end in the expected
// error.
func (e *enumerator) noErrorReason(got, near []model.Step) string {
	want := e.sc.End.Error.String()
	for _, st := range got {
		if st.Outcome != model.OK {
			return "the step fails with " + st.Kind.String() + " (" + st.Msg + ") on the concrete model, not " + want
		}
	}
	if len(got) > 0 {
		if e.sc.End.Error == model.Assertion {
			return "the assertion holds on the concrete model"
		}
		if e.sc.End.Error == model.InvariantViolated {
			return "the invariant holds in the concrete state"
		}
		return "the step does not fail on the concrete model (no " + want + ")"
	}
	if len(near) > 0 {
		return e.nearReason(near[0])
	}
	return ""
}

// valuesDiverge finds the first step of the trail ords at which the
// concrete values stop agreeing with the abstract ones.
func (e *enumerator) valuesDiverge(ords []int) *Divergence {
	if e.cfg.Agree == nil || len(ords) == 0 {
		return nil
	}
	before, steps, err := search.Replay(e.sm, ords)
	if err != nil {
		return nil
	}
	for i, ts := range steps {
		if i > 0 {
			before = steps[i-1].After
		}
		if i >= len(e.sc.Steps) || ts.After == nil || e.sc.Steps[i].Abstract == nil {
			continue
		}
		if why := e.cfg.Agree(e.sc.Steps[i].Abstract, ts.After); why != "" {
			d := &Divergence{Step: i + 1, Reason: why, Pos: e.groups[e.sc.Steps[i].Groups[0]].Decl.Pos()}
			d.Thread = e.m.ThreadName(ts.After, ts.Step.Thread)
			// the location before the step, as for Divergence
			for _, t := range e.m.Threads(before, false) {
				if t.Name == d.Thread {
					d.Location = t.Location
				}
			}
			return d
		}
	}
	return nil
}

func sameGroups(a []int32, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if int(a[i]) != b[i] {
			return false
		}
	}
	return true
}
