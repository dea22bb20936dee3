package c

import (
	"fmt"
	"strings"

	"birch/internal/source"
)

// A transformation of the generated BIR: when guard do { acts } goto
// target (or return).
type transformation struct {
	pos    source.Position // the C position its //line directive names
	guard  string
	acts   []string
	target string // a location; "" with ret
	ret    bool
	retVal string // the returned expression, "" for none
}

// A location of a generated function.
type location struct {
	name      string
	stmtStart bool // a C statement starts here: temporaries are dead
	trans     []*transformation
}

// builder lays out the locations of one function as its statements are
// lowered. Actions accumulate in a pending transformation out of the
// current location until a call, a branch or the end of a statement
// closes it; code after a jump has no current location until a label is
// placed (it is unreachable, and gets a location of its own).
type builder struct {
	locs    []*location
	cur     *location // nil after a jump
	pending []string
	ppos    source.Position
	pos     source.Position // the C statement being lowered
	used    map[string]bool // location names taken (C labels included)
	next    int
	// sharedPending: the pending actions access shared memory (mem.go)
	sharedPending bool
	// guardPrefix is a conjunct of every guard ("" for none; mem.go)
	guardPrefix string
	// exitActs gives the actions of every return (mem.go)
	exitActs func() []string
}

func newBuilder(labels map[string]bool) *builder {
	used := map[string]bool{}
	for l := range labels {
		used[l] = true
	}
	return &builder{used: used}
}

// newLabel names a location to be placed later.
func (b *builder) newLabel() string {
	for {
		b.next++
		n := fmt.Sprintf("L%d", b.next)
		if !b.used[n] {
			b.used[n] = true
			return n
		}
	}
}

// place makes name the current location, jumping to it from the current
// one if there is one.
func (b *builder) place(name string, stmtStart bool) {
	if b.cur != nil {
		b.jump(name)
	}
	b.cur = &location{name: name, stmtStart: stmtStart}
	b.locs = append(b.locs, b.cur)
}

// ensure gives unreachable code a location.
func (b *builder) ensure() {
	if b.cur == nil {
		b.place(b.newLabel(), false)
	}
}

// act appends an action to the pending transformation.
func (b *builder) act(format string, args ...any) {
	b.ensure()
	if len(b.pending) == 0 {
		b.ppos = b.pos
	}
	b.pending = append(b.pending, fmt.Sprintf(format, args...))
}

// close ends the pending transformation (possibly empty) at target.
func (b *builder) close(t *transformation) {
	b.ensure()
	t.pos = b.pos
	if len(b.pending) > 0 {
		t.pos = b.ppos
	}
	t.guard = "true"
	t.acts = b.pending
	b.pending = nil
	b.sharedPending = false
	b.cur.trans = append(b.cur.trans, t)
	b.cur = nil
}

// unreached reports whether the current location is placed but nothing
// jumps to it (the end of a body whose every path returned): at the end of
// a function, when every jump is known.
func (b *builder) unreached() bool {
	if b.cur == nil || b.cur == b.locs[0] || len(b.pending) > 0 {
		return b.cur == nil
	}
	for _, l := range b.locs {
		for _, t := range l.trans {
			if !t.ret && t.target == b.cur.name {
				return false
			}
		}
	}
	return true
}

// jump ends the current location's pending actions with goto target.
func (b *builder) jump(target string) { b.close(&transformation{target: target}) }

// ret ends the pending actions with a return.
func (b *builder) ret(val string) {
	if b.exitActs != nil {
		for _, a := range b.exitActs() {
			b.act("%s", a)
		}
	}
	b.close(&transformation{ret: true, retVal: val})
}

// split ends the pending actions at a fresh location, which becomes the
// current one (after a call, and before a guard that must see them).
func (b *builder) split() {
	l := b.newLabel()
	b.jump(l)
	b.place(l, false)
}

// callAct appends a call action, which ends its transformation.
func (b *builder) callAct(format string, args ...any) {
	b.act(format, args...)
	b.split()
}

// flush closes pending actions so that a guard or a statement boundary
// comes after them.
func (b *builder) flush() {
	if b.cur != nil && len(b.pending) > 0 {
		b.split()
	}
}

// branch leaves the current location to t when cond holds and to f when
// it does not.
func (b *builder) branch(cond, t, f string) {
	b.flush()
	b.ensure()
	switch cond {
	case "true":
		b.jump(t)
		return
	case "false":
		b.jump(f)
		return
	}
	b.cur.trans = append(b.cur.trans,
		&transformation{pos: b.pos, guard: cond, target: t},
		&transformation{pos: b.pos, guard: negate(cond), target: f})
	b.cur = nil
}

// branchActs is branch with actions on each side (a value chosen by a
// condition).
func (b *builder) branchActs(cond string, tActs, fActs []string, target string) {
	b.flush()
	b.ensure()
	b.cur.trans = append(b.cur.trans,
		&transformation{pos: b.pos, guard: cond, acts: tActs, target: target},
		&transformation{pos: b.pos, guard: negate(cond), acts: fActs, target: target})
	b.cur = nil
}

