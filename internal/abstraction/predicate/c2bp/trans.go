package c2bp

import (
	"birch/internal/source"
	"fmt"
	"math"
	"strings"

	"birch/internal/abstraction/predicate"
	"birch/internal/bir/ast"
	"birch/internal/bir/format"
	"birch/internal/bir/token"
	"birch/internal/bir/types"
	"birch/internal/model"
)

// step is one action of an abstract transformation.
type step struct {
	text   string
	err    *ErrorOutcome // the concrete error an assertion stands for
	choose bool          // a choose action
}

// absTrans is the abstract transformation of a concrete one.
type absTrans struct {
	qt      *ast.Transformation // in the query program
	guard   string
	choices []step // the nondeterministic choices of the abstraction
	temps   []step // the formulas over the state before the step
	body    []step // the actions in the concrete order
	post    []step // the predicates' new values
	resets  []step // the temporaries back to false
	last    *step  // a final wait (it must stay last)
	end     string // "goto L;" or "return …;"
	key     string // the target for BIR's choose rule: L, or "return"
	choose  bool
	nt, nc  int
	// ret is the added step at the return target of a call (its
	// location's text), or ""
	ret string
}

// all is the transformation's action list.
func (t *absTrans) all() []step {
	var out []step
	for _, part := range [][]step{t.choices, t.temps, t.body, t.post, t.resets} {
		out = append(out, part...)
	}
	if t.last != nil {
		out = append(out, *t.last)
	}
	return out
}

// errCond is a runtime error an expression may raise: its kind, the
// expression, and the condition (BIR text in the step's scope, over the
// state in which the expression is evaluated).
type errCond struct {
	kind model.ErrorKind
	at   ast.Expr
	cond string
}

const (
	maxInt = "9223372036854775807"
	minInt = "(-9223372036854775807 - 1)"
)

// errorsOf lists the runtime errors evaluating x may raise, each under the
// condition ctx (text, "" for always) that x is evaluated at all (&& and
// || evaluate their right operand only when needed).
func (a *abstractor) errorsOf(x ast.Expr, ctx string, out *[]errCond) {
	if x == nil || a.isConst(x) {
		return
	}
	under := func(c string) string {
		if ctx == "" {
			return c
		}
		return "(" + ctx + ") && (" + c + ")"
	}
	add := func(kind model.ErrorKind, at ast.Expr, c string) {
		*out = append(*out, errCond{kind, at, under(c)})
	}
	txt := func(e ast.Expr) string { return "(" + format.Expr(e) + ")" }
	switch x := x.(type) {
	case *ast.ParenExpr:
		a.errorsOf(x.X, ctx, out)
	case *ast.UnaryExpr:
		a.errorsOf(x.X, ctx, out)
		if x.Op == token.SUB && !a.wraps(x) {
			add(model.Overflow, x, txt(x.X)+" == "+minInt)
		}
	case *ast.ConvExpr:
		// + - * and unary - inside compute modulo 2^64 (the checker
		// marks them: wraps); what lies below them fails as anywhere
		a.errorsOf(x.X, ctx, out)
	case *ast.BinaryExpr:
		a.errorsOf(x.X, ctx, out)
		switch x.Op {
		case token.LAND, token.ARROW:
			a.errorsOf(x.Y, under(txt(x.X)), out)
			return
		case token.LOR:
			a.errorsOf(x.Y, under("!"+txt(x.X)), out)
			return
		}
		a.errorsOf(x.Y, ctx, out)
		switch x.Op {
		case token.ADD, token.SUB, token.MUL:
			if a.wraps(x) {
				break
			}
			v := txt(x.X) + " " + x.Op.String() + " " + txt(x.Y)
			add(model.Overflow, x, v+" > "+maxInt+" || "+v+" < "+minInt)
		case token.SHL, token.SHR:
			// a shift count out of 0..63 is a runtime error (a constant
			// one does not check)
			if _, yconst := a.constValue(x.Y); !yconst {
				add(shiftErrorKind, x, txt(x.Y)+" < 0 || "+txt(x.Y)+" > 63")
			}
		case token.QUO, token.REM:
			yc, yconst := a.constValue(x.Y)
			xc, xconst := a.constValue(x.X)
			if !yconst {
				add(model.DivisionByZero, x, txt(x.Y)+" == 0")
			}
			if x.Op == token.QUO && (!yconst || yc == -1) && (!xconst || xc == math.MinInt64) {
				add(model.Overflow, x, txt(x.X)+" == "+minInt+" && "+txt(x.Y)+" == -1")
			}
		}
	case *ast.SelectorExpr:
		a.errorsOf(x.X, ctx, out)
		add(model.NullDereference, x, txt(x.X)+" == null")
	case *ast.LengthExpr:
		a.errorsOf(x.X, ctx, out)
		if _, ok := a.q.prog.Info.TypeOf(x.X).Underlying().(*types.Ref); ok {
			add(model.NullDereference, x, txt(x.X)+" == null")
		}
	case *ast.IndexExpr:
		a.errorsOf(x.X, ctx, out)
		a.errorsOf(x.Index, ctx, out)
		switch t := a.q.prog.Info.TypeOf(x.X).Underlying().(type) {
		case *types.Ref:
			add(model.NullDereference, x, txt(x.X)+" == null")
			add(model.IndexOutOfBounds, x, txt(x.X)+" != null && ("+txt(x.Index)+" < 0 || "+txt(x.Index)+" >= "+txt(x.X)+".length)")
		case *types.Array:
			add(model.IndexOutOfBounds, x, fmt.Sprintf("%s < 0 || %s >= %d", txt(x.Index), txt(x.Index), t.Len))
		}
	case *ast.InstanceofExpr:
		a.errorsOf(x.X, ctx, out)
	case *ast.BuiltinExpr:
		a.errorsOf(x.X, ctx, out)
	}
}

// shiftErrorKind is the kind of the runtime error of a shift count out of
// 0..63.
const shiftErrorKind = model.ShiftCount

// wraps reports whether the operation x computes modulo 2^64 (inside a
// conversion's operand) instead of failing on overflow.
func (a *abstractor) wraps(x ast.Expr) bool {
	return a.q.prog.Info.Types[x].Wraps
}

// constValue is the value of a constant integer expression.
func (a *abstractor) constValue(x ast.Expr) (int64, bool) {
	tv := a.q.prog.Info.Types[x]
	return tv.Value.Int, tv.Value.Kind == types.IntConst
}

