// Package bp translates a BIR model into a SLAM boolean program (package
// internal/boolprog), so that Bebop's checker (internal/boolprog/bebop)
// can decide its assertions, and maps a trail of the boolean program back
// to the BIR model. It is the last step of `birch abstract --predicates P
// MODEL -o OUT.bp` and of `birch check --predicates` on one-thread models:
// predicate abstraction (internal/abstraction/predicate/c2bp) makes a BIR
// model whose data are booleans, this package makes it a boolean program.
//
// # The subset
//
// One thread, the main thread, never started; globals, locals and
// parameters of type boolean, or of a range or enum of at most MaxValues
// values (held as bits, finite.go); functions with such parameters and
// locals and such a result or none, recursion included. Guards and
// expressions over these variables and constants with !, &&, ||, ==, !=,
// the comparisons and + - * / %; assignments; `internChoose(true, false)`
// and `externChoose(…)`; assert, assume, call and return, exit, println
// (which is left out), live sets. Anything else (another thread, a
// collection, a variable of another type, locks, a properties section) is
// an error at its position, `file:line:col: message`. BIR's runtime
// errors on range values (a value out of its range, a zero divisor, an
// overflow) are assertions before the action that raises them, and a
// trail that ends in one maps to a schedule that ends in that error.
//
// # The translation
//
// Each location is a label, each transformation a label of its own; the
// location jumps to any of its transformations, and each transformation
// assumes its guard, runs its actions one statement each (BIR's actions
// are sequential, and so are the statements; each assignment assigns one
// variable), resets the variables dead at its target and jumps there:
//
//	void main() begin
//	    decl x;
//	    g, x := F, F;          // every variable starts at its BIR initial value
//	s0:
//	    goto s0_t0, s0_t1;
//	s0_t0:
//	    assume(!g);            // when !g do { x := internChoose(true, false); g := x; } goto s1;
//	    x := *;
//	    g := x;
//	    goto s1;
//	s0_t1:
//	    ...
//	s1:
//	    assume(F);             // a location without transformations: the thread ends
//	end
//
// The main thread is `main`; functions keep their names (a BIR name that
// is no plain identifier of the dialect, or one of its keywords, T or F,
// is written in braces: {T}, {a$b}; a function called main is {main}).
// A boolean program's variables start unconstrained, so the first
// statement of main gives the globals and main's variables their BIR
// initial values, and the first statement of a function its locals'
// (parameters are bound by the call); the variables dead at the first
// location are reset too, as BIR does on arrival. A call `x := call f(a)`
// is `x := f(a);` followed by the resets of the target and its goto; a
// `return e` is `return e;`. A choice among boolean values v1..vn is `*`
// for the constants true and false, and otherwise
// `schoose[v1 & … & vn, !v1 & … & !vn]`. exit is `assume(F)`: it ends the
// thread at once, and the actions after it in the step do not run (as in
// BIR, docs/semantics.md).
//
// # What the boolean program checks
//
// The assertions, and nothing else: a boolean program has no notion of
// deadlock (a BIR state where the thread is blocked is a path that stops),
// invariants or ltl properties (a model with a properties section is
// refused). BIR's bounds are not translated: bebop has no call-depth bound
// where BIR stops at 64 active calls, and no bound on invisible runs; an
// assertion that fails only beyond a bound of BIR fails in the boolean
// program and its schedule does not replay on the BIR model (Ordinals says
// at which step), and a pass of the boolean program does not say that no
// bound is reached. Output.Bounds says when one can be (a recursive
// function, a chain of 64 calls, a cycle of invisible transformations),
// and is "" when BIR's default bounds cannot be reached, so that the
// boolean program's verdict is birch check's.
//
// # From a trail back to BIR
//
// Map.Schedule reads a trail of the boolean program (each step's
// procedure, label and values) as BIR transformations: a step starts at
// the label of a transformation and ends at the next location label, with
// the BIR values there; a failing trail ends inside the transformation of
// its failing assertion (or of the action whose runtime error fails). Schedule.Groups gives each step's index in the
// compiled model's Groups, and Schedule.Ordinals replays the schedule on
// the compiled model and returns a BIR trail (ordinals), choosing at each
// state the outcome that reaches the trail's values:
//
//	out, err := bp.Translate(prog, bp.Config{})   // prog: the abstract BIR model
//	res := bebop.Check(out.Info, bebop.Config{})
//	if res.Outcome == bebop.Unsafe && res.Trail != nil {
//		tr := res.BoolprogResult(out.Fset).Trail
//		sc, err := out.Map.Schedule(tr, true)
//		// sc.Steps[i]: Proc, Location, Index, Transformation, After;
//		// sc.Steps[len-1].Fail: model.Assertion (or a runtime error of a
//		// range), .Assert: the failing action's index
//		mod, _ := model.New(prog, model.Options{})
//		groups, err := sc.Groups(mod)       // thread 0, one group per step
//		ords, err := sc.Ordinals(mod)       // a trail of prog (birch replay)
//	}
package bp
