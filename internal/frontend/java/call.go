package java

import (
	"fmt"
	"strings"

	"birch/internal/frontend/java/classfile"
)

// invoke lowers invokestatic, invokespecial, invokevirtual and
// invokeinterface: the lowering's own library (Verify, Verifier,
// System.out, assert's AssertionError), then the hooks of the other
// files (objects, dispatch, java.lang, threads), then the program's
// static and private methods.
func (m *method) invoke(in *classfile.Insn) {
	class, name, desc, _, ok := m.cls.MemberAt(in.Index)
	if !ok {
		m.unsupported("a call through the malformed constant %d", in.Index)
		return
	}
	params, ret, err := classfile.ParseMethodType(desc)
	if err != nil {
		m.unsupported("a call of %s.%s with the malformed descriptor %q", binaryName(class), name, desc)
		return
	}
	n := len(params)
	if in.Op != classfile.Invokestatic {
		n++
	}
	c := &callSite{op: in.Op, class: class, name: name, desc: desc, params: params, ret: ret, args: m.popN(n)}
	if m.builtin(c) || m.dead {
		return
	}
	for _, h := range hooks.call {
		if h(m, c) || m.dead {
			return
		}
	}
	if in.Op == classfile.Invokestatic || in.Op == classfile.Invokespecial && name != "<init>" {
		if cls, mth := m.l.resolveMethod(class, name, desc); mth != nil && mth.Code != nil {
			if in.Op == classfile.Invokestatic {
				m.l.use(cls.Name)
			}
			m.emitCall(m.l.function(cls, mth), c.args)
			return
		}
	}
	m.unsupported("the call of %s (outside the program and birch's model of java.lang)", methodDisplay(class, name, desc))
}

// emitCall calls a function with the arguments (expressions of the
// stack) and pushes its result, if it has one, in a temporary. The call
// ends its transformation.
func (m *method) emitCall(f *function, args []value) {
	var es []string
	for _, a := range args {
		if !m.plain(a) {
			return
		}
		es = append(es, a.e)
	}
	for _, h := range hooks.callArgs {
		es = h(m, f, es)
	}
	call := fmt.Sprintf("call %s(%s);", f.name, strings.Join(es, ", "))
	if f.hasRet && f.ret == "" {
		m.unsupported("the call of %s, whose result type is not lowered", m.l.names.Functions[f.name])
		return
	}
	if !f.hasRet {
		m.b.act(false, "", "%s", call)
		m.b.split()
		m.afterCall(f)
		return
	}
	_, ret, _ := classfile.ParseMethodType(f.method.Descriptor)
	k, _, _ := m.kindOf(ret, "")
	// with hooks after the call (a pending exception), the result stays
	// in its temporary until they let the code go on: a local the Java
	// code stores it in must keep its value where the call throws
	m.keepTemp = hooks.keepResult != nil && hooks.keepResult(m, f)
	m.result(k, f.ret, func(tmp string) {
		m.b.act(false, tmp, "%s := %s", tmp, call)
	})
	m.keepTemp = false
	m.b.split()
	m.afterCall(f)
}

// afterCall runs the hooks that follow a call of f.
func (m *method) afterCall(f *function) {
	for _, h := range hooks.afterCall {
		h(m, f)
	}
}

// builtin lowers the calls of the lowering's own library: JPF's Verify,
// SV-COMP's Verifier, printing on System.out, and what javac's assert
// calls. It reports whether c was one.
func (m *method) builtin(c *callSite) bool {
	switch c.class {
	case "gov/nasa/jpf/vm/Verify":
		return m.verify(c)
	case "org/sosy_lab/sv_benchmarks/Verifier":
		return m.verifier(c)
	case "java/io/PrintStream":
		if len(c.args) > 0 {
			if _, ok := c.args[0].special.(sysOut); ok && (c.name == "println" || c.name == "print") {
				m.println(c)
				return true
			}
		}
	case "java/lang/Class":
		if _, ok := c.args[0].special.(classLit); ok && c.name == "desiredAssertionStatus" {
			m.push(intValue(1)) // java -ea
			return true
		}
	case "java/lang/AssertionError":
		if ae, ok := c.args[0].special.(*assertionError); ok && c.name == "<init>" {
			if len(c.args) == 2 {
				if s, ok := constString(c.args[1]); ok {
					ae.msg, ae.hasMsg = s, true
				}
			}
			return true
		}
	}
	return false
}

