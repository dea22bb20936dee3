package refine

import (
	"context"
	"errors"
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"

	"birch/internal/abstraction/data/feasible"
	"birch/internal/abstraction/predicate"
	"birch/internal/bir/parser"
	"birch/internal/bir/types"
	"birch/internal/model"
	"birch/internal/search"
	"birch/internal/smt"
	"birch/internal/source"
)

// compile checks src and compiles it with no values for its unbounded
// choices (their transformations are there; their values come later).
func compile(t *testing.T, src string) (*types.Program, *model.Model) {
	t.Helper()
	fset := source.NewFileSet()
	f, err := parser.ParseFile(fset, "m.bir", []byte(src), 0)
	if err != nil {
		t.Fatal(err)
	}
	prog, err := types.Check(fset, f, nil)
	if err != nil {
		t.Fatal(err)
	}
	m, err := model.New(prog, model.Options{ChoiceValues: []int64{}})
	if err != nil {
		t.Fatal(err)
	}
	return prog, m
}

// step names a step: the thread instance (0-based pool index) and the
// transformation by thread, location and index in the location.
type step struct {
	thread int
	proc   string
	loc    string
	t      int
}

func schedule(t *testing.T, m *model.Model, end feasible.End, steps ...step) feasible.Schedule {
	t.Helper()
	sc := feasible.Schedule{End: end}
	for _, st := range steps {
		found := -1
		for i, g := range m.Groups() {
			if g.Proc.Name() == st.proc && g.From.Name() == st.loc && g.From.Decl.Transformations[st.t] == g.Decl {
				found = i
			}
		}
		if found < 0 {
			t.Fatalf("no transformation %d of %s at %s", st.t, st.proc, st.loc)
		}
		sc.Steps = append(sc.Steps, feasible.Step{Thread: st.thread, Groups: []int{found}})
	}
	return sc
}

var assertion = feasible.End{Kind: feasible.EndError, Error: model.Assertion}

func parsePreds(t *testing.T, prog *types.Program, preds []Predicate) []*predicate.Predicate {
	t.Helper()
	text := FileText(preds)
	f, err := predicate.ParseFile(prog, "new.pred", []byte(text))
	if err != nil {
		t.Fatalf("the new predicates do not parse back:\n%s\n%v", text, err)
	}
	if len(f.Predicates) != len(preds) {
		t.Fatalf("%d predicates parsed back, want %d", len(f.Predicates), len(preds))
	}
	return f.Predicates
}

// replayEndsIn checks that trail, replayed on m, ends in an error of kind k.
func replayEndsIn(t *testing.T, m *model.Model, trail []int, k model.ErrorKind) {
	t.Helper()
	_, steps, err := search.Replay(m, trail)
	if err != nil {
		t.Fatal(err)
	}
	last := steps[len(steps)-1].Step
	if last.Outcome == model.OK || last.Kind != k {
		t.Fatalf("the replayed trail ends in %v %v, want %v", last.Outcome, last.Kind, k)
	}
}

const inputs = `system In ()
  x : int;
  y : int;
  r : range 0..9;
  main thread M ()
    loc s0: when true do { x := externChoose(int); } goto s1;
    loc s1: when x > 10 do { y := x * 2; } goto s2;
    loc s2: when true do { LAST } goto s3;
    loc s3: when true do { } goto s3;
  end M;
end In;
`

// A feasible path gives input values with which the concrete model
// replays the schedule into its violation: an assertion, an overflow.
func TestFeasibleInputsReplay(t *testing.T) {
	for _, tc := range []struct {
		last string
		end  model.ErrorKind
		want func(x int64) bool
	}{
		{"assert(y != 42);", model.Assertion, func(x int64) bool { return x == 21 }},
		{"y := y + x;", model.Overflow, func(x int64) bool { return x > (1<<63-1)/3 && x <= (1<<63-1)/2 }},
		{"r := x - 20;", model.RangeError, func(x int64) bool { return x < 20 || x > 29 }},
	} {
		prog, m := compile(t, strings.Replace(inputs, "LAST", tc.last, 1))
		end := feasible.End{Kind: feasible.EndError, Error: tc.end}
		sc := schedule(t, m, end, step{0, "M", "s0", 0}, step{0, "M", "s1", 0}, step{0, "M", "s2", 0})
		r, err := Refine(m, sc, Config{})
		if err != nil {
			t.Fatal(err)
		}
		if r.Status != Feasible || len(r.Inputs) != 1 || !tc.want(r.Inputs[0].Value) {
			t.Fatalf("%s: %v inputs %v (%s)", tc.last, r.Status, r.Inputs, r.Reason)
		}
		trail, err := r.Path.Confirm(r.Decision, func(vals []int64) (*model.Model, error) {
			return model.New(prog, model.Options{ChoiceValues: vals})
		})
		if err != nil {
			t.Fatalf("%s: %v", tc.last, err)
		}
		cm, _ := model.New(prog, model.Options{ChoiceValues: []int64{r.Inputs[0].Value}})
		replayEndsIn(t, cm, trail, tc.end)
	}
}

const countbound = `system CountBound ()
main thread Main ()
  i, n : int;
  loc input:
    when true do { n := externChoose(int); } goto admit;
  loc admit:
    when n >= 0 do { i := 0; } goto loop;
    when n < 0 do { } goto done;
  loc loop:
    when i < n do { i := i + 1; } goto loop;
    when i >= n do { assert(i == n); } goto done;
  loc done:
end Main;
end CountBound;
`

