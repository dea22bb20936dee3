// Package bebop is the symbolic checker of SLAM boolean programs: Bebop's
// interprocedural reachability (Ball and Rajamani; the C2bp paper's last
// stage) over BDDs from internal/bdd. It decides whether an assertion can
// fail in an execution from main, exactly, recursion included, and gives a
// trail when one can. boolprog.CheckExplicit decides the same question over
// explicit valuations; the two agree on every test program, generated or
// written by hand, and under fuzzing (agree_test.go, fuzz_test.go), and
// this one handles programs whose many variables the explicit one cannot
// enumerate.
//
// # The algorithm
//
// Each procedure is a control-flow graph (cfg.go): a node is the point
// before a statement; its end is a node too. A path edge of procedure p at
// node n is a pair (entry state, state): p can be entered with the globals
// and parameters of the entry state and reach n with the globals and
// variables of the state. A summary edge of p is a pair (globals and
// parameters at entry, globals and results at exit). Both are sets, kept
// as BDDs, one per node and one per procedure, grown to a fixpoint by a
// worklist of nodes with new path edges (check.go):
//
//   - a statement maps the new path edges of its node to its successors
//     (an assignment by a relational product and a renaming, assume, if and
//     while by a conjunction with the condition);
//   - a call adds entry path edges to the callee (its globals and formals,
//     its other locals unconstrained) and applies the callee's summary
//     edges to reach the return site;
//   - a return or the end turns path edges into summary edges, and each new
//     summary edge is applied at every call of the procedure.
//
// Since summaries relate entries to exits whatever the calling context, the
// fixpoint needs no bound on the call depth. A procedure that nothing calls
// (main, usually) needs no summary, so its path edges are plain sets of
// states: relating them to the entry state could cost exponentially more
// (TestManyVariables rotates 40 globals).
//
// # The encoding
//
// Every global and every local slot (procedure variables share the slots
// 0..k-1, parameters first, as boolprog.ProcInfo.Vars orders them) has four
// BDD variables, interleaved in the order: the entry copy E, the current
// copy C, the next copy N, and X, which carries a callee's formals at a
// call. Each `*` and each schoose of a statement has a choice variable,
// quantified away at once, so the occurrences choose independently.
// Summary edges of p relate C (globals and formals at entry, the formals in
// X) to N (globals and the results, in slots 0..k-1, at exit), which makes
// applying one at a call a relational product over C and X.
//
// # Trails
//
// Every addition of path edges or summary edges happens at a time; an edge
// added at time t follows, by one transfer function, from edges added
// before t. The trail (trail.go) is rebuilt backwards from the failing
// state, picking at each step a predecessor added strictly earlier: within
// a procedure down to its entry; across a call into the callee, whose
// summary edge came from an exit path edge added before it; and from a
// procedure's entry up to a call that entered it with those values, until
// main's initial states. Each step names the procedure, the statement, its
// label and the values of the globals and the procedure's variables.
//
// # Limits
//
// The BDD manager holds at most Config.MaxNodes nodes; a check that needs
// more stops and is inconclusive, as is one whose Config.Context ends. A
// violation found before a stop stays a violation.
package bebop
