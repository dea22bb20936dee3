package format

import (
	"birch/internal/bir/ast"
	"birch/internal/bir/token"
	"birch/internal/source"
)

// This file lays out each kind of node: which tokens, in which order, with
// which spaces and line breaks. The printer (printer.go) places comments.

const badText = "/* bad */"

func (p *printer) bad(pos source.Pos) { p.tok(pos, badText) }

func (p *printer) ident(x *ast.Ident) {
	if x == nil {
		p.bad(source.NoPos)
		return
	}
	p.tok(x.NamePos, x.Name)
}

// identList prints a, b, c.
func (p *printer) identList(xs []*ast.Ident) {
	for i, x := range xs {
		if i > 0 {
			p.tok(source.NoPos, ",")
			p.sp()
		}
		p.ident(x)
	}
}

// ---------------------------------------------------------------------------
// System

func (p *printer) file(f *ast.File) {
	if f.System != nil {
		p.system(f.System)
	}
	p.flushAll()
	if p.buf.Len() > 0 {
		p.buf.WriteByte('\n')
	}
}

func isBlock(d ast.Decl) bool {
	switch d.(type) {
	case *ast.ThreadDecl, *ast.FunctionDecl:
		return true
	}
	return false
}

func (p *printer) system(s *ast.System) {
	p.indent = 0
	kw := "system"
	if s.Process {
		kw = "process"
	}
	p.tok(s.Keyword, kw)
	p.sp()
	p.ident(s.Name)
	p.sp()
	p.tok(s.Lparen, "(")
	p.tok(s.Rparen, ")")

	prevBlock := false
	for _, d := range s.Decls {
		block := isBlock(d)
		if block || prevBlock {
			p.newline(forceBlank)
		} else {
			p.newline(keepBlank)
		}
		p.decl(d)
		prevBlock = block
	}

	if ps := s.Predicates; ps != nil {
		p.newline(forceBlank)
		p.tok(ps.KwPos, "predicates")
		p.indent = 2
		for i, d := range ps.Predicates {
			p.newline(firstPolicy(i))
			p.predicate(d)
		}
		p.indent = 0
	}
	if ps := s.Properties; ps != nil {
		p.newline(forceBlank)
		p.tok(ps.KwPos, "properties")
		p.indent = 2
		for i, d := range ps.Properties {
			p.newline(firstPolicy(i))
			p.property(d)
		}
		p.indent = 0
	}

	p.newline(forceBlank)
	p.tok(s.EndPos, "end")
	p.sp()
	p.ident(s.EndName)
	p.tok(s.Semi, ";")
	p.newline(keepBlank)
}

// firstPolicy is the blank-line policy of the i'th item after an opening line.
func firstPolicy(i int) blankPolicy {
	if i == 0 {
		return openBlank
	}
	return keepBlank
}

// ---------------------------------------------------------------------------
// Declarations

func (p *printer) decl(d ast.Decl) {
	switch d := d.(type) {
	case *ast.ConstDecl:
		if d == nil {
			break
		}
		p.tok(d.ConstPos, "const")
		p.sp()
		p.ident(d.Name)
		p.sp()
		if d.Assign.IsValid() {
			p.tok(d.Assign, "=")
			p.sp()
		}
		p.expr(d.Value)
		p.tok(d.Semi, ";")
		return
	case *ast.TypeDecl:
		if d == nil {
			break
		}
		p.item(d, func(q *printer) { q.typeDecl(d) })
		return
	case *ast.ExtendsDecl:
		if d == nil {
			break
		}
		p.ident(d.Sub)
		p.sp()
		p.tok(d.ExtendsPos, "extends")
		p.sp()
		p.ident(d.Super)
		p.tok(d.Semi, ";")
		return
	case *ast.CollectionDecl:
		if d == nil {
			break
		}
		p.ident(d.Name)
		p.sp()
		p.tok(d.Colon, ":")
		p.sp()
		p.tok(d.CollectionPos, "collection")
		p.sp()
		if d.Size != nil {
			p.tok(source.NoPos, "[")
			p.expr(d.Size)
			p.tok(source.NoPos, "]")
			p.sp()
		}
		p.tok(d.OfPos, "of")
		p.sp()
		p.ident(d.Elem)
		p.tok(d.Semi, ";")
		return
	case *ast.VarDecl:
		if d == nil {
			break
		}
		p.item(d, func(q *printer) { q.varDecl(d) })
		return
	case *ast.ThreadDecl:
		if d == nil {
			break
		}
		p.thread(d)
		return
	case *ast.FunctionDecl:
		if d == nil {
			break
		}
		p.function(d)
		return
	case *ast.BadDecl:
		if d == nil {
			break
		}
		p.bad(d.From)
		return
	}
	p.bad(source.NoPos)
}

