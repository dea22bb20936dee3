package java

import (
	"fmt"

	"birch/internal/frontend/java/classfile"
)

// Java's integer arithmetic in BIR (ISSUE 23 §3). BIR computes on 64-bit
// integers and its conversions T(e) wrap, with + - * and unary - inside
// their operand computed modulo 2^64 (docs/bir.md §14.2), so:
//
//	iadd a b   int32(a + b)        ladd a b   int64(a + b)
//	idiv a b   int32(a / b)        (MIN / -1 wraps to MIN by the conversion)
//	ldiv a b   a / b, and -a when b is -1 (a branch: BIR's MIN / -1 overflows)
//	irem a b   a % b               (a zero divisor: BIR's division by zero)
//	ishl a n   int32(a << (n & 31))
//	ishr a n   a >> (n & 31)
//	iushr a n  int32((a & 4294967295) >> (n & 31))
//	lushr a n  (a >> m) & ~(((-1) << (63 - m)) << 1), m = n & 63
//	iand a b   a & b               (the bits of sign-extended values)
//
// Constants are folded with Go's fixed-width arithmetic, which wraps as
// Java's does.

// binary lowers a binary int or long instruction.
func (m *method) binary(op classfile.Opcode, a, b value) {
	if (op == classfile.Idiv || op == classfile.Irem || op == classfile.Ldiv || op == classfile.Lrem) && b.isConst && b.c == 0 {
		// BIR rejects a constant zero divisor: the JVM throws
		m.throwNew("java/lang/ArithmeticException", "/ by zero")
		return
	}
	if (op == classfile.Idiv || op == classfile.Irem || op == classfile.Ldiv || op == classfile.Lrem) && !b.isConst && hooks.divisor != nil {
		hooks.divisor(m, b)
		if m.dead || m.ended {
			return
		}
	}
	if op == classfile.Ldiv && !(a.isConst && b.isConst) {
		switch {
		case b.isConst && b.c == -1:
			m.push(m.neg(a))
			return
		case !b.isConst && !(a.isConst && a.c != -1<<63):
			m.ldiv(a, b)
			return
		}
	}
	m.push(m.arith(op, a, b))
}

// arith is the value of a binary int or long operation.
func (m *method) arith(op classfile.Opcode, a, b value) value {
	long := (op-classfile.Iadd)%4 == 1
	if op >= classfile.Ishl {
		long = (op-classfile.Ishl)%2 == 1
	}
	if a.isConst && b.isConst {
		if long {
			if c, ok := fold64(op, a.c, b.c); ok {
				return longValue(c)
			}
		} else if c, ok := fold32(op, int32(a.c), int32(b.c)); ok {
			return intValue(int64(c))
		}
	}
	k, t, w, mask, bits := kInt, "int32", "int32", "31", 32
	if long {
		k, t, w, mask, bits = kLong, "int64", "int64", "63", 64
	}
	x, y := paren(a.e), paren(b.e)
	count := func() string {
		if b.isConst {
			return intLit(b.c & int64(bits-1))
		}
		return "(" + y + " & " + mask + ")"
	}
	var e string
	switch op {
	case classfile.Iadd, classfile.Ladd:
		e = fmt.Sprintf("%s(%s + %s)", w, x, y)
	case classfile.Isub, classfile.Lsub:
		e = fmt.Sprintf("%s(%s - %s)", w, x, y)
	case classfile.Imul, classfile.Lmul:
		e = fmt.Sprintf("%s(%s * %s)", w, x, y)
	case classfile.Idiv:
		e = fmt.Sprintf("int32(%s / %s)", x, y)
	case classfile.Ldiv:
		e = fmt.Sprintf("%s / %s", x, y)
	case classfile.Irem, classfile.Lrem:
		e = fmt.Sprintf("%s %% %s", x, y)
	case classfile.Ishl, classfile.Lshl:
		e = fmt.Sprintf("%s(%s << %s)", w, x, count())
	case classfile.Ishr, classfile.Lshr:
		e = fmt.Sprintf("%s >> %s", x, count())
	case classfile.Iushr:
		e = fmt.Sprintf("int32((%s & 4294967295) >> %s)", x, count())
	case classfile.Lushr:
		if b.isConst {
			n := uint(b.c & 63)
			mask := int64(^uint64(0) >> n)
			e = fmt.Sprintf("(%s >> %d) & %s", x, n, intLit(mask))
		} else {
			n := count()
			e = fmt.Sprintf("(%s >> %s) & ~(((-1) << (63 - %s)) << 1)", x, n, n)
		}
	case classfile.Iand, classfile.Land:
		e = fmt.Sprintf("%s & %s", x, y)
	case classfile.Ior, classfile.Lor:
		e = fmt.Sprintf("%s | %s", x, y)
	case classfile.Ixor, classfile.Lxor:
		e = fmt.Sprintf("%s ^ %s", x, y)
	default:
		panic(fmt.Sprintf("arith: %s", op))
	}
	return derived(e, k, t, a, b)
}

