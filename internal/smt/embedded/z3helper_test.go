package embedded

import (
	"testing"

	"birch/internal/smt"
	"birch/internal/smt/process"
)

// newZ3 starts z3 over a pipe for a differential test, or skips the test
// when z3 is not installed.
func newZ3(t *testing.T, tm *smt.TermManager) *process.Solver {
	t.Helper()
	if !process.Available(process.Z3) {
		t.Skip("z3 not on PATH")
	}
	z3, err := process.New(tm, process.Z3)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { z3.Close() })
	return z3
}

// checkAgainst decides the conjunction of fs in a new scope of s and of
// z3, fails the test when both answer and disagree or when a model of s
// falsifies one of fs, pops both scopes and returns both answers.
func checkAgainst(t *testing.T, iter int, tm *smt.TermManager, s *Solver, z3 *process.Solver, fs []*smt.Term) (got, want smt.Result) {
	t.Helper()
	s.Push()
	defer s.Pop(1)
	z3.Push()
	defer z3.Pop(1)
	for _, f := range fs {
		s.Assert(f)
		z3.Assert(f)
	}
	got, err := s.Check()
	if err != nil {
		t.Fatal(err)
	}
	if want, err = z3.Check(); err != nil {
		t.Fatal(err)
	}
	if got != smt.Unknown && want != smt.Unknown && got != want {
		t.Fatalf("iter %d: embedded %v, z3 %v:\n%v", iter, got, want, tm.And(fs...))
	}
	if got == smt.Sat {
		checkModel(t, iter, s, fs)
	}
	return got, want
}

// checkModel fails the test unless s has a model that satisfies every
// formula of fs (after a sat answer to query n).
func checkModel(t *testing.T, n int, s *Solver, fs []*smt.Term) {
	t.Helper()
	m, err := s.Model()
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range fs {
		if ok, err := m.Holds(f); !ok || err != nil {
			t.Fatalf("query %d: model\n%v\nfalsifies %v (%v)", n, m, f, err)
		}
	}
}