// item prints a declaration that may contain records or enums, choosing their
// one-line or one-element-per-line form for the whole item.
func (p *printer) item(n ast.Node, print func(q *printer)) {
	saved := p.multi
	p.multi = p.needMulti(n, print)
	print(p)
	p.multi = saved
}

// needMulti reports whether the records and enums in n are printed one
// element per line: when n contains one and a comment, or when its one-line
// form does not fit.
func (p *printer) needMulti(n ast.Node, print func(q *printer)) bool {
	if !hasComposite(n) {
		return false
	}
	extra, ok := p.oneLineComments(span(n))
	return !ok || p.indent+measure(print)+extra > maxWidth
}

func hasComposite(n ast.Node) (found bool) {
	defer func() {
		if recover() != nil {
			found = false
		}
	}()
	if h, ok := n.(headerNode); ok {
		for _, v := range h.b.Params {
			if v != nil && hasComposite(v) {
				return true
			}
		}
		if f, ok := h.d.(*ast.FunctionDecl); ok && f.Result != nil {
			return hasComposite(f.Result)
		}
		return false
	}
	ast.Inspect(n, func(n ast.Node) bool {
		switch n.(type) {
		case *ast.RecordType, *ast.EnumType:
			found = true
		}
		return !found
	})
	return found
}

func (p *printer) typeDecl(d *ast.TypeDecl) {
	p.ident(d.Name)
	p.sp()
	p.tok(d.Assign, "=")
	p.sp()
	p.typ(d.Type)
	p.tok(d.Semi, ";")
}

// varDecl prints `a, b : T := v;` (globals, locals and record fields).
func (p *printer) varDecl(d *ast.VarDecl) {
	p.varSpec(d)
	p.tok(d.Semi, ";")
}

// varSpec prints `a, b : T := v` without the terminator.
func (p *printer) varSpec(d *ast.VarDecl) {
	if len(d.Names) == 0 {
		p.bad(source.NoPos)
	}
	p.identList(d.Names)
	p.sp()
	p.tok(d.Colon, ":")
	p.sp()
	p.typ(d.Type)
	if d.Init != nil {
		p.sp()
		p.tok(d.Assign, ":=")
		p.sp()
		p.expr(d.Init)
	}
}

// ---------------------------------------------------------------------------
// Threads and functions

func (p *printer) thread(d *ast.ThreadDecl) {
	p.header(d, d.Body, func(q *printer) {
		if d.Main {
			q.tok(d.MainPos, "main")
			q.sp()
		}
		q.tok(d.ThreadPos, "thread")
		q.sp()
		q.ident(d.Name)
		q.sp()
	}, nil)
}

func (p *printer) function(d *ast.FunctionDecl) {
	p.header(d, d.Body, func(q *printer) {
		q.tok(d.FunctionPos, "function")
		q.sp()
		q.ident(d.Name)
		q.sp()
	}, func(q *printer) {
		if d.Result != nil {
			q.sp()
			q.tok(d.Colon, ":")
			q.sp()
			q.typ(d.Result)
		}
	})
}

// header prints a thread or function: lead prints what comes before the
// parameters, result what follows them on the header line; then the body.
func (p *printer) header(d ast.Decl, b *ast.Body, lead, result func(q *printer)) {
	if b == nil {
		lead(p)
		p.tok(source.NoPos, "(")
		p.tok(source.NoPos, ")")
		p.bad(source.NoPos)
		return
	}
	print := func(q *printer) {
		lead(q)
		q.tok(b.Lparen, "(")
		for i, v := range b.Params {
			if v == nil {
				q.bad(source.NoPos)
				continue
			}
			q.varSpec(v)
			if i < len(b.Params)-1 {
				q.tok(v.Semi, ",")
				q.sp()
			}
		}
		q.tok(b.Rparen, ")")
		if result != nil {
			result(q)
		}
	}
	// Records and enums in parameter or result types (which the type
	// checker rejects) follow the rule of items.
	p.item(headerNode{d, b}, print)
	p.body(b)
}

