package absgen

import (
	"strings"

	"birch/internal/abstraction/data"
	"birch/internal/bir/ast"
	"birch/internal/bir/format"
	"birch/internal/bir/token"
	"birch/internal/bir/types"
)

// form is a boolean formula of the generated model, simplified as it is
// built: constants, atoms (BIR text), conjunctions, disjunctions and
// negations.
type form struct {
	op   byte // 'T', 'F', 'a' atom, '&', '|', '!'
	atom string
	prec int // an atom's precedence: 0 any, 2 a comparison, 3 a primary
	kids []*form
}

var (
	fTrue  = &form{op: 'T'}
	fFalse = &form{op: 'F'}
)

func atom(text string, simple bool) *form {
	if simple {
		return &form{op: 'a', atom: text, prec: 3}
	}
	return &form{op: 'a', atom: text, prec: 2}
}

func opaque(text string) *form { return &form{op: 'a', atom: text} }

func fconst(b bool) *form {
	if b {
		return fTrue
	}
	return fFalse
}

func and(fs ...*form) *form { return junction('&', fTrue, fFalse, fs) }

func or(fs ...*form) *form { return junction('|', fFalse, fTrue, fs) }

// junction builds the conjunction (op '&') or disjunction (op '|') of fs,
// flattened and without repeated operands: unit is the operand that
// changes nothing (true for '&'), zero the one that decides it.
func junction(op byte, unit, zero *form, fs []*form) *form {
	var kids []*form
	for _, f := range fs {
		switch f.op {
		case zero.op:
			return zero
		case unit.op:
			continue
		case op:
			kids = append(kids, f.kids...)
		default:
			kids = append(kids, f)
		}
	}
	kids = dedupe(kids)
	switch len(kids) {
	case 0:
		return unit
	case 1:
		return kids[0]
	}
	return &form{op: op, kids: kids}
}

// dedupe drops repeated operands (x == A && x == A).
func dedupe(kids []*form) []*form {
	if len(kids) < 2 {
		return kids
	}
	seen := map[string]bool{}
	out := kids[:0:0]
	for _, k := range kids {
		if s := k.String(); !seen[s] {
			seen[s] = true
			out = append(out, k)
		}
	}
	return out
}

func not(f *form) *form {
	switch f.op {
	case 'T':
		return fFalse
	case 'F':
		return fTrue
	case '!':
		return f.kids[0]
	}
	return &form{op: '!', kids: []*form{f}}
}

// String prints the formula as a BIR expression.
func (f *form) String() string {
	var b strings.Builder
	f.print(&b, 0)
	return b.String()
}

// print writes f; ctx is the precedence of the context: 0 top, 1 ||, 2 &&, 3 !.
func (f *form) print(b *strings.Builder, ctx int) {
	switch f.op {
	case 'T':
		b.WriteString("true")
	case 'F':
		b.WriteString("false")
	case 'a':
		if ctx > f.prec {
			b.WriteString("(" + f.atom + ")")
		} else {
			b.WriteString(f.atom)
		}
	case '!':
		b.WriteString("!")
		f.kids[0].print(b, 3)
	case '&', '|':
		prec, sep := 2, " && "
		if f.op == '|' {
			prec, sep = 1, " || "
		}
		if ctx > prec {
			b.WriteString("(")
		}
		for i, k := range f.kids {
			if i > 0 {
				b.WriteString(sep)
			}
			k.print(b, prec)
		}
		if ctx > prec {
			b.WriteString(")")
		}
	}
}

// atomOf makes an atom of a concrete boolean expression.
func atomOf(x ast.Expr) *form {
	text := format.Expr(x)
	switch y := ast.Unparen(x).(type) {
	case *ast.BinaryExpr:
		if isTest(y.Op) {
			return atom(text, false)
		}
		return opaque(text)
	case *ast.UnaryExpr:
		return opaque(text)
	}
	return atom(text, true)
}

func isTest(k token.Kind) bool {
	switch k {
	case token.EQL, token.NEQ, token.LSS, token.LEQ, token.GTR, token.GEQ:
		return true
	}
	return false
}