// The loop to an input bound: a trail that leaves the loop after m
// iterations with the assertion false is infeasible at its last step.
// Newton finds predicates tied to the iteration count (i + 1 == n,
// i + 2 == n, …); interpolation finds the invariant i <= n. Each set,
// parsed back as a predicate file, makes the trail infeasible to a
// predicate abstraction, which it is not without them.
func TestLoopCountBound(t *testing.T) {
	prog, m := compile(t, countbound)
	for _, iters := range []int{1, 3, 4} {
		steps := []step{{0, "Main", "input", 0}, {0, "Main", "admit", 0}}
		for k := 0; k < iters; k++ {
			steps = append(steps, step{0, "Main", "loop", 0})
		}
		steps = append(steps, step{0, "Main", "loop", 1})
		sc := schedule(t, m, assertion, steps...)
		r, err := Refine(m, sc, Config{})
		if err != nil {
			t.Fatal(err)
		}
		if r.Status != Infeasible || r.Step != len(steps) {
			t.Fatalf("%d iterations: %v at step %d (%s), want infeasible at %d", iters, r.Status, r.Step, r.Reason, len(steps))
		}
		if !strings.Contains(r.Why, "does not end in assertion") {
			t.Errorf("why: %s", r.Why)
		}
		var itp []string
		for _, p := range r.Interpolation {
			itp = append(itp, p.String())
		}
		if !slices.Contains(itp, "[thread Main] i <= n") {
			t.Errorf("%d iterations: interpolation found %q, want [thread Main] i <= n (no: %s)", iters, itp, r.NoInterpolant)
		}
		var nw []string
		for _, p := range r.Newton {
			nw = append(nw, p.String())
		}
		// Newton follows the iterations: n == i + iterations appears
		if want := fmt.Sprintf("[thread Main] n == i + %d", iters); !slices.Contains(nw, want) {
			t.Errorf("Newton found %q, want the iteration-bound %s among them", nw, want)
		}
		k := len(steps)
		if ok, err := r.Path.Refutes(nil, k, Config{}); err != nil || ok {
			t.Fatalf("without predicates the trail is refuted (%v, %v): the check proves nothing", ok, err)
		}
		for name, preds := range map[string][]Predicate{"newton": r.Newton, "interpolation": r.Interpolation} {
			ok, err := r.Path.Refutes(parsePreds(t, prog, preds), k, Config{})
			if err != nil {
				t.Fatal(err)
			}
			if !ok {
				t.Errorf("%d iterations: the %s predicates %v do not refute the trail", iters, name, preds)
			}
		}
		checkInterpolants(t, r)
		t.Logf("%d iterations: interpolation %q, Newton %q", iters, itp, nw)
	}
}

// checkInterpolants verifies the interpolants against their definition:
// the steps up to j imply the one after step j, which contradicts the
// steps after j.
func checkInterpolants(t *testing.T, r *Result) {
	t.Helper()
	if len(r.Interpolants) == 0 {
		return // none (interpolation gave up, or the path's first step is infeasible)
	}
	p := r.Path
	items, err := p.items(r.Decision)
	if err != nil {
		t.Fatal(err)
	}
	for j, itp := range r.Interpolants {
		cut := j + 1
		var a, b []*smt.Term
		for _, it := range items {
			if it.step <= cut {
				a = append(a, it.term)
			} else {
				b = append(b, it.term)
			}
		}
		s, err := p.newSolver(Config{})
		if err != nil {
			t.Fatal(err)
		}
		if ok, err := smt.Implies(s, p.tm.And(a...), itp); !ok || err != nil {
			t.Errorf("after step %d: A does not imply the interpolant %s (%v)", cut, itp, err)
		}
		s.Assert(itp)
		s.Assert(p.tm.And(b...))
		if res, _ := s.Check(); res != smt.Unsat {
			t.Errorf("after step %d: the interpolant %s is consistent with B", cut, itp)
		}
		s.Close()
	}
}

// A guard that the data forbid makes the path infeasible at that step,
// not at the end.
func TestInfeasibleMiddleStep(t *testing.T) {
	// a prefix of a trail that ends in an ordinary state is feasible
	_, m := compile(t, countbound)
	sc := schedule(t, m, feasible.End{},
		step{0, "Main", "input", 0}, step{0, "Main", "admit", 0},
		step{0, "Main", "loop", 0}, step{0, "Main", "loop", 0})
	r, err := Refine(m, sc, Config{})
	if err != nil {
		t.Fatal(err)
	}
	if r.Status != Feasible {
		t.Fatalf("two iterations for some n: %v", r.Status)
	}
	const twice = `system T ()
  x : int;
  main thread M ()
    loc s0: when true do { x := externChoose(0 .. 1000); } goto s1;
    loc s1: when x > 5 do { x := x - 5; } goto s2;
    loc s2: when true do { x := x * 2; } goto s3;
    loc s3: when x == 3 do { } goto s4;
    loc s4: when true do { assert(false); } goto s4;
  end M;
end T;
`
	prog, m := compile(t, twice)
	sc = schedule(t, m, assertion, step{0, "M", "s0", 0}, step{0, "M", "s1", 0}, step{0, "M", "s2", 0}, step{0, "M", "s3", 0}, step{0, "M", "s4", 0})
	r, err = Refine(m, sc, Config{})
	if err != nil {
		t.Fatal(err)
	}
	if r.Status != Infeasible || r.Step != 4 || !strings.Contains(r.Why, "guard x == 3 is false") {
		t.Fatalf("%v at step %d: %s; want infeasible at step 4, the guard x == 3", r.Status, r.Step, r.Why)
	}
	// 2 * (x - 5) == 3 has rational solutions: no linear proof, so no
	// interpolant; Newton's predicates refute the prefix alone
	if r.NoInterpolant == "" || len(r.Interpolation) != 0 {
		t.Errorf("interpolation of a parity conflict: %v (%q)", r.Interpolation, r.NoInterpolant)
	}
	preds := r.Predicates()
	if ok, err := r.Path.Refutes(parsePreds(t, prog, preds), r.Step, Config{}); err != nil || !ok {
		t.Fatalf("%v do not refute the prefix (%v)", preds, err)
	}
	checkInterpolants(t, r)
}

