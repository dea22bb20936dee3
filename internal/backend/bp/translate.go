package bp

import (
	"bytes"
	"fmt"
	"path/filepath"
	"strconv"
	"strings"

	"birch/internal/bir/ast"
	"birch/internal/bir/token"
	"birch/internal/bir/types"
	"birch/internal/boolprog"
	"birch/internal/model"
	"birch/internal/source"
)

// Translate writes the BIR program prog, a model of one thread whose data
// are all booleans, as a SLAM boolean program (see the package comment for
// the subset and the translation). A construct outside the subset is an
// error at its position (a sorted source.ErrorList).
func Translate(prog *types.Program, cfg Config) (*Output, error) {
	tr := &translator{prog: prog, info: prog.Info, fset: prog.Fset, bits: map[*types.Var][]string{}}
	tr.m = &Map{BIR: prog, procs: map[string]*procMap{}, asserts: map[lineCol]assertOrigin{}, calls: map[lineCol]bool{}}
	tr.check()
	if tr.errs.Len() > 0 {
		tr.errs.Sort()
		return nil, tr.errs
	}
	gen := tr.program()
	if tr.errs.Len() > 0 {
		tr.errs.Sort()
		return nil, tr.errs
	}
	name := cfg.Filename
	if name == "" {
		name = "model.bp"
		if f := prog.Fset.File(prog.File.Pos()); f != nil && f.Name() != "" {
			name = strings.TrimSuffix(f.Name(), filepath.Ext(f.Name())) + ".bp"
		}
	}
	var buf bytes.Buffer
	if err := boolprog.Fprint(&buf, gen); err != nil {
		return nil, err
	}
	out := &Output{Source: buf.Bytes(), Fset: source.NewFileSet(), Map: tr.m}
	var err error
	if out.Program, err = boolprog.Parse(out.Fset, name, out.Source); err != nil {
		// the printer and the parser disagree, or a bound of the parser
		// (the nesting of an expression) is exceeded
		return nil, tr.whole(fmt.Sprintf("the boolean program cannot be read back: %v", err))
	}
	if out.Info, err = boolprog.Resolve(out.Fset, out.Program); err != nil {
		return nil, tr.whole(fmt.Sprintf("the boolean program does not resolve: %v", err))
	}
	tr.indexAsserts(gen, out)
	out.Bounds = bounds(prog)
	return out, nil
}

// whole is an error about the whole model, at its system's name.
func (tr *translator) whole(msg string) error {
	var l source.ErrorList
	l.Add(tr.fset.Position(tr.prog.File.Pos()), msg)
	return l
}

type translator struct {
	prog *types.Program
	info *types.Info
	fset *source.FileSet
	errs source.ErrorList
	m    *Map
	main *types.Proc
	// the current procedure: its map, and the generated assert statements
	// with their origins
	cur     *procMap
	asserts map[*boolprog.AssertStmt]assertOrigin
	// bits: the boolean-program names of each variable's bits
	bits map[*types.Var][]string
	// the runtime errors of the action being translated, and the
	// condition under which its expression is evaluated (&& and ||
	// evaluate their right operand only when needed)
	rt  []rtErr
	ctx boolprog.Expr
}

func (tr *translator) errorf(pos source.Pos, format string, args ...any) {
	tr.errs.Addf(tr.fset.Position(pos), format, args...)
}

