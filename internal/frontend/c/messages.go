package c

import (
	"strconv"
	"strings"

	"modernc.org/cc/v4"

	"birch/internal/source"
)

// A Message says in C terms what the failure of one of the lowering's
// assertions means: a call of the error function, a failed assert(e), a
// signed overflow, a read of an uninitialized value, ...
type Message struct {
	Pos  source.Position // the C position of the assertion
	Cond string          // its condition, as the lowering wrote it
	Text string          // what its failure means, in C terms
}

// Describe is the C message of a violation at pos (file:line:col) whose
// model message is msg ("assertion violated: COND"), or "" when the
// lowering recorded none. Conditions are compared without spaces and
// parentheses, which the model's printer may set otherwise.
func (o *Output) Describe(pos, msg string) string {
	cond, ok := strings.CutPrefix(msg, "assertion violated: ")
	if o == nil || !ok {
		return ""
	}
	cond = condKey(cond)
	for _, m := range o.Messages {
		if m.Pos.String() == pos && condKey(m.Cond) == cond {
			return m.Text
		}
	}
	return ""
}

func condKey(s string) string {
	return strings.Map(func(r rune) rune {
		if r == ' ' || r == '(' || r == ')' {
			return -1
		}
		return r
	}, s)
}

// check asserts cond, whose failure text describes in C terms, in the
// pending transformation.
func (fl *fnLowerer) check(text, cond string) {
	fl.b.act("assert(%s);", cond)
	fl.l.messages = append(fl.l.messages, Message{Pos: fl.b.ppos, Cond: cond, Text: text})
}

// uninitRead is the message of a read of v's poison value.
func uninitRead(v *variable) string {
	if v.cname != "" {
		return "read of an uninitialized value of " + v.cname
	}
	return "read of an uninitialized value"
}

// assertText is the message of a failed assert(e) (or of glibc's
// __assert_fail("e", ...), which assert.h's assert expands to).
func assertText(name string, args []cc.ExpressionNode) string {
	if name == "assert" {
		return "assert(" + exprText(args[0]) + ") failed"
	}
	if len(args) > 0 {
		if s, err := strconv.Unquote(strings.TrimSpace(cc.NodeSource(args[0]))); err == nil {
			return "assert(" + s + ") failed"
		}
	}
	return name + "() called"
}
