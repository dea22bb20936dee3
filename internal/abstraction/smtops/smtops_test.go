package smtops

import (
	"math"
	"testing"

	"birch/internal/bir/token"
	"birch/internal/smt"
)

// TestOps evaluates every operator on signed operands against Go's own
// (which truncates division as BIR does).
func TestOps(t *testing.T) {
	tm := smt.NewTermManager()
	m := smt.NewModel(tm)
	for _, a := range []int64{-7, -1, 0, 3, 7} {
		for _, b := range []int64{-2, 1, 2, 5} {
			arith := map[token.Kind]int64{token.ADD: a + b, token.SUB: a - b, token.MUL: a * b, token.QUO: a / b, token.REM: a % b}
			for op, want := range arith {
				v, err := m.Eval(Arith(tm, op, tm.Int(a), tm.Int(b)))
				if got, ok := v.Int64(); err != nil || !ok || got != want {
					t.Errorf("%d %s %d = %v (%v), want %d", a, op, b, v, err, want)
				}
			}
			cmp := map[token.Kind]bool{token.EQL: a == b, token.NEQ: a != b, token.LSS: a < b, token.LEQ: a <= b, token.GTR: a > b, token.GEQ: a >= b}
			for op, want := range cmp {
				got, err := m.Holds(Compare(tm, op, tm.Int(a), tm.Int(b)))
				if err != nil || got != want {
					t.Errorf("%d %s %d = %v (%v), want %v", a, op, b, got, err, want)
				}
			}
		}
	}
	if Arith(tm, token.LAND, tm.Int(1), tm.Int(2)) != nil || Compare(tm, token.ADD, tm.Int(1), tm.Int(2)) != nil {
		t.Error("an operator that is not arithmetic or a comparison gave a term")
	}
}

// TestWrap evaluates Wrap, on a constant (folded) and on a variable (the
// mod term), against Go's own conversions to the fixed-width types.
func TestWrap(t *testing.T) {
	tm := smt.NewTermManager()
	m := smt.NewModel(tm)
	x := tm.Const("x", smt.IntSort)
	type width struct {
		bits   int
		signed bool
		conv   func(int64) int64
	}
	widths := []width{
		{8, true, func(v int64) int64 { return int64(int8(v)) }},
		{8, false, func(v int64) int64 { return int64(uint8(v)) }},
		{16, true, func(v int64) int64 { return int64(int16(v)) }},
		{16, false, func(v int64) int64 { return int64(uint16(v)) }},
		{32, true, func(v int64) int64 { return int64(int32(v)) }},
		{32, false, func(v int64) int64 { return int64(uint32(v)) }},
		{64, true, func(v int64) int64 { return v }},
	}
	for _, v := range []int64{0, 1, -1, 127, 128, -128, -129, 255, 256, 300, -300, 32767, 32768, -32769, 65535, 65536, 1 << 31, -1 << 31, 1<<32 + 5, math.MaxInt64, math.MinInt64} {
		if err := m.SetConst(x.Symbol(), tm.Int(v)); err != nil {
			t.Fatal(err)
		}
		for _, w := range widths {
			want := w.conv(v)
			folded := Wrap(tm, tm.Int(v), w.bits, w.signed)
			if got, ok := folded.Int64(); !ok || got != want {
				t.Errorf("Wrap(%d, %d, %v) folded = %v, want %d", v, w.bits, w.signed, folded, want)
			}
			r, err := m.Eval(Wrap(tm, x, w.bits, w.signed))
			if got, ok := r.Int64(); err != nil || !ok || got != want {
				t.Errorf("Wrap(x=%d, %d, %v) = %v (%v), want %d", v, w.bits, w.signed, r, err, want)
			}
			in, err := m.Holds(InWidth(tm, x, w.bits, w.signed))
			if err != nil || in != (want == v) {
				t.Errorf("InWidth(%d, %d, %v) = %v (%v), want %v", v, w.bits, w.signed, in, err, want == v)
			}
		}
	}
	// beyond int64: 2^64 + 3 is 3 as a uint64 and as an int64
	big := tm.Add(tm.Scale(1<<62, tm.Int(4)), tm.Int(3))
	for _, signed := range []bool{false, true} {
		r, err := m.Eval(Wrap(tm, big, 64, signed))
		if got, ok := r.Int64(); err != nil || !ok || got != 3 {
			t.Errorf("Wrap(2^64+3, 64, %v) = %v (%v), want 3", signed, r, err)
		}
	}
}
