package c2bp

import (
	"errors"
	"fmt"
	"strings"
	"time"

	"birch/internal/abstraction/predicate"
	"birch/internal/bir/ast"
	"birch/internal/bir/format"
	"birch/internal/bir/parser"
	"birch/internal/bir/token"
	"birch/internal/bir/types"
	"birch/internal/smt"
	"birch/internal/source"
)

// pred is a predicate of the abstraction.
type pred struct {
	conc *predicate.Predicate // as parsed against the concrete program
	q    *predicate.Predicate // the same, against the query program
	name string               // its boolean variable
	term *smt.Term            // its formula (a fresh constant if it has none)
	real *smt.Term            // its formula, or nil if the encoder has none
	dom  *smt.Term            // the domain facts of what it reads
	vars map[any]bool         // what it reads: *types.Var, or "field name"
	// ok: the predicate has a formula (the encoder knows its form)
	ok bool
}

// parseCheck parses text as an expression and checks it in proc's scope of
// the query program (props forms allowed).
func (a *abstractor) parseCheck(text string, proc *types.Proc) (ast.Expr, error) {
	fs := source.NewFileSet()
	b := []byte(text)
	f := fs.AddFile("formula", b)
	x, err := parser.ParseExprAt(fs, f, b, 0, len(b), true)
	if err != nil {
		return nil, err
	}
	if _, err := a.q.prog.CheckExpr(fs, x, proc, true); err != nil {
		return nil, err
	}
	return x, nil
}

// varsOf returns what x reads: variables, and fields by name.
func (a *abstractor) varsOf(x ast.Expr) map[any]bool {
	out := map[any]bool{}
	info := a.q.prog.Info
	ast.Inspect(x, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.Ident:
			if v, ok := info.Uses[n].(*types.Var); ok && v.Kind != types.FieldVar {
				out[v] = true
			}
		case *ast.SelectorExpr:
			out["field "+n.Sel.Name] = true
		}
		return true
	})
	return out
}

// setupPreds encodes the predicates and makes the cube solver.
func (a *abstractor) setupPreds() error {
	terms := make([]*smt.Term, len(a.preds))
	for i, p := range a.preds {
		p.vars = a.varsOf(p.q.Expr)
		t, dom, err := a.enc.FormulaDomain(p.q.Expr)
		p.real = t
		if err != nil || a.linearOnly && !smt.IsLinear(t) {
			// a predicate without a formula (or a nonlinear one, which
			// would make every cube with it a query the embedded solver
			// cannot decide): a constant of its own, which no query can
			// relate to anything (its value is unknown after every step
			// that may change it)
			t, dom = a.tm.Const(fmt.Sprintf("abs!pred%d", i), smt.BoolSort), a.tm.True()
		} else {
			p.ok = true
		}
		p.term, p.dom = t, dom
		terms[i] = t
	}
	a.findUnsat()
	a.cubes = predicate.NewCubes(a.solver, terms)
	a.cubes.MaxLen = a.cfg.CubeLength
	a.cubes.Shared = a.cfg.Cache
	a.cubes.Stop = func() bool {
		// a cancelled abstraction, or a search past its budget (a cone of
		// many predicates has millions of cubes of three literals)
		a.budget--
		return a.budget < 0 || a.cfg.Context != nil && a.cfg.Context.Err() != nil
	}
	return nil
}

// maxCubeVisits bounds the cubes one F visits: past it, F keeps the cubes
// found so far (weaker, still sound).
const maxCubeVisits = 1000

// maxCubesOut bounds the cubes of one bound in the abstract model: a
// longer disjunction would pass BIR's nesting bound (1000); the rest are
// left out (a weaker F, still sound).
const maxCubesOut = 200

// maxEnforce bounds the predicates whose pairs findUnsat asks about.
const maxEnforce = 64