// guards leaves the current location by several guarded transformations
// (a switch), which must exclude each other and cover every case.
func (b *builder) guards(conds, targets []string) {
	b.flush()
	b.ensure()
	for i := range conds {
		b.cur.trans = append(b.cur.trans, &transformation{pos: b.pos, guard: conds[i], target: targets[i]})
	}
	b.cur = nil
}

func negate(cond string) string {
	if strings.HasPrefix(cond, "!(") && matchingParen(cond, 1) == len(cond)-1 {
		return cond[2 : len(cond)-1]
	}
	return "!" + paren(cond)
}

// matchingParen is the index of the parenthesis closing the one at i.
func matchingParen(s string, i int) int {
	depth := 0
	for j := i; j < len(s); j++ {
		switch s[j] {
		case '(':
			depth++
		case ')':
			depth--
			if depth == 0 {
				return j
			}
		}
	}
	return -1
}

// paren parenthesises an expression unless it is atomic (a name, a
// nonnegative literal, or parenthesised whole).
func paren(e string) string {
	if isAtom(e) {
		return e
	}
	return "(" + e + ")"
}

func isAtom(e string) bool {
	if e == "" {
		return false
	}
	if e[0] == '(' && matchingParen(e, 0) == len(e)-1 {
		return true
	}
	for i := 0; i < len(e); i++ {
		c := e[i]
		if !(c == '_' || c == '$' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9') {
			// a conversion T(e) is atomic too
			if c == '(' && matchingParen(e, i) == len(e)-1 {
				return true
			}
			return false
		}
	}
	return true
}

// thread removes the locations whose one transformation does nothing but
// go on (when true do {} goto T): whatever leads there goes to T instead.
// The function's first location stays, and so does one that a redirection
// would give two transformations of one source and target, one with a
// choose action and one without (BIR's rule).
func (b *builder) thread() {
	next := map[string]string{}
	for i, l := range b.locs {
		if i > 0 && len(l.trans) == 1 {
			t := l.trans[0]
			if t.guard == "true" && len(t.acts) == 0 && !t.ret && t.target != l.name {
				next[l.name] = t.target
			}
		}
	}
	final := func(name string) string {
		for seen := 0; seen <= len(next); seen++ {
			n, ok := next[name]
			if !ok {
				return name
			}
			name = n
		}
		return name // a cycle of empty steps: an endless loop, kept
	}
	used := map[string]bool{}
	for i, l := range b.locs {
		if i == 0 {
			used[l.name] = true
		}
		for _, t := range l.trans {
			if t.ret {
				continue
			}
			if to := final(t.target); to != t.target && !mixedChoose(l, t, to) {
				t.target = to
			}
			used[t.target] = true
		}
	}
	locs := b.locs[:0]
	for _, l := range b.locs {
		if used[l.name] {
			locs = append(locs, l)
		}
	}
	b.locs = locs
}

// mixedChoose tells whether sending t to target would give l two
// transformations to target, one with a choose action and one without.
func mixedChoose(l *location, t *transformation, target string) bool {
	for _, u := range l.trans {
		if u != t && !u.ret && u.target == target && hasChoose(u) != hasChoose(t) {
			return true
		}
	}
	return false
}

func hasChoose(t *transformation) bool {
	for _, a := range t.acts {
		if strings.Contains(a, "Choose(") {
			return true
		}
	}
	return false
}

// directive is the //line comment that maps the next line to pos.
func directive(pos source.Position) string {
	if !pos.IsValid() {
		return ""
	}
	return fmt.Sprintf("//line %s:%d:%d\n", pos.Filename, pos.Line, pos.Column)
}

// print writes the function's locations.
// With useLive, a location where a C statement starts lists live (the
// function's parameters and named locals) so that temporaries are reset.
func (b *builder) print(w *strings.Builder, useLive bool, live string) {
	for _, l := range b.locs {
		fmt.Fprintf(w, "  loc %s:", l.name)
		if l.stmtStart && useLive {
			fmt.Fprintf(w, " live { %s }", live)
		}
		w.WriteString("\n")
		for _, t := range l.trans {
			w.WriteString(directive(t.pos))
			guard := t.guard
			if b.guardPrefix != "" {
				guard = b.guardPrefix + " && " + paren(guard)
				if t.guard == "true" {
					guard = b.guardPrefix
				}
			}
			fmt.Fprintf(w, "    when %s do {", guard)
			for _, a := range t.acts {
				fmt.Fprintf(w, " %s", a)
			}
			if len(t.acts) > 0 {
				w.WriteString(" ")
			}
			w.WriteString("}")
			switch {
			case !t.ret:
				fmt.Fprintf(w, " goto %s;\n", t.target)
			case t.retVal == "":
				w.WriteString(" return;\n")
			default:
				fmt.Fprintf(w, " return %s;\n", t.retVal)
			}
		}
	}
}
