package apf

import (
	"context"
	"slices"
	"strconv"

	"birch/internal/bir/ast"
	"birch/internal/bir/format"
	"birch/internal/bir/types"
	"birch/internal/model"
	"birch/internal/smt"
	"birch/internal/smt/solvers"
	"birch/internal/source"
)

// Config configures a Runtime; its zero value works.
type Config struct {
	Solver string          // a name for solvers.New; "" is solvers.Default
	Ctx    context.Context // stops the solver's queries; nil never stops
}

// Stats counts the runtime's work.
type Stats struct {
	Steps     int // runs of transformations the runtime ended (End)
	Queries   int // questions sent to the solver
	CacheHits int // questions answered by the query cache (or by simplification)
	Unknowns  int // questions the solver could not decide (taken as not proved)
	// GuardUnknowns counts guards whose value was unknown: the
	// transformation was taken with the guard as a path fact.
	GuardUnknowns int
	// Branches counts choices the runtime made: a possible runtime error
	// taken both ways, a concrete location given one of the values
	// abstracted data may have.
	Branches int
	Limits   int // steps stopped at something the runtime cannot do soundly
}

// ctxKind is the context of a predicate.
type ctxKind uint8

const (
	ctxGlobal ctxKind = iota
	ctxThread
	ctxFunction
	ctxRecord
)

// predDesc is one predicate of the predicate file, as the runtime uses it.
type predDesc struct {
	expr   ast.Expr
	ctx    ctxKind
	proc   *types.Proc  // ctxThread, ctxFunction
	record *types.Named // ctxRecord
	hidden *types.Var   // the hidden variable that holds its value
	this   *types.Var   // ctxRecord: the variable `this` stands for
}

// instID names a predicate instance: a predicate in one context.
type instID struct {
	pred          int
	thread, depth int32
	ref           int64
}

// inst is a predicate instance in one state.
type inst struct {
	id   instID
	slot int       // its hidden variable's slot
	term *smt.Term // its formula; nil: undefined there
	val  tri       // the value its hidden variable holds
	deps *deps     // what term was read from (the pre-state's instances)
}

// roleKind says what an expression the model hands to Value is.
type roleKind uint8

const (
	roleOther  roleKind = iota
	roleGuard           // a transformation's guard
	roleArg             // an argument of a call or start
	roleResult          // the result of a return
)

type role struct {
	kind roleKind
	typ  types.Type // roleArg: the parameter's type; roleResult: the function's result type
	what string     // "the result of f", "parameter n", as the model's range error says
}

// Runtime is the on-the-fly predicate abstraction of one program: the code
// the model (model.Options.Native) calls for the guards, actions and
// expressions that read or write abstracted data, and after every step,
// to update the predicates. It is not safe for concurrent use.
type Runtime struct {
	prog   *types.Program
	info   *types.Info
	preds  []predDesc
	groups []*ast.Transformation
	procOf []*types.Proc // per group
	roles  map[ast.Expr]role
	// replaced is what Replaces answers true for
	replaced map[ast.Node]bool

	tm     *smt.TermManager
	solver smt.Solver
	// to start the solver again after it failed
	ctx        context.Context
	solverName string
	cache      *smt.Cache
	err        error // the first failure of the solver
	stats      Stats

	syms   map[locKey]*smt.Term
	dom    map[*smt.Term]*smt.Term // the domain fact of a symbol
	varsOf map[*smt.Term][]*smt.Term
	facts  []*smt.Term // stepFacts's result

	// cone's scratch
	coneIn    map[*smt.Term]bool
	coneUsed  []bool
	coneParts []*smt.Term

	// the hook call under way
	hookStep         step
	curSnap, preSnap snapshot

	// answers memoizes valid by the question as asked
	answers map[[2]*smt.Term]bool
	// undecided holds the questions the solver could not decide, for the
	// runtime's life (answers is emptied when full; the query cache keeps
	// decided answers only): asked again, one could be decided, and a
	// run's choice points differ between the alternatives the model runs
	undecided map[[2]*smt.Term]bool

	// the run under way (Begin .. End)
	status   result
	overlay  map[locKey]*smt.Term
	path     []*smt.Term
	stash    map[ast.Expr]*smt.Term
	fresh    int
	preAlloc map[int64]bool
	// guardOf is each transformation's guard, when the runtime computes it
	guardOf map[int]ast.Expr
	// guardDeferred: the guard being evaluated may fail (Begin decides)
	guardDeferred bool

	// the instances of the last pre-state, and its slots
	preKey  []int64
	preList []inst
	preByID map[instID]int
	preLits []*smt.Term
}