// check reports what lies outside the subset at the level of
// declarations: threads, collections, non-boolean variables, properties.
func (tr *translator) check() {
	if pos, what := types.FixedWidthUse(tr.prog); pos.IsValid() {
		tr.errorf(pos, "%s is not supported by the boolean-program translation (it does not wrap values)", what)
	}
	for _, t := range tr.prog.Threads {
		switch {
		case !t.Main:
			tr.errorf(t.Pos(), "thread %s: a boolean program has one thread, the main thread (a model of one thread translates)", t.Name())
		case tr.main != nil:
			tr.errorf(t.Pos(), "main thread %s: a boolean program has one thread, and %s is a main thread already", t.Name(), tr.main.Name())
		case t.Started:
			tr.errorf(t.Pos(), "main thread %s is started: a boolean program has one thread", t.Name())
		default:
			tr.main = t
		}
	}
	for _, c := range tr.prog.Collections {
		tr.errorf(c.Pos(), "collection %s: a boolean program has no heap", c.Name())
	}
	for _, v := range tr.prog.Globals {
		tr.boolVar(v)
	}
	procs := append(append([]*types.Proc(nil), tr.prog.Threads...), tr.prog.Functions...)
	for _, p := range procs {
		for _, v := range p.Vars() {
			tr.boolVar(v)
		}
		if p.Result == nil {
			continue
		}
		if _, ok := domainOf(p.Result); !ok {
			tr.errorf(p.Pos(), "function %s returns %s: a boolean program's procedures return booleans (and ranges and enums of at most %d values, as bits)", p.Name(), p.Result, MaxValues)
		}
	}
	for _, p := range tr.prog.Properties {
		kind := "invariant"
		if p.LTL {
			kind = "ltl property"
		}
		tr.errorf(p.Pos(), "%s %s: a boolean program checks assertions only (check the property on the BIR model)", kind, p.Name())
	}
}

func (tr *translator) boolVar(v *types.Var) {
	if _, ok := domainOf(v.Type()); !ok {
		tr.errorf(v.Pos(), "%s has type %s: a boolean program has only boolean variables (and ranges and enums of at most %d values, as bits)", v.Name(), v.Type(), MaxValues)
	}
}

// Names: a BIR name that is a plain boolean-program identifier and no
// keyword of the dialect is kept; any other is written in braces, which
// the dialect allows for any text on one line ({T}, {a$b}).

var reserved = map[string]bool{
	"decl": true, "bool": true, "void": true, "begin": true, "end": true, "enforce": true,
	"skip": true, "goto": true, "return": true, "assert": true, "assume": true, "if": true,
	"then": true, "else": true, "elsif": true, "fi": true, "while": true, "do": true, "od": true,
	"schoose": true, "T": true, "F": true,
}

func plain(s string) bool {
	if s == "" || reserved[s] {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		letter := c == '_' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z'
		if !letter && (i == 0 || c < '0' || c > '9') {
			return false
		}
	}
	return true
}

func bpName(s string) string {
	if plain(s) {
		return s
	}
	return "{" + s + "}"
}

func ident(s string) *boolprog.Ident { return &boolprog.Ident{Name: s} }

// bitNames is the names of v's bits: its name for a boolean, {x.0},
// {x.1}, … for a range or enum (a BIR name has no '.').
func (tr *translator) bitNames(v *types.Var) []string {
	if n, ok := tr.bits[v]; ok {
		return n
	}
	d, _ := domainOf(v.Type())
	var n []string
	if d == nil {
		n = []string{bpName(v.Name())}
	} else {
		for j := range d.bits {
			n = append(n, "{"+v.Name()+"."+strconv.Itoa(j)+"}")
		}
	}
	tr.bits[v] = n
	return n
}

// idents is the bits of vs, in order.
func (tr *translator) idents(vs []*types.Var) []*boolprog.Ident {
	var out []*boolprog.Ident
	for _, v := range vs {
		for _, n := range tr.bitNames(v) {
			out = append(out, ident(n))
		}
	}
	return out
}

// valueOf is the bits of value val of v.
func valueOf(v *types.Var, val int64) []boolprog.Expr {
	d, _ := domainOf(v.Type())
	return valueBits(d, val)
}

func konst(b bool) boolprog.Expr { return &boolprog.Const{Value: b} }

// procName is the boolean-program name of a thread or function: main for
// the main thread; a function called main is written {main}.
func (tr *translator) procName(p *types.Proc) string {
	if p == tr.main {
		return "main"
	}
	if p.Name() == "main" {
		return "{main}"
	}
	return bpName(p.Name())
}

func (tr *translator) program() *boolprog.Program {
	gen := &boolprog.Program{}
	if g := tr.idents(tr.prog.Globals); len(g) > 0 {
		gen.Globals = []*boolprog.Decl{{Names: g}}
	}
	tr.m.globals = tr.slots(tr.prog.Globals)
	tr.asserts = map[*boolprog.AssertStmt]assertOrigin{}
	for _, f := range tr.prog.Functions {
		gen.Procs = append(gen.Procs, tr.proc(f))
	}
	gen.Procs = append(gen.Procs, tr.proc(tr.main))
	return gen
}

