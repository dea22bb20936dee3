package refine

import (
	"fmt"
	"math"
	"strconv"

	"birch/internal/abstraction/data/feasible"
	"birch/internal/abstraction/smtops"
	"birch/internal/bir/ast"
	"birch/internal/bir/format"
	"birch/internal/bir/token"
	"birch/internal/bir/types"
	"birch/internal/model"
	"birch/internal/smt"
	"birch/internal/source"
)

// Kind says what a conjunct of a path formula requires.
type Kind int

// The kinds of conjuncts.
const (
	Guard     Kind = iota // the guard of the transformation holds
	Assume                // an assume(c) of the step holds
	Domain                // a choice takes a value of its domain
	Check                 // a runtime check passes (an assertion holds, no overflow, …)
	Violation             // the last step ends in the schedule's error
)

var kindNames = [...]string{"guard", "assume", "domain", "check", "violation"}

func (k Kind) String() string { return kindNames[k] }

// Conjunct is one gated constraint of a path formula: the solver's unsat
// core is a set of conjuncts.
type Conjunct struct {
	Step int  // the 1-based step of the schedule
	Kind Kind // what it requires
	// Term is the constraint over the path's SSA constants.
	Term *smt.Term
	Pos  source.Pos // the guard, action or expression it comes from
	Text string     // the BIR text it stands for, for messages
	lit  *smt.Term  // the activation literal: lit -> Term is asserted
}

// ssaVar is what a constant of the path formula stands for: a variable of
// the program (a global, or a local of one thread instance) at one
// version, or the value of one choice.
type ssaVar struct {
	v      *types.Var
	thread int // the thread instance (index in the pool) of a local; -1 for a global
	frame  int // the activation of a function's local (0: the thread's own)
	step   int // the 1-based step that defines it (0: the initial state)
	choice bool
	pos    source.Pos
}

// key names a variable of one activation of one thread instance (or a
// global).
type key struct {
	v      *types.Var
	thread int
	frame  int // 0: the thread's own variables; n: the nth call of the path
}

// threadState is one thread instance during the encoding.
type threadState struct {
	proc   *types.Proc
	loc    *types.Location // the location of the innermost activation
	done   bool
	frames []frame // the active calls, innermost last
}

// frame is an active call.
type frame struct {
	proc *types.Proc
	id   int
	ret  *types.Location // where the caller goes on when the call returns
	lhs  ast.Expr        // the caller's variable for the result, or nil
}

// top returns the thread or function the thread runs and its frame id.
func (th *threadState) top() (*types.Proc, int) {
	if n := len(th.frames); n > 0 {
		return th.frames[n-1].proc, th.frames[n-1].id
	}
	return th.proc, 0
}

// frameOf returns the innermost activation of p in the thread, or -1.
func (th *threadState) frameOf(p *types.Proc) int {
	for i := len(th.frames) - 1; i >= 0; i-- {
		if th.frames[i].proc == p {
			return th.frames[i].id
		}
	}
	if p == th.proc {
		return 0
	}
	return -1
}

// point is the state after a step: the term of every variable.
type point map[key]*smt.Term

// Path is the path formula of a schedule on a concrete program: static
// single assignment of every step's guard and actions, with the
// interleaving of the schedule. Build makes one; Decide decides it.
type Path struct {
	prog  *types.Program
	m     *model.Model
	sched feasible.Schedule
	tm    *smt.TermManager

	// Conjuncts are the gated constraints, in the order of the steps.
	Conjuncts []*Conjunct
	// defs are the ungated definitions: an SSA constant and its value
	defs    []def
	defOf   map[*smt.Term]*smt.Term
	vars    map[*smt.Term]*ssaVar
	choices []*smt.Term // the constants of the choices, in order
	points  []point     // points[j] is the state after step j (0: initial)
	threads [][]threadState
	// opaque records the BIR form of the terms the printer cannot read
	// back from their SMT form (truncating / and %)
	opaque map[*smt.Term]opaqueOp
	nconst int
	// facts are true of the path and not definitions: an object `new`
	// allocates differs from every reference before it, and its fields
	// hold their defaults
	facts []def // c is the fact, v nil
	// fields maps a field name to the variable that stands for its array
	// (one array per field name, indexed by references)
	fields map[string]*types.Var
	allocs []alloc
}

// alloc is an object the path allocates: its reference value and where
// the model keeps it (Describe's Collection[i]).
type alloc struct {
	ref   int64
	coll  *types.Collection
	index int
}

type def struct {
	c, v *smt.Term
	step int
}

type opaqueOp struct {
	op   token.Kind
	x, y *smt.Term
	// conv is the fixed-width type of a conversion T(x) (op and y unused)
	conv types.Type
}

// UnsupportedError says that the path formula cannot encode a construct
// of the model (the heap, locks, calls, arrays): no refinement is possible
// from this schedule.
type UnsupportedError struct {
	Pos source.Pos
	Msg string
}

func (e *UnsupportedError) Error() string { return e.Msg }

type unsupported struct {
	pos source.Pos
	msg string
}

