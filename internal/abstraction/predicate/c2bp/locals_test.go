package c2bp

import (
	"strings"
	"testing"

	"birch/internal/model"
	"birch/internal/search"
)

// TestLocalArrayReset: a predicate over a local value array sees the
// array take its initial value at a call's entry and its default where it
// is dead on arrival. The abstraction left the array out of both (only
// scalars were assigned), so the callee's predicate took the value of the
// calling activation's array, and a reset array kept its old value: each
// model fails concretely and its abstraction passed. With the elements
// reset, the variants that assert the array's zeros pass.
func TestLocalArrayReset(t *testing.T) {
	recursion := `system S ()
A = array [LEN] of int;
function f (d : range 0..2)
  arr : A;
  loc f0:
    when d > 0 do { arr[0] := 5; } goto f1;
    when d == 0 do { assert(COND); } return;
  loc f1:
    when true do { call f(d - 1); } goto f2;
  loc f2:
    when true do { } return;
end f;
main thread M ()
  loc s0:
    when true do { call f(1); } goto s1;
  loc s1:
end M;
end S;
`
	dead := `system S ()
A = array [LEN] of int;
main thread M ()
  arr : A;
  loc s0:
    when true do { arr[0] := 5; } goto s1;
  loc s1: live { }
    when true do { } goto s2;
  loc s2:
    when true do { assert(COND); } goto s3;
  loc s3:
end M;
end S;
`
	for _, c := range []struct {
		name, model, preds string
	}{
		{"a recursive call's fresh array", recursion, "[function f] arr[0] == 0\n"},
		{"a dead array reset on arrival", dead, "[thread M] arr[0] == 0\n"},
	} {
		for _, v := range []struct {
			len, cond string
			fail      bool
		}{
			{"2", "arr[0] != 0", true}, {"2", "arr[0] == 0", false},
			// too long to reset element by element: the predicate is
			// unknown after the reset
			{"100", "arr[0] != 0", true},
		} {
			t.Run(c.name+": "+v.len+": "+v.cond, func(t *testing.T) {
				src := strings.NewReplacer("COND", v.cond, "LEN", v.len).Replace(c.model)
				out, err := abstractSource(t, src, c.preds)
				if err != nil {
					t.Fatal(err)
				}
				wantAssertion(t, out, v.fail)
			})
		}
	}
}

// wantAssertion checks the abstract model's verdict: an assertion failure
// (in the concrete model's terms) when fail, else a pass.
func wantAssertion(t *testing.T, out *Output, fail bool) {
	t.Helper()
	res := explore(t, out.Program)
	switch {
	case fail && res.Verdict != search.Fail:
		t.Fatalf("%v (%s), want a failure\n%s", res.Verdict, res.Reason, out.Source)
	case fail:
		if got := concreteKind(t, out, res); got != model.Assertion.String() {
			t.Errorf("fails as %s, want an assertion\n%s", got, out.Source)
		}
	case res.Verdict != search.Pass:
		t.Errorf("%v (%s), want a pass\n%s", res.Verdict, res.Reason, out.Source)
	}
}

// TestStartSameName: a predicate keeps its value without queries only when
// its weakest precondition is the predicate itself, variable for variable.
// The start of W(t) by a thread with a local t gives [thread W] t > 0 the
// precondition t > 0 over the starter's t, the same text: the predicate
// kept its old value (false), and W's assertion t <= 0 passed though Main
// passes a positive t.
func TestStartSameName(t *testing.T) {
	src := `system S ()
thread W (t : int)
  loc w0:
    when true do { assert(COND); } goto w1;
  loc w1:
end W;
main thread M ()
  t : int;
  loc s0:
    when true do { t := externChoose(int); assume(t > 0); } goto s1;
  loc s1:
    when true do { start W(t); } goto s2;
  loc s2:
end M;
end S;
`
	for _, c := range []struct {
		cond string
		fail bool
	}{{"t <= 0", true}, {"t > 0", false}} {
		t.Run(c.cond, func(t *testing.T) {
			out, err := abstractSource(t, strings.Replace(src, "COND", c.cond, 1), "[thread W] t > 0\n[thread M] t > 0\n")
			if err != nil {
				t.Fatal(err)
			}
			wantAssertion(t, out, c.fail)
		})
	}
}

// TestRecursiveArguments: a recursive call's arguments read the caller's
// parameters, which are the callee's variables too, and the callee's
// [function f] predicates are the preconditions of the parameters'
// assignments taken at once. Taken one after the other in the order of
// the parameters, f(5, a) gave the callee's b the value 5 (a := 5 came
// after b := a in the weakest precondition) and f(b, a) gave it the
// caller's b: the assertion b > 0 passed though the callee's b is -1.
func TestRecursiveArguments(t *testing.T) {
	src := `system S ()
function f (a : int, b : int, d : range 0..1)
  loc f0:
    when d > 0 do { call f(ARGS, d - 1); } goto f1;
    when d == 0 do { assert(COND); } return;
  loc f1:
    when true do { } return;
end f;
main thread M ()
  loc s0:
    when true do { call f(0 - 1, 7, 1); } goto s1;
  loc s1:
end M;
end S;
`
	for _, c := range []struct {
		args, cond string
		fail       bool
	}{
		{"b, a", "b > 0", true},
		{"5, a", "b > 0", true},
		{"5, a", "a > 0", false},
		{"b, b", "a > 0 && b > 0", false},
	} {
		t.Run("f("+c.args+"): "+c.cond, func(t *testing.T) {
			out, err := abstractSource(t, strings.NewReplacer("ARGS", c.args, "COND", c.cond).Replace(src), "[function f] a > 0\n[function f] b > 0\n")
			if err != nil {
				t.Fatal(err)
			}
			wantAssertion(t, out, c.fail)
		})
	}
}

// TestOtherThreadsNames: a step of W that writes through its own local p,
// or at its own index i, updates Main's predicates over Main's p and i,
// locals of the same names. The weakest preconditions took two
// references, or two indices, written alike for the same location, so
// W's write made Main's p.val > 0 and a[i] > 0 true: wrong passes.
func TestOtherThreadsNames(t *testing.T) {
	for _, c := range []struct{ name, src, preds string }{
		{"field", `system S ()
Cell = record { val : int; };
CellRef = ref Cell {Cells};
Cells : collection [2] of Cell;
done : boolean;
thread W ()
  p : CellRef;
  loc w0:
    when true do { p := new Cells; p.val := 5; done := true; } goto w1;
  loc w1:
end W;
main thread M ()
  p : CellRef;
  loc s0:
    when true do { p := new Cells; p.val := 0 - 1; start W(); } goto s1;
  loc s1:
    when done do { assert(p.val > 0); } goto s2;
  loc s2:
end M;
end S;
`, "[thread M] p.val > 0\n[thread M] p != null\n"},
		{"index", `system S ()
A = array [2] of int;
a : A;
done : boolean;
thread W ()
  i : range 0..1;
  loc w0:
    when true do { i := 1; a[i] := 5; done := true; } goto w1;
  loc w1:
end W;
main thread M ()
  i : range 0..1;
  loc s0:
    when true do { i := 0; a[0] := 0 - 1; start W(); } goto s1;
  loc s1:
    when done do { assert(a[i] > 0); } goto s2;
  loc s2:
end M;
end S;
`, "[thread M] a[i] > 0\n"},
	} {
		t.Run(c.name, func(t *testing.T) {
			out, err := abstractSource(t, c.src, c.preds)
			if err != nil {
				t.Fatal(err)
			}
			wantAssertion(t, out, true)
		})
	}
}
