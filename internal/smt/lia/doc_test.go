package lia

import (
	"slices"
	"testing"
)

func TestDocExample(t *testing.T) {
	var s Simplex
	x, y := s.NewVar(true), s.NewVar(true)
	d := s.AddRow([]Term{{V: x, C: Int(2)}, {V: y, C: Int(-2)}})
	s.AssertLower(d, Int(1), 0)
	s.AssertUpper(d, Int(1), 1)
	if s.Check() != Sat {
		t.Fatal("rational")
	}
	if s.CheckInt(0) != Unsat || !slices.Equal(slices.Sorted(slices.Values(s.Conflict())), []int32{0, 1}) {
		t.Fatalf("integer: conflict %v", s.Conflict())
	}
}
