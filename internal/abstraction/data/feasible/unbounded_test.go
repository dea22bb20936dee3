package feasible

import (
	"fmt"
	"strings"
	"testing"

	"birch/internal/bir/ast"
	"birch/internal/bir/parser"
	"birch/internal/bir/types"
	"birch/internal/model"
	"birch/internal/search"
	"birch/internal/source"
)

// inputs reads two unbounded integers and computes with them: the
// schedule of its three steps is replayed with Config.Given.
const inputs = `system In ()
  x : int;
  y : int;
  z : int;
  main thread M ()
    loc s0: when true do { x := externChoose(int); } goto s1;
    loc s1: when true do { y := externChoose(int); } goto s2;
    loc s2: when x > 10 do { LAST } goto s3;
    loc s3: when true do { } goto s3;
  end M;
end In;
`

// givenModel compiles src with no values for its unbounded choices, and
// the Given function that compiles it with values.
func givenModel(t *testing.T, src string) (*model.Model, func([]int64) (*model.Model, search.Model, error)) {
	t.Helper()
	prog := checkProg(t, src)
	m, err := model.New(prog, model.Options{ChoiceValues: []int64{}})
	if err != nil {
		t.Fatal(err)
	}
	given := func(vals []int64) (*model.Model, search.Model, error) {
		m, err := model.New(prog, model.Options{ChoiceValues: vals})
		return m, m, err
	}
	return m, given
}

// The symbolic replay solves for unbounded inputs (which the concrete
// replay cannot enumerate) and confirms a trail ending in an assertion or
// a runtime error with the values it found, or refutes it at its last
// step; an error of another kind that comes first does not confirm it.
func TestReplayUnboundedInputs(t *testing.T) {
	for _, tc := range []struct {
		last    string
		end     model.ErrorKind
		confirm bool
		why     string
	}{
		{"assert(x + y != 7);", model.Assertion, true, ""},
		{"z := x * 3; assert(z != 39 || y != -2);", model.Assertion, true, ""},
		{"z := x + y;", model.Overflow, true, ""},
		{"z := y / (x - 11);", model.DivisionByZero, true, ""},
		// an assumption after the failure does not rule it out (it did:
		// assumes were path conditions of the whole last step)
		{"assert(x + y != 7); assume(x + y == 100);", model.Assertion, true, ""},
		{"z := y / (x - 11); assume(x != 11);", model.DivisionByZero, true, ""},
		{"assume(x != 11); z := y / (x - 11);", model.DivisionByZero, false, "the step raises no division-by-zero error on the concrete model for any choice"},
		{"assert(x > 5);", model.Assertion, false, "the assertion holds on the concrete model for every choice"},
		// x + 1 overflows first where the assertion would fail
		{"assert(x + 1 > x);", model.Assertion, false, "the assertion holds on the concrete model for every choice"},
		{"z := x - 10;", model.Overflow, false, "the step raises no overflow error on the concrete model for any choice"},
	} {
		m, given := givenModel(t, replaceLast(inputs, tc.last))
		sc := Schedule{Steps: []Step{{Groups: []int{0}}, {Groups: []int{1}}, {Groups: []int{2}}}, End: End{Kind: EndError, Error: tc.end}}
		r, err := Replay(m, sc, Config{Given: given})
		if err != nil {
			t.Fatal(err)
		}
		if r.Confirmed != tc.confirm || r.Incomplete || r.Method != "symbolic" {
			t.Errorf("%s: %s", tc.last, r)
			continue
		}
		if !tc.confirm {
			if d := r.Diverge; d == nil || d.Step != 3 || d.Reason != tc.why {
				t.Errorf("%s: divergence %+v, want step 3: %s", tc.last, d, tc.why)
			}
			continue
		}
		if len(r.Choices) != 2 || r.Choices[0].Step != 1 || r.Choices[1].Step != 2 {
			t.Fatalf("%s: choices %+v", tc.last, r.Choices)
		}
		x, y := r.Choices[0].Value, r.Choices[1].Value
		if x <= 10 {
			t.Errorf("%s: x = %d does not take the guard x > 10", tc.last, x)
		}
		// the trail replays on the model given the values, and ends in the
		// error
		gm, _, err := given([]int64{x, y})
		if err != nil {
			t.Fatal(err)
		}
		checkTrail(t, gm, r.Trail, tc.end)
	}
}

func replaceLast(src, last string) string {
	for i := 0; i+4 <= len(src); i++ {
		if src[i:i+4] == "LAST" {
			return src[:i] + last + src[i+4:]
		}
	}
	return src
}

// A schedule the symbolic replay does not handle (a lasso) is incomplete
// on a model with unbounded choices, never refuted.
func TestReplayUnboundedUnsupported(t *testing.T) {
	m, given := givenModel(t, replaceLast(inputs, ""))
	sc := Schedule{Steps: []Step{{Groups: []int{0}}}, End: End{Kind: EndError, Error: model.NullDereference}}
	r, err := Replay(m, sc, Config{Given: given})
	if err != nil {
		t.Fatal(err)
	}
	if r.Confirmed || !r.Incomplete || r.Diverge != nil {
		t.Fatalf("want an incomplete replay: %s", r)
	}
}