// headerNode is the extent of a thread or function header, from its first
// token to the end of its parameters and result type.
type headerNode struct {
	d ast.Decl
	b *ast.Body
}

func (h headerNode) Pos() source.Pos { from, _ := span(h.d); return from }
func (h headerNode) End() source.Pos {
	end := h.b.Rparen + 1
	if f, ok := h.d.(*ast.FunctionDecl); ok && f.Result != nil {
		if _, to := span(f.Result); to > end {
			end = to
		}
	}
	return end
}

// body prints the locals, the locations and `end Name;` of a thread or
// function.
func (p *printer) body(b *ast.Body) {
	p.indent = 2
	i := 0
	for _, v := range b.Locals {
		p.newline(firstPolicy(i))
		i++
		if v == nil {
			p.bad(source.NoPos)
			continue
		}
		p.item(v, func(q *printer) { q.varDecl(v) })
	}
	for _, l := range b.Locations {
		p.newline(firstPolicy(i))
		i++
		p.location(l)
	}
	p.indent = 2
	p.newline(closeBlank)
	p.flush(b.EndPos)
	p.indent = 0
	p.tok(b.EndPos, "end")
	p.sp()
	p.ident(b.EndName)
	p.tok(b.Semi, ";")
}

func (p *printer) location(l *ast.Location) {
	p.indent = 2
	if l == nil {
		p.bad(source.NoPos)
		return
	}
	p.tok(l.LocPos, "loc")
	p.sp()
	p.ident(l.Name)
	p.tok(l.Colon, ":")
	if ls := l.Live; ls != nil {
		p.sp()
		p.tok(ls.LivePos, "live")
		p.sp()
		p.tok(ls.Lbrace, "{")
		p.sp()
		if len(ls.Names) > 0 {
			p.identList(ls.Names)
			p.sp()
		}
		p.tok(ls.Rbrace, "}")
	}
	p.indent = 4
	for i, t := range l.Transformations {
		p.newline(firstPolicy(i))
		p.transformation(t)
	}
	p.indent = 2
}

// transformation prints `when G do { a; } goto L;` on one line when it
// fits (or has no actions) and no comment rules that out (see
// oneLineComments); else one action per line.
func (p *printer) transformation(t *ast.Transformation) {
	if t == nil {
		p.bad(source.NoPos)
		return
	}
	extra, ok := p.oneLineComments(span(t))
	oneLine := ok && (len(t.Actions) == 0 ||
		p.indent+measure(func(q *printer) { q.transformationForm(t, true) })+extra <= maxWidth)
	if !oneLine && len(t.Actions) == 0 && !p.hasComments(t.Lbrace, t.Rbrace) {
		// Nothing to put on lines of their own: keep `{ }`.
		oneLine = true
	}
	p.transformationForm(t, oneLine)
}

func (p *printer) transformationForm(t *ast.Transformation, oneLine bool) {
	p.tok(t.WhenPos, "when")
	p.sp()
	p.expr(t.Guard)
	p.sp()
	p.tok(t.DoPos, "do")
	p.sp()
	if t.Invisible {
		p.tok(t.InvisiblePos, "invisible")
		p.sp()
	}
	p.tok(t.Lbrace, "{")
	if oneLine {
		for _, a := range t.Actions {
			p.sp()
			p.action(a)
		}
		p.sp()
		p.tok(t.Rbrace, "}")
	} else {
		outer := p.indent
		p.indent = outer + 2
		for i, a := range t.Actions {
			p.newline(firstPolicy(i))
			p.action(a)
		}
		p.newline(closeBlank)
		p.flush(t.Rbrace)
		p.indent = outer
		p.tok(t.Rbrace, "}")
	}
	p.sp()
	if t.Return {
		p.tok(t.GotoPos, "return")
		if t.Result != nil {
			p.sp()
			p.expr(t.Result)
		}
	} else {
		p.tok(t.GotoPos, "goto")
		p.sp()
		p.ident(t.Target)
	}
	p.tok(t.Semi, ";")
}

// ---------------------------------------------------------------------------
// Predicates and properties

func (p *printer) predicate(d *ast.PredicateDecl) {
	if d == nil {
		p.bad(source.NoPos)
		return
	}
	p.ident(d.Name)
	p.sp()
	p.tok(d.Assign, "=")
	p.sp()
	p.expr(d.Expr)
	p.tok(d.Semi, ";")
}