const twoThreads = `system Two ()
  x : int;
  main thread A ()
    i : int;
    loc a0: when true do { i := externChoose(int); } goto a1;
    loc a1: when i > 0 do { x := x + i; } goto a2;
    loc a2:
  end A;
  main thread B ()
    i : int;
    loc b0: when true do { i := x; } goto b1;
    loc b1: when true do { assert(i <= 0); } goto b2;
    loc b2:
  end B;
end Two;
`

// Two threads, each with a local i of its own: B's assertion fails only
// when A has added its positive i to x before B reads x. The path formula
// follows the schedule's interleaving.
func TestTwoThreadSchedule(t *testing.T) {
	prog, m := compile(t, twoThreads)
	a0, a1 := step{0, "A", "a0", 0}, step{0, "A", "a1", 0}
	b0, b1 := step{1, "B", "b0", 0}, step{1, "B", "b1", 0}
	r, err := Refine(m, schedule(t, m, assertion, a0, a1, b0, b1), Config{})
	if err != nil {
		t.Fatal(err)
	}
	if r.Status != Feasible || len(r.Inputs) != 1 || r.Inputs[0].Value <= 0 {
		t.Fatalf("A then B: %v %v, want feasible with a positive input", r.Status, r.Inputs)
	}
	trail, err := r.Path.Confirm(r.Decision, func(vals []int64) (*model.Model, error) {
		return model.New(prog, model.Options{ChoiceValues: vals})
	})
	if err != nil {
		t.Fatal(err)
	}
	cm, _ := model.New(prog, model.Options{ChoiceValues: []int64{r.Inputs[0].Value}})
	replayEndsIn(t, cm, trail, model.Assertion)

	r, err = Refine(m, schedule(t, m, assertion, a0, b0, a1, b1), Config{})
	if err != nil {
		t.Fatal(err)
	}
	if r.Status != Infeasible || r.Step != 4 {
		t.Fatalf("B reads x before A writes it: %v at step %d, want infeasible at step 4", r.Status, r.Step)
	}
	var got []string
	for _, p := range r.Predicates() {
		got = append(got, p.String())
	}
	if !slices.Contains(got, "[thread B] i <= 0") {
		t.Errorf("predicates %q, want [thread B] i <= 0 (B's i, not A's)", got)
	}
	if ok, err := r.Path.Refutes(parsePreds(t, prog, r.Predicates()), 4, Config{}); err != nil || !ok {
		t.Fatalf("the predicates do not refute the interleaving (%v)", err)
	}
	checkInterpolants(t, r)
}

const deadReset = `system D ()
  x : int;
  main thread M ()
    i : int;
    loc s0: live { i }
      when true do { i := externChoose(int); } goto s1;
    loc s1: live { i }
      when i > 3 do { x := i; } goto s2;
    loc s2: live { }
      when true do { } goto s3;
    loc s3: live { i }
      when true do { assert(i == 0); } goto s3;
  end M;
end D;
`

// A variable that is not live where a thread arrives holds its default
// there, as in the model: i is dead at s2, so the assertion i == 0 at s3
// holds (the path is infeasible) although i > 3 before.
func TestDeadVariablesReset(t *testing.T) {
	_, m := compile(t, deadReset)
	sc := schedule(t, m, assertion, step{0, "M", "s0", 0}, step{0, "M", "s1", 0}, step{0, "M", "s2", 0}, step{0, "M", "s3", 0})
	r, err := Refine(m, sc, Config{})
	if err != nil {
		t.Fatal(err)
	}
	if r.Status != Infeasible || r.Step != 4 {
		t.Fatalf("%v at step %d (%s), want infeasible at step 4", r.Status, r.Step, r.Why)
	}
}

