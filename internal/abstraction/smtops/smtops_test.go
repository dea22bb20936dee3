package smtops

import (
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