// slots lays vs out: each variable and the positions of its bits among
// those of vs.
func (tr *translator) slots(vs []*types.Var) []slot {
	var out []slot
	k := 0
	for _, v := range vs {
		d, _ := domainOf(v.Type())
		sl := slot{v: v, d: d}
		for range tr.bitNames(v) {
			sl.bits = append(sl.bits, k)
			k++
		}
		out = append(out, sl)
	}
	return out
}

// dead lists the variables of p that are dead at l (reset to false on
// arrival), in p's order.
func dead(p *types.Proc, l *types.Location) []*types.Var {
	if !l.HasLive {
		return nil
	}
	live := map[*types.Var]bool{}
	for _, v := range l.Live {
		live[v] = true
	}
	var out []*types.Var
	for _, v := range p.Vars() {
		if !live[v] {
			out = append(out, v)
		}
	}
	return out
}

// proc translates a thread or function:
//
//	bool f(p) begin
//	    decl l;
//	    l := F;              // initial values (and the first location's dead variables)
//	s0:
//	    goto s0_t0, s0_t1;   // one label per transformation
//	s0_t0:
//	    assume(p);           // the guard
//	    l := !p;             // the actions, one statement each
//	    return l;            // or the dead variables of the target, then goto
//	...
func (tr *translator) proc(p *types.Proc) *boolprog.Proc {
	name := tr.procName(p)
	pm := &procMap{proc: p, vars: tr.slots(p.Vars()), locs: map[string]*types.Location{}, trans: map[string]*transMap{}}
	tr.m.procs[name] = pm
	tr.cur = pm
	out := &boolprog.Proc{Name: ident(name), Params: tr.idents(p.Params)}
	if p.Result != nil {
		d, _ := domainOf(p.Result)
		out.Returns = 1
		if d != nil {
			out.Returns = d.bits
		}
	}
	// labels: the locations' names, then a fresh one per transformation
	used := map[string]bool{}
	for _, l := range p.Locations {
		used[bpName(l.Name())] = true
		pm.locs[bpName(l.Name())] = l
	}
	fresh := func(base string) string {
		for s := base; ; s += "_" {
			if n := bpName(s); !used[n] {
				used[n] = true
				return n
			}
		}
	}
	// entry: the thread's globals and locals, or the function's locals,
	// take their initial values; then the dead variables of the first
	// location are reset (BIR resets them on arrival there too)
	var lhs []*boolprog.Ident
	var rhs []boolprog.Expr
	deadAtStart := map[*types.Var]bool{}
	for _, v := range dead(p, p.Locations[0]) {
		deadAtStart[v] = true
	}
	set := func(v *types.Var, val int64) {
		lhs, rhs = append(lhs, tr.idents([]*types.Var{v})...), append(rhs, valueOf(v, val)...)
	}
	if p == tr.main {
		for _, v := range tr.prog.Globals {
			set(v, initialValue(v))
		}
	}
	for _, v := range p.Vars() {
		switch {
		case deadAtStart[v]:
			set(v, defaultValue(v.Type()))
		case v.Kind != types.ParamVar:
			set(v, initialValue(v))
		}
	}
	if len(lhs) > 0 {
		out.Body = append(out.Body, &boolprog.AssignStmt{Lhs: lhs, Rhs: rhs})
	}
	for _, l := range p.Locations {
		var labels []string
		var bodies [][]boolprog.Stmt
		for k, t := range l.Decl.Transformations {
			lab := fresh(l.Name() + "_t" + strconv.Itoa(k))
			tm := &transMap{proc: p, loc: l, index: k, decl: t}
			pm.trans[lab] = tm
			labels = append(labels, lab)
			bodies = append(bodies, tr.transformation(tm))
		}
		var head boolprog.Stmt
		if len(labels) == 0 {
			// no transformations: the thread ends (or, in a function,
			// stays blocked); no statement follows
			head = &boolprog.AssumeStmt{Cond: konst(false)}
		} else {
			g := &boolprog.GotoStmt{}
			for _, lab := range labels {
				g.Targets = append(g.Targets, ident(lab))
			}
			head = g
		}
		out.Body = append(out.Body, &boolprog.LabeledStmt{Label: ident(bpName(l.Name())), Stmt: head})
		for i, body := range bodies {
			body[0] = &boolprog.LabeledStmt{Label: ident(labels[i]), Stmt: body[0]}
			out.Body = append(out.Body, body...)
		}
	}
	// the locals, then the temporaries of the choices ({#0}, …: no BIR
	// name has '#')
	locals := tr.idents(p.Locals)
	for j := range pm.temps {
		locals = append(locals, ident("{#"+strconv.Itoa(j)+"}"))
	}
	if len(locals) > 0 {
		out.Locals = []*boolprog.Decl{{Names: locals}}
	}
	return out
}

