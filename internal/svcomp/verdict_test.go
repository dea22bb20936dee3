package svcomp

import (
	"strings"
	"testing"

	cfront "birch/internal/frontend/c"
	"birch/internal/source"
	"birch/internal/verify"
)

// prog is the C text the positions of the verdict tests name.
var prog = map[int]string{
	5:  "    x = x / y;",
	7:  "  if (x > 3) reach_error();",
	8:  "ERROR: return 1;",
	9:  "  assert(x != 2);",
	10: "  __VERIFIER_error();",
}

func progLine(file string, line int) string {
	if file != "prog.c" {
		return ""
	}
	return prog[line]
}

func failed(kind, msg, pos string, confirmed bool) *verify.Result {
	v := &verify.Violation{Kind: kind, Message: msg, Pos: pos, Confirmation: verify.Confirmation{Confirmed: confirmed}}
	return &verify.Result{Checks: []*verify.Check{{Violation: v, Reason: kind + ": " + msg}}}
}

func TestDecide(t *testing.T) {
	out := &cfront.Output{Property: []source.Position{
		{Filename: "prog.c", Line: 7, Column: 14}, {Filename: "prog.c", Line: 8, Column: 1}, {Filename: "prog.c", Line: 9, Column: 3},
		{Filename: "prog.c", Line: 10, Column: 3},
	}}
	call := &Property{Name: "unreach-call", Kind: UnreachCall, Function: "reach_error", Expected: "false"}
	label := &Property{Name: "unreach-label", Kind: UnreachLabel, Label: "ERROR"}
	overflow := &Property{Name: "no-overflow", Kind: NoOverflow, Expected: "true"}
	mem := &Property{Name: "valid-memsafety", Kind: Unsupported, Why: "property valid-memsafety: birch checks unreach-call, unreach-label and no-overflow only"}
	pass := &verify.Result{Checks: []*verify.Check{{Explored: true, Reason: "no violation: every reachable state was explored"}}}
	stopped := &verify.Result{Checks: []*verify.Check{{Reason: "time limit reached (--time-limit=1s)", Stopped: &verify.Stop{Reason: "time limit"}}}}
	for _, tc := range []struct {
		name   string
		p      *Property
		res    *verify.Result
		answer Answer
		reason string
	}{
		{"pass", call, pass, True, "unreach-call (reach_error) holds: no violation"},
		{"call", call, failed("assertion", "assertion violated: false", "prog.c:7:14", true), False, "violated at prog.c:7:14"},
		{"not confirmed", call, failed("assertion", "assertion violated: false", "prog.c:7:14", false), Unknown, "inconclusive: assertion"},
		{"division by zero", call, failed("division-by-zero", "division by zero", "prog.c:5:11", true), Unknown,
			"a runtime error that is not the property unreach-call (reach_error) (undefined behaviour of the C program, or an error of the model): division-by-zero: division by zero at prog.c:5:11"},
		// an assertion of the model that is not one of the property's
		{"other assertion", call, failed("assertion", "assertion violated: x < 4", "prog.c:5:5", true), Unknown, "not the property"},
		// the label is a property position, but not the function's call
		{"label for call", call, failed("assertion", "assertion violated: false", "prog.c:8:1", true), Unknown, "the label ERROR is reachable (at prog.c:8:1), in a program that never calls reach_error"},
		{"old error function for call", call, failed("assertion", "assertion violated: false", "prog.c:10:3", true), Unknown, "the call of __VERIFIER_error is reachable (at prog.c:10:3), in a program that never calls reach_error"},
		{"assert for call", call, failed("assertion", "assertion violated: x != 2", "prog.c:9:3", true), Unknown, "not the property"},
		{"label", label, failed("assertion", "assertion violated: false", "prog.c:8:1", true), False, "unreach-label (ERROR) violated"},
		{"call for label", label, failed("assertion", "assertion violated: false", "prog.c:7:14", true), Unknown, "not the property"},
		// the source cannot be read: the lowering's one error function
		// is trusted for a call, never for a label
		{"unread call", call, failed("assertion", "assertion violated: false", "gone.c:7:14", true), Unknown, "not the property"},
		{"stopped", call, stopped, Unknown, "inconclusive: time limit reached"},
		{"overflow", overflow, failed("assertion", "assertion violated: (-2147483648) <= x + y && x + y <= 2147483647", "prog.c:5:5", true), False, "no-overflow violated"},
		{"overflow 8", overflow, failed("assertion", "assertion violated: -128 <= c * 2 && c * 2 <= 127", "prog.c:5:5", true), False, "no-overflow violated"},
		{"overflow 64", overflow, failed("overflow", "integer overflow", "prog.c:5:5", true), False, "no-overflow violated"},
		// bounds of no signed type, or the program's own assertion
		{"not overflow bounds", overflow, failed("assertion", "assertion violated: (-2147483648) <= x && x <= 100", "prog.c:5:5", true), Unknown, "not the property"},
		{"own assertion", overflow, failed("assertion", "assertion violated: (-128) <= x && x <= 127", "prog.c:9:3", true), Unknown, "not the property"},
		{"no overflow", overflow, pass, True, "no-overflow holds"},
		{"overflow ub", overflow, failed("division-by-zero", "division by zero", "prog.c:5:11", true), Unknown, "not the property"},
		{"unsupported property", mem, pass, Unknown, "birch checks unreach-call, unreach-label and no-overflow only"},
	} {
		o := Decide(tc.p, tc.res, out, progLine)
		if o.Answer != tc.answer || !strings.Contains(o.Reason, tc.reason) {
			t.Errorf("%s: got %s (%s), want %s (%s)", tc.name, o.Answer, o.Reason, tc.answer, tc.reason)
		}
	}
}