// findUnsat lists the cubes of one or two literals that no state
// satisfies (under the domain facts), C2bp's enforce: a step whose chosen
// new values form one has no concrete counterpart, and the abstract step
// assumes that it does not (x < 3 && !(x < 5), say, after both are
// chosen).
func (a *abstractor) findUnsat() {
	n := len(a.preds)
	if n > maxEnforce {
		n = maxEnforce
	}
	lit := func(i int, neg bool) *smt.Term {
		if neg {
			return a.tm.Not(a.preds[i].term)
		}
		return a.preds[i].term
	}
	unsat := func(hyp, concl *smt.Term) bool {
		a.stats.Queries++
		start := time.Now()
		ok, _ := smt.Implies(a.solver, hyp, concl)
		a.stats.SolverTime += time.Since(start)
		return ok
	}
	single := map[predicate.Literal]bool{}
	for i := 0; i < n; i++ {
		p := a.preds[i]
		if !p.ok {
			continue
		}
		for _, neg := range []bool{false, true} {
			if unsat(a.tm.And(p.dom, lit(i, neg)), a.tm.False()) {
				single[predicate.Literal{Pred: i, Neg: neg}] = true
				a.unsatCubes = append(a.unsatCubes, predicate.Cube{{Pred: i, Neg: neg}})
			}
		}
	}
	for i := 0; i < n; i++ {
		for j := i + 1; j < n; j++ {
			p, q := a.preds[i], a.preds[j]
			if !p.ok || !q.ok || !shares(p.vars, q.vars) {
				continue
			}
			for _, ni := range []bool{false, true} {
				for _, nj := range []bool{false, true} {
					if single[predicate.Literal{Pred: i, Neg: ni}] || single[predicate.Literal{Pred: j, Neg: nj}] {
						continue
					}
					if unsat(a.tm.And(p.dom, q.dom, lit(i, ni)), a.tm.Not(lit(j, nj))) {
						a.unsatCubes = append(a.unsatCubes, predicate.Cube{{Pred: i, Neg: ni}, {Pred: j, Neg: nj}})
					}
				}
			}
		}
	}
}

func shares(x, y map[any]bool) bool {
	for v := range x {
		if y[v] {
			return true
		}
	}
	return false
}

// enforce is the condition that the new values of the predicates changed
// (indices) form no unsatisfiable cube, over the predicates visible in
// proc: assume actions, each of at most maxCubesOut clauses (BIR's
// nesting bound).
func (a *abstractor) enforce(changed map[int]bool, proc *types.Proc) []string {
	var out []string
	for cs := a.enforceClauses(changed, proc); len(cs) > 0; {
		n := min(len(cs), maxCubesOut)
		out = append(out, "assume("+strings.Join(cs[:n], " && ")+");")
		cs = cs[n:]
	}
	return out
}

// enforceClauses lists the clauses of enforce.
func (a *abstractor) enforceClauses(changed map[int]bool, proc *types.Proc) []string {
	var cs []string
	for _, c := range a.unsatCubes {
		touched, visible := false, true
		var ls []string
		for _, l := range c {
			touched = touched || changed[l.Pred]
			visible = visible && a.visible(a.preds[l.Pred], proc)
			name := a.preds[l.Pred].name
			if l.Neg {
				name = "!" + name
			}
			ls = append(ls, name)
		}
		if touched && visible {
			cs = append(cs, not(paren(strings.Join(ls, " && "))))
		}
	}
	return cs
}

// low returns a boolean expression over the abstract model's variables
// (the predicates' booleans and the concrete data) that implies x in every
// concrete state it stands for: x's parts that read only concrete data
// and cannot fail stay as written, and each maximal part that reads
// abstracted data becomes F of it over the predicates (C2bp's F, over the
// cone of influence). up is the dual: x implies up(x).
func (a *abstractor) low(x ast.Expr, proc *types.Proc) string { return a.bound(x, proc, true) }
func (a *abstractor) up(x ast.Expr, proc *types.Proc) string  { return a.bound(x, proc, false) }

func (a *abstractor) bound(x ast.Expr, proc *types.Proc, low bool) string {
	if err := a.ctxErr(); err != nil {
		return sound(low)
	}
	x = ast.Unparen(x)
	if v, ok := a.boolConst(x); ok {
		return fmt.Sprint(v)
	}
	if !a.solverPart(x, proc) {
		return paren(format.Expr(x))
	}
	switch x := x.(type) {
	case *ast.UnaryExpr:
		if x.Op == token.NOT {
			return not(a.bound(x.X, proc, !low))
		}
	case *ast.BinaryExpr:
		if x.Op == token.ARROW && !(a.solverPart(x.X, proc) && a.solverPart(x.Y, proc)) {
			// a -> b is !a || b, so a concrete side stays as written
			// (an invariant's location test, say)
			return or(not(a.bound(x.X, proc, !low)), a.bound(x.Y, proc, low))
		}
		if x.Op == token.LAND || x.Op == token.LOR {
			// the operands of a chain of one operator: the concrete ones
			// stay, the others go to the solver together
			var ops []ast.Expr
			flatten(x, x.Op, &ops)
			var conc []string
			var solv ast.Expr
			for _, o := range ops {
				if a.solverPart(o, proc) {
					if solv == nil {
						solv = o
					} else {
						solv = a.mkBin(x.Op, solv, o)
					}
				} else if s := paren(format.Expr(o)); !(s == "true" && x.Op == token.LAND || s == "false" && x.Op == token.LOR) {
					conc = append(conc, s)
				}
			}
			if solv == nil {
				return paren(format.Expr(x))
			}
			if len(conc) == 0 {
				return a.atom(solv, proc, low)
			}
			rest := a.bound(solv, proc, low)
			if x.Op == token.LAND {
				return and(paren(strings.Join(conc, " && ")), rest)
			}
			return or(paren(strings.Join(conc, " || ")), rest)
		}
	}
	return a.atom(x, proc, low)
}