// The counter under a lock (examples/predicates/lockedcounter.bir): the
// schedule decides who holds the lock and which threads have
// terminated. A trail in which the assertion count == 2 fails after both
// increments is infeasible at its last step, and a trail in which Right
// takes the lock that Left holds is infeasible at that step.
func TestLockedCounter(t *testing.T) {
	src, err := os.ReadFile("../../../examples/predicates/lockedcounter.bir")
	if err != nil {
		t.Fatal(err)
	}
	prog, m := compile(t, string(src))
	spawn := step{0, "Main", "spawn", 0}
	inc := func(th int, proc string) []step {
		return []step{{th, proc, "acquire", 0}, {th, proc, "read", 0}, {th, proc, "write", 0}, {th, proc, "release", 0}}
	}
	steps := append(append(append([]step{spawn}, inc(1, "Left")...), inc(2, "Right")...), step{0, "Main", "join", 0})
	r, err := Refine(m, schedule(t, m, assertion, steps...), Config{})
	if err != nil {
		t.Fatal(err)
	}
	if r.Status != Infeasible || r.Step != len(steps) {
		t.Fatalf("%v at step %d (%s), want infeasible at the join", r.Status, r.Step, r.Why)
	}
	preds := r.Predicates()
	if ok, err := r.Path.Refutes(parsePreds(t, prog, preds), r.Step, Config{}); err != nil || !ok {
		t.Fatalf("%v do not refute the trail (%v)", preds, err)
	}
	t.Logf("predicates: %v", preds)
	checkInterpolants(t, r)

	l, rt := inc(1, "Left"), inc(2, "Right")
	steps = []step{spawn, l[0], l[1], rt[0]}
	r, err = Refine(m, schedule(t, m, feasible.End{}, steps...), Config{})
	if err != nil {
		t.Fatal(err)
	}
	if r.Status != Infeasible || r.Step != 4 || !strings.Contains(r.Why, "guard lockAvailable(mutex) is false") {
		t.Fatalf("%v at step %d (%s), want infeasible at step 4: Left holds the lock", r.Status, r.Step, r.Why)
	}
}

// A construct the path formula does not encode is an UnsupportedError
// with its position, not a panic or a guess.
func TestUnsupported(t *testing.T) {
	const src = `system U ()
  a : array [3] of array [2] of int;
  main thread M ()
    loc s0: when true do { a[1][0] := 2; } goto s1;
    loc s1: when true do { assert(a[1][0] == 3); } goto s1;
  end M;
end U;
`
	_, m := compile(t, src)
	_, err := Refine(m, schedule(t, m, assertion, step{0, "M", "s0", 0}, step{0, "M", "s1", 0}), Config{})
	var u *UnsupportedError
	if !errors.As(err, &u) || !u.Pos.IsValid() {
		t.Fatalf("got %v, want a positioned UnsupportedError", err)
	}
}

const sums = `system Sums ()
function sum (n : int) : int
  r : int;
  loc f0:
    when n <= 0 do { } return 0;
    when n > 0 do { r := call sum(n - 1); } goto f1;
  loc f1:
    when true do { } return n + r;
end sum;

main thread Main ()
  k, total : int;
  loc m0:
    when true do { k := externChoose(0 .. 100); } goto m1;
  loc m1:
    when true do { total := call sum(k); } goto m2;
  loc m2:
    when true do { assert(ASSERT); } goto m2;
end Main;
end Sums;
`

// A recursive function: each call has its own n and r. Two levels of
// recursion fix k == 2 and total == 3: the path fails total != 3 (its
// input replays), and total >= k holds on it (infeasible, with
// predicates in the function's scope among the new ones).
func TestRecursiveCalls(t *testing.T) {
	steps := []step{{0, "Main", "m0", 0}, {0, "Main", "m1", 0}, {0, "sum", "f0", 1}, {0, "sum", "f0", 1},
		{0, "sum", "f0", 0}, {0, "sum", "f1", 0}, {0, "sum", "f1", 0}, {0, "Main", "m2", 0}}
	prog, m := compile(t, strings.Replace(sums, "ASSERT", "total != 3", 1))
	r, err := Refine(m, schedule(t, m, assertion, steps...), Config{})
	if err != nil {
		t.Fatal(err)
	}
	if r.Status != Feasible || len(r.Inputs) != 1 || r.Inputs[0].Value != 2 {
		t.Fatalf("%v %v (%s), want feasible with k = 2", r.Status, r.Inputs, r.Reason)
	}
	trail, err := r.Path.Confirm(r.Decision, func([]int64) (*model.Model, error) { return m, nil })
	if err != nil {
		t.Fatal(err)
	}
	replayEndsIn(t, m, trail, model.Assertion)

	prog, m = compile(t, strings.Replace(sums, "ASSERT", "total >= k", 1))
	r, err = Refine(m, schedule(t, m, assertion, steps...), Config{})
	if err != nil {
		t.Fatal(err)
	}
	if r.Status != Infeasible || r.Step != len(steps) {
		t.Fatalf("%v at step %d (%s), want infeasible at the assertion", r.Status, r.Step, r.Why)
	}
	preds := r.Predicates()
	function := false
	for _, p := range preds {
		function = function || strings.HasPrefix(p.String(), "[function sum]")
	}
	if !function {
		t.Errorf("no predicate in the scope of sum among %v", preds)
	}
	// the predicates parse back; they do not refute the path in
	// Refutes' abstraction, which keeps of the callers' frames across a
	// call only what return predicates carry
	ok, err := r.Path.Refutes(parsePreds(t, prog, preds), r.Step, Config{})
	if err != nil {
		t.Fatal(err)
	}
	checkInterpolants(t, r)
	t.Logf("%v (refuted: %v); dropped %v", preds, ok, r.Dropped)
	// so Choose says that what it found does not rule the path out
	if _, refuted, err := r.Choose(prog, nil, Config{}); err != nil || refuted != ok {
		t.Fatalf("Choose: refuted %v (%v), Refutes said %v", refuted, err, ok)
	}
}

