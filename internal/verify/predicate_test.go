package verify

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"birch/internal/abstraction/predicate"
	"birch/internal/abstraction/predicate/c2bp"
	"birch/internal/bir/ast"
	"birch/internal/bir/types"
	"birch/internal/model"
	"birch/internal/search"
	"birch/internal/source"
)

// The tests of the check with predicate abstraction hold its plumbing to
// what it must do with an abstract model written by hand as c2bp's design
// says it is (same locations and transformations, an added first step
// that chooses the predicates, abstract assertions that stand for runtime
// errors): the pass, the confirmed failure with its input values and a
// trail that replays, the spurious violation that names its step, and the
// properties it does not check.

// gate: x is an unbounded input; at s2 the step ACTION runs after the
// guard x > 5.
const gateModel = `system Gate ()
  x : int;
  main thread M ()
    loc s0: when true do { x := externChoose(int); } goto s1;
    loc s1: when x > 5 do { } goto s2;
            when x <= 5 do { } goto s3;
    loc s2: when true do { ACTION } goto s3;
    loc s3: when true do { } goto s3;
  end M;
end Gate;
`

// gateAbstract is gate's abstraction with the predicates p (x > 5) and q
// (the second predicate, x > K): abs_init, a location the abstraction
// added, chooses them (q implies p, K >= 5); s0 makes them unknown; the
// guards are G(x > 5) = p and G(x <= 5) = !p. ACTION is the abstract s2.
const gateAbstract = `system Gate ()
  p : boolean;
  q : boolean;
  main thread M ()
    loc abs_init: when true do { p := internChoose(true, false); q := internChoose(true, false); assume(p || !q); } goto s0;
    loc s0: when true do { p := internChoose(true, false); q := internChoose(true, false); assume(p || !q); } goto s1;
    loc s1: when p do { } goto s2;
            when !p do { } goto s3;
    loc s2: when true do { ACTION } goto s3;
    loc s3: when true do { } goto s3;
  end M;
end Gate;
`

// handAbstraction is an abstraction function that returns the abstract
// model src for any predicate file, with every transformation of a
// location the concrete model has mapped to the one at the same index;
// errs lists the abstract assertions (location: action index and kind)
// that stand for an overflow at the concrete location's first +, or for
// its first assertion, as c2bp records them.
func handAbstraction(t *testing.T, src string, errs map[string]handError) func(*types.Program, *predicate.File, c2bp.Config) (*c2bp.Output, error) {
	return func(prog *types.Program, file *predicate.File, cfg c2bp.Config) (*c2bp.Output, error) {
		in, err := Load("gate.pred.bir", []byte(src))
		if err != nil {
			return nil, err // Abstract's caller reports it
		}
		out := &c2bp.Output{Source: []byte(src), Program: in.Prog, Map: &c2bp.Map{Concrete: prog, Abstract: in.Prog}}
		conc := map[string]*types.Location{}
		for _, l := range prog.Threads[0].Locations {
			conc[l.Name()] = l
		}
		for _, l := range in.Prog.Threads[0].Locations {
			cl := conc[l.Name()]
			if cl == nil {
				continue
			}
			for i, tr := range l.Decl.Transformations {
				o := &c2bp.Origin{Abstract: tr, Proc: prog.Threads[0], Location: cl, Transformation: cl.Decl.Transformations[i], Index: i}
				if e, ok := errs[l.Name()]; ok {
					o.Errors = map[int]c2bp.ErrorOutcome{e.action: {Kind: e.kind, Pos: firstOf(o.Transformation, e.kind)}}
				}
				out.Map.Origins = append(out.Map.Origins, o)
			}
		}
		for i, p := range file.Predicates {
			out.Predicates = append(out.Predicates, &c2bp.Pred{Predicate: p, Var: []string{"p", "q"}[i]})
		}
		out.Abstracted = []string{"x"}
		out.Stats = c2bp.Stats{Predicates: len(file.Predicates), Transformations: 6, Queries: 40, CacheHits: 3}
		return out, nil
	}
}

// handError is an abstract assertion that stands for a concrete error.
type handError struct {
	action int
	kind   model.ErrorKind
}