// solverPart reports whether a boolean expression goes to the cube
// queries rather than into the abstract model as written: it reads
// abstracted data, may fail, or names a variable that proc's scope does
// not see under that name (a local of another thread, a global hidden by
// a local of proc).
func (a *abstractor) solverPart(x ast.Expr, proc *types.Proc) bool {
	if a.needsSolver(x) {
		return true
	}
	info := a.q.prog.Info
	foreign := false
	ast.Inspect(x, func(n ast.Node) bool {
		id, ok := n.(*ast.Ident)
		if !ok || foreign {
			return !foreign
		}
		switch o := info.Uses[id].(type) {
		case *types.Var:
			if o.Kind == types.FieldVar {
				return true
			}
			if o.Owner != nil && o.Owner != proc {
				foreign = true
			} else if o.Owner == nil && shadowed(proc, o.Name()) {
				foreign = true
			}
		case *types.Const, *types.EnumConst:
			foreign = shadowed(proc, o.Name())
		}
		return !foreign
	})
	return foreign
}

// shadowed reports whether proc has a parameter or local named name.
func shadowed(proc *types.Proc, name string) bool {
	if proc == nil {
		return false
	}
	for _, v := range proc.Vars() {
		if v.Name() == name {
			return true
		}
	}
	return false
}

// boolConst is the value of a constant boolean expression.
func (a *abstractor) boolConst(x ast.Expr) (bool, bool) {
	if tv := a.q.prog.Info.Types[x]; tv.Value.Kind == types.BoolConst {
		return tv.Value.Bool, true
	}
	if l, ok := ast.Unparen(x).(*ast.BasicLit); ok && (l.Kind == token.TRUE || l.Kind == token.FALSE) {
		return l.Kind == token.TRUE, true
	}
	return false, false
}

// mkBool builds a boolean literal, typed and valued in the query program.
func (a *abstractor) mkBool(v bool) ast.Expr {
	l := &ast.BasicLit{Kind: token.FALSE, Value: "false"}
	if v {
		l.Kind, l.Value = token.TRUE, "true"
	}
	a.q.prog.Info.Types[l] = types.TypeAndValue{Type: types.Typ[types.Bool], Value: types.ConstValue{Kind: types.BoolConst, Bool: v}}
	return l
}

// mkBin builds x op y (op && or ||), typed boolean in the query program,
// folding true and false.
func (a *abstractor) mkBin(op token.Kind, x, y ast.Expr) ast.Expr {
	for _, c := range [][2]ast.Expr{{x, y}, {y, x}} {
		if v, ok := a.boolConst(c[0]); ok {
			switch {
			case op == token.LAND && v, op == token.LOR && !v:
				return c[1]
			default:
				return a.mkBool(v)
			}
		}
	}
	b := &ast.BinaryExpr{X: a.mkParen(x), Op: op, Y: a.mkParen(y)}
	a.q.prog.Info.Types[b] = types.TypeAndValue{Type: types.Typ[types.Bool]}
	return b
}

func (a *abstractor) mkParen(x ast.Expr) ast.Expr {
	if _, ok := x.(*ast.ParenExpr); ok {
		return x
	}
	p := &ast.ParenExpr{X: x}
	a.q.prog.Info.Types[p] = types.TypeAndValue{Type: types.Typ[types.Bool]}
	return p
}

// mkNot builds !x, typed boolean in the query program.
func (a *abstractor) mkNot(x ast.Expr) ast.Expr {
	if v, ok := a.boolConst(x); ok {
		return a.mkBool(!v)
	}
	u := &ast.UnaryExpr{Op: token.NOT, X: a.mkParen(x)}
	a.q.prog.Info.Types[u] = types.TypeAndValue{Type: types.Typ[types.Bool]}
	return u
}

// flatten lists the operands of a chain of op.
func flatten(x ast.Expr, op token.Kind, out *[]ast.Expr) {
	x = ast.Unparen(x)
	if b, ok := x.(*ast.BinaryExpr); ok && b.Op == op {
		flatten(b.X, op, out)
		flatten(b.Y, op, out)
		return
	}
	*out = append(*out, x)
}