// encoder builds a Path.
type encoder struct {
	*Path
	info *types.Info

	state   point
	threads []threadState
	cur     int // the thread of the step
	step    int // the 1-based step being encoded

	// the last step of an error schedule: the error it ends in, the
	// condition that no check has failed so far, and the condition that
	// the first check to fail is one of kind end
	last    bool
	end     model.ErrorKind
	okSoFar *smt.Term
	fail    *smt.Term
	// cond is the condition under which the expression being evaluated is
	// evaluated (the left operand of && or ||)
	cond *smt.Term
	// quiet discards requirements (the evaluation of predicates at points)
	quiet bool
	// locks holds the owner (a thread index, -1 when free) and count of
	// each global lock: the schedule alone decides them
	locks map[*types.Var]*lockState
	// calls counts the calls of the path (frame ids); called is the call
	// the transformation being encoded makes, if any
	calls  int
	called *frame
}

type lockState struct {
	owner, count int
	// unknown: a wait or a notify made the lock's state depend on choices
	// the schedule does not record (which waiting thread a notify wakes);
	// its tests are then unconstrained booleans, its actions constrain
	// nothing (a weaker formula: infeasible still means infeasible)
	unknown bool
}

func (x *encoder) unsupported(pos source.Pos, format string, args ...any) {
	panic(unsupported{pos, fmt.Sprintf(format, args...)})
}

// Build encodes the schedule sc of the concrete model m (compiled from a
// type-checked program, with model.Options.ChoiceValues when it has
// unbounded choices) as a path formula. Schedules ending in an error
// outcome (EndError, of kinds assertion, overflow, division-by-zero and
// range) and in an ordinary state (EndNone) are encoded; deadlocks and
// lassos are not. An error says the schedule does not fit m (a
// transformation another thread or location takes), or that the formula
// cannot encode a construct the path executes (*UnsupportedError).
func Build(m *model.Model, sc feasible.Schedule) (p *Path, err error) {
	prog := m.Program()
	p = &Path{
		prog: prog, m: m, sched: sc, tm: smt.NewTermManager(),
		defOf: map[*smt.Term]*smt.Term{}, vars: map[*smt.Term]*ssaVar{}, opaque: map[*smt.Term]opaqueOp{},
		fields: map[string]*types.Var{},
	}
	switch sc.End.Kind {
	case feasible.EndNone:
	case feasible.EndError:
		switch sc.End.Error {
		case model.Assertion, model.Overflow, model.DivisionByZero, model.RangeError, model.NullDereference, model.IndexOutOfBounds:
		default:
			return nil, &UnsupportedError{Msg: "the path formula does not encode a trail that ends in " + sc.End.Error.String()}
		}
		if len(sc.Steps) == 0 {
			return nil, &UnsupportedError{Msg: "an error in the initial state has no path to refine"}
		}
	default:
		return nil, &UnsupportedError{Msg: "the path formula encodes trails that end in an error, not deadlocks or lassos"}
	}
	x := &encoder{Path: p, info: prog.Info, state: point{}, end: sc.End.Error, locks: map[*types.Var]*lockState{}}
	defer func() {
		if r := recover(); r != nil {
			u, ok := r.(unsupported)
			if !ok {
				// panics never cross the package's boundary
				p, err = nil, fmt.Errorf("internal error in the path formula: %v", r)
				return
			}
			p, err = nil, &UnsupportedError{Pos: u.pos, Msg: u.msg}
		}
	}()
	for _, g := range prog.Globals {
		if _, ok := g.Type().Underlying().(*types.Lock); ok {
			x.locks[g] = &lockState{owner: -1}
			continue
		}
		x.define(key{g, -1, 0}, x.initial(g), g.Pos())
	}
	for _, c := range prog.Collections {
		rec, ok := c.Elem.Underlying().(*types.Record)
		if !ok {
			continue // arrays in the heap: a `new` of one is unsupported
		}
		for _, f := range rec.Fields {
			if _, ok := x.fields[f.Name()]; ok || !scalar(f.Type()) {
				continue
			}
			x.fields[f.Name()] = f
			x.define(key{f, -1, 0}, x.tm.ConstArray(x.arraySort(), x.asInt(x.initial(f))), f.Pos())
		}
	}
	for _, t := range prog.Threads {
		if t.Main {
			x.newThread(t, nil)
		}
	}
	x.snapshot()
	groups := m.Groups()
	tm := p.tm
	for i, st := range sc.Steps {
		x.step = i + 1
		x.last = i == len(sc.Steps)-1 && sc.End.Kind == feasible.EndError
		x.okSoFar, x.fail = tm.True(), tm.False()
		if st.Thread < 0 || st.Thread >= len(x.threads) || x.threads[st.Thread].done {
			return nil, fmt.Errorf("step %d: there is no thread %d", i+1, st.Thread+1)
		}
		x.cur = st.Thread
		for _, gi := range st.Groups {
			if gi < 0 || gi >= len(groups) {
				return nil, fmt.Errorf("step %d: no transformation %d in the model", i+1, gi)
			}
			g := groups[gi]
			th := &x.threads[x.cur]
			if proc, _ := th.top(); g.Proc != proc || g.From != th.loc {
				return nil, fmt.Errorf("step %d: %s is at %s of %s, the schedule leaves %s of %s", i+1, x.threadName(x.cur), th.loc.Name(), proc.Name(), g.From.Name(), g.Proc.Name())
			}
			x.called = nil
			x.cond = tm.True()
			guard := x.boolean(g.Decl.Guard)
			x.gate(Guard, x.implied(guard), g.Decl.Guard.Pos(), format.Expr(g.Decl.Guard))
			for _, a := range g.Decl.Actions {
				x.action(a)
				if x.threads[x.cur].done {
					break
				}
			}
			switch {
			case x.threads[x.cur].done:
			case g.Decl.Return:
				x.ret(g)
			case x.called != nil:
				x.called.ret = g.To
				x.arrive(x.cur, x.called.proc.Locations[0])
			default:
				x.arrive(x.cur, g.To)
			}
		}
		if x.last {
			x.gate(Violation, x.fail, source.NoPos, "the step ends in "+sc.End.Error.String())
		}
		x.snapshot()
	}
	return p, nil
}

