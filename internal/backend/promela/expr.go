package promela

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"birch/internal/bir/ast"
	"birch/internal/bir/token"
	"birch/internal/bir/types"
)

// check is a runtime-error test: cond must hold, or the error kind occurs.
type check struct {
	cond, kind string
}

// env says how expressions are translated. With hoist set, they are
// translated in terms of the state before the transformation: a variable
// assigned earlier in the transformation is replaced by the expression it
// was assigned (subst), and reading a root written in another way (dirty)
// fails with errDirty.
type env struct {
	proc  *types.Proc
	hoist bool
	subst map[*types.Var]string
	dirty map[any]bool // *types.Var, *types.Collection, rootWC
	// writes are the stores into arrays, the heap and locks made earlier
	// in the transformation, in order; wc is the hoisted text of BIR_wc
	// when the transformation has written it ("" for BIR_wc)
	writes []write
	wc     string
	// term is the hoisted text of BIR_term when threads that terminate at
	// once were started earlier in the transformation ("" for BIR_term).
	term string
	// term2 is the same for BIR_term2 (wideSets)
	term2 string
	// prop is set for the expressions of properties (read by the monitor
	// or a never claim): location tests and remote references are allowed,
	// and remote is the thread a remote reference reads.
	prop   bool
	remote *remoteCtx
}

type rootKey string

const rootWC rootKey = "wc"

var errDirty = errors.New("depends on a value written earlier in the transformation")

func paren(s string) string {
	if isSimple(s) {
		return s
	}
	return "(" + s + ")"
}

func isSimple(s string) bool {
	if s == "" || s[0] == '!' || s[0] == '-' {
		return false
	}
	depth := 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '(', '[':
			depth++
		case ')', ']':
			depth--
		case ' ':
			if depth == 0 {
				return false
			}
		}
	}
	return true
}

func okOf(cs []check) string {
	if len(cs) == 0 {
		return "true"
	}
	var parts []string
	for _, c := range cs {
		parts = append(parts, paren(c.cond))
	}
	return strings.Join(parts, " && ")
}

// under makes checks conditional on cond (short-circuit evaluation).
func under(cond string, cs []check) []check {
	out := make([]check, len(cs))
	for i, c := range cs {
		out[i] = check{cond: "!" + paren(cond) + " || " + paren(c.cond), kind: c.kind}
	}
	return out
}

func (g *gen) typeOf(e ast.Expr) types.Type { return g.info.TypeOf(e) }

// expr translates a value expression: its Promela value and the checks that
// must hold for its evaluation not to fail, in evaluation order. A value
// stored into a fixed-width place is reduced into its type (storedExpr).
func (g *gen) expr(e ast.Expr, en *env) (string, []check, error) {
	if r := g.storeDst[e]; r != nil {
		return g.storedExpr(e, r, en)
	}
	return g.expr0(e, en)
}