// Choose takes interpolation's invariant alone on the counting loop (it
// refutes the trail), and Newton's when the file already has it; Fresh
// drops what a file holds. (TestRecursiveCalls has a path that nothing
// found rules out.)
func TestChoose(t *testing.T) {
	prog, m := compile(t, countbound)
	steps := []step{{0, "Main", "input", 0}, {0, "Main", "admit", 0}, {0, "Main", "loop", 0}, {0, "Main", "loop", 0}, {0, "Main", "loop", 1}}
	r, err := Refine(m, schedule(t, m, assertion, steps...), Config{})
	if err != nil {
		t.Fatal(err)
	}
	got, refuted, err := r.Choose(prog, nil, Config{})
	if err != nil || !refuted || len(got) != 1 || got[0].String() != "[thread Main] i <= n" {
		t.Fatalf("chose %v (refuted %v, %v), want [thread Main] i <= n alone", got, refuted, err)
	}
	// with i <= n already in the file (spelled otherwise), interpolation
	// has nothing new: Newton's fresh predicates are offered
	f, err := predicate.ParseFile(prog, "old.pred", []byte("[thread Main] i<=n\n"))
	if err != nil {
		t.Fatal(err)
	}
	got, refuted, err = r.Choose(prog, f.Predicates, Config{})
	if err != nil || !refuted || len(got) == 0 || got[0].Method != Newton {
		t.Fatalf("chose %v (refuted %v, %v), want Newton's", got, refuted, err)
	}
	for _, p := range got {
		if p.Text == "i <= n" {
			t.Fatalf("chose %v: i <= n again", got)
		}
	}
	// Fresh drops what a file already holds
	var all []string
	for _, p := range r.Newton {
		if p.Text != "i <= n" {
			all = append(all, p.String())
		}
	}
	f, err = predicate.ParseFile(prog, "old.pred", []byte(strings.Join(all, "\n")+"\n"))
	if err != nil {
		t.Fatal(err)
	}
	fresh, err := Fresh(prog, f.Predicates, r.Newton)
	if err != nil || len(fresh) != 0 {
		t.Fatalf("fresh %v (%v), want none", fresh, err)
	}
	// an equation is the same predicate either way round
	f, err = predicate.ParseFile(prog, "old.pred", []byte("[thread Main] n == i\n"))
	if err != nil {
		t.Fatal(err)
	}
	fresh, err = Fresh(prog, f.Predicates, []Predicate{{Proc: prog.Threads[0], Text: "i == n"}, {Proc: prog.Threads[0], Text: "i + 1 == n"}})
	if err != nil || len(fresh) != 1 || fresh[0].Text != "i + 1 == n" {
		t.Fatalf("fresh %v (%v), want i + 1 == n alone", fresh, err)
	}
}

func compileFile(t *testing.T, path string) (*types.Program, *model.Model) {
	t.Helper()
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return compile(t, string(src))
}

// The examples of predicate abstraction, with no predicates given: the
// locking loop's spurious trail (serve a request, then leave the loop as
// if the count had not moved) is infeasible at the loop test, and the
// predicates chosen rule it out; the payload bug's trail is real, with a
// length in the narrow band 1493..1500 that replays.
func TestExampleTrails(t *testing.T) {
	prog, m := compileFile(t, "../../../examples/predicates/lockloop.bir")
	steps := []step{{0, "Driver", "begin", 0}, {0, "Driver", "top", 0}, {0, "Driver", "body", 0}, {0, "Driver", "test", 1}}
	r, err := Refine(m, schedule(t, m, assertion, steps...), Config{})
	if err != nil {
		t.Fatal(err)
	}
	if r.Status != Infeasible || r.Step != 4 || !strings.Contains(r.Why, "guard cur == old is false") {
		t.Fatalf("lockloop: %v at step %d (%s)", r.Status, r.Step, r.Why)
	}
	chosen, refuted, err := r.Choose(prog, nil, Config{})
	if err != nil || !refuted || len(chosen) == 0 {
		t.Fatalf("lockloop: chose %v (refuted %v, %v)", chosen, refuted, err)
	}
	t.Logf("lockloop: chose %v", chosen)

	prog, m = compileFile(t, "../../../examples/predicates/payload.bir")
	steps = []step{{0, "Receiver", "receive", 0}, {0, "Receiver", "check", 1}, {0, "Receiver", "copy", 0}}
	r, err = Refine(m, schedule(t, m, assertion, steps...), Config{})
	if err != nil {
		t.Fatal(err)
	}
	if r.Status != Feasible || len(r.Inputs) != 1 || r.Inputs[0].Value < 1493 || r.Inputs[0].Value > 1500 {
		t.Fatalf("payload: %v %v (%s)", r.Status, r.Inputs, r.Reason)
	}
	trail, err := r.Path.Confirm(r.Decision, func(vals []int64) (*model.Model, error) {
		return model.New(prog, model.Options{ChoiceValues: vals})
	})
	if err != nil {
		t.Fatal(err)
	}
	cm, _ := model.New(prog, model.Options{ChoiceValues: []int64{r.Inputs[0].Value}})
	replayEndsIn(t, cm, trail, model.Assertion)
}

