// Package embedded is birch's own SMT solver, in pure Go: the default
// implementation of smt.Solver, answering the many small questions the
// abstraction passes ask without starting a process.
//
// It combines the CDCL SAT solver of package sat with the exact simplex and
// branch and bound of package lia in the DPLL(T) manner, and decides
// uninterpreted functions and arrays by reduction to them:
//
//   - Boolean structure is Tseitin-encoded: every Bool subterm gets a SAT
//     literal, defined by clauses that are added once and kept for the
//     solver's lifetime (they only define fresh variables, so they are
//     valid in every scope). An assertion's top-level structure is taken
//     apart instead: a conjunction is asserted conjunct by conjunct, a
//     disjunction is one clause, an integer equality two bounds.
//   - Integer terms are put in linear form Σcᵢxᵢ + c (built in a scratch
//     buffer, without allocating, for comparisons). A comparison becomes a
//     bound on a slack variable of the simplex standing for the
//     gcd-normalized Σcᵢxᵢ (shared by every atom over the same sum), in the
//     canonical form s <= k, whose negation is s >= k+1: strict and
//     non-strict, <, <=, >, >= all map to one kind of atom. An equality is
//     the conjunction of two such atoms, so a disequality is split by the
//     SAT search.
//   - ite over Int introduces a fresh integer defined by two implications;
//     div and mod by a non-zero literal k introduce q and r with
//     a = k·q + r, 0 <= r < |k| (SMT-LIB's Euclidean semantics); abs is an
//     ite.
//   - Uninterpreted sorts are mapped to the integers (a formula without
//     arithmetic on them has a model over some domain exactly when it has
//     one over the integers); models map the integers back to abstract
//     values (as @U_0 U), (as @U_1 U), ….
//   - Uninterpreted functions over Int, Bool and uninterpreted sorts are
//     reduced by Ackermann's method: each application is a fresh variable,
//     and before a check each pair of applications of one function in the
//     active assertions gets the congruence lemma
//     (a₁ = b₁ ∧ … ∧ aₙ = bₙ) → f(a) = f(b). Models give each function a
//     table.
//   - Arrays (Array I E) with I Int or uninterpreted and E Int, Bool or
//     uninterpreted — select, store, constant arrays, ite, equality and
//     distinct — are reduced to elements: A[j] is a fresh variable per
//     array term A and index term j, with read-over-write, congruence and
//     extensionality lemmas instantiated before each check over the index
//     terms of the active assertions (see array.go for the details and why
//     this is complete). Arrays of arrays and array-valued functions answer
//     Unknown.
//   - Push and Pop use activation literals: an assertion made in a scope is
//     added as (¬a ∨ t), a is assumed while the scope is open, and Pop adds
//     the unit ¬a.
//
// Encodings and lemmas are cached for the solver's lifetime, so that the
// abstraction passes, which ask many queries over the same predicates, pay
// for each predicate once. What popped scopes leave behind must then not
// slow the search: the SAT solver decides only the variables in the cone
// of the active assertions and assumptions (the others are not decision
// variables), congruence and array lemmas are instantiated only among the
// terms of the active assertions, the definitions of fresh integers (ite,
// abs, div, mod) are switched on by guard literals assumed only when
// relevant, the simplex pivots over the rows of the relevant atoms only
// (lia.Simplex.Restrict), and when the solver has grown far beyond what
// its queries use it starts afresh from the assertions of the open scopes.
//
// The simplex is checked over the rationals at every propagation fixpoint
// and over the integers (branch and bound with a budget, then boxed branch
// and bound) when the SAT assignment is complete. A complete assignment
// whose integer problem branch and bound leaves open is blocked by a
// clause guarded by a literal assumed for the query only, so that the
// search may find another assignment; if none is left the answer is
// Unknown rather than Unsat. Whatever the solver cannot decide —
// nonlinear terms, arrays of arrays, division by zero, an exhausted budget
// or limit — is answered Unknown, never guessed.
package embedded
