package c

import (
	"fmt"
	"strings"

	"modernc.org/cc/v4"
)

// fnLowerer lowers the body of one C function.
type fnLowerer struct {
	gotos   map[string]int // the gotos of the function by label (jumpInto)
	l       *lowerer
	opText  string // the C text of the operation binop lowers, for its overflow check
	fn      *function
	b       *builder
	params  []*variable
	locals  []*variable // named locals
	temps   []*variable
	vars    map[*cc.Declarator]*variable
	names   map[string]bool   // names taken in the function
	labels  map[string]string // C label -> location
	breaks  []string
	conts   []string
	cases   []map[*cc.LabeledStatement]string // the enclosing switches' case locations
	result  intType
	hasRes  bool // the function returns a value
	isMain  bool
	freeTmp map[intType][]*variable // temporaries free for reuse in this statement
	busyTmp []*variable
	// freshTmp is the temporary just made, used nowhere else yet
	freshTmp *variable
	inExpr   int // > 0 inside a statement expression: its statements keep the temporaries
	// nondetTemp are the temporaries that hold a __VERIFIER_nondet value
	nondetTemp map[string]intType
	globalName map[string]bool            // the BIR names of the globals the function reads
	pure       map[cc.ExpressionNode]bool // isPure's answers
	mem        *fnMem                     // the function's objects (mem.go); nil while unused
}

// boundary tells whether a statement starting here ends the temporaries.
func (fl *fnLowerer) boundary() bool { return fl.inExpr == 0 }

// lowerFunction lowers a function definition to BIR text.
func (l *lowerer) lowerFunction(f *function) {
	fd := f.def
	ft, ok := fd.Declarator.Type().(*cc.FunctionType)
	if !ok {
		l.unsupported(fd.Declarator, "%s is not a function", f.cname)
		return
	}
	fl := &fnLowerer{
		l: l, fn: f, vars: map[*cc.Declarator]*variable{}, names: map[string]bool{},
		labels: map[string]string{}, isMain: f.cname == "main", freeTmp: map[intType][]*variable{},
		nondetTemp: map[string]intType{}, globalName: map[string]bool{}, pure: map[cc.ExpressionNode]bool{},
	}
	for n := range l.reserved {
		fl.names[n] = true
	}
	for _, g := range l.globals {
		fl.names[g.name] = true
	}
	switch class, t := l.classify(ft.Result()); class {
	case classVoid:
	case classInt:
		fl.result, fl.hasRes = t, true
	case classMemory:
		if isPtrType(ft.Result()) {
			fl.result, fl.hasRes = tPtr, true
			fl.memState().resultPtr = ft.Result()
			break
		}
		l.typeUnsupported(fd.Declarator, ft.Result(), class, "the result of "+f.cname)
	default:
		l.typeUnsupported(fd.Declarator, ft.Result(), class, "the result of "+f.cname)
	}
	var mainArgs []*variable // main's int parameters that the body reads
	for i, p := range ft.Parameters() {
		if p.Type().Kind() == cc.Void {
			continue
		}
		name := p.Name()
		if name == "" {
			name = fmt.Sprintf("$p%d", i+1)
		}
		if fl.isMain {
			// the command line: main's parameters are locals; one the
			// body never names is irrelevant, an int one it names holds
			// any nonnegative value (argc), a pointer one is unsupported
			class, t := l.classify(p.Type())
			named := p.Declarator != nil && mentions(fd.CompoundStatement, p.Declarator)
			if named && class != classInt {
				l.unsupported(nameOf(p.Declarator), "main's parameter %s (the command line) is used", name)
			}
			if class != classInt {
				t = tInt
			}
			v := &variable{name: uniqueName(name, fl.names), t: t}
			fl.locals = append(fl.locals, v)
			if p.Declarator != nil {
				fl.vars[p.Declarator] = v
			}
			if named && class == classInt {
				mainArgs = append(mainArgs, v)
			}
			continue
		}
		class, t := l.classify(p.Type())
		if class == classMemory && p.Type().Kind() == cc.Struct {
			fl.structParam(p, name)
			continue
		}
		if class == classMemory {
			t, _ = l.memParam(p, f.cname)
		} else if class != classInt {
			l.typeUnsupported(p, p.Type(), class, "the parameter "+name+" of "+f.cname)
			t = tInt
		}
		v := &variable{name: uniqueName(name, fl.names), t: t}
		fl.params = append(fl.params, v)
		if p.Declarator != nil {
			fl.vars[p.Declarator] = v
		}
	}
	labels := map[string]bool{}
	collectLabels(fd.CompoundStatement, labels)
	used := map[string]bool{}
	for name := range labels {
		if !birKeywords[name] {
			used[name] = true
			fl.labels[name] = name
		}
	}
	for name := range labels {
		if birKeywords[name] {
			fl.labels[name] = uniqueName(name, used)
		}
	}
	fl.b = newBuilder(used)
	fl.b.pos = pos(fd.Declarator.Position())
	fl.b.guardPrefix = l.guardPrefix()
	fl.b.exitActs = fl.memExitActs
	fl.b.place(fl.b.newLabel(), true)
	for _, v := range mainArgs {
		fl.b.act("%s := externChoose(%s); assume(%s >= 0);", v.name, v.t.bir(), v.name)
	}
	fl.memParams(ft.Parameters())
	fl.compound(fd.CompoundStatement)
	// falling off the end of the body
	fl.b.pos = pos(fd.CompoundStatement.Token2.Position())
	if fl.b.cur != nil {
		switch {
		case !fl.hasRes:
			fl.b.ret("")
		case fl.isMain:
			fl.b.ret("0") // C99: reaching the end of main returns 0
		case fl.b.unreached():
			// no path falls off the end (every one returns): a choice of
			// any value there would still make the program's inputs
			// unbounded for the choice of the technique
			fl.b.ret("0")
		default:
			// the value is undefined: any value of the type
			t := fl.temp(fl.result)
			fl.b.act("%s := externChoose(%s);", t.name, fl.result.bir())
			fl.b.ret(t.name)
		}
	}
	fl.b.thread()
	f.text = fl.print()
}