// checkedRef reports whether storing a value of type from into a location
// of type to is a checked reference conversion that may fail: a
// collection from may point into is not one to holds.
func checkedRef(from, to types.Type) bool {
	if from == nil || to == nil {
		return false
	}
	f, ok1 := from.Underlying().(*types.Ref)
	t, ok2 := to.Underlying().(*types.Ref)
	if !ok1 || !ok2 {
		return false
	}
	for _, c := range f.Collections {
		if !t.Holds(c) {
			return true
		}
	}
	return false
}

// rangeError is the condition that storing x into a location of type t
// fails (t a range type), or "": a store into a fixed-width type wraps,
// never an error (the weakest preconditions write its conversion).
func rangeError(t types.Type, x ast.Expr) string {
	r, ok := t.Underlying().(*types.Range)
	if !ok || r.Wrap {
		return ""
	}
	v := "(" + format.Expr(x) + ")"
	return fmt.Sprintf("%s < %d || %s > %d", v, r.Lo, v, r.Hi)
}

// qaction is the action as the weakest preconditions see it: a choice of
// a range or a type is the assignment of its fresh variable.
func (a *abstractor) qaction(x ast.Action) ast.Action {
	if c, ok := x.(*ast.ChooseAction); ok {
		if id := a.q.fresh[c]; id != nil {
			return &ast.AssignAction{Lhs: c.Lhs, Assign: c.Assign, Rhs: id, Semi: c.Semi}
		}
	}
	return x
}

// qactions are the actions a step's action stands for in the weakest
// preconditions: qaction's, and for the start of a thread with
// predicates, the start followed by the assignments of the arguments to
// the new instance's parameters and of their initial values to its
// locals (the thread has one instance: its predicates are about it).
func (a *abstractor) qactions(x ast.Action) []ast.Action {
	if _, ok := x.(*ast.CallAction); ok {
		// the call writes nothing of the caller's: its result comes with
		// the return, and the added step after it says what changes
		return nil
	}
	s, ok := x.(*ast.StartAction)
	if !ok {
		return []ast.Action{a.qaction(x)}
	}
	callee, _ := a.q.prog.Procs.LookupLocal(s.Thread.Name).(*types.Proc)
	if callee == nil || !a.threadPreds[callee] {
		return []ast.Action{x}
	}
	return append([]ast.Action{x}, a.entry(callee, s.Args, s.StartPos)...)
}

// pre is φ over the state before the prefix: its weakest precondition,
// liberal (an assume or assert of the prefix gives !c || φ, a choice among
// values the conjunction over them: φ holds after the prefix whatever it
// does), or, with conj, the condition that the prefix may complete with φ
// true after it: the conditions of its assumes and asserts conjoined, and
// a choice among values the disjunction over them (some value may be
// chosen). The abstraction takes low of the first and up of the second. A
// choice of a range or a type is a fresh variable (qaction), which F
// quantifies universally and G existentially, as each needs.
func (a *abstractor) pre(w *predicate.WP, prefix []ast.Action, phi ast.Expr, conj bool) (ast.Expr, error) {
	for j := len(prefix) - 1; j >= 0; j-- {
		act := prefix[j]
		if conj {
			switch c := act.(type) {
			case *ast.AssumeAction:
				phi = a.mkBin(token.LAND, c.Cond, phi)
				continue
			case *ast.AssertAction:
				phi = a.mkBin(token.LAND, c.Cond, phi)
				continue
			case *ast.ChooseAction:
				if c.Values != nil {
					// some value may be chosen: the disjunction over the
					// values (WP's conjunction says "every value")
					var out ast.Expr
					for _, v := range c.Values {
						y, err := w.Action(&ast.AssignAction{Lhs: c.Lhs, Assign: c.Assign, Rhs: v, Semi: c.Semi}, phi)
						if err != nil {
							return nil, err
						}
						w.Record(y)
						if out == nil {
							out = y
						} else {
							out = a.mkBin(token.LOR, out, y)
						}
					}
					phi = out
					continue
				}
			}
		}
		var err error
		if phi, err = w.Action(act, phi); err != nil {
			return nil, err
		}
	}
	w.Record(phi)
	return phi, nil
}

// writesAbs reports whether the location lhs is abstracted data.
func (a *abstractor) writesAbs(lhs ast.Expr) bool {
	info := a.q.prog.Info
	switch l := ast.Unparen(lhs).(type) {
	case *ast.Ident:
		v, ok := info.Uses[l].(*types.Var)
		return ok && a.isAbs(v)
	case *ast.SelectorExpr:
		v, ok := info.Uses[l.Sel].(*types.Var)
		return ok && a.isAbs(v)
	case *ast.IndexExpr:
		return a.writesAbs(l.X)
	}
	return false
}

// lhsReadsAbs reports whether evaluating the location lhs (its reference
// or index, not the location itself) reads abstracted data.
func (a *abstractor) lhsReadsAbs(lhs ast.Expr) bool {
	switch l := ast.Unparen(lhs).(type) {
	case *ast.SelectorExpr:
		return a.readsAbs(l.X)
	case *ast.IndexExpr:
		return a.readsAbs(l.Index) || a.lhsReadsAbs(l.X) || (!a.writesAbs(l.X) && a.readsAbs(l.X))
	}
	return false
}

// lhsErrors lists the errors of evaluating the location lhs.
func (a *abstractor) lhsErrors(lhs ast.Expr, out *[]errCond) {
	switch l := ast.Unparen(lhs).(type) {
	case *ast.SelectorExpr, *ast.IndexExpr:
		a.errorsOf(l, "", out)
	}
}

