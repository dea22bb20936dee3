package model

import (
	"fmt"
	"math/bits"
	"strings"

	"birch/internal/bir/ast"
	"birch/internal/bir/format"
	"birch/internal/bir/token"
	"birch/internal/bir/types"
	"birch/internal/source"
)

// Results of an action.
const (
	rOK      = iota // continue with the next action
	rBlocked        // the transformation is disabled on this path
	rFail           // an error or a limit (recorded in exec)
	rStop           // exit or call: the transformation ends here
)

type actFn func(x *exec) int

// storeFn writes a one-slot value to a place, checking it against the
// place's type (or wrapping it into a fixed-width type).
type storeFn func(x *exec, v int64)

// checkFn returns the value a location of some type holds when v is stored
// into it: v itself, or v reduced into a fixed-width type; ok is false
// after it recorded a range error or a limit (a uint64 value from 2^63 on).
type checkFn func(x *exec, v int64) (stored int64, ok bool)

// checker compiles the runtime check (or wrap) of values stored into type t
// (nil when every value is stored as it is).
func (m *Model) checker(t types.Type, pos source.Pos, what string) checkFn {
	switch u := t.Underlying().(type) {
	case *types.Range:
		if u.Wrap {
			return wrapper(u, pos, what)
		}
		lo, hi := u.Lo, u.Hi
		return func(x *exec, v int64) (int64, bool) {
			if v < lo || v > hi {
				x.fail(RangeError, pos, "value %d out of range %d..%d of %s", v, lo, hi, what)
				return 0, false
			}
			return v, true
		}
	case *types.Ref:
		allowed := make([]bool, len(m.colls))
		all := true
		for i, c := range m.colls {
			allowed[i] = u.Holds(c.obj)
			all = all && allowed[i]
		}
		if all {
			return nil
		}
		return func(x *exec, v int64) (int64, bool) {
			if v == 0 {
				return v, true
			}
			if c := x.m.objColl[v-1]; !allowed[c] {
				x.fail(TypeError, pos, "cast: %s[%d] (a %s) does not fit %s, of type %s", x.m.colls[c].obj.Name(), int(v-1)-x.m.colls[c].first, x.m.colls[c].obj.Elem, what, t)
				return 0, false
			}
			return v, true
		}
	}
	return nil
}

// wrapper compiles the reduction of values into the fixed-width type r, for
// a store or a conversion (nil for int64, which holds every value). A
// negative value stored into uint64 is the unsigned value 2^64+v, which
// birch does not hold: a limit, never a wrong value (docs/bir.md §5).
func wrapper(r *types.Range, pos source.Pos, what string) checkFn {
	switch {
	case r.Bits >= 64 && r.Unsigned():
		return func(x *exec, v int64) (int64, bool) {
			if v < 0 {
				x.limit(pos, "value %d of %s (of type uint64) is not representable: birch holds uint64 values below 2^63 only", uint64(v), what)
				return 0, false
			}
			return v, true
		}
	case r.Bits >= 64:
		return nil
	case r.Unsigned():
		mask := uint64(1)<<uint(r.Bits) - 1
		return func(x *exec, v int64) (int64, bool) { return int64(uint64(v) & mask), true }
	}
	shift := uint(64 - r.Bits)
	return func(x *exec, v int64) (int64, bool) { return v << shift >> shift, true }
}

// store compiles an assignment target of one slot.
func (m *Model) store(lhs ast.Expr, sc scope) storeFn {
	if f := m.storeVar(lhs, sc); f != nil {
		return f
	}
	a := m.addr(lhs, sc)
	chk := m.checker(m.typeOf(lhs), lhs.Pos(), format.Expr(lhs))
	if chk == nil {
		return func(x *exec, v int64) {
			if p := a(x); p >= 0 {
				x.s[p] = v
			}
		}
	}
	return func(x *exec, v int64) {
		v, ok := chk(x, v)
		if !ok {
			return
		}
		if p := a(x); p >= 0 {
			x.s[p] = v
		}
	}
}