// implied is c, or okSoFar -> c on the last step of an error schedule (a
// condition after a failed check is not evaluated).
func (x *encoder) implied(c *smt.Term) *smt.Term {
	if x.last {
		return x.tm.Implies(x.okSoFar, c)
	}
	return c
}

// gate adds a gated conjunct.
func (x *encoder) gate(k Kind, t *smt.Term, pos source.Pos, text string) {
	if x.quiet {
		return
	}
	c := &Conjunct{Step: x.step, Kind: k, Term: t, Pos: pos, Text: text}
	c.lit = x.tm.Const("gate!"+strconv.Itoa(len(x.Conjuncts)), smt.BoolSort)
	x.Conjuncts = append(x.Conjuncts, c)
}

func (x *encoder) snapshot() {
	pt := make(point, len(x.state))
	for k, v := range x.state {
		pt[k] = v
	}
	x.points = append(x.points, pt)
	ths := append([]threadState(nil), x.threads...)
	for i := range ths {
		ths[i].frames = append([]frame(nil), ths[i].frames...)
	}
	x.Path.threads = append(x.Path.threads, ths)
}

func (x *encoder) threadName(i int) string {
	return x.threads[i].proc.Name() + "[" + strconv.Itoa(i+1) + "]"
}

// newThread adds a thread instance with the given argument values.
func (x *encoder) newThread(p *types.Proc, args []*smt.Term) int {
	i := len(x.threads)
	x.threads = append(x.threads, threadState{proc: p, loc: p.Locations[0]})
	for _, v := range p.Vars() {
		x.define(key{v, i, 0}, x.initial(v), v.Pos())
	}
	for j, a := range args {
		if j < len(p.Params) {
			x.define(key{p.Params[j], i, 0}, a, p.Params[j].Pos())
		}
	}
	x.arrive(i, p.Locations[0])
	return i
}

// arrive moves thread i to loc and resets its dead variables, as the
// model does.
func (x *encoder) arrive(i int, loc *types.Location) {
	th := &x.threads[i]
	th.loc = loc
	if len(loc.Decl.Transformations) == 0 && len(th.frames) == 0 {
		th.done = true
	}
	_, f := th.top()
	for _, v := range loc.Dead() {
		x.define(key{v, i, f}, x.initial(v), v.Pos())
	}
}

// scalar reports whether t is a one-slot type of the formula: int, a
// range, boolean, an enum, a tid.
func scalar(t types.Type) bool {
	switch u := t.Underlying().(type) {
	case *types.Basic:
		return u.Kind == types.Int || u.Kind == types.Bool || u.Kind == types.Tid
	case *types.Range, *types.Enum, *types.Ref:
		return true
	}
	return false
}

// isArray reports whether t is an array type.
func isArray(t types.Type) bool {
	_, ok := t.Underlying().(*types.Array)
	return ok
}

// isRef reports whether t is a reference type.
func isRef(t types.Type) bool {
	_, ok := t.Underlying().(*types.Ref)
	return ok
}

func isBool(t types.Type) bool { return types.IsBoolean(t) }

func (x *encoder) initial(v *types.Var) *smt.Term {
	t := v.Type()
	if a, ok := t.Underlying().(*types.Array); ok && scalar(a.Elem) {
		// every element holds its type's default
		return x.tm.ConstArray(x.arraySort(), x.asInt(x.initialOf(a.Elem, types.ConstValue{})))
	}
	if !scalar(t) {
		x.unsupported(v.Pos(), "variable %s of type %s (the path formula encodes int, range, boolean and enum data)", v.Name(), t)
	}
	return x.initialOf(t, v.Init)
}

// initialOf is the initial value of a scalar of type t: init, or the
// type's default.
func (x *encoder) initialOf(t types.Type, init types.ConstValue) *smt.Term {
	if isBool(t) {
		return x.tm.Bool(init.Kind == types.BoolConst && init.Bool)
	}
	d := int64(0)
	switch u := t.Underlying().(type) {
	case *types.Range:
		if u.Lo > 0 || u.Hi < 0 {
			d = u.Lo
		}
	case *types.Enum:
		if len(u.Consts) > 0 {
			d = u.Consts[0].Ordinal
		}
	}
	if init.Kind == types.IntConst {
		d = init.Int
	}
	return x.tm.Int(d)
}

