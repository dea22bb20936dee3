package predicate

import (
	"fmt"
	"strconv"
	"strings"

	"birch/internal/bir/ast"
	"birch/internal/bir/format"
	"birch/internal/bir/token"
	"birch/internal/bir/types"
	"birch/internal/source"
)

// WP computes weakest preconditions of BIR actions with respect to
// predicates, as syntax. Its zero value does not work: make one with NewWP.
// A WP is not safe for concurrent use; its results share subtrees with the
// predicates and the model's actions, which it never modifies.
type WP struct {
	prog  *types.Program
	types map[ast.Expr]types.Type // types of the nodes WP builds

	// the write of the action being processed: a location and its new value
	lhs, rhs ast.Expr
	// fresh stands for the object a `new` action allocates (rhs); freshColl
	// is its collection and freshLen the length of a new array, or nil
	fresh     *ast.Ident
	freshColl *types.Collection
	freshLen  ast.Expr
	// freshVals are the value arrays inside the fresh object (a field of
	// array type), each standing for its default contents
	freshVals map[ast.Expr]bool
	// built counts the nodes built for one write, against maxBuilt
	built int
}

// NewWP returns a WP for the actions and predicates of prog, whose types
// must be recorded in prog.Info (predicates read by ParseFile are).
// A WP keeps the types of the nodes it builds as long as it lives: the
// abstraction of a model may use one per transformation.
func NewWP(prog *types.Program) *WP {
	return &WP{prog: prog, types: map[ast.Expr]types.Type{}}
}

// UnsupportedError says that an action has no weakest precondition this
// package can write for a predicate: the predicate reads what the action
// may write, and the action's effect is not an expression (a call, a
// start, a range choice, forall or reachable).
type UnsupportedError struct {
	Pos source.Pos
	Msg string
}

func (e *UnsupportedError) Error() string { return e.Msg }

// Actions returns WP(a1; …; an, φ). BIR runs the actions of a
// transformation in order, each seeing the effects of the ones before (BIR
// has no parallel assignment), so the preconditions compose from the last
// action to the first: WP(a1; a2, φ) = WP(a1, WP(a2, φ)). The guard is not
// part of it: the abstraction turns a guard into assume(G(guard)).
func (w *WP) Actions(actions []ast.Action, phi ast.Expr) (ast.Expr, error) {
	for i := len(actions) - 1; i >= 0; i-- {
		var err error
		if phi, err = w.Action(actions[i], phi); err != nil {
			return nil, err
		}
	}
	return phi, nil
}