// NewRuntime returns the runtime of the instrumented program p, to be
// given to model.New(p.Prog, model.Options{Native: r}). The caller must
// Close it. It fails when the solver cannot be started.
func NewRuntime(p *Program, cfg Config) (*Runtime, error) {
	preds := make([]predDesc, len(p.Slots))
	for i, sl := range p.Slots {
		pr := p.Preds.Predicates[i]
		d := predDesc{expr: pr.Expr, proc: sl.Proc, record: sl.Record, hidden: sl.Var, this: pr.This}
		switch sl.Context {
		case Thread:
			d.ctx = ctxThread
		case Function:
			d.ctx = ctxFunction
		case Record:
			d.ctx = ctxRecord
		}
		preds[i] = d
	}
	return newRuntime(p.Prog, preds, p.Replaced, cfg)
}

// newRuntime makes the runtime of prog with its predicates.
func newRuntime(prog *types.Program, preds []predDesc, replaced map[ast.Node]bool, cfg Config) (*Runtime, error) {
	r, err := newSolving(cfg)
	if err != nil {
		return nil, err
	}
	r.prog, r.info, r.preds, r.replaced = prog, prog.Info, preds, replaced
	// the transformations in the order of the model's groups: threads,
	// then functions, location by location
	for _, procs := range [][]*types.Proc{prog.Threads, prog.Functions} {
		for _, p := range procs {
			for _, l := range p.Locations {
				for _, t := range l.Decl.Transformations {
					g := len(r.groups)
					r.groups = append(r.groups, t)
					r.procOf = append(r.procOf, p)
					r.noteRoles(g, p, t)
				}
			}
		}
	}
	return r, nil
}

// newSolving returns a runtime with its solver and tables and no program
// (the part the tests of the solving use alone).
func newSolving(cfg Config) (*Runtime, error) {
	tm := smt.NewTermManager()
	s, err := solvers.NewContext(cfg.Ctx, cfg.Solver, tm)
	if err != nil {
		return nil, err
	}
	s.SetLimit(queryLimit)
	return &Runtime{
		ctx: cfg.Ctx, solverName: cfg.Solver,
		roles: map[ast.Expr]role{},
		tm:    tm, solver: s, cache: smt.NewCache(s),
		syms: map[locKey]*smt.Term{}, dom: map[*smt.Term]*smt.Term{}, varsOf: map[*smt.Term][]*smt.Term{},
		answers: map[[2]*smt.Term]bool{}, undecided: map[[2]*smt.Term]bool{}, coneIn: map[*smt.Term]bool{},
		overlay: map[locKey]*smt.Term{}, stash: map[ast.Expr]*smt.Term{}, guardOf: map[int]ast.Expr{},
	}, nil
}

// noteRoles records what the expressions of transformation t are.
func (r *Runtime) noteRoles(g int, p *types.Proc, t *ast.Transformation) {
	if t.Guard != nil {
		r.roles[t.Guard] = role{kind: roleGuard}
		if r.replaced[t.Guard] {
			r.guardOf[g] = t.Guard
		}
	}
	if t.Return && t.Result != nil {
		r.roles[t.Result] = role{kind: roleResult, typ: p.Result, what: "the result of " + p.Name()}
	}
	args := func(callee *ast.Ident, xs []ast.Expr) {
		q, _ := r.info.Uses[callee].(*types.Proc)
		for i, x := range xs {
			ro := role{kind: roleArg, typ: r.info.TypeOf(x)}
			if q != nil && i < len(q.Params) {
				ro.typ, ro.what = q.Params[i].Type(), "parameter "+q.Params[i].Name()
			}
			r.roles[x] = ro
		}
	}
	for _, a := range t.Actions {
		switch a := a.(type) {
		case *ast.CallAction:
			args(a.Func, a.Args)
		case *ast.StartAction:
			args(a.Thread, a.Args)
		}
	}
}

