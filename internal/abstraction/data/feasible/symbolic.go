package feasible

import (
	"context"
	"fmt"
	"math"
	"strconv"

	"birch/internal/abstraction/smtops"
	"birch/internal/bir/ast"
	"birch/internal/bir/format"
	"birch/internal/bir/token"
	"birch/internal/bir/types"
	"birch/internal/model"
	"birch/internal/search"
	"birch/internal/smt"
	"birch/internal/smt/solvers"
	"birch/internal/source"
)

// The symbolic replay executes the schedule over terms: every value a
// choice action (externChoose, internChoose) produces is a fresh integer
// unknown, and each step adds to the path condition what the concrete model
// needs to take it: the guard, the assumptions, the choice's domain,
// range checks and non-zero divisors; the last step adds the violation
// (a false assertion, or every guard false for a deadlock). The solver's
// model gives the choices; the concrete trail is then found by replaying
// the schedule on the model and keeping, at each step, the outcome whose
// state has the predicted values.
//
// It handles the data most abstracted models compute with: integers,
// ranges, booleans, enums and arrays of them indexed by constants, in
// globals and in the locals of main threads, and the actions :=, choose,
// assert, assume, println and exit. Anything else (the heap, locks,
// functions, started threads) makes it give up, and the result of the
// concrete replay stands.

type unsupported struct{ what string }

type sthread struct {
	proc *types.Proc
	loc  *types.Location
	vars map[*types.Var][]*smt.Term
	done bool
}

type symExec struct {
	m    *model.Model
	info *types.Info
	tm   *smt.TermManager

	globals map[*types.Var][]*smt.Term
	threads []*sthread
	cur     *sthread
	nchoice int

	path []*smt.Term // constraints of the current step
	// for the last step of an error schedule: the error it ends in, the
	// condition that no check failed so far in the step, and the
	// condition that the first to fail is one of kind end
	lastStep bool
	end      model.ErrorKind
	okSoFar  *smt.Term
	fail     *smt.Term

	choices []choiceTerm // every choice of the schedule, in order
	step    int          // the index of the step executed
}

// choiceTerm is the unknown of one choice action.
type choiceTerm struct {
	step int
	pos  source.Pos
	t    *smt.Term
}

func (x *symExec) fail0(format string, args ...any) {
	panic(unsupported{fmt.Sprintf(format, args...)})
}

// symbolicEnds are the errors a schedule may end in for the symbolic
// replay: those whose condition it encodes.
var symbolicEnds = map[model.ErrorKind]bool{model.Assertion: true, model.Overflow: true, model.DivisionByZero: true, model.RangeError: true}