// sound is the formula that claims nothing: false for low, true for up.
func sound(low bool) string {
	if low {
		return "false"
	}
	return "true"
}

// atom is F(x) (low) or G(x) (up) over the predicates that share a
// variable with x, under the domain facts of what x and those predicates
// read.
func (a *abstractor) atom(x ast.Expr, proc *types.Proc, low bool) string {
	t, dom, err := a.enc.FormulaDomain(x)
	if err != nil {
		return sound(low)
	}
	// the concrete variables of small types the part reads: the abstract
	// state knows their values, so the part is bounded once per valuation
	// (F(x) = the disjunction over v of c == v && F(c == v -> x))
	cvs, vals := a.concreteVars(x, proc)
	if len(cvs) == 0 {
		return a.atomUnder(x, t, dom, proc, low)
	}
	var ds []string
	for _, val := range valuations(vals) {
		var conds []string
		hyp := dom
		ok := true
		for i, v := range cvs {
			id := &ast.Ident{Name: v.Name()}
			a.q.prog.Info.Uses[id] = v
			a.q.prog.Info.Types[id] = types.TypeAndValue{Type: v.Type()}
			eq, err := a.mkEq(id, val[i])
			if err != nil {
				ok = false
				break
			}
			et, edom, err := a.enc.FormulaDomain(eq)
			if err != nil {
				ok = false
				break
			}
			hyp = a.tm.And(hyp, et, edom)
			conds = append(conds, valueTest(v, val[i]))
		}
		if !ok {
			return a.atomUnder(x, t, dom, proc, low)
		}
		b := a.atomUnder(x, t, hyp, proc, low)
		if b == "false" {
			continue
		}
		ds = append(ds, and(paren(strings.Join(conds, " && ")), b))
	}
	if len(ds) == 0 {
		return "false"
	}
	return paren(strings.Join(ds, " || "))
}

// maxValuations bounds the valuations of the concrete variables of one
// part of a formula that atom bounds one by one.
const maxValuations = 8

// concreteVars lists the concrete variables of boolean, enum or small
// range type that x reads and proc's scope sees under their names, with
// the BIR text of each one's values, when their valuations are at most
// maxValuations (none otherwise).
func (a *abstractor) concreteVars(x ast.Expr, proc *types.Proc) ([]*types.Var, [][]string) {
	var vs []*types.Var
	var vals [][]string
	seen := map[*types.Var]bool{}
	n := 1
	ast.Inspect(x, func(node ast.Node) bool {
		switch node := node.(type) {
		case *ast.SelectorExpr, *ast.RemoteRef:
			return false // a field, or another thread's variable
		case *ast.Ident:
			v, ok := a.q.prog.Info.Uses[node].(*types.Var)
			if !ok || seen[v] || a.isAbs(v) || v.Kind == types.FieldVar {
				return true
			}
			if v.Owner != nil && v.Owner != proc || v.Owner == nil && shadowed(proc, v.Name()) {
				return true
			}
			vv := valuesOf(v.Type())
			if vv == nil || n*len(vv) > maxValuations {
				return true
			}
			n *= len(vv)
			seen[v] = true
			vs = append(vs, v)
			vals = append(vals, vv)
		}
		return true
	})
	return vs, vals
}

// valuesOf lists the values of a boolean, enum or range type of at most
// maxValuations values, as BIR text, or nil.
func valuesOf(t types.Type) []string {
	switch u := t.Underlying().(type) {
	case *types.Basic:
		if u.Kind == types.Bool {
			return []string{"true", "false"}
		}
	case *types.Enum:
		if len(u.Consts) <= maxValuations {
			var out []string
			for _, c := range u.Consts {
				out = append(out, c.Name())
			}
			return out
		}
	case *types.Range:
		if u.Span() < maxValuations {
			return rangeValues(u)
		}
	}
	return nil
}

// rangeValues lists the values of a range type as BIR text (a range of
// few values: the caller bounds its Span).
func rangeValues(u *types.Range) []string {
	out := make([]string, 0, u.Span()+1)
	for k := uint64(0); k <= u.Span(); k++ {
		out = append(out, fmt.Sprint(u.Lo+int64(k)))
	}
	return out
}

// valuations lists every combination of one value per variable.
func valuations(vals [][]string) [][]string {
	out := [][]string{nil}
	for _, vs := range vals {
		var next [][]string
		for _, o := range out {
			for _, v := range vs {
				next = append(next, append(append([]string(nil), o...), v))
			}
		}
		out = next
	}
	return out
}