// storeVar compiles the common targets, a global or a variable of the
// current frame of an integer, range or boolean type, without address and
// check closures; it returns nil for the others. The semantics are store's.
func (m *Model) storeVar(lhs ast.Expr, sc scope) storeFn {
	lhs = unparen(lhs)
	id, ok := lhs.(*ast.Ident)
	if !ok {
		return nil
	}
	v, ok := m.info.Uses[id].(*types.Var)
	if !ok {
		return nil
	}
	var off int
	local := false
	switch v.Kind {
	case types.GlobalVar:
		off = m.globalOff[v.Index]
	case types.LocalVar, types.ParamVar:
		if sc.proc == nil || sc.proc.proc != v.Owner {
			return nil
		}
		off, local = frHeader+sc.proc.varOff[sc.proc.varIndex[v]], true
	default:
		return nil
	}
	write := func(x *exec, val int64) {
		if local {
			x.s[x.fb+off] = val
			return
		}
		if x.tracing {
			x.note(off, 1)
		}
		x.s[off] = val
	}
	switch u := m.typeOf(lhs).Underlying().(type) {
	case *types.Range:
		if u.Wrap {
			fit := wrapper(u, lhs.Pos(), format.Expr(lhs))
			if fit == nil {
				return write // int64 holds every value
			}
			return func(x *exec, val int64) {
				if val, ok := fit(x, val); ok {
					write(x, val)
				}
			}
		}
		lo, hi := u.Lo, u.Hi
		pos, what := lhs.Pos(), format.Expr(lhs)
		return func(x *exec, val int64) {
			if val < lo || val > hi {
				x.fail(RangeError, pos, "value %d out of range %d..%d of %s", val, lo, hi, what)
				return
			}
			if local {
				x.s[x.fb+off] = val
			} else {
				if x.tracing {
					x.note(off, 1)
				}
				x.s[off] = val
			}
		}
	case *types.Basic:
		if u.Kind != types.Int && u.Kind != types.Bool {
			return nil
		}
		if local {
			return func(x *exec, val int64) { x.s[x.fb+off] = val }
		}
		return func(x *exec, val int64) {
			if x.tracing {
				x.note(off, 1)
			}
			x.s[off] = val
		}
	}
	return nil
}

// argFn appends the slots of an argument.
type argFn func(x *exec, dst []int64) []int64

func (m *Model) arg(e ast.Expr, sc scope) argFn {
	t := m.typeOf(e)
	if isArray(t) {
		a := m.addr(e, sc)
		n := slotSize(t)
		return func(x *exec, dst []int64) []int64 {
			p := a(x)
			if p < 0 {
				return append(dst, make([]int64, n)...)
			}
			return append(dst, x.s[p:p+n]...)
		}
	}
	var v evalFn
	if m.replaces(e) {
		v = nativeExpr(m.opts.Native, e)
	} else {
		v = m.expr(e, sc)
	}
	return func(x *exec, dst []int64) []int64 { return append(dst, v(x)) }
}

func (m *Model) action(a ast.Action, g *group, sc scope) actFn {
	switch a.(type) {
	case *ast.CallAction, *ast.StartAction, *ast.ExitAction:
		// the model runs them (Native.Replaces is asked about their parts)
	default:
		if nat := m.opts.Native; nat != nil && nat.Replaces(a) {
			return nativeAction(nat, a)
		}
	}
	switch a := a.(type) {
	case *ast.AssignAction:
		if t := m.typeOf(a.Lhs); isArray(t) {
			src, dst := m.addr(a.Rhs, sc), m.addr(a.Lhs, sc)
			n := slotSize(t)
			return func(x *exec) int {
				s := src(x)
				d := dst(x)
				if x.failed {
					return rFail
				}
				copy(x.s[d:d+n], x.s[s:s+n])
				return rOK
			}
		}
		v, st := m.expr(a.Rhs, sc), m.store(a.Lhs, sc)
		return func(x *exec) int {
			val := v(x)
			if x.failed {
				return rFail
			}
			st(x, val)
			if x.failed {
				return rFail
			}
			return rOK
		}
	case *ast.NewAction:
		return m.newAction(a, sc)
	case *ast.ChooseAction:
		return m.chooseAction(a, sc)
	case *ast.ForallAction:
		return m.forallAction(a, sc)
	case *ast.ReachableAction:
		return m.reachableAction(a, sc)
	case *ast.LockAction:
		return m.lockAction(a, sc)
	case *ast.StartAction:
		return m.startAction(a, sc)
	case *ast.ExitAction:
		return func(x *exec) int {
			x.s[x.off[x.t]+thStatus] = 1
			return rStop
		}
	case *ast.CallAction:
		return m.callAction(a, g, sc)
	case *ast.PrintAction:
		return m.printAction(a, sc)
	case *ast.AssertAction:
		c := m.expr(a.Cond, sc)
		pos := a.AssertPos
		text := format.Expr(a.Cond)
		return func(x *exec) int {
			v := c(x)
			if x.failed {
				return rFail
			}
			if v == 0 {
				x.fail(Assertion, pos, "assertion violated: %s", text)
				return rFail
			}
			return rOK
		}
	case *ast.AssumeAction:
		c := m.expr(a.Cond, sc)
		text := format.Expr(a.Cond)
		return func(x *exec) int {
			v := c(x)
			if x.failed {
				return rFail
			}
			if v == 0 {
				if x.explain {
					x.block = "assume(" + text + ") does not hold"
				}
				return rBlocked
			}
			return rOK
		}
	}
	m.failf(a.Pos(), "cannot compile this action")
	return nil
}