// verify lowers gov.nasa.jpf.vm.Verify's choices.
func (m *method) verify(c *callSite) bool {
	switch c.name + c.desc {
	case "getInt(II)I":
		m.chooseBetween(c.args[0], c.args[1])
	case "getBoolean()Z", "getBoolean(Z)Z":
		m.choose(kInt, "int32", "0, 1")
	case "random(I)I":
		m.chooseBetween(intValue(0), c.args[0])
	case "ignoreIf(Z)V":
		m.assume(c.args[0], "==")
	default:
		return false
	}
	return true
}

// verifier lowers org.sosy_lab.sv_benchmarks.Verifier's inputs, each
// any value of its type (unbounded: only abstraction checks them).
func (m *method) verifier(c *callSite) bool {
	switch c.name + c.desc {
	case "nondetInt()I":
		m.choose(kInt, "int32", "int32")
	case "nondetShort()S":
		m.choose(kInt, "int32", "int16")
	case "nondetByte()B":
		m.choose(kInt, "int32", "int8")
	case "nondetChar()C":
		m.choose(kInt, "int32", "uint16")
	case "nondetBoolean()Z":
		m.choose(kInt, "int32", "0, 1")
	case "nondetLong()J":
		m.choose(kLong, "int64", "int64")
	case "assume(Z)V":
		m.assume(c.args[0], "!=")
	default:
		return false
	}
	return true
}

// choose pushes a value of the environment's choice: a visible step of
// its own, so that a trail shows the value chosen (as JPF's and C's
// choices do), never hidden inside an invisible run.
func (m *method) choose(k kind, t, what string) {
	m.result(k, t, func(tmp string) {
		m.b.act(true, tmp, "%s := externChoose(%s);", tmp, what)
	})
	m.b.split()
}

// chooseBetween pushes a choice among the integers between a and b, in
// either order: JPF's Verify.getInt(min, max) swaps bounds given in
// decreasing order (Verify.random(max) is getInt(0, max)).
func (m *method) chooseBetween(a, b value) {
	if !m.plain(a) || !m.plain(b) {
		return
	}
	if a.isConst && b.isConst || a.e == b.e {
		if a.isConst && b.isConst && a.c > b.c {
			a, b = b, a
		}
		m.choose(kInt, "int32", paren(a.e)+" .. "+paren(b.e))
		return
	}
	reads := append(append([]string(nil), a.reads...), b.reads...)
	m.result(kInt, "int32", func(tmp string) {
		m.b.alternatives([]alt{
			{guard: paren(a.e) + " <= " + paren(b.e), acts: []string{fmt.Sprintf("%s := externChoose(%s .. %s);", tmp, paren(a.e), paren(b.e))}, shared: true},
			{guard: paren(a.e) + " > " + paren(b.e), acts: []string{fmt.Sprintf("%s := externChoose(%s .. %s);", tmp, paren(b.e), paren(a.e))}, shared: true},
		}, reads)
	})
}

// assume constrains the path: v r 0.
//
// A false assumption ends the whole path, as Java PathFinder's
// Verify.ignoreIf and SV-COMP's assume do: the thread moves to a location
// of its own that only loops back to itself (prunedLoop). BIR's
// assume(false) would block the thread, which the deadlock check reports
// where no other thread can move; BIR's exit would end only the thread,
// so that a join of it returned and a monitor it holds stayed held (a
// deadlock) on a path Java never takes. The loop adds no state, and
// every state the other threads reach from there lies on the pruned
// path, where no deadlock is reported since the loop can always move.
func (m *method) assume(v value, r string) {
	if !m.plain(v) {
		return
	}
	cond, reads := relation(v, intValue(0), r)
	switch cond {
	case "true":
		return
	case "false":
		m.prunedLoop()
		return
	}
	pruned, cont := m.b.label("pruned"), m.b.label(m.b.base())
	m.b.branch([]string{cond, negate(cond)}, []string{cont, pruned}, reads, false)
	m.b.place(pruned)
	m.b.jump(pruned)
	m.b.place(cont)
}