// transformation translates one transformation: assume(guard), the
// actions one statement each in order (BIR's actions are sequential, and
// so are the statements), then the move: the dead variables of the target
// reset and goto, or return, or, after an exit, assume(F). The runtime
// errors an action or the guard may raise are assertions before it.
func (tr *translator) transformation(tm *transMap) []boolprog.Stmt {
	t := tm.decl
	var body []boolprog.Stmt
	tr.begin()
	g := tr.expr(t.Guard)
	body = tr.errors(body, tm, -1)
	if !isTrue(g) {
		body = append(body, &boolprog.AssumeStmt{Cond: g})
	}
	tr.bound(body, t.Guard.Pos())
	exited := false
	for i, a := range t.Actions {
		if exited {
			break // exit ends the step at once: the actions after it do not run
		}
		tr.begin()
		var stmts []boolprog.Stmt
		switch a := a.(type) {
		case *ast.AssignAction:
			lhs, d := tr.lhs(a.Lhs)
			var rhs []boolprog.Expr
			if d == nil {
				rhs = []boolprog.Expr{tr.expr(a.Rhs)}
			} else {
				rhs = tr.store(d, tr.intExpr(a.Rhs), a.Lhs.Pos())
			}
			stmts = append(stmts, assign(lhs, rhs)...)
		case *ast.ChooseAction:
			stmts = tr.choose(a)
		case *ast.AssertAction:
			s := &boolprog.AssertStmt{Cond: tr.expr(a.Cond)}
			tr.asserts[s] = assertOrigin{trans: tm, action: i, kind: model.Assertion}
			stmts = append(stmts, s)
		case *ast.AssumeAction:
			stmts = append(stmts, &boolprog.AssumeStmt{Cond: tr.expr(a.Cond)})
		case *ast.PrintAction:
			// no effect on the state; the search does not evaluate its
			// arguments (model's printAction), so they raise no error
		case *ast.ExitAction:
			exited = true
		case *ast.CallAction:
			stmts = append(stmts, tr.call(a))
			tm.call = true
		default:
			tr.errorf(a.Pos(), "%s is not translated to a boolean program (booleans, assignments, choices, assert, assume, call, exit and println are)", actionName(a))
		}
		body = tr.errors(body, tm, i)
		body = append(body, stmts...)
		tr.bound(body, a.Pos())
	}
	switch {
	case exited:
		body = append(body, &boolprog.AssumeStmt{Cond: konst(false)})
	case t.Return:
		tm.ret = true
		tr.begin()
		r := &boolprog.ReturnStmt{}
		if t.Result != nil {
			r.Results = tr.result(tm.proc, t.Result)
		}
		body = tr.errors(body, tm, len(t.Actions))
		body = append(body, r)
		tr.bound(body, t.GotoPos)
	default:
		to, _ := tr.info.Uses[t.Target].(*types.Location)
		if to == nil {
			tr.errorf(t.Target.Pos(), "unknown location %s", t.Target.Name)
			return append(body, &boolprog.SkipStmt{})
		}
		if d := dead(tm.proc, to); len(d) > 0 {
			var lhs []*boolprog.Ident
			var rhs []boolprog.Expr
			for _, v := range d {
				lhs, rhs = append(lhs, tr.idents([]*types.Var{v})...), append(rhs, valueOf(v, defaultValue(v.Type()))...)
			}
			body = append(body, &boolprog.AssignStmt{Lhs: lhs, Rhs: rhs})
		}
		body = append(body, &boolprog.GotoStmt{Targets: []*boolprog.Ident{ident(bpName(to.Name()))}})
	}
	return body
}

