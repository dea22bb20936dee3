package solvers

import (
	"testing"

	"birch/internal/smt"
)

// The zero values of a caller's configuration, no context and no name,
// give the default solver.
func TestNewContextZeroValues(t *testing.T) {
	tm := smt.NewTermManager()
	s, err := NewContext(nil, "", tm)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	x := tm.Const("x", smt.IntSort)
	s.Assert(tm.Lt(x, tm.Int(0)))
	if r, err := s.Check(); r != smt.Sat || err != nil {
		t.Fatalf("%v %v", r, err)
	}
	if _, err := NewContext(nil, "nosuch", tm); err == nil {
		t.Fatal("an unknown name is accepted")
	}
}