// transformation abstracts one transformation of proc (query nodes).
func (a *abstractor) transformation(proc *types.Proc, qt *ast.Transformation) *absTrans {
	w := predicate.NewWP(a.q.prog)
	t := &absTrans{qt: qt}
	temp := func(x string) string {
		if x == "true" || x == "false" || strings.HasPrefix(x, a.prefix) && paren(x) == x {
			return x // a literal, or a choice of this step
		}
		t.nt++
		name := fmt.Sprintf("%st%d", a.prefix, t.nt)
		t.temps = append(t.temps, step{text: name + " := " + x + ";"})
		t.resets = append(t.resets, step{text: name + " := false;"})
		return name
	}
	choice := func() string {
		t.nc++
		name := fmt.Sprintf("%sc%d", a.prefix, t.nc)
		t.choices = append(t.choices, step{text: name + " := internChoose(true, false);", choose: true})
		t.resets = append(t.resets, step{text: name + " := false;"})
		t.choose = true
		return name
	}
	outcome := func(kind model.ErrorKind, at ast.Node) *ErrorOutcome {
		o := &ErrorOutcome{Kind: kind}
		if c := a.q.back[at]; c != nil {
			o.Pos = c.Pos()
		}
		return o
	}
	// g is the guard as a hypothesis of the conditions of the actions
	g := qt.Guard
	if !a.readsAbs(g) {
		t.guard = format.Expr(g)
	} else {
		guard := a.up(g, proc)
		var errs []errCond
		a.errorsOf(g, "", &errs)
		canFail := false
		for _, e := range errs {
			x, err := a.parseCheck(e.cond, proc)
			if err != nil {
				a.unsupported(e.at, "cannot state when %s fails: %v", format.Expr(e.at), err)
				continue
			}
			u := a.up(x, proc)
			if u == "false" {
				continue
			}
			canFail = true
			guard = or(guard, u)
			t.body = append(t.body, step{text: "assert(" + not(temp(mayFail(a.low(x, proc), u, choice))) + ");", err: outcome(e.kind, e.at)})
		}
		if canFail && guard != "true" {
			// the step goes on only where the guard may hold
			t.body = append(t.body, step{text: "assume(" + temp(a.up(g, proc)) + ");"})
		}
		t.guard = guard
	}
	// prefix is the actions before the current one, as the weakest
	// preconditions see them (qactions)
	var prefix []ast.Action
	// fails asserts that the condition x (over the state after prefix)
	// does not hold: the abstract step fails where x must hold, may fail or
	// go on where it may, and goes on where it cannot
	fails := func(x ast.Expr, o *ErrorOutcome) {
		u := "true"
		if p, err := a.pre(w, prefix, x, true); err == nil {
			u = a.up(a.underGuard(t, p), proc)
		}
		if u == "false" {
			return
		}
		l := "false"
		if p, err := a.pre(w, prefix, x, false); err == nil {
			l = a.low(a.ifGuard(t, p), proc)
		}
		t.body = append(t.body, step{text: "assert(" + not(temp(mayFail(l, u, choice))) + ");", err: o})
	}
	// errAt adds the assertions of errs, evaluated after prefix
	errAt := func(errs []errCond) {
		for _, e := range errs {
			x, err := a.parseCheck(e.cond, proc)
			if err != nil {
				a.unsupported(e.at, "cannot state when %s fails: %v", format.Expr(e.at), err)
				continue
			}
			if tv := a.q.prog.Info.Types[x]; tv.Value.Kind == types.BoolConst && !tv.Value.Bool {
				continue // it cannot fail
			}
			fails(x, outcome(e.kind, e.at))
		}
	}
	// condUp is up of x after prefix (the prefix may complete with x true),
	// under the guard
	condUp := func(x ast.Expr) string {
		p, err := a.pre(w, prefix, x, true)
		if err != nil {
			return "true"
		}
		return a.up(a.underGuard(t, p), proc)
	}
	exited := false
	for i, act := range qt.Actions {
		var errs []errCond
		switch x := act.(type) {
		case *ast.AssignAction:
			a.assign(t, proc, w, prefix, x, errAt, temp, choice)
		case *ast.ChooseAction:
			switch {
			case a.writesAbs(x.Lhs):
				if a.q.fresh[x] != nil && (!a.isConst(x.Lo) || !a.isConst(x.Hi)) {
					a.unsupported(x, "a choice of abstracted data between bounds that are not constants")
				}
				for _, v := range x.Values {
					if !a.isConst(v) {
						a.unsupported(v, "a choice of abstracted data among values that are not constants")
					}
				}
				a.lhsErrors(x.Lhs, &errs)
				errAt(errs)
			case a.lhsReadsAbs(x.Lhs) || a.readsAbs(x.Lo) || a.readsAbs(x.Hi) || anyReadsAbs(a, x.Values):
				a.unsupported(x, "a choice of concrete data that reads abstracted data")
			default:
				t.body = append(t.body, step{text: a.concreteChoice(x), choose: true})
				t.choose = true
			}
		case *ast.AssumeAction:
			if !a.readsAbs(x.Cond) {
				t.body = append(t.body, step{text: actionText(x)})
				break
			}
			a.errorsOf(x.Cond, "", &errs)
			errAt(errs)
			t.body = append(t.body, step{text: "assume(" + temp(condUp(x.Cond)) + ");"})
		case *ast.AssertAction:
			if !a.readsAbs(x.Cond) {
				t.body = append(t.body, step{text: actionText(x), err: outcome(model.Assertion, x)})
				break
			}
			a.errorsOf(x.Cond, "", &errs)
			errAt(errs)
			fails(a.mkNot(x.Cond), outcome(model.Assertion, x))
		case *ast.LockAction:
			if a.readsAbs(x.Lock) {
				a.unsupported(x, "a lock reached through abstracted data")
				break
			}
			st := step{text: actionText(x)}
			if x.Op == token.WAIT && i == len(qt.Actions)-1 {
				t.last = &st
				break
			}
			t.body = append(t.body, st)
		case *ast.PrintAction:
			var keep []ast.Expr
			for _, arg := range x.Args {
				if a.readsAbs(arg) {
					a.errorsOf(arg, "", &errs)
					continue
				}
				keep = append(keep, arg)
			}
			errAt(errs)
			if len(keep) > 0 {
				t.body = append(t.body, step{text: actionText(&ast.PrintAction{Args: keep})})
			}
		case *ast.ExitAction:
			// the thread ends here: the actions after it do not run, and
			// the abstract step exits last, after the predicates' updates
			// (an exit before them left the predicates the step changed
			// with their old values: a wrong pass)
			t.last = &step{text: actionText(x)}
			exited = true
		case *ast.StartAction:
			a.start(t, proc, x, errAt)
		case *ast.NewAction:
			switch {
			case a.readsAbs(x.Len):
				a.unsupported(x, "new of an array whose length reads abstracted data")
			case a.writesAbs(x.Lhs):
				// the object is allocated all the same (a full collection
				// is a limit of the model), into a reference of the step
				a.lhsErrors(x.Lhs, &errs)
				errAt(errs)
				ref := a.refTemp(proc, x.Lhs)
				if ref == "" {
					a.unsupported(x, "new into abstracted data of an unnamed type")
					break
				}
				n := *x
				n.Lhs = &ast.Ident{Name: ref}
				t.body = append(t.body, step{text: actionText(&n)})
				t.resets = append(t.resets, step{text: ref + " := null;"})
			case a.lhsReadsAbs(x.Lhs):
				a.unsupported(x, "new into a concrete location chosen by abstracted data")
			default:
				t.body = append(t.body, step{text: actionText(x)})
			}
		case *ast.ForallAction:
			if a.writesAbs(x.Lhs) || a.lhsReadsAbs(x.Lhs) {
				a.unsupported(x, "forall into abstracted data")
				break
			}
			t.body = append(t.body, step{text: actionText(x), choose: true})
			t.choose = true
		case *ast.ReachableAction:
			if a.writesAbs(x.Lhs) || a.lhsReadsAbs(x.Lhs) || a.readsAbs(x.From) {
				a.unsupported(x, "reachable over abstracted data")
				break
			}
			t.body = append(t.body, step{text: actionText(x), choose: true})
			t.choose = true
		case *ast.CallAction:
			a.call(t, proc, w, prefix, x, errAt, temp, choice)
		default:
			a.unsupported(act, "an action the predicate abstraction does not know")
		}
		prefix = append(prefix, a.qactions(act)...)
		if exited {
			break
		}
	}
	if qt.Return {
		a.ret(t, proc, w, prefix, errAt, temp, choice)
		a.updates(t, proc, w, prefix, choice, temp)
		a.retValues(t, proc, w, prefix, temp, choice)
		// the frame is gone after the step: its temporaries need no reset
		// (the returned value may be one)
		t.resets = nil
		t.key = "return"
		return t
	}
	if _, isCall := t.lastAction(); !isCall && !exited {
		// a call's caller arrives at the target when the callee returns:
		// the added step there makes the predicates over its dead locals
		// unknown
		prefix = append(prefix, a.deadResets(proc, proc.Location(qt.Target.Name))...)
	}
	a.updates(t, proc, w, prefix, choice, temp)
	t.end = "goto " + qt.Target.Name + ";"
	t.key = qt.Target.Name
	if t.ret != "" {
		t.end = "goto " + a.retName(proc, qt) + ";"
	}
	return t
}