// Action returns WP(a, φ), φ over the state after a, the result over the
// state before it. It is the weakest liberal precondition: a step that
// ends in a runtime error or a limit has no state after it, so nothing is
// claimed for it; those outcomes are the abstraction's to keep, guarded by
// their own conditions.
func (w *WP) Action(a ast.Action, phi ast.Expr) (out ast.Expr, err error) {
	defer func() {
		if r := recover(); r != nil {
			switch r := r.(type) {
			case tooBig:
				out, err = nil, &UnsupportedError{a.Pos(), fmt.Sprintf("the weakest precondition of this step for %s has more than %d alias cases or %d nodes", source.Excerpt(format.Expr(phi)), maxCases, maxNodes)}
			case noCast:
				out, err = nil, &UnsupportedError{a.Pos(), fmt.Sprintf("no weakest precondition of this step for %s: it would read field %s of %s, whose type has no such field (a checked conversion; BIR has no cast)", source.Excerpt(format.Expr(phi)), r.field, source.Excerpt(r.base))}
			default:
				panic(r)
			}
		}
	}()
	switch a := a.(type) {
	case *ast.AssignAction:
		return w.write(a.Lhs, a.Rhs, phi), nil
	case *ast.NewAction:
		col, _ := w.prog.Info.Uses[a.Collection].(*types.Collection)
		if col == nil {
			return nil, &UnsupportedError{a.Pos(), "new of an unknown collection " + a.Collection.Name}
		}
		fresh := &ast.Ident{NamePos: a.NewPos, Name: "new " + col.Name()}
		w.types[fresh] = &types.Ref{Target: col.Elem, Collections: []*types.Collection{col}}
		w.fresh, w.freshColl, w.freshLen, w.freshVals = fresh, col, a.Len, map[ast.Expr]bool{}
		defer func() { w.fresh, w.freshColl, w.freshLen, w.freshVals = nil, nil, nil, nil }()
		out := w.write(a.Lhs, fresh, phi)
		if mentions(out, fresh) {
			return nil, &UnsupportedError{a.Pos(), "the new object escapes into " + format.Expr(out)}
		}
		return out, nil
	case *ast.ChooseAction:
		values := a.Values
		if values == nil {
			// a range choice with constant bounds is the list of its
			// values, when that is short
			lo, okl := w.constInt(a.Lo)
			hi, okh := w.constInt(a.Hi)
			if a.Lo == nil || a.Hi == nil || !okl || !okh || hi < lo || uint64(hi-lo) >= maxChoices {
				return w.havoc(a, a.Lhs, phi, "a range choice")
			}
			for k := uint64(0); k <= uint64(hi-lo); k++ {
				values = append(values, w.intLit(lo+int64(k)))
			}
		}
		// φ holds after the step whatever value is chosen
		var out ast.Expr
		seen := map[string]bool{}
		for _, v := range values {
			c := w.write(a.Lhs, v, phi)
			if key := w.key(c); !seen[key] {
				seen[key] = true
				out = w.and(out, c)
			}
		}
		return out, nil
	case *ast.AssumeAction:
		// no state after the step unless the condition holds
		return w.or(w.not(a.Cond), phi), nil
	case *ast.AssertAction:
		// a false assertion ends the step in an error, not in a state
		return w.or(w.not(a.Cond), phi), nil
	case *ast.ForallAction:
		return w.havoc(a, a.Lhs, phi, "forall")
	case *ast.ReachableAction:
		return w.havoc(a, a.Lhs, phi, "reachable")
	case *ast.StartAction:
		if a.Lhs == nil {
			return phi, nil
		}
		return w.havoc(a, a.Lhs, phi, "start")
	case *ast.CallAction:
		// The step of a call passes the arguments to the callee's new
		// frame; the result is written into the caller's left-hand side
		// by the step that returns. So the caller's data and the globals
		// do not change; a predicate over the callee's own variables is
		// another scope, which this step enters.
		bad := w.readsCallee(a, phi)
		if bad != nil {
			return nil, &UnsupportedError{a.Pos(), "no weakest precondition of call for " + format.Expr(phi) + ": it reads " + bad.Name + " of the callee " + a.Func.Name}
		}
		return phi, nil
	case *ast.LockAction, *ast.PrintAction, *ast.ExitAction:
		return phi, nil // no data changes (locks and threads are not in predicates)
	}
	return nil, &UnsupportedError{a.Pos(), fmt.Sprintf("unknown action %T", a)}
}

// havoc is WP of an action that writes lhs with a value that is not an
// expression: φ is unchanged when it reads nothing lhs may denote, and
// unsupported otherwise.
func (w *WP) havoc(a ast.Action, lhs, phi ast.Expr, what string) (ast.Expr, error) {
	if w.reads(phi, lhs) {
		return nil, &UnsupportedError{a.Pos(), "no weakest precondition of " + what + " for " + format.Expr(phi) + ": it reads " + format.Expr(lhs)}
	}
	return phi, nil
}

// reads reports whether φ reads a location that may be lhs.
func (w *WP) reads(phi, lhs ast.Expr) bool {
	hit := false
	ast.Inspect(phi, func(n ast.Node) bool {
		if x, ok := n.(ast.Expr); ok && !hit {
			if _, k := w.sameLoc(x, lhs); k != never {
				hit = true
			}
		}
		return !hit
	})
	return hit
}

// readsCallee returns a variable of the function a calls that φ reads, or
// nil.
func (w *WP) readsCallee(a *ast.CallAction, phi ast.Expr) *ast.Ident {
	callee, _ := w.prog.Info.Uses[a.Func].(*types.Proc)
	var bad *ast.Ident
	ast.Inspect(phi, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok && bad == nil {
			if v, ok := w.prog.Info.Uses[id].(*types.Var); ok && callee != nil && v.Owner == callee {
				bad = id
			}
		}
		return bad == nil
	})
	return bad
}