func (p *printer) property(d *ast.PropertyDecl) {
	if d == nil {
		p.bad(source.NoPos)
		return
	}
	p.tok(d.KwPos, d.Kind.String())
	p.sp()
	p.ident(d.Name)
	p.tok(d.Colon, ":")
	p.sp()
	p.expr(d.Expr)
	p.tok(d.Semi, ";")
}

// ---------------------------------------------------------------------------
// Types

func (p *printer) typ(t ast.TypeExpr) {
	switch t := t.(type) {
	case *ast.Ident:
		p.ident(t)
		return
	case *ast.BasicType:
		if t == nil {
			break
		}
		p.tok(t.KindPos, t.Kind.String())
		return
	case *ast.RangeType:
		if t == nil {
			break
		}
		p.tok(t.RangePos, "range")
		p.sp()
		p.expr(t.Lo)
		p.tok(t.Ellipsis, "..")
		p.expr(t.Hi)
		return
	case *ast.EnumType:
		if t == nil {
			break
		}
		p.enum(t)
		return
	case *ast.RecordType:
		if t == nil {
			break
		}
		p.record(t)
		return
	case *ast.ArrayType:
		if t == nil {
			break
		}
		p.tok(t.ArrayPos, "array")
		p.sp()
		p.tok(t.Lbrack, "[")
		p.expr(t.Len)
		p.tok(t.Rbrack, "]")
		p.sp()
		p.tok(t.OfPos, "of")
		p.sp()
		p.typ(t.Elem)
		return
	case *ast.LockType:
		if t == nil {
			break
		}
		p.tok(t.LockPos, "lock")
		if t.Wait {
			p.sp()
			p.tok(t.WaitPos, "wait")
		}
		if t.Reentrant {
			p.sp()
			p.tok(t.ReentrantPos, "reentrant")
		}
		return
	case *ast.RefType:
		if t == nil {
			break
		}
		p.tok(t.RefPos, "ref")
		p.sp()
		p.ident(t.Target)
		if t.Lbrace.IsValid() || len(t.Collections) > 0 {
			p.sp()
			p.tok(t.Lbrace, "{")
			p.identList(t.Collections)
			p.tok(t.Rbrace, "}")
		}
		return
	case *ast.BadType:
		if t == nil {
			break
		}
		p.bad(t.From)
		return
	}
	p.bad(source.NoPos)
}

// enum prints `enum {A, B = 5}` or, in the multi-line form, one constant per
// line.
func (p *printer) enum(t *ast.EnumType) {
	p.tok(t.EnumPos, "enum")
	p.sp()
	p.tok(t.Lbrace, "{")
	multi := p.multi && len(t.Consts) > 0
	outer := p.indent
	if multi {
		p.indent = outer + 2
	}
	for i, c := range t.Consts {
		if multi {
			p.newline(firstPolicy(i))
		} else if i > 0 {
			p.sp()
		}
		if c == nil {
			p.bad(source.NoPos)
		} else {
			p.ident(c.Name)
			if c.Value != nil {
				p.sp()
				p.tok(c.Assign, "=")
				p.sp()
				p.expr(c.Value)
			}
		}
		if i < len(t.Consts)-1 {
			p.tok(source.NoPos, ",")
		}
	}
	if multi {
		p.newline(closeBlank)
		p.flush(t.Rbrace)
		p.indent = outer
	}
	p.tok(t.Rbrace, "}")
}

// record prints `record { f : T; g : U; }` or, in the multi-line form, one
// field per line.
func (p *printer) record(t *ast.RecordType) {
	p.tok(t.RecordPos, "record")
	p.sp()
	p.tok(t.Lbrace, "{")
	outer := p.indent
	if p.multi {
		p.indent = outer + 2
	}
	for i, f := range t.Fields {
		if p.multi {
			p.newline(firstPolicy(i))
		} else {
			p.sp()
		}
		if f == nil {
			p.bad(source.NoPos)
			continue
		}
		p.varDecl(f)
	}
	if p.multi {
		p.newline(closeBlank)
		p.flush(t.Rbrace)
		p.indent = outer
	} else {
		p.sp()
	}
	p.tok(t.Rbrace, "}")
}

// ---------------------------------------------------------------------------
// Actions