// fresh makes a new SSA constant for k.
func (x *encoder) fresh(k key, choice bool, pos source.Pos) *smt.Term {
	name := k.v.Name()
	if k.thread >= 0 {
		name = x.threadName(k.thread) + "." + name
	}
	x.nconst++
	sort := smt.IntSort
	switch {
	case k.v.Kind == types.FieldVar:
		name, sort = "field!"+name, x.arraySort()
	case isArray(k.v.Type()):
		sort = x.arraySort()
	case isBool(k.v.Type()):
		sort = smt.BoolSort
	}
	c := x.tm.Const(name+"#"+strconv.Itoa(x.nconst), sort)
	x.vars[c] = &ssaVar{v: k.v, thread: k.thread, frame: k.frame, step: x.step, choice: choice, pos: pos}
	x.state[k] = c
	return c
}

// arraySort is the sort of a field's array: from references to values
// (booleans as 0 and 1).
func (x *encoder) arraySort() *smt.Sort { return x.tm.ArraySort(smt.IntSort, smt.IntSort) }

// asInt is a boolean term as 0 or 1, any other term as it is.
func (x *encoder) asInt(t *smt.Term) *smt.Term {
	if t.IsBool() {
		return x.tm.Ite(t, x.tm.Int(1), x.tm.Int(0))
	}
	return t
}

// define gives k a new version equal to val.
func (x *encoder) define(k key, val *smt.Term, pos source.Pos) {
	c := x.fresh(k, false, pos)
	x.defs = append(x.defs, def{c, val, x.step})
	x.defOf[c] = val
}

// lookup returns the key of the variable id names.
func (x *encoder) lookup(id *ast.Ident) key {
	v, _ := x.info.Uses[id].(*types.Var)
	if v == nil {
		x.unsupported(id.Pos(), "identifier %s", id.Name)
	}
	if v.Kind == types.GlobalVar {
		return key{v, -1, 0}
	}
	f := -1
	if x.cur >= 0 {
		f = x.threads[x.cur].frameOf(v.Owner)
	}
	k := key{v, x.cur, f}
	if _, ok := x.state[k]; !ok {
		x.unsupported(id.Pos(), "variable %s outside its thread", id.Name)
	}
	return k
}

// require adds a condition the step needs in order not to fail with an
// error of kind k.
func (x *encoder) require(k model.ErrorKind, c *smt.Term, pos source.Pos, text string) {
	if x.quiet {
		return
	}
	tm := x.tm
	c = tm.Implies(x.cond, c)
	if x.last {
		if k == x.end {
			x.fail = tm.Or(x.fail, tm.And(x.okSoFar, tm.Not(c)))
		}
		x.okSoFar = tm.And(x.okSoFar, c)
		return
	}
	x.gate(Check, c, pos, text)
}

// store writes v to the variable lhs, checking a range type's bounds.
func (x *encoder) store(lhs ast.Expr, v *smt.Term) {
	for {
		p, ok := lhs.(*ast.ParenExpr)
		if !ok {
			break
		}
		lhs = p.X
	}
	if sel, ok := lhs.(*ast.SelectorExpr); ok {
		x.storeField(sel, v)
		return
	}
	if ix, ok := lhs.(*ast.IndexExpr); ok {
		x.storeElem(ix, v)
		return
	}
	id, ok := lhs.(*ast.Ident)
	if !ok {
		x.unsupported(lhs.Pos(), "assignment to %s (the path formula encodes variables and fields, not arrays)", format.Expr(lhs))
	}
	k := x.lookup(id)
	v = x.checkRange(k.v.Type(), v, lhs, id.Name)
	x.define(k, v, lhs.Pos())
}

// field returns the key of the array of the field sel reads and the
// reference it reads it through, which must not be null.
func (x *encoder) field(sel *ast.SelectorExpr) (key, *smt.Term) {
	f, _ := x.info.Uses[sel.Sel].(*types.Var)
	if f == nil || x.fields[f.Name()] == nil {
		x.unsupported(sel.Pos(), "field %s (the path formula encodes scalar fields of records in collections)", format.Expr(sel))
	}
	ref := x.value(sel.X)
	x.require(model.NullDereference, x.tm.Not(x.tm.Eq(ref, x.tm.Int(0))), sel.X.Pos(), format.Expr(sel.X)+" != null")
	return key{x.fields[f.Name()], -1, 0}, ref
}

// element returns the key of the array a[i] indexes, the index, which
// must be in bounds, and the element type.
func (x *encoder) element(ix *ast.IndexExpr) (key, *smt.Term, types.Type) {
	id, ok := ix.X.(*ast.Ident)
	if !ok {
		x.unsupported(ix.Pos(), "element of %s (the path formula encodes arrays held by variables)", format.Expr(ix.X))
	}
	k := x.lookup(id)
	a, ok := k.v.Type().Underlying().(*types.Array)
	if !ok || !scalar(a.Elem) {
		x.unsupported(ix.Pos(), "element of %s", format.Expr(ix.X))
	}
	i := x.value(ix.Index)
	tm := x.tm
	x.require(model.IndexOutOfBounds, tm.And(tm.Le(tm.Int(0), i), tm.Lt(i, tm.Int(a.Len))), ix.Index.Pos(), fmt.Sprintf("%s in 0..%d", format.Expr(ix.Index), a.Len-1))
	return k, i, a.Elem
}

// storeElem writes v to a[i]: a new version of a.
func (x *encoder) storeElem(ix *ast.IndexExpr, v *smt.Term) {
	k, i, elem := x.element(ix)
	v = x.checkRange(elem, v, ix, format.Expr(ix))
	x.define(k, x.tm.Store(x.state[k], i, x.asInt(v)), ix.Pos())
}