func isArith(k token.Kind) bool {
	switch k {
	case token.ADD, token.SUB, token.MUL, token.QUO, token.REM:
		return true
	}
	return false
}

func opOf(k token.Kind) data.Op {
	switch k {
	case token.ADD:
		return data.Add
	case token.SUB:
		return data.Sub
	case token.MUL:
		return data.Mul
	case token.QUO:
		return data.Div
	}
	return data.Rem
}

func testOf(k token.Kind) data.Test {
	switch k {
	case token.EQL:
		return data.Eq
	case token.NEQ:
		return data.Ne
	case token.LSS:
		return data.Lt
	case token.LEQ:
		return data.Le
	case token.GTR:
		return data.Gt
	}
	return data.Ge
}

// mayHas is the formula "integer expression x, used in context
// abstraction a, may have token t" in the current state.
func (g *gen) mayHas(x ast.Expr, a *data.Abstraction, t int) *form {
	if c, ok := g.constInt(x); ok {
		return fconst(a.Abstract64(c) == t)
	}
	own := g.absOf(x)
	if own == nil {
		return g.condForm(a, t, x)
	}
	if leaf, b, text, ok := g.linearExpr(x); ok {
		var alts []*form
		for k := range b.Tokens {
			if g.image(b, text, k, a).Has(t) {
				alts = append(alts, atom(g.leafText(leaf)+" == "+g.tok(b, k), false))
			}
		}
		return or(alts...)
	}
	var alts []*form
	for s := range own.Tokens {
		if g.coerceSet(own, a, s).Has(t) {
			alts = append(alts, g.hasOwn(x, own, s))
		}
	}
	return or(alts...)
}

// hasOwn is "x, of abstraction own, may have token s".
func (g *gen) hasOwn(x ast.Expr, own *data.Abstraction, s int) *form {
	switch y := x.(type) {
	case *ast.ParenExpr:
		return g.hasOwn(y.X, own, s)
	case *ast.ConvExpr:
		return g.mayHas(y.X, own, s) // the mathematical value (Output.Wraps)
	case *ast.UnaryExpr:
		if y.Op == token.ADD {
			return g.mayHas(y.X, own, s)
		}
		if y.Op == token.SUB {
			z := own.Abstract64(0)
			var alts []*form
			for b := range own.Tokens {
				if own.Apply(data.Sub, z, b).Tokens.Has(s) {
					alts = append(alts, g.mayHas(y.X, own, b))
				}
			}
			return or(alts...)
		}
	case *ast.BinaryExpr:
		if isArith(y.Op) {
			op := opOf(y.Op)
			var alts []*form
			for a := range own.Tokens {
				var bs []*form
				for b := range own.Tokens {
					if own.Apply(op, a, b).Tokens.Has(s) {
						bs = append(bs, g.mayHas(y.Y, own, b))
					}
				}
				if len(bs) > 0 {
					alts = append(alts, and(g.mayHas(y.X, own, a), or(bs...)))
				}
			}
			return or(alts...)
		}
	}
	return atom(g.leafText(x)+" == "+g.tok(own, s), false)
}

// leafText prints an abstract variable, field, element or remote reference.
func (g *gen) leafText(x ast.Expr) string {
	if r, ok := x.(*ast.RemoteRef); ok {
		return "(" + format.Expr(r) + ")"
	}
	return format.Expr(x)
}

// condForm is "the concrete integer expression x is abstracted by token t
// of a": the conditions of t's rules with x for the parameter.
func (g *gen) condForm(a *data.Abstraction, t int, x ast.Expr) *form {
	if a.Identity {
		return fTrue
	}
	if len(a.Tokens) == 1 {
		return fTrue
	}
	text := format.Expr(x)
	switch ast.Unparen(x).(type) {
	case *ast.Ident, *ast.BasicLit, *ast.SelectorExpr, *ast.IndexExpr, *ast.LengthExpr:
	default:
		text = "(" + text + ")"
	}
	var alts []*form
	for i, r := range a.Rules {
		if r.Token != t {
			continue
		}
		c := g.ruleCond(a, i)
		if c == nil {
			return fTrue // cannot happen for compiled abstractions; sound
		}
		if b, ok := ast.Unparen(c).(*ast.BinaryExpr); ok && isTest(b.Op) {
			alts = append(alts, atom(substitute(b.X, a.Param, text)+" "+b.Op.String()+" "+substitute(b.Y, a.Param, text), false))
		} else {
			alts = append(alts, opaque(substitute(c, a.Param, text)))
		}
	}
	return or(alts...)
}

