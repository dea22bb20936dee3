package smt

import (
	"errors"
	"testing"
)

// countingSolver answers every Check with a fixed result and counts them.
type countingSolver struct {
	tm     *TermManager
	result Result
	checks int
	level  int
}

func (s *countingSolver) TermManager() *TermManager { return s.tm }
func (s *countingSolver) Assert(*Term)              {}
func (s *countingSolver) Push()                     { s.level++ }
func (s *countingSolver) Pop(n int)                 { s.level -= n }
func (s *countingSolver) Check() (Result, error)    { s.checks++; return s.result, nil }
func (s *countingSolver) CheckAssumptions([]*Term) (Result, error) {
	return s.Check()
}
func (s *countingSolver) Model() (*Model, error)      { return nil, errors.New("none") }
func (s *countingSolver) UnsatCore() ([]*Term, error) { return nil, errors.New("none") }
func (s *countingSolver) SetLimit(Limit)              {}
func (s *countingSolver) Close() error                { return nil }

func TestCache(t *testing.T) {
	tm := NewTermManager()
	s := &countingSolver{tm: tm, result: Unsat}
	c := NewCache(s)
	x, y := tm.Const("x", IntSort), tm.Const("y", IntSort)
	p, q := tm.Lt(x, y), tm.Lt(tm.Add(x, tm.Int(1)), tm.Int(3))
	for _, f := range [][2]*Term{
		{tm.And(p, q), q},
		{tm.And(q, p), q}, // same after sorting the conjunction
		{tm.And(tm.Lt(x, y), q), tm.Lt(tm.Sub(x, tm.Int(-1)), tm.Int(3))}, // same after linear normalization
		{p, p}, // trivial
	} {
		if ok, err := c.Implies(f[0], f[1]); !ok || err != nil {
			t.Fatalf("Implies = %v, %v", ok, err)
		}
	}
	if got, want := c.Stats(), (CacheStats{Hits: 2, Trivial: 1, Misses: 1}); got != want {
		t.Errorf("stats = %+v, want %+v", got, want)
	}
	if s.checks != 1 || s.level != 0 {
		t.Errorf("checks = %d, level = %d", s.checks, s.level)
	}
	// Unknown answers are not remembered.
	s.result = Unknown
	if _, err := c.Valid(tm.Lt(x, tm.Int(0))); !errors.Is(err, ErrUnknown) {
		t.Errorf("err = %v", err)
	}
	c.Valid(tm.Lt(x, tm.Int(0)))
	if s.checks != 3 {
		t.Errorf("unknown was cached: checks = %d", s.checks)
	}
}