// The seed of the loop: the comparisons the model's guards and
// assertions make, in their scopes, each once, a comparison and its
// negation once (!= as ==, >= as <, > as <=); booleans and lock tests
// left out.
func TestSeed(t *testing.T) {
	for _, tc := range []struct {
		file string
		want []string
	}{
		{"countbound.bir", []string{"[thread Main] n < 0", "[thread Main] i < n", "[thread Main] i == n"}},
		{"partition.bir", []string{"[thread Main] k < 3", "[thread Main] curr == null", "[thread Main] curr.val <= v", "[thread Main] prev == null", "[thread Main] curr == head", "[thread Main] prev == curr"}},
		{"lockloop.bir", []string{"[thread Driver] cur < LIMIT", "[thread Driver] cur == old"}},
		{"lockedcounter.bir", []string{"count == 2"}},
	} {
		prog, _ := compileFile(t, "../../../examples/predicates/"+tc.file)
		preds, err := Seed(prog)
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, p := range preds {
			got = append(got, p.String())
		}
		if !slices.Equal(got, tc.want) {
			t.Errorf("%s: seed %q, want %q", tc.file, got, tc.want)
		}
		parsePreds(t, prog, preds)
	}
}

// Refutes enumerates abstract states within a bound: past it, it says it
// could not decide, instead of running on.
func TestRefutesBound(t *testing.T) {
	prog, m := compile(t, countbound)
	steps := []step{{0, "Main", "input", 0}, {0, "Main", "admit", 0}, {0, "Main", "loop", 0}, {0, "Main", "loop", 1}}
	r, err := Refine(m, schedule(t, m, assertion, steps...), Config{})
	if err != nil {
		t.Fatal(err)
	}
	preds := parsePreds(t, prog, r.Predicates())
	if ok, err := r.Path.Refutes(preds, r.Step, Config{}); !ok || err != nil {
		t.Fatalf("unbounded: %v %v", ok, err)
	}
	if ok, err := r.Path.Refutes(preds, r.Step, Config{MaxValuations: 2}); ok || !errors.Is(err, ErrUndecided) {
		t.Fatalf("bound 2: %v %v, want ErrUndecided", ok, err)
	}
}

// A context that is done stops the solver: the answer is unknown, with
// the reason, not a hang or a guess.
func TestContextDone(t *testing.T) {
	_, m := compile(t, countbound)
	steps := []step{{0, "Main", "input", 0}, {0, "Main", "admit", 0}, {0, "Main", "loop", 0}, {0, "Main", "loop", 1}}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	r, err := Refine(m, schedule(t, m, assertion, steps...), Config{Context: ctx})
	if err != nil {
		t.Fatal(err)
	}
	if r.Status != Unknown || r.Reason == "" {
		t.Fatalf("%v (%s), want unknown with a reason", r.Status, r.Reason)
	}
}

// Paths through the heap (partition.bir's records): field reads and
// writes, new, null. Building one cell and testing its value against v
// is feasible, and its inputs (the cell's value and v) replay through the
// cell's field; leaving the build with no cell and entering the loop is
// infeasible at the loop, ruled out by head == null; reading a field
// through null is a null dereference the path can end in.
func TestHeapPaths(t *testing.T) {
	prog, m := compileFile(t, "../../../examples/predicates/partition.bir")
	sc := schedule(t, m, feasible.End{}, step{0, "Main", "build", 0}, step{0, "Main", "build", 1}, step{0, "Main", "loop", 0}, step{0, "Main", "test", 0})
	r, err := Refine(m, sc, Config{})
	if err != nil {
		t.Fatal(err)
	}
	if r.Status != Feasible || len(r.Inputs) != 2 || r.Inputs[0].Value <= r.Inputs[1].Value {
		t.Fatalf("%v %v (%s), want feasible with the cell's value above v", r.Status, r.Inputs, r.Reason)
	}
	trail, err := r.Path.Confirm(r.Decision, func(vals []int64) (*model.Model, error) {
		return model.New(prog, model.Options{ChoiceValues: vals})
	})
	if err != nil || len(trail) != 4 {
		t.Fatalf("the inputs do not replay: %v %v", trail, err)
	}

	sc = schedule(t, m, feasible.End{}, step{0, "Main", "build", 1}, step{0, "Main", "loop", 0})
	r, err = Refine(m, sc, Config{})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, p := range r.Predicates() {
		got = append(got, p.String())
	}
	if r.Status != Infeasible || r.Step != 2 || !slices.Contains(got, "head == null") {
		t.Fatalf("%v at %d (%s), predicates %q; want infeasible at step 2 with head == null", r.Status, r.Step, r.Why, got)
	}
	if ok, err := r.Path.Refutes(parsePreds(t, prog, r.Predicates()), 2, Config{}); !ok || err != nil {
		t.Fatalf("not refuted: %v", err)
	}

	const deref = `system D ()
  Cell = record { val : int; };
  CellRef = ref Cell {Cells};
  Cells : collection [2] of Cell;
  p : CellRef;
  x : int;
  main thread M ()
    loc s0: when true do { x := externChoose(0 .. 9); } goto s1;
    loc s1: when x > 5 do { p := new Cells; p.val := x; } goto s2;
            when x <= 5 do { } goto s2;
    loc s2: when true do { x := p.val; } goto s3;
    loc s3:
  end M;
end D;
`
	_, m = compile(t, deref)
	end := feasible.End{Kind: feasible.EndError, Error: model.NullDereference}
	r, err = Refine(m, schedule(t, m, end, step{0, "M", "s0", 0}, step{0, "M", "s1", 1}, step{0, "M", "s2", 0}), Config{})
	if err != nil {
		t.Fatal(err)
	}
	if r.Status != Feasible || r.Inputs[0].Value > 5 {
		t.Fatalf("p null at the read: %v %v", r.Status, r.Inputs)
	}
	trail, err = r.Path.Confirm(r.Decision, func([]int64) (*model.Model, error) { return m, nil })
	if err != nil {
		t.Fatal(err)
	}
	replayEndsIn(t, m, trail, model.NullDereference)
	r, err = Refine(m, schedule(t, m, end, step{0, "M", "s0", 0}, step{0, "M", "s1", 0}, step{0, "M", "s2", 0}), Config{})
	if err != nil {
		t.Fatal(err)
	}
	if r.Status != Infeasible || r.Step != 3 {
		t.Fatalf("p allocated: %v at %d (%s)", r.Status, r.Step, r.Why)
	}
}

