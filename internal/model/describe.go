package model

import (
	"fmt"
	"strconv"
	"strings"

	"birch/internal/bir/ast"
	"birch/internal/bir/token"
	"birch/internal/bir/types"
)

// Var is one named value of a state, as shown in trails.
type Var struct {
	Name  string // e.g. turn, flag[0], Msg_col[1].next, Server[2].x, Main[1].fact#1.n
	Value string
}

// ThreadInfo describes one thread of a state.
type ThreadInfo struct {
	Name     string // T[k], k the tid
	Tid      int
	Location string // the top frame's location (fn.loc inside a function)
	Done     bool
	// Waits says why the thread cannot move (only from Threads with
	// explain): one reason per transformation of its location.
	Waits []string
}

// Decode checks that state is an encoding of a state of m.
func (m *Model) Decode(state []byte) bool {
	_, ok := m.decodeState(nil, state)
	return ok
}

func (m *Model) mustDecode(state []byte) ([]int64, []int) {
	s, ok := m.decodeState(nil, state)
	if !ok {
		panic("model: not a state of this model")
	}
	return s, m.threadOffsets(s, nil)
}

// threadName names thread j of s.
func (m *Model) threadName(s []int64, j int) string {
	off := m.threadOffsets(s, nil)
	if j < 0 || j >= len(off) {
		return "thread#" + strconv.Itoa(j+1)
	}
	return m.procs[s[off[j]+thProc]].proc.Name() + "[" + strconv.Itoa(j+1) + "]"
}

// ThreadName names thread j of state.
func (m *Model) ThreadName(state []byte, j int) string {
	s, _ := m.mustDecode(state)
	return m.threadName(s, j)
}

// formatValue formats a one-slot value of type t.
func (m *Model) formatValue(s []int64, t types.Type, v int64) string {
	switch u := t.Underlying().(type) {
	case *types.Basic:
		switch u.Kind {
		case types.Bool:
			return strconv.FormatBool(v != 0)
		case types.Tid:
			if v == 0 {
				return "null"
			}
			return m.threadName(s, int(v-1))
		}
	case *types.Enum:
		for _, c := range u.Consts {
			if c.Ordinal == v {
				return c.Name()
			}
		}
	case *types.Ref:
		if v == 0 {
			return "null"
		}
		if v > 0 && int(v) <= len(m.objColl) {
			c := m.colls[m.objColl[v-1]]
			return c.obj.Name() + "[" + strconv.Itoa(int(v-1)-c.first) + "]"
		}
	}
	return strconv.FormatInt(v, 10)
}

// formatPlace formats the value of type t at slot p.
func (m *Model) formatPlace(s []int64, t types.Type, p int) string {
	switch u := t.Underlying().(type) {
	case *types.Lock:
		return m.formatLock(s, p)
	case *types.Array:
		es := slotSize(u.Elem)
		var b strings.Builder
		b.WriteByte('[')
		for i := 0; i < int(u.Len); i++ {
			if i > 0 {
				b.WriteString(", ")
			}
			b.WriteString(m.formatPlace(s, u.Elem, p+i*es))
		}
		b.WriteByte(']')
		return b.String()
	}
	return m.formatValue(s, t, s[p])
}

func (m *Model) formatLock(s []int64, p int) string {
	var b strings.Builder
	if o := s[p+lockOwner]; o == 0 {
		b.WriteString("free")
	} else {
		b.WriteString("held by " + m.threadName(s, int(o-1)))
		if c := s[p+lockCount]; c != 1 {
			fmt.Fprintf(&b, " (count %d)", c)
		}
	}
	set := func(what string, bits int64) {
		if bits == 0 {
			return
		}
		b.WriteString(", " + what + " {")
		first := true
		for j := 0; j < 64; j++ {
			if bits&(1<<uint(j)) != 0 {
				if !first {
					b.WriteString(", ")
				}
				first = false
				b.WriteString(m.threadName(s, j))
			}
		}
		b.WriteString("}")
	}
	set("waiting", s[p+lockWaiting])
	set("notified", s[p+lockNotified])
	return b.String()
}

// flatten appends the leaves of the value of type t at p.
func (m *Model) flatten(dst []Var, s []int64, name string, t types.Type, p int) []Var {
	if u, ok := t.Underlying().(*types.Array); ok {
		es := slotSize(u.Elem)
		for i := 0; i < int(u.Len); i++ {
			dst = m.flatten(dst, s, name+"["+strconv.Itoa(i)+"]", u.Elem, p+i*es)
		}
		return dst
	}
	return append(dst, Var{name, m.formatPlace(s, t, p)})
}