func (m *Model) newAction(a *ast.NewAction, sc scope) actFn {
	co, _ := m.info.Uses[a.Collection].(*types.Collection)
	if co == nil {
		m.failf(a.Collection.Pos(), "%s is not a collection", a.Collection.Name)
	}
	c := m.colls[co.Index]
	var length evalFn
	if a.Len != nil {
		length = m.expr(a.Len, sc)
	}
	st := m.store(a.Lhs, sc)
	pos := a.NewPos
	size := int64(co.Size)
	return func(x *exec) int {
		if x.tracing {
			x.noteHeap()
		}
		cnt := x.s[c.off]
		if cnt >= size {
			x.limit(pos, "collection %s is full (%d objects)", c.obj.Name(), size)
			return rFail
		}
		var n int64
		if c.array {
			if length != nil {
				n = length(x)
				if x.failed {
					return rFail
				}
			}
			if n < 0 || n > int64(c.maxLen) {
				x.fail(IndexOutOfBounds, pos, "array length %d not in 0..%d", n, c.maxLen)
				return rFail
			}
		}
		obj := c.first + int(cnt)
		x.s[c.off] = cnt + 1
		if c.array {
			x.s[x.m.objBase[obj]] = n
		}
		st(x, int64(obj+1))
		if x.failed {
			return rFail
		}
		return rOK
	}
}

func (m *Model) chooseAction(a *ast.ChooseAction, sc scope) actFn {
	st := m.store(a.Lhs, sc)
	intern := !a.Extern
	if a.Values != nil {
		vals := make([]evalFn, len(a.Values))
		for i, v := range a.Values {
			vals[i] = m.expr(v, sc)
		}
		return func(x *exec) int {
			k := x.choose(len(vals))
			if x.tooManyChoices(a.KwPos) {
				return rFail
			}
			if intern {
				x.intern = true
			}
			v := vals[k](x)
			if x.failed {
				return rFail
			}
			st(x, v)
			if x.failed {
				return rFail
			}
			return rOK
		}
	}
	if fn := m.givenChoice(a, st, intern); fn != nil {
		return fn
	}
	lo, hi := m.expr(a.Lo, sc), m.expr(a.Hi, sc)
	pos := a.KwPos
	return func(x *exec) int {
		l, h := lo(x), hi(x)
		if x.failed {
			return rFail
		}
		if h < l {
			if x.explain {
				x.block = fmt.Sprintf("empty choice range %d..%d", l, h)
			}
			return rBlocked
		}
		if uint64(h-l) >= uint64(x.m.opts.MaxChoiceRange) {
			if x.m.opts.ChoiceValues != nil {
				// a replay with given values (a refinement's
				// confirmation): the range is an unbounded input
				return x.chooseGiven(pos, l, h, st, intern)
			}
			x.limit(pos, "choice range %d..%d has more than %d values", l, h, x.m.opts.MaxChoiceRange)
			return rFail
		}
		k := x.choose(int(h-l) + 1)
		if x.tooManyChoices(pos) {
			return rFail
		}
		if intern {
			x.intern = true
		}
		st(x, l+int64(k))
		if x.failed {
			return rFail
		}
		return rOK
	}
}

func (m *Model) heapType(id *ast.Ident) []bool {
	tn, _ := m.info.Uses[id].(*types.TypeName)
	if tn == nil {
		m.failf(id.Pos(), "%s is not a type", id.Name)
	}
	return m.subtypeMask(tn.Named())
}