// prunedLoop ends the path here: a location whose one step loops back to
// it (see assume).
func (m *method) prunedLoop() {
	pruned := m.b.label("pruned")
	m.b.jump(pruned)
	m.b.place(pruned)
	m.b.jump(pruned)
}

// constString is the text of a string value known when lowering.
func constString(v value) (string, bool) {
	switch s := v.special.(type) {
	case strConst:
		return s.s, true
	case concat:
		var b strings.Builder
		for _, p := range s.parts {
			if p.java != 0 {
				return "", false
			}
			b.WriteString(p.lit)
		}
		return b.String(), true
	}
	return "", false
}

// printParts are the pieces a printed value is made of.
func (m *method) printParts(v value, t classfile.Type) ([]part, bool) {
	switch t.Kind {
	case 'I', 'S', 'B', 'J':
		if !m.plain(v) {
			return nil, false
		}
		if v.isConst {
			return []part{{lit: fmt.Sprint(v.c)}}, true
		}
		return []part{{v: v, java: 'I'}}, true
	case 'Z':
		if !m.plain(v) {
			return nil, false
		}
		if v.isConst {
			return []part{{lit: fmt.Sprint(v.c != 0)}}, true
		}
		return []part{{v: v, java: 'Z'}}, true
	case 'C':
		if !m.plain(v) {
			return nil, false
		}
		if v.isConst {
			return []part{{lit: string(rune(uint16(v.c)))}}, true
		}
		return []part{{v: v, java: 'C'}}, true
	case 'L':
		switch s := v.special.(type) {
		case strConst:
			return []part{{lit: s.s}}, true
		case concat:
			return s.parts, true
		}
	}
	m.unsupported("printing a value of type %s (birch prints numbers, booleans, chars and strings)", t)
	return nil, false
}

// maxPrintedBooleans bounds the booleans one println prints by cases
// (2^n transformations).
const maxPrintedBooleans = 6

// println lowers System.out.println and print (both print a line: BIR's
// println ends its line). A boolean prints true or false, by a branch on
// its value; a char that is no constant prints its code.
func (m *method) println(c *callSite) {
	var parts []part
	if len(c.params) == 1 {
		ps, ok := m.printParts(c.args[1], c.params[0])
		if !ok {
			return
		}
		parts = ps
	} else if len(c.params) > 1 {
		m.unsupported("the call of %s", methodDisplay(c.class, c.name, c.desc))
		return
	}
	parts = append([]part(nil), parts...)
	for i, p := range parts {
		if p.java != 0 && p.java != 'Z' && strings.ContainsAny(p.v.e, "/%") {
			// BIR's println prints a division by zero as text where
			// the JVM throws ArithmeticException: divide first
			tmp := m.temp(len(m.stack)+i, stackType(p.v))
			m.b.act(false, tmp, "%s := %s;", tmp, p.v.e)
			parts[i].v = named(tmp, p.v.k, p.v.t)
		}
	}
	var bools []int
	var reads []string
	for i, p := range parts {
		if p.java == 'Z' {
			bools = append(bools, i)
			reads = append(reads, p.v.reads...)
		}
	}
	if len(bools) > maxPrintedBooleans {
		m.unsupported("printing more than %d booleans at once", maxPrintedBooleans)
		return
	}
	text := func(val map[int]bool) string {
		var args []string
		lit := ""
		for i, p := range parts {
			switch {
			case p.java == 0:
				lit += p.lit
			case p.java == 'Z':
				lit += fmt.Sprint(val[i])
			default:
				if lit != "" {
					args = append(args, birString(lit))
					lit = ""
				}
				args = append(args, p.v.e)
			}
		}
		if lit != "" || len(args) == 0 {
			args = append(args, birString(lit))
		}
		return "println(" + strings.Join(args, ", ") + ");"
	}
	if len(bools) == 0 {
		m.b.act(false, "", "%s", text(nil))
		return
	}
	// one transformation per combination of the booleans' values
	var alts []alt
	for mask := 0; mask < 1<<len(bools); mask++ {
		val := map[int]bool{}
		var conds []string
		for j, i := range bools {
			val[i] = mask&(1<<j) != 0
			r := "=="
			if val[i] {
				r = "!="
			}
			conds = append(conds, paren(parts[i].v.e)+" "+r+" 0")
		}
		alts = append(alts, alt{guard: strings.Join(conds, " && "), acts: []string{text(val)}})
	}
	m.b.alternatives(alts, reads)
}