// expr0 is expr without the reduction of a stored value.
func (g *gen) expr0(e ast.Expr, en *env) (string, []check, error) {
	if tv, ok := g.info.Types[e]; ok && tv.Value.Kind != types.NoConst {
		if tv.Value.Kind == types.IntConst && !fits32(tv.Value.Int) {
			// Promela's int has 32 bits: a constant beyond them is a
			// (32-bit) overflow where it is evaluated
			return "0", []check{{"false", "overflow"}}, nil
		}
		return constString(tv.Value), nil, nil
	}
	switch e := e.(type) {
	case *ast.ParenExpr:
		return g.expr(e.X, en)
	case *ast.Ident:
		switch o := g.info.Uses[e].(type) {
		case *types.Predicate:
			if o.Decl == nil || o.Decl.Expr == nil {
				return "", nil, g.errorf(e.Pos(), "cannot translate predicate %s", e.Name)
			}
			return g.expr(o.Decl.Expr, &env{prop: true})
		case *types.Var:
			if en.remote != nil && o.Owner == en.remote.proc {
				n, err := g.remoteVar(o, en, e)
				return n, nil, err
			}
			if en.hoist {
				if s, ok := en.subst[o]; ok {
					return "(" + s + ")", nil, nil
				}
				if en.dirty[o] {
					return "", nil, errDirty
				}
			}
			return g.varName(o), nil, nil
		case *types.Const:
			return constString(o.Value), nil, nil
		case *types.EnumConst:
			return fmt.Sprint(o.Ordinal), nil, nil
		}
		return "", nil, g.errorf(e.Pos(), "cannot translate %s", e.Name)
	case *ast.BasicLit:
		switch e.Kind {
		case token.TRUE:
			return "true", nil, nil
		case token.FALSE:
			return "false", nil, nil
		case token.NULL:
			return "0", nil, nil
		case token.INT:
			return e.Value, nil, nil
		}
	case *ast.UnaryExpr:
		x, cs, err := g.expr(e.X, en)
		if err != nil {
			return "", nil, err
		}
		switch e.Op {
		case token.NOT:
			return "!" + paren(x), cs, nil
		case token.SUB:
			if lo, hi, ok := g.bounds(e); !ok || !fits32(lo) || !fits32(hi) {
				cs = append(cs, check{paren(x) + " != " + min32, "overflow"})
			}
			return "-" + paren(x), cs, nil
		case token.ADD:
			return x, cs, nil
		case token.TILDE:
			return "~" + paren(x), cs, nil
		}
	case *ast.BinaryExpr:
		return g.binary(e, en)
	case *ast.ConvExpr:
		return g.convExpr(e, en)
	case *ast.SelectorExpr, *ast.IndexExpr:
		alts, cs, err := g.place(e, en)
		if err != nil {
			return "", nil, err
		}
		v, err := g.read(alts, en)
		return v, cs, err
	case *ast.LengthExpr:
		if a, ok := g.typeOf(e.X).Underlying().(*types.Array); ok {
			return fmt.Sprint(a.Len), nil, nil
		}
		r, cs, err := g.expr(e.X, en)
		if err != nil {
			return "", nil, err
		}
		cs = append(cs, check{r + " != 0", "null-dereference"})
		alts, err := g.derefAlts(r, g.typeOf(e.X), en)
		if err != nil {
			return "", nil, err
		}
		v, err := g.read(field(alts, ".n"), en)
		return v, cs, err
	case *ast.InstanceofExpr:
		r, cs, err := g.expr(e.X, en)
		if err != nil {
			return "", nil, err
		}
		tn, _ := g.info.Uses[e.Type].(*types.TypeName)
		if tn == nil {
			return "", nil, g.errorf(e.Type.Pos(), "cannot translate instanceof %s", e.Type.Name)
		}
		var parts []string
		for _, c := range refCollections(g.typeOf(e.X)) {
			if types.IsSubtype(c.Elem, tn.Named()) {
				parts = append(parts, g.inCol(paren(r), c))
			}
		}
		if len(parts) == 0 {
			return "false", cs, nil
		}
		return "(" + strings.Join(parts, " || ") + ")", cs, nil
	case *ast.BuiltinExpr:
		return g.builtin(e, en)
	case *ast.LocationTest:
		return g.locationTest(e, en)
	case *ast.RemoteRef:
		return g.remoteRef(e, en)
	}
	return "", nil, g.errorf(e.Pos(), "expression not supported by the Promela translation")
}

func (g *gen) varName(v *types.Var) string { return g.names[v] }