func (m *Model) forallAction(a *ast.ForallAction, sc scope) actFn {
	mask := m.heapType(a.Type)
	st := m.store(a.Lhs, sc)
	return func(x *exec) int {
		// forall is a choose action of the paper even where there is one
		// object or none (its Figure 14, rules 3 and 5): the step is a
		// choice transition, which the choose-free search (M_D) leaves out.
		x.intern = true
		if x.tracing {
			x.noteHeap()
		}
		n := 0
		for i, c := range x.m.colls {
			if mask[i] {
				n += int(x.s[c.off])
			}
		}
		if n == 0 {
			return rOK
		}
		k := x.choose(n)
		for i, c := range x.m.colls {
			if !mask[i] {
				continue
			}
			if cnt := int(x.s[c.off]); k < cnt {
				st(x, int64(c.first+k+1))
				break
			} else {
				k -= cnt
			}
		}
		if x.failed {
			return rFail
		}
		return rOK
	}
}

func (m *Model) reachableAction(a *ast.ReachableAction, sc scope) actFn {
	mask := m.heapType(a.Type)
	from := m.expr(a.From, sc)
	st := m.store(a.Lhs, sc)
	return func(x *exec) int {
		r := from(x)
		if x.failed {
			return rFail
		}
		// A choose action (rules 2 and 4), as forall above.
		x.intern = true
		if r == 0 {
			return rOK
		}
		if x.tracing {
			x.noteHeap()
		}
		mm := x.m
		if len(x.seen) < len(mm.objBase) {
			x.seen = make([]bool, len(mm.objBase))
		}
		seen := x.seen[:len(mm.objBase)]
		clear(seen)
		x.stack = append(x.stack[:0], r-1)
		seen[r-1] = true
		for len(x.stack) > 0 {
			o := x.stack[len(x.stack)-1]
			x.stack = x.stack[:len(x.stack)-1]
			c := mm.colls[mm.objColl[o]]
			base := mm.objBase[o]
			visit := func(p int) {
				if v := x.s[p]; v > 0 && !seen[v-1] {
					seen[v-1] = true
					x.stack = append(x.stack, v-1)
				}
			}
			if c.array {
				n := int(x.s[base])
				for i := 0; i < n; i++ {
					for _, rs := range c.refs {
						visit(base + 1 + i*c.elemSz + rs)
					}
				}
			} else {
				for _, rs := range c.refs {
					visit(base + rs)
				}
			}
		}
		x.cands = x.cands[:0]
		for o, ok := range seen {
			if ok && mask[mm.objColl[o]] {
				x.cands = append(x.cands, int64(o))
			}
		}
		if len(x.cands) == 0 {
			return rOK
		}
		k := x.choose(len(x.cands))
		st(x, x.cands[k]+1)
		if x.failed {
			return rFail
		}
		return rOK
	}
}