// readField is the value of p.f.
func (x *encoder) readField(sel *ast.SelectorExpr) *smt.Term {
	k, ref := x.field(sel)
	return x.tm.Select(x.state[k], ref)
}

// storeField writes v to p.f: a new version of f's array.
func (x *encoder) storeField(sel *ast.SelectorExpr, v *smt.Term) {
	k, ref := x.field(sel)
	f, _ := x.info.Uses[sel.Sel].(*types.Var)
	v = x.checkRange(f.Type(), v, sel, format.Expr(sel))
	x.define(k, x.tm.Store(x.state[k], ref, x.asInt(v)), sel.Pos())
}

// newObject allocates an object of a collection: a reference that no
// reference of the state before holds, whose fields hold their defaults.
func (x *encoder) newObject(a *ast.NewAction) {
	c, _ := x.info.Uses[a.Collection].(*types.Collection)
	if c == nil || a.Len != nil {
		x.unsupported(a.Pos(), "new of an array (the path formula encodes records)")
	}
	if _, ok := c.Elem.Underlying().(*types.Record); !ok {
		x.unsupported(a.Pos(), "new of %s", c.Name())
	}
	n := 0
	for _, al := range x.allocs {
		if al.coll == c {
			n++
		}
	}
	if int64(n) >= c.Size {
		x.unsupported(a.Pos(), "more objects than collection %s holds", c.Name())
	}
	tm := x.tm
	ref := int64(len(x.allocs) + 1)
	x.allocs = append(x.allocs, alloc{ref: ref, coll: c, index: n})
	r := tm.Int(ref)
	if !x.quiet {
		for k, t := range x.state {
			switch {
			case k.v.Kind == types.FieldVar:
				x.facts = append(x.facts, def{c: tm.Eq(tm.Select(t, r), x.asInt(x.initial(k.v))), step: x.step})
			case isRef(k.v.Type()):
				x.facts = append(x.facts, def{c: tm.Not(tm.Eq(t, r)), step: x.step})
			}
		}
	}
	x.store(a.Lhs, r)
}

func (x *encoder) action(a ast.Action) {
	tm := x.tm
	x.cond = tm.True()
	switch a := a.(type) {
	case *ast.AssignAction:
		if t := x.info.TypeOf(a.Lhs); t != nil && isBool(t) {
			x.store(a.Lhs, x.boolean(a.Rhs))
		} else {
			x.store(a.Lhs, x.value(a.Rhs))
		}
	case *ast.ChooseAction:
		x.choose(a)
	case *ast.AssertAction:
		x.require(model.Assertion, x.boolean(a.Cond), a.Pos(), "assert("+format.Expr(a.Cond)+")")
	case *ast.AssumeAction:
		x.gate(Assume, x.implied(x.boolean(a.Cond)), a.Pos(), "assume("+format.Expr(a.Cond)+")")
	case *ast.StartAction:
		p, _ := x.info.Uses[a.Thread].(*types.Proc)
		if p == nil {
			x.unsupported(a.Pos(), "start of an unknown thread")
		}
		var args []*smt.Term
		for _, e := range a.Args {
			args = append(args, x.value(e))
		}
		cur := x.cur
		i := x.newThread(p, args)
		x.cur = cur
		if a.Lhs != nil {
			x.store(a.Lhs, tm.Int(int64(i+1)))
		}
	case *ast.LockAction:
		x.lockAction(a)
	case *ast.NewAction:
		x.newObject(a)
	case *ast.CallAction:
		x.call(a)
	case *ast.PrintAction:
	case *ast.ExitAction:
		x.threads[x.cur].done = true
	default:
		x.unsupported(a.Pos(), "action %s (the path formula encodes assignments, choices, assert, assume, start, println and exit)", actionName(a))
	}
}

// call enters a function: a new activation whose parameters are defined
// by the arguments and whose locals hold their initial values; the
// caller's goto target is where the return resumes.
func (x *encoder) call(a *ast.CallAction) {
	f, _ := x.info.Uses[a.Func].(*types.Proc)
	if f == nil {
		x.unsupported(a.Pos(), "call of an unknown function")
	}
	var args []*smt.Term
	for i, e := range a.Args {
		if i < len(f.Params) && isBool(f.Params[i].Type()) {
			args = append(args, x.boolean(e))
		} else {
			args = append(args, x.value(e))
		}
	}
	x.calls++
	th := &x.threads[x.cur]
	th.frames = append(th.frames, frame{proc: f, id: x.calls, lhs: a.Lhs})
	x.called = &th.frames[len(th.frames)-1]
	for _, v := range f.Vars() {
		x.define(key{v, x.cur, x.calls}, x.initial(v), v.Pos())
	}
	for i, v := range args {
		if i < len(f.Params) {
			k := key{f.Params[i], x.cur, x.calls}
			v = x.checkRange(f.Params[i].Type(), v, a.Args[i], f.Params[i].Name())
			x.define(k, v, a.Args[i].Pos())
		}
	}
}