// Changes reports whether the actions may change the value of φ: whether
// one of them may write a location φ reads, by the alias analysis of WP
// (a call changes the variables of its callee). When it reports false, φ
// has the same value before and after every execution of the actions that
// ends in a state (WP(actions, φ) is φ but for the conditions of assume and
// assert), and the abstraction leaves φ's boolean variable alone; when
// true, φ may still keep its value.
func (w *WP) Changes(actions []ast.Action, phi ast.Expr) bool {
	for _, a := range actions {
		var lhs ast.Expr
		switch a := a.(type) {
		case *ast.AssignAction:
			lhs = a.Lhs
		case *ast.NewAction:
			lhs = a.Lhs
		case *ast.ChooseAction:
			lhs = a.Lhs
		case *ast.ForallAction:
			lhs = a.Lhs
		case *ast.ReachableAction:
			lhs = a.Lhs
		case *ast.StartAction:
			lhs = a.Lhs
		case *ast.CallAction:
			if w.readsCallee(a, phi) != nil {
				return true
			}
		case *ast.LockAction, *ast.PrintAction, *ast.ExitAction, *ast.AssertAction, *ast.AssumeAction:
		default:
			return true
		}
		if lhs != nil && w.reads(phi, lhs) {
			return true
		}
	}
	return false
}

// write is WP(lhs := rhs, φ): Morris' axiom of assignment, generalized to
// every location BIR can write. Each location read in φ is compared with
// lhs (sameLoc): one that is lhs for sure is replaced by rhs, one that may
// be is split into the two cases, one that cannot be is left alone.
//
// A store into a location of a fixed-width type T wraps: WP(x := e, φ) is
// φ[T(e)/x] (stored).
func (w *WP) write(lhs, rhs, phi ast.Expr) ast.Expr {
	w.lhs, w.rhs, w.built = lhs, w.stored(lhs, rhs), 0
	out := w.fold(w.subst(phi))
	n := 0
	ast.Inspect(out, func(ast.Node) bool {
		n++
		return n <= maxNodes
	})
	if n > maxNodes {
		panic(tooBig{})
	}
	return out
}

// stored is the value that a store of rhs into lhs leaves there: rhs,
// or its conversion T(rhs) when lhs has a fixed-width type T (int8 …
// uint64) whose range rhs may leave (a store wraps, and is never a range
// error).
func (w *WP) stored(lhs, rhs ast.Expr) ast.Expr {
	lt := w.typeOf(lhs)
	r, ok := lt.Underlying().(*types.Range)
	if !ok || !r.Wrap {
		return rhs
	}
	if v, ok := w.constOf(rhs); ok && types.IsInteger(w.typeOf(rhs)) {
		if v >= r.Lo && v <= r.Hi {
			return rhs
		}
		if v, ok := r.WrapValue(v); ok {
			return w.intLit(v) // a constant wraps to a constant
		}
	}
	if rr, ok := w.typeOf(rhs).Underlying().(*types.Range); ok && r.Lo <= rr.Lo && rr.Hi <= r.Hi {
		return rhs // a value of a range within T's: no reduction
	}
	return w.record(&ast.ConvExpr{Type: &ast.Ident{NamePos: rhs.Pos(), Name: r.String()}, Lparen: rhs.Pos(), X: rhs, Rparen: rhs.End()}, lt)
}

// alt is one case of a substituted expression: under the conjunction of
// conds (none: always), the expression is x. The cases of one expression
// exclude each other and cover every state.
type alt struct {
	conds []lit
	x     ast.Expr
}

// lit is a condition of a case, or its negation; key is its text, so
// that a case that needs a condition both true and false is dropped and
// one that needs it twice states it once.
type lit struct {
	x   ast.Expr
	neg bool
	key string
}

// andConds conjoins two lists of conditions; ok is false when they
// contradict each other.
func andConds(a, b []lit) (out []lit, ok bool) {
	out = append([]lit(nil), a...)
next:
	for _, l := range b {
		for _, m := range a {
			if m.key == l.key {
				if m.neg != l.neg {
					return nil, false
				}
				continue next
			}
		}
		out = append(out, l)
	}
	return out, true
}

// maxCases bounds the cases of one expression, and maxNodes the size of a
// precondition: a predicate that reads many locations the step may write
// has exponentially many cases, and a WP that large is no use to a solver.
const (
	maxCases = 1 << 10
	maxNodes = 1 << 16
	maxBuilt = 1 << 20 // nodes built on the way, cases dropped later included
	// maxChoices bounds the values of a range choice that WP lists
	maxChoices = 64
)

// tooBig is panicked when a bound is exceeded, and recovered by Action.
type tooBig struct{}

