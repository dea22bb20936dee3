// Package data is birch's data abstraction in the manner of Bandera: it
// replaces the integers a model computes with a few abstract tokens, so that
// a model whose concrete state space is infinite gets a small abstract one.
//
// It sits among the passes of the pipeline (BIR -> BIR). This package holds
// what the pass is made of: abstractions, compiled from BASL specifications
// (package basl) or instantiated from the library, with every abstract
// operator and test computed by a decision procedure (package smt).
//
// # Abstractions
//
// An Abstraction has tokens (Token), an abstraction function (its Rules: a
// condition on the integer n and the token of the integers satisfying it)
// and a table for each binary operator (+ - * / %, OpTable) and test (== !=
// < <= > >=, TestTable). A table entry for tokens (a, b) is the set of
// tokens x op y may have for integers x of a and y of b; for / and % it
// also says whether the divisor may be zero ("error": BIR's / and %
// truncate toward zero and fail on zero). Tests yield true, false or both.
// Token sets are bit sets (Set), so an abstraction has at most 64 tokens.
// Integers are the mathematical integers: BIR's overflow errors are not
// modelled by abstract operators.
//
// Compile checks a parsed specification: the abstraction function must map
// every integer to exactly one token, which the solver decides — an overlap
// or a gap is reported with a witness integer; every token must stand for
// some integer; ONE2ONE tokens must stand for exactly one; tables given in
// the specification must cover every pair of tokens (cases apply in order,
// first match wins) and be sound, which is checked with the solver too. It
// then synthesizes the tables left out.
//
// # Synthesis
//
// Tables are synthesized by the elimination method of Bandera's paper: an
// entry starts with every token and token c is removed from the entry for
// (a, b) only when the solver proves a?(x) ∧ b?(y) ∧ c?(x op y)
// unsatisfiable. An unknown keeps the token (it is marked undecided), so
// tables are sound whatever the solver answers, and as precise as it
// allows: for signs, NEG / NEG is {ZERO, POS} where Bandera's shipped table
// has all three tokens. To keep this cheap and decidable by a linear
// arithmetic solver:
//
//   - small candidate integers are combined concretely first; every token
//     they reach is kept with a witness and needs no query; an entry for
//     two tokens that stand for few integers (Token.Values) is decided by
//     trying every pair, without the solver;
//   - then one query asks for a result among the tokens not found yet,
//     again while its models bring new ones, so that an entry costs one
//     query more than the tokens it gains rather than one per token; only
//     an unknown falls back to eliminating the tokens one by one;
//   - multiplication, division and remainder by a token standing for few
//     integers become case splits over them (linear). A product u·v with u
//     bounded (lo ≤ u ≤ hi) is linear too, exactly: u = lo + Σ2ⁱbᵢ over
//     fresh Booleans and u·v = lo·v + Σ2ⁱ·ite(bᵢ, v, 0). That covers x·y
//     when either token is bounded, x / y and x % y when the divisor's
//     token is bounded or the dividend's is (the quotient q of
//     x = q·y + r then has |q| ≤ |x|), and, when both tokens are
//     unbounded, x·y and x / y of a bounded result token (x·y = p ≠ 0
//     gives |x| ≤ |p|). Otherwise, with two unbounded tokens, linear
//     relaxations are asked — signs and magnitudes, McCormick bounds from
//     the tokens' intervals, congruences modulo the divisors of the
//     conditions — and then the exact nonlinear query (z3 may decide it,
//     and the embedded solver's product lemmas may);
//   - conditions with remainders (n % 2 == 1) are decided by cases on the
//     residues of the variables modulo the least common multiple of the
//     divisors, which turns them into constants.
//
// Every kept token has a witness (Cell.Witness) or is undecided
// (Cell.Undecided); keeping an undecided token keeps the table sound. The
// library abstractions the tests name have no undecided token with the
// embedded solver (TestLibraryPrecise), and those TestZ3Agrees compares
// (more with BIRCH_LONG=1) are z3's tables entry by entry.
// Solver queries are bounded by steps, not time, so that tables are
// reproducible.
//
// # The library
//
// Library instantiates abstractions by name, compiling each once:
// concrete (the identity, without tokens), point (one token), signs,
// evenodd, range(l,u), set(v1,…,vn) and modulo(k). Library members are
// written as BASL (LibrarySource) and compiled like user specifications.
// Library.Add makes the abstractions of BASL files available by name.
//
// # Printing
//
// WriteText prints an abstraction for people and WriteJSON as
//
//	{"name": "signs", "tokens": ["NEG", "ZERO", "POS"],
//	 "operators": {"+": {"NEG,POS": ["NEG", "ZERO", "POS"], …}, "/": {"NEG,ZERO": ["error"], …}, …},
//	 "tests": {"<": {"NEG,NEG": [true, false], …}, …}}
package data