// bound reports, at pos, statements of body whose formulas exceed
// MaxFormula (those of the construct at pos, the others were checked),
// and replaces them by skip so that nothing prints them.
func (tr *translator) bound(body []boolprog.Stmt, pos source.Pos) {
	memo := map[boolprog.Expr]int{}
	for i, s := range body {
		if stmtSize(s, memo) > MaxFormula {
			tr.errorf(pos, "this translates to formulas of more than %d operators and operands: too large for a boolean program", MaxFormula)
			body[i] = &boolprog.SkipStmt{}
		}
	}
}

// assign is the assignment of rhs to lhs, or nothing for no bits (a
// variable of a one-value type).
func assign(lhs []*boolprog.Ident, rhs []boolprog.Expr) []boolprog.Stmt {
	if len(lhs) == 0 {
		return nil
	}
	return []boolprog.Stmt{&boolprog.AssignStmt{Lhs: lhs, Rhs: rhs}}
}

// begin starts the translation of an action (or guard, or result).
func (tr *translator) begin() { tr.rt, tr.ctx = nil, nil }

// errors appends the assertions of the runtime errors of the action just
// translated (action: its index in the transformation's actions, -1 for
// the guard, len(Actions) for the returned value).
func (tr *translator) errors(body []boolprog.Stmt, tm *transMap, action int) []boolprog.Stmt {
	for _, e := range tr.rt {
		s := &boolprog.AssertStmt{Cond: notE(e.cond)}
		tr.asserts[s] = assertOrigin{trans: tm, action: action, kind: e.kind}
		body = append(body, s)
	}
	tr.rt = nil
	return body
}

// result is the bits of a returned value; its cases must lie in the
// result type (BIR checks a returned value only where the caller stores
// it, which the boolean program's bits cannot represent).
func (tr *translator) result(p *types.Proc, x ast.Expr) []boolprog.Expr {
	d, _ := domainOf(p.Result)
	if d == nil {
		return []boolprog.Expr{tr.expr(x)}
	}
	cs := tr.intExpr(x)
	for _, c := range cs {
		if d.index(c.v) < 0 {
			tr.errorf(x.Pos(), "the returned value may be %d, outside %s: not translated to a boolean program", c.v, p.Result)
			break
		}
	}
	return tr.store(d, cs, x.Pos())
}
func actionName(a ast.Action) string {
	switch a := a.(type) {
	case *ast.NewAction:
		return "new"
	case *ast.ForallAction:
		return "forall"
	case *ast.ReachableAction:
		return "reachable"
	case *ast.LockAction:
		return a.Op.String()
	case *ast.StartAction:
		return "start"
	}
	return "this action"
}

func (tr *translator) call(a *ast.CallAction) *boolprog.CallStmt {
	f, _ := tr.info.Uses[a.Func].(*types.Proc)
	if f == nil || f.Thread {
		tr.errorf(a.Func.Pos(), "%s is not a function", a.Func.Name)
		return &boolprog.CallStmt{Proc: ident("?")}
	}
	s := &boolprog.CallStmt{Proc: ident(tr.procName(f))}
	for i, x := range a.Args {
		d, _ := domainOf(f.Params[i].Type())
		if d == nil {
			s.Args = append(s.Args, tr.expr(x))
		} else {
			s.Args = append(s.Args, tr.store(d, tr.intExpr(x), x.Pos())...)
		}
	}
	if a.Lhs != nil {
		lhs, d := tr.lhs(a.Lhs)
		if rd, _ := domainOf(f.Result); !d.same(rd) {
			tr.errorf(a.Lhs.Pos(), "%s has another type than %s's result: not translated to a boolean program", ast.Unparen(a.Lhs).(*ast.Ident).Name, f.Name())
		}
		s.Lhs = lhs
	}
	return s
}