// noCast is panicked, and recovered by Action, when a WP would read a field
// through a reference whose type does not have it: after a checked
// conversion `b := x` (x of a supertype), `b.f` would become `x.f`, which
// BIR cannot write without a cast.
type noCast struct{ base, field string }

// checkField panics with noCast unless base's record type has field f.
func (w *WP) checkField(base ast.Expr, f *ast.Ident) {
	r, ok := w.typeOf(base).Underlying().(*types.Ref)
	if !ok || r.Target == nil {
		return
	}
	if rec, ok := r.Target.Underlying().(*types.Record); ok && rec.Field(f.Name) == nil {
		panic(noCast{format.Expr(base), f.Name})
	}
}

// subst returns the cases of x with the write applied. A boolean
// expression is folded into one case: its cases become the disjunction
// (c1 && x1) || (!c1 && x2), BIR having no conditional expression; so case
// splits rise to the nearest enclosing boolean expression, and the result
// of WP is a plain BIR boolean expression.
func (w *WP) subst(x ast.Expr) []alt {
	alts := w.subst0(x)
	if len(alts) > maxCases {
		panic(tooBig{})
	}
	if types.IsBoolean(w.typeOf(x)) && (len(alts) > 1 || len(alts[0].conds) > 0) {
		return []alt{{nil, w.fold(alts)}}
	}
	return alts
}

func (w *WP) subst0(x ast.Expr) []alt {
	switch x := x.(type) {
	case *ast.Ident:
		return w.located(nil, x)
	case *ast.ParenExpr:
		return w.mapAlts(w.subst(x.X), func(y ast.Expr) ast.Expr {
			if y == x.X {
				return x
			}
			return w.paren(y)
		})
	case *ast.UnaryExpr:
		return w.mapAlts(w.subst(x.X), func(y ast.Expr) ast.Expr {
			if y == x.X {
				return x
			}
			if x.Op == token.NOT {
				return w.not(y)
			}
			return w.record(&ast.UnaryExpr{OpPos: x.OpPos, Op: x.Op, X: w.operand(y, token.UnaryPrec)}, w.typeOf(x))
		})
	case *ast.BinaryExpr:
		var out []alt
		for _, a := range w.subst(x.X) {
			for _, b := range w.subst(x.Y) {
				if c, ok := andConds(a.conds, b.conds); ok {
					out = append(out, alt{c, w.binary(x, a.x, b.x)})
				}
			}
		}
		return out
	case *ast.ConvExpr:
		return w.mapAlts(w.subst(x.X), func(y ast.Expr) ast.Expr {
			if y == x.X {
				return x
			}
			return w.record(&ast.ConvExpr{Type: x.Type, Lparen: x.Lparen, X: y, Rparen: x.Rparen}, w.typeOf(x))
		})
	case *ast.SelectorExpr:
		var out []alt
		for _, a := range w.subst(x.X) {
			y := ast.Expr(x)
			if a.x != x.X {
				w.checkField(a.x, x.Sel)
				y = w.record(&ast.SelectorExpr{X: w.operand(a.x, postfixPrec), Sel: x.Sel}, w.typeOf(x))
			}
			out = append(out, w.located(a.conds, y)...)
		}
		return out
	case *ast.IndexExpr:
		var out []alt
		for _, a := range w.subst(x.X) {
			for _, i := range w.subst(x.Index) {
				y := ast.Expr(x)
				if a.x != x.X || i.x != x.Index {
					y = w.record(&ast.IndexExpr{X: w.operand(a.x, postfixPrec), Lbrack: x.Lbrack, Index: i.x, Rbrack: x.Rbrack}, w.typeOf(x))
				}
				if c, ok := andConds(a.conds, i.conds); ok {
					out = append(out, w.located(c, y)...)
				}
			}
		}
		return out
	case *ast.LengthExpr:
		return w.mapAlts(w.subst(x.X), func(y ast.Expr) ast.Expr {
			if w.isFresh(y) {
				if w.freshVals[y] {
					return w.intLit(w.typeOf(y).Underlying().(*types.Array).Len)
				}
				return w.freshLen
			}
			if y == x.X {
				return x
			}
			return w.record(&ast.LengthExpr{X: w.operand(y, postfixPrec), LengthPos: x.LengthPos}, w.typeOf(x))
		})
	case *ast.InstanceofExpr:
		return w.mapAlts(w.subst(x.X), func(y ast.Expr) ast.Expr {
			if w.isFresh(y) {
				tn, _ := w.prog.Info.Uses[x.Type].(*types.TypeName)
				return w.boolLit(tn != nil && tn.Named() != nil && types.IsSubtype(w.freshColl.Elem, tn.Named()))
			}
			if y == x.X {
				return x
			}
			return w.record(&ast.InstanceofExpr{X: w.operand(y, postfixPrec), InstanceofPos: x.InstanceofPos, Type: x.Type}, w.typeOf(x))
		})
	}
	return []alt{{nil, x}} // literals, and forms predicates do not have
}

