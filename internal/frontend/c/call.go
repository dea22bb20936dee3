package c

import (
	"fmt"
	"math/big"
	"strings"

	"modernc.org/cc/v4"

	"birch/internal/source"
)

// call lowers a function call: a call of a function the program defines,
// or one of the builtins of SV-COMP and the C library that the lowering
// knows (error functions, __VERIFIER_nondet_*, __VERIFIER_assume, assert,
// abort, exit). Any other undefined function is unsupported: its effect is
// unknown.
func (fl *fnLowerer) call(n *cc.PostfixExpression, want bool) operand {
	callee := stripParens(n.PostfixExpression)
	p, ok := callee.(*cc.PrimaryExpression)
	if !ok || p.Case != cc.PrimaryExpressionIdent {
		fl.l.unsupported(n, "a call through a function pointer")
		return constOp(big.NewInt(0), tInt)
	}
	name := p.Token.SrcStr()
	if dr, ok := p.ResolvedTo().(*cc.Declarator); ok && fl.vars[dr] != nil {
		fl.l.unsupported(n, "a call through a function pointer")
		return constOp(big.NewInt(0), tInt)
	}
	var args []cc.ExpressionNode
	for a := n.ArgumentExpressionList; a != nil; a = a.ArgumentExpressionList {
		args = append(args, a.AssignmentExpression)
	}
	def := fl.l.funcDefs[name]
	callPos := pos(n.Position())
	switch {
	case fl.l.errorFns[name]:
		fl.propertyAssert(callPos, "false", name+"() called", "call "+name)
		return fl.resultAfterStop(n)
	case assertFail[name] && def == nil || name == "assert" && def == nil && len(args) == 1:
		// C's assert: the property when no error function is given (a
		// C user's check), else what the C library does: the program
		// aborts (an SV-COMP task's property is its error function)
		cond := "false"
		if name == "assert" {
			cond = fl.toBool(fl.rval(args[0]))
		}
		if fl.l.cfg.ErrorFunctions == nil {
			fl.propertyAssert(callPos, cond, assertText(name, args), "assert")
			return fl.resultAfterStop(n)
		}
		if cond == "false" {
			fl.stopProgram()
			fl.b.split()
			return fl.resultAfterStop(n)
		}
		end, fail := fl.b.newLabel(), fl.b.newLabel()
		fl.b.branch(cond, end, fail)
		fl.b.place(fail, false)
		fl.stopProgram()
		fl.b.jump(end)
		fl.b.place(end, false)
		return voidOp
	case def != nil:
		return fl.callDefined(n, name, def, args, want)
	case name == "__VERIFIER_assume" && len(args) == 1:
		c := fl.toBool(fl.rval(args[0]))
		fl.b.act("assume(%s);", c)
		return voidOp
	case strings.HasPrefix(name, "__VERIFIER_nondet_") && len(args) == 0:
		dr, _ := p.ResolvedTo().(*cc.Declarator)
		return fl.nondet(n, name, dr == nil || dr.IsSynthetic())
	case name == "abort" || name == "__builtin_abort" || name == "exit" || name == "_exit" || name == "_Exit":
		for _, a := range args {
			fl.effect(a)
		}
		fl.stopProgram()
		fl.b.split()
		return fl.resultAfterStop(n)
	case printLike[name]:
		return fl.printCall(n, name, args, want)
	case (name == "__builtin_popcount" || name == "__builtin_popcountl" || name == "__builtin_popcountll") && len(args) == 1:
		return fl.popcount(n, args[0])
	case name == "__builtin_expect" && len(args) == 2:
		v := fl.rval(args[0])
		fl.effect(args[1])
		return v
	}
	if o, ok := fl.memCall(n, name, args, want); ok {
		return o
	}
	fl.l.unsupported(n, "a call of %s, which the program does not define", name)
	return fl.resultAfterStop(n)
}

