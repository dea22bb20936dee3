package embedded

import (
	"context"
	"fmt"
	"testing"

	"birch/internal/smt"
)

// pigeons asserts that n+1 pigeons sit in n holes, no two in one: unsat,
// and hard for a SAT solver without symmetry reasoning.
func pigeons(s smt.Solver, n int) {
	tm := s.TermManager()
	in := make([][]*smt.Term, n+1)
	for i := range in {
		var some []*smt.Term
		for j := 0; j < n; j++ {
			v := tm.Const(fmt.Sprintf("p%d_%d", i, j), smt.BoolSort)
			in[i] = append(in[i], v)
			some = append(some, v)
		}
		s.Assert(tm.Or(some...))
	}
	for j := 0; j < n; j++ {
		for i := range in {
			for k := i + 1; k < len(in); k++ {
				s.Assert(tm.Not(tm.And(in[i][j], in[k][j])))
			}
		}
	}
}

// TestNewContextStops: a query of a solver whose context is done answers
// unknown (birch smt stops at Ctrl-C with it), and the same query without
// the context is decided.
func TestNewContextStops(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	s := NewContext(ctx, smt.NewTermManager())
	pigeons(s, 8)
	if r, err := s.Check(); r != smt.Unknown || err != nil {
		t.Fatalf("with a cancelled context: %v, %v; want unknown", r, err)
	}
	s = New(smt.NewTermManager())
	pigeons(s, 4)
	if r, err := s.Check(); r != smt.Unsat || err != nil {
		t.Fatalf("without a context: %v, %v; want unsat", r, err)
	}
}
