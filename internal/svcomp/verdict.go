package svcomp

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"

	cfront "birch/internal/frontend/c"
	"birch/internal/verify"
)

// Answer is SV-COMP's verdict on a task's property.
type Answer string

// The answers: true (the property holds), false (a violation of the
// property, with a witness), unknown (anything else).
const (
	True    Answer = "true"
	False   Answer = "false"
	Unknown Answer = "unknown"
)

// Outcome is the answer to a task with the reason for it.
type Outcome struct {
	Answer Answer
	Reason string
	// Property is the property's title; Expected its expected_verdict
	// ("" when the task gives none).
	Property string
	Expected string
}

// Agreement says how the answer compares with the task's expected
// verdict: "", "agrees with the expected verdict", "the task expects
// VERDICT" (an unknown), or "WRONG: the task expects VERDICT". It is a
// remark of the report: the answer never depends on it.
func (o Outcome) Agreement() string {
	switch {
	case o.Expected == "":
		return ""
	case o.Answer == Unknown:
		return "the task expects " + o.Expected
	case string(o.Answer) == o.Expected:
		return "agrees with the expected verdict"
	}
	return "WRONG: the task expects " + o.Expected
}

// Decide maps a check of the lowered program (res) to SV-COMP's answer on
// property p:
//
//   - true: the check passed, which it does only after a complete search
//     of the model or a proof by predicate abstraction; every runtime
//     error of the model was excluded with the property;
//   - false: the check failed (its violation confirmed on the model as
//     written, or found by the explicit search of it) at one of the
//     property's positions (out.Property: the calls of the error function,
//     assertions) or, for no-overflow, at a signed-overflow check;
//   - unknown: the check was inconclusive, or it failed elsewhere: a
//     runtime error that is not the property (division by zero, an index
//     out of bounds: undefined behaviour of the C program), which the
//     reason names.
//
// lineOf gives the lines of the C source (for the text at a violation's
// position; "" when the file cannot be read).
func Decide(p *Property, res *verify.Result, out *cfront.Output, lineOf func(file string, line int) string) Outcome {
	o := Outcome{Answer: Unknown, Property: p.Title(), Expected: p.Expected}
	if p.Kind == Unsupported {
		o.Reason = p.Why
		return o
	}
	c := res.Deciding()
	if c == nil {
		o.Reason = "no check was made"
		return o
	}
	switch res.Verdict() {
	case verify.Pass:
		o.Answer = True
		o.Reason = fmt.Sprintf("%s holds: %s", p.Title(), c.Reason)
	case verify.Fail:
		v := c.Violation
		if v == nil || !v.Confirmation.Confirmed {
			o.Reason = "a violation that is not confirmed: " + c.Reason
			return o
		}
		if isProperty(p, v, out, lineOf) {
			o.Answer = False
			o.Reason = fmt.Sprintf("%s violated at %s: %s: %s", p.Title(), v.Pos, v.Kind, v.Message)
			return o
		}
		if what := otherError(v, out, lineOf); what != "" && p.Kind == UnreachCall {
			o.Reason = fmt.Sprintf("%s is reachable (at %s), in a program that never calls %s: CPAchecker's tests take it for the property, SV-COMP's unreach-call does not",
				what, v.Pos, p.Function)
			return o
		}
		o.Reason = fmt.Sprintf("a runtime error that is not the property %s (undefined behaviour of the C program, or an error of the model): %s: %s at %s",
			p.Title(), v.Kind, v.Message, v.Pos)
	default:
		o.Reason = "inconclusive: " + c.Reason
	}
	return o
}

// isProperty reports whether violation v is one of property p: for
// reachability, an assertion failure at one of the lowering's property
// positions whose C text is the call of p's error function (unreach-call)
// or p's label (unreach-label); for no-overflow, a signed overflow.
func isProperty(p *Property, v *verify.Violation, out *cfront.Output, lineOf func(string, int) string) bool {
	if p.Kind == NoOverflow {
		return isOverflow(v, out)
	}
	if !reachAssertion(v, out) {
		return false
	}
	// the property's positions are also the assertions (assert,
	// __assert_fail) and the other error functions and labels: the
	// lowering says which this one is, else the C text
	if what := whatAt(v, out); what != "" {
		switch p.Kind {
		case UnreachCall:
			return what == "call "+p.Function
		case UnreachLabel:
			return what == "label "+p.Label
		}
		return false
	}
	switch p.Kind {
	case UnreachCall:
		return onlyOne(textsAt(v.Pos, lineOf), callOf) == p.Function
	case UnreachLabel:
		return onlyOne(textsAt(v.Pos, lineOf), labelOf) == p.Label
	}
	return false
}

// onlyOne is what kind (callOf, labelOf) finds in the texts, when they
// agree on one ("" when none finds anything, or two differ).
func onlyOne(texts []string, kind func(string) string) string {
	found := ""
	for _, t := range texts {
		switch k := kind(t); {
		case k == "":
		case found == "":
			found = k
		case k != found:
			return ""
		}
	}
	return found
}

