package lia

import (
	"math"
	"math/big"
	"math/rand/v2"
	"testing"
)

func TestQAgainstBig(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 1))
	pick := func() int64 {
		switch r.IntN(4) {
		case 0:
			return r.Int64N(7) - 3
		case 1:
			return r.Int64N(2001) - 1000
		case 2:
			return r.Int64() >> r.IntN(64)
		}
		if r.IntN(2) == 0 {
			return math.MaxInt64 - r.Int64N(3)
		}
		return math.MinInt64 + r.Int64N(3)
	}
	mkq := func() (Q, *big.Rat) {
		n, d := pick(), pick()
		if d == 0 {
			d = 1
		}
		b := new(big.Rat).SetFrac(big.NewInt(n), big.NewInt(d))
		var q Q
		if d == math.MinInt64 || n == math.MinInt64 {
			q = FromBig(b)
		} else {
			q = Frac(n, d)
		}
		return q, b
	}
	check := func(what string, got Q, want *big.Rat) {
		t.Helper()
		if got.Big().Cmp(want) != 0 {
			t.Fatalf("%s: got %v, want %v", what, got, want.RatString())
		}
		if got.b != nil && got.b.Num().IsInt64() && got.b.Denom().IsInt64() &&
			got.b.Num().Int64() != math.MinInt64 {
			t.Fatalf("%s: %v kept big though it fits", what, got)
		}
	}
	for range 20000 {
		x, bx := mkq()
		y, by := mkq()
		check("x", x, bx)
		check("add", x.Add(y), new(big.Rat).Add(bx, by))
		check("sub", x.Sub(y), new(big.Rat).Sub(bx, by))
		check("mul", x.Mul(y), new(big.Rat).Mul(bx, by))
		if by.Sign() != 0 {
			check("div", x.Div(y), new(big.Rat).Quo(bx, by))
		}
		if got, want := x.Cmp(y), bx.Cmp(by); got != want {
			t.Fatalf("cmp %v %v: %d, want %d", x, y, got, want)
		}
		fl := new(big.Int).Div(bx.Num(), bx.Denom())
		check("floor", x.Floor(), new(big.Rat).SetInt(fl))
		if x.IsInt() != bx.IsInt() || x.Sign() != bx.Sign() {
			t.Fatalf("IsInt/Sign of %v", x)
		}
	}
}

func TestQBasics(t *testing.T) {
	if got := Frac(6, -4).String(); got != "-3/2" {
		t.Errorf("6/-4 = %s", got)
	}
	if got := Frac(-3, 2).Floor().String(); got != "-2" {
		t.Errorf("floor(-3/2) = %s", got)
	}
	if got := Frac(-3, 2).Ceil().String(); got != "-1" {
		t.Errorf("ceil(-3/2) = %s", got)
	}
	var zero Q
	if !zero.IsZero() || !zero.IsInt() || zero.String() != "0" || !zero.Equal(Int(0)) {
		t.Errorf("zero value")
	}
	big := Int(math.MaxInt64).Add(Int(1))
	if big.b == nil || big.Sub(Int(1)).b != nil {
		t.Errorf("overflow to big and back")
	}
}
