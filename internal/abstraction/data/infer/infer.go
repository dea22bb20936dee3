package infer

import (
	"fmt"
	"sort"
	"strings"

	"birch/internal/abstraction/data"
	"birch/internal/bir/ast"
	"birch/internal/bir/format"
	"birch/internal/bir/token"
	"birch/internal/bir/types"
	"birch/internal/source"
)

// Config configures Infer. The zero value leaves unconstrained variables
// concrete.
type Config struct {
	// DefaultPoint abstracts the variables and expressions that no
	// selection constrains with point instead of leaving them concrete.
	DefaultPoint bool
	// Coercions are the declared coercions (ResolveCoercions): each puts
	// its From below its To, so that where the two meet the value gets To,
	// not point. The order is closed transitively and must have no cycle.
	Coercions []DeclaredCoercion
}

// Result is the outcome of abstract type inference: the abstraction of
// every integer variable, function result, expression and comparison, and
// the coercions the abstract model needs. Concrete integers are the
// library's concrete abstraction (Identity), never nil.
type Result struct {
	Vars  map[*types.Var]*data.Abstraction // integer variables and fields; for arrays, their elements
	Funcs map[*types.Proc]*data.Abstraction
	// Exprs holds every integer (or integer array) expression.
	Exprs map[ast.Expr]*data.Abstraction
	// Tests holds the abstraction each comparison of integers is decided
	// in (the least upper bound of its operands').
	Tests map[*ast.BinaryExpr]*data.Abstraction
	// Coercions lists, in source order, where a value of one abstraction
	// meets a context of another: a concrete value (often a constant)
	// flowing into an abstracted variable or operation, or an abstract one
	// into a point context.
	Coercions []Coercion
	// Warnings report precision lost: two abstractions meeting in an
	// unbound place, which point then abstracts.
	Warnings source.ErrorList
	// Declared lists the declared coercions in effect (Config.Coercions
	// without those the default order has), in declaration order.
	Declared []DeclaredCoercion
}

// Coercion is one place where a value of abstraction From is converted to
// abstraction To.
type Coercion struct {
	Pos      source.Pos
	Expr     ast.Expr // the coerced value
	From, To *data.Abstraction
}

// Infer computes the least abstraction of every integer-valued construct of
// prog given the selections, as Bandera does (its paper's section 5).
// Constraints are generated from value flows: a variable reference has its
// variable's abstraction; the operands of an operation or a comparison lie
// at or below it (they are coerced to it); the value assigned, passed as an
// argument, returned or chosen lies at or below its destination. The
// lattice has concrete below every abstraction and point above; two
// different abstractions meet at point unless declared coercions
// (Config.Coercions) order them: then they meet at the greater one, or at
// the least abstraction above both when there is one. A selected variable is fixed at its
// abstraction: a value of another abstraction flowing into it is a conflict,
// reported with the positions of the flow and of both bindings. Constructs
// left unconstrained become concrete when their values flow into
// constrained ones (to be coerced there), and otherwise concrete or point
// (Config.DefaultPoint). lib must provide "concrete" and "point".
func Infer(prog *types.Program, lib Lookup, sel []Selection, cfg Config) (*Result, error) {
	concrete, err := lib.Lookup("concrete")
	if err != nil {
		return nil, err
	}
	point, err := lib.Lookup("point")
	if err != nil {
		return nil, err
	}
	ord, err := newOrder(cfg.Coercions, point)
	if err != nil {
		return nil, err
	}
	g := &graph{
		prog: prog, info: prog.Info, concrete: concrete, point: point, order: ord,
		varNode: map[*types.Var]int{}, fnNode: map[*types.Proc]int{},
		exprNode: map[ast.Expr]int{}, testNode: map[*ast.BinaryExpr]int{},
		constant: map[int]bool{},
	}
	g.program()
	return g.solve(sel, cfg)
}

// graph is the constraint graph: nodes joined by equalities (union-find)
// and ordered by flows (edges src ⊑ dst).
type graph struct {
	prog     *types.Program
	info     *types.Info
	concrete *data.Abstraction
	point    *data.Abstraction
	order    *order // declared coercions

	parent []int
	edges  []edge

	varNode  map[*types.Var]int
	fnNode   map[*types.Proc]int
	exprNode map[ast.Expr]int
	testNode map[*ast.BinaryExpr]int

	warnings source.ErrorList

	// concrete lists the values BIR needs concrete: array indices, the
	// lengths of new arrays, the bounds of range choices.
	needs []need
	// constant marks the nodes of constants, which are concrete values
	// coerced where they flow, never defaulted to point.
	constant map[int]bool
}

