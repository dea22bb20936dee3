package model

import (
	"fmt"
	"math"
	"strconv"

	"birch/internal/bir/ast"
	"birch/internal/bir/format"
	"birch/internal/bir/token"
	"birch/internal/bir/types"
	"birch/internal/source"
)

// evalFn computes a one-slot value. On a runtime error it records the error
// in x and returns 0; callers test x.failed.
type evalFn func(x *exec) int64

// addrFn computes the slot offset of a place, or -1 after a runtime error.
type addrFn func(x *exec) int

// scope says where names are resolved while compiling: the proc whose frame
// is current (nil in predicates and properties).
type scope struct {
	proc *procInfo
}

// compileError is raised (as a panic inside the compiler only) for a program
// the compiler cannot handle; New turns it into an error.
type compileError struct {
	pos source.Pos
	msg string
}

func (m *Model) failf(pos source.Pos, format string, args ...any) {
	panic(compileError{pos, fmt.Sprintf(format, args...)})
}

func (m *Model) typeOf(e ast.Expr) types.Type { return m.info.TypeOf(e) }

// expr compiles e to a one-slot value.
func (m *Model) expr(e ast.Expr, sc scope) evalFn {
	if tv, ok := m.info.Types[e]; ok && tv.Value.Kind != types.NoConst {
		v := constSlot(tv.Value)
		return func(*exec) int64 { return v }
	}
	switch e := e.(type) {
	case *ast.ParenExpr:
		return m.expr(e.X, sc)
	case *ast.BasicLit:
		switch e.Kind {
		case token.TRUE:
			return func(*exec) int64 { return 1 }
		case token.FALSE, token.NULL:
			return func(*exec) int64 { return 0 }
		case token.INT:
			v, err := strconv.ParseInt(e.Value, 10, 64)
			if err != nil {
				m.failf(e.Pos(), "integer literal %s out of range", e.Value)
			}
			return func(*exec) int64 { return v }
		}
	case *ast.Ident:
		switch obj := m.info.Uses[e].(type) {
		case *types.Predicate:
			return m.expr(obj.Decl.Expr, scope{})
		case *types.Var:
			// direct reads: the two common cases without an address closure
			switch obj.Kind {
			case types.GlobalVar:
				off := m.globalOff[obj.Index]
				return func(x *exec) int64 {
					if x.tracing {
						x.note(off, 1)
					}
					return x.s[off]
				}
			case types.LocalVar, types.ParamVar:
				if sc.proc != nil && sc.proc.proc == obj.Owner {
					off := frHeader + sc.proc.varOff[sc.proc.varIndex[obj]]
					return func(x *exec) int64 { return x.s[x.fb+off] }
				}
			}
			a := m.varAddr(obj, sc, e.Pos())
			return func(x *exec) int64 { return x.s[a(x)] }
		}
	case *ast.IndexExpr:
		if f := m.indexRead(e, sc); f != nil {
			return f
		}
		a := m.addr(e, sc)
		return func(x *exec) int64 {
			p := a(x)
			if p < 0 {
				return 0
			}
			return x.s[p]
		}
	case *ast.SelectorExpr:
		a := m.addr(e, sc)
		return func(x *exec) int64 {
			p := a(x)
			if p < 0 {
				return 0
			}
			return x.s[p]
		}
	case *ast.LengthExpr:
		switch u := m.typeOf(e.X).Underlying().(type) {
		case *types.Array:
			n := u.Len
			return func(*exec) int64 { return n }
		case *types.Ref:
			ref := m.expr(e.X, sc)
			pos := e.LengthPos
			what := format.Expr(e.X)
			return func(x *exec) int64 {
				base := x.object(ref(x), pos, what)
				if base < 0 {
					return 0
				}
				return x.s[base]
			}
		}
	case *ast.UnaryExpr:
		return m.unary(e, sc)
	case *ast.BinaryExpr:
		return m.binary(e, sc)
	case *ast.ConvExpr:
		v := m.expr(e.X, sc)
		r, ok := m.typeOf(e).Underlying().(*types.Range)
		if !ok || !r.Wrap {
			break
		}
		fit := wrapper(r, e.Pos(), format.Expr(e))
		if fit == nil {
			return v
		}
		return func(x *exec) int64 {
			a := v(x)
			if x.failed {
				return 0
			}
			a, _ = fit(x, a)
			return a
		}
	case *ast.InstanceofExpr:
		tn, _ := m.info.Uses[e.Type].(*types.TypeName)
		if tn == nil {
			break
		}
		mask := m.subtypeMask(tn.Named())
		ref := m.expr(e.X, sc)
		return func(x *exec) int64 {
			r := ref(x)
			if r == 0 {
				return 0
			}
			return b2i(mask[x.m.objColl[r-1]])
		}
	case *ast.BuiltinExpr:
		return m.builtin(e, sc)
	case *ast.LocationTest:
		return m.locationTest(e)
	case *ast.RemoteRef:
		return m.remoteRef(e)
	}
	m.failf(e.Pos(), "cannot compile expression %s", format.Expr(e))
	return nil
}