// replaySymbolic solves sc on m; why (with res nil) says what it does not
// handle.
func replaySymbolic(m *model.Model, sc Schedule, cfg Config) (res *Result, why string) {
	defer func() {
		// unsupported constructs end the symbolic replay; so does any
		// other failure, which leaves the concrete replay's answer
		if r := recover(); r != nil {
			res, why = nil, "the symbolic replay failed"
			if u, ok := r.(unsupported); ok {
				why = "the symbolic replay does not handle " + u.what
			}
		}
	}()
	switch sc.End.Kind {
	case EndError:
		if !symbolicEnds[sc.End.Error] && (sc.End.Error != model.InvariantViolated || len(cfg.Invariants) == 0) {
			return nil, "the symbolic replay does not handle a trail that ends in " + sc.End.Error.String()
		}
	case EndDeadlock:
	default:
		return nil, "the symbolic replay does not handle lassos"
	}
	prog := m.Program()
	tm := smt.NewTermManager()
	name := cfg.Solver
	if name == "" {
		name = solvers.Default
	}
	ctx := cfg.Context
	if ctx == nil {
		ctx = context.Background()
	}
	solver, err := solvers.NewContext(ctx, name, tm)
	if err != nil {
		return nil, "solver " + name + ": " + err.Error()
	}
	defer solver.Close()
	solver.SetLimit(smt.Limit{Steps: 200000})

	x := &symExec{m: m, info: prog.Info, tm: tm, globals: map[*types.Var][]*smt.Term{}, end: sc.End.Error}
	for _, g := range prog.Globals {
		x.globals[g] = x.initial(g)
	}
	for _, p := range prog.Threads {
		if p.Started {
			x.fail0("started threads")
		}
		if !p.Main {
			continue
		}
		th := &sthread{proc: p, loc: p.Locations[0], vars: map[*types.Var][]*smt.Term{}}
		for _, v := range p.Vars() {
			th.vars[v] = x.initial(v)
		}
		x.threads = append(x.threads, th)
	}
	for _, th := range x.threads {
		x.arrive(th, th.loc)
	}

	groups := m.Groups()
	res = &Result{Method: "symbolic"}
	var predicted []map[string]namedSlot
	for i, st := range sc.Steps {
		if st.Thread >= len(x.threads) || x.threads[st.Thread].done {
			res.Diverge = &Divergence{Step: i + 1, Reason: "there is no such thread"}
			return res, ""
		}
		x.step = i
		th := x.threads[st.Thread]
		x.cur = th
		from := th.loc
		x.lastStep = i == len(sc.Steps)-1 && sc.End.Kind == EndError
		x.okSoFar, x.fail = tm.True(), tm.False()
		for k, gi := range st.Groups {
			g := groups[gi]
			if !g.Proc.Thread || g.Proc != th.proc || g.From != th.loc {
				res.Diverge = x.divergence(i, th, g, "the thread is at "+th.loc.Name()+", the abstract trail leaves "+g.From.Name())
				return res, ""
			}
			x.path = x.path[:0]
			guard := x.boolean(g.Decl.Guard)
			if x.lastStep {
				// the last step may fail in its guard: it need not hold
				// then (x.fail is the guard's failure of the end's kind)
				guard = tm.Or(guard, x.fail)
			}
			solver.Push()
			solver.Assert(guard)
			r, _ := solver.Check()
			solver.Pop(1)
			if r == smt.Unsat {
				why := "guard " + format.Expr(g.Decl.Guard) + " is false for every choice of the concrete model"
				if k > 0 {
					why = "the invisible run cannot go on: " + why
				}
				res.Diverge = x.divergence(i, th, g, why)
				return res, ""
			}
			solver.Assert(guard)
			for _, a := range g.Decl.Actions {
				x.action(a)
				if th.done {
					break
				}
			}
			if g.Decl.Return {
				x.fail0("return")
			}
			if !th.done {
				x.arrive(th, g.To)
			}
			for _, c := range x.path {
				solver.Assert(c)
			}
		}
		if len(cfg.Invariants) > 0 {
			// the state after the step is checked: the invariants hold
			// there, or are what the schedule ends in
			x.cur, x.path = th, x.path[:0]
			last := x.lastStep
			x.lastStep = false
			var invs []*smt.Term
			for _, e := range cfg.Invariants {
				invs = append(invs, x.boolean(e))
			}
			x.lastStep = last
			for _, c := range x.path {
				solver.Assert(c)
			}
			switch {
			case last && x.end == model.InvariantViolated:
				x.fail = tm.And(x.okSoFar, tm.Not(tm.And(invs...)))
			case !last:
				solver.Assert(tm.And(invs...))
			}
		}
		if x.lastStep {
			solver.Assert(x.fail)
		}
		r, err := solver.Check()
		if err != nil || r == smt.Unknown {
			res.Incomplete, res.Note = true, "the solver could not decide the path condition"
			return res, ""
		}
		if r == smt.Unsat {
			why := "the step cannot be taken for any choice of the concrete model"
			switch {
			case x.lastStep && x.end == model.Assertion:
				why = "the assertion holds on the concrete model for every choice"
			case x.lastStep && x.end == model.InvariantViolated:
				why = "the invariants hold on the concrete model after the step for every choice"
			case x.lastStep:
				why = "the step raises no " + x.end.String() + " error on the concrete model for any choice"
			}
			th.loc = from
			res.Diverge = x.divergence(i, th, groups[st.Groups[0]], why)
			return res, ""
		}
		predicted = append(predicted, x.snapshot())
	}
	if sc.End.Kind == EndDeadlock {
		var stuck []*smt.Term
		alive := false
		for _, th := range x.threads {
			if th.done || len(th.loc.Decl.Transformations) == 0 {
				continue
			}
			alive = true
			x.cur = th
			for _, t := range th.loc.Decl.Transformations {
				x.path = x.path[:0]
				stuck = append(stuck, tm.Not(x.boolean(t.Guard)))
			}
		}
		if !alive {
			res.Diverge = &Divergence{Step: len(sc.Steps) + 1, Reason: "every thread has terminated: not a deadlock"}
			return res, ""
		}
		solver.Assert(tm.And(stuck...))
		r, err := solver.Check()
		if err != nil || r == smt.Unknown {
			res.Incomplete, res.Note = true, "the solver could not decide the path condition"
			return res, ""
		}
		if r == smt.Unsat {
			res.Diverge = &Divergence{Step: len(sc.Steps) + 1, Reason: "not a deadlock on the concrete model: some thread can always move"}
			return res, ""
		}
	}
	mdl, err := solver.Model()
	if err != nil {
		res.Incomplete, res.Note = true, "the solver gave no model"
		return res, ""
	}
	for _, c := range x.choices {
		v, err := mdl.Eval(c.t)
		n, ok := v.Int64()
		if err != nil || !ok {
			res.Incomplete, res.Note = true, "the solver gave no value to a choice"
			return res, ""
		}
		res.Choices = append(res.Choices, Choice{Step: c.step + 1, Pos: c.pos, Value: n})
	}
	if cfg.Given != nil {
		var vals []int64
		for _, c := range res.Choices {
			vals = append(vals, c.Value)
		}
		var err error
		if m, cfg.Checked, err = cfg.Given(vals); err != nil {
			res.Incomplete, res.Note = true, "the concrete model with the values found: "+err.Error()
			return res, ""
		}
	}
	trail, ok := guided(m, cfg, sc, predicted, mdl)
	if !ok {
		res.Incomplete, res.Note = true, "the symbolic replay's solution does not replay on the concrete model"
		return res, ""
	}
	res.Confirmed, res.Trail = true, trail
	return res, ""
}