// stopProgram ends the program (abort, exit, a failing assert that is
// not the property). BIR's exit ends only the executing thread, and a
// pthread_join of that thread would then go on, where C's whole process
// has ended and the join never returns (a wrong false: a reach_error
// after the join of a thread that aborts). In a program with threads
// the thread therefore stops for good without terminating (a false
// assume): the others may still run, as they may in C before the
// abort takes effect, which for reachability is the same.
func (fl *fnLowerer) stopProgram() {
	if fl.threaded() {
		fl.b.act("assume(false);")
		return
	}
	fl.b.act("exit;")
}

// assertFail are glibc's functions behind a failing assert.
var assertFail = map[string]bool{"__assert_fail": true, "__assert_perror_fail": true, "__assert": true}

// printLike are the output functions of the C library, which do not
// change the program's state: their integer arguments are evaluated, and
// their result (used rarely) is any int.
var printLike = map[string]bool{"printf": true, "puts": true, "putchar": true, "__builtin_printf": true, "__builtin_puts": true, "__builtin_putchar": true}

func (fl *fnLowerer) printCall(n *cc.PostfixExpression, name string, args []cc.ExpressionNode, want bool) operand {
	for _, a := range args {
		if p, ok := stripParens(a).(*cc.PrimaryExpression); ok && (p.Case == cc.PrimaryExpressionString || p.Case == cc.PrimaryExpressionLString) {
			continue
		}
		fl.effect(a)
	}
	if !want {
		return voidOp
	}
	v := fl.temp(tInt)
	fl.b.act("%s := externChoose(%s);", v.name, tInt.bir())
	fl.nondetTemp[v.name] = tInt
	return varOp(v)
}

// popcount is the number of bits set in the argument's unsigned type:
// the sum of its bits.
func (fl *fnLowerer) popcount(n *cc.PostfixExpression, arg cc.ExpressionNode) operand {
	t, ok := fl.intOf(arg, arg.Type())
	if !ok {
		return constOp(big.NewInt(0), tInt)
	}
	t.signed, t.isBool = false, false
	if t.bits < 32 {
		t.bits = 32
	}
	x := fl.stable(fl.exact(fl.value(arg, t)))
	if !isAtom(x.e) {
		v := fl.temp(t)
		fl.b.act("%s := %s;", v.name, x.e)
		x = varOp(v)
	}
	terms := make([]string, t.bits)
	for i := range terms {
		terms[i] = fmt.Sprintf("((%s >> %d) & 1)", x.e, i)
	}
	return operand{e: strings.Join(terms, " + "), t: tInt, lo: big.NewInt(0), hi: big.NewInt(int64(t.bits))}
}

// nondetTypes are the types SV-COMP's __VERIFIER_nondet_T names.
func (l *lowerer) nondetTypes() map[string]intType {
	long := intType{bits: 32, signed: true}
	if l.cfg.DataModel == LP64 {
		long.bits = 64
	}
	ulong := intType{bits: long.bits}
	return map[string]intType{
		"bool": tBool, "_Bool": tBool, "char": {bits: 8, signed: true}, "schar": {bits: 8, signed: true},
		"uchar": tUChar, "short": {bits: 16, signed: true}, "ushort": {bits: 16}, "int": tInt,
		"uint": {bits: 32}, "unsigned": {bits: 32}, "long": long, "ulong": ulong,
		"longlong": {bits: 64, signed: true}, "ulonglong": {bits: 64}, "size_t": ulong,
		"u8": tUChar, "u16": {bits: 16}, "u32": {bits: 32}, "s8": {bits: 8, signed: true},
		"s16": {bits: 16, signed: true}, "s32": tInt,
	}
}

// propertyAssert asserts cond in a step of its own at the C position p,
// which is one of the property's: text says what its failure means,
// what which it is (Output.PropertyWhat).
func (fl *fnLowerer) propertyAssert(p source.Position, cond, text, what string) {
	saved := fl.b.pos
	fl.b.flush()
	fl.b.pos = p
	fl.check(text, cond)
	fl.b.split()
	fl.b.pos = saved
	fl.l.property = append(fl.l.property, p)
	fl.l.propertyWhat = append(fl.l.propertyWhat, what)
}