// Describe lists the named values of a state: globals, allocated objects,
// then each thread's location and variables. Dead variables are included
// (they hold their defaults).
func (m *Model) Describe(state []byte) []Var {
	s, off := m.mustDecode(state)
	var out []Var
	for i, g := range m.prog.Globals {
		out = m.flatten(out, s, g.Name(), g.Type(), m.globalOff[i])
	}
	for _, c := range m.colls {
		n := int(s[c.off])
		for i := 0; i < n; i++ {
			base := m.objBase[c.first+i]
			name := c.obj.Name() + "[" + strconv.Itoa(i) + "]"
			if c.array {
				l := int(s[base])
				out = append(out, Var{name + ".length", strconv.Itoa(l)})
				arr := c.elem.Underlying().(*types.Array)
				for k := 0; k < l; k++ {
					out = m.flatten(out, s, name+"["+strconv.Itoa(k)+"]", arr.Elem, base+1+k*c.elemSz)
				}
				continue
			}
			rec, _ := c.elem.Underlying().(*types.Record)
			if rec == nil {
				continue
			}
			p := base
			for _, f := range rec.Fields {
				out = m.flatten(out, s, name+"."+f.Name(), f.Type(), p)
				p += slotSize(f.Type())
			}
		}
	}
	for j, th := range off {
		tn := m.threadName(s, j)
		out = append(out, Var{tn + " @", m.location(s, th)})
		if s[th+thStatus] != 0 {
			out = append(out, Var{tn + " terminated", "true"})
		}
		p := th + thHeader
		for d := 0; d < int(s[th+thDepth]); d++ {
			pi := m.allProcs[s[p+frProc]]
			prefix := tn + "."
			if d > 0 {
				prefix = tn + "." + pi.proc.Name() + "#" + strconv.Itoa(d) + "."
			}
			for i, v := range pi.proc.Vars() {
				out = m.flatten(out, s, prefix+v.Name(), v.Type(), p+frHeader+pi.varOff[i])
			}
			p += frHeader + pi.varSize
		}
	}
	return out
}

// location names the location of the top frame of the thread at th.
func (m *Model) location(s []int64, th int) string {
	fb := m.topFrame(s, th)
	pi := m.allProcs[s[fb+frProc]]
	l := pi.proc.Locations[s[fb+frLoc]].Name()
	if s[th+thDepth] > 1 {
		return pi.proc.Name() + "." + l
	}
	return l
}

// Changes lists the values that differ between two states (those of after
// that are new or changed, and removed ones with value "-").
func (m *Model) Changes(before, after []byte) []Var {
	a, b := m.Describe(before), m.Describe(after)
	old := make(map[string]string, len(a))
	for _, v := range a {
		old[v.Name] = v.Value
	}
	var out []Var
	seen := make(map[string]bool, len(b))
	for _, v := range b {
		seen[v.Name] = true
		if w, ok := old[v.Name]; !ok || w != v.Value {
			out = append(out, v)
		}
	}
	for _, v := range a {
		if !seen[v.Name] {
			out = append(out, Var{v.Name, "-"})
		}
	}
	return out
}

// Threads describes the threads of a state. With explain, each running
// thread's Waits says why each transformation of its location cannot be
// taken (meaningful in a state without successors, such as a deadlock).
func (m *Model) Threads(state []byte, explain bool) []ThreadInfo {
	s, off := m.mustDecode(state)
	var out []ThreadInfo
	for j, th := range off {
		ti := ThreadInfo{Name: m.threadName(s, j), Tid: j + 1, Location: m.location(s, th), Done: s[th+thStatus] != 0}
		if explain && !ti.Done {
			ti.Waits = m.explain(s, off, j)
		}
		out = append(out, ti)
	}
	return out
}

// explain says why each transformation of thread j cannot be taken.
func (m *Model) explain(s []int64, off []int, j int) []string {
	th := off[j]
	fb := m.topFrame(s, th)
	pi := m.allProcs[s[fb+frProc]]
	li := pi.locs[s[fb+frLoc]]
	if len(li.groups) == 0 {
		return []string{"no transformation leaves " + m.location(s, th) + " (a function that does not return)"}
	}
	var out []string
	x := &exec{m: m}
	for _, gi := range li.groups {
		g := m.groups[gi]
		pos := m.fset.Position(g.Decl.Pos())
		x.s, x.off, x.t, x.fb = append([]int64(nil), s...), append([]int(nil), off...), j, fb
		x.explain = true
		x.block = ""
		if g.guard(x) == 0 {
			why := "guard " + exprText(g.Decl.Guard) + " is false"
			if x.block != "" {
				why += " (" + x.block + ")"
			}
			if waits := m.waitDescr(s, j); waits != "" {
				why += "; " + waits
			}
			out = append(out, fmt.Sprintf("%s: %s", pos, why))
			continue
		}
		x.choices, x.counts = x.choices[:0], x.counts[:0]
		x.cp = 0
		if m.opts.Native != nil {
			x.nativeBegin(g, s, off)
		}
		if runActions(x, g) == rBlocked && x.block != "" {
			out = append(out, fmt.Sprintf("%s: %s", pos, x.block))
		} else {
			out = append(out, fmt.Sprintf("%s: blocked", pos))
		}
	}
	return out
}

