// Package lia decides conjunctions of linear constraints exactly, over the
// rationals and over the integers: the arithmetic theory of birch's
// embedded SMT solver (internal/smt/embedded), which asserts the bounds its
// SAT search chooses and asks for consistency.
//
// # Numbers
//
// Q is an exact rational: an int64 fraction while it fits, math/big
// beyond, with overflow checked on every operation. The small case
// allocates nothing, which is what keeps small queries fast.
//
// # The simplex
//
// Simplex is the general simplex of Dutertre and de Moura ("A Fast
// Linear-Arithmetic Solver for DPLL(T)", CAV 2006). Every constraint is a
// bound on a variable: a linear sum gets a slack variable (AddRow) defined
// by a tableau row, so that asserting Σcᵢxᵢ <= k is asserting an upper
// bound on the slack. Bounds carry the caller's explanation id; asserting
// one is incremental and Mark/Backtrack retract them in stack order without
// touching the assignment (which stays a solution of the rows). Check
// repairs basic variables out of bounds by pivoting — the entering
// variable is the one in the fewest rows for the first thousand pivots,
// then Bland's rule, which terminates — and on infeasibility returns the
// ids of the bounds in the infeasible row (Conflict). Rows are sparse, and
// each variable's column list points back into them, so that a pivot costs
// the entries it changes.
//
// Only non-strict bounds exist: over the integers x < k is x <= k-1, and
// bounds on integer variables are rounded when asserted.
//
// With Proofs set, a conflict of Check or of an assert also has its
// Farkas proof (FarkasProof): the bounds of the infeasible row with
// positive coefficients whose sum, the slack variables expanded, is
// 0 <= k < 0. Package abstraction/refine splits such sums into Craig
// interpolants (McMillan's method).
//
// # Integers
//
// CheckInt adds, on top of Check, a GCD test on the rows (an equation
// whose coefficients share a divisor that does not divide its constant has
// no integer solution — this decides parity constraints such as
// 2x = 2y + 1 at once), Gomory mixed-integer cuts and depth-first branch
// and bound on integer variables that occur in bounds, within a budget of
// branches. A cut is derived from a tableau row whose basic variable is an
// integer with a fractional value and whose nonbasic variables sit at
// their bounds; it cuts that solution off, becomes a row of its own,
// holds in the subtree where the bounds it used hold, and adds those
// bounds to the explanation. A few cuts per CheckInt (at most 8, with
// coefficients below 2¹⁶) settle many problems that branching alone leaves
// open within its budget; the rows of cuts leave the tableau afterwards
// (those whose variable a pivot made nonbasic at the next Restrict).
//
// Branch and bound need not terminate when variables are unbounded: on a
// line of rational solutions without integer points (2a = y' = 2b + 1,
// the equations implied by bounds on different sums) each branch moves
// the solution one step along the line. So with half the budget spent,
// CheckInt propagates the bounds through the rows of the tableau, rounding
// those of integer variables, takes the variables whose bounds meet as
// fixed, and decides the equations of the rows over the integers with
// their values substituted, by Gaussian elimination with the
// least-coefficient step (Griggio, JSAT 2012): crossed bounds, or
// equations without an integer solution, are Unsat, explained by the
// bounds the propagation used. Failing that, it searches growing boxes
// around the origin (or around the nearest bound) instead: an integer point in a box is a solution, and a
// box search whose leaves never used a box bound proves that there is
// none. Beyond the budget, or once Stop (a deadline, say) returns true,
// the answer is Unknown. The explanation of an integer conflict is the
// union of the explanations of the leaves of the search tree, minus the
// branching bounds.
//
// # Long-lived use
//
// Rows stay for the Simplex's lifetime, but Restrict rebuilds the tableau
// from the rows a query needs (the embedded solver keeps those of its
// relevant atoms), so that the rows of earlier queries cost nothing; it
// keeps the tableau as it is when the rows are those it holds. AddDef
// defines a slack variable without entering it in the tableau, for such a
// caller: the next Restrict enters it if it is kept.
//
//	var s lia.Simplex
//	x, y := s.NewVar(true), s.NewVar(true)
//	d := s.AddRow([]lia.Term{{V: x, C: lia.Int(2)}, {V: y, C: lia.Int(-2)}})
//	s.AssertLower(d, lia.Int(1), 0) // 2x - 2y >= 1
//	s.AssertUpper(d, lia.Int(1), 1) // 2x - 2y <= 1
//	s.Check()      // Sat over the rationals
//	s.CheckInt(0)  // Unsat, Conflict() = [0 1]
package lia