func (x *symExec) divergence(i int, th *sthread, g model.Group, why string) *Divergence {
	return &Divergence{Step: i + 1, Thread: th.proc.Name() + "[" + strconv.Itoa(x.tid(th)) + "]", Location: th.loc.Name(), Pos: g.Decl.Pos(), Reason: why}
}

func (x *symExec) tid(th *sthread) int {
	for i, t := range x.threads {
		if t == th {
			return i + 1
		}
	}
	return 0
}

// scalar reports whether t is a one-slot type the replay handles.
func scalar(t types.Type) bool {
	switch u := t.Underlying().(type) {
	case *types.Basic:
		return u.Kind == types.Int || u.Kind == types.Bool
	case *types.Range, *types.Enum:
		return true
	}
	return false
}

// slots returns the number of scalar slots of t (1, or the length of an
// array of scalars).
func (x *symExec) slots(t types.Type) (int, types.Type) {
	if scalar(t) {
		return 1, t
	}
	if a, ok := t.Underlying().(*types.Array); ok && scalar(a.Elem) {
		return int(a.Len), a.Elem
	}
	x.fail0("a variable of type %s", t)
	return 0, nil
}

func defaultOf(t types.Type) int64 {
	switch u := t.Underlying().(type) {
	case *types.Range:
		if u.Lo <= 0 && 0 <= u.Hi {
			return 0
		}
		return u.Lo
	case *types.Enum:
		if len(u.Consts) > 0 {
			return u.Consts[0].Ordinal
		}
	}
	return 0
}

func (x *symExec) initial(v *types.Var) []*smt.Term {
	n, elem := x.slots(v.Type())
	out := make([]*smt.Term, n)
	for i := range out {
		d := defaultOf(elem)
		if n == 1 {
			switch v.Init.Kind {
			case types.IntConst:
				d = v.Init.Int
			case types.BoolConst:
				if v.Init.Bool {
					d = 1
				}
			}
		}
		out[i] = x.tm.Int(d)
	}
	return out
}

// arrive moves th to loc and resets its dead variables.
func (x *symExec) arrive(th *sthread, loc *types.Location) {
	th.loc = loc
	if len(loc.Decl.Transformations) == 0 {
		th.done = true
	}
	if !loc.HasLive {
		return
	}
	live := map[*types.Var]bool{}
	for _, v := range loc.Live {
		live[v] = true
	}
	for _, v := range th.proc.Vars() {
		if !live[v] {
			th.vars[v] = x.initial(v)
		}
	}
}

// variable returns the slots of the variable id names.
func (x *symExec) variable(id *ast.Ident) ([]*smt.Term, *types.Var) {
	v, _ := x.info.Uses[id].(*types.Var)
	if v == nil {
		x.fail0("identifier %s", id.Name)
	}
	if v.Kind == types.GlobalVar {
		return x.globals[v], v
	}
	if s, ok := x.cur.vars[v]; ok {
		return s, v
	}
	x.fail0("variable %s", id.Name)
	return nil, nil
}