// firstOf is the position of tr's first + (for an overflow) or assertion.
func firstOf(tr *ast.Transformation, k model.ErrorKind) (pos source.Pos) {
	ast.Inspect(tr, func(n ast.Node) bool {
		if b, ok := n.(*ast.BinaryExpr); ok && !pos.IsValid() && k == model.Overflow && b.Op.String() == "+" {
			pos = b.OpPos
		}
		if a, ok := n.(*ast.AssertAction); ok && !pos.IsValid() && k == model.Assertion {
			pos = a.Pos()
		}
		return true
	})
	return pos
}

// checkGate checks gate with ACTION concrete and abstract, and the
// predicates preds, with the explicit engine and with bebop (the abstract
// model is a boolean program), which must agree on the verdict, the
// violation, its confirmation and inputs; it returns the explicit check's
// result.
func checkGate(t *testing.T, action, absAction, preds string, errs map[string]handError, sel Selection) *Result {
	t.Helper()
	var out [2]*Result
	for i, engine := range []string{"explicit", "bebop"} {
		in, err := Load("gate.bir", []byte(strings.Replace(gateModel, "ACTION", action, 1)))
		if err != nil {
			t.Fatal(err)
		}
		pa := &PredicateAbstraction{File: "gate.pred", ReadFile: func(string) ([]byte, error) { return []byte(preds), nil }, Engine: engine,
			abstract: handAbstraction(t, strings.Replace(gateAbstract, "ACTION", absAction, 1), errs)}
		if out[i], err = Run(&Task{Input: in, Predicates: pa, Select: sel}); err != nil {
			t.Fatal(err)
		}
		if c := out[i].Checks[0]; c.Predicates.Engine.Name != engine || (engine == "bebop") != (c.Search == "bebop") {
			t.Fatalf("engine %s, search %s, want %s", c.Predicates.Engine.Name, c.Search, engine)
		}
	}
	summary := func(r *Result) string {
		c := r.Checks[0]
		s := r.Verdict().String()
		if v := c.Violation; v != nil {
			s += fmt.Sprintf(" %s %s %v %+v", v.Kind, v.Message, v.Confirmation.Confirmed, v.Inputs)
			if d := v.Confirmation.Diverges; d != nil {
				s += fmt.Sprintf(" %+v", *d)
			}
		}
		return s
	}
	if e, b := summary(out[0]), summary(out[1]); e != b {
		t.Errorf("the engines disagree:\nexplicit: %s\nbebop:    %s", e, b)
	}
	return out[0]
}

// A pass of the abstract model is a proof, resting on the abstraction; the
// unbounded choice does not stop the check; deadlocks are not checked and
// the title says so.
func TestPredicatesPass(t *testing.T) {
	res := checkGate(t, "assert(x > 0);", "assert(p);", "x > 5\nx > 7\n", nil, Selection{})
	c := res.Checks[0]
	if res.Verdict() != Pass || len(res.Checks) != 1 {
		t.Fatalf("verdict %v (%s), %d checks", res.Verdict(), c.Reason, len(res.Checks))
	}
	if !c.RestsOn.Has(Abstracted) || !strings.Contains(c.RestsOn.String(), "predicate abstraction (2 predicates of gate.pred): an over-approximation, so a pass is a proof") {
		t.Errorf("rests on %s", c.RestsOn)
	}
	if got := c.Properties[0].Title; got != "safety (assertions, runtime errors; deadlocks not checked)" {
		t.Errorf("title %q", got)
	}
	pi := c.Predicates
	if pi == nil || strings.Join(pi.Predicates, ";") != "x > 5;x > 7" || strings.Join(pi.Variables, ";") != "p;q" || pi.Stats.Queries != 40 || c.Stats.States == 0 {
		t.Errorf("predicate info %+v, stats %+v", pi, c.Stats)
	}
}