// located applies the write to y, a read whose parts are already
// substituted: a field or element of the new object has its default value;
// a location that is the written one becomes the written value.
func (w *WP) located(conds []lit, y ast.Expr) []alt {
	if d := w.freshRead(y); d != nil {
		return []alt{{conds, d}}
	}
	c, k := w.sameLoc(y, w.lhs)
	switch k {
	case must:
		return []alt{{conds, w.rhs}}
	case may:
		key := w.key(c)
		var out []alt
		if cs, ok := andConds(conds, []lit{{c, false, key}}); ok {
			out = append(out, alt{cs, w.rhs})
		}
		if cs, ok := andConds(conds, []lit{{c, true, key}}); ok {
			out = append(out, alt{cs, y})
		}
		return out
	}
	return []alt{{conds, y}}
}

// freshRead returns the value of y when y reads the object being
// allocated (`p.f` or `p[i]` with p the new object): the default value of
// its type; nil otherwise.
func (w *WP) freshRead(y ast.Expr) ast.Expr {
	if w.fresh == nil {
		return nil
	}
	var base ast.Expr
	switch y := y.(type) {
	case *ast.SelectorExpr:
		base = y.X
	case *ast.IndexExpr:
		base = y.X
	default:
		return nil
	}
	if !w.isFresh(ast.Unparen(base)) {
		return nil
	}
	t := w.typeOf(y)
	if _, ok := t.Underlying().(*types.Array); ok {
		v := &ast.Ident{NamePos: w.fresh.NamePos, Name: w.fresh.Name + " contents"}
		w.types[v] = t
		w.freshVals[v] = true
		return v
	}
	return w.defaultOf(t)
}

func (w *WP) isFresh(x ast.Expr) bool {
	return w.fresh != nil && (x == w.fresh || w.freshVals[x])
}

// Kinds of aliasing between two locations.
type aliasKind int

const (
	never aliasKind = iota // the locations are never the same
	may                    // they are the same when the condition holds
	must                   // they are always the same
)

// sameLoc says when the location r (a read of a predicate, substituted) and
// the location l (the left-hand side of the action, in the state before
// it) are the same storage, with the condition for may. Variables are
// their objects; `p.f` and `q.f` are the same field of the same object
// when p == q; `a[i]` and `b[j]` the same element when a and b are the
// same array (the same reference, or the same value-array location) and
// i == j. Pruning by types: references whose collection lists share no
// collection never point to one object, nor does null, and fields of
// different names are different storage.
func (w *WP) sameLoc(r, l ast.Expr) (ast.Expr, aliasKind) {
	switch r := ast.Unparen(r).(type) {
	case *ast.Ident:
		l, ok := ast.Unparen(l).(*ast.Ident)
		if ok {
			ro, lo := w.prog.Info.Uses[r], w.prog.Info.Uses[l]
			if _, isVar := ro.(*types.Var); isVar && ro == lo {
				return nil, must
			}
		}
	case *ast.SelectorExpr:
		l, ok := ast.Unparen(l).(*ast.SelectorExpr)
		if ok && r.Sel.Name == l.Sel.Name {
			return w.sameRef(r.X, l.X)
		}
	case *ast.IndexExpr:
		l, ok := ast.Unparen(l).(*ast.IndexExpr)
		if !ok {
			break
		}
		var c ast.Expr
		var k aliasKind
		if _, isRef := w.typeOf(r.X).Underlying().(*types.Ref); isRef {
			c, k = w.sameRef(r.X, l.X)
		} else {
			c, k = w.sameLoc(r.X, l.X)
		}
		if k == never {
			return nil, never
		}
		ci, ki := w.sameInt(r.Index, l.Index)
		if ki == never {
			return nil, never
		}
		if k == must && ki == must {
			return nil, must
		}
		return w.and(c, ci), may
	}
	return nil, never
}