// waitDescr says whether thread j is in a wait or notified set.
func (m *Model) waitDescr(s []int64, j int) string {
	var b []string
	bit := int64(1) << uint(j)
	m.forEachLock(s, func(name string, p int) {
		if s[p+lockWaiting]&bit != 0 {
			b = append(b, "in the wait set of "+name)
		}
		if s[p+lockNotified]&bit != 0 {
			b = append(b, "notified on "+name)
		}
	})
	return strings.Join(b, ", ")
}

// forEachLock calls f for every lock among the globals and the allocated
// objects.
func (m *Model) forEachLock(s []int64, f func(name string, p int)) {
	var walk func(name string, t types.Type, p int)
	walk = func(name string, t types.Type, p int) {
		switch u := t.Underlying().(type) {
		case *types.Lock:
			f(name, p)
		case *types.Array:
			es := slotSize(u.Elem)
			for i := 0; i < int(u.Len); i++ {
				walk(name+"["+strconv.Itoa(i)+"]", u.Elem, p+i*es)
			}
		case *types.Record:
			for _, fl := range u.Fields {
				walk(name+"."+fl.Name(), fl.Type(), p)
				p += slotSize(fl.Type())
			}
		}
	}
	for i, g := range m.prog.Globals {
		walk(g.Name(), g.Type(), m.globalOff[i])
	}
	for _, c := range m.colls {
		for i := 0; i < int(s[c.off]); i++ {
			base := m.objBase[c.first+i]
			name := c.obj.Name() + "[" + strconv.Itoa(i) + "]"
			if c.array {
				arr := c.elem.Underlying().(*types.Array)
				for k := 0; k < int(s[base]); k++ {
					walk(name+"["+strconv.Itoa(k)+"]", arr.Elem, base+1+k*c.elemSz)
				}
			} else {
				walk(name, c.elem, base)
			}
		}
	}
}

// runActions runs g's actions on x until one does not continue: it
// returns rOK when all ran, rStop after exit or call, rBlocked or rFail.
func runActions(x *exec, g *group) int {
	for _, a := range g.actions {
		if r := a(x); r != rOK {
			return r
		}
	}
	return rOK
}

func exprText(e ast.Expr) string {
	if e == nil {
		return "true"
	}
	return fmtExpr(e)
}

// access summarizes what transformation t reads and writes.
func (m *Model) access(t *ast.Transformation, sc scope) Access {
	var acc Access
	rg, wg := map[int]bool{}, map[int]bool{}
	var lhsRoot func(e ast.Expr)
	lhsRoot = func(e ast.Expr) {
		switch e := e.(type) {
		case *ast.Ident:
			if v, ok := m.info.Uses[e].(*types.Var); ok && v.Kind == types.GlobalVar {
				wg[v.Index] = true
			}
		case *ast.IndexExpr:
			if _, ok := m.typeOf(e.X).Underlying().(*types.Ref); ok {
				acc.WritesHeap = true
			} else {
				lhsRoot(e.X)
			}
		case *ast.SelectorExpr:
			acc.WritesHeap = true
		case *ast.ParenExpr:
			lhsRoot(e.X)
		}
	}
	ast.Inspect(t, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.Ident:
			if v, ok := m.info.Uses[n].(*types.Var); ok && v.Kind == types.GlobalVar {
				rg[v.Index] = true
			}
		case *ast.SelectorExpr, *ast.LengthExpr:
			acc.ReadsHeap = true
		case *ast.IndexExpr:
			if _, ok := m.typeOf(n.X).Underlying().(*types.Ref); ok {
				acc.ReadsHeap = true
			}
		case *ast.AssignAction:
			lhsRoot(n.Lhs)
		case *ast.ChooseAction:
			lhsRoot(n.Lhs)
		case *ast.NewAction:
			acc.WritesHeap = true
			lhsRoot(n.Lhs)
		case *ast.ForallAction:
			acc.ReadsHeap = true
			lhsRoot(n.Lhs)
		case *ast.ReachableAction:
			acc.ReadsHeap = true
			lhsRoot(n.Lhs)
		case *ast.LockAction:
			acc.Locks = true
			lhsRoot(n.Lock)
		case *ast.BuiltinExpr:
			if n.Op == token.THREADTERMINATED {
				acc.Threads = true
			} else {
				acc.Locks = true
			}
		case *ast.StartAction:
			acc.Threads = true
			if n.Lhs != nil {
				lhsRoot(n.Lhs)
			}
		case *ast.ExitAction:
			acc.Threads = true
		case *ast.CallAction:
			if n.Lhs != nil {
				lhsRoot(n.Lhs)
			}
		}
		return true
	})
	for i := range m.prog.Globals {
		if rg[i] {
			acc.ReadGlobals = append(acc.ReadGlobals, i)
		}
		if wg[i] {
			acc.WriteGlobals = append(acc.WriteGlobals, i)
		}
	}
	return acc
}
