package lia

import (
	"math"
	"math/big"
	"math/bits"
	"strconv"
)

// Q is an exact rational number. Small values are kept as a reduced int64
// fraction and computed on without allocation; results that overflow move
// to math/big and come back when they fit again. The zero value is 0.
// A Q is immutable: it may be copied and shared freely.
type Q struct {
	n, d int64    // when b == nil: n/d, d >= 0 (0 meaning 1), gcd(n, d) = 1
	b    *big.Rat // when non-nil, the value; never modified once set
}

// Int returns the rational n.
func Int(n int64) Q {
	if n == math.MinInt64 {
		return FromBig(new(big.Rat).SetInt64(n))
	}
	return Q{n: n, d: 1}
}

// Frac returns n/d; d must not be 0.
func Frac(n, d int64) Q {
	if d == 0 {
		panic("lia: zero denominator")
	}
	return Int(n).Div(Int(d))
}

// FromBig returns the value of r (which is copied).
func FromBig(r *big.Rat) Q {
	if r.Num().IsInt64() && r.Denom().IsInt64() {
		n, d := r.Num().Int64(), r.Denom().Int64()
		if n != math.MinInt64 && d != math.MinInt64 {
			return Q{n: n, d: d}
		}
	}
	return Q{b: new(big.Rat).Set(r)}
}

// FromBigInt returns the integer i.
func FromBigInt(i *big.Int) Q {
	if i.IsInt64() && i.Int64() != math.MinInt64 {
		return Q{n: i.Int64(), d: 1}
	}
	return Q{b: new(big.Rat).SetInt(i)}
}

func (x Q) den() int64 {
	if x.d == 0 {
		return 1
	}
	return x.d
}

// Big returns x as a new big.Rat.
func (x Q) Big() *big.Rat {
	if x.b != nil {
		return new(big.Rat).Set(x.b)
	}
	return big.NewRat(x.n, x.den())
}

func (x Q) big() *big.Rat {
	if x.b != nil {
		return x.b
	}
	return big.NewRat(x.n, x.den())
}

func norm(r *big.Rat) Q {
	if r.Num().IsInt64() && r.Denom().IsInt64() {
		n, d := r.Num().Int64(), r.Denom().Int64()
		if n != math.MinInt64 && d != math.MinInt64 {
			return Q{n: n, d: d}
		}
	}
	return Q{b: r}
}

func (x Q) String() string {
	if x.b != nil {
		return x.b.RatString()
	}
	if x.den() == 1 {
		return strconv.FormatInt(x.n, 10)
	}
	return strconv.FormatInt(x.n, 10) + "/" + strconv.FormatInt(x.d, 10)
}

// IsInt reports whether x is an integer.
func (x Q) IsInt() bool {
	if x.b != nil {
		return x.b.IsInt()
	}
	return x.den() == 1
}

// Sign returns -1, 0 or 1.
func (x Q) Sign() int {
	if x.b != nil {
		return x.b.Sign()
	}
	switch {
	case x.n < 0:
		return -1
	case x.n > 0:
		return 1
	}
	return 0
}

// IsZero reports whether x is 0.
func (x Q) IsZero() bool { return x.b == nil && x.n == 0 }

func abs64(a int64) uint64 {
	if a < 0 {
		return uint64(-a)
	}
	return uint64(a)
}

func gcd64(a, b uint64) uint64 {
	for b != 0 {
		a, b = b, a%b
	}
	return a
}

// mul64 multiplies, reporting false on overflow (MinInt64 counts as one).
func mul64(a, b int64) (int64, bool) {
	hi, lo := bits.Mul64(abs64(a), abs64(b))
	if hi != 0 || lo > math.MaxInt64 {
		return 0, false
	}
	if (a < 0) != (b < 0) {
		return -int64(lo), true
	}
	return int64(lo), true
}

func add64(a, b int64) (int64, bool) {
	c := a + b
	if (a > 0 && b > 0 && c < 0) || (a < 0 && b < 0 && c >= 0) || c == math.MinInt64 {
		return 0, false
	}
	return c, true
}

// mk builds a reduced small fraction from n/d with d > 0.
func mk(n, d int64) Q {
	if d == 1 {
		return Q{n: n, d: 1}
	}
	g := int64(gcd64(abs64(n), uint64(d)))
	if g > 1 {
		n /= g
		d /= g
	}
	return Q{n: n, d: d}
}