// sameRef says when two references are equal: must when they are written
// alike, never when one is null or their types share no collection (the
// type-based points-to analysis), otherwise when x == y.
func (w *WP) sameRef(x, y ast.Expr) (ast.Expr, aliasKind) {
	if w.isFresh(ast.Unparen(x)) || w.isFresh(ast.Unparen(y)) {
		return nil, never // read after the write: handled by freshRead
	}
	if isNull(x) || isNull(y) {
		return nil, never
	}
	if w.key(x) == w.key(y) {
		return nil, must
	}
	rx, _ := w.typeOf(x).Underlying().(*types.Ref)
	ry, _ := w.typeOf(y).Underlying().(*types.Ref)
	if rx == nil || ry == nil || !shareCollection(rx, ry) {
		return nil, never
	}
	return w.compare(token.EQL, x, y), may
}

// sameInt says when two indices are equal.
func (w *WP) sameInt(x, y ast.Expr) (ast.Expr, aliasKind) {
	vx, okx := w.constInt(x)
	vy, oky := w.constInt(y)
	if okx && oky {
		if vx == vy {
			return nil, must
		}
		return nil, never
	}
	if w.key(x) == w.key(y) {
		return nil, must
	}
	return w.compare(token.EQL, x, y), may
}

// key identifies the expression x: its text, and the procedure of each
// local or parameter it names. Two expressions with one key are one
// formula over one state. The text alone is not: the step of one thread
// updates the predicates of another, whose locals may have the names of
// its own (W's p.val := 5 made Main's p.val > 0 true, W's p taken for
// Main's: a wrong pass).
func (w *WP) key(x ast.Expr) string {
	x = ast.Unparen(x)
	var b strings.Builder
	b.WriteString(format.Expr(x))
	ast.Inspect(x, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok {
			b.WriteByte(0)
			if v, ok := w.prog.Info.Uses[id].(*types.Var); ok && v.Owner != nil {
				b.WriteString(v.Owner.Name())
			}
		}
		return true
	})
	return b.String()
}

func shareCollection(x, y *types.Ref) bool {
	for _, c := range x.Collections {
		if y.Holds(c) {
			return true
		}
	}
	return false
}

func isNull(x ast.Expr) bool {
	l, ok := ast.Unparen(x).(*ast.BasicLit)
	return ok && l.Kind == token.NULL
}

// binary rebuilds x with operands a and b, deciding comparisons with the
// new object: it equals no reference of the state before the step.
//
// -> and <-> become || and ==, so that a WP is an expression that a guard
// or an action may hold, not only a predicate; and comparisons of two
// constants are decided.
func (w *WP) binary(x *ast.BinaryExpr, a, b ast.Expr) ast.Expr {
	switch x.Op {
	case token.ARROW:
		return w.or(w.not(a), b)
	case token.IFF:
		switch {
		case isBool(a, true):
			return b
		case isBool(b, true):
			return a
		case isBool(a, false):
			return w.not(b)
		case isBool(b, false):
			return w.not(a)
		}
		return w.compare(token.EQL, a, b)
	}
	if a == x.X && b == x.Y {
		return x
	}
	if x.Op == token.EQL || x.Op == token.NEQ {
		fa, fb := w.isFresh(ast.Unparen(a)), w.isFresh(ast.Unparen(b))
		if fa || fb {
			return w.boolLit((fa && fb) == (x.Op == token.EQL))
		}
	}
	if va, ok := w.constOf(a); ok {
		if vb, ok := w.constOf(b); ok {
			if v, ok := decide(x.Op, va, vb); ok {
				return w.boolLit(v)
			}
		}
	}
	switch x.Op {
	case token.LAND:
		return w.and(a, b)
	case token.LOR:
		return w.or(a, b)
	}
	return w.record(w.binaryNode(x.Op, a, b), w.typeOf(x))
}

// constOf is the value of a constant operand: an integer, a named
// constant, an enum constant (its ordinal), true, false (1, 0) or null (0).
func (w *WP) constOf(x ast.Expr) (int64, bool) {
	x = ast.Unparen(x)
	if v, ok := w.constInt(x); ok {
		return v, true
	}
	switch x := x.(type) {
	case *ast.UnaryExpr:
		if x.Op == token.SUB {
			if v, ok := w.constInt(x.X); ok && v > -1<<63 {
				return -v, true
			}
		}
	case *ast.Ident:
		if c, ok := w.prog.Info.Uses[x].(*types.EnumConst); ok {
			return c.Ordinal, true
		}
	case *ast.BasicLit:
		switch x.Kind {
		case token.TRUE:
			return 1, true
		case token.FALSE, token.NULL:
			return 0, true
		}
	}
	return 0, false
}