// need is a value that must stay concrete.
type need struct {
	node int
	x    ast.Expr
	what string // "the index i of a[i]"
}

type edge struct {
	src, dst int
	pos      source.Pos
	expr     ast.Expr // the value flowing, or nil
}

func (g *graph) newNode() int {
	g.parent = append(g.parent, len(g.parent))
	return len(g.parent) - 1
}

func (g *graph) find(n int) int {
	for g.parent[n] != n {
		g.parent[n] = g.parent[g.parent[n]]
		n = g.parent[n]
	}
	return n
}

func (g *graph) union(a, b int) {
	a, b = g.find(a), g.find(b)
	if a != b {
		if a > b {
			a, b = b, a
		}
		g.parent[b] = a
	}
}

func (g *graph) flow(src, dst int, pos source.Pos, x ast.Expr) {
	if src >= 0 && dst >= 0 {
		g.edges = append(g.edges, edge{src, dst, pos, x})
	}
}

func (g *graph) varOf(v *types.Var) int {
	n, ok := g.varNode[v]
	if !ok {
		n = g.newNode()
		g.varNode[v] = n
	}
	return n
}

func (g *graph) fnOf(p *types.Proc) int {
	n, ok := g.fnNode[p]
	if !ok {
		n = g.newNode()
		g.fnNode[p] = n
	}
	return n
}

// valueNode gives expression x a node of its own.
func (g *graph) valueNode(x ast.Expr) int {
	n := g.newNode()
	g.exprNode[x] = n
	return n
}

// program generates the constraints of the whole system.
func (g *graph) program() {
	prog := g.prog
	for _, v := range prog.Globals {
		if abstractable(v.Type()) {
			g.varOf(v)
		}
	}
	done := map[*ast.VarDecl]bool{}
	decls := func(vs []*types.Var) {
		for _, v := range vs {
			if abstractable(v.Type()) {
				g.varOf(v)
			}
			if d := v.Decl; d != nil && d.Init != nil && !done[d] {
				done[d] = true
				init := g.expr(d.Init)
				for _, id := range d.Names {
					if w, ok := g.info.Defs[id].(*types.Var); ok && abstractable(w.Type()) {
						g.flow(init, g.varOf(w), d.Init.Pos(), d.Init)
					}
				}
			}
		}
	}
	decls(prog.Globals)
	for _, tn := range prog.Types {
		if rec, ok := tn.Type().Underlying().(*types.Record); ok {
			decls(rec.Fields)
		}
	}
	for _, p := range prog.Functions {
		if p.Result != nil && abstractable(p.Result) {
			g.fnOf(p)
		}
	}
	for _, procs := range [][]*types.Proc{prog.Threads, prog.Functions} {
		for _, p := range procs {
			decls(p.Params)
			decls(p.Locals)
			body := p.Body()
			if body == nil {
				continue
			}
			for _, loc := range body.Locations {
				for _, t := range loc.Transformations {
					g.transformation(p, t)
				}
			}
		}
	}
	for _, pd := range prog.Predicates {
		if pd.Decl != nil {
			g.expr(pd.Decl.Expr)
		}
	}
	for _, pp := range prog.Properties {
		if pp.Decl != nil {
			g.expr(pp.Decl.Expr)
		}
	}
}

func (g *graph) transformation(p *types.Proc, t *ast.Transformation) {
	if t.Guard != nil {
		g.expr(t.Guard)
	}
	for _, a := range t.Actions {
		g.action(a)
	}
	if t.Return && t.Result != nil {
		r := g.expr(t.Result)
		if n, ok := g.fnNode[p]; ok {
			g.flow(r, n, t.Result.Pos(), t.Result)
		}
	}
}