// choose translates a choose action. Among boolean values v1..vn it is
// `*` for the constants true and false, and otherwise
// schoose[v1 & ... & vn, !v1 & ... & !vn]: true when all are true, false
// when all are false, either otherwise. Into a range or enum variable,
// temporaries take any bits, an assume keeps the values the action may
// choose, and the variable takes them; a value outside a range raises the
// range error.
func (tr *translator) choose(a *ast.ChooseAction) []boolprog.Stmt {
	lhs, d := tr.lhs(a.Lhs)
	if d == nil {
		if a.Values == nil {
			tr.errorf(a.Pos(), "a range choice is not boolean")
			return nil
		}
		return assign(lhs, []boolprog.Expr{tr.boolChoice(a)})
	}
	var allowed cases
	if a.Values != nil {
		for _, v := range a.Values {
			for _, c := range tr.intExpr(v) {
				allowed = allowed.add(c.v, c.c)
			}
		}
	} else {
		lo, ok1 := tr.info.Types[a.Lo]
		hi, ok2 := tr.info.Types[a.Hi]
		if !ok1 || !ok2 || lo.Value.Kind != types.IntConst || hi.Value.Kind != types.IntConst || hi.Value.Int < lo.Value.Int || uint64(hi.Value.Int-lo.Value.Int) >= MaxCases {
			tr.errorf(a.Pos(), "a range choice translates to a boolean program with constant bounds of at most %d values", MaxCases)
			return nil
		}
		for k := uint64(0); k <= uint64(hi.Value.Int-lo.Value.Int); k++ {
			allowed = allowed.add(lo.Value.Int+int64(k), konst(true))
		}
	}
	var outside boolprog.Expr
	for _, c := range allowed {
		if d.index(c.v) < 0 {
			outside = orE(outside, c.c)
		}
	}
	if outside != nil {
		tr.raise(model.RangeError, a.Lhs.Pos(), outside)
	}
	if len(lhs) == 0 {
		return nil
	}
	if len(lhs) > tr.cur.temps {
		tr.cur.temps = len(lhs)
	}
	tmp := make([]*boolprog.Ident, len(lhs))
	star := make([]boolprog.Expr, len(lhs))
	off := make([]boolprog.Expr, len(lhs))
	for j := range tmp {
		tmp[j] = ident("{#" + strconv.Itoa(j) + "}")
		star[j] = &boolprog.Nondet{}
		off[j] = konst(false)
	}
	var keep boolprog.Expr = konst(false)
	for _, c := range allowed {
		i := d.index(c.v)
		if i < 0 {
			continue
		}
		is := c.c
		for j, t := range tmp {
			lit := boolprog.Expr(ident(t.Name))
			if i>>j&1 == 0 {
				lit = notE(lit)
			}
			is = andE(is, lit)
		}
		keep = orE(keep, is)
	}
	tmpVals := make([]boolprog.Expr, len(tmp))
	for j, t := range tmp {
		tmpVals[j] = ident(t.Name)
	}
	return []boolprog.Stmt{
		&boolprog.AssignStmt{Lhs: tmp, Rhs: star},
		&boolprog.AssumeStmt{Cond: keep},
		&boolprog.AssignStmt{Lhs: lhs, Rhs: tmpVals},
		&boolprog.AssignStmt{Lhs: tmp, Rhs: off},
	}
}

// boolChoice is the value of a choice among boolean values.
func (tr *translator) boolChoice(a *ast.ChooseAction) boolprog.Expr {
	var all, none boolprog.Expr
	canTrue, canFalse, constant := false, false, true
	for _, v := range a.Values {
		e := tr.expr(v)
		if c, ok := e.(*boolprog.Const); ok {
			canTrue, canFalse = canTrue || c.Value, canFalse || !c.Value
		} else {
			constant = false
		}
		all = and(all, e)
		none = and(none, &boolprog.Unary{X: e})
	}
	if constant {
		switch {
		case canTrue && canFalse:
			return &boolprog.Nondet{}
		default:
			return konst(canTrue)
		}
	}
	if len(a.Values) == 1 {
		return all
	}
	return &boolprog.Choose{True: all, False: none}
}

func and(x, y boolprog.Expr) boolprog.Expr {
	if x == nil {
		return y
	}
	return &boolprog.Binary{X: x, Op: boolprog.And, Y: y}
}