// varBase returns the slot offset of the variable e names: a global's
// offset, or (local true) the offset from the current frame's first slot
// of a variable of the current frame. ok is false for other expressions.
func (m *Model) varBase(e ast.Expr, sc scope) (off int, local, ok bool) {
	id, isIdent := unparen(e).(*ast.Ident)
	if !isIdent {
		return 0, false, false
	}
	v, isVar := m.info.Uses[id].(*types.Var)
	if !isVar {
		return 0, false, false
	}
	switch v.Kind {
	case types.GlobalVar:
		return m.globalOff[v.Index], false, true
	case types.LocalVar, types.ParamVar:
		if sc.proc != nil && sc.proc.proc == v.Owner {
			return frHeader + sc.proc.varOff[sc.proc.varIndex[v]], true, true
		}
	}
	return 0, false, false
}

// indexRead compiles the read of an element of an array variable with one
// closure call for the index; it returns nil for other index expressions.
// The semantics are those of addr's.
func (m *Model) indexRead(e *ast.IndexExpr, sc scope) evalFn {
	u, isArr := m.typeOf(e.X).Underlying().(*types.Array)
	if !isArr || slotSize(u.Elem) != 1 {
		return nil
	}
	off, local, ok := m.varBase(e.X, sc)
	if !ok {
		return nil
	}
	idx := m.expr(e.Index, sc)
	n, pos := u.Len, e.Lbrack
	return func(x *exec) int64 {
		i := idx(x)
		if x.failed {
			return 0
		}
		if i < 0 || i >= n {
			x.fail(IndexOutOfBounds, pos, "index %d out of bounds [0, %d)", i, n)
			return 0
		}
		if local {
			return x.s[x.fb+off+int(i)]
		}
		if x.tracing {
			x.note(off+int(i), 1)
		}
		return x.s[off+int(i)]
	}
}

func constSlot(v types.ConstValue) int64 {
	switch v.Kind {
	case types.IntConst:
		return v.Int
	case types.BoolConst:
		return b2i(v.Bool)
	}
	return 0
}

func b2i(b bool) int64 {
	if b {
		return 1
	}
	return 0
}

// varAddr compiles the place of a variable.
func (m *Model) varAddr(v *types.Var, sc scope, pos source.Pos) addrFn {
	switch v.Kind {
	case types.GlobalVar:
		off := m.globalOff[v.Index]
		n := slotSize(v.Type())
		return func(x *exec) int {
			if x.tracing {
				x.note(off, n)
			}
			return off
		}
	case types.LocalVar, types.ParamVar:
		if sc.proc == nil || sc.proc.proc != v.Owner {
			m.failf(pos, "variable %s used outside its thread or function", v.Name())
		}
		off := frHeader + sc.proc.varOff[sc.proc.varIndex[v]]
		return func(x *exec) int { return x.fb + off }
	}
	m.failf(pos, "cannot address %s", v.Name())
	return nil
}