// underGuard is g && x for a guard g that reads abstracted data, and x
// for one that does not (the abstract step is then taken exactly when g
// holds, so the hypothesis adds nothing).
func (a *abstractor) underGuard(t *absTrans, x ast.Expr) ast.Expr {
	if !a.readsAbs(t.qt.Guard) {
		return x
	}
	return a.mkBin(token.LAND, t.qt.Guard, x)
}

// ifGuard is !g || x, or x, likewise.
func (a *abstractor) ifGuard(t *absTrans, x ast.Expr) ast.Expr {
	if !a.readsAbs(t.qt.Guard) {
		return x
	}
	return a.mkBin(token.LOR, a.mkNot(t.qt.Guard), x)
}

// lastAction is the concrete transformation's last action, and whether
// it is a call.
func (t *absTrans) lastAction() (ast.Action, bool) {
	if n := len(t.qt.Actions); n > 0 {
		_, ok := t.qt.Actions[n-1].(*ast.CallAction)
		return t.qt.Actions[n-1], ok
	}
	return nil, false
}

// retName is the name of the added location after a call transformation.
func (a *abstractor) retName(proc *types.Proc, qt *ast.Transformation) string {
	if a.retNames[qt] == "" {
		a.nret[proc]++
		a.retNames[qt] = fmt.Sprintf("%sret%d", a.prefix, a.nret[proc])
	}
	return a.retNames[qt]
}

// ret abstracts the end of a returning transformation: the result, its
// errors, and `return`.
func (a *abstractor) ret(t *absTrans, proc *types.Proc, w *predicate.WP, prefix []ast.Action,
	errAt func([]errCond), temp func(string) string, choice func() string) {
	x := t.qt.Result
	if x == nil {
		t.end = "return;"
		return
	}
	var errs []errCond
	a.errorsOf(x, "", &errs)
	rt := proc.Result
	if c := rangeError(rt, x); c != "" && abstractType(rt) {
		errs = append(errs, errCond{model.RangeError, x, c})
	}
	errAt(errs)
	switch {
	case abstractType(rt):
		t.end = "return;" // the result is abstracted: the caller's predicates over it become unknown
	case !a.readsAbs(x):
		t.end = "return " + format.Expr(x) + ";"
	case types.IsBoolean(rt):
		t.end = "return " + a.boolValue(t, proc, w, prefix, x, temp, choice) + ";"
	default:
		a.unsupported(x, "a result of type %s computed from abstracted data", rt)
		t.end = "return;"
	}
}

// boolValue is a temporary holding a boolean expression x evaluated after
// prefix: low(x) || (up(x) && choice), over the state before the step.
func (a *abstractor) boolValue(t *absTrans, proc *types.Proc, w *predicate.WP, prefix []ast.Action, x ast.Expr,
	temp func(string) string, choice func() string) string {
	lo := "false"
	if p, err := a.pre(w, prefix, x, false); err == nil {
		lo = a.low(a.ifGuard(t, p), proc)
	}
	up := "true"
	if p, err := a.pre(w, prefix, x, true); err == nil {
		up = a.up(p, proc)
	}
	val := lo
	if lo != "true" && up != "false" && up != lo {
		val = or(lo, and(up, choice()))
	}
	return temp(val)
}