// Stats returns the counts so far.
func (r *Runtime) Stats() Stats { return r.stats }

// Err returns the first failure of the solver (a query it could not
// answer for a reason other than undecidability), or nil. Such a query
// counted as not proved: the abstraction stays sound.
func (r *Runtime) Err() error { return r.err }

// Close releases the solver.
func (r *Runtime) Close() {
	if r.solver != nil {
		r.solver.Close()
		r.solver = nil
	}
}

// stepEnv is the environment of the current thread's top frame.
func (r *Runtime) stepEnv(s *step) *env {
	return &env{sn: s.cur, mode: modeRun, thread: s.h.Thread(), depth: s.h.Depth(), s: s, check: true}
}

// stepFacts are the facts of the run under way: its path and the
// literals of the pre-state's known predicates. The slice is valid until
// the next call.
func (r *Runtime) stepFacts(s *step) []*smt.Term {
	r.preInstances(s)
	r.facts = append(append(r.facts[:0], r.path...), r.preLits...)
	return r.facts
}

// value computes an expression the model leaves to the runtime.
func (r *Runtime) value(s *step, x ast.Expr) int64 {
	ro := r.roles[x]
	e := r.stepEnv(s)
	if ro.kind == roleGuard {
		// evaluated in the state before the run, outside any run
		r.status, r.path, r.preAlloc, r.guardDeferred = resOK, nil, nil, false
		clear(r.overlay)
		e.guard = true
		t := r.expr(e, x)
		if t == nil {
			r.noValue(e, x.Pos())
			return 0
		}
		if r.guardDeferred {
			return 1
		}
		switch r.decide(r.cone(r.stepFacts(s), t), t) {
		case isTrue:
			return 1
		case isFalse:
			return 0
		}
		r.stats.GuardUnknowns++ // Begin makes the guard a fact of the run
		return 1
	}
	t := r.expr(e, x)
	if t == nil {
		r.noValue(e, x.Pos())
		return 0
	}
	typ := ro.typ
	if typ == nil {
		typ = r.info.TypeOf(x)
	}
	if (ro.kind == roleArg || ro.kind == roleResult) && abstracted(typ) {
		// a result is checked against the function's result type here,
		// as the model does, whatever the caller stores it into; an
		// argument against its parameter's, before the step's later
		// actions (one may block the run: the model's error comes first)
		if !r.inRange(e, t, typ, x.Pos(), ro.what) {
			return 0
		}
		r.stash[x] = t
		return defaultValue(typ)
	}
	v, ok := r.choose(e, t, nil, typ, x.Pos(), format.Expr(x))
	if ok && ro.kind == roleResult {
		// for a caller's abstracted left-hand side, which the model does
		// not store into
		if types.IsBoolean(typ) {
			r.stash[x] = r.tm.Bool(v != 0)
		} else {
			r.stash[x] = r.tm.Int(v)
		}
	}
	return v
}

// defaultValue is the default value of a scalar type.
func defaultValue(t types.Type) int64 {
	if u, ok := t.Underlying().(*types.Range); ok && (u.Lo > 0 || u.Hi < 0) {
		return u.Lo
	}
	return 0
}