// lockAddr compiles the place of a lock for a lock operation, which
// traces the fields it uses itself: a global lock variable or an element
// of a global array of locks is not traced as a whole (addr would); other
// places are compiled by addr.
func (m *Model) lockAddr(e ast.Expr, sc scope) addrFn {
	switch e := unparen(e).(type) {
	case *ast.Ident:
		if v, ok := m.info.Uses[e].(*types.Var); ok && v.Kind == types.GlobalVar {
			off := m.globalOff[v.Index]
			return func(*exec) int { return off }
		}
	case *ast.IndexExpr:
		u, isArr := m.typeOf(e.X).Underlying().(*types.Array)
		off, local, ok := m.varBase(e.X, sc)
		if !isArr || !ok || local {
			break
		}
		return elemAddr(off, false, false, m.expr(e.Index, sc), u.Len, slotSize(u.Elem), e.Lbrack)
	}
	return m.addr(e, sc)
}

// unparen strips the parentheses around e.
func unparen(e ast.Expr) ast.Expr {
	for {
		p, ok := e.(*ast.ParenExpr)
		if !ok {
			return e
		}
		e = p.X
	}
}

// elemAddr compiles the place of element idx (of n, es slots each) of the
// array variable at slot off (of the current frame when local); trace says
// whether the transition cache's trace records the element (a lock
// operation records the fields it uses instead).
func elemAddr(off int, local, trace bool, idx evalFn, n int64, es int, pos source.Pos) addrFn {
	return func(x *exec) int {
		i := idx(x)
		if x.failed {
			return -1
		}
		if i < 0 || i >= n {
			x.fail(IndexOutOfBounds, pos, "index %d out of bounds [0, %d)", i, n)
			return -1
		}
		if local {
			return x.fb + off + int(i)*es
		}
		if trace && x.tracing {
			x.note(off+int(i)*es, es)
		}
		return off + int(i)*es
	}
}

// addr compiles a place: a variable, a field through a reference, an
// element of an array.
func (m *Model) addr(e ast.Expr, sc scope) addrFn {
	switch e := e.(type) {
	case *ast.ParenExpr:
		return m.addr(e.X, sc)
	case *ast.Ident:
		if v, ok := m.info.Uses[e].(*types.Var); ok {
			return m.varAddr(v, sc, e.Pos())
		}
	case *ast.SelectorExpr:
		f, _ := m.info.Uses[e.Sel].(*types.Var)
		rt, _ := m.typeOf(e.X).Underlying().(*types.Ref)
		if f == nil || rt == nil || rt.Target == nil {
			break
		}
		rec, _ := rt.Target.Underlying().(*types.Record)
		if rec == nil {
			break
		}
		off := fieldOffset(rec, f)
		ref := m.expr(e.X, sc)
		pos := e.Sel.Pos()
		what := format.Expr(e.X)
		return func(x *exec) int {
			base := x.object(ref(x), pos, what)
			if base < 0 {
				return -1
			}
			return base + off
		}
	case *ast.IndexExpr:
		idx := m.expr(e.Index, sc)
		pos := e.Lbrack
		switch u := m.typeOf(e.X).Underlying().(type) {
		case *types.Array:
			es := slotSize(u.Elem)
			n := u.Len
			if off, local, ok := m.varBase(e.X, sc); ok {
				// an array variable: its first slot without a closure
				return elemAddr(off, local, true, idx, n, es, pos)
			}
			base := m.addr(e.X, sc)
			return func(x *exec) int {
				b := base(x)
				i := idx(x)
				if b < 0 || x.failed {
					return -1
				}
				if i < 0 || i >= n {
					x.fail(IndexOutOfBounds, pos, "index %d out of bounds [0, %d)", i, n)
					return -1
				}
				return b + int(i)*es
			}
		case *types.Ref:
			arr, _ := u.Target.Underlying().(*types.Array)
			if arr == nil {
				break
			}
			es := slotSize(arr.Elem)
			ref := m.expr(e.X, sc)
			what := format.Expr(e.X)
			return func(x *exec) int {
				b := x.object(ref(x), pos, what)
				i := idx(x)
				if b < 0 || x.failed {
					return -1
				}
				if n := x.s[b]; i < 0 || i >= n {
					x.fail(IndexOutOfBounds, pos, "index %d out of bounds [0, %d)", i, n)
					return -1
				}
				return b + 1 + int(i)*es
			}
		}
	}
	m.failf(e.Pos(), "%s is not a place", format.Expr(e))
	return nil
}

