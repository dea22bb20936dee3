package smtops

import (
	"math/big"

	"birch/internal/bir/types"
	"birch/internal/smt"
)

// Wrap returns v reduced modulo 2^bits into the range of a bits-wide
// integer (1 <= bits <= 64), as BIR stores a value into a fixed-width
// variable and computes a conversion T(e): with the solver's Euclidean mod
// by a constant, v mod 2^bits when unsigned, ((v + 2^(bits-1)) mod 2^bits)
// - 2^(bits-1) when signed. The encoding is exact over the integers; a
// constant v is folded.
func Wrap(tm *smt.TermManager, v *smt.Term, bits int, signed bool) *smt.Term {
	mod := new(big.Int).Lsh(big.NewInt(1), uint(bits))
	half := new(big.Int).Rsh(mod, 1)
	if v.Op() == smt.OpInt {
		r := v.BigInt()
		if signed {
			r.Add(r, half)
		}
		r.Mod(r, mod) // Euclidean: 0 <= r < mod
		if signed {
			r.Sub(r, half)
		}
		return tm.BigInt(r)
	}
	if !signed {
		return tm.Mod(v, tm.BigInt(mod))
	}
	h := tm.BigInt(half)
	return tm.Sub(tm.Mod(tm.Add(v, h), tm.BigInt(mod)), h)
}

// WidthBounds returns the least and the greatest value of a bits-wide
// integer, signed or not.
func WidthBounds(bits int, signed bool) (lo, hi *big.Int) {
	mod := new(big.Int).Lsh(big.NewInt(1), uint(bits))
	lo, hi = new(big.Int), new(big.Int).Sub(mod, big.NewInt(1))
	if signed {
		half := new(big.Int).Rsh(mod, 1)
		lo.Neg(half)
		hi.Sub(half, big.NewInt(1))
	}
	return lo, hi
}

// InWidth is the formula lo <= v <= hi for the bounds of a bits-wide
// integer: the domain fact of a fixed-width variable, and the condition
// under which a conversion leaves its operand unchanged.
func InWidth(tm *smt.TermManager, v *smt.Term, bits int, signed bool) *smt.Term {
	lo, hi := WidthBounds(bits, signed)
	return tm.And(tm.Le(tm.BigInt(lo), v), tm.Le(v, tm.BigInt(hi)))
}

// Width returns the width and the signedness of a fixed-width integer type
// (int8 … uint64: a types.Range with Wrap set); ok is false for any other
// type. A store into a location of such a type is the store of its
// conversion, Wrap of the value, and never a range error.
func Width(t types.Type) (bits int, signed, ok bool) {
	if t == nil {
		return 0, false, false
	}
	r, isRange := t.Underlying().(*types.Range)
	if !isRange || !r.Wrap {
		return 0, false, false
	}
	return r.Bits, !r.Unsigned(), true
}

// WrapTo returns v stored into a location of type t: Wrap of v for a
// fixed-width t, v itself otherwise.
func WrapTo(tm *smt.TermManager, v *smt.Term, t types.Type) *smt.Term {
	if bits, signed, ok := Width(t); ok {
		return Wrap(tm, v, bits, signed)
	}
	return v
}