// call abstracts a call, the last action of its transformation: the
// arguments of abstracted parameters are dropped, the callee's [function
// f] predicates are passed as booleans, and when the callee may change
// what a predicate of the caller reads (the result's variable, the data
// it writes for the caller's own [function] predicates, the locals dead at
// the target), an added step at the return target makes that predicate
// unknown.
func (a *abstractor) call(t *absTrans, proc *types.Proc, w *predicate.WP, prefix []ast.Action, x *ast.CallAction,
	errAt func([]errCond), temp func(string) string, choice func() string) {
	callee, _ := a.q.prog.Procs.LookupLocal(x.Func.Name).(*types.Proc)
	if callee == nil {
		a.unsupported(x, "call of an unknown function")
		return
	}
	// arguments whose values are formulas are kept past the step's
	// resets (the call comes last) and reset by the added step
	var kept []string
	argTemp := func(val string) string {
		name := temp(val)
		if strings.HasPrefix(name, a.prefix) {
			kept = append(kept, name)
		}
		return name
	}
	var errs []errCond
	var args []string
	for i, arg := range x.Args {
		if i >= len(callee.Params) {
			break
		}
		par := callee.Params[i]
		switch {
		case a.isAbs(par):
			if checkedRef(a.q.prog.Info.TypeOf(arg), par.Type()) {
				a.unsupported(arg, "a checked reference conversion into an abstracted parameter (it may fail with a cast error)")
			}
			a.errorsOf(arg, "", &errs)
			if c := rangeError(par.Type(), arg); c != "" {
				errs = append(errs, errCond{model.RangeError, arg, c})
			}
		case !a.readsAbs(arg):
			args = append(args, format.Expr(arg))
		case types.IsBoolean(par.Type()):
			a.errorsOf(arg, "", &errs)
			args = append(args, argTemp(a.boolValue(t, proc, w, prefix, arg, temp, choice)))
		default:
			a.unsupported(arg, "a concrete parameter of %s given abstracted data", callee.Name())
		}
	}
	errAt(errs)
	// the callee's predicates: φ with the arguments for the parameters and
	// the initial values for the locals, over the state before the step
	if fps := a.funcPreds[callee]; len(fps) > 0 {
		entry := append(append([]ast.Action(nil), prefix...), a.entry(callee, x.Args, x.CallPos)...)
		for _, p := range fps {
			lt, lf := "false", "false"
			if y, err := a.pre(w, entry, p.q.Expr, false); err == nil {
				lt = a.low(a.ifGuard(t, y), proc)
			}
			if y, err := a.pre(w, entry, a.mkNot(p.q.Expr), false); err == nil {
				lf = a.low(a.ifGuard(t, y), proc)
			}
			args = append(args, argTemp(choose(lt, lf, choice)))
		}
	}
	text := "call " + x.Func.Name + "(" + strings.Join(args, ", ") + ");"
	var lhsVar *types.Var
	if x.Lhs != nil {
		switch l := ast.Unparen(x.Lhs).(type) {
		case *ast.Ident:
			lhsVar, _ = a.q.prog.Info.Uses[l].(*types.Var)
			switch {
			case lhsVar != nil && a.isAbs(lhsVar):
				// dropped: its predicates become unknown after the return
				// (or are return predicates)
				if callee.Result != nil && !fitsIn(callee.Result, lhsVar.Type()) {
					a.unsupported(x, "the result of %s (%s) assigned to %s of type %s, which it may not fit (a range error at the return)", callee.Name(), callee.Result, l.Name, lhsVar.Type())
				}
			case callee.Result != nil && abstractType(callee.Result):
				a.unsupported(x, "concrete variable %s assigned an abstracted result", l.Name)
			default:
				text = l.Name + " := " + text
			}
		default:
			if a.writesAbs(x.Lhs) || a.lhsReadsAbs(x.Lhs) || callee.Result != nil && abstractType(callee.Result) {
				a.unsupported(x, "the result of a call stored into abstracted data other than a variable")
			}
			text = format.Expr(x.Lhs) + " := " + text
		}
	}
	t.last = &step{text: text}
	// the predicates unknown after the return
	mod := a.modOf(callee)
	var dead map[*types.Var]bool
	if target := proc.Location(t.qt.Target.Name); target != nil && target.HasLive {
		dead = map[*types.Var]bool{}
		live := map[*types.Var]bool{}
		for _, v := range target.Live {
			live[v] = true
		}
		for _, v := range proc.Vars() {
			if !live[v] {
				dead[v] = true
			}
		}
	}
	var unknown []*pred
	for _, p := range a.preds {
		if !a.visible(p, proc) {
			continue
		}
		own := p.q.Proc != nil && !p.q.Proc.Thread // a [function] predicate of the caller
		hit := lhsVar != nil && p.vars[lhsVar]
		for v := range p.vars {
			if vv, ok := v.(*types.Var); ok && dead[vv] {
				hit = true
			}
			if own && mod[v] {
				hit = true
			}
		}
		if !hit {
			continue
		}
		if !own && !a.oneThread {
			a.unsupported(x, "after this call returns, predicate %s is unknown, and other threads may read it in between (calls that change a global predicate's variables through their result need a model of one thread)", p.conc.Text)
		}
		unknown = append(unknown, p)
	}
	if len(unknown) == 0 && len(kept) == 0 {
		return
	}
	var acts []string
	cname := func(i int) string { return fmt.Sprintf("%sc%d", a.prefix, i+1) }
	// the return predicates are passed back (retSlots); the others are
	// unknown
	slots := a.slotsAt[t.qt]
	nc := 0
	for _, p := range unknown {
		if slots[p] == nil {
			acts = append(acts, cname(nc)+" := internChoose(true, false);")
			nc++
		}
	}
	t.nc = max(t.nc, nc)
	nc = 0
	for _, p := range unknown {
		if s := slots[p]; s != nil {
			acts = append(acts, p.name+" := "+s.name+";")
			continue
		}
		acts = append(acts, p.name+" := "+cname(nc)+";")
		nc++
	}
	changed := map[int]bool{}
	for i, p := range a.preds {
		for _, u := range unknown {
			if u == p {
				changed[i] = true
			}
		}
	}
	acts = append(acts, a.enforce(changed, proc)...)
	for i := range nc {
		acts = append(acts, cname(i)+" := false;")
	}
	for _, p := range unknown {
		if s := slots[p]; s != nil {
			acts = append(acts, s.name+" := false;")
		}
	}
	for _, k := range kept {
		acts = append(acts, k+" := false;")
	}
	t.ret = fmt.Sprintf("when true do { %s } goto %s;", strings.Join(acts, " "), t.qt.Target.Name)
	// the kept temporaries are not reset by the call's step
	var resets []step
	for _, r := range t.resets {
		keep := false
		for _, k := range kept {
			if r.text == k+" := false;" {
				keep = true
			}
		}
		if !keep {
			resets = append(resets, r)
		}
	}
	t.resets = resets
}

// mayFail is the condition of an abstract failure from the condition's
// low l (it must hold) and up u (it may): l, or u and a choice, so that
// where the failure is possible but not certain, the step both fails and
// goes on.
func mayFail(l, u string, choice func() string) string {
	switch {
	case u == "false":
		return "false"
	case l == "true" || l == u:
		return l
	}
	return or(l, and(u, choice()))
}

// choose is the new value of a predicate from F of it (lt) and of its
// negation (lf).
func choose(lt, lf string, choice func() string) string {
	switch {
	case lt == "true":
		return "true"
	case lf == "true":
		return "false"
	case lt == not(lf):
		return lt
	}
	return or(lt, and(not(lf), choice()))
}

