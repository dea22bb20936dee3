package java

import (
	"fmt"
	"sort"
	"strings"
)

// An action of the generated BIR, with the Java line it comes from.
type action struct {
	text   string
	line   int
	writes string // the variable an assignment writes ("" for none)
}

// A transformation of the generated BIR: when guard do { acts } goto
// target (or return).
type transformation struct {
	line   int // the Java line its //line directive names
	guard  string
	acts   []action
	target string // a location; "" with ret
	ret    bool
	retVal string // the returned expression, "" for none
	// shared: an action or the guard reads or writes shared state (a
	// global, the heap, a lock, a thread): the step is visible.
	shared bool
}

// A location of a generated function.
type location struct {
	name  string
	block int // the pc of the basic block it belongs to (its order)
	seq   int // creation order
	live  []string
	hasLv bool // live is printed (an empty set too)
	trans []*transformation
}

// builder lays out the locations of one function. Actions accumulate in
// a pending transformation out of the current location until a call, a
// branch, a second access to shared state or the end of a basic block
// closes it; a purely local run of instructions thus becomes one
// transformation, and every transformation accesses shared state at most
// once (one visible step per shared access, as the JVM's sequentially
// consistent execution interleaves them).
type builder struct {
	file          string
	locs          []*location
	cur           *location // nil after a jump
	pending       []action
	pendingShared bool
	line          int // the Java line of the instruction being lowered
	block         int // the pc of the block being lowered
	used          map[string]bool
	suffix        map[string]int // the next suffix to try after a base name
	byName        map[string]*location
}

func newBuilder(file string) *builder {
	return &builder{file: file, used: map[string]bool{}, suffix: map[string]int{}, byName: map[string]*location{}}
}

// label names a location to be placed later: base, or base_2, ...
func (b *builder) label(base string) string {
	n := base
	for k := max(b.suffix[base], 2); b.used[n]; k++ {
		n = fmt.Sprintf("%s_%d", base, k)
		b.suffix[base] = k + 1
	}
	b.used[n] = true
	return n
}

// base is the stem of the names of the block's locations: L<pc>, or
// entry for the function's prologue (block -1).
func (b *builder) base() string {
	if b.block < 0 {
		return "entry"
	}
	return fmt.Sprintf("L%d", b.block)
}

// place makes name the current location (of the block being lowered),
// jumping to it from the current one if there is one.
func (b *builder) place(name string) *location {
	if b.cur != nil {
		b.jump(name)
	}
	b.cur = &location{name: name, block: b.block, seq: len(b.locs)}
	b.locs = append(b.locs, b.cur)
	b.byName[name] = b.cur
	return b.cur
}

// ensure gives unreachable code a location.
func (b *builder) ensure() {
	if b.cur == nil {
		b.place(b.label(b.base()))
	}
}

// act appends an action to the pending transformation; shared says it
// accesses shared state, and a second such action starts a new step.
func (b *builder) act(shared bool, writes, format string, args ...any) {
	b.ensure()
	if shared && b.pendingShared {
		b.split()
	}
	b.pending = append(b.pending, action{text: fmt.Sprintf(format, args...), line: b.line, writes: writes})
	b.pendingShared = b.pendingShared || shared
}

// close ends the pending transformation (possibly empty) with t.
func (b *builder) close(t *transformation) {
	b.ensure()
	t.line = b.line
	if len(b.pending) > 0 {
		t.line = b.pending[0].line
	}
	if t.guard == "" {
		t.guard = "true"
	}
	t.acts = b.pending
	t.shared = t.shared || b.pendingShared
	b.pending = nil
	b.pendingShared = false
	b.cur.trans = append(b.cur.trans, t)
	b.cur = nil
}

// jump ends the pending actions with goto target.
func (b *builder) jump(target string) { b.close(&transformation{target: target}) }

// ret ends the pending actions with a return (val "" for none).
func (b *builder) ret(val string) { b.close(&transformation{ret: true, retVal: val}) }

// split ends the pending actions at a fresh location of the block, which
// becomes the current one (after a call, before a second shared access).
func (b *builder) split() {
	l := b.label(b.base())
	b.jump(l)
	b.place(l)
}

// writesAny reports whether a pending action assigns one of names.
func (b *builder) writesAny(names []string) bool {
	for _, a := range b.pending {
		for _, n := range names {
			if a.writes != "" && a.writes == n {
				return true
			}
		}
	}
	return false
}

// branch leaves the current location by guarded transformations, one per
// target, which must exclude each other and cover every case; reads are
// the variables the guards read. The pending actions go into each of them
// when no guard reads what they write (a guard is evaluated before the
// actions), else they take a step of their own first. A constant guard
// "true" is a jump, a guard "false" is dropped.
func (b *builder) branch(conds, targets []string, reads []string, shared bool) {
	b.ensure()
	var cs, ts []string
	for i, c := range conds {
		switch c {
		case "false":
			continue
		case "true":
			b.jump(targets[i])
			return
		}
		cs, ts = append(cs, c), append(ts, targets[i])
	}
	if len(cs) == 1 {
		b.jump(ts[0])
		return
	}
	if b.writesAny(reads) || shared && b.pendingShared {
		b.split()
	}
	acts, line, pshared := b.pending, b.line, b.pendingShared
	if len(acts) > 0 {
		line = acts[0].line
	}
	for i := range cs {
		b.cur.trans = append(b.cur.trans, &transformation{line: line, guard: cs[i], acts: acts,
			target: ts[i], shared: shared || pshared})
	}
	b.pending = nil
	b.pendingShared = false
	b.cur = nil
}

// An alt is one alternative of alternatives: a guard and its actions
// (a call last).
type alt struct {
	guard  string
	acts   []string
	shared bool // the actions or the guard touch shared state
}