func TestDecideLinesMappedTwice(t *testing.T) {
	// CIL's #line directives map several lines to one: the text at the
	// position must agree on what is there
	out := &cfront.Output{Property: []source.Position{{Filename: "t.c", Line: 11, Column: 5}}}
	label := &Property{Name: "unreach-label", Kind: UnreachLabel, Label: "ERROR"}
	call := &Property{Name: "unreach-call", Kind: UnreachCall, Function: "reach_error"}
	v := failed("assertion", "assertion violated: false", "t.c:11:5", true)
	for _, tc := range []struct {
		p     *Property
		lines string
		want  Answer
	}{
		{label, "  int tmp___0 ;\n    ERROR: \n  }", False},
		{call, "    reach_error();\n    x = 1;", False},
		{call, "    reach_error();\n    assert(x);", Unknown},
		{label, "    ERROR: ;\n    FAIL: ;", Unknown},
	} {
		lines := func(file string, line int) string {
			if file == "t.c" && line == 11 {
				return tc.lines
			}
			return ""
		}
		if o := Decide(tc.p, v, out, lines); o.Answer != tc.want {
			t.Errorf("%q: %s (%s), want %s", tc.lines, o.Answer, o.Reason, tc.want)
		}
	}
}

func TestDecideUnreadSource(t *testing.T) {
	// a position whose C text cannot be read is not known to be the
	// error function's call (an assert's is a property position too)
	out := &cfront.Output{Property: []source.Position{{Filename: "gone.c", Line: 7, Column: 14}}}
	call := &Property{Name: "unreach-call", Kind: UnreachCall, Function: "reach_error"}
	if o := Decide(call, failed("assertion", "assertion violated: false", "gone.c:7:14", true), out, progLine); o.Answer != Unknown {
		t.Errorf("got %s (%s)", o.Answer, o.Reason)
	}
	label := &Property{Name: "unreach-label", Kind: UnreachLabel, Label: "ERROR"}
	if o := Decide(label, failed("assertion", "assertion violated: false", "gone.c:7:14", true), out, progLine); o.Answer != Unknown {
		t.Errorf("label: got %s (%s)", o.Answer, o.Reason)
	}
}

func TestMentions(t *testing.T) {
	src := []byte("void reach_error2(void);\nint main() { my_reach_error(); ERROR: return 0; }")
	if Mentions(src, "reach_error") {
		t.Error("reach_error found in reach_error2 and my_reach_error")
	}
	if !Mentions(src, "ERROR") || !Mentions(src, "reach_error2") {
		t.Error("ERROR or reach_error2 not found")
	}
}