// collectLabels gathers the C labels of a function body.
func collectLabels(n cc.Node, labels map[string]bool) {
	walk(n, func(n cc.Node) {
		if ls, ok := n.(*cc.LabeledStatement); ok && ls.Case == cc.LabeledStatementLabel {
			labels[ls.Token.SrcStr()] = true
		}
	})
}

func (fl *fnLowerer) print() string {
	var w strings.Builder
	var params []string
	for _, p := range fl.params {
		params = append(params, p.name+" : "+p.t.bir())
	}
	fmt.Fprintf(&w, "function %s (%s)", fl.fn.name, strings.Join(params, ", "))
	if fl.hasRes {
		fmt.Fprintf(&w, " : %s", fl.result.bir())
	}
	w.WriteString("\n")
	var live []string
	for _, p := range fl.params {
		live = append(live, p.name)
	}
	for _, v := range fl.locals {
		fmt.Fprintf(&w, "  %s : %s;\n", v.name, v.birType())
		live = append(live, v.name)
	}
	for _, v := range fl.temps {
		fmt.Fprintf(&w, "  %s : %s;\n", v.name, v.t.bir())
	}
	fl.b.print(&w, liveSets && len(fl.temps) > 0, strings.Join(live, ", "))
	fmt.Fprintf(&w, "end %s;\n", fl.fn.name)
	return w.String()
}

// liveSets: a location where a statement starts declares the temporaries
// dead (a live set of the named variables), which shrinks the state space.
const liveSets = true