func isTrue(e boolprog.Expr) bool {
	c, ok := e.(*boolprog.Const)
	return ok && c.Value
}

// lhs is the bits of an assigned variable and its domain (nil: a
// boolean).
func (tr *translator) lhs(x ast.Expr) ([]*boolprog.Ident, *domain) {
	id, ok := ast.Unparen(x).(*ast.Ident)
	if ok {
		if v, ok := tr.info.Uses[id].(*types.Var); ok {
			if d, ok := domainOf(v.Type()); ok {
				return tr.idents([]*types.Var{v}), d
			}
		}
	}
	tr.errorf(x.Pos(), "a boolean program assigns variables only")
	return []*boolprog.Ident{ident("?")}, nil
}

// expr translates a boolean expression; a constant one becomes T or F.
// Comparisons of ranges and enums are the disjunctions of their cases.
func (tr *translator) expr(x ast.Expr) boolprog.Expr {
	if tv, ok := tr.info.Types[x]; ok && tv.Value.Kind == types.BoolConst {
		return konst(tv.Value.Bool)
	}
	switch x := x.(type) {
	case *ast.ParenExpr:
		return tr.expr(x.X)
	case *ast.Ident:
		if v, ok := tr.info.Uses[x].(*types.Var); ok && types.IsBoolean(v.Type()) {
			return ident(bpName(v.Name()))
		}
	case *ast.UnaryExpr:
		if x.Op == token.NOT {
			return &boolprog.Unary{X: tr.expr(x.X)}
		}
	case *ast.BinaryExpr:
		bools := types.IsBoolean(tr.info.TypeOf(x.X)) && types.IsBoolean(tr.info.TypeOf(x.Y))
		var op boolprog.Op
		switch x.Op {
		case token.LAND, token.LOR:
			l := tr.expr(x.X)
			saved := tr.ctx
			if x.Op == token.LAND {
				op, tr.ctx = boolprog.And, andE(saved, l)
			} else {
				op, tr.ctx = boolprog.Or, andE(saved, notE(l))
			}
			r := tr.expr(x.Y)
			tr.ctx = saved
			return &boolprog.Binary{X: l, Op: op, Y: r}
		case token.EQL:
			op = boolprog.Eq
		case token.NEQ:
			op = boolprog.Neq
		}
		if op != 0 && bools {
			return &boolprog.Binary{X: tr.expr(x.X), Op: op, Y: tr.expr(x.Y)}
		}
		switch x.Op {
		case token.EQL, token.NEQ, token.LSS, token.LEQ, token.GTR, token.GEQ:
			if !bools {
				a := tr.intExpr(x.X)
				b := tr.intExpr(x.Y)
				if len(a)*len(b) > MaxCases {
					tr.errorf(x.Pos(), "this comparison has more than %d cases: too many to translate to a boolean program", MaxCases)
					return konst(false)
				}
				return compare(x.Op, a, b)
			}
		}
	}
	tr.errorf(x.Pos(), "this expression is not translated to a boolean program (boolean variables and constants, !, &&, ||, == and != on booleans, comparisons of ranges and enums are)")
	return konst(false)
}

// indexAsserts records the position of every assert statement of the
// parsed program and the BIR assertion it stands for, and the position
// of every call, walking the generated and the parsed procedures side by
// side (their statements correspond one to one).
func (tr *translator) indexAsserts(gen *boolprog.Program, out *Output) {
	for i, p := range gen.Procs {
		q := out.Program.Procs[i]
		for j, s := range p.Body {
			pos := out.Fset.Position(unlabel(q.Body[j]).Pos())
			switch s := unlabel(s).(type) {
			case *boolprog.AssertStmt:
				tr.m.asserts[lineCol{pos.Line, pos.Column}] = tr.asserts[s]
			case *boolprog.CallStmt:
				tr.m.calls[lineCol{pos.Line, pos.Column}] = true
			}
		}
	}
}

func unlabel(s boolprog.Stmt) boolprog.Stmt {
	for {
		l, ok := s.(*boolprog.LabeledStmt)
		if !ok {
			return s
		}
		s = l.Stmt
	}
}
