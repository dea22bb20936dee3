package apf

import (
	"testing"

	"birch/internal/smt"
)

// Two functions' locals of one name at one depth of one thread, an int
// and a range, are two locations: the range's bounds are no fact of the
// int. (Both had the solver constant apf!x@0.1, whose domain fact was the
// last one made: after f's, g's x := 302 was "not > 300" and the
// assertion failure was lost: a wrong pass.)
func TestRuntimeSameNameLocals(t *testing.T) {
	run := runE2E(t, e2eCase{name: "locals", src: `system Locals ()
function g (first : boolean)
  x : int;
  loc s: when true do { x := internChoose(299 .. 302); } goto t;
  loc t:
    when x > 300 && !first do { assert(false); } goto u;
    when x <= 300 || first do { } goto u;
  loc u: when true do { } return;
end g;
function f ()
  x : range 0 .. 300;
  loc t:
    when x > 5 do { } goto u;
    when x <= 5 do { } goto u;
  loc u: when true do { } return;
end f;
main thread Main ()
  loc a: when true do { call g(true); } goto b;
  loc b: when true do { call f(); } goto c;
  loc c: when true do { call g(false); } goto d;
  loc d:
end Main;
end Locals;
`, preds: "[function g] x > 300\n"})
	if !run.apf.errs["assertion"] {
		t.Errorf("errors %v, want the assertion's failure", run.apf.errs)
	}
}

// A global named like the runtime's fresh choice values is not one of
// them: y := internChoose(0 .. 10) is not 7 because choice0 is. (The
// global's solver constant was apf!choice0, the choice's too: y == 7 was
// decided true and the assertion passed.)
func TestRuntimeGlobalNamedLikeChoice(t *testing.T) {
	run := runE2E(t, e2eCase{name: "choice", src: `system Choice ()
choice0 : int := 7;
main thread Main ()
  y : int;
  loc a: when choice0 == 7 do { y := internChoose(0 .. 10); } goto b;
  loc b: when true do { assert(y == 7); } goto d;
  loc d:
end Main;
end Choice;
`, preds: "choice0 == 7\n[thread Main] y == 7\n"})
	if !run.apf.errs["assertion"] {
		t.Errorf("errors %v, want the assertion's failure", run.apf.errs)
	}
}

// A function's result is checked against its result type, an abstracted
// range, at the return, whatever the caller's left-hand side (an int, or
// none): the model reports the range error there. (The runtime kept the
// result's term for the caller and checked only the left-hand side's
// type: both errors were missed, a wrong pass.)
func TestRuntimeResultRangeChecked(t *testing.T) {
	for _, call := range []string{"r := call f(n)", "call f(n)"} {
		run := runE2E(t, e2eCase{name: "res", src: `system Res ()
function f (k : int) : range 0 .. 1000
  loc s: when true do { } return k;
end f;
main thread Main ()
  n, r : int;
  loc a: when true do { n := internChoose(999 .. 1001); } goto b;
  loc b: when true do { ` + call + `; } goto c;
  loc c:
end Main;
end Res;
`, preds: "[thread Main] n > 1000\n"})
		if !run.apf.errs["range"] {
			t.Errorf("%s: errors %v, want the result's range error", call, run.apf.errs)
		}
	}
}

// An error certain in the right operand of && or || happens only where
// the left operand lets the evaluation get there: with the left operand
// undecided, the run also goes on where it does not (b := false; the guard
// true). (The error was certain: the states at c and d were lost.)
func TestRuntimeErrorUnderShortCircuit(t *testing.T) {
	run := runE2E(t, e2eCase{name: "conds", src: `system Conds ()
Cell = record { v : int; };
Cells : collection [1] of Cell;
CellRef = ref Cell {Cells};
p : CellRef;
x : int;
b : boolean;
main thread Main ()
  loc a: when true do { x := internChoose(0 .. 1); } goto a1;
  loc a1: when true do { b := x > 0 && p.v > 0; } goto c;
  loc c: when x <= 0 || p.v > 0 do { } goto d;
  loc d:
end Main;
end Conds;
`, preds: "x > 0\n"})
	if len(run.apf.at("Main@d")) == 0 {
		t.Errorf("no on-the-fly state at d")
	}
}

// A reference that is null wherever it is read (cs[g0], both elements
// null) dereferenced under an undecided left operand of ||: the error
// where the left operand is false, the guard true (and b := true) where
// it is true. (The null dereference was a possible one, and where the run
// went on no object was left: the guard's value was undefined and taken
// as false, the assignment was skipped, b kept false: the error and the
// state at c were lost, a wrong pass.)
func TestRuntimeNullEverywhereUnderShortCircuit(t *testing.T) {
	for _, c := range []struct{ guard, act string }{
		{"x <= 0 || cs[g0].v > 0", ""},
		{"true", "b := x <= 0 || cs[g0].v > 0;"},
	} {
		t.Run(c.guard, func(t *testing.T) {
			run := runE2E(t, e2eCase{name: "nl", src: `system Nl ()
Cell = record { v : int; };
Cells : collection [1] of Cell;
CellRef = ref Cell {Cells};
cs : array [2] of CellRef;
g0, x : int;
b : boolean;
main thread Main ()
  loc a: when true do { x := internChoose(0 .. 1); } goto l;
  loc l: when ` + c.guard + ` do { ` + c.act + ` } goto m;
  loc m: when b do { } goto n;
  loc n:
end Main;
end Nl;
`, preds: "g0 == 0\n"})
			if !run.apf.errs["null-dereference"] {
				t.Errorf("errors %v, want a null dereference", run.apf.errs)
			}
		})
	}
}

// undecidedOnce is a solver whose first check is undecided (a query that
// hits the solver's limit once and not the next time).
type undecidedOnce struct {
	smt.Solver
	left int
}

func (s *undecidedOnce) Check() (smt.Result, error) {
	if s.left > 0 {
		s.left--
		return smt.Unknown, nil
	}
	return s.Solver.Check()
}

// A question the solver could not decide stays undecided for the
// runtime's life, also after its memo of answers is emptied (when full):
// the model runs a transformation again for each alternative of its
// choices, and the runtime's choice points (their number and their
// counts) must be the same each time. (The emptied memo let the solver
// decide the question the second time: a choice point could vanish or
// change its count between the alternatives, and the model's choice
// vector then skip alternatives.)
func TestRuntimeUndecidedStaysUndecided(t *testing.T) {
	r, err := newSolving(Config{})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	tm := r.tm
	r.cache = smt.NewCache(&undecidedOnce{Solver: r.solver, left: 1})
	a := tm.Const("a", smt.IntSort)
	hyp, goal := tm.Lt(a, tm.Int(0)), tm.Lt(a, tm.Int(1))
	first := r.valid(hyp, goal)
	clear(r.answers) // as valid does when the memo is full
	if second := r.valid(hyp, goal); second != first {
		t.Errorf("the question answered %v, then %v", first, second)
	}
}