// A spurious overflow: the abstraction may let i + 1 overflow in the
// counting loop, which the guard i < n rules out concretely; the new
// predicates rule the trail out.
func TestSpuriousOverflow(t *testing.T) {
	prog, m := compile(t, countbound)
	end := feasible.End{Kind: feasible.EndError, Error: model.Overflow}
	steps := []step{{0, "Main", "input", 0}, {0, "Main", "admit", 0}, {0, "Main", "loop", 0}, {0, "Main", "loop", 0}}
	r, err := Refine(m, schedule(t, m, end, steps...), Config{})
	if err != nil {
		t.Fatal(err)
	}
	if r.Status != Infeasible || r.Step != 4 || !strings.Contains(r.Why, "does not end in overflow") {
		t.Fatalf("%v at %d (%s)", r.Status, r.Step, r.Why)
	}
	if ok, err := r.Path.Refutes(parsePreds(t, prog, r.Predicates()), r.Step, Config{}); !ok || err != nil {
		t.Fatalf("%v do not refute (%v)", r.Predicates(), err)
	}
	checkInterpolants(t, r)
	t.Logf("%v", r.Predicates())
}

// Arrays of scalars: a reading of any value of its range indexes a
// histogram (examples/input-range.bir): the trail that overflows its end
// is real for readings of 110 and more, which replay; an assertion that
// a bucket stays 0 after a write elsewhere is infeasible, ruled out by
// predicates over the elements.
func TestArrays(t *testing.T) {
	prog, m := compileFile(t, "../../../examples/input-range.bir")
	end := feasible.End{Kind: feasible.EndError, Error: model.IndexOutOfBounds}
	r, err := Refine(m, schedule(t, m, end, step{0, "Sensor", "read", 0}, step{0, "Sensor", "count", 0}), Config{})
	if err != nil {
		t.Fatal(err)
	}
	if r.Status != Feasible || r.Inputs[0].Value < 110 {
		t.Fatalf("%v %v (%s), want feasible with a reading of 110 or more", r.Status, r.Inputs, r.Reason)
	}
	trail, err := r.Path.Confirm(r.Decision, func([]int64) (*model.Model, error) { return m, nil })
	if err != nil {
		t.Fatal(err)
	}
	replayEndsIn(t, m, trail, model.IndexOutOfBounds)

	const src = `system A ()
  h : array [4] of int;
  main thread M ()
    i : int;
    loc s0: when true do { i := externChoose(0 .. 3); } goto s1;
    loc s1: when i != 2 do { h[i] := h[i] + 1; } goto s2;
    loc s2: when true do { assert(h[2] == 0); } goto s2;
  end M;
end A;
`
	prog, m = compile(t, src)
	r, err = Refine(m, schedule(t, m, assertion, step{0, "M", "s0", 0}, step{0, "M", "s1", 0}, step{0, "M", "s2", 0}), Config{})
	if err != nil {
		t.Fatal(err)
	}
	if r.Status != Infeasible || r.Step != 3 {
		t.Fatalf("%v at %d (%s)", r.Status, r.Step, r.Why)
	}
	preds := r.Predicates()
	if ok, err := r.Path.Refutes(parsePreds(t, prog, preds), 3, Config{}); !ok || err != nil {
		t.Fatalf("%v do not refute (%v)", preds, err)
	}
	t.Logf("%v", preds)
}

const waitNotify = `system W ()
  mon : lock wait;
  x : int;
  main thread A ()
    loc a0: when lockAvailable(mon) do { lock(mon); } goto a1;
    loc a1: when x == 0 do { wait(mon); } goto a2;
    loc a2: when lockAvailable(mon) && wasNotified(mon) do { unwait(mon); } goto a3;
    loc a3: when true do { assert(x == 1); unlock(mon); } goto a4;
    loc a4:
  end A;
  main thread B ()
    loc b0: when lockAvailable(mon) do { lock(mon); x := externChoose(1 .. 3); notify(mon); unlock(mon); } goto b1;
    loc b1:
  end B;
end W;
`