// ldiv lowers a long division that may be MIN / -1, which BIR's 64-bit
// division reports as an overflow and Java wraps to MIN: a branch on the
// divisor into a temporary.
func (m *method) ldiv(a, b value) {
	m.caseResult(kLong, "int64", []value{a, b}, func(ops []value, tmp string) []alt {
		a, b := ops[0], ops[1]
		cond, _ := relation(b, longValue(-1), "==")
		return []alt{
			{guard: cond, acts: []string{fmt.Sprintf("%s := int64(-%s);", tmp, paren(a.e))}},
			{guard: negate(cond), acts: []string{fmt.Sprintf("%s := %s / %s;", tmp, paren(a.e), paren(b.e))}},
		}
	})
}

// lcmp pushes -1, 0 or 1 as a < b, a == b or a > b, by a branch into a
// temporary (a branch right after lcmp compares a and b instead).
func (m *method) lcmp(a, b value) {
	if !m.plain(a) || !m.plain(b) {
		return
	}
	m.caseResult(kInt, "int32", []value{a, b}, func(ops []value, tmp string) []alt {
		var alts []alt
		for _, c := range []struct{ r, v string }{{"<", "(-1)"}, {"==", "0"}, {">", "1"}} {
			cond, _ := relation(ops[0], ops[1], c.r)
			alts = append(alts, alt{guard: cond, acts: []string{fmt.Sprintf("%s := %s;", tmp, c.v)}})
		}
		return alts
	})
}

// caseResult pushes a value computed by cases: mk gives the guarded
// alternatives, each assigning tmp (one action, which reads the
// operands before it writes tmp), from the operands ops.
func (m *method) caseResult(k kind, t string, ops []value, mk func(ops []value, tmp string) []alt) {
	m.stack = append(m.stack, ops...)
	m.prepareCond(len(ops))
	ops = m.popN(len(ops))
	tmp := m.temp(len(m.stack), t)
	m.protect(tmp, -1, map[int]bool{})
	var reads []string
	for _, o := range ops {
		reads = append(reads, o.reads...)
	}
	m.b.alternatives(mk(ops, tmp), reads)
	m.stack = append(m.stack, named(tmp, k, t))
}

// neg lowers ineg and lneg.
func (m *method) neg(a value) value {
	if !m.plain(a) {
		return intValue(0)
	}
	if a.k == kLong {
		if a.isConst {
			return longValue(-a.c)
		}
		return derived("int64(-"+paren(a.e)+")", kLong, "int64", a)
	}
	if a.isConst {
		return intValue(int64(-int32(a.c)))
	}
	return derived("int32(-"+paren(a.e)+")", kInt, "int32", a)
}

// convert lowers the integer conversions (i2l, l2i, i2b, i2c, i2s); the
// floating-point ones are unsupported.
func (m *method) convert(op classfile.Opcode) {
	a := m.pop()
	if !m.plain(a) {
		return
	}
	var w string
	switch op {
	case classfile.I2l:
		v := a
		v.k, v.t = kLong, "int64"
		m.push(v)
		return
	case classfile.L2i:
		w = "int32"
	case classfile.I2b:
		w = "int8"
	case classfile.I2c:
		w = "uint16"
	case classfile.I2s:
		w = "int16"
	default:
		m.unsupported("the floating-point conversion %s", op)
		return
	}
	if a.isConst {
		c := a.c
		switch w {
		case "int32":
			c = int64(int32(c))
		case "int8":
			c = int64(int8(c))
		case "uint16":
			c = int64(uint16(c))
		case "int16":
			c = int64(int16(c))
		}
		m.push(intValue(c))
		return
	}
	m.push(derived(w+"("+a.e+")", kInt, "int32", a))
}

// fold32 computes an int operation on constants as the JVM does.
func fold32(op classfile.Opcode, a, b int32) (int32, bool) {
	switch op {
	case classfile.Iadd:
		return a + b, true
	case classfile.Isub:
		return a - b, true
	case classfile.Imul:
		return a * b, true
	case classfile.Idiv:
		if b == 0 {
			return 0, false
		}
		return a / b, true
	case classfile.Irem:
		if b == 0 {
			return 0, false
		}
		return a % b, true
	case classfile.Ishl:
		return a << uint(b&31), true
	case classfile.Ishr:
		return a >> uint(b&31), true
	case classfile.Iushr:
		return int32(uint32(a) >> uint(b&31)), true
	case classfile.Iand:
		return a & b, true
	case classfile.Ior:
		return a | b, true
	case classfile.Ixor:
		return a ^ b, true
	}
	return 0, false
}

// fold64 computes a long operation on constants as the JVM does (the
// shift count is an int, b's low bits).
func fold64(op classfile.Opcode, a, b int64) (int64, bool) {
	switch op {
	case classfile.Ladd:
		return a + b, true
	case classfile.Lsub:
		return a - b, true
	case classfile.Lmul:
		return a * b, true
	case classfile.Ldiv:
		if b == 0 {
			return 0, false
		}
		return a / b, true
	case classfile.Lrem:
		if b == 0 {
			return 0, false
		}
		return a % b, true
	case classfile.Lshl:
		return a << uint(b&63), true
	case classfile.Lshr:
		return a >> uint(b&63), true
	case classfile.Lushr:
		return int64(uint64(a) >> uint(b&63)), true
	case classfile.Land:
		return a & b, true
	case classfile.Lor:
		return a | b, true
	case classfile.Lxor:
		return a ^ b, true
	}
	return 0, false
}