// choose gives a concrete value to the term t, to be stored in a location
// of type typ: the value when the path and the predicates decide it, and
// otherwise a choice point among the values that remain possible (cands,
// or the ite leaves of t, or the values of a small type), with t == v as a
// path fact. A value out of typ's range is a runtime error (possible or
// certain).
func (r *Runtime) choose(e *env, t *smt.Term, cands []int64, typ types.Type, pos source.Pos, what string) (int64, bool) {
	tm := r.tm
	switch t {
	case tm.True():
		return 1, true
	case tm.False():
		return 0, true
	}
	if v, ok := lit(t); ok {
		return v, true
	}
	if !e.check || e.guard || len(e.conds) > 0 {
		r.limit(e, pos, "a concrete value of %s that depends on abstracted data is needed here", source.Excerpt(what))
		return 0, false
	}
	facts := r.stepFacts(e.s)
	if t.IsBool() {
		v := r.decide(r.cone(facts, t), t)
		if v == unknown {
			r.stats.Branches++
			e.s.h.Unsure() // each alternative holds in some of the states only
			if e.s.h.Choose(2) == 0 {
				v = isTrue
			} else {
				v = isFalse
			}
			r.path = append(r.path, literal(tm, t, v))
		}
		return int64(v - 1), true
	}
	outside := false // a value out of typ's range may be stored
	if cands == nil {
		cands = leaves(t)
	}
	if cands == nil {
		var lo, hi int64
		switch u := typ.Underlying().(type) {
		case *types.Range:
			lo, hi = u.Lo, u.Hi
		case *types.Enum:
			for _, c := range u.Consts {
				cands = append(cands, c.Ordinal)
			}
		default:
			r.limit(e, pos, "a concrete value of %s that depends on abstracted data is needed here", source.Excerpt(what))
			return 0, false
		}
		if cands == nil {
			if uint64(hi-lo) >= 256 {
				r.limit(e, pos, "%s would take one of more than 256 values", source.Excerpt(what))
				return 0, false
			}
			for v := lo; v <= hi; v++ {
				cands = append(cands, v)
			}
			cond := tm.Or(tm.Lt(t, tm.Int(lo)), tm.Gt(t, tm.Int(hi)))
			outside = !r.valid(r.cone(facts, cond), tm.Not(cond))
		}
	}
	hyp := r.cone(facts, t)
	var alts []int64
	for _, v := range cands {
		if !r.valid(hyp, tm.Not(tm.Eq(t, tm.Int(v)))) {
			alts = append(alts, v)
		}
	}
	n := len(alts)
	if outside {
		n++
	}
	if n == 0 {
		r.status = resBlocked // no value is possible: the run is infeasible
		return 0, false
	}
	k := 0
	if n > 1 {
		r.stats.Branches++
		e.s.h.Unsure() // each alternative holds in some of the states only
		k = e.s.h.Choose(n)
	}
	if k == len(alts) {
		r.fail(e, model.RangeError, pos, "possibly a value out of the range of %s", what)
		return 0, false
	}
	if n > 1 {
		r.path = append(r.path, tm.Eq(t, tm.Int(alts[k])))
	}
	return alts[k], true
}

// pick chooses one of the cases conds (which exclude each other and one
// of which holds) that the path and the predicates leave possible, with
// its condition as a path fact when there are several.
func (r *Runtime) pick(e *env, conds []*smt.Term, pos source.Pos, what string) (int, bool) {
	if !e.check || e.guard || len(e.conds) > 0 {
		r.limit(e, pos, "a concrete location chosen by abstracted data (%s) is written here", source.Excerpt(what))
		return 0, false
	}
	facts := r.stepFacts(e.s)
	var alts []int
	for k, c := range conds {
		if !r.valid(r.cone(facts, c), r.not(c)) {
			alts = append(alts, k)
		}
	}
	switch len(alts) {
	case 0:
		r.status = resBlocked // no case is possible: the run is infeasible
		return 0, false
	case 1:
		return alts[0], true
	}
	r.stats.Branches++
	e.s.h.Unsure() // each alternative holds in some of the states only
	k := alts[e.s.h.Choose(len(alts))]
	r.path = append(r.path, conds[k])
	return k, true
}

// leaves returns the values of an ite tree of Int literals, or nil.
func leaves(t *smt.Term) []int64 {
	var out []int64
	var walk func(t *smt.Term) bool
	walk = func(t *smt.Term) bool {
		if v, ok := t.Int64(); ok {
			if !slices.Contains(out, v) {
				out = append(out, v)
			}
			return true
		}
		if t.Op() == smt.OpIte {
			return walk(t.Arg(1)) && walk(t.Arg(2))
		}
		return false
	}
	if !walk(t) {
		return nil
	}
	slices.Sort(out)
	return out
}