// wait and notify: after them the lock's tests are not decided (which
// waiting thread a notify wakes is not in the schedule), a weaker
// formula: the trail where B sets x to 2 or 3 and wakes A is real, and
// replays; with B's choice fixed to 1 it is infeasible at the assertion.
func TestWaitNotify(t *testing.T) {
	steps := []step{{0, "A", "a0", 0}, {0, "A", "a1", 0}, {1, "B", "b0", 0}, {0, "A", "a2", 0}, {0, "A", "a3", 0}}
	_, m := compile(t, waitNotify)
	r, err := Refine(m, schedule(t, m, assertion, steps...), Config{})
	if err != nil {
		t.Fatal(err)
	}
	if r.Status != Feasible || r.Inputs[0].Value == 1 {
		t.Fatalf("%v %v (%s)", r.Status, r.Inputs, r.Reason)
	}
	trail, err := r.Path.Confirm(r.Decision, func([]int64) (*model.Model, error) { return m, nil })
	if err != nil {
		t.Fatal(err)
	}
	replayEndsIn(t, m, trail, model.Assertion)

	_, m = compile(t, strings.Replace(waitNotify, "externChoose(1 .. 3)", "externChoose(1 .. 1)", 1))
	r, err = Refine(m, schedule(t, m, assertion, steps...), Config{})
	if err != nil {
		t.Fatal(err)
	}
	if r.Status != Infeasible || r.Step != 5 {
		t.Fatalf("%v at %d (%s)", r.Status, r.Step, r.Why)
	}
}

// An element read at a literal index out of bounds, however the index is
// written (-1 as the negation of 1), is no BIR expression: it is not
// printed (the long random test found h[-1] printed).
func TestIndexOutOfBoundsNotPrinted(t *testing.T) {
	_, m := compile(t, `system A ()
  h : array [3] of int;
  main thread M ()
    loc s0: when h[0] > 0 do { } goto s0;
  end M;
end A;
`)
	p, err := Build(m, feasible.Schedule{})
	if err != nil {
		t.Fatal(err)
	}
	var h *smt.Term
	for k, v := range p.points[0] {
		if k.v.Name() == "h" {
			h = v
		}
	}
	tm := p.tm
	name := p.stater(0).name
	if s, ok := p.termText(tm.Select(h, tm.Neg(tm.Int(1))), name); ok {
		t.Errorf("printed %s", s)
	}
	if s, ok := p.termText(tm.Select(h, tm.Add(tm.Int(1), tm.Int(1))), name); !ok || s != "h[2]" {
		t.Errorf("h[1 + 1]: %q %v", s, ok)
	}
}

// TestBooleanChoice: a boolean chosen among true and false is a boolean
// of the path formula (it was "a boolean used as a number", which stopped
// the refinement of every model with b := internChoose(true, false)): the
// trail through either value of b into x == 3 is feasible and replays,
// and b's value decides the assertion after it.
func TestBooleanChoice(t *testing.T) {
	const src = `system B ()
  x : int;
  b : boolean;
  main thread M ()
    loc s0: when true do { x := externChoose(0 .. 5); b := internChoose(true, false); } goto s1;
    loc s1: when true do { assert(x != 3 || b); } goto s2;
    loc s2:
  end M;
end B;
`
	_, m := compile(t, src)
	r, err := Refine(m, schedule(t, m, assertion, step{0, "M", "s0", 0}, step{0, "M", "s1", 0}), Config{})
	if err != nil {
		t.Fatal(err)
	}
	if r.Status != Feasible {
		t.Fatalf("%v (%s), want feasible", r.Status, r.Reason)
	}
	trail, err := r.Path.Confirm(r.Decision, func([]int64) (*model.Model, error) { return m, nil })
	if err != nil {
		t.Fatal(err)
	}
	replayEndsIn(t, m, trail, model.Assertion)
}

// twoCalls reads its inputs in a function called twice, into the locals
// of a function (as the C lowering does: main's locals live in a call of
// main_ by the main thread).
const twoCalls = `system Two ()
  function get () : int
    v : int;
    loc g0: when true do { v := externChoose(int); } return v;
  end get;
  function body () : int
    a, b : int;
    loc b0: when true do { a := call get(); } goto b1;
    loc b1: when true do { b := call get(); } goto b2;
    loc b2: when true do { assert(a != 5 || b != 7); } goto b3;
    loc b3: when true do { } return 0;
  end body;
  main thread M ()
    loc s0: when true do { call body(); } goto s1;
    loc s1:
  end M;
end Two;
`

// TestConfirmCallLocals: the replay of a feasible path keeps, at each
// step, the outcome whose state has the values the solver predicts, the
// locals of active calls included: each call of get gets its own input
// (a is 5, b is 7). The replay predicted no local of a call and took the
// first outcome of each choice, 5 for both: "no outcome of the concrete
// model has the values the solver predicts", and a C program's real
// violation stayed inconclusive.
func TestConfirmCallLocals(t *testing.T) {
	prog, m := compile(t, twoCalls)
	sc := schedule(t, m, assertion, step{0, "M", "s0", 0}, step{0, "body", "b0", 0}, step{0, "get", "g0", 0},
		step{0, "body", "b1", 0}, step{0, "get", "g0", 0}, step{0, "body", "b2", 0})
	r, err := Refine(m, sc, Config{})
	if err != nil {
		t.Fatal(err)
	}
	if r.Status != Feasible || len(r.Inputs) != 2 || r.Inputs[0].Value != 5 || r.Inputs[1].Value != 7 {
		t.Fatalf("%v, inputs %+v (%s), want feasible with 5 and 7", r.Status, r.Inputs, r.Reason)
	}
	vals := []int64{r.Inputs[0].Value, r.Inputs[1].Value}
	build := func([]int64) (*model.Model, error) { return model.New(prog, model.Options{ChoiceValues: vals}) }
	trail, err := r.Path.Confirm(r.Decision, build)
	if err != nil {
		t.Fatal(err)
	}
	cm, _ := build(nil)
	replayEndsIn(t, cm, trail, model.Assertion)
}