// By default a one-thread model whose abstraction is a boolean program is
// decided by bebop; with an invariant, or with an option of the explicit
// search, the explicit engine searches and says why not bebop; asking for
// bebop where it does not apply is a usage error.
func TestPredicatesEngine(t *testing.T) {
	for _, tc := range []struct {
		engine, inv string
		cfg         search.Config
		want, note  string
	}{
		{"", "", search.Config{}, "bebop", ""},
		{"", "invariant big: x < 100;", search.Config{}, "explicit", "a boolean program has no invariants"},
		{"", "", search.Config{MaxDepth: 10}, "explicit", "--max-depth, --max-states and --choose-free are options of the explicit search"},
		{"bebop", "invariant big: x < 100;", search.Config{}, "error", "--engine=bebop does not apply: a boolean program has no invariants"},
	} {
		src := strings.Replace(gateModel, "ACTION", "assert(x > 0);", 1)
		abs := strings.Replace(gateAbstract, "ACTION", "assert(p);", 1)
		if tc.inv != "" {
			src = strings.Replace(src, "end Gate;", "properties\n  "+tc.inv+"\nend Gate;", 1)
			abs = strings.Replace(abs, "end Gate;", "properties\n  invariant big: true;\nend Gate;", 1)
		}
		in, err := Load("gate.bir", []byte(src))
		if err != nil {
			t.Fatal(err)
		}
		pa := &PredicateAbstraction{File: "gate.pred", ReadFile: func(string) ([]byte, error) { return []byte("x > 5\n"), nil }, Engine: tc.engine,
			abstract: handAbstraction(t, abs, nil)}
		res, err := Run(&Task{Input: in, Predicates: pa, Search: tc.cfg})
		if tc.want == "error" {
			if err == nil || err.Error() != tc.note {
				t.Errorf("%+v: err %v", tc, err)
			}
			continue
		}
		if err != nil {
			t.Fatal(err)
		}
		e := res.Checks[0].Predicates.Engine
		if e.Name != tc.want || e.Note != tc.note || (e.Name == "bebop") != (e.BDDNodes > 0) {
			t.Errorf("%+v: engine %+v", tc, e)
		}
		if tc.cfg.MaxDepth == 0 && res.Verdict() != Pass {
			t.Errorf("%+v: verdict %v", tc, res.Verdict())
		}
	}
}

// A violation of the abstract model that the concrete model has is
// confirmed with the input the solver found, and its trail replays on the
// model given that input (as birch replay does); the step the abstraction
// added is not part of it.
func TestPredicatesConfirmed(t *testing.T) {
	res := checkGate(t, "assert(x > 7);", "assert(q);", "x > 5\nx > 7\n", nil, Selection{})
	c := res.Checks[0]
	v := c.Violation
	if res.Verdict() != Fail || v == nil || !v.Confirmation.Confirmed {
		t.Fatalf("verdict %v: %s", res.Verdict(), c.Reason)
	}
	if v.Kind != "assertion" || len(v.Trail) != 3 || len(v.Inputs) != 1 {
		t.Fatalf("violation %s with %d steps, inputs %+v", v.Kind, len(v.Trail), v.Inputs)
	}
	in := v.Inputs[0]
	if in.Step != 1 || in.Action != "x := externChoose(int)" || in.Value <= 5 || in.Value > 7 || in.Pos != "gate.bir:4:33" {
		t.Errorf("input %+v", in)
	}
	if got := c.Abstraction.AbstractViolation.Message; got != "assertion violated: x > 7 (may be false in the abstract state)" {
		t.Errorf("abstract violation %q", got)
	}
	replayed(t, "assert(x > 7);", v, model.Assertion)
}

// replayed replays v's trail on gate (with action) compiled with v's
// choice values, as birch replay does, and checks that it ends in k.
func replayed(t *testing.T, action string, v *Violation, k model.ErrorKind) {
	t.Helper()
	in, err := Load("gate.bir", []byte(strings.Replace(gateModel, "ACTION", action, 1)))
	if err != nil {
		t.Fatal(err)
	}
	if v.ChoiceValues == nil {
		t.Fatal("no choice values for the unbounded choice")
	}
	m := compile(t, in, model.Options{ChoiceValues: v.ChoiceValues})
	_, steps, err := search.Replay(m, v.Ordinals)
	if err != nil {
		t.Fatal(err)
	}
	if last := steps[len(steps)-1].Step; len(steps) != 3 || last.Kind != k {
		t.Fatalf("the trail replays in %d steps, ending in %v", len(steps), last.Kind)
	}
}

