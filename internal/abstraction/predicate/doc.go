// Package predicate holds the pieces of birch's predicate abstraction (the
// C2bp construction of SLAM) that are about predicates themselves: the
// predicate file, which names the predicates, and the weakest precondition
// of a BIR step with respect to a predicate, the formula from which the
// abstraction computes a boolean program's statements, and the cube search
// that strengthens such a formula into one over the predicates (F and G of
// the paper).
//
// It sits among the passes of the pipeline (BIR -> boolean program); it
// reads a type-checked program (internal/bir/types) and produces syntax
// (internal/bir/ast), never states.
//
// # Predicate files
//
// A predicate file holds one BIR boolean expression per line. A `#` starts a
// comment that runs to the end of the line (BIR has no `#`), and blank lines
// are ignored. A line may start with a scope:
//
//	# the predicates of a list-partition model
//	g < N                         # globals only
//	[thread Main] curr == null    # Main's parameters and locals, and the globals
//	[thread Main] prev.v > v
//	[function inc] r == k + 1     # inc's parameters and locals, and the globals
//
// ParseFile parses each expression with BIR's own expression parser
// (parser.ParseExprAt, so positions point into the predicate file) and
// type-checks it in its scope against the model (types.Program.CheckExpr).
// A predicate may read record fields through references and array elements
// at any index, and may use `->` and `<->` as the model's predicates
// section may; it may not use location tests, remote references, lock and
// thread tests (the program counter, locks and threads stay concrete in a
// predicate abstraction) nor the model's own predicates. Every error is
// reported as "file:line:col: message", with the line and column of the
// predicate file, and ParseFile reports every bad line, not only the first.
//
// # Weakest preconditions
//
// WP.Actions(actions, φ) is the weakest (liberal) precondition of the
// actions of a transformation with respect to φ, as a BIR boolean
// expression over the state before the step; format.Expr prints it. BIR
// runs a transformation's actions in order, each seeing the effects of
// the ones before (docs/bir.md §12.1; BIR has no parallel assignment), so
// WP composes from the last action to the first. The guard is not part of
// it (the abstraction makes it assume(G(guard))). A step that ends in a
// runtime error or a limit has no state after it and WP claims nothing for
// it; the abstraction keeps those outcomes under their own conditions.
//
// An assignment lhs := e is Morris' general axiom of assignment, for every
// location BIR can write: each location a predicate reads (after its own
// parts are substituted) is compared with lhs. A variable is lhs when it is
// the same variable; `q.f` is `p.f` when q == p; `b[j]` is `a[i]` when a
// and b are the same array (the same reference, or the same value-array
// location) and j == i. A location that is lhs for sure becomes e, one that
// may be is split into the two cases, one that cannot be is left alone:
//
//	a[i] := 2            a[j] == g    =>  j == i && 2 == g || !(j == i) && a[j] == g
//	p.v := 2             q.v == 2     =>  q == p || !(q == p) && q.v == 2
//	p.next := q          p.next.next == null
//	                                  =>  q == p && q == null || !(q == p) && q.next == null
//
// BIR has no conditional expression, so a case split of a value, (j == i ?
// e : a[j]), rises to the nearest enclosing boolean expression and is
// written (c && φ1) || (!c && φ2); the cases of one expression exclude each
// other and cover every state, and the result is a plain BIR expression a
// solver or the model can evaluate. A case whose conditions contradict
// each other (q == p and !(q == p)) is dropped, and a condition a case
// needs twice is stated once. true and false are folded away, comparisons
// of two constants are decided, and -> and <-> are written with || and ==,
// so that a WP can stand in a guard or an action; nothing else is
// simplified. A WP has at most 1024 cases in one expression and 65536
// nodes: past that, Action gives up with an UnsupportedError.
//
// Aliasing is pruned by a type-based points-to analysis: two references
// can point to one object only when their reference types share a
// collection (so references to different record types, or to different
// collections of one type, never alias), null aliases nothing, fields of
// different names are different storage, two constant indices are equal
// or not, and two locations written alike are the same when their names
// denote the same variables (a local of another thread may have the name
// of one of the step's own).
//
// `lhs := new C` follows Table 1 of Abstract Pathfinder: the new object is
// different from every reference of the state before the step (`p == q`
// becomes false, `p != null` true), its fields and elements hold their
// types' defaults, its length is the `new C[len]` length, and
// `p instanceof T` is decided by C's type. `x := internChoose(v1, …)` is
// the conjunction over the values (stronger than the liberal precondition
// when a value may fail to be stored, which keeps the abstraction sound),
// and so is a range choice with constant bounds of at most 64 values; `assume(c)` and `assert(c)` give !c || φ;
// lock actions, println and exit change no data. An action whose new value
// is not an expression (a larger range choice, forall, reachable, start)
// leaves φ unchanged when φ reads nothing it may write, and has no
// WP otherwise (UnsupportedError): the abstraction then treats the
// predicate as unknown after the step, as C2bp does. The step of a call
// writes nothing of the caller's (the result comes with the return).
// After a checked conversion `b := x`, x of a supertype, a read `b.f` of a
// field of the subtype only would become `x.f`, which BIR cannot write
// without a cast: there is no WP then either.
//
// WP.Changes says whether a step may change a predicate at all (whether
// one of its actions may write a location the predicate reads, by the same
// alias analysis): the predicates a step cannot change keep their boolean
// variables, with no WP and no solver query.
//
// A predicate in the scope of a thread reads the locals of the thread
// instance that takes the step; relating it to the locals of other
// instances is the abstraction's business, not WP's.
//
// The tests check WP against birch's own semantics: for every case of
// testdata/wp.cases, in random states of a small model (internal/model),
// WP before the step agrees with the predicate after it.
//
// # Cubes: F and G
//
// A cube is a conjunction of predicates and negated predicates, each
// predicate at most once. Cubes.F(φ) is the largest disjunction of cubes
// that each imply φ, the strongest formula over the predicates that
// implies φ: it under-approximates φ. Cubes.G(φ) = ¬F(¬φ) is the weakest
// formula over the predicates that φ implies: it over-approximates φ. The
// abstraction writes a guard g as assume(G(g)) and chooses a predicate's
// new value between F(WP(φ)) and F(WP(¬φ)).
//
// Cubes works on solver terms (internal/smt) of one TermManager: the
// predicates and φ are formulas, and each question "does cube c imply φ"
// is the query c ∧ ¬φ to the solver (smt.Implies), implying only when the
// answer is unsat. An unknown answer or a failure of the solver counts as
// "does not imply", so F stays an under-approximation (and G an
// over-approximation) whatever the solver can decide; Err returns the
// first failure.
//
// An Encoder translates type-checked BIR boolean expressions (predicates,
// and WPs once WP.Record has added the types of WP's own nodes to the
// program's Info, or their text is checked again with
// types.Program.CheckExpr) into those terms:
// each variable is a constant, booleans are Bool, integers, ranges, enum
// ordinals and references (null as 0) are Int, an array variable is an SMT
// array, a field read through a reference selects in one array per field
// name indexed by the reference, and / and % are BIR's truncating
// division. Formula asserts no domain (a range variable may take any
// integer), so the solver proves fewer implications than exist, never
// more; FormulaDomain returns with the formula the facts BIR's types
// guarantee of what it reads (an int in [-2^63, 2^63-1], a range in its
// bounds, an enum among its ordinals, a reference not negative), under
// which a query proves, say, that x < n keeps x + 1 from overflowing. It does
// not model BIR's runtime errors inside a formula (overflow of int, a field
// of null, an index out of bounds, a zero divisor: the term then has some
// value); the abstraction keeps those outcomes under their own conditions.
// Array fields, arrays through references, x.length and instanceof are
// errors: the formula is then unknown to the abstraction.
//
// FOver is F over a subset of the predicates: the abstraction asks only
// about those that share a variable with φ (C2bp's cone of influence). Stop
// ends a search early with the cubes found so far.
//
// F follows C2bp's optimizations: cubes are considered by increasing
// length, up to MaxLen literals (DefaultCubeLength, 3, unless set; a
// shorter bound gives a weaker F with fewer queries, never an unsound
// one). A cube that implies φ is asked once more whether it is
// satisfiable (whether it implies false): an unsatisfiable cube is left
// out of F. A cube that extends an implicant or an unsatisfiable cube is
// not asked about at all (its presence adds nothing to F), so the cubes of
// F are prime implicants within the bound. NoPrune turns that pruning off
// for measurements; F is the same.
//
// Answers are cached, keyed by the canonical cube (its literals sorted by
// predicate) and φ's SMT-LIB text; only decided answers are cached. The
// satisfiability questions share one key (φ = false) across formulas.
// Stats counts the queries, the cache hits, the unknown answers and the
// wall-clock time spent in the solver.
//
// The tests of F and G check, on integer predicates, that F(φ) implies φ
// and φ implies G(φ) (by the solver and by evaluation), that with the
// bound at the number of predicates every satisfiable cube implying φ
// implies F(φ), and that undecided answers never enter F.
package predicate