func (p *printer) lhs(x ast.Expr, assign source.Pos) {
	p.expr(x)
	p.sp()
	p.tok(assign, ":=")
	p.sp()
}

// args prints (a, b, c).
func (p *printer) args(lparen source.Pos, xs []ast.Expr, rparen source.Pos) {
	p.tok(lparen, "(")
	p.exprList(xs)
	p.tok(rparen, ")")
}

func (p *printer) exprList(xs []ast.Expr) {
	for i, x := range xs {
		if i > 0 {
			p.tok(source.NoPos, ",")
			p.sp()
		}
		p.expr(x)
	}
}

func (p *printer) action(a ast.Action) {
	switch a := a.(type) {
	case *ast.AssignAction:
		if a == nil {
			break
		}
		p.lhs(a.Lhs, a.Assign)
		p.expr(a.Rhs)
		p.tok(a.Semi, ";")
		return
	case *ast.NewAction:
		if a == nil {
			break
		}
		p.lhs(a.Lhs, a.Assign)
		p.tok(a.NewPos, "new")
		p.sp()
		p.ident(a.Collection)
		if a.Len != nil {
			p.tok(a.Lbrack, "[")
			p.expr(a.Len)
			p.tok(a.Rbrack, "]")
		}
		p.tok(a.Semi, ";")
		return
	case *ast.ChooseAction:
		if a == nil {
			break
		}
		p.lhs(a.Lhs, a.Assign)
		kw := "internChoose"
		if a.Extern {
			kw = "externChoose"
		}
		p.tok(a.KwPos, kw)
		p.tok(a.Lparen, "(")
		if a.Type != nil {
			p.typ(a.Type)
		} else if a.Lo != nil || a.Hi != nil {
			p.expr(a.Lo)
			p.sp()
			p.tok(source.NoPos, "..")
			p.sp()
			p.expr(a.Hi)
		} else {
			p.exprList(a.Values)
		}
		p.tok(a.Rparen, ")")
		p.tok(a.Semi, ";")
		return
	case *ast.ForallAction:
		if a == nil {
			break
		}
		p.lhs(a.Lhs, a.Assign)
		p.tok(a.KwPos, "forall")
		p.tok(source.NoPos, "(")
		p.ident(a.Type)
		p.tok(a.Rparen, ")")
		p.tok(a.Semi, ";")
		return
	case *ast.ReachableAction:
		if a == nil {
			break
		}
		p.lhs(a.Lhs, a.Assign)
		p.tok(a.KwPos, "reachable")
		p.tok(source.NoPos, "(")
		p.expr(a.From)
		p.tok(source.NoPos, ",")
		p.sp()
		p.ident(a.Type)
		p.tok(a.Rparen, ")")
		p.tok(a.Semi, ";")
		return
	case *ast.LockAction:
		if a == nil {
			break
		}
		p.tok(a.OpPos, a.Op.String())
		p.tok(source.NoPos, "(")
		p.expr(a.Lock)
		p.tok(source.NoPos, ")")
		p.tok(a.Semi, ";")
		return
	case *ast.StartAction:
		if a == nil {
			break
		}
		if a.Lhs != nil {
			p.lhs(a.Lhs, a.Assign)
		}
		p.tok(a.StartPos, "start")
		p.sp()
		lparen := a.Lparen
		if a.PaperForm {
			// `start(T, args)` becomes `start T(args)`: the "(" moves
			// after the thread name, so its position no longer orders
			// comments.
			lparen = source.NoPos
		}
		p.ident(a.Thread)
		p.args(lparen, a.Args, a.Rparen)
		p.tok(a.Semi, ";")
		return
	case *ast.ExitAction:
		if a == nil {
			break
		}
		p.tok(a.ExitPos, "exit")
		p.tok(a.Semi, ";")
		return
	case *ast.CallAction:
		if a == nil {
			break
		}
		if a.Lhs != nil {
			p.lhs(a.Lhs, a.Assign)
		}
		p.tok(a.CallPos, "call")
		p.sp()
		p.ident(a.Func)
		p.args(a.Lparen, a.Args, a.Rparen)
		p.tok(a.Semi, ";")
		return
	case *ast.PrintAction:
		if a == nil {
			break
		}
		p.tok(a.PrintPos, "println")
		p.args(source.NoPos, a.Args, a.Rparen)
		p.tok(a.Semi, ";")
		return
	case *ast.AssertAction:
		if a == nil {
			break
		}
		p.tok(a.AssertPos, "assert")
		p.tok(source.NoPos, "(")
		p.expr(a.Cond)
		p.tok(source.NoPos, ")")
		p.tok(a.Semi, ";")
		return
	case *ast.AssumeAction:
		if a == nil {
			break
		}
		p.tok(a.AssumePos, "assume")
		p.tok(source.NoPos, "(")
		p.expr(a.Cond)
		p.tok(source.NoPos, ")")
		p.tok(a.Semi, ";")
		return
	case *ast.BadAction:
		if a == nil {
			break
		}
		p.bad(a.From)
		return
	}
	p.bad(source.NoPos)
}