// valueTest is the test that v has the value val: v or !v for a boolean,
// v == val otherwise.
func valueTest(v *types.Var, val string) string {
	switch val {
	case "true":
		return v.Name()
	case "false":
		return "!" + v.Name()
	}
	return v.Name() + " == " + val
}

// atomUnder is F(x) (low) or G(x) (up), t x's formula, under the
// hypothesis dom (x's domain, and any facts of the abstract state).
func (a *abstractor) atomUnder(x ast.Expr, t, dom *smt.Term, proc *types.Proc, low bool) string {
	if a.linearOnly && !smt.IsLinear(t) {
		// the embedded solver decides linear arithmetic; a product of
		// two variables or a division by one would take every query to
		// its limit, unknown
		a.stats.Unknowns++
		return sound(low)
	}
	vars := a.varsOf(x)
	var cone []int
	hyp := []*smt.Term{dom}
	for i, p := range a.preds {
		if !p.ok || !a.visible(p, proc) {
			continue
		}
		for v := range p.vars {
			if vars[v] {
				cone = append(cone, i)
				hyp = append(hyp, p.dom)
				break
			}
		}
	}
	h := a.tm.And(hyp...)
	target := t
	if !low {
		target = a.tm.Not(t)
	}
	// the empty cube first: a formula that holds in every state
	a.stats.Queries++
	start := time.Now()
	valid, err := smt.Implies(a.solver, h, target)
	a.stats.SolverTime += time.Since(start)
	if err != nil {
		a.stats.Unknowns++
		if !errors.Is(err, smt.ErrUnknown) && a.solverErr == nil {
			a.solverErr = err
		}
	}
	if valid {
		return not0(low, "true")
	}
	if len(cone) == 0 {
		return not0(low, "false")
	}
	a.budget = maxCubeVisits
	b := a.cubes.FOver(a.tm.Implies(h, target), cone)
	if a.budget < 0 {
		a.stats.Unknowns++ // F is weaker than it could be
	}
	if len(b.Cubes) > maxCubesOut {
		b.Cubes = b.Cubes[:maxCubesOut]
		a.stats.Unknowns++
	}
	var ds []string
	for _, c := range b.Cubes {
		var ls []string
		for _, l := range c {
			s := a.preds[l.Pred].name
			if l.Neg {
				s = "!" + s
			}
			ls = append(ls, s)
		}
		if len(ls) == 0 {
			ds = append(ds, "true")
			continue
		}
		ds = append(ds, strings.Join(ls, " && "))
	}
	f := "false"
	if len(ds) == 1 {
		f = ds[0]
		if len(b.Cubes[0]) > 1 {
			f = "(" + f + ")"
		}
	} else if len(ds) > 1 {
		for i, d := range ds {
			if len(b.Cubes[i]) > 1 {
				ds[i] = "(" + d + ")"
			}
		}
		f = "(" + strings.Join(ds, " || ") + ")"
	}
	return not0(low, f)
}

// not0 is f for low and !f for up (G(x) = !F(!x)).
func not0(low bool, f string) string {
	if low {
		return f
	}
	return not(f)
}

// paren wraps s in parentheses unless it is a name or a literal.
func paren(s string) string {
	simple := true
	for _, c := range s {
		if !(c == '_' || c == '!' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9') {
			simple = false
			break
		}
	}
	if simple || strings.HasPrefix(s, "(") && closes(s) {
		return s
	}
	return "(" + s + ")"
}

// closes reports whether the parenthesis that opens s closes at its end.
func closes(s string) bool {
	depth := 0
	for i, c := range s {
		switch c {
		case '(':
			depth++
		case ')':
			depth--
			if depth == 0 {
				return i == len(s)-1
			}
		}
	}
	return false
}

func not(s string) string {
	switch s {
	case "true":
		return "false"
	case "false":
		return "true"
	}
	if strings.HasPrefix(s, "!") && paren(s[1:]) == s[1:] {
		return s[1:]
	}
	return "!" + paren(s)
}

func and(x, y string) string {
	switch {
	case x == "false" || y == "false":
		return "false"
	case x == "true":
		return y
	case y == "true":
		return x
	}
	return "(" + paren(x) + " && " + paren(y) + ")"
}

func or(x, y string) string {
	switch {
	case x == "true" || y == "true":
		return "true"
	case x == "false":
		return y
	case y == "false":
		return x
	}
	return "(" + paren(x) + " || " + paren(y) + ")"
}

// ctxErr reports a cancelled context.
func (a *abstractor) ctxErr() error {
	if a.cfg.Context == nil {
		return nil
	}
	return a.cfg.Context.Err()
}