// write stores v into the place p.
func (r *Runtime) write(e *env, p place, v *smt.Term, pos source.Pos, what string) bool {
	tm := r.tm
	if abstracted(p.typ) {
		if !r.inRange(e, v, p.typ, pos, what) {
			return false
		}
		if p.elems == nil {
			r.overlay[p.key] = v
			return true
		}
		olds := make([]*smt.Term, len(p.elems))
		for k, q := range p.elems {
			if olds[k] = r.read(e, q); olds[k] == nil {
				return false
			}
		}
		for k, q := range p.elems {
			r.overlay[q.key] = tm.Ite(p.conds[k], v, olds[k])
		}
		return true
	}
	if p.elems != nil {
		// a concrete location abstracted data choose: choose it
		k, ok := r.pick(e, p.conds, pos, what)
		if !ok {
			return false
		}
		p = p.elems[k]
	}
	c, ok := r.choose(e, v, nil, p.typ, pos, what)
	if !ok {
		return false
	}
	return r.store(e, p, c, pos, what)
}

// store writes the concrete value c into the concrete place p, with BIR's
// checks: a range, a fixed-width type's wrap, a reference's collections.
func (r *Runtime) store(e *env, p place, c int64, pos source.Pos, what string) bool {
	c, ok := r.fits(e, c, p.typ, pos, what)
	if !ok {
		return false
	}
	if p.slot < 0 {
		r.limit(e, pos, "no slot for %s", what)
		return false
	}
	e.sn.st.Slots()[p.slot] = c
	return true
}

// fits returns the value c stored into a location of type typ holds:
// a range's value checked, a fixed-width type's wrapped, a reference's
// collection checked (BIR's checks; a failure is a runtime error).
func (r *Runtime) fits(e *env, c int64, typ types.Type, pos source.Pos, what string) (int64, bool) {
	switch u := typ.Underlying().(type) {
	case *types.Range:
		w, ok := u.WrapValue(c)
		if !ok && u.Wrap {
			r.limit(e, pos, "value %d of %s (of type uint64) is not representable", uint64(c), what)
			return 0, false
		}
		if !ok {
			r.fail(e, model.RangeError, pos, "value %d out of range %d..%d of %s", c, u.Lo, u.Hi, what)
			return 0, false
		}
		return w, true
	case *types.Ref:
		if c != 0 {
			for _, o := range e.sn.objects() {
				if o.ref == c && !u.Holds(o.coll) {
					r.fail(e, model.TypeError, pos, "cast: object %d (a %s) does not fit %s, of type %s", c, o.typ, what, typ)
					return 0, false
				}
			}
		}
	}
	return c, true
}

// inRange checks the value v of abstracted data stored into a location of
// the abstracted type typ: outside a range's bounds it is a range error
// (certain or possible).
func (r *Runtime) inRange(e *env, v *smt.Term, typ types.Type, pos source.Pos, what string) bool {
	u, ok := typ.Underlying().(*types.Range)
	if !ok {
		return true
	}
	if c, isLit := lit(v); isLit {
		_, ok := r.fits(e, c, typ, pos, what)
		return ok
	}
	tm := r.tm
	return r.mayFail(e, tm.Or(tm.Lt(v, tm.Int(u.Lo)), tm.Gt(v, tm.Int(u.Hi))), model.RangeError, pos, "value out of range %d..%d of %s", u.Lo, u.Hi, what)
}

// storeTo stores v into the place lhs denotes in the model's order: the
// value is checked against lhs's type (and given a concrete value, for a
// concrete lhs) before the place is evaluated, so that of a range error
// and a null dereference the same one is reported.
func (r *Runtime) storeTo(e *env, lhs ast.Expr, v *smt.Term, what string) bool {
	tm := r.tm
	pos := lhs.Pos()
	typ := r.info.TypeOf(lhs)
	switch {
	case abstracted(typ):
		if !r.inRange(e, v, typ, pos, what) {
			return false
		}
	case types.IsBoolean(typ):
		c, ok := r.choose(e, v, nil, typ, pos, what)
		if !ok {
			return false
		}
		v = tm.Bool(c != 0)
	default:
		c, ok := r.choose(e, v, nil, typ, pos, what)
		if !ok {
			return false
		}
		if c, ok = r.fits(e, c, typ, pos, what); !ok {
			return false
		}
		v = tm.Int(c)
	}
	p, ok := r.place(e, lhs)
	return ok && r.write(e, p, v, pos, what)
}

