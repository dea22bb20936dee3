// Package smt is birch's language for asking decision procedures questions:
// sorts, hash-consed terms, models, the Solver interface every decision
// procedure implements, and SMT-LIB2 printing. It sits beside the pipeline,
// not in it. Two parts of birch build terms here and ask a Solver about
// them: data abstraction (package abstraction/data: the compilation of
// abstraction functions, the synthesis of abstract operators, tests and
// coercions, and the exact decisions of the abstract model generator,
// data.Decide) and the symbolic replay of abstract trails (package
// abstraction/data/feasible). Predicate abstraction, for which Cache and
// gen.PredAbs are shaped, is planned, not built; birch smt exposes the
// solvers on SMT-LIB2 scripts.
//
// # Terms
//
// A TermManager owns terms. Every constructor interns its result, so two
// terms built from the same operator, sort, symbol and arguments are the
// same pointer: == is structural equality and *Term is a good map key,
// which is what the query cache (Cache) relies on. Constructors check
// sorts and panic on ill-sorted input, which is a bug in the caller; input
// from users (SMT-LIB2 scripts) is checked by package smt/smtlib before any
// term is built. There is no global state: each manager is independent and
// terms of different managers must not meet.
//
// The sorts are Bool, Int (the mathematical integers; literals of any size,
// stored as int64 when they fit and as math/big otherwise), arrays
// (Array I E) — used as (Array Int Int) and (Array Int Bool) — and
// uninterpreted sorts. Constants are declared symbols of arity 0, functions
// are declared symbols of higher arity (Declare, Const, Apply).
//
// Each operator prints in SMT-LIB2 syntax (Term.String prints a tree,
// Fprint binds shared subterms with let). Example printed forms:
//
//	true  false  42  (- 42)  x  |a b|       literals and constants
//	(f x y)                                 uninterpreted function application
//	(not p)  (and p q r)  (or p q)          n-ary and, or
//	(xor p q)  (=> p q)  (= x y)  (distinct x y z)  (ite p x y)
//	(- x)  (+ x y 1)  (- x y)  (* 3 x)      n-ary + and -; * is linear with one non-literal factor
//	(div x 3)  (mod x 3)  (abs x)           Euclidean: x = 3·(div x 3) + (mod x 3), 0 ≤ mod < 3
//	(< x y)  (<= x y)  (> x y)  (>= x y)
//	(select a i)  (store a i v)
//	((as const (Array Int Int)) 0)          the constant array, in models
//	(as @U_3 U)                             an abstract value of sort U, in models
//	x!0                                     parameter 0 of a function body (define-fun, models)
//
// BIR, Java and C divide by truncation; TDiv and TRem express their / and %
// with Euclidean div and mod:
//
//	a / b  =  (ite (>= a 0) (div a b) (- (div (- a) b)))
//	a % b  =  (ite (>= a 0) (mod a b) (- (mod (- a) b)))
//
// Division by zero is, as in SMT-LIB, a total but unspecified function:
// Eval reports ErrUndefined for it and Simplify leaves it alone.
//
// # Rewriting
//
// Substitute replaces terms simultaneously (a weakest precondition of x := e
// is Substitute(post, {x: e})); SubstituteBound instantiates a function
// body. Simplify folds constants, flattens, sorts the arguments of
// commutative operators, writes arithmetic as linear combinations and
// comparisons as (<= Σcᵢxᵢ k) or (= Σcᵢxᵢ k) with the gcd divided out:
//
//	(< x y)            simplifies to  (<= (+ x (* (- 1) y)) (- 1))
//	(and p (and q p))  simplifies to  (and p q)
//
// # Models
//
// A Model maps constants to values and functions to tables with a default
// (FuncValue). Values are canonical literals — arrays are a const array
// under stores at increasing indices — so equal values are equal pointers.
// Model.Eval evaluates any term, completing the model with default values;
// Model.String prints what get-model prints:
//
//	(
//	  (define-fun x () Int (- 7))
//	  (define-fun f ((x!0 Int)) Int (ite (= x!0 (- 7)) 100 1))
//	  (define-fun A () (Array Int Int) (store ((as const (Array Int Int)) 5) 1 9))
//	)
//
// # Solvers
//
// Solver (solver.go) is the one interface between birch and decision
// procedures: Assert, Push, Pop, Check, CheckAssumptions, Model, UnsatCore,
// SetLimit, Close. Its contract is that answers are never wrong — what a
// solver cannot decide is Unknown. Valid and Implies are the questions
// predicate abstraction asks; Cache memoizes them by canonical term (both
// wait for predicate abstraction: today only tests and benchmarks use
// them). The
// implementations live in subpackages: smt/embedded (the pure-Go default),
// smt/process (z3 and cvc5 over pipes); smt/solvers constructs one by name;
// smt/smtlib reads SMT-LIB2 scripts; smt/gen generates random formulas for
// differential testing.
package smt