// place returns the slot an lvalue denotes.
func (x *symExec) place(e ast.Expr) (slots []*smt.Term, i int, t types.Type) {
	switch e := e.(type) {
	case *ast.Ident:
		s, v := x.variable(e)
		if !scalar(v.Type()) {
			x.fail0("assignment of a whole array")
		}
		return s, 0, v.Type()
	case *ast.ParenExpr:
		return x.place(e.X)
	case *ast.IndexExpr:
		id, ok := e.X.(*ast.Ident)
		if !ok {
			x.fail0("index of %s", format.Expr(e.X))
		}
		s, v := x.variable(id)
		tv := x.info.Types[e.Index]
		if tv.Value.Kind != types.IntConst {
			x.fail0("an index that is not a constant")
		}
		k := tv.Value.Int
		if k < 0 || k >= int64(len(s)) {
			x.fail0("an index out of bounds")
		}
		return s, int(k), v.Type().Underlying().(*types.Array).Elem
	}
	x.fail0("assignment to %s", format.Expr(e))
	return nil, 0, nil
}

// store writes v to the lvalue e, requiring it to fit a range type, or
// wrapping it into a fixed-width type.
func (x *symExec) store(e ast.Expr, v *smt.Term) {
	slots, i, t := x.place(e)
	slots[i] = x.stored(t, v)
}

// stored is the value a store of v into a location of type t leaves
// there: v, required to fit a range type; v reduced into a fixed-width
// type (never an error), and then required to be representable (a uint64
// value from 2^63 on is a limit of the concrete model, which the trail
// must not reach).
func (x *symExec) stored(t types.Type, v *smt.Term) *smt.Term {
	tm := x.tm
	r, ok := t.Underlying().(*types.Range)
	switch {
	case !ok:
		return v
	case r.Wrap:
		return x.representable(r, smtops.WrapTo(tm, v, t))
	}
	x.require(model.RangeError, tm.And(tm.Le(tm.Int(r.Lo), v), tm.Le(v, tm.Int(r.Hi))))
	return v
}

// representable requires v, a value reduced into the fixed-width type r,
// to be one birch holds: below 2^63 for uint64 (a larger one is a limit
// of the concrete model, which the trail must not reach).
func (x *symExec) representable(r *types.Range, v *smt.Term) *smt.Term {
	if r.Unsigned() && r.Bits >= 64 {
		x.path = append(x.path, x.tm.Le(v, x.tm.Int(r.Hi)))
	}
	return v
}

// require adds a condition the step needs not to fail with an error of
// kind k. On the last step of an error schedule, its failure is the
// schedule's end when it is the first check to fail and k is the end's
// kind.
func (x *symExec) require(k model.ErrorKind, c *smt.Term) {
	if x.lastStep {
		if k == x.end {
			x.fail = x.tm.Or(x.fail, x.tm.And(x.okSoFar, x.tm.Not(c)))
		}
		x.okSoFar = x.tm.And(x.okSoFar, c)
		return
	}
	x.path = append(x.path, c)
}

// noOverflow requires v, the result of the operation e on int, to be an
// int: BIR's arithmetic raises overflow otherwise (but inside a
// conversion's operand, where it wraps).
func (x *symExec) noOverflow(e ast.Expr, v *smt.Term) *smt.Term {
	if x.info.Types[e].Wraps {
		return v
	}
	tm := x.tm
	x.require(model.Overflow, tm.And(tm.Le(tm.Int(math.MinInt64), v), tm.Le(v, tm.Int(math.MaxInt64))))
	return v
}

func (x *symExec) action(a ast.Action) {
	tm := x.tm
	switch a := a.(type) {
	case *ast.AssignAction:
		x.store(a.Lhs, x.value(a.Rhs))
	case *ast.ChooseAction:
		c := tm.Const("choice!"+strconv.Itoa(x.nchoice), smt.IntSort)
		x.nchoice++
		x.choices = append(x.choices, choiceTerm{step: x.step, pos: a.KwPos, t: c})
		if a.Values != nil {
			var alts []*smt.Term
			for _, v := range a.Values {
				alts = append(alts, tm.Eq(c, x.value(v)))
			}
			x.path = append(x.path, tm.Or(alts...))
		} else {
			x.path = append(x.path, tm.Le(x.value(a.Lo), c), tm.Le(c, x.value(a.Hi)))
		}
		x.store(a.Lhs, c)
	case *ast.AssertAction:
		x.require(model.Assertion, x.boolean(a.Cond))
	case *ast.AssumeAction:
		c := x.boolean(a.Cond)
		if x.lastStep {
			// on the last step of an error schedule an assumption
			// constrains only the failures that come after it: an error
			// before it ends the step whatever it says
			x.okSoFar = x.tm.And(x.okSoFar, c)
			return
		}
		x.path = append(x.path, c)
	case *ast.PrintAction:
	case *ast.ExitAction:
		x.cur.done = true
	default:
		x.fail0("action %T", a)
	}
}