func (g *gen) binary(e *ast.BinaryExpr, en *env) (string, []check, error) {
	x, xc, err := g.expr(e.X, en)
	if err != nil {
		return "", nil, err
	}
	y, yc, err := g.expr(e.Y, en)
	if err != nil {
		return "", nil, err
	}
	px, py := paren(x), paren(y)
	switch e.Op {
	case token.LAND:
		return px + " && " + py, append(xc, under(x, yc)...), nil
	case token.SHL, token.SHR:
		return g.shift(e, en, false)
	case token.LOR:
		return px + " || " + py, append(xc, under("!"+px, yc)...), nil
	case token.ARROW:
		return "!" + px + " || " + py, append(xc, under(x, yc)...), nil
	}
	cs := append(xc, yc...)
	var op string
	switch e.Op {
	case token.EQL, token.IFF:
		op = "=="
	case token.NEQ:
		op = "!="
	case token.LSS:
		op = "<"
	case token.LEQ:
		op = "<="
	case token.GTR:
		op = ">"
	case token.GEQ:
		op = ">="
	case token.ADD:
		op = "+"
	case token.SUB:
		op = "-"
	case token.MUL:
		op = "*"
	case token.AND, token.OR, token.XOR:
		// exact: on values within 32 bits they commute with the sign
		// extension to 64 bits
		op = e.Op.String()
	case token.QUO, token.REM:
		op = "/"
		if e.Op == token.REM {
			op = "%"
		}
		cs = append(cs, check{py + " != 0", "division-by-zero"})
	default:
		return "", nil, g.errorf(e.OpPos, "operator %s is not supported by the Promela translation", e.Op)
	}
	// Promela's int has 32 bits (birch's 64): an operation whose result may
	// leave them is checked before it is evaluated, and reported as overflow.
	ylo, yhi, yok := g.bounds(e.Y)
	minus1 := !yok || (ylo <= -1 && -1 <= yhi) // the divisor may be -1
	if lo, hi, ok := g.bounds(e); !ok || !fits32(lo) || !fits32(hi) {
		if c := overflowCheck(e.Op, px, py); c != "" && (e.Op != token.QUO || minus1) {
			cs = append(cs, check{c, "overflow"})
		}
	}
	if e.Op == token.QUO || e.Op == token.REM {
		// The checks come first, but SPIN's simulator (spin -t, which
		// replays trails) goes on after a failed assertion inside an
		// atomic block: a division must not trap even then. And birch's
		// x % -1 is 0, where C's INT_MIN % -1 traps.
		var guards []string
		yc, isConst := constInt(py)
		if (!isConst || yc == 0) && (!yok || (ylo <= 0 && 0 <= yhi)) {
			guards = append(guards, py+" != 0")
		}
		if lo, _, ok := g.bounds(e.X); (!ok || lo <= -1<<31) && minus1 && (!isConst || yc == -1) {
			// x may be the smallest int (C's MIN / -1 and MIN % -1 trap)
			guards = append(guards, py+" != -1")
		}
		if len(guards) > 0 {
			return fmt.Sprintf("(%s -> %s %s %s : 0)", strings.Join(guards, " && "), px, op, py), cs, nil
		}
	}
	return px + " " + op + " " + py, cs, nil
}