// copyValue copies the value array at src into dst, slot by slot.
func (r *Runtime) copyValue(e *env, dst, src place, pos source.Pos, what string) bool {
	if dst.elems != nil || src.elems != nil {
		r.limit(e, pos, "a value array chosen by abstracted data")
		return false
	}
	var ok = true
	var walk func(t types.Type, off int64)
	walk = func(t types.Type, off int64) {
		if !ok {
			return
		}
		if a, isArr := t.Underlying().(*types.Array); isArr {
			es := types.Slots(a.Elem)
			for k := int64(0); k < a.Len; k++ {
				walk(a.Elem, off+k*es)
			}
			return
		}
		if _, isLock := t.Underlying().(*types.Lock); isLock {
			return
		}
		v := r.read(e, sub(src, off, t))
		ok = v != nil && r.write(e, sub(dst, off, t), v, pos, what)
	}
	walk(dst.typ, 0)
	return ok
}

// action runs an action the model leaves to the runtime.
func (r *Runtime) action(s *step, a ast.Action) result {
	if r.stopped() {
		return r.status
	}
	e := r.stepEnv(s)
	tm := r.tm
	done := false // the action ran to its end (else it failed, blocked or hit a limit)
	switch a := a.(type) {
	case *ast.AssignAction:
		what := format.Expr(a.Lhs)
		if _, isArr := r.info.TypeOf(a.Lhs).Underlying().(*types.Array); isArr {
			src, ok := r.place(e, a.Rhs)
			if !ok {
				break
			}
			if dst, ok := r.place(e, a.Lhs); ok {
				done = r.copyValue(e, dst, src, a.Lhs.Pos(), what)
			}
			break
		}
		v := r.expr(e, a.Rhs)
		if v == nil {
			break
		}
		done = r.storeTo(e, a.Lhs, v, what)
	case *ast.ChooseAction:
		what := format.Expr(a.Lhs)
		var v *smt.Term
		if a.Values != nil {
			k := 0
			if len(a.Values) > 1 {
				k = s.h.Choose(len(a.Values))
			}
			if v = r.expr(e, a.Values[k]); v == nil {
				break
			}
		} else {
			lo := r.expr(e, a.Lo)
			hi := r.expr(e, a.Hi)
			if lo == nil || hi == nil {
				break
			}
			empty := tm.Lt(hi, lo)
			if r.valid(r.cone(r.stepFacts(s), lo, hi), empty) {
				r.status = resBlocked // an empty range
				break
			}
			if !r.valid(r.cone(r.stepFacts(s), lo, hi), tm.Not(empty)) {
				s.h.Unsure() // empty for some of the states: blocked there
			}
			v = tm.Const("apf!choice"+itoa(r.fresh), smt.IntSort)
			r.fresh++
			r.dom[v] = intDomain(tm, v)
			r.path = append(r.path, tm.And(tm.Le(lo, v), tm.Le(v, hi)))
		}
		done = r.storeTo(e, a.Lhs, v, what)
	case *ast.AssertAction:
		c := r.expr(e, a.Cond)
		if c == nil {
			break
		}
		text := format.Expr(a.Cond)
		if c == tm.False() {
			r.fail(e, model.Assertion, a.AssertPos, "assertion violated: %s", text)
			break
		}
		done = r.mayFail(e, r.not(c), model.Assertion, a.AssertPos, "assertion violated: %s", text)
	case *ast.AssumeAction:
		c := r.expr(e, a.Cond)
		if c == nil {
			break
		}
		switch r.decide(r.cone(r.stepFacts(s), c), c) {
		case isFalse:
			r.status = resBlocked
		case unknown:
			s.h.Unsure() // blocked in the states where c is false
			r.path = append(r.path, c)
		}
		done = true
	case *ast.PrintAction:
		// prints nothing: the values are abstracted
		done = true
	default:
		r.limit(e, a.Pos(), "this action reads abstracted data")
	}
	if !done {
		r.noValue(e, a.Pos())
	}
	return r.status
}