// ret returns from the innermost call: the result, evaluated in the
// callee, is stored in the caller's variable, the callee's variables go,
// and the caller goes on at the call's goto target.
func (x *encoder) ret(g model.Group) {
	th := &x.threads[x.cur]
	if len(th.frames) == 0 {
		x.unsupported(g.Decl.Pos(), "a return outside a call")
	}
	fr := th.frames[len(th.frames)-1]
	var res *smt.Term
	if e := g.Decl.Result; e != nil {
		if t := x.info.TypeOf(e); t != nil && isBool(t) {
			res = x.boolean(e)
		} else {
			res = x.value(e)
		}
		if _, _, ok := smtops.Width(fr.proc.Result); ok {
			res = x.convert(res, fr.proc.Result) // a fixed-width result wraps
		}
	}
	th.frames = th.frames[:len(th.frames)-1]
	for k := range x.state {
		if k.thread == x.cur && k.frame == fr.id {
			delete(x.state, k)
		}
	}
	if fr.lhs != nil && res != nil {
		x.cond = x.tm.True()
		x.store(fr.lhs, res)
	}
	x.arrive(x.cur, fr.ret)
}

// checkRange returns the value v stored into a location of type t (a
// variable, element, field or parameter named name): a store into a
// range requires v within its bounds; a store into a fixed-width type
// wraps v (its conversion, never an error).
func (x *encoder) checkRange(t types.Type, v *smt.Term, e ast.Expr, name string) *smt.Term {
	if _, _, ok := smtops.Width(t); ok {
		return x.convert(v, t)
	}
	if r, ok := t.Underlying().(*types.Range); ok {
		tm := x.tm
		x.require(model.RangeError, tm.And(tm.Le(tm.Int(r.Lo), v), tm.Le(v, tm.Int(r.Hi))), e.Pos(), fmt.Sprintf("%s in %d..%d", name, r.Lo, r.Hi))
	}
	return v
}

// convert is v reduced into the fixed-width type t. Its mod term is
// recorded for the printer, which writes it as the conversion (plus
// 2^(N-1) for a signed type: smtops.Wrap).
func (x *encoder) convert(v *smt.Term, t types.Type) *smt.Term {
	w := smtops.WrapTo(x.tm, v, t)
	m := w
	if m.Op() != smt.OpMod {
		for _, a := range w.Args() {
			if a.Op() == smt.OpMod {
				m = a
			}
		}
	}
	if m.Op() == smt.OpMod {
		x.opaque[m] = opaqueOp{conv: t, x: v}
	}
	return w
}

// lock finds the global lock an expression names.
func (x *encoder) lock(e ast.Expr) (*types.Var, *lockState) {
	if id, ok := e.(*ast.Ident); ok {
		if v, ok := x.info.Uses[id].(*types.Var); ok && x.locks[v] != nil {
			return v, x.locks[v]
		}
	}
	x.unsupported(e.Pos(), "lock %s (the path formula follows global locks)", format.Expr(e))
	return nil, nil
}

// lockAction follows lock and unlock: who holds a lock depends on the
// schedule only. A lock another thread holds makes the step impossible;
// an unlock by a thread that does not hold the lock fails it.
func (x *encoder) lockAction(a *ast.LockAction) {
	v, l := x.lock(a.Lock)
	if l.unknown {
		return
	}
	switch a.Op {
	case token.LOCK:
		if l.owner >= 0 && l.owner != x.cur {
			x.gate(Guard, x.tm.False(), a.Pos(), "lock("+v.Name()+"), held by "+x.threadName(l.owner))
			return
		}
		l.owner = x.cur
		l.count++
	case token.UNLOCK:
		if l.owner != x.cur {
			x.gate(Check, x.tm.False(), a.Pos(), "unlock("+v.Name()+") by a thread that does not hold it")
			return
		}
		if l.count--; l.count == 0 {
			l.owner = -1
		}
	default: // wait, unwait, notify, notifyAll
		l.unknown = true
	}
}

// unknownBool is an unconstrained boolean: a test the path formula does
// not decide.
func (x *encoder) unknownBool() *smt.Term {
	x.nconst++
	return x.tm.Const("unknown!"+strconv.Itoa(x.nconst), smt.BoolSort)
}

func actionName(a ast.Action) string {
	switch a.(type) {
	case *ast.ForallAction:
		return "forall"
	case *ast.ReachableAction:
		return "reachable"
	}
	return fmt.Sprintf("%T", a)
}