// entry is the assignments of a call's or start's arguments to the
// callee's parameters and of their initial values to its locals.
func (a *abstractor) entry(callee *types.Proc, args []ast.Expr, pos source.Pos) []ast.Action {
	var out []ast.Action
	assign := func(v *types.Var, rhs ast.Expr) {
		id := &ast.Ident{NamePos: pos, Name: v.Name()}
		a.q.prog.Info.Uses[id] = v
		a.q.prog.Info.Types[id] = types.TypeAndValue{Type: v.Type()}
		out = append(out, &ast.AssignAction{Lhs: id, Rhs: rhs})
	}
	n := min(len(callee.Params), len(args))
	order, ok := a.paramOrder(callee.Params[:n], args[:n])
	for _, i := range order {
		assign(callee.Params[i], args[i])
	}
	if !ok {
		// the arguments permute the parameters (a recursive f(b, a)):
		// no order of the assignments is their simultaneous one, and
		// the predicates that read the parameters are unknown
		for _, v := range callee.Params[:n] {
			id := &ast.Ident{NamePos: pos, Name: v.Name()}
			a.q.prog.Info.Uses[id] = v
			a.q.prog.Info.Types[id] = types.TypeAndValue{Type: v.Type()}
			out = append(out, &ast.ForallAction{Lhs: id, KwPos: pos})
		}
	}
	for _, v := range callee.Locals {
		val, ok := initText(v)
		out = append(out, a.setActions(v, val, ok, pos)...)
	}
	return out
}

// paramOrder orders the assignments of a call's arguments to the callee's
// parameters so that, run in that order, they assign what the call does at
// once: the weakest preconditions go through them from the last, and the
// argument of a recursive call reads the caller's parameters, which are
// the callee's variables too, so an assignment must come before the one
// of every parameter its argument reads (f(b, a) assigned a := b, then
// b := a gave the callee's b the caller's b: a wrong pass). ok is false
// when no order does (the arguments permute parameters).
func (a *abstractor) paramOrder(params []*types.Var, args []ast.Expr) (order []int, ok bool) {
	// before[j] lists the i whose argument reads parameter j (i != j)
	before := make([][]int, len(params))
	for i, arg := range args {
		ast.Inspect(arg, func(n ast.Node) bool {
			if id, isID := n.(*ast.Ident); isID {
				for j, p := range params {
					if j != i && a.q.prog.Info.Uses[id] == p {
						before[j] = append(before[j], i)
					}
				}
			}
			return true
		})
	}
	state := make([]int, len(params)) // 0 new, 1 on the path, 2 placed
	var visit func(j int) bool
	visit = func(j int) bool {
		switch state[j] {
		case 1:
			return false
		case 2:
			return true
		}
		state[j] = 1
		for _, i := range before[j] {
			if !visit(i) {
				return false
			}
		}
		state[j] = 2
		order = append(order, j)
		return true
	}
	for j := range params {
		if !visit(j) {
			return nil, false
		}
	}
	return order, true
}

// maxSetElems bounds the element assignments setActions writes for a
// value array.
const maxSetElems = 64

// setActions are the actions through which the weakest preconditions see
// the local v take the value val (its initial value or its type's default,
// as initText and defaultText give it, ok false when they have none) at a
// call's entry or on arrival where v is dead: the assignment v := val; for
// a value array, the assignment of its element type's default to each
// element; nothing for a lock (no predicate reads one); and otherwise a
// havoc of v (a forall into it), which has no weakest precondition for a
// predicate that reads v, so that the predicate becomes unknown. (Leaving
// v out made a predicate over a local array keep the value of another
// activation, or of the array before it was reset: wrong passes.)
func (a *abstractor) setActions(v *types.Var, val string, ok bool, pos source.Pos) []ast.Action {
	ident := func() *ast.Ident {
		id := &ast.Ident{NamePos: pos, Name: v.Name()}
		a.q.prog.Info.Uses[id] = v
		a.q.prog.Info.Types[id] = types.TypeAndValue{Type: v.Type()}
		return id
	}
	if ok {
		if rhs, err := a.parseCheck(val, nil); err == nil {
			return []ast.Action{&ast.AssignAction{Lhs: ident(), Rhs: rhs}}
		}
	}
	switch u := v.Type().Underlying().(type) {
	case *types.Lock:
		return nil
	case *types.Array:
		if d, ok := defaultText(u.Elem); ok && u.Len <= maxSetElems {
			var out []ast.Action
			for k := int64(0); k < u.Len; k++ {
				lhs, err := a.parseCheck(fmt.Sprintf("%s[%d]", v.Name(), k), v.Owner)
				rhs, err2 := a.parseCheck(d, nil)
				if err != nil || err2 != nil {
					return []ast.Action{&ast.ForallAction{Lhs: ident(), KwPos: pos}}
				}
				out = append(out, &ast.AssignAction{Lhs: lhs, Rhs: rhs})
			}
			return out
		}
	}
	return []ast.Action{&ast.ForallAction{Lhs: ident(), KwPos: pos}}
}

func anyReadsAbs(a *abstractor, xs []ast.Expr) bool {
	for _, x := range xs {
		if a.readsAbs(x) {
			return true
		}
	}
	return false
}

// maxHavocElems bounds the elements of a concrete array that an
// assignment at an abstracted index may change one by one.
const maxHavocElems = 16

