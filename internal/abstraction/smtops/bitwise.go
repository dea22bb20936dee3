package smtops

import (
	"math/big"

	"birch/internal/bir/token"
	"birch/internal/bir/types"
	"birch/internal/smt"
)

// Bitwise returns a op b for the bitwise operators & | ^ << >> on 64-bit
// two's complement integers, in the forms that linear arithmetic with the
// solver's mod and div by a constant states exactly, or nil for any other
// (the caller's encoding then fails: an unsupported construct, never a
// guess). With r = a mod 2^k (a's low k bits, k in 0..63):
//
//	a << k   wrap64(a·2^k)          a >> k   a div 2^k (floor: arithmetic)
//	a & (2^k-1)   r                 a & -2^k   a - r
//	a | (2^k-1)   a - r + 2^k - 1   a | -2^k   r - 2^k
//	a ^ (2^k-1)   a - 2r + 2^k - 1  a ^ -2^k   2r - a - 2^k
//
// the constant on either side of & | ^ (0 is 2^0 - 1 and -1 is -2^0), the
// shift count a constant in 0..63; two constants are folded.
func Bitwise(tm *smt.TermManager, op token.Kind, a, b *smt.Term) *smt.Term {
	if x, ok := a.Int64(); ok {
		if y, ok := b.Int64(); ok {
			if v, ok := types.Bitwise(op, x, y); ok {
				return tm.Int(v)
			}
			return nil
		}
	}
	switch op {
	case token.SHL, token.SHR:
		k, ok := b.Int64()
		if !ok || k < 0 || k > 63 {
			return nil
		}
		if op == token.SHL {
			return Wrap(tm, tm.Mul(a, pow2(tm, k)), 64, true)
		}
		return tm.Div(a, pow2(tm, k))
	case token.AND, token.OR, token.XOR:
		m, ok := b.Int64()
		if !ok {
			if m, ok = a.Int64(); !ok {
				return nil
			}
			a = b
		}
		k, low := maskBits(m)
		if k < 0 {
			return nil
		}
		p := pow2(tm, int64(k))
		r := tm.Int(0)
		if k > 0 {
			r = tm.Mod(a, p)
		}
		switch {
		case op == token.AND && low:
			return r
		case op == token.AND:
			return tm.Sub(a, r)
		case op == token.OR && low:
			return tm.Add(tm.Sub(a, r), p, tm.Int(-1))
		case op == token.OR:
			return tm.Sub(r, p)
		case low:
			return tm.Add(tm.Sub(a, tm.Scale(2, r)), p, tm.Int(-1))
		default:
			return tm.Sub(tm.Scale(2, r), a, p)
		}
	}
	return nil
}

// Complement returns ~a, that is -a - 1 (which never overflows).
func Complement(tm *smt.TermManager, a *smt.Term) *smt.Term {
	if x, ok := a.Int64(); ok {
		return tm.Int(^x)
	}
	return tm.Sub(tm.Neg(a), tm.Int(1))
}

// maskBits classifies a constant mask: 2^k - 1 (low true) or -2^k (low
// false) for k in 0..63 gives k (0 is 2^0 - 1, -1 is -2^0); any other
// constant -1.
func maskBits(m int64) (k int, low bool) {
	if m >= 0 && m&(m+1) == 0 {
		return bitLen(m), true
	}
	if n := -m; m < 0 && n&(n-1) == 0 && n > 0 {
		return bitLen(n) - 1, false
	}
	if m == -1<<63 {
		return 63, false
	}
	return -1, false
}

func bitLen(v int64) int {
	n := 0
	for ; v != 0; v >>= 1 {
		n++
	}
	return n
}

func pow2(tm *smt.TermManager, k int64) *smt.Term {
	return tm.BigInt(new(big.Int).Lsh(big.NewInt(1), uint(k)))
}