func (m *Model) unary(e *ast.UnaryExpr, sc scope) evalFn {
	v := m.expr(e.X, sc)
	pos := e.OpPos
	switch e.Op {
	case token.NOT:
		return func(x *exec) int64 { return 1 - v(x) }
	case token.ADD:
		return v
	case token.TILDE:
		return func(x *exec) int64 { return ^v(x) }
	case token.SUB:
		if m.info.Types[e].Wraps {
			return func(x *exec) int64 { return int64(-uint64(v(x))) }
		}
		return func(x *exec) int64 {
			a := v(x)
			if a == math.MinInt64 {
				x.fail(Overflow, pos, "integer overflow: -(%d)", a)
				return 0
			}
			return -a
		}
	}
	m.failf(pos, "operator %s is not allowed here", e.Op)
	return nil
}

func (m *Model) binary(e *ast.BinaryExpr, sc scope) evalFn {
	if f := m.binaryWrap(e, sc); f != nil {
		return f
	}
	if f := m.binaryConst(e, sc); f != nil {
		return f
	}
	a, b := m.expr(e.X, sc), m.expr(e.Y, sc)
	pos := e.OpPos
	switch e.Op {
	case token.LAND:
		return func(x *exec) int64 {
			if a(x) == 0 {
				return 0
			}
			return b(x)
		}
	case token.LOR:
		return func(x *exec) int64 {
			if a(x) != 0 {
				return 1
			}
			return b(x)
		}
	case token.ARROW:
		return func(x *exec) int64 {
			if a(x) == 0 {
				return 1
			}
			return b(x)
		}
	case token.IFF, token.EQL:
		return func(x *exec) int64 { return b2i(a(x) == b(x)) }
	case token.NEQ:
		return func(x *exec) int64 { return b2i(a(x) != b(x)) }
	case token.LSS:
		return func(x *exec) int64 { return b2i(a(x) < b(x)) }
	case token.LEQ:
		return func(x *exec) int64 { return b2i(a(x) <= b(x)) }
	case token.GTR:
		return func(x *exec) int64 { return b2i(a(x) > b(x)) }
	case token.GEQ:
		return func(x *exec) int64 { return b2i(a(x) >= b(x)) }
	case token.ADD:
		return func(x *exec) int64 {
			p, q := a(x), b(x)
			r := p + q
			if (r > p) != (q > 0) {
				x.fail(Overflow, pos, "integer overflow: %d + %d", p, q)
				return 0
			}
			return r
		}
	case token.SUB:
		return func(x *exec) int64 {
			p, q := a(x), b(x)
			r := p - q
			if (r < p) != (q > 0) {
				x.fail(Overflow, pos, "integer overflow: %d - %d", p, q)
				return 0
			}
			return r
		}
	case token.MUL:
		return func(x *exec) int64 {
			p, q := a(x), b(x)
			r, ok := mul64(p, q)
			if !ok {
				x.fail(Overflow, pos, "integer overflow: %d * %d", p, q)
				return 0
			}
			return r
		}
	case token.QUO, token.REM:
		rem := e.Op == token.REM
		return func(x *exec) int64 {
			p, q := a(x), b(x)
			if x.failed {
				return 0
			}
			if q == 0 {
				x.fail(DivisionByZero, pos, "%s by zero", map[bool]string{false: "division", true: "remainder"}[rem])
				return 0
			}
			if q == -1 && p == math.MinInt64 {
				if rem {
					return 0
				}
				x.fail(Overflow, pos, "integer overflow: %d / -1", p)
				return 0
			}
			if rem {
				return p % q
			}
			return p / q
		}
	}
	m.failf(pos, "operator %s is not allowed here", e.Op)
	return nil
}