// elementByAbstractIndex abstracts a[i] := e, a a concrete value array of
// booleans, enums or small ranges and i reading abstracted data: i's
// errors (out of bounds) and e's are kept, and each element becomes its
// old value or the new one (internChoose(a[k], v)), since the abstract
// model does not know which element is written.
func (a *abstractor) elementByAbstractIndex(t *absTrans, proc *types.Proc, w *predicate.WP, prefix []ast.Action, x *ast.AssignAction,
	errAt func([]errCond), temp func(string) string, choice func() string) {
	ix, ok := ast.Unparen(x.Lhs).(*ast.IndexExpr)
	var arr *types.Array
	if ok && !a.readsAbs(ix.X) && !a.lhsReadsAbs(ix.X) && !a.writesAbs(ix.X) {
		arr, _ = a.q.prog.Info.TypeOf(ix.X).Underlying().(*types.Array)
	}
	et := types.Type(nil)
	if arr != nil {
		et = arr.Elem
	}
	if arr == nil || arr.Len > maxHavocElems || valuesOfType(et) == nil {
		a.unsupported(x, "an assignment to concrete data at a location chosen by abstracted data")
		return
	}
	var errs []errCond
	a.errorsOf(x.Lhs, "", &errs)
	a.errorsOf(x.Rhs, "", &errs)
	if c := rangeError(et, x.Rhs); c != "" && a.readsAbs(x.Rhs) {
		errs = append(errs, errCond{model.RangeError, x.Rhs, c})
	}
	errAt(errs)
	var vals []string
	switch {
	case !a.readsAbs(x.Rhs):
		vals = []string{format.Expr(x.Rhs)}
	case types.IsBoolean(et):
		vals = []string{a.boolValue(t, proc, w, prefix, x.Rhs, temp, choice)}
	default:
		vals = valuesOfType(et)
	}
	base := format.Expr(ix.X)
	if _, simple := ast.Unparen(ix.X).(*ast.Ident); !simple {
		base = "(" + base + ")"
	}
	for k := int64(0); k < arr.Len; k++ {
		elem := fmt.Sprintf("%s[%d]", base, k)
		t.body = append(t.body, step{text: elem + " := internChoose(" + elem + ", " + strings.Join(vals, ", ") + ");", choose: true})
	}
	t.choose = true
}

// valuesOfType lists the values of a boolean, enum or range type of at
// most 256 values as BIR text, or nil.
func valuesOfType(t types.Type) []string {
	if t == nil {
		return nil
	}
	switch u := t.Underlying().(type) {
	case *types.Basic:
		if u.Kind == types.Bool {
			return []string{"true", "false"}
		}
	case *types.Enum:
		var out []string
		for _, c := range u.Consts {
			out = append(out, c.Name())
		}
		return out
	case *types.Range:
		if u.Span() < maxConcreteRange {
			return rangeValues(u)
		}
	}
	return nil
}

// assign abstracts lhs := rhs.
func (a *abstractor) assign(t *absTrans, proc *types.Proc, w *predicate.WP, prefix []ast.Action, x *ast.AssignAction,
	errAt func([]errCond), temp func(string) string, choice func() string) {
	var errs []errCond
	switch {
	case a.writesAbs(x.Lhs):
		if checkedRef(a.q.prog.Info.TypeOf(x.Rhs), a.q.prog.Info.TypeOf(x.Lhs)) {
			a.unsupported(x, "a checked reference conversion into abstracted data (it may fail with a cast error)")
		}
		a.lhsErrors(x.Lhs, &errs)
		a.errorsOf(x.Rhs, "", &errs)
		if c := rangeError(a.q.prog.Info.TypeOf(x.Lhs), x.Rhs); c != "" {
			errs = append(errs, errCond{model.RangeError, x.Rhs, c})
		}
		errAt(errs)
	case a.lhsReadsAbs(x.Lhs):
		a.elementByAbstractIndex(t, proc, w, prefix, x, errAt, temp, choice)
	case !a.readsAbs(x.Rhs):
		t.body = append(t.body, step{text: actionText(x)})
	default:
		// concrete data assigned abstracted data
		lt := a.q.prog.Info.TypeOf(x.Lhs)
		a.errorsOf(x.Rhs, "", &errs)
		if c := rangeError(lt, x.Rhs); c != "" {
			errs = append(errs, errCond{model.RangeError, x.Rhs, c})
		}
		errAt(errs)
		lhs := format.Expr(x.Lhs)
		switch u := lt.Underlying().(type) {
		case *types.Basic:
			if u.Kind != types.Bool {
				a.unsupported(x, "concrete data of type %s assigned abstracted data", lt)
				return
			}
			lo := "false"
			if p, err := a.pre(w, prefix, x.Rhs, false); err == nil {
				lo = a.low(a.ifGuard(t, p), proc)
			}
			up := "true"
			if p, err := a.pre(w, prefix, x.Rhs, true); err == nil {
				up = a.up(p, proc)
			}
			val := lo
			if lo != "true" && up != "false" && up != lo {
				val = or(lo, and(up, choice()))
			}
			t.body = append(t.body, step{text: lhs + " := " + temp(val) + ";"})
		case *types.Range:
			t.body = append(t.body, step{text: fmt.Sprintf("%s := internChoose(%d .. %d);", lhs, u.Lo, u.Hi), choose: true})
			t.choose = true
		case *types.Enum:
			var names []string
			for _, c := range u.Consts {
				names = append(names, c.Name())
			}
			t.body = append(t.body, step{text: lhs + " := internChoose(" + strings.Join(names, ", ") + ");", choose: true})
			t.choose = true
		default:
			a.unsupported(x, "concrete data of type %s assigned abstracted data", lt)
		}
	}
}

// start abstracts a start action: the arguments of abstracted parameters
// are dropped (their errors kept).
func (a *abstractor) start(t *absTrans, proc *types.Proc, x *ast.StartAction, errAt func([]errCond)) {
	callee, _ := a.q.prog.Procs.LookupLocal(x.Thread.Name).(*types.Proc)
	if callee == nil {
		a.unsupported(x, "start of an unknown thread")
		return
	}
	var errs []errCond
	var keep []ast.Expr
	for i, arg := range x.Args {
		if i < len(callee.Params) && a.isAbs(callee.Params[i]) {
			if checkedRef(a.q.prog.Info.TypeOf(arg), callee.Params[i].Type()) {
				a.unsupported(arg, "a checked reference conversion into an abstracted parameter (it may fail with a cast error)")
			}
			a.errorsOf(arg, "", &errs)
			if c := rangeError(callee.Params[i].Type(), arg); c != "" {
				errs = append(errs, errCond{model.RangeError, arg, c})
			}
			continue
		}
		if a.readsAbs(arg) {
			a.unsupported(arg, "a concrete parameter of %s given abstracted data", callee.Name())
		}
		keep = append(keep, arg)
	}
	errAt(errs)
	if x.Lhs != nil && (a.writesAbs(x.Lhs) || a.lhsReadsAbs(x.Lhs)) {
		a.unsupported(x, "the identifier of a started thread stored into abstracted data")
	}
	s := *x
	s.Args = keep
	s.PaperForm = false
	t.body = append(t.body, step{text: actionText(&s)})
}