// An invariant the first input can violate: the symbolic replay solves
// for the violation after the last step (with Config.Invariants), and
// refutes a schedule after which the invariants hold whatever the inputs.
func TestReplayUnboundedInvariant(t *testing.T) {
	for _, tc := range []struct {
		inv     string
		confirm bool
	}{
		{"x != 42", true},
		{"x >= 0 || x < 0", false},
	} {
		src := replaceLast(inputs, "")
		src = src[:len(src)-len("end In;\n")] + "properties\n  invariant i: " + tc.inv + ";\nend In;\n"
		prog := checkProg(t, src)
		checked := func(vals []int64) (*model.Model, search.Model, error) {
			m, err := model.New(prog, model.Options{ChoiceValues: vals})
			if err != nil {
				return nil, nil, err
			}
			inv, err := search.NewInvariants(m, prog.Properties)
			if err != nil {
				return nil, nil, err
			}
			return m, search.WithStateCheck(m, inv), nil
		}
		m, sm, err := checked([]int64{})
		if err != nil {
			t.Fatal(err)
		}
		sc := Schedule{Steps: []Step{{Groups: []int{0}}}, End: End{Kind: EndError, Error: model.InvariantViolated}}
		r, err := Replay(m, sc, Config{Checked: sm, Given: checked, Invariants: []ast.Expr{prog.Properties[0].Decl.Expr}})
		if err != nil {
			t.Fatal(err)
		}
		if r.Confirmed != tc.confirm || r.Incomplete {
			t.Fatalf("%s: %s", tc.inv, r)
		}
		if tc.confirm && (len(r.Choices) != 1 || r.Choices[0].Value != 42 || len(r.Trail) != 1) {
			t.Errorf("%s: choices %+v, trail %v", tc.inv, r.Choices, r.Trail)
		}
		if !tc.confirm && (r.Diverge == nil || r.Diverge.Reason != "the invariants hold on the concrete model after the step for every choice") {
			t.Errorf("%s: divergence %+v", tc.inv, r.Diverge)
		}
	}
}

// checkProg parses and type-checks src.
func checkProg(t *testing.T, src string) *types.Program {
	t.Helper()
	fset := source.NewFileSet()
	f, err := parser.ParseFile(fset, "in.bir", []byte(src), 0)
	if err != nil {
		t.Fatal(err)
	}
	prog, err := types.Check(fset, f, nil)
	if err != nil {
		t.Fatal(err)
	}
	return prog
}

// heapInputs stores an unbounded input in a record, which the symbolic
// replay does not handle.
const heapInputs = `system H ()
  R = record { v : int; };
  RRef = ref R {Rs};
  Rs : collection [2] of R;
  main thread M ()
    r : RRef;
    x : int;
    loc s0: when true do { x := externChoose(int); r := new Rs; r.v := x; } goto s1;
    loc s1: when true do { COND } goto s2;
    loc s2: when true do { } goto s2;
  end M;
end H;
`

// Where the symbolic replay gives up, the inputs among the model's
// constants confirm a trail they violate (x == 10 at r.v != 10), and leave
// the replay incomplete, never refuted, where they do not (x == 7 at
// r.v * 2 != 14).
func TestReplayUnboundedSampled(t *testing.T) {
	for _, tc := range []struct {
		cond    string
		confirm bool
	}{
		{"assert(r.v != 10);", true},
		{"assert(r.v * 2 != 14);", false},
	} {
		m, given := givenModel(t, strings.Replace(heapInputs, "COND", tc.cond, 1))
		var last *model.Model // the model Given compiled last
		var lastVals []int64
		sc := Schedule{Steps: []Step{{Groups: []int{0}}, {Groups: []int{1}}}, End: End{Kind: EndError, Error: model.Assertion}}
		r, err := Replay(m, sc, Config{Given: func(vals []int64) (*model.Model, search.Model, error) {
			gm, sm, err := given(vals)
			last, lastVals = gm, vals
			return gm, sm, err
		}})
		if err != nil {
			t.Fatal(err)
		}
		if r.Confirmed != tc.confirm || r.Incomplete == tc.confirm {
			t.Fatalf("%s: %s", tc.cond, r)
		}
		if !tc.confirm {
			// both replays were tried, and the note says so
			if r.Diverge != nil || !strings.Contains(r.Note, "the symbolic replay does not handle") || !strings.Contains(r.Note, "the concrete replay with each unbounded choice narrowed to") {
				t.Errorf("%s: %s", tc.cond, r)
			}
			continue
		}
		// the trail is on the model given only its input, x == 10, which
		// Choices names
		checkTrail(t, last, r.Trail, model.Assertion)
		if r.Method != "sampled" || fmt.Sprint(lastVals) != "[10]" || len(r.Choices) != 1 || r.Choices[0].Value != 10 || r.Choices[0].Step != 1 {
			t.Errorf("%s: method %s, values %v, choices %+v", tc.cond, r.Method, lastVals, r.Choices)
		}
	}
}

// A trail that ends in an overflow of its last guard is confirmed although
// the guard, computed without the overflow, is false.
func TestReplayUnboundedGuardError(t *testing.T) {
	src := `system G ()
  x : int;
  main thread M ()
    loc s0: when true do { x := externChoose(int); } goto s1;
    loc s1: when x + 1 < 0 do { } goto s2;
    loc s2: when true do { } goto s2;
  end M;
end G;
`
	m, given := givenModel(t, src)
	sc := Schedule{Steps: []Step{{Groups: []int{0}}, {Groups: []int{1}}}, End: End{Kind: EndError, Error: model.Overflow}}
	r, err := Replay(m, sc, Config{Given: given})
	if err != nil {
		t.Fatal(err)
	}
	if !r.Confirmed || len(r.Choices) != 1 || r.Choices[0].Value != 1<<63-1 {
		t.Fatalf("%s, choices %+v", r, r.Choices)
	}
}