// args makes the arguments of a call or start flow into the parameters.
func (g *graph) args(callee ast.Node, args []ast.Expr, id *ast.Ident) {
	pr, _ := g.info.Uses[id].(*types.Proc)
	for i, x := range args {
		a := g.expr(x)
		if pr != nil && i < len(pr.Params) && abstractable(pr.Params[i].Type()) {
			g.flow(a, g.varOf(pr.Params[i]), x.Pos(), x)
		}
	}
}

func (g *graph) action(a ast.Action) {
	switch a := a.(type) {
	case *ast.AssignAction:
		l := g.expr(a.Lhs)
		r := g.expr(a.Rhs)
		g.flow(r, l, a.Rhs.Pos(), a.Rhs)
	case *ast.NewAction:
		g.expr(a.Lhs)
		if a.Len != nil {
			g.needConcrete(g.expr(a.Len), a.Len, "the length "+format.Expr(a.Len)+" of new "+a.Collection.Name)
		}
	case *ast.ChooseAction:
		l := g.expr(a.Lhs)
		for _, v := range a.Values {
			g.flow(g.expr(v), l, v.Pos(), v)
		}
		for _, v := range []ast.Expr{a.Lo, a.Hi} {
			if v != nil {
				n := g.expr(v)
				g.needConcrete(n, v, "the bound "+format.Expr(v)+" of a range choice")
				g.flow(n, l, v.Pos(), v)
			}
		}
	case *ast.ForallAction:
		g.expr(a.Lhs)
	case *ast.ReachableAction:
		g.expr(a.Lhs)
		g.expr(a.From)
	case *ast.LockAction:
		g.expr(a.Lock)
	case *ast.StartAction:
		if a.Lhs != nil {
			g.expr(a.Lhs)
		}
		g.args(a, a.Args, a.Thread)
	case *ast.CallAction:
		g.args(a, a.Args, a.Func)
		if a.Lhs != nil {
			l := g.expr(a.Lhs)
			if pr, ok := g.info.Uses[a.Func].(*types.Proc); ok {
				if n, ok := g.fnNode[pr]; ok && l >= 0 {
					// The same abstraction: an abstract model cannot convert
					// a value after a call, the last action of a step.
					g.union(n, l)
				}
			}
		}
	case *ast.PrintAction:
		for _, x := range a.Args {
			g.expr(x)
		}
	case *ast.AssertAction:
		g.expr(a.Cond)
	case *ast.AssumeAction:
		g.expr(a.Cond)
	}
}

// isValue reports whether x is an integer (or integer array) expression,
// which gets a node.
func (g *graph) isValue(x ast.Expr) bool {
	t := g.info.TypeOf(x)
	return t != nil && abstractable(t)
}

