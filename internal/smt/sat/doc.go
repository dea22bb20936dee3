// Package sat is a conflict-driven clause-learning (CDCL) SAT solver, the
// propositional core of birch's embedded SMT solver (internal/smt/embedded).
//
// It sits below the theory solvers: the embedded solver Tseitin-encodes the
// boolean structure of a query into clauses over Vars, marks the variables
// that stand for theory atoms (linear constraints, equalities), and plugs a
// Theory into the search (DPLL(T)).
//
// # The search
//
// The solver is MiniSat-shaped: two watched literals per clause (binary
// clauses keep the other literal in the watcher and never touch the clause
// arena), first-UIP conflict analysis with recursive clause minimization,
// VSIDS variable activities kept in a binary heap, phase saving, Luby
// restarts, and periodic deletion of learnt clauses ranked by literal block
// distance (LBD) and activity. Clauses live in one arena of int32 words,
// compacted when a fifth of it is garbage.
//
// # Incremental use
//
// Clauses may be added between calls to Solve. Solve takes assumptions:
// literals assumed true for that call only. When the answer is Unsat under
// assumptions, Core gives a subset of them that is already unsatisfiable
// with the clauses (the final conflict). Push/Pop of an SMT solver is built
// on this with activation literals: a clause c asserted in a scope is added
// as (¬a ∨ c), a is assumed while the scope is open, and popping adds the
// unit ¬a.
//
// A conflict budget (SetConflictBudget) bounds one call; when it runs out,
// Solve answers Unknown. Answers Sat and Unsat are never wrong.
//
// # Theories
//
// A Theory is told, in trail order, of every assigned literal whose
// variable was marked with SetTheoryVar; it is asked to Check the current
// assignment after each propagation fixpoint (once all assumptions are
// placed: they take one decision level each, and the theory checks them
// together) and, with final set, when the assignment is total. It answers with a conflict clause (all literals
// false), or by calling Imply, AddLemma or Abort on the solver while it
// checks, and it is told to Backtrack when the solver undoes assignments.
//
//	s := sat.New()
//	x, y := s.NewVar(), s.NewVar()
//	s.AddClause(sat.Pos(x), sat.Pos(y))
//	s.AddClause(sat.Neg(x))
//	if s.Solve(nil) == sat.Sat {
//		fmt.Println(s.ModelValue(y)) // true
//	}
package sat