func TestAgreement(t *testing.T) {
	for _, tc := range []struct {
		answer   Answer
		expected string
		want     string
	}{
		{True, "true", "agrees with the expected verdict"},
		{False, "true", "WRONG: the task expects true"},
		{Unknown, "false", "the task expects false"},
		{True, "", ""},
	} {
		if got := (Outcome{Answer: tc.answer, Expected: tc.expected}).Agreement(); got != tc.want {
			t.Errorf("%s/%s: %q, want %q", tc.answer, tc.expected, got, tc.want)
		}
	}
}

func TestUnsupportedOutcome(t *testing.T) {
	var list source.ErrorList
	list.Add(source.Position{Filename: "prog.c", Line: 3, Column: 9}, "floating-point type double")
	list.Add(source.Position{Filename: "prog.c", Line: 12, Column: 2}, "inline assembly")
	o := UnsupportedOutcome(&Property{Name: "unreach-call", Kind: UnreachCall, Function: "reach_error"}, &cfront.UnsupportedError{List: list})
	want := "the C program uses constructs birch does not handle: prog.c:3:9: floating-point type double; prog.c:12:2: inline assembly"
	if o.Answer != Unknown || o.Reason != want {
		t.Errorf("got %s (%s)", o.Answer, o.Reason)
	}
}

func TestDecidePropertyWhat(t *testing.T) {
	// a macro's expansion: the position's column is the preprocessed
	// line's, and the C text there is the macro's call; the lowering says
	// what each property position is
	pos := []source.Position{{Filename: "m.c", Line: 3, Column: 27}, {Filename: "m.c", Line: 3, Column: 20}}
	out := &cfront.Output{Property: pos, PropertyWhat: []string{"call reach_error", "label ERROR"}}
	lines := func(file string, line int) string {
		if file == "m.c" && line == 3 {
			return "  assert(x != 200 && y != 1);"
		}
		return ""
	}
	call := &Property{Name: "unreach-call", Kind: UnreachCall, Function: "reach_error"}
	label := &Property{Name: "unreach-label", Kind: UnreachLabel, Label: "ERROR"}
	for _, tc := range []struct {
		name   string
		p      *Property
		res    *verify.Result
		answer Answer
		reason string
	}{
		{"call", call, failed("assertion", "assertion violated: false", "m.c:3:27", true), False, "violated at m.c:3:27"},
		{"label", label, failed("assertion", "assertion violated: false", "m.c:3:20", true), False, "violated at m.c:3:20"},
		{"label for call", call, failed("assertion", "assertion violated: false", "m.c:3:20", true), Unknown, "the label ERROR is reachable"},
		{"call for label", label, failed("assertion", "assertion violated: false", "m.c:3:27", true), Unknown, "not the property"},
		// a check of the lowering at the same position is not the property
		{"memory check", call, failed("assertion", "assertion violated: 0 <= i && i < 4", "m.c:3:27", true), Unknown, "not the property"},
	} {
		if o := Decide(tc.p, tc.res, out, lines); o.Answer != tc.answer || !strings.Contains(o.Reason, tc.reason) {
			t.Errorf("%s: got %s (%s), want %s (%s)", tc.name, o.Answer, o.Reason, tc.answer, tc.reason)
		}
	}
	// a violation worded in C terms keeps the model's message
	worded := failed("assertion", "reach_error() called", "m.c:3:27", true)
	worded.Checks[0].Violation.ModelMessage = "assertion violated: false"
	if o := Decide(call, worded, out, lines); o.Answer != False {
		t.Errorf("in C terms: got %s (%s), want false", o.Answer, o.Reason)
	}
	// the lowering says two things at one position: the C text decides
	out = &cfront.Output{Property: []source.Position{pos[0], pos[0]}, PropertyWhat: []string{"call reach_error", "label ERROR"}}
	if o := Decide(call, failed("assertion", "assertion violated: false", "m.c:3:27", true), out, lines); o.Answer != Unknown {
		t.Errorf("two kinds at one position: got %s (%s)", o.Answer, o.Reason)
	}
}