// temp gives a temporary of type t, live until the end of the statement.
func (fl *fnLowerer) temp(t intType) *variable {
	fl.freshTmp = nil
	if free := fl.freeTmp[t]; len(free) > 0 {
		v := free[len(free)-1]
		fl.freeTmp[t] = free[:len(free)-1]
		fl.busyTmp = append(fl.busyTmp, v)
		return v
	}
	v := &variable{name: uniqueName(fmt.Sprintf("$t%d", len(fl.temps)+1), fl.names), t: t}
	fl.temps = append(fl.temps, v)
	fl.freshTmp = v
	fl.busyTmp = append(fl.busyTmp, v)
	return v
}

// stmtStart begins a C statement: a location of its own, with the
// statement's position, where the temporaries of the earlier ones are
// dead.
func (fl *fnLowerer) stmtStart(n cc.Node) {
	fl.b.pos = pos(n.Position())
	if !fl.boundary() {
		fl.b.flush()
		return
	}
	for _, v := range fl.busyTmp {
		fl.freeTmp[v.t] = append(fl.freeTmp[v.t], v)
	}
	fl.busyTmp = nil
	switch {
	case fl.b.cur == nil:
	case len(fl.b.pending) == 0 && len(fl.b.cur.trans) == 0:
		fl.b.cur.stmtStart = true
	default:
		fl.b.place(fl.b.newLabel(), true)
	}
}

func (fl *fnLowerer) compound(cs *cc.CompoundStatement) {
	if cs == nil {
		return
	}
	var items []*cc.BlockItem
	for bl := cs.BlockItemList; bl != nil; bl = bl.BlockItemList {
		items = append(items, bl.BlockItem)
	}
	for i, it := range items {
		switch it.Case {
		case cc.BlockItemDecl:
			fl.declaration(it.Declaration, items[i+1:])
		case cc.BlockItemLabel:
			// __label__ declarations: local labels, named as any other
		case cc.BlockItemStmt:
			fl.stmt(it.Statement)
		default:
			fl.l.unsupported(it, "a nested function")
		}
	}
}

// declaration declares the locals of a block.
func (fl *fnLowerer) declaration(d *cc.Declaration, rest []*cc.BlockItem) {
	if d == nil || d.Case != cc.DeclarationDecl {
		if d != nil && d.Case == cc.DeclarationAuto {
			fl.l.unsupported(d, "__auto_type")
		}
		return
	}
	for idl := d.InitDeclaratorList; idl != nil; idl = idl.InitDeclaratorList {
		id := idl.InitDeclarator
		if id == nil || id.Declarator == nil {
			continue
		}
		dr := id.Declarator
		if dr.IsTypename() || dr.Type() == nil || dr.Type().Kind() == cc.Function {
			continue
		}
		if dr.IsExtern() {
			continue // names a global, resolved by name
		}
		if ls := fl.jumpInto(rest); ls != nil && !dr.IsStatic() {
			// the variable's value there is indeterminate (any value, as
			// CBMC reads it), which the lowering's choice or store at
			// the declaration does not give (it read 0: a wrong pass)
			fl.l.unsupported(ls, "a jump into the scope of %s past its declaration", dr.Name())
		}
		if dr.IsSynthetic() || dr.Name() == "__func__" {
			continue // the type checker's __func__: lowered where used
		}
		fl.l.atomicObject(dr)
		class, t := fl.l.classify(dr.Type())
		if class == classMemory || class == classInt && dr.AddressTaken() {
			fl.memDeclare(dr, id.Initializer, rest)
			continue
		}
		if class != classInt {
			fl.l.typeUnsupported(nameOf(dr), dr.Type(), class, "the variable "+dr.Name())
			continue
		}
		if dr.IsStatic() {
			fl.vars[dr] = fl.l.staticLocal(dr, id.Initializer, t)
			fl.globalName[fl.vars[dr].name] = true
			continue
		}
		v := &variable{name: uniqueName(dr.Name(), fl.names), t: t}
		fl.locals = append(fl.locals, v)
		fl.vars[dr] = v
		fl.stmtStart(dr)
		switch {
		case id.Initializer == nil:
			if !assignedBeforeRead(dr, rest) {
				// an uninitialised local holds any value of its type
				fl.b.act("%s := externChoose(%s);", v.name, nondetRange(t))
			}
		case id.Initializer.Case == cc.InitializerExpr:
			fl.store(v, fl.rval(id.Initializer.AssignmentExpression))
		default:
			fl.l.unsupported(id.Initializer, "an initializer list for an integer variable")
		}
	}
}

