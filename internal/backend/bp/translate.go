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
	"birch/internal/source"
)

// Translate writes the BIR program prog, a model of one thread whose data
// are all booleans, as a SLAM boolean program (see the package comment for
// the subset and the translation). A construct outside the subset is an
// error at its position (a sorted source.ErrorList).
func Translate(prog *types.Program, cfg Config) (*Output, error) {
	tr := &translator{prog: prog, info: prog.Info, fset: prog.Fset}
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
}

func (tr *translator) errorf(pos source.Pos, format string, args ...any) {
	tr.errs.Addf(tr.fset.Position(pos), format, args...)
}

// check reports what lies outside the subset at the level of
// declarations: threads, collections, non-boolean variables, properties.
func (tr *translator) check() {
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
		if p.Result != nil && !types.IsBoolean(p.Result) {
			tr.errorf(p.Pos(), "function %s returns %s: a boolean program's procedures return booleans", p.Name(), p.Result)
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
	if !types.IsBoolean(v.Type()) {
		tr.errorf(v.Pos(), "%s has type %s: a boolean program has only boolean variables", v.Name(), v.Type())
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

func idents(vs []*types.Var) []*boolprog.Ident {
	out := make([]*boolprog.Ident, len(vs))
	for i, v := range vs {
		out[i] = ident(bpName(v.Name()))
	}
	return out
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
	if len(tr.prog.Globals) > 0 {
		gen.Globals = []*boolprog.Decl{{Names: idents(tr.prog.Globals)}}
	}
	tr.m.globals = tr.prog.Globals
	tr.asserts = map[*boolprog.AssertStmt]assertOrigin{}
	for _, f := range tr.prog.Functions {
		gen.Procs = append(gen.Procs, tr.proc(f))
	}
	gen.Procs = append(gen.Procs, tr.proc(tr.main))
	return gen
}

// initial is the value a variable starts with: its declared initial value
// or false.
func initial(v *types.Var) bool { return v.Init.Kind == types.BoolConst && v.Init.Bool }

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
	pm := &procMap{proc: p, vars: p.Vars(), locs: map[string]*types.Location{}, trans: map[string]*transMap{}}
	tr.m.procs[name] = pm
	tr.cur = pm
	out := &boolprog.Proc{Name: ident(name), Params: idents(p.Params)}
	if p.Result != nil {
		out.Returns = 1
	}
	if len(p.Locals) > 0 {
		out.Locals = []*boolprog.Decl{{Names: idents(p.Locals)}}
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
	if p == tr.main {
		for _, v := range tr.prog.Globals {
			lhs, rhs = append(lhs, ident(bpName(v.Name()))), append(rhs, konst(initial(v)))
		}
	}
	for _, v := range p.Vars() {
		if v.Kind == types.ParamVar && !deadAtStart[v] {
			continue
		}
		lhs, rhs = append(lhs, ident(bpName(v.Name()))), append(rhs, konst(initial(v) && !deadAtStart[v]))
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
	return out
}

// transformation translates one transformation: assume(guard), the
// actions one statement each in order (BIR's actions are sequential, and
// so are the statements), then the move: the dead variables of the target
// reset and goto, or return, or, after an exit, assume(F).
func (tr *translator) transformation(tm *transMap) []boolprog.Stmt {
	t := tm.decl
	var body []boolprog.Stmt
	if g := tr.expr(t.Guard); !isTrue(g) {
		body = append(body, &boolprog.AssumeStmt{Cond: g})
	}
	exited := false
	for i, a := range t.Actions {
		if exited {
			break // exit ends the step at once: the actions after it do not run
		}
		switch a := a.(type) {
		case *ast.AssignAction:
			body = append(body, &boolprog.AssignStmt{Lhs: []*boolprog.Ident{tr.lhs(a.Lhs)}, Rhs: []boolprog.Expr{tr.expr(a.Rhs)}})
		case *ast.ChooseAction:
			body = append(body, &boolprog.AssignStmt{Lhs: []*boolprog.Ident{tr.lhs(a.Lhs)}, Rhs: []boolprog.Expr{tr.choice(a)}})
		case *ast.AssertAction:
			s := &boolprog.AssertStmt{Cond: tr.expr(a.Cond)}
			tr.asserts[s] = assertOrigin{trans: tm, action: i}
			body = append(body, s)
		case *ast.AssumeAction:
			body = append(body, &boolprog.AssumeStmt{Cond: tr.expr(a.Cond)})
		case *ast.PrintAction:
			// no effect on the state
		case *ast.ExitAction:
			exited = true
		case *ast.CallAction:
			body = append(body, tr.call(a))
			tm.call = true
		default:
			tr.errorf(a.Pos(), "%s is not translated to a boolean program (booleans, assignments, choices, assert, assume, call, exit and println are)", actionName(a))
		}
	}
	switch {
	case exited:
		body = append(body, &boolprog.AssumeStmt{Cond: konst(false)})
	case t.Return:
		tm.ret = true
		r := &boolprog.ReturnStmt{}
		if t.Result != nil {
			r.Results = []boolprog.Expr{tr.expr(t.Result)}
		}
		body = append(body, r)
	default:
		to, _ := tr.info.Uses[t.Target].(*types.Location)
		if to == nil {
			tr.errorf(t.Target.Pos(), "unknown location %s", t.Target.Name)
			return append(body, &boolprog.SkipStmt{})
		}
		if d := dead(tm.proc, to); len(d) > 0 {
			rhs := make([]boolprog.Expr, len(d))
			for i := range d {
				rhs[i] = konst(false)
			}
			body = append(body, &boolprog.AssignStmt{Lhs: idents(d), Rhs: rhs})
		}
		body = append(body, &boolprog.GotoStmt{Targets: []*boolprog.Ident{ident(bpName(to.Name()))}})
	}
	return body
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
	for _, x := range a.Args {
		s.Args = append(s.Args, tr.expr(x))
	}
	if a.Lhs != nil {
		s.Lhs = []*boolprog.Ident{tr.lhs(a.Lhs)}
	}
	return s
}

// choice is the value of a choose action among boolean values v1..vn:
// true when all are true, false when all are false, otherwise either, i.e.
// schoose[v1 & ... & vn, !v1 & ... & !vn]; `*` when the values are the
// constants true and false.
func (tr *translator) choice(a *ast.ChooseAction) boolprog.Expr {
	if a.Values == nil {
		tr.errorf(a.Pos(), "a range choice is not boolean: a boolean program has only booleans")
		return konst(false)
	}
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

func (tr *translator) lhs(x ast.Expr) *boolprog.Ident {
	id, ok := ast.Unparen(x).(*ast.Ident)
	if ok {
		if v, ok := tr.info.Uses[id].(*types.Var); ok && types.IsBoolean(v.Type()) {
			return ident(bpName(v.Name()))
		}
	}
	tr.errorf(x.Pos(), "a boolean program assigns boolean variables only")
	return ident("?")
}

// expr translates a boolean expression; a constant one becomes T or F.
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
		var op boolprog.Op
		switch x.Op {
		case token.LAND:
			op = boolprog.And
		case token.LOR:
			op = boolprog.Or
		case token.EQL:
			op = boolprog.Eq
		case token.NEQ:
			op = boolprog.Neq
		}
		if op != 0 && types.IsBoolean(tr.info.TypeOf(x.X)) && types.IsBoolean(tr.info.TypeOf(x.Y)) {
			return &boolprog.Binary{X: tr.expr(x.X), Op: op, Y: tr.expr(x.Y)}
		}
	}
	tr.errorf(x.Pos(), "this expression is not translated to a boolean program (boolean variables and constants, !, &&, ||, == and != on booleans are)")
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