// overflowCheck returns the condition that x op y stays within 32 bits,
// evaluated without overflowing itself, or "" when there is none to check.
func overflowCheck(op token.Kind, x, y string) string {
	xc, xk := constInt(x)
	yc, yk := constInt(y)
	switch op {
	case token.ADD:
		if xk && !yk {
			x, y, xc, yc, xk, yk = y, x, yc, xc, yk, xk
		}
		if yk {
			if yc >= 0 {
				return fmt.Sprintf("%s <= %s", x, lit32((1<<31-1)-yc))
			}
			return fmt.Sprintf("%s >= %s", x, lit32(-(1<<31)-yc))
		}
		return fmt.Sprintf("(%s >= 0 -> %s <= %s - %s : %s >= %s - %s)", y, x, max32, y, x, min32, y)
	case token.SUB:
		if yk {
			switch {
			case yc == 0:
				return ""
			case yc > 0:
				return fmt.Sprintf("%s >= %s", x, lit32(-(1<<31)+yc))
			}
			return fmt.Sprintf("%s <= %s", x, lit32((1<<31-1)+yc))
		}
		if xk {
			// c - y: y >= c - MAX and y <= c - MIN, within 64 bits
			lo, hi := xc-(1<<31-1), xc+(1<<31)
			return fmt.Sprintf("%s >= %s && %s <= %s", y, lit32(max(lo, -(1<<31))), y, lit32(min(hi, 1<<31-1)))
		}
		return fmt.Sprintf("(%s >= 0 -> %s >= %s + %s : %s <= %s + %s)", y, x, min32, y, x, max32, y)
	case token.MUL:
		if xk && !yk {
			x, y, xc, yc, xk, yk = y, x, yc, xc, yk, xk
		}
		if yk {
			switch {
			case yc == 0 || yc == 1:
				return ""
			case yc == -1:
				return x + " != " + min32
			case yc > 0:
				return fmt.Sprintf("%s >= %s && %s <= %s", x, lit32(-(1<<31)/yc), x, lit32((1<<31-1)/yc))
			default:
				return fmt.Sprintf("%s >= %s && %s <= %s", x, lit32((1<<31-1)/yc), x, lit32(-(1<<31)/yc))
			}
		}
		return fmt.Sprintf("%s == 0 || %s == 0 || (%s > 0 -> (%s > 0 -> %s <= %s / %s : %s >= %s / %s) : (%s > 0 -> %s >= %s / %s : %s >= %s / %s))",
			x, y, x, y, x, max32, y, y, min32, x, y, x, min32, y, x, max32, y)
	case token.QUO:
		if yk && yc != -1 {
			return ""
		}
		return fmt.Sprintf("%s != %s || %s != -1", x, min32, y)
	}
	return ""
}

// lit32 writes a 32-bit constant (the smallest one cannot be a literal).
func lit32(v int64) string {
	if v == -1<<31 {
		return min32
	}
	return strconv.FormatInt(v, 10)
}

// constInt reports whether s is an integer literal, and its value.
func constInt(s string) (int64, bool) {
	v, err := strconv.ParseInt(s, 10, 64)
	return v, err == nil
}

const (
	max32 = "2147483647"
	min32 = "(-2147483647 - 1)"
)

func fits32(v int64) bool { return v >= -1<<31 && v < 1<<31 }

// bounds returns an interval holding every value of the integer expression
// e, when the types of its operands bound it (ok false for int operands).
func (g *gen) bounds(e ast.Expr) (lo, hi int64, ok bool) {
	const big = 1 << 40
	if tv, found := g.info.Types[e]; found && tv.Value.Kind == types.IntConst {
		return tv.Value.Int, tv.Value.Int, true
	}
	clamp := func(lo, hi int64) (int64, int64, bool) {
		if lo < -big || hi > big {
			return 0, 0, false
		}
		return lo, hi, true
	}
	// a value of a type whose bounds leave 32 bits is a Promela int, read
	// like one of BIR's int
	clamp32 := func(lo, hi int64) (int64, int64, bool) {
		if !fits32(lo) || !fits32(hi) {
			return 0, 0, false
		}
		return lo, hi, true
	}
	switch e := e.(type) {
	case *ast.ParenExpr:
		return g.bounds(e.X)
	case *ast.UnaryExpr:
		if e.Op == token.NOT {
			return 0, 1, true
		}
		if e.Op == token.TILDE {
			return g.bitBounds(e)
		}
		l, h, ok := g.bounds(e.X)
		if !ok {
			return 0, 0, false
		}
		if e.Op == token.SUB {
			return -h, -l, true
		}
		return l, h, true
	case *ast.BinaryExpr:
		switch e.Op {
		case token.ADD, token.SUB, token.MUL, token.QUO, token.REM:
		case token.AND, token.OR, token.XOR, token.SHL, token.SHR:
			return g.bitBounds(e)
		default:
			return 0, 1, true // comparisons and logic
		}
		xl, xh, ok1 := g.bounds(e.X)
		yl, yh, ok2 := g.bounds(e.Y)
		if !ok1 || !ok2 {
			return 0, 0, false
		}
		switch e.Op {
		case token.ADD:
			return clamp(xl+yl, xh+yh)
		case token.SUB:
			return clamp(xl-yh, xh-yl)
		case token.MUL:
			ps := []int64{xl * yl, xl * yh, xh * yl, xh * yh}
			l, h := ps[0], ps[0]
			for _, p := range ps {
				l, h = min(l, p), max(h, p)
			}
			return clamp(l, h)
		case token.QUO:
			m := max(abs64(xl), abs64(xh))
			return -m, m, true
		case token.REM:
			m := max(abs64(yl), abs64(yh))
			return -m, m, true
		}
	}
	switch u := g.typeOf(e).Underlying().(type) {
	case *types.Range:
		return clamp32(u.Lo, u.Hi)
	case *types.Enum:
		var l, h int64
		for i, c := range u.Consts {
			if i == 0 || c.Ordinal < l {
				l = c.Ordinal
			}
			if i == 0 || c.Ordinal > h {
				h = c.Ordinal
			}
		}
		return clamp32(l, h)
	case *types.Basic:
		switch u.Kind {
		case types.Bool:
			return 0, 1, true
		case types.Tid:
			return 0, 64, true
		}
	case *types.Ref:
		return 0, int64(g.totalObjs), true
	}
	return 0, 0, false
}