// A spurious abstract violation (too few predicates) is not confirmed:
// the check is inconclusive and names the step of the abstract trail
// where the concrete model parts ways.
func TestPredicatesSpurious(t *testing.T) {
	res := checkGate(t, "assert(x > 3);", "assert(q);", "x > 5\nx > 7\n", map[string]handError{"s2": {0, model.Assertion}}, Selection{})
	c := res.Checks[0]
	v := c.Violation
	if res.Verdict() != Inconclusive || v == nil || v.Confirmation.Confirmed {
		t.Fatalf("verdict %v: %s", res.Verdict(), c.Reason)
	}
	d := v.Confirmation.Diverges
	// the abstract trail: abs_init, s0, s1, s2 (the assertion)
	if d == nil || d.Step != 4 || d.Reason != "the assertion holds on the concrete model for every choice" || d.Location != "s2" {
		t.Fatalf("divergence %+v", d)
	}
	if !strings.Contains(c.Reason, "not confirmed") {
		t.Errorf("reason %q", c.Reason)
	}
	// the abstract assertion that Origin.Errors maps to the concrete one
	// is that assertion
	if av := c.Abstraction.AbstractViolation; av.Kind != "assertion" || av.Message != "assertion violated: x > 3 (may be false in the abstract state)" || av.Pos != "gate.bir:7:28" {
		t.Errorf("abstract violation %+v", av)
	}
}

// An abstract assertion that stands for a runtime error is that error:
// the confirmation looks for it (an overflow of x + 1 for the largest x).
func TestPredicatesRuntimeError(t *testing.T) {
	res := checkGate(t, "x := x + 1;", "assert(!q);", "x > 5\nx > 7\n", map[string]handError{"s2": {0, model.Overflow}}, Selection{})
	c := res.Checks[0]
	v := c.Violation
	if res.Verdict() != Fail || v == nil || v.Kind != "overflow" {
		t.Fatalf("verdict %v: %s (%+v)", res.Verdict(), c.Reason, v)
	}
	if len(v.Inputs) != 1 || v.Inputs[0].Value != 1<<63-1 {
		t.Errorf("inputs %+v", v.Inputs)
	}
	if got := c.Abstraction.AbstractViolation.Kind; got != "overflow" {
		t.Errorf("abstract violation %s", got)
	}
	replayed(t, "x := x + 1;", v, model.Overflow)
}

// ltl properties and the invariants the abstraction does not carry are
// not checked (inconclusive, never a pass).
func TestPredicatesNotChecked(t *testing.T) {
	src := strings.Replace(gateModel, "end Gate;", "properties\n  invariant pos: x > -100;\n  ltl ev: <> (x > 0);\nend Gate;", 1)
	in, err := Load("gate.bir", []byte(strings.Replace(src, "ACTION", "assert(x > 0);", 1)))
	if err != nil {
		t.Fatal(err)
	}
	pa := &PredicateAbstraction{File: "gate.pred", ReadFile: func(string) ([]byte, error) { return []byte("x > 5\nx > 7\n"), nil },
		abstract: handAbstraction(t, strings.Replace(gateAbstract, "ACTION", "assert(p);", 1), nil)}
	res, err := Run(&Task{Input: in, Predicates: pa})
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]Verdict{}
	for _, c := range res.Checks {
		for p, v := range verdicts(c) {
			got[p] = v
		}
	}
	want := map[string]Verdict{"safety (assertions, runtime errors; deadlocks not checked)": Pass, "ltl property ev": Inconclusive, "invariant pos": Inconclusive}
	if len(got) != len(want) || res.Verdict() != Inconclusive {
		t.Fatalf("verdicts %v", got)
	}
	for p, v := range want {
		if got[p] != v {
			t.Errorf("%s: %v, want %v", p, got[p], v)
		}
	}
}

// A predicate file with an error is bad input, positioned in the file.
func TestPredicatesBadFile(t *testing.T) {
	in, err := Load("gate.bir", []byte(strings.Replace(gateModel, "ACTION", "", 1)))
	if err != nil {
		t.Fatal(err)
	}
	pa := &PredicateAbstraction{File: "gate.pred", ReadFile: func(string) ([]byte, error) { return []byte("x > 5\ny < 3\n"), nil }}
	_, err = Run(&Task{Input: in, Predicates: pa})
	var list interface{ Error() string }
	if err == nil || !errors.As(err, &list) || !strings.HasPrefix(err.Error(), "gate.pred:2:1: ") {
		t.Fatalf("err %v", err)
	}
}