// ---------------------------------------------------------------------------
// Expressions

func (p *printer) expr(x ast.Expr) {
	switch x := x.(type) {
	case *ast.Ident:
		p.ident(x)
		return
	case *ast.BasicLit:
		if x == nil {
			break
		}
		p.tok(x.ValuePos, x.Value)
		return
	case *ast.ParenExpr:
		if x == nil {
			break
		}
		p.tok(x.Lparen, "(")
		p.expr(x.X)
		p.tok(x.Rparen, ")")
		return
	case *ast.UnaryExpr:
		if x == nil {
			break
		}
		p.tok(x.OpPos, x.Op.String())
		switch x.Op {
		case token.ALWAYS, token.EVENTUAL, token.NEXT:
			p.sp()
		case token.SUB, token.ADD, token.TILDE:
			// `- -x`, not `--x`, which reads as a decrement
			if y, ok := x.X.(*ast.UnaryExpr); ok && y != nil && y.Op == x.Op {
				p.sp()
			}
		}
		p.expr(x.X)
		return
	case *ast.BinaryExpr:
		if x == nil {
			break
		}
		p.expr(x.X)
		p.sp()
		p.tok(x.OpPos, x.Op.String())
		p.sp()
		p.expr(x.Y)
		return
	case *ast.ConvExpr:
		if x == nil {
			break
		}
		p.ident(x.Type)
		p.tok(x.Lparen, "(")
		p.expr(x.X)
		p.tok(x.Rparen, ")")
		return
	case *ast.SelectorExpr:
		if x == nil {
			break
		}
		p.expr(x.X)
		p.tok(source.NoPos, ".")
		p.ident(x.Sel)
		return
	case *ast.LengthExpr:
		if x == nil {
			break
		}
		p.expr(x.X)
		p.tok(source.NoPos, ".")
		p.tok(x.LengthPos, "length")
		return
	case *ast.IndexExpr:
		if x == nil {
			break
		}
		p.expr(x.X)
		p.tok(x.Lbrack, "[")
		p.expr(x.Index)
		p.tok(x.Rbrack, "]")
		return
	case *ast.InstanceofExpr:
		if x == nil {
			break
		}
		p.expr(x.X)
		p.sp()
		p.tok(x.InstanceofPos, "instanceof")
		p.sp()
		p.ident(x.Type)
		return
	case *ast.BuiltinExpr:
		if x == nil {
			break
		}
		p.tok(x.OpPos, x.Op.String())
		p.tok(x.Lparen, "(")
		p.expr(x.X)
		p.tok(x.Rparen, ")")
		return
	case *ast.LocationTest:
		if x == nil {
			break
		}
		p.threadRef(x.Thread, x.Lbrack, x.Instance, x.Rbrack)
		p.sp()
		p.tok(x.At, "@")
		p.sp()
		p.ident(x.Loc)
		return
	case *ast.RemoteRef:
		if x == nil {
			break
		}
		p.threadRef(x.Thread, x.Lbrack, x.Instance, x.Rbrack)
		p.sp()
		p.tok(x.Colon, ":")
		p.sp()
		p.expr(x.X)
		return
	case *ast.BadExpr:
		if x == nil {
			break
		}
		p.bad(x.From)
		return
	}
	p.bad(source.NoPos)
}

// threadRef prints `T` or `T[e]` of a location test or remote reference.
func (p *printer) threadRef(thread *ast.Ident, lbrack source.Pos, inst ast.Expr, rbrack source.Pos) {
	p.ident(thread)
	if inst != nil || lbrack.IsValid() {
		p.tok(lbrack, "[")
		p.expr(inst)
		p.tok(rbrack, "]")
	}
}