// birString is a BIR string literal (BIR escapes \" \\ and \n only).
func birString(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range s {
		switch {
		case r == '"' || r == '\\':
			b.WriteByte('\\')
			b.WriteRune(r)
		case r == '\n':
			b.WriteString(`\n`)
		case r < ' ' || r == 0x7f:
			b.WriteByte('?')
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
	return b.String()
}

// invokedynamic lowers javac's string concatenation
// (StringConcatFactory.makeConcatWithConstants) to a special value that
// println prints; other uses of invokedynamic (lambdas, ...) are
// unsupported.
func (m *method) invokedynamic(in *classfile.Insn) {
	k, ok := m.cls.Pool[in.Index].(classfile.Dynamic)
	if !ok {
		m.unsupported("invokedynamic of a malformed constant")
		return
	}
	nat, _ := m.cls.Pool[k.NameAndTypeIndex].(classfile.NameAndType)
	name, desc := m.cls.Utf8At(nat.NameIndex), m.cls.Utf8At(nat.DescriptorIndex)
	bm, ok := m.cls.Bootstrap(k.BootstrapIndex)
	bsm, args := bm.MethodRef, bm.Args
	if !ok || name != "makeConcatWithConstants" || len(args) == 0 || !m.isConcatFactory(bsm) {
		m.unsupported("invokedynamic %s (lambdas and method references are not lowered)", name)
		return
	}
	params, _, err := classfile.ParseMethodType(desc)
	if err != nil {
		m.unsupported("invokedynamic with the malformed descriptor %q", desc)
		return
	}
	recipe, ok := m.cls.StringAt(args[0])
	if !ok {
		m.unsupported("a string concatenation without its recipe")
		return
	}
	vals := m.popN(len(params))
	var parts []part
	lit := func(s string) { parts = append(parts, part{lit: s}) }
	arg, cst := 0, 1
	for _, r := range recipe {
		switch r {
		case 1:
			if arg >= len(vals) {
				m.unsupported("a string concatenation whose recipe does not fit its arguments")
				return
			}
			ps, ok := m.printParts(vals[arg], params[arg])
			if !ok {
				return
			}
			parts = append(parts, ps...)
			arg++
		case 2:
			if cst >= len(args) {
				m.unsupported("a string concatenation whose recipe does not fit its constants")
				return
			}
			s, ok := m.cls.StringAt(args[cst])
			if !ok {
				if i, ok := m.cls.Pool[args[cst]].(classfile.Integer); ok {
					s = fmt.Sprint(i.Value)
				} else {
					m.unsupported("a string concatenation with a constant birch does not print")
					return
				}
			}
			lit(s)
			cst++
		default:
			lit(string(r))
		}
	}
	v := value{k: kRef, special: concat{parts}}
	for _, p := range parts {
		v.reads = append(v.reads, p.v.reads...)
	}
	m.push(v)
}

// isConcatFactory reports whether the bootstrap method handle is
// StringConcatFactory's.
func (m *method) isConcatFactory(handle int) bool {
	h, ok := m.cls.Pool[handle].(classfile.MethodHandle)
	if !ok {
		return false
	}
	class, name, _, _, ok := m.cls.MemberAt(h.RefIndex)
	return ok && class == "java/lang/invoke/StringConcatFactory" && name == "makeConcatWithConstants"
}