// jumpInto is a label among the block items after a declaration that a
// jump from outside them reaches, past the declaration: a goto before the
// declaration, or a case or default of a switch that encloses it; nil
// when there is none.
func (fl *fnLowerer) jumpInto(rest []*cc.BlockItem) *cc.LabeledStatement {
	if fl.gotos == nil {
		fl.gotos = map[string]int{}
		countGotos(fl.fn.def.CompoundStatement, fl.gotos, nil)
	}
	inRest := map[string]int{}
	var labels []*cc.LabeledStatement
	for _, it := range rest {
		countGotos(it, inRest, &labels)
	}
	for _, ls := range labels {
		if ls.Case != cc.LabeledStatementLabel || fl.gotos[ls.Token.SrcStr()] > inRest[ls.Token.SrcStr()] {
			return ls
		}
	}
	return nil
}

// countGotos counts the gotos below n by label and, when labels is not
// nil, gathers the labels below n: named ones, and the cases and defaults
// of switches that are not below n.
func countGotos(n cc.Node, gotos map[string]int, labels *[]*cc.LabeledStatement) {
	var visit func(n cc.Node, inSwitch bool)
	visit = func(n cc.Node, inSwitch bool) {
		walkUntil(n, func(m cc.Node) bool {
			switch x := m.(type) {
			case *cc.SelectionStatement:
				if x.Case == cc.SelectionStatementSwitch && !inSwitch && m != n {
					visit(x, true)
					return false
				}
			case *cc.JumpStatement:
				if x.Case == cc.JumpStatementGoto {
					gotos[x.Token2.SrcStr()]++
				}
			case *cc.LabeledStatement:
				if labels != nil && (x.Case == cc.LabeledStatementLabel || !inSwitch) {
					*labels = append(*labels, x)
				}
			}
			return true
		})
	}
	visit(n, false)
}

// nondetRange is what externChoose chooses from for a value of type t.
func nondetRange(t intType) string {
	if t.isBool {
		return "0 .. 1"
	}
	return t.bir()
}

// assignedBeforeRead tells whether the block items after a declaration
// assign the variable before anything could read it: the next items that
// mention it start with an assignment to it, and none before is a
// statement that could jump.
func assignedBeforeRead(dr *cc.Declarator, rest []*cc.BlockItem) bool {
	for _, it := range rest {
		if mentions(it, dr) {
			if it.Case != cc.BlockItemStmt {
				return false
			}
			s := it.Statement
			var e cc.ExpressionNode
			switch {
			case s.Case == cc.StatementExpr && s.ExpressionStatement != nil:
				e = s.ExpressionStatement.ExpressionList
			case s.Case == cc.StatementIteration && s.IterationStatement.Case == cc.IterationStatementFor:
				e = s.IterationStatement.ExpressionList
			default:
				return false
			}
			for {
				el, ok := e.(*cc.ExpressionList)
				if !ok {
					break
				}
				e = el.AssignmentExpression
			}
			a, ok := e.(*cc.AssignmentExpression)
			if !ok || a.Case != cc.AssignmentExpressionAssign || !isVar(a.UnaryExpression, dr) {
				return false
			}
			return !mentions(a.AssignmentExpression, dr)
		}
		switch it.Case {
		case cc.BlockItemDecl:
			continue
		case cc.BlockItemStmt:
			if it.Statement.Case != cc.StatementExpr {
				return false
			}
		default:
			return false
		}
	}
	return false
}