// expr generates the constraints of x and returns its node, or -1 when x
// is not an integer value.
func (g *graph) expr(x ast.Expr) int {
	switch x := x.(type) {
	case *ast.Ident:
		if !g.isValue(x) {
			return -1
		}
		n := g.valueNode(x)
		if v, ok := g.info.Uses[x].(*types.Var); ok {
			g.union(n, g.varOf(v))
		}
		if _, ok := g.info.Uses[x].(*types.Var); !ok {
			g.constant[n] = true
		}
		return n // a constant: free, coerced by its context
	case *ast.BasicLit:
		if x.Kind != token.INT {
			return -1
		}
		n := g.valueNode(x)
		g.constant[n] = true
		return n
	case *ast.ParenExpr:
		return g.same(x, x.X)
	case *ast.ConvExpr:
		// T(e) of an abstracted e is e itself in the abstract model, whose
		// operators work on the mathematical integers: the same value as e
		// (absgen records where it may wrap, which a pass does not cover).
		return g.same(x, x.X)
	case *ast.UnaryExpr:
		in := g.expr(x.X)
		if x.Op == token.TILDE {
			return g.bitwise(x, x.X, in, -1)
		}
		if x.Op == token.ADD && in >= 0 {
			n := g.valueNode(x)
			g.union(n, in)
			return n
		}
		if x.Op != token.SUB || in < 0 {
			return -1
		}
		n := g.valueNode(x)
		g.flow(in, n, x.OpPos, x.X)
		return n
	case *ast.BinaryExpr:
		l, r := g.expr(x.X), g.expr(x.Y)
		switch x.Op {
		case token.ADD, token.SUB, token.MUL, token.QUO, token.REM:
			n := g.valueNode(x)
			g.flow(l, n, x.OpPos, x.X)
			g.flow(r, n, x.OpPos, x.Y)
			return n
		case token.AND, token.OR, token.XOR, token.SHL, token.SHR:
			return g.bitwise(x, x.X, l, r)
		case token.EQL, token.NEQ, token.LSS, token.LEQ, token.GTR, token.GEQ:
			if l >= 0 && r >= 0 {
				t := g.newNode()
				g.testNode[x] = t
				g.flow(l, t, x.OpPos, x.X)
				g.flow(r, t, x.OpPos, x.Y)
			}
		}
		return -1
	case *ast.SelectorExpr:
		g.expr(x.X)
		if !g.isValue(x) {
			return -1
		}
		n := g.valueNode(x)
		if f := g.field(x); f != nil {
			g.union(n, g.varOf(f))
		}
		return n
	case *ast.IndexExpr:
		arr := g.expr(x.X)
		g.needConcrete(g.expr(x.Index), x.Index, "the index "+format.Expr(x.Index)+" of "+format.Expr(x))
		if !g.isValue(x) {
			return -1
		}
		n := g.valueNode(x)
		if arr >= 0 {
			g.union(n, arr) // an array and its elements share their abstraction
		} else {
			// An element of a heap array: those are not abstracted.
			g.needConcrete(n, x, "the element "+format.Expr(x)+" of a heap array")
		}
		return n
	case *ast.LengthExpr:
		g.expr(x.X)
		n := g.valueNode(x)
		g.constant[n] = true // a concrete value, coerced where it flows
		return n
	case *ast.RemoteRef:
		if x.Instance != nil {
			g.expr(x.Instance)
		}
		in := g.expr(x.X)
		if in < 0 {
			return -1
		}
		n := g.valueNode(x)
		g.union(n, in)
		return n
	case *ast.InstanceofExpr:
		g.expr(x.X)
	case *ast.BuiltinExpr:
		g.expr(x.X)
	case *ast.LocationTest:
		if x.Instance != nil {
			g.expr(x.Instance)
		}
	}
	return -1
}

// same gives x, whose value is that of its operand y, y's node (or -1).
func (g *graph) same(x, y ast.Expr) int {
	in := g.expr(y)
	if in < 0 {
		return -1
	}
	n := g.valueNode(x)
	g.union(n, in)
	return n
}

// bitwise gives the bitwise operation x, whose operands are a and b (nodes
// l and r, -1 for none), a node of its own: a concrete value, coerced where
// it flows. Abstract tokens have no bits, so its operands must be concrete
// (an abstracted one is an error at it: docs/abstraction.md, "Values that
// must stay concrete").
func (g *graph) bitwise(x, a ast.Expr, l, r int) int {
	op := ""
	switch y := x.(type) {
	case *ast.UnaryExpr:
		op = y.Op.String()
	case *ast.BinaryExpr:
		op = y.Op.String()
		g.needConcrete(r, y.Y, "the operand "+format.Expr(y.Y)+" of the bitwise operator "+op+" in "+format.Expr(x))
	}
	g.needConcrete(l, a, "the operand "+format.Expr(a)+" of the bitwise operator "+op+" in "+format.Expr(x))
	if !g.isValue(x) {
		return -1
	}
	n := g.valueNode(x)
	g.constant[n] = true // a concrete value, coerced where it flows
	return n
}

func (g *graph) needConcrete(n int, x ast.Expr, what string) {
	if n >= 0 {
		g.needs = append(g.needs, need{n, x, what})
	}
}

// field returns the record field x selects.
func (g *graph) field(x *ast.SelectorExpr) *types.Var {
	t := g.info.TypeOf(x.X)
	if t == nil {
		return nil
	}
	r, ok := t.Underlying().(*types.Ref)
	if !ok || r.Target == nil {
		return nil
	}
	rec, ok := r.Target.Underlying().(*types.Record)
	if !ok {
		return nil
	}
	return rec.Field(x.Sel.Name)
}

// level orders the lattice: ⊥ (nil) < concrete < abstractions < point.
func (g *graph) level(a *data.Abstraction) int {
	switch {
	case a == nil:
		return 0
	case a == g.concrete || a.Identity:
		return 1
	case a == g.point:
		return 3
	}
	return 2
}

