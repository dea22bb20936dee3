package c

import (
	"math/big"

	"modernc.org/cc/v4"
)

// This file is the lowering's seam for C's memory: pointers, arrays,
// structs and unions, the address-of and dereference operators, and the
// heap. Each hook below is called where the integer lowering meets a value,
// an lvalue or a declaration of such a type; for now each reports the
// construct as unsupported, with its position.

// memUnsupported reports a value, variable or parameter of a pointer,
// array, struct or union type.
func (l *lowerer) memUnsupported(at cc.Node, t cc.Type, what string) {
	kind := "a pointer, array, struct or union"
	switch t.Kind() {
	case cc.Ptr:
		kind = "a pointer"
	case cc.Array:
		kind = "an array"
	case cc.Struct:
		kind = "a struct"
	case cc.Union:
		kind = "a union"
	}
	l.unsupported(at, "%s is %s (type %s): memory is not lowered yet", what, kind, t)
}

// memDeclare declares a local of a memory type.
func (fl *fnLowerer) memDeclare(dr *cc.Declarator, init *cc.Initializer) {
	fl.l.memUnsupported(nameOf(dr), dr.Type(), "the variable "+dr.Name())
}

// memRval lowers an expression whose value has a memory type, or that
// reads memory (an element, a field, a dereference, an address).
func (fl *fnLowerer) memRval(n cc.ExpressionNode) operand {
	fl.l.unsupported(n, "%s: memory (pointers, arrays, structs) is not lowered yet", exprText(n))
	return constOp(big.NewInt(0), tInt)
}

// memLvalue lowers an lvalue that is not a variable: an element, a field,
// a dereference.
func (fl *fnLowerer) memLvalue(n cc.ExpressionNode) {
	fl.l.unsupported(n, "assignment to %s: memory (pointers, arrays, structs) is not lowered yet", exprText(n))
}

// memAssign lowers an assignment of a memory type (pointers, structs).
func (fl *fnLowerer) memAssign(n *cc.AssignmentExpression) operand {
	return fl.memRval(n)
}

// memIncDec lowers ++ and -- on a pointer.
func (fl *fnLowerer) memIncDec(n cc.ExpressionNode, op string, post, want bool) operand {
	return fl.memRval(n)
}

// memCompare lowers a comparison of pointers.
func (fl *fnLowerer) memCompare(n cc.ExpressionNode, op string, l, r cc.ExpressionNode) operand {
	return fl.memRval(n)
}

// memCast lowers a cast to or from a memory type.
func (fl *fnLowerer) memCast(n *cc.CastExpression) operand {
	return fl.memRval(n)
}