func (m *Model) lockAction(a *ast.LockAction, sc scope) actFn {
	// the fields each operation reads or writes, for the transition
	// cache's trace (lockAddr does not trace the whole lock)
	var from, n int
	switch a.Op {
	case token.LOCK, token.UNLOCK:
		from, n = lockOwner, 2
	default:
		from, n = lockOwner, 4
	}
	l0 := m.lockAddr(a.Lock, sc)
	l := func(x *exec) int {
		p := l0(x)
		if x.tracing && p >= 0 {
			x.note(p+from, n)
		}
		return p
	}
	pos := a.OpPos
	name := format.Expr(a.Lock)
	reentrant := false
	if lt, ok := m.typeOf(a.Lock).Underlying().(*types.Lock); ok {
		reentrant = lt.Reentrant
	}
	mustHold := func(x *exec, p int, what string) bool {
		if x.s[p+lockOwner] != int64(x.t+1) {
			x.fail(IllegalMonitorState, pos, "%s(%s) by a thread that does not hold the lock", what, name)
			return false
		}
		return true
	}
	switch a.Op {
	case token.LOCK:
		return func(x *exec) int {
			p := l(x)
			if p < 0 {
				return rFail
			}
			me := int64(x.t + 1)
			switch o := x.s[p+lockOwner]; {
			case o == 0:
				x.s[p+lockOwner], x.s[p+lockCount] = me, 1
			case o == me && reentrant:
				if x.s[p+lockCount] >= int64(x.m.opts.MaxReentrancy) {
					x.limit(pos, "lock %s re-acquired more than %d times", name, x.m.opts.MaxReentrancy)
					return rFail
				}
				x.s[p+lockCount]++
			default:
				if x.explain {
					x.block = "lock " + name + " is held by " + x.m.threadName(x.s, int(o-1))
				}
				return rBlocked
			}
			return rOK
		}
	case token.UNLOCK:
		return func(x *exec) int {
			p := l(x)
			if p < 0 || !mustHold(x, p, "unlock") {
				return rFail
			}
			x.s[p+lockCount]--
			if x.s[p+lockCount] == 0 {
				x.s[p+lockOwner] = 0
			}
			return rOK
		}
	case token.WAIT:
		return func(x *exec) int {
			p := l(x)
			if p < 0 || !mustHold(x, p, "wait") {
				return rFail
			}
			th := x.off[x.t]
			if x.s[th+thWaitCount] != 0 {
				x.limit(pos, "thread waits on a second lock while waiting on another (not supported)")
				return rFail
			}
			x.s[th+thWaitCount] = x.s[p+lockCount]
			x.s[p+lockWaiting] |= 1 << uint(x.t)
			x.s[p+lockOwner], x.s[p+lockCount] = 0, 0
			return rOK
		}
	case token.UNWAIT:
		return func(x *exec) int {
			p := l(x)
			if p < 0 {
				return rFail
			}
			bit := int64(1) << uint(x.t)
			if x.s[p+lockOwner] != 0 || x.s[p+lockNotified]&bit == 0 {
				if x.explain {
					if x.s[p+lockNotified]&bit == 0 {
						x.block = "waits to be notified on " + name
					} else {
						x.block = "notified on " + name + ", which is held by " + x.m.threadName(x.s, int(x.s[p+lockOwner]-1))
					}
				}
				return rBlocked
			}
			th := x.off[x.t]
			x.s[p+lockNotified] &^= bit
			x.s[p+lockOwner], x.s[p+lockCount] = int64(x.t+1), x.s[th+thWaitCount]
			x.s[th+thWaitCount] = 0
			return rOK
		}
	case token.NOTIFY:
		return func(x *exec) int {
			p := l(x)
			if p < 0 || !mustHold(x, p, "notify") {
				return rFail
			}
			w := uint64(x.s[p+lockWaiting])
			if w == 0 {
				return rOK
			}
			k := x.choose(bits.OnesCount64(w))
			for ; k > 0; k-- {
				w &= w - 1
			}
			bit := int64(w & -w)
			x.s[p+lockWaiting] &^= bit
			x.s[p+lockNotified] |= bit
			return rOK
		}
	case token.NOTIFYALL:
		return func(x *exec) int {
			p := l(x)
			if p < 0 || !mustHold(x, p, "notifyAll") {
				return rFail
			}
			x.s[p+lockNotified] |= x.s[p+lockWaiting]
			x.s[p+lockWaiting] = 0
			return rOK
		}
	}
	m.failf(pos, "unknown lock action")
	return nil
}

// frame compiles what a new frame of pi needs: its argument values and
// their checks.
type frameArgs struct {
	pi     *procInfo
	args   []argFn
	checks []checkFn // per parameter (nil: none)
}

func (m *Model) frameArgs(p *types.Proc, args []ast.Expr, sc scope) *frameArgs {
	fa := &frameArgs{pi: m.procOf(p)}
	for i, a := range args {
		fa.args = append(fa.args, m.arg(a, sc))
		var chk checkFn
		if i < len(p.Params) {
			chk = m.checker(p.Params[i].Type(), a.Pos(), "parameter "+p.Params[i].Name())
		}
		fa.checks = append(fa.checks, chk)
	}
	return fa
}

// evalArgs evaluates the arguments into x.args.
func (fa *frameArgs) eval(x *exec) bool {
	x.args = x.args[:0]
	for _, a := range fa.args {
		x.args = a(x, x.args)
	}
	return !x.failed
}

// pushFrame inserts a frame of fa.pi at slot p (the end of thread j's
// record) with the arguments in x.args.
func (x *exec) pushFrame(fa *frameArgs, p, j int, site int) bool {
	pi := fa.pi
	n := frHeader + pi.varSize
	x.insert(p, n, j)
	x.s[p+frProc] = int64(pi.num)
	x.s[p+frLoc] = 0
	x.s[p+frSite] = int64(site)
	copy(x.s[p+frHeader:p+n], pi.init)
	ai := 0
	for i, chk := range fa.checks {
		sz := pi.varSlots[i]
		if chk != nil {
			v, ok := chk(x, x.args[ai])
			if !ok {
				return false
			}
			x.args[ai] = v
		}
		copy(x.s[p+frHeader+pi.varOff[i]:], x.args[ai:ai+sz])
		ai += sz
	}
	return true
}