// boolForms returns may(x) and must(x) for a boolean expression of a guard,
// predicate or property: may(x) holds in an abstract state when x holds in
// some concrete state it stands for, must(x) when x holds in all of them.
func (g *gen) boolForms(x ast.Expr) (may, must *form) {
	if !g.hasAbstract(x) {
		if c, ok := g.info.Types[x]; ok && c.Value.Kind == types.BoolConst {
			return fconst(c.Value.Bool), fconst(c.Value.Bool)
		}
		f := atomOf(x)
		return f, f
	}
	switch y := x.(type) {
	case *ast.ParenExpr:
		return g.boolForms(y.X)
	case *ast.Ident:
		if p, ok := g.info.Uses[y].(*types.Predicate); ok {
			return atom(g.mayPred[p], true), atom(y.Name, true)
		}
	case *ast.UnaryExpr:
		if y.Op == token.NOT {
			m, M := g.boolForms(y.X)
			return not(M), not(m)
		}
	case *ast.BinaryExpr:
		switch y.Op {
		case token.LAND:
			m1, M1 := g.boolForms(y.X)
			m2, M2 := g.boolForms(y.Y)
			return and(m1, m2), and(M1, M2)
		case token.LOR:
			m1, M1 := g.boolForms(y.X)
			m2, M2 := g.boolForms(y.Y)
			return or(m1, m2), or(M1, M2)
		case token.ARROW:
			m1, M1 := g.boolForms(y.X)
			m2, M2 := g.boolForms(y.Y)
			return or(not(M1), m2), or(not(m1), M2)
		}
		if a := g.testAbs(y); a != nil {
			if leaf, b, cond, ok := g.exactTest(y); ok {
				var mayT, mayF []*form
				precise := true
				for k := range b.Tokens {
					o := g.decide(b, cond, k)
					precise = precise && o != data.Both
					at := atom(g.leafText(leaf)+" == "+g.tok(b, k), false)
					if o.Has(true) {
						mayT = append(mayT, at)
					}
					if o.Has(false) {
						mayF = append(mayF, at)
					}
				}
				if precise {
					f := or(mayT...)
					return f, f
				}
				if len(mayF) == len(b.Tokens) {
					return or(mayT...), fFalse // false is possible whatever the token
				}
				return or(mayT...), not(or(mayF...))
			}
			op := testOf(y.Op)
			var mayT, mayF []*form
			precise := true
			falses := 0
			for l := range a.Tokens {
				var ts, fs []*form
				for r := range a.Tokens {
					o := a.Compare(op, l, r)
					precise = precise && o != data.Both
					if o.Has(false) {
						falses++
					}
					if o.Has(true) {
						ts = append(ts, g.mayHas(y.Y, a, r))
					}
					if o.Has(false) {
						fs = append(fs, g.mayHas(y.Y, a, r))
					}
				}
				lf := g.mayHas(y.X, a, l)
				if len(ts) > 0 {
					mayT = append(mayT, and(lf, or(ts...)))
				}
				if len(fs) > 0 {
					mayF = append(mayF, and(lf, or(fs...)))
				}
			}
			if precise && g.exactOperand(y.X, a) && g.exactOperand(y.Y, a) {
				f := or(mayT...)
				return f, f
			}
			if falses == len(a.Tokens)*len(a.Tokens) {
				return or(mayT...), fFalse
			}
			return or(mayT...), not(or(mayF...))
		}
	case *ast.RemoteRef:
		if y.X != nil {
			return g.boolForms(y.X) // a boolean remote reference: the thread is named in its leaves
		}
	}
	// A construct whose abstract parts are not separable (booleans compared
	// with == or <->): nothing is known.
	return fTrue, fFalse
}