// noValue stops a step where an action or an expression the model left
// to the runtime did not run to its end although nothing failed or
// blocked (a value the runtime could not give): a limit, never an
// assignment, an assertion or a guard silently left out.
func (r *Runtime) noValue(e *env, pos source.Pos) {
	if !r.stopped() {
		r.limit(e, pos, "no value could be given here")
	}
}

func itoa(n int) string { return strconv.Itoa(n) }

// begin starts a run of transformation g.
func (r *Runtime) begin(s *step, g int) {
	r.status, r.fresh, r.preAlloc = resOK, 0, nil
	clear(r.overlay)
	clear(r.stash)
	r.path = r.path[:0]
	// a guard the runtime computed is a fact of the run (when its value
	// was known the fact adds nothing); it is evaluated again here, in the
	// state before the run, rather than remembered from Value: the model
	// evaluates other guards (of an invisible run's next steps) between a
	// guard and the later alternatives of its transformation's choices
	if x := r.guardOf[g]; x != nil {
		// a guard that may fail is decided here, where the model lets the
		// runtime choose between the failure and going on
		e := &env{sn: s.pre, mode: modePre, thread: s.h.Thread(), depth: s.h.Depth(), s: s, check: true}
		t := r.expr(e, x)
		switch {
		case t == nil || t == r.tm.True():
		case t == r.tm.False():
			r.status = resBlocked
			s.h.Block()
		default:
			switch r.decide(r.cone(r.stepFacts(s), t), t) {
			case isFalse:
				r.status = resBlocked
				s.h.Block()
			case unknown:
				// the concrete states where the guard is false have no
				// run: an invisible run must rest here for them
				s.h.Unsure()
				fallthrough
			default:
				r.path = append(r.path, t)
			}
		}
	}
}

// preInstances computes the instances of the state before the step, with
// their pre-state formulas (kept while the pre-state stays the same).
func (r *Runtime) preInstances(s *step) {
	slots := s.pre.st.Slots()
	if r.preByID != nil && slices.Equal(slots, r.preKey) {
		return
	}
	r.preKey = append(r.preKey[:0], slots...)
	r.preList = r.instances(s.pre, modePre, s, r.preList[:0], nil)
	if r.preByID == nil {
		r.preByID = map[instID]int{}
	}
	clear(r.preByID)
	r.preLits = r.preLits[:0]
	for i, p := range r.preList {
		r.preByID[p.id] = i
		if l := literal(r.tm, p.term, p.val); l != nil {
			r.preLits = append(r.preLits, l)
		}
	}
}

// instances appends the predicate instances of the state sn, their
// formulas evaluated in mode m and the values their hidden variables hold.
//
// In modePre each instance records what its formula was read from; reuse,
// when not nil, gives the formula of an instance the step cannot have
// changed (nil: evaluate it).
func (r *Runtime) instances(sn *snapshot, m mode, s *step, dst []inst, reuse func(instID) *smt.Term) []inst {
	st := sn.st
	slots := st.Slots()
	var frames []frame
	var objects []object
	add := func(i int, id instID, slot int, e *env) {
		if slot < 0 {
			return
		}
		if reuse != nil {
			if t := reuse(id); t != nil {
				dst = append(dst, inst{id: id, slot: slot, term: t, val: tri(slots[slot])})
				return
			}
		}
		e.sn, e.mode, e.s = sn, m, s
		if m == modePre {
			e.deps = &deps{}
		}
		saved := r.status
		t := r.expr(e, r.preds[i].expr)
		r.status = saved
		if t != nil && !t.IsBool() {
			t = nil
		}
		dst = append(dst, inst{id: id, slot: slot, term: t, val: tri(slots[slot]), deps: e.deps})
	}
	for i, pd := range r.preds {
		switch pd.ctx {
		case ctxGlobal:
			add(i, instID{pred: i, thread: -1, depth: -1}, st.Global(pd.hidden), &env{thread: -1})
		case ctxThread, ctxFunction:
			if frames == nil {
				frames = sn.frames()
			}
			for _, f := range frames {
				if f.proc != pd.proc || (pd.ctx == ctxThread && f.depth != 0) {
					continue
				}
				id := instID{pred: i, thread: int32(f.thread), depth: int32(f.depth)}
				add(i, id, st.Local(f.thread, f.depth, pd.hidden), &env{thread: f.thread, depth: f.depth})
			}
		case ctxRecord:
			if objects == nil {
				objects = sn.objects()
			}
			for _, o := range objects {
				if o.typ == nil || !types.IsSubtype(o.typ, pd.record) {
					continue
				}
				id := instID{pred: i, thread: -1, depth: -1, ref: o.ref}
				add(i, id, st.Field(o.ref, pd.hidden), &env{thread: -1, thisVar: pd.this, this: o.ref})
			}
		}
	}
	return dst
}

