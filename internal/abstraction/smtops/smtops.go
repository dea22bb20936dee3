// Package smtops gives BIR's integer operators as solver terms
// (internal/smt), for the passes that encode BIR expressions: the
// symbolic replay of data abstraction (abstraction/data/feasible) and the
// cube queries of predicate abstraction (abstraction/predicate) and the
// path formulas of refinement (abstraction/refine). Division and remainder
// truncate toward zero, as in BIR; a zero divisor is the caller's business
// (BIR reports it as a runtime error).
//
// The fixed-width integer types (int8 … uint64) are encoded here once for
// the three: Width reads a type, Wrap reduces a value modulo 2^N into its
// range with the solver's mod by a constant (a conversion T(e), and every
// store into a fixed-width location), Bitwise and Complement give the
// bitwise operators in the forms linear arithmetic states exactly, and nil
// for the others, which the callers report as unsupported.
package smtops

import (
	"birch/internal/bir/token"
	"birch/internal/smt"
)

// Arith returns a op b for + - * / %, or nil for another operator.
func Arith(tm *smt.TermManager, op token.Kind, a, b *smt.Term) *smt.Term {
	switch op {
	case token.ADD:
		return tm.Add(a, b)
	case token.SUB:
		return tm.Sub(a, b)
	case token.MUL:
		return tm.Mul(a, b)
	case token.QUO:
		return tm.TDiv(a, b)
	case token.REM:
		return tm.TRem(a, b)
	}
	return nil
}

// Compare returns a op b for == != < <= > >= over Int terms, or nil for
// another operator.
func Compare(tm *smt.TermManager, op token.Kind, a, b *smt.Term) *smt.Term {
	switch op {
	case token.EQL:
		return tm.Eq(a, b)
	case token.NEQ:
		return tm.Not(tm.Eq(a, b))
	case token.LSS:
		return tm.Lt(a, b)
	case token.LEQ:
		return tm.Le(a, b)
	case token.GTR:
		return tm.Gt(a, b)
	case token.GEQ:
		return tm.Ge(a, b)
	}
	return nil
}