func (g *graph) lub(a, b *data.Abstraction) *data.Abstraction {
	la, lb := g.level(a), g.level(b)
	switch {
	case a == b || lb == 0:
		return a
	case la == 0:
		return b
	case la == 2 && lb == 2:
		if j := g.order.join(a, b); j != nil {
			return j
		}
		return g.point
	case la > lb:
		return a
	}
	return b
}

func (g *graph) solve(sel []Selection, cfg Config) (*Result, error) {
	fset := g.prog.Fset
	var errs source.ErrorList
	nn := len(g.parent)
	val := make([]*data.Abstraction, nn)
	pinned := make([]*Selection, nn)
	origin := make([]*Selection, nn) // the selection whose abstraction reached a node
	meet := make([]string, nn)       // where two abstractions met, making a node point
	for i := range sel {
		s := &sel[i]
		n := g.find(g.varOf(s.Var))
		if p := pinned[n]; p != nil && p.Abstraction != s.Abstraction {
			errs.Addf(fset.Position(s.Var.Pos()), "conflict: %s is bound to %s by %s, but it is the same value as %s, bound to %s by %s",
				s.Binding.Target, s.Abstraction.Name, s.Binding.Where, p.Binding.Target, p.Abstraction.Name, p.Binding.Where)
			continue
		}
		pinned[n], val[n], origin[n] = s, s.Abstraction, s
	}
	// Edges between classes, and the propagation of the least solution.
	out := make([][]int, nn) // edges by source class
	for i, e := range g.edges {
		s := g.find(e.src)
		out[s] = append(out[s], i)
	}
	var work []int
	for n := range nn {
		if val[n] != nil {
			work = append(work, n)
		}
	}
	warned := map[int]bool{}
	reported := map[int]bool{}
	for len(work) > 0 {
		s := work[0]
		work = work[1:]
		for _, i := range out[s] {
			e := g.edges[i]
			d := g.find(e.dst)
			nv := g.lub(val[d], val[s])
			if nv == val[d] {
				continue
			}
			if p := pinned[d]; p != nil {
				if !reported[d] {
					reported[d] = true
					what := "a value abstracted by " + val[s].Name + describe(origin[s])
					if meet[s] != "" {
						what = meet[s]
					}
					hint := ""
					if g.level(val[s]) == 2 && meet[s] == "" {
						hint = fmt.Sprintf(" (no coercion from %s to %s is declared)", val[s].Name, p.Abstraction.Name)
					}
					errs.Addf(fset.Position(e.pos), "conflict: %s flows into %s, which is bound to %s by %s%s",
						what, p.Binding.Target, p.Abstraction.Name, p.Binding.Where, hint)
				}
				continue
			}
			switch {
			case nv == g.point && g.level(val[d]) == 2:
				// Two abstractions meet.
				where := "here"
				if x := g.exprAt(d); x != nil {
					where = "in " + format.Expr(x)
				}
				meet[d] = fmt.Sprintf("the point value of %s, where %s%s meets %s%s,", strings.TrimPrefix(where, "in "),
					val[s].Name, describe(origin[s]), val[d].Name, describe(origin[d]))
				if where == "here" {
					meet[d] = fmt.Sprintf("a point value, where %s%s meets %s%s,", val[s].Name, describe(origin[s]), val[d].Name, describe(origin[d]))
				}
				if !warned[d] {
					warned[d] = true
					g.warn(e.pos, fmt.Sprintf("%s and %s meet %s: point abstracts it", val[s].Name, val[d].Name, where))
				}
			case nv == g.point && meet[d] == "":
				meet[d] = meet[s]
			}
			val[d] = nv
			if origin[d] == nil {
				origin[d] = origin[s]
			}
			work = append(work, d)
		}
	}
	if errs.Err() != nil {
		errs.Sort()
		return nil, errs
	}
	// Unconstrained classes: concrete when their values reach a constrained
	// class, the default otherwise.
	reaches := make([]bool, nn)
	in := make([][]int, nn)
	for _, e := range g.edges {
		d := g.find(e.dst)
		in[d] = append(in[d], g.find(e.src))
	}
	var stack []int
	for n := range nn {
		if g.find(n) == n && val[n] != nil {
			reaches[n] = true
			stack = append(stack, n)
		}
	}
	for _, c := range g.needs {
		if n := g.find(c.node); !reaches[n] {
			reaches[n] = true
			stack = append(stack, n)
		}
	}
	for len(stack) > 0 {
		n := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		for _, s := range in[n] {
			if !reaches[s] {
				reaches[s] = true
				stack = append(stack, s)
			}
		}
	}
	def := g.concrete
	if cfg.DefaultPoint {
		def = g.point
	}
	for n := range nn {
		if r := g.find(n); val[r] == nil && reaches[r] {
			val[r] = g.concrete
		}
	}
	// The others are at least what flows into them (a comparison of
	// concrete values is concrete), and get the default when nothing does.
	fixed := make([]bool, nn)
	for n := range nn {
		fixed[n] = val[n] != nil
	}
	forward := func(work []int) {
		for len(work) > 0 {
			s := work[len(work)-1]
			work = work[:len(work)-1]
			for _, i := range out[s] {
				d := g.find(g.edges[i].dst)
				if fixed[d] {
					continue
				}
				if nv := g.lub(val[d], val[s]); nv != val[d] {
					val[d] = nv
					work = append(work, d)
				}
			}
		}
	}
	var valued []int
	for n := range nn {
		if g.find(n) == n && val[n] != nil && !g.constant[n] {
			valued = append(valued, n)
		}
	}
	forward(valued)
	for n := range nn {
		if g.find(n) == n && val[n] == nil && !g.constant[n] {
			val[n] = def
			forward([]int{n})
		}
	}
	for n := range nn {
		if r := g.find(n); val[r] == nil {
			val[r] = g.concrete // a constant nothing constrains
		}
	}
	// Values BIR needs concrete must not be abstract.
	for _, c := range g.needs {
		n := g.find(c.node)
		if a := val[n]; g.level(a) >= 2 {
			why := describe(origin[n])
			if meet[n] != "" {
				why = " (" + strings.TrimSuffix(meet[n], ",") + ")"
			}
			errs.Addf(fset.Position(c.x.Pos()), "%s needs a concrete value, but it is abstracted by %s%s", c.what, a.Name, why)
		}
	}
	if errs.Err() != nil {
		errs.Sort()
		return nil, errs
	}
	res := &Result{
		Vars: map[*types.Var]*data.Abstraction{}, Funcs: map[*types.Proc]*data.Abstraction{},
		Exprs: map[ast.Expr]*data.Abstraction{}, Tests: map[*ast.BinaryExpr]*data.Abstraction{},
		Warnings: g.warnings,
	}
	for _, c := range cfg.Coercions {
		if !redundant(c, g.point) {
			res.Declared = append(res.Declared, c)
		}
	}
	for v, n := range g.varNode {
		res.Vars[v] = val[g.find(n)]
	}
	for p, n := range g.fnNode {
		res.Funcs[p] = val[g.find(n)]
	}
	for x, n := range g.exprNode {
		res.Exprs[x] = val[g.find(n)]
	}
	for x, n := range g.testNode {
		res.Tests[x] = val[g.find(n)]
	}
	for _, e := range g.edges {
		s, d := val[g.find(e.src)], val[g.find(e.dst)]
		if s != d {
			res.Coercions = append(res.Coercions, Coercion{Pos: e.pos, Expr: e.expr, From: s, To: d})
		}
	}
	sort.SliceStable(res.Coercions, func(i, j int) bool { return res.Coercions[i].Pos < res.Coercions[j].Pos })
	res.Warnings.Sort()
	return res, nil
}

// describe names the binding a value comes from.
func describe(s *Selection) string {
	if s == nil {
		return ""
	}
	return fmt.Sprintf(" (from %s, bound by %s)", s.Binding.Target, s.Binding.Where)
}

// exprAt returns an expression of node class n, preferring the outermost
// (the last created), or nil.
func (g *graph) exprAt(n int) ast.Expr {
	var best ast.Expr
	bestID := -1
	for x, id := range g.exprNode {
		if g.find(id) == n && id > bestID {
			best, bestID = x, id
		}
	}
	return best
}

func (g *graph) warn(pos source.Pos, msg string) {
	g.warnings.Add(g.prog.Fset.Position(pos), msg)
}
