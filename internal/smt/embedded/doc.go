// Package embedded is birch's own SMT solver, in pure Go: the default
// implementation of smt.Solver, answering the many small questions of data
// abstraction (synthesis of abstract operators, the symbolic replay of
// abstract trails) without starting a process.
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
//   - A nonlinear product x·y is a fresh integer p, linearized lazily: when
//     a Sat assignment gives x the value a, y the value b and p another
//     value than a·b, the lemmas x = a → p = a·y and y = b → p = x·b are
//     added and the search goes on (nonlinear.go). Bounded factors need
//     finitely many lemmas; after a budget of rounds the answer is Unknown.
//     div and mod by a variable b are a = q·b + r with 0 ≤ r < |b| when
//     b ≠ 0; an assignment with b = 0 answers Unknown.
//   - ite over Int introduces a fresh integer defined by two implications;
//     div and mod by a non-zero literal k introduce q and r with
//     a = k·q + r, 0 <= r < |k| (SMT-LIB's Euclidean semantics); abs is an
//     ite.
//   - Uninterpreted sorts are mapped to the integers (a formula without
//     arithmetic on them has a model over some domain exactly when it has
//     one over the integers); models map the integers back to abstract
//     values (as @U_0 U), (as @U_1 U), ….
//   - Uninterpreted functions over Int, Bool and uninterpreted sorts are
//     reduced by Ackermann's method, lazily: each application is a fresh
//     variable, and when the search answers Sat the solver compares the
//     values the assignment gives the arguments and results of each pair
//     of relevant applications of one function. A pair with equal
//     arguments and different results gets the congruence lemma
//     (a₁ = b₁ ∧ … ∧ aₙ = bₙ) → f(a) = f(b), and the search goes on; most
//     queries need no lemma at all. The arguments of relevant applications
//     are relevant themselves, so that the values compared are those the
//     model gives. Models give each function a table.
//   - Arrays (Array I E) with I Int or uninterpreted and E Int, Bool or
//     uninterpreted — select, store, constant arrays, ite, equality and
//     distinct — are reduced to elements: A[j] is a fresh variable per
//     array term A and index term j, with read-over-write, congruence and
//     extensionality lemmas over the index terms of the active assertions,
//     instantiated lazily like congruence: those a Sat answer breaks (see
//     array.go for the details and why this is complete). Arrays of arrays
//     and array-valued functions answer Unknown.
//   - Push and Pop use activation literals: a clause asserted in a scope is
//     added as (¬a ∨ c), a is assumed while the scope is open, and Pop adds
//     the unit ¬a. A unit assertion (an atom of a cube, say) is assumed
//     instead, and a scope gets its activation literal only with its first
//     clause, so that the common query adds no clause for its units.
//
// Encodings and lemmas are cached for the solver's lifetime, so that a
// long-lived solver asked many queries over the same atoms (the synthesis
// of an abstraction's tables; predicate abstraction, once it is built)
// pays for each atom once. What popped scopes leave behind must then not
// slow the search: the SAT solver decides only the variables in the cone
// of the active assertions and assumptions (the others are not decision
// variables), congruence lemmas are instantiated only among the relevant
// applications and array lemmas among the terms of the active assertions,
// the definitions of fresh integers (ite,
// abs, div, mod) are switched on by guard literals assumed only when
// relevant, the simplex pivots over the rows of the relevant atoms only
// (lia.Simplex.Restrict), and when the solver has grown far beyond what
// its queries use it starts afresh from the assertions of the open scopes.
//
// The simplex is checked over the rationals at every propagation fixpoint
// once the assumptions are placed, and over the integers (Gomory cuts and
// branch and bound with a budget, then a test of the equations the bounds
// imply, then boxed branch and bound) when the
// SAT assignment is complete. A complete assignment
// whose integer problem branch and bound leaves open is blocked by a
// clause guarded by a literal assumed for the query only, so that the
// search may find another assignment (it starts again from fresh phases,
// which would otherwise lead it back to the blocked assignment's
// neighbours); if none is left the answer is
// Unknown rather than Unsat. Whatever the solver cannot decide —
// a product its lemmas do not settle, a divisor that may be 0, arrays of
// arrays, an exhausted budget or limit — is answered Unknown, never
// guessed.
package embedded