// otherError names the label or the error function at the position of v,
// a property position of the lowering ("the label ERROR", "the call of
// __VERIFIER_error"), or "".
func otherError(v *verify.Violation, out *cfront.Output, lineOf func(string, int) string) string {
	if !reachAssertion(v, out) {
		return ""
	}
	if what := whatAt(v, out); what != "" {
		if strings.HasPrefix(what, "label ") {
			return "the " + what
		}
		for _, f := range cfront.DefaultErrorFunctions {
			if what == "call "+f {
				return "the call of " + f
			}
		}
		return ""
	}
	texts := textsAt(v.Pos, lineOf)
	if l := onlyOne(texts, labelOf); l != "" {
		return "the label " + l
	}
	for _, f := range cfront.DefaultErrorFunctions {
		if onlyOne(texts, callOf) == f {
			return "the call of " + f
		}
	}
	return ""
}

// Mentions reports whether C text src has the identifier name.
func Mentions(src []byte, name string) bool {
	return regexp.MustCompile(`\b` + regexp.QuoteMeta(name) + `\b`).Match(src)
}

// textsAt is the C text from a position to the end of its line: one
// text for each line lineOf gives (several, separated by newlines, where
// #line directives map several lines to one), none when it cannot be read.
func textsAt(pos string, lineOf func(string, int) string) []string {
	file, line, col, ok := splitPosCol(pos)
	if !ok {
		return nil
	}
	var out []string
	for _, l := range strings.Split(lineOf(file, line), "\n") {
		if col >= 1 && col <= len(l) {
			out = append(out, l[col-1:])
		}
	}
	return out
}

// callOf is the function called by the C text at a position
// ("reach_error();" gives reach_error), or "".
func callOf(text string) string {
	id := identAt(text)
	if rest := strings.TrimLeft(text[len(id):], " \t"); id != "" && strings.HasPrefix(rest, "(") {
		return id
	}
	return ""
}

// labelOf is the label at a position ("ERROR: ..." gives ERROR), or "".
func labelOf(text string) string {
	id := identAt(text)
	if rest := strings.TrimLeft(text[len(id):], " \t"); id != "" && strings.HasPrefix(rest, ":") && !strings.HasPrefix(rest, "::") {
		return id
	}
	return ""
}

// identAt is the C identifier text starts with, or "".
func identAt(text string) string {
	n := 0
	for n < len(text) {
		c := text[n]
		if c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || n > 0 && c >= '0' && c <= '9' {
			n++
			continue
		}
		break
	}
	return text[:n]
}

// overflowCheck is the message of the lowering's check of a signed
// operation under Config.OverflowError: assert(MIN <= e && e <= MAX) with
// the bounds of a signed type of 8, 16 or 32 bits.
var overflowCheck = regexp.MustCompile(`^assertion violated: \(?(-\d+)\)? <= .* && .* <= \(?(\d+)\)?$`)

// isOverflow reports whether v is a signed integer overflow of the C
// program: the lowering's check of a signed operation of 8 to 32 bits, or
// BIR's own overflow of a 64-bit one. An assertion at one of the
// property's positions is the program's own, whatever it says.
func isOverflow(v *verify.Violation, out *cfront.Output) bool {
	if v.Kind == "overflow" {
		return true
	}
	if v.Kind != "assertion" || atProperty(v, out) {
		return false
	}
	if strings.HasPrefix(out.Describe(v.Pos, v.ModelText()), "signed overflow") {
		return true // the lowering says so (a folded constant's overflow asserts false)
	}
	m := overflowCheck.FindStringSubmatch(v.ModelText())
	if m == nil {
		return false
	}
	for _, bits := range []uint{8, 16, 32} {
		if m[1] == strconv.FormatInt(-1<<(bits-1), 10) && m[2] == strconv.FormatInt(1<<(bits-1)-1, 10) {
			return true
		}
	}
	return false
}

// atProperty reports whether v is at one of the lowering's property
// positions.
func atProperty(v *verify.Violation, out *cfront.Output) bool {
	if out == nil {
		return false
	}
	for _, pos := range out.Property {
		if pos.String() == v.Pos {
			return true
		}
	}
	return false
}

// reachAssertion reports whether v is the failure of the lowering's
// assertion of a reachability property: assert(false) at one of its
// positions. Any other assertion (a check of memory) is not the
// property's, even where line directives give it the same position.
func reachAssertion(v *verify.Violation, out *cfront.Output) bool {
	return v.Kind == "assertion" && v.ModelText() == "assertion violated: false" && atProperty(v, out)
}

// whatAt is what the lowering says the property position of v is
// (cfront.Output.PropertyWhat: "call F", "label L", "assert"), or "" when
// it does not say or says two things at that position.
func whatAt(v *verify.Violation, out *cfront.Output) string {
	if out == nil || len(out.PropertyWhat) != len(out.Property) {
		return ""
	}
	what := ""
	for i, pos := range out.Property {
		if pos.String() != v.Pos {
			continue
		}
		if what != "" && what != out.PropertyWhat[i] {
			return ""
		}
		what = out.PropertyWhat[i]
	}
	return what
}

// UnsupportedOutcome is the answer to a program the lowering does not
// handle: unknown, naming each construct with its position.
func UnsupportedOutcome(p *Property, err *cfront.UnsupportedError) Outcome {
	return Outcome{Answer: Unknown, Property: p.Title(), Expected: p.Expected, Reason: UnsupportedReason(err)}
}

// UnsupportedReason is the one-line reason of an inconclusive check of a
// program with constructs the lowering does not handle.
func UnsupportedReason(err *cfront.UnsupportedError) string {
	var parts []string
	for _, e := range err.List {
		parts = append(parts, e.Error())
	}
	if len(parts) == 0 {
		return "the C program uses a construct birch does not handle"
	}
	return "the C program uses constructs birch does not handle: " + strings.Join(parts, "; ")
}