// value evaluates an integer, boolean (0/1) or enum (ordinal) expression.
func (x *symExec) value(e ast.Expr) *smt.Term {
	tm := x.tm
	if tv := x.info.Types[e]; tv.Value.Kind == types.IntConst {
		return tm.Int(tv.Value.Int)
	} else if tv.Value.Kind == types.BoolConst {
		return tm.Int(b2i(tv.Value.Bool))
	}
	if t := x.info.TypeOf(e); t != nil {
		if b, ok := t.Underlying().(*types.Basic); ok && b.Kind == types.Bool {
			return tm.Ite(x.boolean(e), tm.Int(1), tm.Int(0))
		}
	}
	switch e := e.(type) {
	case *ast.ParenExpr:
		return x.value(e.X)
	case *ast.Ident:
		if c, ok := x.info.Uses[e].(*types.EnumConst); ok {
			return tm.Int(c.Ordinal)
		}
		s, v := x.variable(e)
		if !scalar(v.Type()) {
			x.fail0("an array value")
		}
		return s[0]
	case *ast.IndexExpr:
		s, i, _ := x.place(e)
		return s[i]
	case *ast.UnaryExpr:
		switch e.Op {
		case token.SUB:
			return x.noOverflow(e, tm.Neg(x.value(e.X)))
		case token.ADD:
			return x.value(e.X)
		case token.TILDE:
			return smtops.Complement(tm, x.value(e.X))
		}
	case *ast.BinaryExpr:
		a, b := x.value(e.X), x.value(e.Y)
		if v := smtops.Arith(tm, e.Op, a, b); v != nil {
			if e.Op == token.QUO || e.Op == token.REM {
				x.require(model.DivisionByZero, tm.Not(tm.Eq(b, tm.Int(0))))
			}
			if e.Op == token.REM {
				return v // MinInt64 % -1 is 0 in BIR
			}
			return x.noOverflow(e, v)
		}
		// the linear forms only (a shift by a constant, a mask of low or
		// high bits)
		if v := smtops.Bitwise(tm, e.Op, a, b); v != nil {
			return v
		}
	case *ast.ConvExpr:
		// + - * inside compute modulo 2^64: reduced exactly; a uint64
		// result from 2^63 on is a limit the trail must not reach
		v := smtops.WrapTo(tm, x.value(e.X), x.info.TypeOf(e))
		if r, ok := x.info.TypeOf(e).Underlying().(*types.Range); ok {
			return x.representable(r, v)
		}
		return v
	}
	x.fail0("expression %s", format.Expr(e))
	return nil
}

// boolean evaluates a boolean expression to a formula.
func (x *symExec) boolean(e ast.Expr) *smt.Term {
	tm := x.tm
	if tv := x.info.Types[e]; tv.Value.Kind == types.BoolConst {
		return tm.Bool(tv.Value.Bool)
	}
	switch e := e.(type) {
	case *ast.ParenExpr:
		return x.boolean(e.X)
	case *ast.Ident, *ast.IndexExpr:
		s, i := x.scalarSlot(e)
		return tm.Eq(s[i], tm.Int(1))
	case *ast.UnaryExpr:
		if e.Op == token.NOT {
			return tm.Not(x.boolean(e.X))
		}
	case *ast.BinaryExpr:
		switch e.Op {
		case token.LAND:
			// the right operand is evaluated only when the left holds:
			// its requirements (divisors) are conditional
			a := x.boolean(e.X)
			mark := len(x.path)
			b := x.boolean(e.Y)
			x.conditional(mark, a)
			return tm.And(a, b)
		case token.LOR:
			a := x.boolean(e.X)
			mark := len(x.path)
			b := x.boolean(e.Y)
			x.conditional(mark, tm.Not(a))
			return tm.Or(a, b)
		}
		if c := smtops.Compare(tm, e.Op, x.value(e.X), x.value(e.Y)); c != nil {
			return c
		}
	}
	x.fail0("condition %s", format.Expr(e))
	return nil
}