func isVar(e cc.ExpressionNode, dr *cc.Declarator) bool {
	for {
		if p, ok := e.(*cc.PrimaryExpression); ok && p.Case == cc.PrimaryExpressionExpr {
			e = p.ExpressionList
			continue
		}
		break
	}
	p, ok := e.(*cc.PrimaryExpression)
	return ok && p.Case == cc.PrimaryExpressionIdent && p.ResolvedTo() == dr
}

// mentions tells whether n refers to the declarator.
func mentions(n cc.Node, dr *cc.Declarator) bool {
	found := false
	walk(n, func(n cc.Node) {
		if p, ok := n.(*cc.PrimaryExpression); ok && p.Case == cc.PrimaryExpressionIdent && p.ResolvedTo() == dr {
			found = true
		}
	})
	return found
}

func (fl *fnLowerer) stmt(s *cc.Statement) {
	if s == nil {
		return
	}
	switch s.Case {
	case cc.StatementLabeled:
		fl.labeled(s.LabeledStatement)
	case cc.StatementCompound:
		fl.compound(s.CompoundStatement)
	case cc.StatementExpr:
		es := s.ExpressionStatement
		if es == nil || es.ExpressionList == nil {
			return
		}
		fl.stmtStart(es)
		fl.effect(es.ExpressionList)
	case cc.StatementSelection:
		fl.selection(s.SelectionStatement)
	case cc.StatementIteration:
		fl.iteration(s.IterationStatement)
	case cc.StatementJump:
		fl.jump(s.JumpStatement)
	default:
		fl.l.unsupported(s, "an asm statement")
	}
}

func (fl *fnLowerer) labeled(ls *cc.LabeledStatement) {
	switch ls.Case {
	case cc.LabeledStatementLabel:
		name := ls.Token.SrcStr()
		fl.b.pos = pos(ls.Position())
		fl.flushStmt()
		fl.b.place(fl.labels[name], fl.boundary())
		if fl.l.errorLabels[name] {
			fl.propertyAssert(pos(ls.Position()), "false", "the error label "+name+" reached", "label "+name)
		}
	case cc.LabeledStatementCaseLabel, cc.LabeledStatementRange, cc.LabeledStatementDefault:
		var loc string
		if len(fl.cases) > 0 {
			loc = fl.cases[len(fl.cases)-1][ls]
		}
		if loc == "" {
			fl.l.unsupported(ls, "a case label outside a switch")
			break
		}
		fl.b.pos = pos(ls.Position())
		fl.flushStmt()
		fl.b.place(loc, fl.boundary())
	}
	fl.stmt(ls.Statement)
}

// flushStmt ends the pending actions of the statement before a label.
func (fl *fnLowerer) flushStmt() {
	if fl.b.cur != nil && len(fl.b.pending) > 0 {
		fl.b.split()
	}
}

func (fl *fnLowerer) selection(ss *cc.SelectionStatement) {
	fl.stmtStart(ss)
	switch ss.Case {
	case cc.SelectionStatementIf, cc.SelectionStatementIfElse:
		then, els, end := fl.b.newLabel(), fl.b.newLabel(), fl.b.newLabel()
		if ss.Case == cc.SelectionStatementIf {
			els = end
		}
		fl.cond(ss.ExpressionList, then, els)
		fl.b.place(then, false)
		fl.stmt(ss.Statement)
		if ss.Case == cc.SelectionStatementIfElse {
			if fl.b.cur != nil {
				fl.b.jump(end)
			}
			fl.b.place(els, false)
			fl.stmt(ss.Statement2)
		}
		fl.b.place(end, false)
	case cc.SelectionStatementSwitch:
		fl.switchStmt(ss)
	}
}