// end ends a run of transformation g: the frames it created or left get
// their abstracted values, and every predicate instance the step may have
// changed is decided again.
func (r *Runtime) end(s *step, g int) result {
	if r.stopped() {
		return r.status
	}
	r.stats.Steps++
	if !r.frameEffects(s, g) {
		return r.status
	}
	r.preInstances(s)
	facts := r.stepFacts(s)
	pathVars := map[*smt.Term]bool{}
	for _, f := range r.path {
		for _, v := range r.vars(f) {
			pathVars[v] = true
		}
	}
	r.closeVars(pathVars, r.preLits)
	post := r.instances(s.cur, modeRun, s, nil, r.unchanged(s))
	ps := make([]predValue, len(post))
	fresh := make([]bool, len(post))
	for i, p := range post {
		ps[i].term = p.term
		if p.term == nil {
			continue
		}
		if j, had := r.preByID[p.id]; had && r.preList[j].term == p.term {
			q := r.preList[j]
			if q.val != unknown || !meets(r.vars(p.term), pathVars) {
				ps[i].val = q.val
				continue
			}
		}
		ps[i].val = r.decide(r.cone(facts, p.term), p.term)
		fresh[i] = ps[i].val != unknown
	}
	r.refineFrom(ps, facts, fresh)
	slots := s.cur.st.Slots()
	for i, p := range post {
		slots[p.slot] = int64(ps[i].val)
	}
	return r.status
}

// unchanged returns, when the step kept the state's layout (the same
// frames, so every slot is where it was), the function that gives the
// pre-state formula of an instance none of whose reads the step changed;
// nil otherwise.
func (r *Runtime) unchanged(s *step) func(instID) *smt.Term {
	pre, cur := s.pre.st.Slots(), s.cur.st.Slots()
	if len(pre) != len(cur) {
		return nil
	}
	pf, cf := s.pre.frames(), s.cur.frames()
	if len(pf) != len(cf) {
		return nil
	}
	for i := range pf {
		if pf[i].thread != cf[i].thread || pf[i].depth != cf[i].depth || pf[i].proc != cf[i].proc {
			return nil
		}
	}
	return func(id instID) *smt.Term {
		j, ok := r.preByID[id]
		if !ok {
			return nil
		}
		q := &r.preList[j]
		if q.term == nil || q.deps == nil {
			return nil
		}
		for _, sl := range q.deps.slots {
			if pre[sl] != cur[sl] {
				return nil
			}
		}
		for _, k := range q.deps.keys {
			if _, w := r.overlay[k]; w {
				return nil
			}
		}
		return q.term
	}
}

func meets(vs []*smt.Term, set map[*smt.Term]bool) bool {
	for _, v := range vs {
		if set[v] {
			return true
		}
	}
	return false
}

// initial decides every predicate instance of the initial state from the
// values its slots hold.
func (r *Runtime) initial(s *step) result {
	r.status = resOK
	slots := s.cur.st.Slots()
	for _, p := range r.instances(s.cur, modeSlots, s, nil, nil) {
		v := unknown
		switch p.term {
		case r.tm.True():
			v = isTrue
		case r.tm.False():
			v = isFalse
		}
		slots[p.slot] = int64(v)
	}
	return resOK
}
