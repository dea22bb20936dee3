package feasible

import (
	"context"
	"os"
	"strconv"
	"strings"
	"testing"

	"birch/internal/bir/parser"
	"birch/internal/bir/types"
	"birch/internal/model"
	"birch/internal/search"
	"birch/internal/source"
)

func compile(t *testing.T, name, src string) *model.Model {
	t.Helper()
	fset := source.NewFileSet()
	f, err := parser.ParseFile(fset, name, []byte(src), 0)
	if err != nil {
		t.Fatal(err)
	}
	prog, err := types.Check(fset, f, nil)
	if err != nil {
		t.Fatal(err)
	}
	m, err := model.New(prog, model.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// decrement: y := x - 1 with x an input. The abstract versions below are
// written by hand as the generator would write them for signs: x - 1 of a
// POS x is any sign (an internChoose), and the assertion y >= 0 is
// under-approximated to y == ZERO || y == POS.
const decrementConcrete = `system Dec ()
main thread Main ()
  x, y : int;
  loc s0:
    when true do { x := externChoose(LO .. HI); } goto s1;
  loc s1:
    when true do { y := x - 1; } goto s2;
  loc s2:
    when true do { assert(y >= 0); } goto s3;
  loc s3:
end Main;
end Dec;
`

const decrementAbstract = `system Dec ()
Sign = enum { NEG, ZERO, POS };
main thread Main ()
  x, y : Sign := ZERO;
  loc s0:
    when true do { x := externChoose(CHOICES); } goto s1;
  loc s1:
    when true do { y := internChoose(NEG, ZERO, POS); } goto s2;
  loc s2:
    when true do { assert(y == ZERO || y == POS); } goto s3;
  loc s3:
end Main;
end Dec;
`

// signOf is the signs abstraction of a value printed by Describe.
func signOf(v string) string {
	n, err := strconv.ParseInt(v, 10, 64)
	if err != nil {
		return "?"
	}
	switch {
	case n < 0:
		return "NEG"
	case n == 0:
		return "ZERO"
	}
	return "POS"
}

// signsAgree compares the abstracted variables x and y.
func signsAgree(conc *model.Model) func(map[string]string, []byte) string {
	return func(abs map[string]string, state []byte) string {
		var diffs []string
		for _, v := range conc.Describe(state) {
			if !strings.HasSuffix(v.Name, ".x") && !strings.HasSuffix(v.Name, ".y") {
				continue
			}
			if a, ok := abs[v.Name]; ok && a != signOf(v.Value) {
				diffs = append(diffs, v.Name+" = "+v.Value+" ("+signOf(v.Value)+"), abstract "+a)
			}
		}
		return strings.Join(diffs, ", ")
	}
}

// abstractTrail finds a violation of abs by breadth-first search and
// turns it into a schedule of conc.
func abstractTrail(t *testing.T, abs, conc *model.Model, chooseFree bool) (Schedule, *search.Result) {
	t.Helper()
	res := search.Run(abs, search.Config{Strategy: search.BFS, ChooseFree: chooseFree})
	if res.Violation == nil {
		return Schedule{}, res
	}
	sc, err := FromTrail(abs, abs, res.Trail, res.Violation.Kind == model.Deadlock, MatchGroups(abs, conc))
	if err != nil {
		t.Fatal(err)
	}
	return sc, res
}

// checkTrail replays a confirmed trail on the concrete model and checks
// that it ends in the violation of kind k.
func checkTrail(t *testing.T, conc *model.Model, trail []int, k model.ErrorKind) {
	t.Helper()
	_, steps, err := search.Replay(conc, trail)
	if err != nil {
		t.Fatalf("the confirmed trail does not replay: %v", err)
	}
	if len(steps) == 0 {
		t.Fatal("empty trail")
	}
	last := steps[len(steps)-1].Step
	if last.Outcome != model.Error || last.Kind != k {
		t.Fatalf("the confirmed trail ends in %v %v, want error %v", last.Outcome, last.Kind, k)
	}
}

func TestSpuriousAssertion(t *testing.T) {
	conc := compile(t, "dec.bir", conc5("1"))
	abs := compile(t, "dec-abs.bir", strings.ReplaceAll(decrementAbstract, "CHOICES", "POS"))
	if r := search.Run(abs, search.Config{ChooseFree: true}); r.Violation != nil {
		t.Fatalf("the choose-free search finds %v; the only violation needs an internChoose", r.Violation.Kind)
	}
	sc, res := abstractTrail(t, abs, conc, false)
	if res.Violation == nil || res.Violation.Kind != model.Assertion {
		t.Fatalf("the abstract model should fail an assertion, got %v", res.Verdict)
	}
	r, err := Replay(conc, sc, Config{Agree: signsAgree(conc)})
	if err != nil {
		t.Fatal(err)
	}
	if r.Confirmed {
		t.Fatalf("confirmed a spurious trail: %v", r.Trail)
	}
	if r.Incomplete {
		t.Fatalf("incomplete: %s", r.Note)
	}
	d := r.Diverge
	if d == nil || d.Step != 3 || d.Thread != "Main[1]" || d.Location != "s2" || d.Reason != "the assertion holds on the concrete model" {
		t.Fatalf("divergence %+v", d)
	}
	if pos := conc.Program().Fset.Position(d.Pos); pos.Line != 9 {
		t.Errorf("divergence at %v, want line 9", pos)
	}
	v := r.ValuesDiverge
	if v == nil || v.Step != 2 || !strings.Contains(v.Reason, "Main[1].y = 0 (ZERO), abstract NEG") {
		t.Fatalf("values diverge %+v", v)
	}
}

func TestConfirmedAssertion(t *testing.T) {
	conc := compile(t, "dec.bir", conc5("0"))
	abs := compile(t, "dec-abs.bir", strings.ReplaceAll(decrementAbstract, "CHOICES", "ZERO, POS"))
	sc, res := abstractTrail(t, abs, conc, false)
	if res.Violation == nil {
		t.Fatal("the abstract model should fail")
	}
	r, err := Replay(conc, sc, Config{Agree: signsAgree(conc)})
	if err != nil {
		t.Fatal(err)
	}
	if !r.Confirmed || r.Method != "concrete" {
		t.Fatalf("not confirmed: %s", r)
	}
	checkTrail(t, conc, r.Trail, model.Assertion)
	if r.ValuesDiverge != nil {
		t.Errorf("the confirmed trail's values should agree: %+v", r.ValuesDiverge)
	}
	// the trail's input is 0, the only one that fails
	_, steps, _ := search.Replay(conc, r.Trail)
	found := false
	for _, v := range conc.Describe(steps[0].After) {
		if v.Name == "Main[1].x" {
			found = v.Value == "0"
		}
	}
	if !found {
		t.Error("the first step should choose x = 0")
	}
}

// A guard the abstract model takes but the concrete one cannot.
func TestGuardDiverges(t *testing.T) {
	conc := compile(t, "g.bir", `system G ()
main thread Main ()
  x : int;
  loc s0:
    when true do { x := externChoose(2, 4, 6); } goto s1;
  loc s1:
    when x % 2 == 1 do { } goto s2;
    when x % 2 == 0 do { } goto s3;
  loc s2:
    when true do { assert(false); } goto s3;
  loc s3:
end Main;
end G;
`)
	abs := compile(t, "g-abs.bir", `system G ()
T = enum { EVEN, ODD };
main thread Main ()
  x : T;
  b : boolean;
  loc s0:
    when true do { x := externChoose(EVEN); } goto s1;
  loc s1:
    when true do { b := internChoose(true, false); } goto s1a;
  loc s1a:
    when b do { } goto s2;
    when !b do { } goto s3;
  loc s2:
    when true do { assert(false); } goto s3;
  loc s3:
end Main;
end G;
`)
	// the abstract model has an extra location (s1a); map by hand: s1 ->
	// s1a -> s2 stands for the concrete s1 -> s2
	cg := conc.Groups()
	find := func(from, to string) int {
		for _, g := range cg {
			if g.From.Name() == from && g.To != nil && g.To.Name() == to {
				return g.Index
			}
		}
		t.Fatalf("no %s -> %s", from, to)
		return -1
	}
	mapping := func(i int) int {
		g := abs.Groups()[i]
		switch {
		case g.From.Name() == "s1":
			return -1
		case g.From.Name() == "s1a" && g.To.Name() == "s2":
			return find("s1", "s2")
		case g.From.Name() == "s1a":
			return find("s1", "s3")
		}
		return find(g.From.Name(), g.To.Name())
	}
	res := search.Run(abs, search.Config{Strategy: search.BFS})
	if res.Violation == nil {
		t.Fatal("no abstract violation")
	}
	// drop the steps without a concrete counterpart
	_, steps, err := search.Replay(abs, res.Trail)
	if err != nil {
		t.Fatal(err)
	}
	var sc Schedule
	for _, ts := range steps {
		var gs []int
		for _, g := range ts.Step.Groups {
			if c := mapping(int(g)); c >= 0 {
				gs = append(gs, c)
			}
		}
		if len(gs) > 0 {
			sc.Steps = append(sc.Steps, Step{Thread: ts.Step.Thread, Groups: gs})
		}
	}
	sc.End = End{Kind: EndError, Error: model.Assertion}
	r, err := Replay(conc, sc, Config{})
	if err != nil {
		t.Fatal(err)
	}
	if r.Confirmed {
		t.Fatal("confirmed")
	}
	d := r.Diverge
	if d == nil || d.Step != 2 || d.Location != "s1" || d.Reason != "guard x % 2 == 1 is false" {
		t.Fatalf("divergence %+v", d)
	}
}

// Every violation the search finds on a concrete example is confirmed
// when its own trail is replayed as a schedule, and the trail found
// replays to the same violation.
func TestSelfReplay(t *testing.T) {
	for _, name := range []string{"peterson-broken", "philosophers-deadlock", "divzero", "null-deref", "bounded-buffer-notify"} {
		t.Run(name, func(t *testing.T) {
			src := readExample(t, name)
			m := compile(t, name+".bir", src)
			res := search.Run(m, search.Config{Strategy: search.BFS})
			if res.Violation == nil {
				t.Fatal("no violation")
			}
			dl := res.Violation.Kind == model.Deadlock
			sc, err := FromTrail(m, m, res.Trail, dl, MatchGroups(m, m))
			if err != nil {
				t.Fatal(err)
			}
			r, err := Replay(m, sc, Config{})
			if err != nil {
				t.Fatal(err)
			}
			if !r.Confirmed {
				t.Fatalf("not confirmed: %s", r)
			}
			if len(r.Trail) != len(res.Trail) {
				t.Fatalf("trail of %d steps, want %d", len(r.Trail), len(res.Trail))
			}
			if !dl {
				checkTrail(t, m, r.Trail, res.Violation.Kind)
			}
		})
	}
}

func TestDeadlockNotConfirmed(t *testing.T) {
	m := compile(t, "d.bir", `system D ()
main thread Main ()
  x : int;
  loc s0:
    when true do { x := externChoose(1, 2); } goto s1;
  loc s1:
    when x > 0 do { } goto s2;
  loc s2:
end Main;
end D;
`)
	// a schedule that claims a deadlock after the first step
	g := -1
	for _, gr := range m.Groups() {
		if gr.From.Name() == "s0" {
			g = gr.Index
		}
	}
	r, err := Replay(m, Schedule{Steps: []Step{{Thread: 0, Groups: []int{g}}}, End: End{Kind: EndDeadlock, Error: model.Deadlock}}, Config{})
	if err != nil {
		t.Fatal(err)
	}
	if r.Confirmed || r.Diverge == nil || r.Diverge.Step != 2 || !strings.HasPrefix(r.Diverge.Reason, "not a deadlock on the concrete model") {
		t.Fatalf("%s %+v", r, r.Diverge)
	}
}

// TestErrorStepBlocked: a schedule whose failing last step is not enabled
// on the concrete model names the guard that is false (the reason was
// empty: "not confirmed: step 2: Main[1] at loop (countup.bir:5:5): ").
func TestErrorStepBlocked(t *testing.T) {
	m := compile(t, "countup.bir", `system C ()
main thread Main ()
  x : int;
  loc loop:
    when x < 10 do { x := x + 1; } goto loop;
    when x >= 10 do { assert(x == 10); } goto done;
  loc done:
end Main;
end C;
`)
	inc, exit := m.Groups()[0].Index, m.Groups()[1].Index
	sc := Schedule{Steps: []Step{{Thread: 0, Groups: []int{inc}}, {Thread: 0, Groups: []int{exit}}}, End: End{Kind: EndError, Error: model.Assertion}}
	r, err := Replay(m, sc, Config{AnyError: true})
	if err != nil {
		t.Fatal(err)
	}
	if d := r.Diverge; r.Confirmed || d == nil || d.Step != 2 || d.Location != "loop" || !strings.HasPrefix(d.Reason, "guard x >= 10 is false") {
		t.Fatalf("%s %+v", r, r.Diverge)
	}
}

func TestBudget(t *testing.T) {
	conc := compile(t, "dec.bir", conc5("1"))
	abs := compile(t, "dec-abs.bir", strings.ReplaceAll(decrementAbstract, "CHOICES", "POS"))
	sc, _ := abstractTrail(t, abs, conc, false)
	r, err := Replay(conc, sc, Config{MaxNodes: 3, NoSymbolic: true})
	if err != nil {
		t.Fatal(err)
	}
	if r.Confirmed || !r.Incomplete {
		t.Fatalf("a budget of 3 states cannot refute the trail: %s", r)
	}
}

func TestBadSchedule(t *testing.T) {
	m := compile(t, "dec.bir", conc5("1"))
	if _, err := Replay(m, Schedule{Steps: []Step{{Thread: 0, Groups: []int{99}}}}, Config{}); err == nil {
		t.Fatal("a transformation out of range should be an error")
	}
}

func readExample(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile("../../../../examples/" + name + ".bir")
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// With a budget too small to enumerate the input, the symbolic replay
// decides: it refutes the spurious trail and finds the input of the real
// one.
func TestSymbolic(t *testing.T) {
	abs := compile(t, "dec-abs.bir", strings.ReplaceAll(decrementAbstract, "CHOICES", "POS"))
	conc := compile(t, "dec.bir", strings.ReplaceAll(conc5("1"), "5", "1000000"))
	sc, _ := abstractTrail(t, abs, conc, false)
	r, err := Replay(conc, sc, Config{MaxNodes: 10})
	if err != nil {
		t.Fatal(err)
	}
	if r.Confirmed || r.Incomplete || r.Method != "symbolic" {
		t.Fatalf("want a symbolic refutation: %s", r)
	}
	if d := r.Diverge; d == nil || d.Step != 3 || d.Reason != "the assertion holds on the concrete model for every choice" {
		t.Fatalf("divergence %+v", d)
	}

	abs = compile(t, "dec-abs.bir", strings.ReplaceAll(decrementAbstract, "CHOICES", "NEG, ZERO, POS"))
	conc = compile(t, "dec.bir", strings.NewReplacer("LO", "-500000", "HI", "500000").Replace(decrementConcrete))
	sc, _ = abstractTrail(t, abs, conc, false)
	r, err = Replay(conc, sc, Config{MaxNodes: 10})
	if err != nil {
		t.Fatal(err)
	}
	if !r.Confirmed || r.Method != "symbolic" {
		t.Fatalf("want a symbolic confirmation: %s", r)
	}
	checkTrail(t, conc, r.Trail, model.Assertion)
}

// A guard that no input satisfies is found by the symbolic replay at its
// step.
func TestSymbolicGuard(t *testing.T) {
	src := `system G ()
g : int;
main thread Main ()
  x : int;
  a : array [2] of boolean;
  loc s0:
    when true do { x := externChoose(0 .. 1000000); a[1] := x > 10; } goto s1;
  loc s1:
    when a[1] && x < 5 do { g := 100 / x; } goto s2;
    when true do { } goto s3;
  loc s2:
    when true do { assert(g < 0); } goto s3;
  loc s3:
end Main;
end G;
`
	m := compile(t, "g.bir", src)
	var sc Schedule
	for _, g := range m.Groups() {
		if g.From.Name() == "s3" || (g.From.Name() == "s1" && g.To.Name() == "s3") {
			continue
		}
		sc.Steps = append(sc.Steps, Step{Thread: 0, Groups: []int{g.Index}})
	}
	sc.End = End{Kind: EndError, Error: model.Assertion}
	r, err := Replay(m, sc, Config{MaxNodes: 5})
	if err != nil {
		t.Fatal(err)
	}
	if r.Confirmed || r.Incomplete || r.Method != "symbolic" {
		t.Fatalf("%s", r)
	}
	if d := r.Diverge; d == nil || d.Step != 2 || d.Location != "s1" || !strings.HasPrefix(d.Reason, "guard a[1] && x < 5 is false") {
		t.Fatalf("divergence %+v", d)
	}
}

func conc5(lo string) string {
	return strings.NewReplacer("LO", lo, "HI", "5").Replace(decrementConcrete)
}

// Lassos: the cycle must close on the concrete model, a stutter must end
// in a final state, and Config.Accept has the last word.
func TestLasso(t *testing.T) {
	m := compile(t, "toggle.bir", `system L ()
x : int;
main thread Main ()
  loc a:
    when true do { x := (x + 1) % 2; } goto b;
  loc b:
    when true do { } goto a;
end Main;
end L;
`)
	steps := func(gs ...int) []Step {
		var out []Step
		for _, g := range gs {
			out = append(out, Step{Thread: 0, Groups: []int{g}})
		}
		return out
	}
	lasso := func(cs int, gs ...int) Schedule {
		return Schedule{Steps: steps(gs...), End: End{Kind: EndLasso, CycleStart: cs}}
	}
	// a -> b -> a toggles x once: back at a with x = 1, not the initial x = 0
	res, err := Replay(m, lasso(0, 0, 1), Config{})
	if err != nil {
		t.Fatal(err)
	}
	if res.Confirmed || res.Diverge == nil || res.Diverge.Step != 3 ||
		res.Diverge.Reason != "the cycle does not close on the concrete model: the state after step 2 is not the initial state (x = 1, was 0)" {
		t.Fatalf("got %+v, %+v", res, res.Diverge)
	}
	// twice round closes it
	var seen [][]byte
	res, err = Replay(m, lasso(0, 0, 1, 0, 1), Config{Accept: func(states [][]byte, ords []int) string {
		seen = append([][]byte(nil), states...)
		if len(ords) != 4 {
			return "want 4 ordinals"
		}
		return ""
	}})
	if err != nil {
		t.Fatal(err)
	}
	if !res.Confirmed || len(res.Trail) != 4 || len(seen) != 5 || string(seen[0]) != string(seen[4]) {
		t.Fatalf("got %+v (%d states)", res, len(seen))
	}
	if _, ts, err := search.Replay(m, res.Trail); err != nil || len(ts) != 4 || string(search.Final(seen[0], ts)) != string(seen[0]) {
		t.Fatalf("the concrete lasso does not replay to its start: %v", err)
	}
	// a cycle from the state after step 1
	res, _ = Replay(m, lasso(1, 0, 1, 0, 1, 0), Config{})
	if !res.Confirmed {
		t.Fatalf("got %+v %+v", res, res.Diverge)
	}
	// Accept refuses: not confirmed, with its reason
	res, _ = Replay(m, lasso(0, 0, 1, 0, 1), Config{Accept: func([][]byte, []int) string { return "the concrete lasso satisfies the formula" }})
	if res.Confirmed || res.Diverge == nil || res.Diverge.Reason != "the concrete lasso satisfies the formula" {
		t.Fatalf("got %+v", res)
	}
	// a stutter needs a final state
	res, _ = Replay(m, lasso(1, 0), Config{})
	if res.Confirmed || res.Diverge == nil || !strings.HasPrefix(res.Diverge.Reason, "the last state is not final on the concrete model: 1 steps are possible (threads Main[1])") {
		t.Fatalf("got %+v %+v", res, res.Diverge)
	}
	if _, err := Replay(m, lasso(3, 0), Config{}); err == nil {
		t.Error("a cycle start beyond the schedule should be an error")
	}

	stop := compile(t, "stop.bir", `system S ()
x : int;
main thread Main ()
  loc a:
    when true do { x := 1; } goto b;
  loc b:
    when x > 5 do { } goto c;
  loc c:
end Main;
end S;
`)
	res, _ = Replay(stop, lasso(1, 0), Config{})
	if !res.Confirmed || len(res.Trail) != 1 {
		t.Fatalf("a deadlock stutters: got %+v %+v", res, res.Diverge)
	}
}

// TestSymbolicContext: under a context that is done the symbolic replay
// gets no answer, so the trail TestSymbolic confirms is left unconfirmed
// and the replay incomplete (birch check stops the concrete replay phase
// that way at a limit or Ctrl-C).
func TestSymbolicContext(t *testing.T) {
	abs := compile(t, "dec-abs.bir", strings.ReplaceAll(decrementAbstract, "CHOICES", "NEG, ZERO, POS"))
	conc := compile(t, "dec.bir", strings.NewReplacer("LO", "-500000", "HI", "500000").Replace(decrementConcrete))
	sc, _ := abstractTrail(t, abs, conc, false)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	r, err := Replay(conc, sc, Config{MaxNodes: 10, Context: ctx})
	if err != nil {
		t.Fatal(err)
	}
	if r.Confirmed || !r.Incomplete {
		t.Fatalf("with a cancelled context: %s; want an incomplete replay", r)
	}
}