// alternatives ends the pending step with one transformation per
// alternative, all to a new location of the block, which becomes the
// current one; the guards must exclude each other and cover every case,
// and reads are what they read. The pending actions go first in each
// (after a step of their own when a guard reads what they write, or when
// both they and an alternative touch shared state).
func (b *builder) alternatives(alts []alt, reads []string) {
	b.ensure()
	shared := false
	for _, a := range alts {
		shared = shared || a.shared
	}
	if b.writesAny(reads) || shared && b.pendingShared {
		b.split()
	}
	join := b.label(b.base())
	line := b.line
	if len(b.pending) > 0 {
		line = b.pending[0].line
	}
	for _, a := range alts {
		acts := append([]action(nil), b.pending...)
		for _, x := range a.acts {
			acts = append(acts, action{text: x, line: b.line})
		}
		b.cur.trans = append(b.cur.trans, &transformation{line: line, guard: a.guard, acts: acts,
			target: join, shared: a.shared || b.pendingShared})
	}
	b.pending, b.pendingShared, b.cur = nil, false, nil
	b.place(join)
}

// thread removes the locations whose one transformation does nothing but
// go on (when true do {} goto T): whatever leads there goes to T instead.
// The function's first location stays, and so does one that a
// redirection would give two transformations of one source and target,
// one with a choose action and one without (BIR's rule).
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
			if u := b.emptyReturn(t.target); u != nil && !hasCall(t) && !anyChoose(l) {
				// goto a location that only returns: return at once
				t.ret, t.retVal, t.target = true, u.retVal, ""
				continue
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

// emptyReturn is the one transformation of the location name if it
// returns and does nothing else (when true do {} return e;), else nil.
func (b *builder) emptyReturn(name string) *transformation {
	l := b.byName[name]
	if l == nil || len(l.trans) != 1 {
		return nil
	}
	if u := l.trans[0]; u.ret && u.guard == "true" && len(u.acts) == 0 {
		return u
	}
	return nil
}

func hasCall(t *transformation) bool {
	for _, a := range t.acts {
		if strings.Contains(a.text, "call ") {
			return true
		}
	}
	return false
}

func anyChoose(l *location) bool {
	for _, t := range l.trans {
		if hasChoose(t) {
			return true
		}
	}
	return false
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
		if strings.Contains(a.text, "Choose(") {
			return true
		}
	}
	return false
}

// order sorts the locations as they are printed: by block (pc), then as
// created; the first location stays first.
func (b *builder) order() {
	if len(b.locs) < 2 {
		return
	}
	first := b.locs[0]
	sort.SliceStable(b.locs, func(i, j int) bool {
		x, y := b.locs[i], b.locs[j]
		if (x == first) != (y == first) {
			return x == first
		}
		if x.block != y.block {
			return x.block < y.block
		}
		return x.seq < y.seq
	})
}

// invisible decides which transformations are invisible: those that
// touch no shared state and go forward in the printed order (or return),
// so that no run of invisible steps can go round a loop (every loop of a
// method has a backward step, which stays visible); where one
// transformation between two locations is visible, all are (BIR's rule).
func (b *builder) invisible() map[*transformation]bool {
	index := map[string]int{}
	for i, l := range b.locs {
		index[l.name] = i
	}
	inv := map[*transformation]bool{}
	for i, l := range b.locs {
		visible := map[string]bool{}
		for _, t := range l.trans {
			key := t.target
			if t.ret {
				key = "$return"
			}
			ok := !t.shared && (t.ret || index[t.target] > i)
			inv[t] = ok
			if !ok {
				visible[key] = true
			}
		}
		for _, t := range l.trans {
			key := t.target
			if t.ret {
				key = "$return"
			}
			if visible[key] {
				inv[t] = false
			}
		}
	}
	return inv
}

// directive is the //line comment that maps the next line to line of the
// builder's file.
func (b *builder) directive(line int) string {
	if line <= 0 {
		line = 1
	}
	return fmt.Sprintf("//line %s:%d:1\n", b.file, line)
}

// print writes the function's locations.
func (b *builder) print(w *strings.Builder) {
	inv := b.invisible()
	for _, l := range b.locs {
		fmt.Fprintf(w, "  loc %s:", l.name)
		switch {
		case l.hasLv && len(l.live) == 0:
			w.WriteString(" live { }")
		case l.hasLv:
			fmt.Fprintf(w, " live { %s }", strings.Join(l.live, ", "))
		}
		w.WriteString("\n")
		for _, t := range l.trans {
			line := t.line
			w.WriteString(b.directive(line))
			fmt.Fprintf(w, "    when %s do ", t.guard)
			if inv[t] {
				w.WriteString("invisible ")
			}
			w.WriteString("{")
			for _, a := range t.acts {
				if a.line != line && a.line > 0 {
					line = a.line
					w.WriteString("\n")
					w.WriteString(b.directive(line))
					w.WriteString("     ")
				}
				fmt.Fprintf(w, " %s", a.text)
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

// negate is the negation of a condition.
func negate(cond string) string {
	switch cond {
	case "true":
		return "false"
	case "false":
		return "true"
	}
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
		case '"':
			// a string literal (println): skip it
			for j++; j < len(s) && s[j] != '"'; j++ {
				if s[j] == '\\' {
					j++
				}
			}
		}
	}
	return -1
}

// paren parenthesises an expression unless it is atomic (a name, a
// nonnegative literal, a conversion, or parenthesised whole).
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
			if c == '(' && i > 0 && matchingParen(e, i) == len(e)-1 {
				return true
			}
			return false
		}
	}
	return true
}