// choose encodes a choice: a fresh constant in its domain.
func (x *encoder) choose(a *ast.ChooseAction) {
	tm := x.tm
	var k key
	var typ types.Type // the type of the location chosen into
	whole := false     // a variable (not a field or an element)
	switch lhs := a.Lhs.(type) {
	case *ast.SelectorExpr:
		f, _ := x.info.Uses[lhs.Sel].(*types.Var)
		if f == nil {
			x.unsupported(lhs.Pos(), "field %s", format.Expr(lhs))
		}
		k, typ = key{f, -1, 0}, f.Type()
	case *ast.IndexExpr:
		typ = x.info.TypeOf(lhs)
		if typ == nil || !scalar(typ) {
			x.unsupported(lhs.Pos(), "a choice into %s", format.Expr(lhs))
		}
		if id, ok := lhs.X.(*ast.Ident); ok {
			k = x.lookup(id)
		} else {
			x.unsupported(lhs.Pos(), "a choice into %s", format.Expr(lhs))
		}
	case *ast.Ident:
		k = x.lookup(lhs)
		typ, whole = k.v.Type(), true
	default:
		x.unsupported(a.Lhs.Pos(), "a choice into %s", format.Expr(a.Lhs))
	}
	// the choice's constant: the variable's new version, or for a field
	// or an element a constant of its own that the store writes
	mk := func() *smt.Term {
		if whole {
			return x.fresh(k, true, a.KwPos)
		}
		x.nconst++
		sort := smt.IntSort
		if isBool(typ) {
			sort = smt.BoolSort
		}
		c := tm.Const("choice!"+strconv.Itoa(x.nconst), sort)
		x.vars[c] = &ssaVar{v: k.v, thread: -2, step: x.step, choice: true, pos: a.KwPos}
		return c
	}
	var c, dom *smt.Term
	switch {
	case a.Values != nil:
		var vals []*smt.Term
		for _, v := range a.Values {
			if isBool(typ) {
				// b := internChoose(true, false): a boolean among
				// boolean values
				vals = append(vals, x.boolean(v))
			} else {
				vals = append(vals, x.value(v))
			}
		}
		c = mk()
		var alts []*smt.Term
		for _, v := range vals {
			alts = append(alts, tm.Eq(c, v))
		}
		dom = tm.Or(alts...)
	case a.Type != nil:
		t := x.info.TypeExprs[a.Type]
		if lo, hi, ok := types.IntegerBounds(t); ok {
			c = mk()
			dom = tm.And(tm.Le(tm.Int(lo), c), tm.Le(c, tm.Int(hi)))
		} else if t != nil && isBool(t) {
			c, dom = mk(), tm.True()
		} else if e, ok := t.Underlying().(*types.Enum); ok {
			c = mk()
			var alts []*smt.Term
			for _, ec := range e.Consts {
				alts = append(alts, tm.Eq(c, tm.Int(ec.Ordinal)))
			}
			dom = tm.Or(alts...)
		} else {
			x.unsupported(a.Pos(), "a choice of type %s", t)
		}
	default:
		lo, hi := x.value(a.Lo), x.value(a.Hi)
		c = mk()
		dom = tm.And(tm.Le(lo, c), tm.Le(c, hi))
	}
	x.choices = append(x.choices, c)
	if !isBool(typ) && dom.Op() != smt.OpTrue {
		x.gate(Domain, dom, a.Pos(), format.Expr(a.Lhs)+" := "+choiceText(a))
	}
	if !whole {
		x.store(a.Lhs, c) // the store checks a range type
		return
	}
	if _, _, wraps := smtops.Width(typ); wraps {
		// a value chosen wraps into the variable: its new version is the
		// conversion of the choice, unless the choice's type is within
		lo, hi, ok := types.IntegerBounds(x.info.TypeExprs[a.Type])
		if r := typ.Underlying().(*types.Range); a.Type == nil || !ok || lo < r.Lo || hi > r.Hi {
			x.define(k, x.convert(c, typ), a.Lhs.Pos())
		}
		return
	}
	if r, ok := typ.Underlying().(*types.Range); ok && a.Type == nil {
		x.require(model.RangeError, tm.And(tm.Le(tm.Int(r.Lo), c), tm.Le(c, tm.Int(r.Hi))), a.Pos(), fmt.Sprintf("%s in %d..%d", format.Expr(a.Lhs), r.Lo, r.Hi))
	}
}

func choiceText(a *ast.ChooseAction) string {
	kw := "internChoose"
	if a.Extern {
		kw = "externChoose"
	}
	switch {
	case a.Type != nil:
		return kw + "(" + format.TypeExpr(a.Type) + ")"
	case a.Values != nil:
		s := kw + "("
		for i, v := range a.Values {
			if i > 0 {
				s += ", "
			}
			s += format.Expr(v)
		}
		return s + ")"
	}
	return kw + "(" + format.Expr(a.Lo) + " .. " + format.Expr(a.Hi) + ")"
}

// noOverflow requires v, an operation's result on int, to be an int,
// unless the operation is inside a conversion's operand (it wraps).
func (x *encoder) noOverflow(v *smt.Term, e ast.Expr) *smt.Term {
	if x.info.Types[e].Wraps {
		return v
	}
	tm := x.tm
	x.require(model.Overflow, tm.And(tm.Le(tm.Int(math.MinInt64), v), tm.Le(v, tm.Int(math.MaxInt64))), e.Pos(), format.Expr(e)+" does not overflow")
	return v
}