// binaryWrap compiles the operators that never overflow: + - * inside a
// conversion's operand (modulo 2^64) and the bitwise operators. It returns
// nil for the others.
func (m *Model) binaryWrap(e *ast.BinaryExpr, sc scope) evalFn {
	switch e.Op {
	case token.ADD, token.SUB, token.MUL:
		if !m.info.Types[e].Wraps {
			return nil
		}
	case token.AND, token.OR, token.XOR, token.SHL, token.SHR:
	default:
		return nil
	}
	a, b := m.expr(e.X, sc), m.expr(e.Y, sc)
	switch e.Op {
	case token.ADD:
		return func(x *exec) int64 { return int64(uint64(a(x)) + uint64(b(x))) }
	case token.SUB:
		return func(x *exec) int64 { return int64(uint64(a(x)) - uint64(b(x))) }
	case token.MUL:
		return func(x *exec) int64 { return int64(uint64(a(x)) * uint64(b(x))) }
	case token.AND:
		return func(x *exec) int64 { return a(x) & b(x) }
	case token.OR:
		return func(x *exec) int64 { return a(x) | b(x) }
	case token.XOR:
		return func(x *exec) int64 { return a(x) ^ b(x) }
	}
	op, pos := e.Op, e.OpPos
	return func(x *exec) int64 {
		p, q := a(x), b(x)
		if x.failed {
			return 0
		}
		v, ok := types.Bitwise(op, p, q)
		if !ok {
			x.fail(ShiftCount, pos, "shift count %d out of range 0..63: %d %s %d", q, p, op, q)
			return 0
		}
		return v
	}
}

// binaryConst compiles the common operations whose right operand is a
// constant with one closure call fewer; it returns nil for the others,
// which binary compiles in general. The semantics are binary's.
func (m *Model) binaryConst(e *ast.BinaryExpr, sc scope) evalFn {
	tv, ok := m.info.Types[e.Y]
	if !ok || tv.Value.Kind != types.IntConst {
		return nil
	}
	c := tv.Value.Int
	pos := e.OpPos
	switch e.Op {
	case token.EQL:
		a := m.expr(e.X, sc)
		return func(x *exec) int64 { return b2i(a(x) == c) }
	case token.NEQ:
		a := m.expr(e.X, sc)
		return func(x *exec) int64 { return b2i(a(x) != c) }
	case token.LSS:
		a := m.expr(e.X, sc)
		return func(x *exec) int64 { return b2i(a(x) < c) }
	case token.LEQ:
		a := m.expr(e.X, sc)
		return func(x *exec) int64 { return b2i(a(x) <= c) }
	case token.GTR:
		a := m.expr(e.X, sc)
		return func(x *exec) int64 { return b2i(a(x) > c) }
	case token.GEQ:
		a := m.expr(e.X, sc)
		return func(x *exec) int64 { return b2i(a(x) >= c) }
	case token.ADD, token.SUB:
		if c == math.MinInt64 {
			return nil
		}
		a := m.expr(e.X, sc)
		sub := e.Op == token.SUB
		d := c
		if sub {
			d = -c
		}
		return func(x *exec) int64 {
			p := a(x)
			r := p + d
			if (r > p) != (d > 0) {
				if sub {
					x.fail(Overflow, pos, "integer overflow: %d - %d", p, c)
				} else {
					x.fail(Overflow, pos, "integer overflow: %d + %d", p, c)
				}
				return 0
			}
			return r
		}
	case token.QUO, token.REM:
		if c == 0 || c == -1 {
			return nil // the general code reports the errors
		}
		a := m.expr(e.X, sc)
		if e.Op == token.REM {
			return func(x *exec) int64 { return a(x) % c }
		}
		return func(x *exec) int64 { return a(x) / c }
	}
	return nil
}

func mul64(a, b int64) (int64, bool) {
	if a == 0 || b == 0 {
		return 0, true
	}
	r := a * b
	if r/b != a || (a == -1 && b == math.MinInt64) || (b == -1 && a == math.MinInt64) {
		return 0, false
	}
	return r, true
}