// conditional makes the requirements added since mark hold only under c.
func (x *symExec) conditional(mark int, c *smt.Term) {
	for i := mark; i < len(x.path); i++ {
		x.path[i] = x.tm.Implies(c, x.path[i])
	}
}

func (x *symExec) scalarSlot(e ast.Expr) ([]*smt.Term, int) {
	if id, ok := e.(*ast.Ident); ok {
		s, v := x.variable(id)
		if !scalar(v.Type()) {
			x.fail0("an array value")
		}
		return s, 0
	}
	s, i, _ := x.place(e)
	return s, i
}

func b2i(b bool) int64 {
	if b {
		return 1
	}
	return 0
}

// namedSlot is a predicted value: its term and how to print it.
type namedSlot struct {
	t   *smt.Term
	typ types.Type
}

// snapshot names every slot as model.Describe does.
func (x *symExec) snapshot() map[string]namedSlot {
	out := map[string]namedSlot{}
	add := func(name string, v *types.Var, s []*smt.Term) {
		if scalar(v.Type()) {
			out[name] = namedSlot{s[0], v.Type()}
			return
		}
		elem := v.Type().Underlying().(*types.Array).Elem
		for i, t := range s {
			out[name+"["+strconv.Itoa(i)+"]"] = namedSlot{t, elem}
		}
	}
	for g, s := range x.globals {
		add(g.Name(), g, s)
	}
	for j, th := range x.threads {
		prefix := th.proc.Name() + "[" + strconv.Itoa(j+1) + "]."
		for v, s := range th.vars {
			add(prefix+v.Name(), v, s)
		}
	}
	return out
}

// guided replays the schedule on the concrete model, keeping at each step
// the outcome whose state has the values the solver's model predicts.
func guided(m *model.Model, cfg Config, sc Schedule, predicted []map[string]namedSlot, mdl *smt.Model) ([]int, bool) {
	var sm search.Model = m
	if cfg.Checked != nil {
		sm = cfg.Checked
	}
	state, fail := sm.Initial(nil)
	if fail != nil {
		return nil, false
	}
	var trail []int
	for i, st := range sc.Steps {
		last := i == len(sc.Steps)-1 && sc.End.Kind == EndError
		var next []byte
		found := -1
		sm.Next(state, func(o *model.Step) {
			if found >= 0 || o.Thread != st.Thread || !sameGroups(o.Groups, st.Groups) {
				return
			}
			if last {
				if o.Outcome != model.OK && o.Kind == sc.End.Error && matches(m, mdl, predicted[i], nil, true) {
					found = o.Ordinal
				}
				return
			}
			if o.Outcome == model.OK && matches(m, mdl, predicted[i], o.State, false) {
				found = o.Ordinal
				next = append([]byte(nil), o.State...)
			}
		})
		if found < 0 {
			return nil, false
		}
		trail = append(trail, found)
		if last {
			return trail, true
		}
		state = next
	}
	if sc.End.Kind == EndDeadlock {
		n, done := sm.Next(state, func(*model.Step) {})
		if n != 0 || done {
			return nil, false
		}
	}
	return trail, true
}

// matches compares the predicted values with those of state.
func matches(m *model.Model, mdl *smt.Model, pred map[string]namedSlot, state []byte, skip bool) bool {
	if skip {
		return true
	}
	for _, v := range m.Describe(state) {
		p, ok := pred[v.Name]
		if !ok {
			continue
		}
		val, err := mdl.Eval(p.t)
		if err != nil {
			return false
		}
		n, ok := val.Int64()
		if !ok {
			return false
		}
		if v.Value != formatSlot(p.typ, n) {
			return false
		}
	}
	return true
}

// formatSlot prints a slot value as model.Describe does.
func formatSlot(t types.Type, n int64) string {
	switch u := t.Underlying().(type) {
	case *types.Basic:
		if u.Kind == types.Bool {
			return strconv.FormatBool(n != 0)
		}
	case *types.Enum:
		for _, c := range u.Consts {
			if c.Ordinal == n {
				return c.Name()
			}
		}
	}
	return strconv.FormatInt(n, 10)
}