// decide evaluates a comparison of two constants.
func decide(op token.Kind, a, b int64) (bool, bool) {
	switch op {
	case token.EQL:
		return a == b, true
	case token.NEQ:
		return a != b, true
	case token.LSS:
		return a < b, true
	case token.LEQ:
		return a <= b, true
	case token.GTR:
		return a > b, true
	case token.GEQ:
		return a >= b, true
	}
	return false, false
}

func (w *WP) binaryNode(op token.Kind, a, b ast.Expr) *ast.BinaryExpr {
	p := op.Precedence()
	return &ast.BinaryExpr{X: w.operand(a, p), Op: op, Y: w.operand(b, p+1)}
}

// postfixPrec is the precedence of selectors, indexing, length and
// instanceof: above every unary and binary operator.
const postfixPrec = token.UnaryPrec + 1

// operand parenthesizes x as an operand of precedence prec: binary
// operators have theirs, unary operators token.UnaryPrec and postfix forms
// postfixPrec.
func (w *WP) operand(x ast.Expr, prec int) ast.Expr {
	p := postfixPrec + 1
	switch x := x.(type) {
	case *ast.BinaryExpr:
		p = x.Op.Precedence()
	case *ast.UnaryExpr:
		p = token.UnaryPrec
	case *ast.InstanceofExpr:
		p = postfixPrec
		if prec == postfixPrec {
			p = token.UnaryPrec // (x instanceof T).f does not parse without parentheses
		}
	case *ast.BasicLit:
		if prec == postfixPrec {
			p = token.UnaryPrec
		}
	}
	if p < prec {
		return w.paren(x)
	}
	return x
}

func (w *WP) paren(x ast.Expr) ast.Expr {
	if _, ok := x.(*ast.ParenExpr); ok {
		return x
	}
	return w.record(&ast.ParenExpr{X: x}, w.typeOf(x))
}

func (w *WP) compare(op token.Kind, x, y ast.Expr) ast.Expr {
	return w.record(w.binaryNode(op, x, y), types.Typ[types.Bool])
}

// and, or and not build boolean expressions, simplifying true and false;
// nil stands for true in and.
func (w *WP) and(x, y ast.Expr) ast.Expr {
	switch {
	case x == nil || isBool(x, true):
		return y
	case y == nil || isBool(y, true):
		return x
	case isBool(x, false) || isBool(y, false):
		return w.boolLit(false)
	}
	return w.record(w.binaryNode(token.LAND, x, y), types.Typ[types.Bool])
}

func (w *WP) or(x, y ast.Expr) ast.Expr {
	switch {
	case isBool(x, false):
		return y
	case isBool(y, false):
		return x
	case isBool(x, true) || isBool(y, true):
		return w.boolLit(true)
	}
	return w.record(w.binaryNode(token.LOR, x, y), types.Typ[types.Bool])
}

func (w *WP) not(x ast.Expr) ast.Expr {
	switch {
	case isBool(x, true):
		return w.boolLit(false)
	case isBool(x, false):
		return w.boolLit(true)
	}
	if u, ok := ast.Unparen(x).(*ast.UnaryExpr); ok && u.Op == token.NOT {
		return u.X // !!x is x: BIR's booleans have two values
	}
	return w.record(&ast.UnaryExpr{Op: token.NOT, X: w.operand(x, token.UnaryPrec)}, types.Typ[types.Bool])
}

// fold turns the cases of a boolean expression into one expression.
func (w *WP) fold(alts []alt) ast.Expr {
	var out ast.Expr = w.boolLit(false)
	for _, a := range alts {
		var c ast.Expr
		for _, l := range a.conds {
			if l.neg {
				c = w.and(c, w.not(l.x))
			} else {
				c = w.and(c, l.x)
			}
		}
		out = w.or(out, w.and(c, a.x))
	}
	return out
}

func (w *WP) mapAlts(alts []alt, f func(ast.Expr) ast.Expr) []alt {
	out := make([]alt, len(alts))
	for i, a := range alts {
		out[i] = alt{a.conds, f(a.x)}
	}
	return out
}

