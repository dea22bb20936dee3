// Package boolprog reads, prints and checks SLAM boolean programs: the
// programs that predicate abstraction (C2bp) produces and that Bebop checks.
//
// A boolean program has C's control structure and only boolean variables.
// Each variable stands for a predicate of the abstracted program, so names
// may be braced strings such as `{curr == NULL}`. Globals are declared first,
// then procedures follow; `main` is where executions start, with every
// variable unconstrained:
//
//	decl g;
//
//	bool<2> swap(a, b) begin
//	    return b, a;
//	end
//
//	void main() begin
//	    decl x, y;
//	    enforce !(x & y);
//	    x, y := T, *;
//	    x, y := swap(x, y);
//	L:  if (*) then
//	        goto L;
//	    elsif (x) then
//	        g := schoose[x, y];
//	    fi
//	    assert(!x | !y);
//	end
//
// The dialect is the one shared by the public boolean-program tools
// (Bebop, getafix, bp-reduce): `decl` lists, `void`, `bool` and `bool<k>`
// procedures returning k values, call-by-value parameters, locals, an
// optional `enforce e;` invariant per procedure (as if `assume(e)` stood
// before every statement of it), `skip`, parallel assignment, calls with
// results, `assume`, `assert`, `goto L1, L2` (to any one of the labels),
// `if`/`elsif`/`else`/`fi`, `while`/`do`/`od` and `return`. Expressions use
// `!` (or `~`), `&` (`&&`), `|` (`||`), `^`, `=`, `!=` and `=>`, the
// constants T, F, 1 and 0, `*` (or `?`) for an arbitrary value and
// `schoose[t, f]` (true if t holds, else false if f holds, else either).
// Binding from loosest to tightest: `=>`, `|`, `^`, `&`, `=` and `!=`, then
// `!`; every binary operator is left-associative, `=>` included, as in the
// getafix grammar. birch also accepts `*` and `schoose` inside larger
// expressions, each occurrence choosing on its own.
//
// Parse builds the syntax tree (ast.go; node sets are closed) and reports
// syntax errors as `file:line:col: message`, stopping after MaxErrors.
// Fprint prints a tree back in the same dialect; parsing the output gives the
// same tree. Resolve checks names and arities and records its results in
// side tables (Info): the variable of every name, the callee of every call,
// the label of every goto target.
//
// CheckExplicit decides whether an assertion can fail in an execution from
// main, as Bebop does, with the summary-based interprocedural reachability
// of Reps, Horwitz and Sagiv, here over explicit valuations of the variables
// in scope (cfg.go builds a control-flow graph per procedure, explicit.go
// tabulates path edges and summaries): exact under recursion, bounded in the
// states it stores (beyond the bound the answer is Inconclusive, never a
// guess), with a trail on failure rebuilt from the summaries (trail.go).
// A failing check prints, with WriteTrail:
//
//	t.bp:13:5: main p, q := set(T, F); [x=0 y=0 p=0 q=0]
//	t.bp:5:5: set assert(!(a & b & x)); [x=0 y=0 a=1 b=0]
//	t.bp:6:5: set x := a | x; [x=0 y=0 a=1 b=0]
//	...
//
// The tests check CheckExplicit against an independent collecting
// semantics of the tree on random programs without recursion
// (oracle_test.go). The symbolic (BDD) checker works on the same tree.
package boolprog