// value evaluates an integer or enum (its ordinal) expression.
func (x *encoder) value(e ast.Expr) *smt.Term {
	tm := x.tm
	tv := x.info.Types[e]
	switch tv.Value.Kind {
	case types.IntConst:
		return tm.Int(tv.Value.Int)
	case types.BoolConst:
		x.unsupported(e.Pos(), "a boolean used as a number")
	}
	if tv.Type != nil && isBool(tv.Type) {
		x.unsupported(e.Pos(), "a boolean used as a number")
	}
	if b, ok := tv.Type.(*types.Basic); ok && b.Kind == types.UntypedNull {
		return tm.Int(0)
	}
	switch e := e.(type) {
	case *ast.ParenExpr:
		return x.value(e.X)
	case *ast.SelectorExpr:
		return x.readField(e)
	case *ast.IndexExpr:
		k, i, _ := x.element(e)
		return tm.Select(x.state[k], i)
	case *ast.Ident:
		if c, ok := x.info.Uses[e].(*types.EnumConst); ok {
			return tm.Int(c.Ordinal)
		}
		return x.state[x.lookup(e)]
	case *ast.UnaryExpr:
		switch e.Op {
		case token.SUB:
			return x.noOverflow(tm.Neg(x.value(e.X)), e)
		case token.ADD:
			return x.value(e.X)
		case token.TILDE:
			return smtops.Complement(tm, x.value(e.X))
		}
	case *ast.BinaryExpr:
		a, b := x.value(e.X), x.value(e.Y)
		if v := smtops.Arith(tm, e.Op, a, b); v != nil {
			if e.Op == token.QUO || e.Op == token.REM {
				x.require(model.DivisionByZero, tm.Not(tm.Eq(b, tm.Int(0))), e.Y.Pos(), format.Expr(e.Y)+" != 0")
				x.opaque[v] = opaqueOp{op: e.Op, x: a, y: b}
			}
			if e.Op == token.REM {
				return v // MinInt64 % -1 is 0 in BIR
			}
			return x.noOverflow(v, e)
		}
		// a shift by a constant, a mask of low or high bits; the others
		// (and a shift count the formula would have to check) are not
		// linear
		if v := smtops.Bitwise(tm, e.Op, a, b); v != nil {
			return v
		}
	case *ast.ConvExpr:
		// + - * inside compute modulo 2^64 (no overflow check); the
		// exact value reduced modulo 2^N is their result
		return x.convert(x.value(e.X), tv.Type)
	}
	x.unsupported(e.Pos(), "expression %s", format.Expr(e))
	return nil
}

// boolean evaluates a boolean expression to a formula.
func (x *encoder) boolean(e ast.Expr) *smt.Term {
	tm := x.tm
	if tv := x.info.Types[e]; tv.Value.Kind == types.BoolConst {
		return tm.Bool(tv.Value.Bool)
	}
	switch e := e.(type) {
	case *ast.ParenExpr:
		return x.boolean(e.X)
	case *ast.SelectorExpr:
		return tm.Eq(x.readField(e), tm.Int(1))
	case *ast.IndexExpr:
		k, i, _ := x.element(e)
		return tm.Eq(tm.Select(x.state[k], i), tm.Int(1))
	case *ast.Ident:
		if _, ok := x.info.Uses[e].(*types.Var); ok {
			return x.state[x.lookup(e)]
		}
	case *ast.UnaryExpr:
		if e.Op == token.NOT {
			return tm.Not(x.boolean(e.X))
		}
	case *ast.BuiltinExpr:
		return x.builtin(e)
	case *ast.BinaryExpr:
		switch e.Op {
		case token.LAND, token.LOR:
			// the right operand is evaluated only when the left one
			// does not decide: its checks are conditional
			a := x.boolean(e.X)
			saved := x.cond
			if e.Op == token.LAND {
				x.cond = tm.And(x.cond, a)
			} else {
				x.cond = tm.And(x.cond, tm.Not(a))
			}
			b := x.boolean(e.Y)
			x.cond = saved
			if e.Op == token.LAND {
				return tm.And(a, b)
			}
			return tm.Or(a, b)
		case token.ARROW:
			a := x.boolean(e.X)
			saved := x.cond
			x.cond = tm.And(x.cond, a)
			b := x.boolean(e.Y)
			x.cond = saved
			return tm.Implies(a, b)
		case token.EQL, token.NEQ:
			if t := x.info.TypeOf(e.X); t != nil && isBool(t) {
				c := tm.Eq(x.boolean(e.X), x.boolean(e.Y))
				if e.Op == token.NEQ {
					c = tm.Not(c)
				}
				return c
			}
		}
		if c := smtops.Compare(tm, e.Op, x.value(e.X), x.value(e.Y)); c != nil {
			return c
		}
	}
	x.unsupported(e.Pos(), "condition %s", format.Expr(e))
	return nil
}

// builtin evaluates a lock or thread test: the schedule decides it.
func (x *encoder) builtin(e *ast.BuiltinExpr) *smt.Term {
	tm := x.tm
	switch e.Op {
	case token.LOCKAVAILABLE:
		_, l := x.lock(e.X)
		if l.unknown {
			return x.unknownBool()
		}
		return tm.Bool(l.owner < 0 || l.owner == x.cur)
	case token.HASLOCK:
		_, l := x.lock(e.X)
		if l.unknown {
			return x.unknownBool()
		}
		return tm.Bool(l.owner == x.cur)
	case token.WASNOTIFIED:
		x.lock(e.X)
		return x.unknownBool()
	case token.THREADTERMINATED:
		if n, ok := x.constant(x.value(e.X)); ok && n >= 1 && int(n) <= len(x.threads) {
			return tm.Bool(x.threads[n-1].done)
		}
	}
	x.unsupported(e.Pos(), "%s (the path formula decides lockAvailable, hasLock, wasNotified and threadTerminated of a known thread)", format.Expr(e))
	return nil
}

// constant returns the value of a term that definitions make a literal.
func (x *encoder) constant(t *smt.Term) (int64, bool) {
	for t.Op() == smt.OpVar {
		v, ok := x.defOf[t]
		if !ok {
			return 0, false
		}
		t = v
	}
	return t.Int64()
}