func (m *Model) builtin(e *ast.BuiltinExpr, sc scope) evalFn {
	pos := e.OpPos
	if e.Op == token.THREADTERMINATED {
		v := m.expr(e.X, sc)
		return func(x *exec) int64 {
			t := v(x)
			if x.failed {
				return 0
			}
			if t <= 0 || int(t) > len(x.off) {
				x.fail(NullDereference, pos, "threadTerminated(null)")
				return 0
			}
			x.nonlocal = true
			return x.s[x.off[t-1]+thStatus]
		}
	}
	// the lock's field each builtin reads, for the transition cache's
	// trace (lockAddr does not trace the whole lock)
	field := lockOwner
	if e.Op == token.WASNOTIFIED {
		field = lockNotified
	}
	l0 := m.lockAddr(e.X, sc)
	l := func(x *exec) int {
		p := l0(x)
		if x.tracing && p >= 0 {
			x.note(p+field, 1)
		}
		return p
	}
	switch e.Op {
	case token.LOCKAVAILABLE:
		name := format.Expr(e.X)
		return func(x *exec) int64 {
			p := l(x)
			if p < 0 {
				return 0
			}
			o := x.s[p+lockOwner]
			ok := o == 0 || o == int64(x.t+1)
			if !ok && x.explain {
				x.block = name + " is held by " + x.m.threadName(x.s, int(o-1))
			}
			return b2i(ok)
		}
	case token.HASLOCK:
		return func(x *exec) int64 {
			p := l(x)
			if p < 0 {
				return 0
			}
			return b2i(x.s[p+lockOwner] == int64(x.t+1))
		}
	case token.WASNOTIFIED:
		return func(x *exec) int64 {
			p := l(x)
			if p < 0 {
				return 0
			}
			return b2i(x.s[p+lockNotified]&(1<<uint(x.t)) != 0)
		}
	}
	m.failf(pos, "unknown builtin %s", e.Op)
	return nil
}

// threadTarget compiles the thread part of a location test or remote
// reference: the proc and, if given, the instance expression (null: any).
func (m *Model) threadTarget(id *ast.Ident, inst ast.Expr) (*procInfo, evalFn) {
	p, _ := m.info.Uses[id].(*types.Proc)
	if p == nil || !p.Thread {
		m.failf(id.Pos(), "%s is not a thread", id.Name)
	}
	pi := m.procs[p.Index]
	if inst == nil {
		return pi, nil
	}
	return pi, m.expr(inst, scope{})
}

// matches reports whether thread j is an instance of pi selected by inst.
func (x *exec) selects(j int, pi *procInfo, want int64, any bool) bool {
	if x.s[x.off[j]+thProc] != int64(pi.num) {
		return false
	}
	return any || want == int64(j+1)
}

func (m *Model) locationTest(e *ast.LocationTest) evalFn {
	pi, inst := m.threadTarget(e.Thread, e.Instance)
	loc, _ := m.info.Uses[e.Loc].(*types.Location)
	if loc == nil {
		m.failf(e.Loc.Pos(), "unknown location %s", e.Loc.Name)
	}
	li := int64(loc.Index)
	return func(x *exec) int64 {
		x.nonlocal = true
		want, any := int64(0), true
		if inst != nil {
			want = inst(x)
			any = want == 0
		}
		for j := range x.off {
			if !x.selects(j, pi, want, any) {
				continue
			}
			th := x.off[j]
			if x.s[th+thDepth] == 1 && x.s[th+thHeader+frLoc] == li {
				return 1
			}
		}
		return 0
	}
}

func (m *Model) remoteRef(e *ast.RemoteRef) evalFn {
	pi, inst := m.threadTarget(e.Thread, e.Instance)
	v := m.expr(e.X, scope{proc: pi})
	return func(x *exec) int64 {
		x.nonlocal = true
		want, any := int64(0), true
		if inst != nil {
			want = inst(x)
			any = false
		}
		for j := range x.off {
			if !x.selects(j, pi, want, any) {
				continue
			}
			saveT, saveFb := x.t, x.fb
			x.t, x.fb = j, x.off[j]+thHeader
			r := v(x)
			x.t, x.fb = saveT, saveFb
			return r
		}
		return 0
	}
}

// subtypeMask says, per collection, whether its element type is t or a
// subtype of t.
func (m *Model) subtypeMask(t *types.Named) []bool {
	mask := make([]bool, len(m.colls))
	for i, c := range m.colls {
		mask[i] = t != nil && types.IsSubtype(c.obj.Elem, t)
	}
	return mask
}

func fmtExpr(e ast.Expr) string { return format.Expr(e) }
