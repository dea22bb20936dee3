package c

import (
	"fmt"
	"math/big"

	"modernc.org/cc/v4"
)

// memset and memcpy of a constant number of bytes that covers whole
// elements of the type the destination points to (before its conversion
// to void *): they are unrolled into the stores of those elements' cells.
// memset stores, in each cell, the value whose bytes are all the given
// byte (a pointer only for the byte 0: null). memcpy copies the cells as
// they are; overlapping blocks (undefined) are not detected.

// cellTypes is the scalar type of each cell of an object of type t.
func (l *lowerer) cellTypes(at cc.Node, t cc.Type) ([]cc.Type, bool) {
	switch t.Kind() {
	case cc.Array:
		at2 := t.(*cc.ArrayType)
		e, ok := l.cellTypes(at, at2.Elem())
		if !ok {
			return nil, false
		}
		var r []cc.Type
		for i := int64(0); i < at2.Len(); i++ {
			r = append(r, e...)
		}
		return r, true
	case cc.Struct:
		st := t.(*cc.StructType)
		var r []cc.Type
		for i := 0; i < st.NumFields(); i++ {
			e, ok := l.cellTypes(at, st.FieldByIndex(i).Type())
			if !ok {
				return nil, false
			}
			r = append(r, e...)
		}
		return r, true
	}
	if _, ok := l.cellsOf(at, t); !ok {
		return nil, false
	}
	return []cc.Type{t}, true
}

// blockArg is a memset or memcpy pointer argument with the type it had
// before a conversion to void *.
func blockArg(e cc.ExpressionNode) cc.ExpressionNode {
	u := unwrap(e)
	for {
		c, ok := u.(*cc.CastExpression)
		if !ok || c.Case != cc.CastExpressionCast || !isPtrType(c.Type()) || elemOf(c.Type()).Kind() != cc.Void {
			return u
		}
		u = unwrap(c.CastExpression)
	}
}

// blockElems is the element type a block argument points to and how many
// whole elements n bytes are.
func (fl *fnLowerer) blockElems(at cc.Node, p cc.ExpressionNode, n cc.ExpressionNode) (cc.Type, int64, bool) {
	et := elemOf(exprType(p))
	nv, ok := constValue(n)
	if et == nil || et.Kind() == cc.Void || !ok || !nv.IsInt64() {
		fl.l.unsupported(at, "%s of a block whose type or size is not known (a constant size and a typed pointer are)", exprText(at))
		return nil, 0, false
	}
	size := et.Size()
	if size <= 0 || nv.Int64()%size != 0 || nv.Int64()/size > maxObjectCells {
		fl.l.unsupported(at, "%s of %d bytes, not whole elements of %s", exprText(at), nv.Int64(), et)
		return nil, 0, false
	}
	return et, nv.Int64() / size, true
}

func (fl *fnLowerer) memsetCall(n *cc.PostfixExpression, args []cc.ExpressionNode) operand {
	if len(args) != 3 {
		fl.l.unsupported(n, "a call of memset with %d arguments", len(args))
		return fl.nullOp()
	}
	dst := blockArg(args[0])
	et, count, ok := fl.blockElems(n, dst, args[2])
	if !ok {
		return fl.nullOp()
	}
	cts, ok := fl.l.cellTypes(n, et)
	if !ok {
		return fl.nullOp()
	}
	byteV, ok := constValue(args[1])
	if !ok {
		fl.l.unsupported(args[1], "memset with a byte that is not constant")
		return fl.nullOp()
	}
	b := new(big.Int).And(byteV, big.NewInt(255)).Int64()
	vals := make([]string, len(cts))
	for j, ct := range cts {
		v, ok := fl.byteFill(ct, b)
		if !ok {
			fl.l.unsupported(n, "memset with the byte %d of a %s", b, ct)
			return fl.nullOp()
		}
		vals[j] = v
	}
	p, ok := fl.pointer(dst)
	if !ok {
		return fl.nullOp()
	}
	loc := memLoc{base: p}
	for i := int64(0); i < count; i++ {
		for j := range cts {
			c := loc
			c.k = i*int64(len(cts)) + int64(j)
			fl.shared()
			fl.b.act("%s := %s;", c.cell(), vals[j])
		}
	}
	return ptrOp(p)
}

// byteFill is the value of type t whose bytes are all b.
func (fl *fnLowerer) byteFill(t cc.Type, b int64) (string, bool) {
	if isPtrType(t) {
		return "0", b == 0
	}
	it, ok := fl.l.scalarOf(t)
	if !ok {
		return "", false
	}
	if it.isBool {
		return fmt.Sprint(b), b <= 1
	}
	v := new(big.Int)
	for i := 0; i < it.bits/8; i++ {
		v.Lsh(v, 8)
		v.Or(v, big.NewInt(b))
	}
	v = wrapTo(v, it)
	if v.Cmp(maxInt64) > 0 {
		return "", false
	}
	return v.String(), true
}

func (fl *fnLowerer) memcpyCall(n *cc.PostfixExpression, args []cc.ExpressionNode) operand {
	if len(args) != 3 {
		fl.l.unsupported(n, "a call of memcpy with %d arguments", len(args))
		return fl.nullOp()
	}
	dst, src := blockArg(args[0]), blockArg(args[1])
	et, count, ok := fl.blockElems(n, dst, args[2])
	if !ok {
		return fl.nullOp()
	}
	if st := elemOf(exprType(src)); st == nil || !sameObjectType(st, et) {
		fl.l.unsupported(n, "memcpy between blocks of different types")
		return fl.nullOp()
	}
	cells, ok := fl.l.cellsOf(n, et)
	if !ok {
		return fl.nullOp()
	}
	d, ok1 := fl.pointer(dst)
	s, ok2 := fl.pointer(src)
	if !ok1 || !ok2 {
		return fl.nullOp()
	}
	fl.copyObject(memLoc{base: d}, nil, int(count)*cells, memLoc{base: s})
	return ptrOp(d)
}