func abs64(v int64) int64 {
	if v < 0 {
		return -v
	}
	return v
}

func (g *gen) builtin(e *ast.BuiltinExpr, en *env) (string, []check, error) {
	if e.Op == token.THREADTERMINATED {
		t, cs, err := g.expr(e.X, en)
		if err != nil {
			return "", nil, err
		}
		cs = append(cs, check{paren(t) + " != 0", "null-dereference"})
		term, term2 := "BIR_term", "BIR_term2"
		if en.hoist && en.term != "" {
			term, term2 = en.term, en.term2
		}
		if !g.wideSets {
			return fmt.Sprintf("((%s >> (%s - 1)) & 1) != 0", term, paren(t)), cs, nil
		}
		return "(" + g.inSet([]string{term, term2}, paren(t)) + ")", cs, nil
	}
	alts, cs, err := g.place(e.X, en)
	if err != nil {
		return "", nil, err
	}
	part := ".owner"
	if e.Op == token.WASNOTIFIED {
		part = ".notified"
	}
	owner, err := g.read(field(alts, part), en)
	if err != nil {
		return "", nil, err
	}
	notified := owner
	me, myBit := g.meExpr(), g.myBitExpr()
	if en.remote != nil {
		me = en.remote.tid
		myBit = fmt.Sprintf("(1 << (%s - 1))", me)
	}
	if e.Op == token.WASNOTIFIED && g.wideSets {
		notified2, err := g.read(field(alts, ".notified2"), en)
		if err != nil {
			return "", nil, err
		}
		return "(" + g.inSet([]string{notified, notified2}, me) + ")", cs, nil
	}
	switch e.Op {
	case token.LOCKAVAILABLE:
		return fmt.Sprintf("(%s == 0 || %s == %s)", owner, owner, me), cs, nil
	case token.HASLOCK:
		return fmt.Sprintf("%s == %s", owner, me), cs, nil
	case token.WASNOTIFIED:
		return fmt.Sprintf("(%s & %s) != 0", notified, myBit), cs, nil
	}
	return "", nil, g.errorf(e.OpPos, "%s is not supported by the Promela translation", e.Op)
}

// alt is one possible Promela place of a BIR place: the place is path when
// cond holds ("" for always). root, shape and dyn name the storage for the
// store of a hoisting env (see write): the variable or collection, the
// static part of the path after it (".f[]", ".owner"), and the dynamic
// parts (references and indices, as Promela text), which identify the
// place within root and shape whatever cond is.
type alt struct {
	cond, path string
	root       any
	shape      string
	dyn        []string
}