// A model the abstraction cannot translate soundly is inconclusive, with
// every position it names, never a guess.
func TestPredicatesUnsupported(t *testing.T) {
	in, err := Load("gate.bir", []byte(strings.Replace(gateModel, "ACTION", "", 1)))
	if err != nil {
		t.Fatal(err)
	}
	unsupported := func(prog *types.Program, file *predicate.File, cfg c2bp.Config) (*c2bp.Output, error) {
		var list source.ErrorList
		list.Add(source.Position{Filename: "gate.bir", Line: 5, Column: 13}, "one construct")
		list.Add(source.Position{Filename: "gate.bir", Line: 7, Column: 13}, "another")
		return nil, &c2bp.UnsupportedError{List: list}
	}
	pa := &PredicateAbstraction{File: "gate.pred", ReadFile: func(string) ([]byte, error) { return []byte("x > 5\n"), nil }, abstract: unsupported}
	res, err := Run(&Task{Input: in, Predicates: pa})
	if err != nil {
		t.Fatal(err)
	}
	c := res.Checks[0]
	if res.Verdict() != Inconclusive || !strings.Contains(c.Reason, "gate.bir:5:13: one construct; gate.bir:7:13: another") {
		t.Fatalf("verdict %v: %s", res.Verdict(), c.Reason)
	}
}

// An invariant the abstract model carries (C2bp writes it as low(inv)) is
// checked, and its violation confirmed with the input that violates it.
func TestPredicatesInvariant(t *testing.T) {
	src := strings.Replace(gateModel, "end Gate;", "properties\n  invariant not6: x != 6;\nend Gate;", 1)
	in, err := Load("gate.bir", []byte(strings.Replace(src, "ACTION", "", 1)))
	if err != nil {
		t.Fatal(err)
	}
	abs := strings.Replace(gateAbstract, "end Gate;", "properties\n  invariant not6: !p || q;\nend Gate;", 1)
	// x = 0 at first: p and q are false, as the first step (added by the
	// abstraction) sets them
	abs = strings.Replace(abs, "loc abs_init: when true do { p := internChoose(true, false); q := internChoose(true, false); assume(p || !q); }",
		"loc abs_init: when true do { p := false; q := false; }", 1)
	pa := &PredicateAbstraction{File: "gate.pred", ReadFile: func(string) ([]byte, error) { return []byte("x > 5\nx > 7\n"), nil },
		abstract: handAbstraction(t, strings.Replace(abs, "ACTION", "", 1), nil)}
	res, err := Run(&Task{Input: in, Predicates: pa})
	if err != nil {
		t.Fatal(err)
	}
	c := res.Checks[0]
	v := c.Violation
	if len(res.Checks) != 1 || res.Verdict() != Fail || v == nil || v.Kind != "invariant" || c.Violated().Title != "invariant not6" {
		t.Fatalf("%d checks, verdict %v: %s", len(res.Checks), res.Verdict(), c.Reason)
	}
	if len(v.Inputs) != 1 || v.Inputs[0].Value != 6 {
		t.Errorf("inputs %+v", v.Inputs)
	}
}