// hasAbstract reports whether x contains an abstract test or a predicate
// that does.
func (g *gen) hasAbstract(x ast.Expr) bool {
	found := false
	ast.Inspect(x, func(n ast.Node) bool {
		if found {
			return false
		}
		switch n := n.(type) {
		case *ast.BinaryExpr:
			if g.testAbs(n) != nil {
				found = true
			}
		case *ast.Ident:
			if p, ok := g.info.Uses[n].(*types.Predicate); ok && g.mayPred[p] != "" {
				found = true
			}
		}
		return !found
	})
	return found
}

// testAbs returns the abstraction a comparison is decided in, or nil when
// it is concrete.
func (g *gen) testAbs(x *ast.BinaryExpr) *data.Abstraction {
	if !isTest(x.Op) {
		return nil
	}
	a := g.res.Tests[x]
	if a == nil || a.Identity {
		return nil
	}
	return a
}

// ltl translates a property's formula with the polarity of its position:
// state subformulas become must-formulas in positive positions and
// negated may-formulas' duals in negative ones, so that every abstract
// proposition under-approximates its concrete one.
func (g *gen) ltl(x ast.Expr, pos bool) string {
	if !g.hasAbstract(x) {
		return format.Expr(x)
	}
	if !hasTemporal(x) {
		may, must := g.boolForms(x)
		if pos {
			return "(" + must.String() + ")"
		}
		return "(" + may.String() + ")"
	}
	switch y := x.(type) {
	case *ast.ParenExpr:
		return "(" + g.ltl(y.X, pos) + ")"
	case *ast.UnaryExpr:
		if y.Op == token.NOT {
			return "!(" + g.ltl(y.X, !pos) + ")"
		}
		return y.Op.String() + " (" + g.ltl(y.X, pos) + ")"
	case *ast.BinaryExpr:
		switch y.Op {
		case token.ARROW:
			return "(" + g.ltl(y.X, !pos) + ") -> (" + g.ltl(y.Y, pos) + ")"
		case token.IFF:
			return "((" + g.ltl(y.X, !pos) + ") -> (" + g.ltl(y.Y, pos) + ")) && ((" + g.ltl(y.Y, !pos) + ") -> (" + g.ltl(y.X, pos) + "))"
		}
		return "(" + g.ltl(y.X, pos) + ") " + y.Op.String() + " (" + g.ltl(y.Y, pos) + ")"
	}
	return format.Expr(x)
}

func hasTemporal(x ast.Expr) bool {
	found := false
	ast.Inspect(x, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.UnaryExpr:
			if n.Op == token.ALWAYS || n.Op == token.EVENTUAL || n.Op == token.NEXT {
				found = true
			}
		case *ast.BinaryExpr:
			if n.Op == token.UNTIL || n.Op == token.RELEASE || n.Op == token.WEAKUNTIL || n.Op == token.IFF {
				found = true
			}
		}
		return !found
	})
	return found
}

// substitute prints a BASL condition with the parameter replaced by repl.
func substitute(x ast.Expr, param, repl string) string {
	switch y := x.(type) {
	case *ast.Ident:
		if y.Name == param {
			return repl
		}
		return y.Name
	case *ast.BasicLit:
		return y.Value
	case *ast.ParenExpr:
		return "(" + substitute(y.X, param, repl) + ")"
	case *ast.UnaryExpr:
		return y.Op.String() + "(" + substitute(y.X, param, repl) + ")"
	case *ast.BinaryExpr:
		return "(" + substitute(y.X, param, repl) + " " + y.Op.String() + " " + substitute(y.Y, param, repl) + ")"
	}
	return format.Expr(x)
}

// exactOperand reports whether exactly one token of a holds of x in every
// state: x is a constant, a concrete value, or an abstract variable, field
// or element of abstraction a itself (coercions and operations may be
// imprecise).
func (g *gen) exactOperand(x ast.Expr, a *data.Abstraction) bool {
	if _, ok := g.constInt(x); ok {
		return true
	}
	own := g.absOf(x)
	if own == nil {
		return true
	}
	if own != a {
		return false
	}
	switch y := ast.Unparen(x).(type) {
	case *ast.Ident, *ast.SelectorExpr, *ast.IndexExpr:
		return true
	case *ast.RemoteRef:
		return y.Instance == nil
	}
	return false
}