func isBool(x ast.Expr, v bool) bool {
	l, ok := ast.Unparen(x).(*ast.BasicLit)
	return ok && (v && l.Kind == token.TRUE || !v && l.Kind == token.FALSE)
}

func (w *WP) boolLit(v bool) ast.Expr {
	l := &ast.BasicLit{Kind: token.FALSE, Value: "false"}
	if v {
		l.Kind, l.Value = token.TRUE, "true"
	}
	return w.record(l, types.Typ[types.Bool])
}

func (w *WP) intLit(v int64) ast.Expr {
	if v < 0 {
		// -v of -2^63 is itself: its literal is BIR's
		// -9223372036854775808, the minus of 2^63 (it recursed forever)
		mag := strconv.FormatUint(-uint64(v), 10)
		lit := w.record(&ast.BasicLit{Kind: token.INT, Value: mag}, types.Typ[types.Int])
		return w.record(&ast.UnaryExpr{Op: token.SUB, X: lit}, types.Typ[types.Int])
	}
	return w.record(&ast.BasicLit{Kind: token.INT, Value: strconv.FormatInt(v, 10)}, types.Typ[types.Int])
}

// defaultOf is the default value of a scalar type (docs/bir.md §5).
func (w *WP) defaultOf(t types.Type) ast.Expr {
	switch u := t.Underlying().(type) {
	case *types.Basic:
		switch u.Kind {
		case types.Bool:
			return w.boolLit(false)
		case types.Int:
			return w.intLit(0)
		}
	case *types.Range:
		if u.Lo <= 0 && 0 <= u.Hi {
			return w.intLit(0)
		}
		return w.intLit(u.Lo)
	case *types.Enum:
		c := u.Consts[0]
		id := &ast.Ident{Name: c.Name()}
		w.prog.Info.Uses[id] = c
		return w.record(id, t)
	}
	return w.record(&ast.BasicLit{Kind: token.NULL, Value: "null"}, types.Typ[types.UntypedNull])
}

func (w *WP) constInt(x ast.Expr) (int64, bool) {
	if tv, ok := w.prog.Info.Types[x]; ok && tv.Value.Kind == types.IntConst {
		return tv.Value.Int, true
	}
	if l, ok := ast.Unparen(x).(*ast.BasicLit); ok && l.Kind == token.INT {
		v, err := strconv.ParseInt(l.Value, 10, 64)
		return v, err == nil
	}
	return 0, false
}

func (w *WP) record(x ast.Expr, t types.Type) ast.Expr {
	if w.built++; w.built > maxBuilt {
		panic(tooBig{})
	}
	w.types[x] = t
	return x
}

// typeOf is the type of x: recorded by the checker, or by WP for the
// nodes it built.
func (w *WP) typeOf(x ast.Expr) types.Type {
	if t := w.types[x]; t != nil {
		return t
	}
	if t := w.prog.Info.TypeOf(x); t != nil {
		return t
	}
	return types.Typ[types.Invalid]
}

func mentions(x ast.Expr, id *ast.Ident) bool {
	found := false
	ast.Inspect(x, func(n ast.Node) bool {
		if n == id {
			found = true
		}
		return !found
	})
	return found
}

// Record adds to the program's Info the types of the nodes of x that WP
// built (with the values of its literals), so that an Encoder over the
// program encodes x as it encodes checked expressions. A weakest
// precondition may mix the scopes of a predicate and of the step (a
// [thread U] predicate through a step of thread T): its text does not
// check again in one scope, but its nodes keep their variables.
func (w *WP) Record(x ast.Expr) {
	info := w.prog.Info
	ast.Inspect(x, func(n ast.Node) bool {
		e, ok := n.(ast.Expr)
		if !ok {
			return true
		}
		if _, done := info.Types[e]; done {
			return true
		}
		t := w.types[e]
		if t == nil {
			return true
		}
		tv := types.TypeAndValue{Type: t}
		if l, ok := e.(*ast.BasicLit); ok {
			switch l.Kind {
			case token.INT:
				if v, err := strconv.ParseInt(l.Value, 10, 64); err == nil {
					tv.Value = types.ConstValue{Kind: types.IntConst, Int: v}
				}
			case token.TRUE, token.FALSE:
				tv.Value = types.ConstValue{Kind: types.BoolConst, Bool: l.Kind == token.TRUE}
			case token.NULL:
				tv.Value = types.ConstValue{Kind: types.NullConst}
			}
		}
		info.Types[e] = tv
		return true
	})
}