// TestPredicatesBebopBounds: bebop has no call-depth bound. With
// --on-limit=error, reaching BIR's 64 active calls is a violation, which
// rec.bir has (x = 64); bebop's pass hid it (a wrong pass). Without it,
// bebop's pass holds at any call depth and says so.
func TestPredicatesBebopBounds(t *testing.T) {
	const src = `system Rec ()
function f (n : int)
  loc a:
    when n > 0 do { call f(n - 1); } goto b;
    when n <= 0 do { } return;
  loc b:
    when true do { } return;
end f;
main thread M ()
  x : int;
  loc s0:
    when true do { x := externChoose(int); } goto s1;
  loc s1:
    when true do { call f(x); } goto s2;
  loc s2:
    when true do { assert(x == x); } goto s3;
  loc s3:
end M;
end Rec;
`
	in, err := Load("rec.bir", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	pa := func() *PredicateAbstraction {
		return &PredicateAbstraction{File: "rec.pred", ReadFile: func(string) ([]byte, error) { return []byte("[thread M] x > 0\n"), nil }}
	}
	res, err := Run(&Task{Input: in, Predicates: pa(), Search: search.Config{LimitError: true}})
	if err != nil {
		t.Fatal(err)
	}
	c := res.Checks[0]
	if c.Verdict() == Pass || c.Predicates.Engine.Name == bebopEngine {
		t.Errorf("--on-limit=error: %s by %s (%s), want no pass and not bebop", c.Verdict(), c.Predicates.Engine.Name, c.Reason)
	}
	res, err = Run(&Task{Input: in, Predicates: pa()})
	if err != nil {
		t.Fatal(err)
	}
	if c := res.Checks[0]; c.Verdict() != Pass || c.Predicates.Engine.Name != bebopEngine || !strings.Contains(c.Reason, "at any call depth") {
		t.Errorf("default: %s by %s (%s), want bebop's pass at any call depth", c.Verdict(), c.Predicates.Engine.Name, c.Reason)
	}
}

// TestPredicatesConfirmedOtherError: the abstract trail ends in an
// overflow that may happen (g1 is abstracted), the concrete step fails
// its assertion instead (g1 is 0, g0 is 2): a real violation along the
// schedule, which the check reported inconclusive ("not overflow").
func TestPredicatesConfirmedOtherError(t *testing.T) {
	const src = `system K ()
g0 : int := 2;
g1 : int;
b : int;
main thread T0 ()
  loc l0:
    when true do { b := g1 + 1; assert(g0 == -1); } goto l2;
  loc l2:
end T0;
end K;
`
	in, err := Load("k.bir", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	for _, engine := range []string{"explicit", "bebop"} {
		pa := &PredicateAbstraction{File: "k.pred", Engine: engine, ReadFile: func(string) ([]byte, error) { return []byte("g0 == -1\n"), nil }}
		res, err := Run(&Task{Input: in, Predicates: pa})
		if err != nil {
			t.Fatal(err)
		}
		c := res.Checks[0]
		if c.Verdict() != Fail || c.Violation == nil || c.Violation.Kind != "assertion" || !c.Violation.Confirmation.Confirmed {
			t.Errorf("%s: %s (%s), want a confirmed assertion violation", engine, c.Verdict(), c.Reason)
		}
	}
}

// TestPredicatesTooManyOutcomes: 21 predicates over one variable that a
// step may change leave 2^21 combinations open in that step; the explicit
// engine held them all at once and exhausted the machine's memory under
// --max-memory 2G. The check is inconclusive at once, naming the step.
func TestPredicatesTooManyOutcomes(t *testing.T) {
	const src = `system Fan ()
x : int;
main thread M ()
  loc s0:
    when true do { x := externChoose(int); } goto s1;
  loc s1:
    when x < 100 do { x := x + 1; } goto s1;
    when x >= 100 do { assert(x >= 100); } goto s2;
  loc s2:
end M;
end Fan;
`
	in, err := Load("fan.bir", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	var preds strings.Builder
	for i := 0; i < 21; i++ {
		fmt.Fprintf(&preds, "x > %d\n", 3*i)
	}
	pa := &PredicateAbstraction{File: "fan.pred", Engine: "explicit", ReadFile: func(string) ([]byte, error) { return []byte(preds.String()), nil }}
	res, err := Run(&Task{Input: in, Predicates: pa})
	if err != nil {
		t.Fatal(err)
	}
	c := res.Checks[0]
	if c.Verdict() != Inconclusive || !strings.Contains(c.Reason, "more than the 2^20 that explicit search enumerates in one step") || !strings.Contains(c.Reason, "fan.pred.bir:") {
		t.Errorf("%s (%s), want inconclusive at once, naming the abstract step", c.Verdict(), c.Reason)
	}
}

// TestPredicatesBebopTrailStopped: mapping bebop's failing trail back to
// the abstract model enumerates the successors of each state on it, which
// the abstraction's choices can make millions; it is a phase the limits
// stop (a --time-limit of 50 s ran for ten minutes in it). Ending the run
// when it starts makes the check inconclusive, stopped, where it went on
// to the confirmed failure.
func TestPredicatesBebopTrailStopped(t *testing.T) {
	in, err := Load("gate.bir", []byte(strings.Replace(gateModel, "ACTION", "assert(x > 6);", 1)))
	if err != nil {
		t.Fatal(err)
	}
	pa := &PredicateAbstraction{File: "gate.pred", ReadFile: func(string) ([]byte, error) { return []byte("x > 5\nx > 6\n"), nil }}
	task := &Task{Input: in, Predicates: pa}
	searches := 0
	task.limits().OnPhase = func(phase string, l *Limits) {
		if phase == PhaseSearch {
			if searches++; searches == 2 { // bebop's, then the trail's
				l.End("interrupted")
			}
		}
	}
	res, err := Run(task)
	if err != nil {
		t.Fatal(err)
	}
	c := oneCheck(t, res)
	if c.Verdict() != Inconclusive || !strings.HasPrefix(c.Reason, "interrupted") || c.Predicates.Engine.Name != bebopEngine {
		t.Errorf("verdict %s (%s), engine %+v", c.Verdict(), c.Reason, c.Predicates.Engine)
	}
}
