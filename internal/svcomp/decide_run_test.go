package svcomp

import (
	"strings"
	"testing"

	cfront "birch/internal/frontend/c"
	"birch/internal/search"
	"birch/internal/source"
	"birch/internal/verify"
)

// The answer on checks of models written as the C lowering writes them
// (line directives naming prog.c, the property's positions in
// Output.Property), searched by the explicit engine and by refinement.

const decideModel = `system Prog ()
main thread Main ()
  x : int;
  y : int;
  loc l0:
//line prog.c:3:11
    when true do { x := CHOICE; } goto l1;
  loc l1:
//line prog.c:5:5
    when x == ZERO do { y := 10 / x; } goto l2;
//line prog.c:7:14
    when x > BOUND do { assert(false); } goto l2;
    when x != ZERO && x <= BOUND do { } goto l2;
  loc l2:
end Main;
end Prog;
`

func decideRun(t *testing.T, choice, bound string, cegar bool) Outcome {
	t.Helper()
	zero := "0"
	if strings.HasPrefix(bound, "-") {
		zero = "-5" // x / x with x == -5: no division by zero
	}
	src := strings.NewReplacer("CHOICE", choice, "BOUND", bound, "ZERO", zero).Replace(decideModel)
	in, err := verify.LoadWith("prog.bir", []byte(src), verify.LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	in.C = &cfront.Output{BIR: []byte(src), Property: []source.Position{{Filename: "prog.c", Line: 7, Column: 14}}}
	task := &verify.Task{Input: in, Search: search.Config{NoDeadlock: true, Strategy: search.BFS}}
	if cegar {
		task.Cegar = &verify.Cegar{}
	}
	res, err := verify.Run(task)
	if err != nil {
		t.Fatal(err)
	}
	p := &Property{Name: "unreach-call", Kind: UnreachCall, Function: "reach_error"}
	return Decide(p, res, in.C, func(file string, line int) string {
		if file == "prog.c" && line == 7 {
			return "  if (x > 3) reach_error();"
		}
		return ""
	})
}

func TestDecideOnSearches(t *testing.T) {
	for _, tc := range []struct {
		name          string
		choice, bound string
		cegar         bool
		answer        Answer
		reason        string
	}{
		// x in 1..9: the call is reached when x > 3
		{"explicit false", "externChoose(1..9)", "3", false, False, "unreach-call (reach_error) violated at prog.c:7:14: assertion"},
		// x in 1..9 never exceeds 20
		{"explicit true", "externChoose(1..9)", "20", false, True, "holds: no violation"},
		// x may be 0: a division by zero, undefined behaviour, not the
		// property; the call is not reachable
		{"explicit ub", "externChoose(0..9)", "20", false, Unknown, "division-by-zero: division by zero at prog.c:5:"},
		// unbounded inputs, by refinement
		{"cegar false", "externChoose(int)", "-1", true, False, "violated at prog.c:7:14"},
		{"cegar ub", "externChoose(int)", "9223372036854775806", true, Unknown, "division-by-zero"},
	} {
		o := decideRun(t, tc.choice, tc.bound, tc.cegar)
		if o.Answer != tc.answer || !strings.Contains(o.Reason, tc.reason) {
			t.Errorf("%s: got %s (%s), want %s (%s)", tc.name, o.Answer, o.Reason, tc.answer, tc.reason)
		}
	}
}