// write is a store into a place made earlier in the transformation, in
// terms of the state before it: a hoisted read of a place with the same
// root and shape reads val when the dynamic parts are equal. val is ""
// when the value is not known before the step (a choice made inside it).
type write struct {
	root  any
	shape string
	dyn   []string
	val   string
}

// field returns the places of a part (".owner", ".n", ".f") of each place.
func field(alts []alt, suffix string) []alt {
	out := make([]alt, len(alts))
	for i, a := range alts {
		out[i] = a
		out[i].path = a.path + suffix
		out[i].shape = a.shape + suffix
	}
	return out
}

// elem returns the places of element k of each array place, whose
// elements are of type et.
func (g *gen) elem(alts []alt, et types.Type, k int64) []alt {
	out := make([]alt, len(alts))
	for i, a := range alts {
		out[i] = a
		out[i].path = g.elemPath(a.path, et, k)
		out[i].shape = a.shape + "[]"
		out[i].dyn = append(append([]string(nil), a.dyn...), fmt.Sprint(k))
	}
	return out
}

// leaves returns the places of the scalar (or lock) elements of each
// array place of type t, through every level of nesting, in order.
func (g *gen) leaves(alts []alt, t types.Type) [][]alt {
	a, ok := t.Underlying().(*types.Array)
	if !ok {
		return [][]alt{alts}
	}
	var out [][]alt
	for k := int64(0); k < a.Len; k++ {
		out = append(out, g.leaves(g.elem(alts, a.Elem, k), a.Elem)...)
	}
	return out
}

// leafPaths is leaves for the Promela place path of an array of type t.
func (g *gen) leafPaths(path string, t types.Type) []string {
	var out []string
	for _, l := range g.leaves([]alt{{path: path}}, t) {
		out = append(out, l[0].path)
	}
	return out
}

// elemPath is the Promela place of element k (of type et) of the array
// at path: an element of a Promela array (the array inside the row's
// typedef when et is an array), or one of the scalars an array parameter
// of a started thread is made of (a row of one is a name of scalarArr).
func (g *gen) elemPath(path string, et types.Type, k int64) string {
	if es, ok := g.scalarArr[path]; ok {
		return es[k]
	}
	if name, ok := strings.CutPrefix(path, remoteMarker); ok {
		// an array parameter of a remote started thread (remoteToC)
		if es, ok := g.scalarArr[name]; ok {
			return remoteMarker + es[k]
		}
	}
	if isArray(et) {
		return fmt.Sprintf("%s[%d].e", path, k)
	}
	return fmt.Sprintf("%s[%d]", path, k)
}

// stripParens removes the parentheses around a whole expression.
func stripParens(s string) string {
	for len(s) >= 2 && s[0] == '(' && s[len(s)-1] == ')' && isSimple(s[1:len(s)-1]) {
		s = s[1 : len(s)-1]
	}
	return s
}

// sameDyn is the condition that two lists of dynamic parts are equal.
func sameDyn(a, b []string) string {
	c := "true"
	for i := range a {
		x, y := stripParens(a[i]), stripParens(b[i])
		if x == y {
			continue
		}
		xv, xk := constInt(x)
		yv, yk := constInt(y)
		if xk && yk {
			if xv != yv {
				return "false"
			}
			continue
		}
		c = and(c, paren(x)+" == "+paren(y))
	}
	return c
}