// updates assigns the predicates the step may change their new values:
// F(WP(φ)) || (!F(WP(!φ)) && choice), over the state before the step.
func (a *abstractor) updates(t *absTrans, proc *types.Proc, w *predicate.WP, actions []ast.Action, choice func() string, temp func(string) string) {
	changed := map[int]bool{}
	defer func() {
		for _, e := range a.enforce(changed, proc) {
			t.post = append(t.post, step{text: e})
		}
	}()
	for i, p := range a.preds {
		if !a.visible(p, proc) || t.qt.Return && p.q.Proc == proc && !proc.Thread {
			continue // out of scope, or in the frame the step pops
		}
		if !w.Changes(actions, p.q.Expr) {
			continue
		}
		lt, lf := "false", "false"
		// the guard holds when the step is taken: !g || WP
		if x, err := a.pre(w, actions, p.q.Expr, false); err == nil {
			if a.sameExpr(x, p.q.Expr) {
				continue // WP is the predicate: the step keeps its value
			}
			lt = a.low(a.ifGuard(t, x), proc)
		}
		if x, err := a.pre(w, actions, a.mkNot(p.q.Expr), false); err == nil {
			lf = a.low(a.ifGuard(t, x), proc)
		}
		val := choose(lt, lf, choice)
		if val != "true" && val != "false" && val != lt {
			changed[i] = true // a choice: the new values may contradict each other
		}
		t.post = append(t.post, step{text: p.name + " := " + temp(val) + ";"})
	}
}

// sameExpr reports whether x and y are the same formula: the same text,
// each name denoting the same variable or constant. (The text alone is
// not enough: the start of W(t) gives [thread W] t > 0 the precondition
// t > 0 over the starting thread's own t, and the predicate kept its old
// value: a wrong pass.)
func (a *abstractor) sameExpr(x, y ast.Expr) bool {
	if format.Expr(x) != format.Expr(y) {
		return false
	}
	uses := func(e ast.Expr) []types.Object {
		var out []types.Object
		ast.Inspect(e, func(n ast.Node) bool {
			if id, ok := n.(*ast.Ident); ok {
				out = append(out, a.q.prog.Info.Uses[id])
			}
			return true
		})
		return out
	}
	ux, uy := uses(x), uses(y)
	if len(ux) != len(uy) {
		return false
	}
	for i := range ux {
		if ux[i] == nil || ux[i] != uy[i] {
			return false
		}
	}
	return true
}

// refTemp names the reference local of proc into which the abstract model
// allocates the objects that go to the abstracted location lhs: one per
// type, declared with the type of lhs as written ("" if lhs has none).
func (a *abstractor) refTemp(proc *types.Proc, lhs ast.Expr) string {
	var v *types.Var
	switch l := ast.Unparen(lhs).(type) {
	case *ast.Ident:
		v, _ = a.q.prog.Info.Uses[l].(*types.Var)
	case *ast.SelectorExpr:
		v, _ = a.q.prog.Info.Uses[l.Sel].(*types.Var)
	}
	if v == nil || v.Decl == nil {
		return ""
	}
	typ := format.TypeExpr(v.Decl.Type)
	if a.refTemps[proc] == nil {
		a.refTemps[proc] = map[string]string{}
	}
	name, ok := a.refTemps[proc][typ]
	if !ok {
		name = fmt.Sprintf("%sr%d", a.prefix, len(a.refTemps[proc])+1)
		a.refTemps[proc][typ] = name
	}
	return name
}

// deadResets are the assignments of their defaults to the locals that are
// dead at the target (not in its live set): the model resets them on
// arrival, which changes the predicates that read them.
func (a *abstractor) deadResets(proc *types.Proc, target *types.Location) []ast.Action {
	if target == nil || !target.HasLive {
		return nil
	}
	live := map[*types.Var]bool{}
	for _, v := range target.Live {
		live[v] = true
	}
	var out []ast.Action
	for _, v := range proc.Vars() {
		if live[v] {
			continue
		}
		val, ok := defaultText(v.Type())
		out = append(out, a.setActions(v, val, ok, source.NoPos)...)
	}
	return out
}

// actionText prints one action as the model's text.
// concreteChoice is the text of a choice into concrete data: as written,
// but a choice into a fixed-width location among at least 2^N consecutive
// values (x := externChoose(int) for a uint8 x) is the choice of every
// value of the type (externChoose(0 .. 255)): the store wraps each value
// into it and reaches every one, and the explicit search of the abstract
// model enumerates 2^N values, not 2^64.
func (a *abstractor) concreteChoice(x *ast.ChooseAction) string {
	info := a.q.prog.Info
	r, ok := info.TypeOf(x.Lhs).Underlying().(*types.Range)
	if !ok || !r.Wrap || r.Bits >= 64 || x.Values != nil {
		return actionText(x)
	}
	var lo, hi int64
	switch {
	case x.Type != nil:
		if lo, hi, ok = types.IntegerBounds(info.TypeExprs[x.Type]); !ok {
			return actionText(x)
		}
	default:
		l, okl := a.constValue(x.Lo)
		h, okh := a.constValue(x.Hi)
		if !okl || !okh {
			return actionText(x)
		}
		lo, hi = l, h
	}
	if hi < lo || uint64(hi)-uint64(lo) < uint64(1)<<r.Bits-1 {
		return actionText(x) // fewer values than the type has
	}
	kw := "internChoose"
	if x.Extern {
		kw = "externChoose"
	}
	return fmt.Sprintf("%s := %s(%d .. %d);", format.Expr(x.Lhs), kw, r.Lo, r.Hi)
}

func actionText(x ast.Action) string {
	tr := format.Transformation(&ast.Transformation{
		Guard:   &ast.BasicLit{Kind: token.TRUE, Value: "true"},
		Actions: []ast.Action{x},
		Target:  &ast.Ident{Name: "L"},
	})
	i := strings.Index(tr, "{ ")
	j := strings.LastIndex(tr, " }")
	if i < 0 || j < i {
		return tr
	}
	return tr[i+2 : j]
}

// fitsIn reports whether every value of type from is a value of type to,
// for the integer types a call's result and the variable it goes to may
// have: no range error is possible in the assignment.
func fitsIn(from, to types.Type) bool {
	if types.Identical(from, to) {
		return true
	}
	switch t := to.Underlying().(type) {
	case *types.Basic:
		if t.Kind != types.Int {
			return false
		}
		switch f := from.Underlying().(type) {
		case *types.Basic:
			return f.Kind == types.Int
		case *types.Range:
			return true
		}
	case *types.Range:
		if t.Wrap {
			return true // a store wraps: no range error
		}
		f, ok := from.Underlying().(*types.Range)
		return ok && f.Lo >= t.Lo && f.Hi <= t.Hi
	}
	return false
}