// Add returns x+y.
func (x Q) Add(y Q) Q {
	if x.b == nil && y.b == nil {
		xd, yd := x.den(), y.den()
		if xd == 1 && yd == 1 {
			if s, ok := add64(x.n, y.n); ok {
				return Q{n: s, d: 1}
			}
		} else {
			g := int64(gcd64(uint64(xd), uint64(yd)))
			a, ok1 := mul64(x.n, yd/g)
			b, ok2 := mul64(y.n, xd/g)
			d, ok3 := mul64(xd/g, yd)
			if ok1 && ok2 && ok3 {
				if n, ok := add64(a, b); ok {
					return mk(n, d)
				}
			}
		}
	}
	return norm(new(big.Rat).Add(x.big(), y.big()))
}

// Neg returns -x.
func (x Q) Neg() Q {
	if x.b == nil {
		return Q{n: -x.n, d: x.d}
	}
	return norm(new(big.Rat).Neg(x.b))
}

// Sub returns x-y.
func (x Q) Sub(y Q) Q { return x.Add(y.Neg()) }

// Mul returns x*y.
func (x Q) Mul(y Q) Q {
	if x.b == nil && y.b == nil {
		xd, yd := x.den(), y.den()
		if xd == 1 && yd == 1 {
			if p, ok := mul64(x.n, y.n); ok {
				return Q{n: p, d: 1}
			}
		} else {
			if x.n == 0 || y.n == 0 {
				return Q{}
			}
			g1 := int64(gcd64(abs64(x.n), uint64(yd)))
			g2 := int64(gcd64(abs64(y.n), uint64(xd)))
			n, ok1 := mul64(x.n/g1, y.n/g2)
			d, ok2 := mul64(xd/g2, yd/g1)
			if ok1 && ok2 {
				return Q{n: n, d: d}
			}
		}
	}
	return norm(new(big.Rat).Mul(x.big(), y.big()))
}

// Inv returns 1/x; x must not be 0.
func (x Q) Inv() Q {
	if x.b == nil {
		switch {
		case x.n > 0:
			return Q{n: x.den(), d: x.n}
		case x.n < 0:
			return Q{n: -x.den(), d: -x.n}
		}
		panic("lia: division by zero")
	}
	return norm(new(big.Rat).Inv(x.b))
}

// Div returns x/y; y must not be 0.
func (x Q) Div(y Q) Q { return x.Mul(y.Inv()) }

// Cmp returns -1, 0 or 1 as x <, =, > y.
func (x Q) Cmp(y Q) int {
	if x.b == nil && y.b == nil {
		xd, yd := x.den(), y.den()
		if xd == yd {
			switch {
			case x.n < y.n:
				return -1
			case x.n > y.n:
				return 1
			}
			return 0
		}
		a, ok1 := mul64(x.n, yd)
		b, ok2 := mul64(y.n, xd)
		if ok1 && ok2 {
			switch {
			case a < b:
				return -1
			case a > b:
				return 1
			}
			return 0
		}
	}
	return x.big().Cmp(y.big())
}

// Equal reports whether x = y.
func (x Q) Equal(y Q) bool {
	if x.b == nil && y.b == nil {
		return x.n == y.n && x.den() == y.den()
	}
	return x.Cmp(y) == 0
}

// Floor returns the greatest integer <= x.
func (x Q) Floor() Q {
	if x.b == nil {
		d := x.den()
		if d == 1 {
			return x
		}
		q := x.n / d
		if x.n < 0 {
			q--
		}
		return Q{n: q, d: 1}
	}
	n := new(big.Int).Div(x.b.Num(), x.b.Denom()) // Euclidean: floor for d > 0
	return FromBigInt(n)
}

// Ceil returns the least integer >= x.
func (x Q) Ceil() Q { return x.Neg().Floor().Neg() }

// Num returns the numerator of x (in lowest terms) as a big.Int.
func (x Q) Num() *big.Int {
	if x.b != nil {
		return new(big.Int).Set(x.b.Num())
	}
	return big.NewInt(x.n)
}

// Den returns the positive denominator of x (in lowest terms).
func (x Q) Den() *big.Int {
	if x.b != nil {
		return new(big.Int).Set(x.b.Denom())
	}
	return big.NewInt(x.den())
}

// Int64 returns x and true if x is an integer that fits in an int64.
func (x Q) Int64() (int64, bool) {
	if x.b == nil && x.den() == 1 {
		return x.n, true
	}
	return 0, false
}