// read is the value of a place: with a hoisting env, the value in the
// state before the transformation with the env's writes applied in order.
func (g *gen) read(alts []alt, en *env) (string, error) {
	if !en.hoist || len(en.writes) == 0 {
		return readAlts(alts, ""), nil
	}
	out := make([]alt, len(alts))
	for i, a := range alts {
		v, unknown := a.path, false
		for _, w := range en.writes {
			if w.root != a.root || w.shape != a.shape || len(w.dyn) != len(a.dyn) {
				continue
			}
			switch eq := sameDyn(w.dyn, a.dyn); {
			case eq == "false":
			case eq == "true":
				v, unknown = paren(w.val), w.val == ""
			case w.val == "" || unknown:
				unknown = true
			default:
				v = fmt.Sprintf("(%s -> %s : %s)", eq, paren(w.val), v)
			}
		}
		if unknown {
			return "", errDirty
		}
		out[i] = a
		out[i].path = v
	}
	return readAlts(out, ""), nil
}

// readAlts reads a place with alternatives through a conditional
// expression; the last alternative needs no test (the null check and the
// reference's type guarantee that one holds).
func readAlts(alts []alt, suffix string) string {
	if len(alts) == 1 {
		return alts[0].path + suffix
	}
	s := alts[len(alts)-1].path + suffix
	for i := len(alts) - 2; i >= 0; i-- {
		s = fmt.Sprintf("(%s -> %s%s : %s)", alts[i].cond, alts[i].path, suffix, s)
	}
	return s
}

// forAlts runs stmt on each alternative place.
func forAlts(alts []alt, stmt func(path string) string) string {
	if len(alts) == 1 {
		return stmt(alts[0].path)
	}
	var b strings.Builder
	b.WriteString("if")
	for i, a := range alts {
		cond := a.cond
		if i == len(alts)-1 {
			cond = "else"
		}
		fmt.Fprintf(&b, " :: %s -> %s", cond, stmt(a.path))
	}
	b.WriteString(" fi")
	return b.String()
}

// derefAlts returns the places of the object reference r (of type t) may
// refer to.
func (g *gen) derefAlts(r string, t types.Type, en *env) ([]alt, error) {
	cols := refCollections(t)
	if len(cols) == 0 {
		return nil, fmt.Errorf("promela: a reference of type %s refers to no collection", t)
	}
	var alts []alt
	for _, c := range cols {
		if en.hoist && en.dirty[c] {
			return nil, errDirty
		}
		alts = append(alts, alt{cond: g.inCol(paren(r), c), path: g.object(paren(r), c), root: c, dyn: []string{r}})
	}
	return alts, nil
}

