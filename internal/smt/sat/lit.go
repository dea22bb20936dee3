package sat

import "strconv"

// A Var is a propositional variable, numbered from 0 in creation order.
type Var int32

// A Lit is a variable or its negation: 2*v for v, 2*v+1 for ¬v.
type Lit int32

// NoLit is a Lit that stands for no literal.
const NoLit Lit = -1

// Pos returns the literal v.
func Pos(v Var) Lit { return Lit(2 * v) }

// Neg returns the literal ¬v.
func Neg(v Var) Lit { return Lit(2*v + 1) }

// MkLit returns v if neg is false, ¬v otherwise.
func MkLit(v Var, neg bool) Lit {
	if neg {
		return Neg(v)
	}
	return Pos(v)
}

// Var returns the variable of l.
func (l Lit) Var() Var { return Var(l >> 1) }

// Not returns the negation of l.
func (l Lit) Not() Lit { return l ^ 1 }

// IsNeg reports whether l is a negated variable.
func (l Lit) IsNeg() bool { return l&1 == 1 }

// Dimacs returns l in DIMACS form: v+1 or -(v+1).
func (l Lit) Dimacs() int {
	if l.IsNeg() {
		return -int(l.Var()) - 1
	}
	return int(l.Var()) + 1
}

// FromDimacs returns the literal a DIMACS integer (non-zero) denotes.
func FromDimacs(d int) Lit {
	if d < 0 {
		return Neg(Var(-d - 1))
	}
	return Pos(Var(d - 1))
}

func (l Lit) String() string { return strconv.Itoa(l.Dimacs()) }

// Status is the answer of Solve.
type Status int8

const (
	Unknown Status = iota // the budget ran out, or the theory gave up
	Sat
	Unsat
)

func (s Status) String() string {
	switch s {
	case Sat:
		return "sat"
	case Unsat:
		return "unsat"
	}
	return "unknown"
}

// Theory is a decision procedure for the atoms behind some variables
// (those marked with Solver.SetTheoryVar), combined with the SAT search in
// the DPLL(T) manner.
//
// The solver calls the methods from Solve only, never concurrently.
type Theory interface {
	// Assert tells the theory that l, a literal of a theory variable, has
	// become true. Calls come in trail order; together with Backtrack they
	// keep the theory's assertions equal to a prefix of the trail.
	Assert(l Lit)

	// Check asks whether the asserted literals are consistent. It is
	// called when unit propagation has reached a fixpoint, with final set
	// when moreover every variable is assigned. It returns nil if it finds
	// no inconsistency, or a conflict clause: literals that are all false
	// now and whose disjunction is valid in the theory (typically the
	// negations of the asserted literals that explain the inconsistency).
	//
	// While it runs, Check may call Imply, AddLemma, NewVar, SetTheoryVar
	// and Abort on the solver. Without final set it may do as little as it
	// likes; with final set, returning nil without calling Imply or
	// AddLemma accepts the assignment as a model.
	Check(final bool) (conflict []Lit)

	// Backtrack tells the theory to forget all but the first n literals
	// it was told of by Assert (since the last Backtrack to 0 or creation).
	Backtrack(n int)
}