// switchStmt branches to the case whose constant equals the value, else to
// default (or past the switch); the cases then fall through in order.
func (fl *fnLowerer) switchStmt(ss *cc.SelectionStatement) {
	v := fl.exact(fl.promote(fl.rval(ss.ExpressionList)))
	if !isAtom(v.e) || strings.ContainsAny(v.e, "(") {
		t := fl.temp(v.t)
		fl.b.act("%s := %s;", t.name, v.e)
		v = operand{e: t.name, t: v.t, lo: v.t.min(), hi: v.t.max()}
	}
	end := fl.b.newLabel()
	caseLocs := map[*cc.LabeledStatement]string{}
	var conds, targets, others []string
	deflt := end
	walkSwitch(ss.Statement, func(ls *cc.LabeledStatement) {
		loc := fl.b.newLabel()
		caseLocs[ls] = loc
		var c string
		switch ls.Case {
		case cc.LabeledStatementDefault:
			deflt = loc
			return
		case cc.LabeledStatementCaseLabel:
			k, ok := constValue(ls.ConstantExpression)
			if !ok {
				fl.l.unsupported(ls, "a case label that is not an integer constant")
				return
			}
			c = fmt.Sprintf("%s == %s", v.e, paren(literal(wrapTo(k, v.t), v.t)))
		case cc.LabeledStatementRange:
			lo, ok1 := constValue(ls.ConstantExpression)
			hi, ok2 := constValue(ls.ConstantExpression2)
			if !ok1 || !ok2 {
				fl.l.unsupported(ls, "a case range that is not integer constant")
				return
			}
			c = fmt.Sprintf("%s <= %s && %s <= %s", paren(literal(wrapTo(lo, v.t), v.t)), v.e, v.e, paren(literal(wrapTo(hi, v.t), v.t)))
		}
		conds = append(conds, c)
		targets = append(targets, loc)
		others = append(others, "!"+paren(c))
	})
	if len(others) == 0 {
		fl.b.flush()
		fl.b.jump(deflt)
	} else {
		conds = append(conds, strings.Join(others, " && "))
		targets = append(targets, deflt)
		fl.b.guards(conds, targets)
	}
	fl.cases = append(fl.cases, caseLocs)
	fl.breaks = append(fl.breaks, end)
	fl.stmt(ss.Statement)
	fl.breaks = fl.breaks[:len(fl.breaks)-1]
	fl.cases = fl.cases[:len(fl.cases)-1]
	fl.b.place(end, false)
}

// walkSwitch visits the case and default labels of a switch body, not
// those of nested switches.
func walkSwitch(n cc.Node, f func(*cc.LabeledStatement)) {
	walkUntil(n, func(n cc.Node) bool {
		switch n := n.(type) {
		case *cc.SelectionStatement:
			return n.Case != cc.SelectionStatementSwitch
		case *cc.LabeledStatement:
			if n.Case != cc.LabeledStatementLabel {
				f(n)
			}
		}
		return true
	})
}

func (fl *fnLowerer) iteration(is *cc.IterationStatement) {
	fl.stmtStart(is)
	switch is.Case {
	case cc.IterationStatementWhile:
		head, body, end := fl.b.newLabel(), fl.b.newLabel(), fl.b.newLabel()
		fl.b.place(head, fl.boundary())
		fl.loopCond(is.ExpressionList, body, end, end, head)
		fl.b.place(body, false)
		fl.loopBody(is.Statement, end, head)
		if fl.b.cur != nil {
			fl.b.pos = pos(is.Position())
			fl.b.jump(head)
		}
		fl.b.place(end, false)
	case cc.IterationStatementDo:
		body, next, end := fl.b.newLabel(), fl.b.newLabel(), fl.b.newLabel()
		fl.b.place(body, fl.boundary())
		fl.loopBody(is.Statement, end, next)
		fl.b.pos = pos(is.ExpressionList.Position())
		fl.b.place(next, fl.boundary())
		fl.loopCond(is.ExpressionList, body, end, end, next)
		fl.b.place(end, false)
	case cc.IterationStatementFor, cc.IterationStatementForDecl:
		// for (init; cond; post), or for (decl cond; post)
		cond, post := is.ExpressionList2, is.ExpressionList3
		if is.Case == cc.IterationStatementForDecl {
			fl.declaration(is.Declaration, nil)
			cond, post = is.ExpressionList, is.ExpressionList2
		} else if is.ExpressionList != nil {
			fl.effect(is.ExpressionList)
		}
		head, body, next, end := fl.b.newLabel(), fl.b.newLabel(), fl.b.newLabel(), fl.b.newLabel()
		fl.b.place(head, fl.boundary())
		if cond != nil {
			fl.b.pos = pos(cond.Position())
			fl.loopCond(cond, body, end, end, next)
		} else {
			fl.b.jump(body)
		}
		fl.b.place(body, false)
		fl.loopBody(is.Statement, end, next)
		fl.b.place(next, fl.boundary())
		if post != nil {
			fl.stmtStart(post)
			fl.breaks = append(fl.breaks, end)
			fl.conts = append(fl.conts, next)
			fl.effect(post)
			fl.breaks = fl.breaks[:len(fl.breaks)-1]
			fl.conts = fl.conts[:len(fl.conts)-1]
		}
		fl.b.pos = pos(is.Position())
		fl.b.jump(head)
		fl.b.place(end, false)
	}
}