func (m *Model) startAction(a *ast.StartAction, sc scope) actFn {
	p, _ := m.info.Uses[a.Thread].(*types.Proc)
	if p == nil || !p.Thread {
		m.failf(a.Thread.Pos(), "%s is not a thread", a.Thread.Name)
	}
	fa := m.frameArgs(p, a.Args, sc)
	var st storeFn
	if a.Lhs != nil {
		st = m.store(a.Lhs, sc)
	}
	pos := a.StartPos
	return func(x *exec) int {
		if !fa.eval(x) {
			return rFail
		}
		j := x.spawn(fa, pos)
		if j < 0 {
			return rFail
		}
		if st != nil {
			st(x, int64(j+1))
			if x.failed {
				return rFail
			}
		}
		return rOK
	}
}

// spawn appends a thread of fa.pi with the arguments in x.args and returns
// its index, or -1 after a limit or error.
func (x *exec) spawn(fa *frameArgs, pos source.Pos) int {
	m := x.m
	x.nonlocal = true
	j := len(x.off)
	if j >= m.opts.MaxThreads {
		x.limit(pos, "too many threads (the bound is %d)", m.opts.MaxThreads)
		return -1
	}
	p := len(x.s)
	x.s = append(x.s, int64(fa.pi.proc.Index), 0, 0, 1)
	x.off = append(x.off, p)
	x.s[m.poolOff]++
	if !x.pushFrame(fa, len(x.s), j, 0) {
		return -1
	}
	x.arrive(j)
	return j
}

func (m *Model) callAction(a *ast.CallAction, g *group, sc scope) actFn {
	p, _ := m.info.Uses[a.Func].(*types.Proc)
	if p == nil || p.Thread {
		m.failf(a.Func.Pos(), "%s is not a function", a.Func.Name)
	}
	fa := m.frameArgs(p, a.Args, sc)
	if a.Lhs != nil {
		if t := m.typeOf(a.Lhs); isArray(t) {
			g.callN = slotSize(t)
			g.callAddr = m.addr(a.Lhs, sc)
		} else if !m.replaces(a.Lhs) {
			g.callStore = m.store(a.Lhs, sc)
		}
	}
	site := g.Index + 1
	pos := a.CallPos
	return func(x *exec) int {
		if !fa.eval(x) {
			return rFail
		}
		th := x.off[x.t]
		if x.s[th+thDepth] >= int64(x.m.opts.MaxCallDepth) {
			x.limit(pos, "call depth exceeds %d", x.m.opts.MaxCallDepth)
			return rFail
		}
		end := x.m.threadEnd(x.s, th)
		if !x.pushFrame(fa, end, x.t, site) {
			return rFail
		}
		x.s[th+thDepth]++
		x.fb = end
		x.arrive(x.t)
		return rStop
	}
}

func (m *Model) printAction(a *ast.PrintAction, sc scope) actFn {
	type part struct {
		text string
		v    evalFn
		t    types.Type
		addr addrFn
	}
	var parts []part
	for _, e := range a.Args {
		if lit, ok := e.(*ast.BasicLit); ok && lit.Kind == token.STRING {
			parts = append(parts, part{text: unquote(lit.Value)})
			continue
		}
		t := m.typeOf(e)
		if isArray(t) {
			parts = append(parts, part{t: t, addr: m.addr(e, sc)})
		} else {
			parts = append(parts, part{t: t, v: m.expr(e, sc)})
		}
	}
	return func(x *exec) int {
		if x.print == nil {
			return rOK
		}
		// The search does not evaluate the arguments (print is nil there),
		// so printing may not fail either: an argument whose evaluation
		// fails prints as <message> and the step goes on, as the search
		// has it (docs/bir.md §13.6).
		var b strings.Builder
		for _, p := range parts {
			switch {
			case p.v != nil:
				v := p.v(x)
				if !x.failed {
					b.WriteString(x.m.formatValue(x.s, p.t, v))
				}
			case p.addr != nil:
				if q := p.addr(x); q >= 0 && !x.failed {
					b.WriteString(x.m.formatPlace(x.s, p.t, q))
				}
			default:
				b.WriteString(p.text)
			}
			if x.failed {
				b.WriteString("<" + x.msg + ">")
				x.clearError()
			}
		}
		fmt.Fprintln(x.print, b.String())
		return rOK
	}
}

func unquote(s string) string {
	if len(s) >= 2 {
		s = s[1 : len(s)-1]
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+1 < len(s) {
			i++
			switch s[i] {
			case 'n':
				b.WriteByte('\n')
			default:
				b.WriteByte(s[i])
			}
			continue
		}
		b.WriteByte(s[i])
	}
	return b.String()
}
