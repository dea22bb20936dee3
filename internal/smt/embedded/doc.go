// Package embedded is birch's own SMT solver, in pure Go: the default
// implementation of smt.Solver, answering the many small questions the
// abstraction passes ask without starting a process.
//
// It combines the CDCL SAT solver of package sat with the exact simplex and
// branch and bound of package lia in the DPLL(T) manner:
//
//   - Boolean structure is Tseitin-encoded: every Bool subterm gets a SAT
//     literal, defined by clauses that are added once and kept for the
//     solver's lifetime (they only define fresh variables, so they are
//     valid in every scope).
//   - Integer terms are put in linear form Σcᵢxᵢ + c. A comparison becomes
//     a bound on a slack variable of the simplex standing for the
//     gcd-normalized Σcᵢxᵢ (shared by every atom over the same sum), in the
//     canonical form s <= k, whose negation is s >= k+1: strict and
//     non-strict, <, <=, >, >= all map to one kind of atom. An equality is
//     the conjunction of two such atoms, so a disequality is split by the
//     SAT search.
//   - ite over Int introduces a fresh integer defined by two implications;
//     div and mod by a non-zero literal k introduce q and r with
//     a = k·q + r, 0 <= r < |k| (SMT-LIB's Euclidean semantics); abs is an
//     ite.
//   - Uninterpreted functions over Int and Bool are reduced by Ackermann's
//     method: each application is a fresh variable, and each pair of
//     applications of one function gets the congruence clause
//     (a₁ = b₁ ∧ … ∧ aₙ = bₙ) → f(a) = f(b). Models give each function a
//     table.
//   - Push and Pop use activation literals: an assertion made in a scope is
//     added as (¬a ∨ t), a is assumed while the scope is open, and Pop adds
//     the unit ¬a.
//
// Encodings are cached for the solver's lifetime, so that the abstraction
// passes, which ask many queries over the same predicates, pay for each
// predicate once. What popped scopes leave behind must then not slow the
// search: the SAT solver decides only the variables in the cone of the
// active assertions and assumptions (the others are not decision
// variables), the definitions of fresh integers (ite, abs, div, mod) are
// switched on by guard literals assumed only when relevant, branch and
// bound branches only on variables that occur in asserted bounds, and when
// the solver has grown far beyond what its queries use it starts afresh
// from the assertions of the open scopes.
//
// The simplex is checked over the rationals at every propagation fixpoint
// and over the integers (branch and bound with a budget) when the SAT
// assignment is complete. Whatever it cannot decide — nonlinear terms,
// arrays, uninterpreted sorts, functions over them, division by zero, an
// exhausted budget or limit — is answered Unknown, never guessed.
package embedded