// place translates a variable, field or element.
func (g *gen) place(e ast.Expr, en *env) ([]alt, []check, error) {
	switch e := e.(type) {
	case *ast.ParenExpr:
		return g.place(e.X, en)
	case *ast.Ident:
		v, ok := g.info.Uses[e].(*types.Var)
		if !ok {
			return nil, nil, g.errorf(e.Pos(), "%s is not a variable", e.Name)
		}
		if en.remote != nil && v.Owner == en.remote.proc {
			n, err := g.remoteVar(v, en, e)
			return []alt{{path: n, root: v}}, nil, err
		}
		if en.hoist {
			if s, ok := en.subst[v]; ok {
				return []alt{{path: "(" + s + ")", root: v}}, nil, nil
			}
			if en.dirty[v] {
				return nil, nil, errDirty
			}
		}
		return []alt{{path: g.varName(v), root: v}}, nil, nil
	case *ast.SelectorExpr:
		r, cs, err := g.expr(e.X, en)
		if err != nil {
			return nil, nil, err
		}
		cs = append(cs, check{paren(r) + " != 0", "null-dereference"})
		alts, err := g.derefAlts(r, g.typeOf(e.X), en)
		if err != nil {
			return nil, nil, err
		}
		return field(alts, "."+ident(e.Sel.Name)), cs, nil
	case *ast.IndexExpr:
		xt := g.typeOf(e.X)
		if a, ok := xt.Underlying().(*types.Array); ok {
			alts, cs, err := g.place(e.X, en)
			if err != nil {
				return nil, nil, err
			}
			i, ic, err := g.expr(e.Index, en)
			if err != nil {
				return nil, nil, err
			}
			cs = append(cs, ic...)
			if c := g.info.Types[e.Index].Value; c.Kind != types.IntConst || c.Int < 0 || c.Int >= a.Len {
				cs = append(cs, check{fmt.Sprintf("%s >= 0 && %s < %d", paren(i), paren(i), a.Len), "index-out-of-bounds"})
			}
			if g.allScalarArr(alts) {
				// an array parameter of a started thread (or a row of
				// one): one scalar per element, chosen by the index
				ks := make([]int64, a.Len)
				for k := range ks {
					ks[k] = int64(k)
				}
				constant := false
				if c := g.info.Types[e.Index].Value; c.Kind == types.IntConst && c.Int >= 0 && c.Int < a.Len {
					ks = ks[c.Int : c.Int+1]
					constant = true
				}
				var out []alt
				for _, x := range alts {
					for _, k := range ks {
						y := x
						switch {
						case x.cond == "":
							y.cond = fmt.Sprintf("%s == %d", paren(i), k)
						case !constant:
							y.cond = and(x.cond, fmt.Sprintf("%s == %d", paren(i), k))
						}
						y.path = g.elemPath(x.path, a.Elem, k)
						y.shape += "[]"
						y.dyn = append(append([]string(nil), x.dyn...), i)
						out = append(out, y)
					}
				}
				return out, cs, nil
			}
			row := ""
			if isArray(a.Elem) {
				row = ".e"
			}
			for k := range alts {
				alts[k].path += "[" + i + "]" + row
				alts[k].shape += "[]"
				alts[k].dyn = append(append([]string(nil), alts[k].dyn...), i)
			}
			return alts, cs, nil
		}
		r, cs, err := g.expr(e.X, en)
		if err != nil {
			return nil, nil, err
		}
		cs = append(cs, check{paren(r) + " != 0", "null-dereference"})
		alts, err := g.derefAlts(r, xt, en)
		if err != nil {
			return nil, nil, err
		}
		i, ic, err := g.expr(e.Index, en)
		if err != nil {
			return nil, nil, err
		}
		cs = append(cs, ic...)
		n, err := g.read(field(alts, ".n"), en)
		if err != nil {
			return nil, nil, err
		}
		cs = append(cs, check{fmt.Sprintf("%s >= 0 && %s < %s", paren(i), paren(i), n), "index-out-of-bounds"})
		row := ""
		if isArray(g.typeOf(e)) {
			row = ".e"
		}
		for k := range alts {
			alts[k].path += ".e[" + i + "]" + row
			alts[k].shape += ".e[]"
			alts[k].dyn = append(append([]string(nil), alts[k].dyn...), i)
		}
		return alts, cs, nil
	}
	return nil, nil, g.errorf(e.Pos(), "not a variable, field or element")
}

// allScalarArr reports whether every place is an array parameter of a
// started thread, or a row of one, held in scalars (scalarArr).
func (g *gen) allScalarArr(alts []alt) bool {
	for _, a := range alts {
		if g.scalarArr[strings.TrimPrefix(a.path, remoteMarker)] == nil {
			return false
		}
	}
	return len(alts) > 0
}

// roots returns the storage a place expression writes: its variable, or the
// collections of the object it is in.
func (g *gen) roots(e ast.Expr) []any {
	switch e := e.(type) {
	case *ast.ParenExpr:
		return g.roots(e.X)
	case *ast.Ident:
		if v, ok := g.info.Uses[e].(*types.Var); ok {
			return []any{v}
		}
	case *ast.SelectorExpr:
		var out []any
		for _, c := range refCollections(g.typeOf(e.X)) {
			out = append(out, c)
		}
		return out
	case *ast.IndexExpr:
		if _, ok := g.typeOf(e.X).Underlying().(*types.Array); ok {
			return g.roots(e.X)
		}
		var out []any
		for _, c := range refCollections(g.typeOf(e.X)) {
			out = append(out, c)
		}
		return out
	}
	return nil
}
