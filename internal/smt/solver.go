package smt

import (
	"errors"
	"fmt"
	"time"
)

// Result is the answer to a satisfiability query.
type Result int8

const (
	// Unknown: the solver could not decide (a limit was hit, the formula is
	// outside the fragment it decides, or it failed). Never a wrong answer.
	Unknown Result = iota
	// Sat: the assertions have a model.
	Sat
	// Unsat: the assertions have no model.
	Unsat
)

// String returns "sat", "unsat" or "unknown", as SMT-LIB2 solvers print them.
func (r Result) String() string {
	switch r {
	case Sat:
		return "sat"
	case Unsat:
		return "unsat"
	}
	return "unknown"
}

// Limit bounds the work of one Check or CheckAssumptions call. The zero
// value means no limit. When a limit is hit the answer is Unknown.
type Limit struct {
	// Timeout bounds the wall-clock time of one query; 0 means none.
	Timeout time.Duration
	// Steps bounds the solver's own unit of work (for the embedded solver:
	// conflicts plus simplex pivots; for z3: rlimit); 0 means none.
	Steps int64
}

// Solver is an incremental decision procedure for quantifier-free formulas
// over the terms of one TermManager: Bool, Int (linear arithmetic, with div
// and mod by literals), uninterpreted functions and arrays. The embedded
// solver (package smt/embedded) and the SMT-LIB2 processes (package
// smt/process: z3, cvc5) implement it; package smt/solvers constructs one by
// name.
//
// The contract every implementation keeps:
//
//   - Answers are never wrong. Sat means the assertions have a model and
//     Model returns one that satisfies them (Model.Eval of every assertion is
//     true); Unsat means they have none. Anything the solver cannot decide
//     (nonlinear terms, a limit, an internal failure) is Unknown.
//   - A solver belongs to one TermManager (given to its constructor).
//     Assertions are formulas: terms of sort Bool, over symbols declared in
//     that manager. Terms containing OpBound are not formulas.
//   - Push opens a scope; Pop(n) discards the assertions of the n innermost
//     scopes. Symbols are global: popping a scope never undeclares them.
//   - Assert, Push and Pop report no errors. A term the solver cannot handle
//     is remembered, and the next Check answers Unknown (with a nil error if
//     the solver merely does not decide that fragment, and an error when
//     something failed). Pop(n) with n larger than the number of open scopes
//     is an error reported by the next Check.
//   - Check and CheckAssumptions return a non-nil error only with Unknown,
//     and only when something failed (a process died, a term is ill-formed);
//     Unknown with a nil error means the question is undecided.
//   - Model is valid after a Check or CheckAssumptions that returned Sat and
//     until the next call that changes the solver's state; it returns an
//     error otherwise. The model gives a value to every declared symbol the
//     assertions mention; Model.Eval completes it for the others.
//   - UnsatCore is valid after a CheckAssumptions that returned Unsat: a
//     subset of the assumptions (the same *Term pointers) that is unsat
//     together with the assertions. It need not be minimal.
//   - SetLimit applies to every later query until changed.
//   - Close releases resources (processes); the solver is unusable after it.
//
// A Solver is not safe for concurrent use.
type Solver interface {
	// TermManager returns the manager whose terms the solver accepts and
	// whose terms its models are made of.
	TermManager() *TermManager
	// Assert adds the formula t to the current scope.
	Assert(t *Term)
	// Push opens a new scope.
	Push()
	// Pop discards the n innermost scopes.
	Pop(n int)
	// Check decides the conjunction of all assertions.
	Check() (Result, error)
	// CheckAssumptions decides the assertions together with the literals
	// lits (formulas, usually variables or their negations), without
	// asserting the literals.
	CheckAssumptions(lits []*Term) (Result, error)
	// Model returns a model of the assertions after Sat.
	Model() (*Model, error)
	// UnsatCore returns a subset of the assumptions after Unsat.
	UnsatCore() ([]*Term, error)
	// SetLimit bounds each later query.
	SetLimit(l Limit)
	// Close releases the solver's resources.
	Close() error
}

// ErrUnknown is returned (wrapped) by Valid and Implies when the solver
// answered Unknown without failing.
var ErrUnknown = errors.New("smt: the solver answered unknown")

// Valid reports whether the formula t holds in every model, by checking
// (not t) in a new scope of s. It returns true only when s proved it; an
// undecided query returns false and an error wrapping ErrUnknown, and a
// failure returns false and the solver's error. s's assertions are in force
// (Valid decides whether they imply t) and s is left as it was.
func Valid(s Solver, t *Term) (bool, error) {
	return checkNegation(s, t, nil)
}

// Implies reports whether a implies b (under s's assertions), with the same
// conventions as Valid. It checks a ∧ ¬b.
func Implies(s Solver, a, b *Term) (bool, error) {
	return checkNegation(s, b, a)
}

func checkNegation(s Solver, t, hyp *Term) (bool, error) {
	tm := s.TermManager()
	s.Push()
	defer s.Pop(1)
	if hyp != nil {
		s.Assert(hyp)
	}
	s.Assert(tm.Not(t))
	r, err := s.Check()
	switch {
	case err != nil:
		return false, err
	case r == Unsat:
		return true, nil
	case r == Sat:
		return false, nil
	}
	return false, fmt.Errorf("%w", ErrUnknown)
}