// resultAfterStop is the value of a call that does not return.
func (fl *fnLowerer) resultAfterStop(n cc.ExpressionNode) operand {
	if class, t := fl.l.classify(n.Type()); class == classInt {
		return constOp(big.NewInt(0), t)
	}
	return voidOp
}

// nondet lowers __VERIFIER_nondet_T(): any value of the result type.
func (fl *fnLowerer) nondet(n *cc.PostfixExpression, name string, implicit bool) operand {
	class, t := fl.l.classify(n.Type())
	if implicit {
		// an undeclared function returns int in C; SV-COMP's returns
		// the type its name says
		if nt, ok := fl.l.nondetTypes()[strings.TrimPrefix(name, "__VERIFIER_nondet_")]; ok {
			class, t = classInt, nt
		}
	}
	if class != classInt {
		fl.l.typeUnsupported(n, n.Type(), class, name+"()")
		return constOp(big.NewInt(0), tInt)
	}
	if strings.HasSuffix(name, "_bool") {
		t = tBool
	}
	v := fl.temp(t)
	fl.b.act("%s := externChoose(%s);", v.name, nondetRange(t))
	fl.nondetTemp[v.name] = t
	return varOp(v)
}

// callDefined calls a function of the program.
func (fl *fnLowerer) callDefined(n *cc.PostfixExpression, name string, def *cc.FunctionDefinition, args []cc.ExpressionNode, want bool) operand {
	f := fl.l.function(name)
	ft, ok := def.Declarator.Type().(*cc.FunctionType)
	if !ok {
		fl.l.unsupported(n, "a call of %s", name)
		return voidOp
	}
	var params []*cc.Parameter
	for _, p := range ft.Parameters() {
		if p.Type().Kind() != cc.Void {
			params = append(params, p)
		}
	}
	if len(params) != len(args) {
		fl.l.unsupported(n, "a call of %s with %d arguments for %d parameters", name, len(args), len(params))
		return voidOp
	}
	ops := make([]operand, len(args))
	structArgs := map[int][]string{}
	for i, a := range args {
		class, t := fl.l.classify(params[i].Type())
		var o operand
		switch {
		case class == classMemory && params[i].Type().Kind() == cc.Struct:
			structArgs[i] = fl.structArg(a, params[i].Type())
			continue
		case class == classMemory && isPtrOrArray(params[i].Type()):
			o = fl.ptrValue(a, params[i].Type().Decay())
		case class != classInt:
			fl.l.typeUnsupported(a, params[i].Type(), class, "an argument of "+name)
			continue
		default:
			o = fl.value(a, t)
		}
		if o.isBool {
			o = fl.toInt(o)
		}
		later := false
		for _, b := range args[i+1:] {
			later = later || !b.Pure()
		}
		if later {
			o = fl.stable(o)
		}
		ops[i] = o
	}
	var list []string
	for i, o := range ops {
		if cells, ok := structArgs[i]; ok {
			list = append(list, cells...)
			continue
		}
		if o.e == "" {
			continue
		}
		_, t := fl.l.classify(params[i].Type())
		if isPtrOrArray(params[i].Type()) {
			t = tPtr
		}
		list = append(list, fl.storable(o, t))
	}
	class, rt := fl.l.classify(ft.Result())
	if isPtrType(ft.Result()) {
		class, rt = classInt, tPtr
	}
	fl.callAtomic(name)
	if want && class == classInt {
		v := fl.temp(rt)
		fl.b.callAct("%s := call %s(%s);", v.name, f.name, strings.Join(list, ", "))
		return varOp(v)
	}
	fl.b.callAct("call %s(%s);", f.name, strings.Join(list, ", "))
	if class == classInt {
		return constOp(big.NewInt(0), rt)
	}
	return voidOp
}
