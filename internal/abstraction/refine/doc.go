// Package refine is the refinement step of counterexample-guided
// predicate abstraction (SLAM's loop, issue 19): given an abstract trail
// that a predicate abstraction of a model found, it decides whether the
// trail is a real execution of the concrete model and, when it is not,
// finds new predicates that rule it out.
//
// It sits after the check of the abstract model (package
// abstraction/predicate/c2bp builds it, a search finds the trail, and
// package abstraction/data/feasible turns the trail into a Schedule of
// the concrete model) and before the next abstraction: the loop `birch
// check --cegar` abstracts again with the predicates it returns. It reads
// the type-checked concrete program (internal/bir/types) and its compiled
// model (internal/model, compiled with Options.ChoiceValues when the
// model has unbounded choices); it writes predicates in the form of a
// predicate file (docs/predicates.md), which predicate.ParseFile reads.
//
// # The path formula
//
// Build encodes a Schedule — for each step the thread instance and the
// concrete transformations it takes, and what the trail ends in — in
// static single assignment. Every write of a variable makes a new constant
// of the formula (`Main[1].i#4`), with its definition asserted, and so
// does every initial value (so that predicates can name a variable before
// its first assignment: `count <= 0` at the start); each thread instance
// has its own constants for its locals, the globals are shared, and the
// steps are encoded in the order of the schedule, so the formula follows
// its interleaving. A `start` adds a thread instance whose parameters are
// defined by the arguments. A call makes a new activation with its own
// constants for the function's parameters and locals (recursion included),
// and the return stores the result in the caller's variable and resumes at
// the call's goto target. Every choice is a fresh constant restricted to
// its domain: externChoose(int) and internChoose(int) to the 64-bit ints,
// a range form to its bounds, a listed form to its values, a range or enum
// type to its values. BIR's int is 64-bit: every +, -, * and unary - on it
// requires its result to be an int (an overflow is an error outcome), /
// and % require a divisor that is not zero, a store into a range variable
// requires its bounds; inside &&, || and -> those checks hold only when
// the right operand is evaluated. A store into a fixed-width location
// (int8 … uint64: a variable, element, field, parameter or a function's
// result) wraps instead: its new version is the conversion of the value,
// smtops.Wrap, the solver's mod by 2^N; + - * inside a conversion's
// operand have no overflow check (they compute modulo 2^64, which the
// exact value reduced modulo 2^N agrees with). The bitwise operators are
// encoded where smtops.Bitwise states them exactly (~, a shift by a
// constant, a mask of low or high bits); any other is unsupported. The
// printer writes the mod term of a conversion back as T(e) (a signed
// type's offset 2^(N-1) moved into the comparison's constant), so
// interpolants over it are predicates: int32(y + 1000) > 0.
//
// The constraints a step needs are Conjuncts, each gated by an activation
// literal: the guard, each assume, each choice's domain, and each check
// (an assertion holds, no overflow, …). On the last step of a schedule
// that ends in an error, the checks are not required: the Violation
// conjunct says that the first check to fail is one of the schedule's
// kind (an assumption after it is not reached). Who holds a global lock
// and which threads have terminated depend on the schedule only: Build
// follows lock and unlock step by step, and decides lockAvailable,
// hasLock and threadTerminated of a thread the path started as constants
// (a lock that another thread holds makes the step impossible). After a
// wait or a notify on a lock, which thread holds it depends on which
// waiting thread a notify woke, which the schedule does not record: its
// tests (and wasNotified) are then unconstrained booleans and its actions
// constrain nothing, a weaker formula (infeasible still means
// infeasible; a feasible answer is confirmed by Confirm's replay). The heap
// of records is one array per field name, from references to values
// (references are integers, null 0): `p.f` reads the current version of
// f's array at p and requires p != null, `p.f := e` makes a new version,
// and `new C` is a reference that no reference held before has, with its
// fields at their defaults (facts of the path). An array variable of
// scalars is an array of the formula too: `a[i]` requires i in bounds
// (an index out of bounds is an error a path may end in) and a write
// makes a new version. Data the formula does not encode — arrays of
// arrays or records, arrays in the heap, remote references —
// make Build return an *UnsupportedError with the construct's position,
// and the caller reports the refinement inconclusive.
//
// Decide asks the solver (internal/smt; the embedded one unless
// Config.Solver names another) with all the activation literals as
// assumptions. Satisfiable: the trail is real, and Decision.Inputs are the
// values of its choices; Confirm replays the schedule on the model
// compiled with them, keeping at each step the outcome whose state has
// the values the solver's model predicts, and returns the concrete trail
// (which `birch replay` takes). Unsatisfiable: a binary search over the
// prefixes (a prefix of a feasible prefix is feasible) finds the shortest
// infeasible one, Decision.Step, and Why says what of that step fails
// ("step 5: Main[1] at loop: the step does not end in assertion"). The
// solver's unsat core over the literals of that prefix, shrunk by
// deletion (chunks of half the core, a quarter, … single conjuncts; at
// most Config.MaxMinimize queries), is Decision.Core. Unknown: the
// solver could not decide (a product of two unknowns, for example: the
// embedded solver decides linear arithmetic).
//
// A Decision on a path that came from an abstraction is the refinement's
// question; the answer never claims more: a feasible path is confirmed by
// Confirm on the concrete model before it is reported, and an unknown
// one is inconclusive.
//
// # New predicates: two methods
//
// Newton (the SLAM paper, section 5 of
// ../shared/references/c2bp-automatic-predicate-abstraction-of-c.txt, and
// Ball and Rajamani's Newton report) computes the weakest precondition of
// the infeasible prefix's core backwards along the path: at each step the
// core conjuncts of the step are added and the step's definitions are
// substituted (WP of an assignment is substitution, of assume and a guard
// a conjunct), which leaves a formula over the state before the step. Its
// atoms — integer comparisons, normalized to a linear form, and boolean
// variables — are the predicates, each stated at that point: written with
// the names of the variables whose current versions it reads (and once
// more with the variables that still hold their initial values replaced
// by those values, which are predicates too: `count == 0`), in the
// scope of the one thread instance whose locals it reads (`[thread T]`),
// or global; the locals of a call give `[function f]`; a field read is
// written through the reference it reads (`curr.val > v`), and an atom
// over references only as `x == null` or `x == y`. An atom that reads a
// choice made later, or the locals of two threads or of two activations
// (a caller's k and its callee's n: a predicate is in the scope of one
// thread or function; c2bp's return predicates carry a caller's own
// predicates over a call's result across the return), cannot be stated
// and is dropped
// (Result.Dropped says so). A read of a written array or field is split
// by Morris' axiom, as package predicate's WP splits an aliased write:
// a[j] after a[i] := v is v when j == i and the old a[j] otherwise, and
// the two cases are atoms of their own. For the assignments and
// assumptions the formula encodes this is the weakest precondition
// predicate.WP writes, computed on the SSA terms rather than on BIR
// syntax so that the locals of two thread instances stay apart
// (predicate.WP names a thread's locals, one instance per scope).
//
// Newton's predicates are exact for the path and tied to it: on a loop
// they follow the iterations. For the loop that counts i up to an input
// n (examples/predicates/countbound.bir), the spurious trail that leaves
// the loop after three iterations with i != n gives
//
//	[thread Main] n == 3, n == i + 3, n == i + 2, n == i + 1, i < n, n == i, …
//
// and a trail with one more iteration adds n == i + 4: the refinement
// does not converge.
//
// Interpolation generalizes across iterations: McMillan's interpolants
// from linear-arithmetic proofs ("An interpolating theorem prover", TCS
// 2005; the Craig interpolants of lazy abstraction, Henzinger, Jhala,
// Majumdar and McMillan, POPL 2004). The infeasible prefix — the core
// and the definitions it reads — is split after each step j into A (the
// steps up to j) and B (the rest). Each case of its disjunctions (a
// disequality is two cases, < and >; at most Config.MaxCases) is a
// conjunction of linear constraints over the integers, tightened (x < y
// is x - y <= -1), which birch's simplex (internal/smt/lia) refutes; its
// Farkas coefficients (lia.FarkasProof) weigh the constraints into
// 0 <= k < 0, and the weighted sum of A's constraints alone is an
// inequality over the constants A and B share, which A implies and which
// contradicts B. Cases of a disjunction of A combine by or, of B by and.
// The interpolant after step j speaks of the state at that point only, so
// it holds there whatever the iteration: for the loop above it is
//
//	[thread Main] i <= n
//
// after every step, whatever the number of iterations: the invariant that
// proves the model. Interpolation gives up (Result.NoInterpolant) on a
// formula whose cases exceed the bound, on a case that is infeasible over
// the integers but not over the rationals (2x == 1), and on nonlinear
// constraints that are not read as one unknown; Newton's predicates are
// then all there is.
//
// So Newton finds the facts one path needs (equalities with constants,
// the comparisons of its guards carried back through its assignments) and
// interpolation the inequalities between variables that hold at each
// point of every unrolling (loop invariants such as i <= n). Result
// returns both; Predicates lists interpolation's first.
//
// # The first predicates
//
// Seed gives the predicates a loop starts from, as SLAM starts from the
// program's conditions: the comparisons of integers and references that
// the model's guards, assumptions, assertions and invariants make, in
// their scopes, a comparison and its negation once (`i >= n` is `i < n`).
// For the counting loop: `[thread Main] n < 0`, `i < n`, `i == n`.
//
// # Checking the predicates
//
// Path.Refutes checks that predicates rule the path out of a predicate
// abstraction: it computes the valuations of the predicates reachable
// along the path, each step decided exactly by the solver from a valuation
// before it (with nothing known of the data but the predicates and the
// domains of their types), and reports whether none survives the last
// step. Result.Choose uses it to pick the predicates of the next
// abstraction: interpolation's alone when, with the predicates the
// abstraction already has, they rule the path out (the loop then never
// sees Newton's iteration-bound ones), else the fresh ones of both
// methods (also when the existing predicates rule the path out exactly:
// the abstraction that found it is coarser, its cubes bounded); Fresh
// leaves out the predicates a file already holds. A `[function f]` predicate is
// evaluated on the innermost activation of f, and the values of the
// callers' predicates are not kept across a call (a boolean program would
// keep them on its stack), so Refutes may fail to refute a path through
// calls that a boolean program refutes, never the other way round. The
// tests use it on every set of new predicates.
package refine