// loopCond lowers a loop's condition; a break or continue in a statement
// expression there leaves or repeats that loop (as gcc does).
func (fl *fnLowerer) loopCond(n cc.ExpressionNode, t, f, brk, cont string) {
	fl.breaks = append(fl.breaks, brk)
	fl.conts = append(fl.conts, cont)
	fl.cond(n, t, f)
	fl.breaks = fl.breaks[:len(fl.breaks)-1]
	fl.conts = fl.conts[:len(fl.conts)-1]
}

func (fl *fnLowerer) loopBody(s *cc.Statement, brk, cont string) {
	fl.breaks = append(fl.breaks, brk)
	fl.conts = append(fl.conts, cont)
	fl.stmt(s)
	fl.breaks = fl.breaks[:len(fl.breaks)-1]
	fl.conts = fl.conts[:len(fl.conts)-1]
}

func (fl *fnLowerer) jump(js *cc.JumpStatement) {
	fl.stmtStart(js)
	switch js.Case {
	case cc.JumpStatementGoto:
		fl.b.jump(fl.labels[js.Token2.SrcStr()])
	case cc.JumpStatementGotoExpr:
		fl.l.unsupported(js, "a computed goto")
	case cc.JumpStatementContinue:
		if len(fl.conts) == 0 {
			fl.l.unsupported(js, "continue outside a loop")
			return
		}
		fl.b.jump(fl.conts[len(fl.conts)-1])
	case cc.JumpStatementBreak:
		if len(fl.breaks) == 0 {
			fl.l.unsupported(js, "break outside a loop or switch")
			return
		}
		fl.b.jump(fl.breaks[len(fl.breaks)-1])
	case cc.JumpStatementReturn:
		if js.ExpressionList == nil {
			switch {
			case fl.isMain && fl.hasRes:
				fl.b.ret("0")
			case fl.hasRes:
				t := fl.temp(fl.result)
				fl.b.act("%s := externChoose(%s);", t.name, nondetRange(fl.result))
				fl.b.ret(t.name)
			default:
				fl.b.ret("")
			}
			return
		}
		if !fl.hasRes {
			fl.effect(js.ExpressionList)
			fl.b.ret("")
			return
		}
		if fl.mem != nil && fl.mem.resultPtr != nil {
			fl.b.ret(fl.retValue(fl.ptrValue(js.ExpressionList, fl.mem.resultPtr).e))
			return
		}
		v := fl.convert(fl.rval(js.ExpressionList), fl.result)
		fl.b.ret(fl.retValue(fl.storable(v, fl.result)))
	}
}

// retValue keeps a returned value that reads memory in a temporary when
// the return frees the function's objects (mem.go).
func (fl *fnLowerer) retValue(e string) string {
	if fl.mem == nil || len(fl.mem.owned) == 0 || !strings.Contains(e, "$mem") {
		return e
	}
	t := fl.temp(fl.result)
	fl.b.act("%s := %s;", t.name, e)
	return t.name
}
