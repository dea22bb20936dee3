// Package parser builds the syntax tree of a BIR model from its source text.
//
// It is the third stage of the BIR front end (token -> scanner -> parser ->
// types -> format). The parser is hand-written recursive descent over the
// grammar of BIR.md (the paper's Appendix A plus birch's extensions). It keeps
// positions on every node and, with ParseComments, every comment in
// File.Comments for the formatter.
//
// Errors are collected, not thrown. Messages read "expected X, found Y". After
// an error the parser skips to the next declaration, location or
// transformation and goes on, so one run reports every independent mistake;
// it stops after 10 errors unless AllErrors is set. It keeps at most one
// error per line, and none positioned before an error already reported:
// those are nearly always consequences of the first. A missing ';' is
// reported just after the token it should follow. The tree it returns is
// always non-nil and always has a System; parts it could not parse are
// ast.Bad* nodes.
package parser

import (
	"fmt"

	"birch/internal/bir/ast"
	"birch/internal/bir/scanner"
	"birch/internal/bir/token"
	"birch/internal/source"
)

// Mode controls optional parser behaviour; the zero value works.
type Mode uint

const (
	// ParseComments keeps comments in File.Comments.
	ParseComments Mode = 1 << iota
	// AllErrors reports every error instead of stopping after 10.
	AllErrors
)

// maxErrors is how many errors are reported without AllErrors.
const maxErrors = 10

// maxNesting bounds the depth of expression and type trees, so that no input
// can exhaust the stack of the parser or of any later stage that walks the
// tree recursively (checker, formatter, model compiler, evaluator, back
// ends). Every level counts: a parenthesis, a unary operator, each operator
// of a chain such as a + b + c (which builds a left-deep tree), each
// selector or index of x.f[i].g. docs/bir.md §17 states the bound.
const maxNesting = 1000

// ParseFile parses one BIR source file registered in fset under filename. It
// always returns a non-nil *ast.File with a non-nil System (partial after
// errors); err is a sorted source.ErrorList or nil.
func ParseFile(fset *source.FileSet, filename string, src []byte, mode Mode) (f *ast.File, err error) {
	p := &parser{fset: fset, mode: mode}
	p.file = fset.AddFile(filename, src)
	p.scanner.Init(p.file, src, func(pos source.Pos, msg string) { p.errorAt(pos, msg) })
	f = &ast.File{Name: filename}
	defer func() {
		if r := recover(); r != nil {
			if _, ok := r.(bailout); !ok {
				panic(r)
			}
		}
		if f.System == nil {
			f.System = &ast.System{Name: &ast.Ident{}, EndName: &ast.Ident{}}
		}
		if p.mode&ParseComments != 0 {
			f.Comments = p.comments
		}
		p.errors.Sort()
		err = p.errors.Err()
	}()
	p.next()
	f.System = p.parseSystem()
	return f, nil
}

// ParseExpr parses a single BIR expression (as in a guard). It is meant for
// tests and tools; positions refer to a file named "expr".
func ParseExpr(src string) (ast.Expr, error) {
	fset := source.NewFileSet()
	b := []byte(src)
	return ParseExprAt(fset, fset.AddFile("expr", b), b, 0, len(b), false)
}

// ParseExprAt parses the BIR expression in src[from:to], where src is the
// content of file, a file of fset: positions (and error positions) point
// into file, so a tool can parse one part of a file that is not BIR as a
// whole (a line of a predicate file). With props set, the forms of
// predicates and properties (->, <->, T @ loc, T : x) parse too. The
// expression must end at to; x is never nil (a *ast.BadExpr after a syntax
// error) and err is a sorted source.ErrorList or nil.
func ParseExprAt(fset *source.FileSet, file *source.File, src []byte, from, to int, props bool) (x ast.Expr, err error) {
	p := &parser{fset: fset, file: file, props: props}
	p.scanner.InitAt(file, src[:to], from, func(pos source.Pos, msg string) { p.errorAt(pos, msg) })
	x = &ast.BadExpr{From: file.Pos(from), To: file.Pos(to)}
	func() {
		defer func() {
			if r := recover(); r != nil {
				if _, ok := r.(bailout); !ok {
					panic(r)
				}
			}
		}()
		p.next()
		x = p.parseExpr()
		if p.tok != token.EOF {
			p.errorExpected(p.pos, "end of expression")
		}
	}()
	p.errors.Sort()
	return x, p.errors.Err()
}

type bailout struct{}

type parser struct {
	fset    *source.FileSet
	file    *source.File
	scanner scanner.Scanner
	mode    Mode
	errors  source.ErrorList

	comments    []*ast.CommentGroup
	lastComment *ast.Comment // last comment scanned, to group comments
	prevEnd     source.Pos   // end of the previous non-comment token
	prevTok     token.Kind   // the previous non-comment token

	// current token
	pos source.Pos
	tok token.Kind
	lit string

	nesting int  // current expression/type nesting
	props   bool // parsing a predicate or property: @ and : tests allowed
	ltl     bool // parsing an ltl formula: X U R W are operators
}

// next advances to the next non-comment token, collecting comments.
func (p *parser) next() {
	if p.tok != token.COMMENT && p.pos.IsValid() {
		p.prevEnd = p.pos + source.Pos(p.tokLen())
		p.prevTok = p.tok
	}
	for {
		p.pos, p.tok, p.lit = p.scanner.Scan()
		if p.tok != token.COMMENT {
			return
		}
		c := &ast.Comment{Slash: p.pos, Text: p.lit}
		if p.lastComment != nil && len(p.comments) > 0 && p.lastComment.End() > p.prevEnd &&
			p.fset.PositionFor(c.Pos(), false).Line <= p.fset.PositionFor(p.lastComment.End(), false).Line+1 {
			g := p.comments[len(p.comments)-1]
			g.List = append(g.List, c)
		} else {
			p.comments = append(p.comments, &ast.CommentGroup{List: []*ast.Comment{c}})
		}
		p.lastComment = c
	}
}

func (p *parser) tokLen() int {
	switch p.tok {
	case token.IDENT, token.INT, token.STRING, token.ILLEGAL:
		return len(p.lit)
	case token.EOF:
		return 0
	}
	return len(p.tok.String())
}

func (p *parser) errorAt(pos source.Pos, msg string) {
	position := p.fset.Position(pos)
	if n := len(p.errors); n > 0 && p.errors[n-1].Pos.Filename == position.Filename {
		last := p.errors[n-1].Pos
		if last.Line == position.Line || position.Offset < last.Offset {
			// One error per line, and none before an error already
			// reported: the rest are usually consequences.
			return
		}
	}
	p.errors.Add(position, msg)
	if p.mode&AllErrors == 0 && len(p.errors) >= maxErrors {
		panic(bailout{})
	}
}

// describe names the current token for "found Y".
func (p *parser) describe() string {
	switch p.tok {
	case token.IDENT:
		return "name " + source.Excerpt(p.lit)
	case token.INT:
		return "number " + source.Excerpt(p.lit)
	case token.STRING:
		return "string " + source.Excerpt(p.lit)
	case token.EOF:
		return "end of file"
	case token.ILLEGAL:
		return fmt.Sprintf("%q", source.Excerpt(p.lit))
	}
	if p.tok.IsKeyword() {
		return "keyword " + p.tok.String()
	}
	return "'" + p.tok.String() + "'"
}

func (p *parser) errorExpected(pos source.Pos, what string) {
	if pos == p.pos {
		p.errorAt(pos, "expected "+what+", found "+p.describe())
		return
	}
	p.errorAt(pos, "expected "+what)
}

func quote(k token.Kind) string {
	if k.IsKeyword() {
		return k.String()
	}
	return "'" + k.String() + "'"
}

// expect consumes a token of kind k or reports an error; it returns the
// position where the token was (or should have been).
func (p *parser) expect(k token.Kind) source.Pos {
	pos := p.pos
	if p.tok != k {
		p.errorExpected(pos, quote(k))
		return pos
	}
	p.next()
	return pos
}

// expectSemi is expect(SEMICOLON) with a position just after the previous
// token when the semicolon is missing, which is where the user must type it.
func (p *parser) expectSemi() source.Pos {
	if p.tok == token.SEMICOLON {
		pos := p.pos
		p.next()
		return pos
	}
	p.errorAt(p.prevEnd, "expected ';', found "+p.describe())
	return p.prevEnd
}

func (p *parser) got(k token.Kind) bool {
	if p.tok == k {
		p.next()
		return true
	}
	return false
}

func (p *parser) parseIdent() *ast.Ident {
	pos := p.pos
	name := "_"
	if p.tok == token.IDENT {
		name = p.lit
		p.next()
	} else {
		p.errorExpected(pos, "name")
	}
	return &ast.Ident{NamePos: pos, Name: name}
}

// parseFieldName parses a record field name. Keywords are accepted there
// (except length, which selects an array's length), because the paper's
// models name a field tid (Figure 7: `tid : tid;` and `s.tid := start …`).
func (p *parser) parseFieldName() *ast.Ident {
	if p.tok.IsKeyword() && p.tok != token.LENGTH {
		id := &ast.Ident{NamePos: p.pos, Name: p.tok.String()}
		p.next()
		return id
	}
	return p.parseIdent()
}

func (p *parser) enter() {
	p.nesting++
	if p.nesting > maxNesting {
		p.errorAt(p.pos, fmt.Sprintf("expression or type nested too deeply (more than %d levels; each operator of a chain such as a + b + c counts as one)", maxNesting))
		panic(bailout{})
	}
}

func (p *parser) leave() { p.nesting-- }

// ---------------------------------------------------------------------------
// Recovery

// declStart reports whether the current token can only start a top-level
// item.
func (p *parser) declStart() bool {
	switch p.tok {
	case token.CONST, token.MAIN, token.THREAD, token.FUNCTION, token.PREDICATES, token.PROPERTIES, token.END, token.EOF:
		return true
	}
	return false
}

// syncDecl skips to the start of the next top-level item: past a ';' at
// brace depth 0 or to a keyword that starts an item.
func (p *parser) syncDecl(start source.Pos) {
	depth := 0
	for p.tok != token.EOF {
		if depth == 0 && p.declStart() && p.pos != start {
			return
		}
		switch p.tok {
		case token.LBRACE:
			depth++
		case token.RBRACE:
			if depth > 0 {
				depth--
			}
		case token.SEMICOLON:
			if depth == 0 {
				p.next()
				return
			}
		}
		p.next()
	}
}

// syncBody skips to the next location, transformation or end of body.
func (p *parser) syncBody(start source.Pos) {
	for p.tok != token.EOF {
		switch p.tok {
		case token.LOC, token.WHEN, token.END, token.MAIN, token.THREAD, token.FUNCTION, token.PREDICATES, token.PROPERTIES:
			if p.pos != start {
				return
			}
		}
		p.next()
	}
}

// ---------------------------------------------------------------------------
// System and declarations

func (p *parser) parseSystem() *ast.System {
	s := &ast.System{Keyword: p.pos}
	switch p.tok {
	case token.SYSTEM:
		p.next()
	case token.PROCESS:
		s.Process = true
		p.next()
	default:
		p.errorExpected(p.pos, "system")
		for p.tok != token.SYSTEM && p.tok != token.PROCESS && p.tok != token.EOF {
			p.next()
		}
		if p.tok == token.EOF {
			s.Name = &ast.Ident{NamePos: p.pos, Name: "_"}
			s.EndName = &ast.Ident{NamePos: p.pos, Name: "_"}
			s.EndPos, s.Semi = p.pos, p.pos
			return s
		}
		s.Keyword = p.pos
		s.Process = p.tok == token.PROCESS
		p.next()
	}
	s.Name = p.parseIdent()
	s.Lparen = p.expect(token.LPAREN)
	s.Rparen = p.expect(token.RPAREN)
	for !p.declStart() || p.tok == token.CONST || p.tok == token.MAIN || p.tok == token.THREAD || p.tok == token.FUNCTION {
		if d := p.parseDecl(); d != nil {
			s.Decls = append(s.Decls, d)
		}
	}
	for p.tok == token.PREDICATES || p.tok == token.PROPERTIES {
		// One predicates section, then one properties section. A
		// misplaced or repeated section is reported and merged into the
		// first, so that its items are still checked.
		if p.tok == token.PREDICATES {
			switch {
			case s.Properties != nil:
				p.errorAt(p.pos, "predicates section must come before the properties section")
			case s.Predicates != nil:
				p.errorAt(p.pos, "second predicates section: put every predicate in one section")
			}
			sec := p.parsePredicates()
			if s.Predicates == nil {
				s.Predicates = sec
			} else {
				s.Predicates.Predicates = append(s.Predicates.Predicates, sec.Predicates...)
			}
			continue
		}
		if s.Properties != nil {
			p.errorAt(p.pos, "second properties section: put every property in one section")
		}
		sec := p.parseProperties()
		if s.Properties == nil {
			s.Properties = sec
		} else {
			s.Properties.Properties = append(s.Properties.Properties, sec.Properties...)
		}
	}
	s.EndPos = p.expect(token.END)
	s.EndName = p.parseIdent()
	s.Semi = p.expectSemi()
	if p.tok != token.EOF {
		p.errorExpected(p.pos, "end of file after 'end "+source.Excerpt(s.EndName.Name)+";'")
	}
	return s
}

func (p *parser) parseDecl() ast.Decl {
	start := p.pos
	nerr := len(p.errors)
	var d ast.Decl
	switch p.tok {
	case token.CONST:
		d = p.parseConstDecl()
	case token.MAIN, token.THREAD:
		d = p.parseThreadDecl()
	case token.FUNCTION:
		d = p.parseFunctionDecl()
	case token.IDENT:
		d = p.parseNamedDecl()
	default:
		p.errorExpected(p.pos, "declaration, thread or function")
		p.next()
		p.syncDecl(start)
		return &ast.BadDecl{From: start, To: p.pos}
	}
	if len(p.errors) > nerr && p.prevTok != token.SEMICOLON {
		switch d.(type) {
		case *ast.ThreadDecl, *ast.FunctionDecl:
			// bodies recover by themselves
		default:
			p.syncDecl(start)
		}
	}
	return d
}

func (p *parser) parseConstDecl() *ast.ConstDecl {
	d := &ast.ConstDecl{ConstPos: p.expect(token.CONST)}
	d.Name = p.parseIdent()
	if p.tok == token.DEFINE {
		d.Assign = p.pos
		p.next()
	}
	d.Value = p.parseExpr()
	d.Semi = p.expectSemi()
	return d
}

// parseNamedDecl parses the items that start with a name: type definitions,
// subtype declarations, collections and globals.
func (p *parser) parseNamedDecl() ast.Decl {
	name := p.parseIdent()
	switch p.tok {
	case token.DEFINE:
		d := &ast.TypeDecl{Name: name, Assign: p.pos}
		p.next()
		d.Type = p.parseType()
		d.Semi = p.expectSemi()
		return d
	case token.EXTENDS:
		d := &ast.ExtendsDecl{Sub: name, ExtendsPos: p.pos}
		p.next()
		d.Super = p.parseIdent()
		d.Semi = p.expectSemi()
		return d
	case token.COLON:
		colon := p.pos
		p.next()
		if p.tok == token.COLLECTION {
			d := &ast.CollectionDecl{Name: name, Colon: colon, CollectionPos: p.pos}
			p.next()
			if p.tok == token.LBRACK {
				p.next()
				d.Size = p.parseExpr()
				p.expect(token.RBRACK)
			}
			d.OfPos = p.expect(token.OF)
			d.Elem = p.parseIdent()
			d.Semi = p.expectSemi()
			return d
		}
		return p.parseVarRest([]*ast.Ident{name}, colon, true, true)
	case token.COMMA:
		names := []*ast.Ident{name}
		for p.got(token.COMMA) {
			names = append(names, p.parseIdent())
		}
		colon := p.expect(token.COLON)
		return p.parseVarRest(names, colon, true, true)
	}
	p.errorExpected(p.pos, "'=', ':' or extends after "+source.Excerpt(name.Name))
	return &ast.BadDecl{From: name.Pos(), To: p.pos}
}

// parseVarRest parses `TYPE [:= INIT] ;` after `names :`.
func (p *parser) parseVarRest(names []*ast.Ident, colon source.Pos, allowInit, needSemi bool) *ast.VarDecl {
	d := &ast.VarDecl{Names: names, Colon: colon}
	d.Type = p.parseType()
	if allowInit && p.tok == token.ASSIGN {
		d.Assign = p.pos
		p.next()
		d.Init = p.parseExpr()
	}
	if needSemi {
		d.Semi = p.expectSemi()
	}
	return d
}

// parseVarDecl parses `a, b : TYPE [:= INIT];` (locals and record fields).
func (p *parser) parseVarDecl(allowInit bool) *ast.VarDecl {
	names := []*ast.Ident{p.parseIdent()}
	for p.got(token.COMMA) {
		names = append(names, p.parseIdent())
	}
	colon := p.expect(token.COLON)
	return p.parseVarRest(names, colon, allowInit, true)
}

// ---------------------------------------------------------------------------
// Types

func (p *parser) parseType() ast.TypeExpr {
	p.enter()
	defer p.leave()
	pos := p.pos
	switch p.tok {
	case token.IDENT:
		return p.parseIdent()
	case token.BOOLEAN, token.INT_TYPE, token.TID:
		t := &ast.BasicType{KindPos: pos, Kind: p.tok}
		p.next()
		return t
	case token.RANGE:
		t := &ast.RangeType{RangePos: pos}
		p.next()
		t.Lo = p.parseExpr()
		t.Ellipsis = p.expect(token.ELLIPSIS)
		t.Hi = p.parseExpr()
		return t
	case token.LOCK:
		t := &ast.LockType{LockPos: pos}
		p.next()
		if p.tok == token.WAIT {
			t.Wait, t.WaitPos = true, p.pos
			p.next()
		}
		if p.tok == token.REENTRANT {
			t.Reentrant, t.ReentrantPos = true, p.pos
			p.next()
		}
		return t
	case token.REF:
		t := &ast.RefType{RefPos: pos}
		p.next()
		t.Target = p.parseIdent()
		if p.tok == token.LBRACE {
			t.Lbrace = p.pos
			p.next()
			if p.tok != token.RBRACE {
				t.Collections = append(t.Collections, p.parseIdent())
				for p.got(token.COMMA) {
					t.Collections = append(t.Collections, p.parseIdent())
				}
			}
			t.Rbrace = p.expect(token.RBRACE)
		}
		return t
	case token.ARRAY:
		t := &ast.ArrayType{ArrayPos: pos}
		p.next()
		t.Lbrack = p.expect(token.LBRACK)
		t.Len = p.parseExpr()
		t.Rbrack = p.expect(token.RBRACK)
		t.OfPos = p.expect(token.OF)
		t.Elem = p.parseType()
		return t
	case token.ENUM:
		t := &ast.EnumType{EnumPos: pos}
		p.next()
		t.Lbrace = p.expect(token.LBRACE)
		for p.tok != token.RBRACE && p.tok != token.EOF {
			c := &ast.EnumConst{Name: p.parseIdent()}
			if p.tok == token.DEFINE {
				c.Assign = p.pos
				p.next()
				c.Value = p.parseExpr()
			}
			t.Consts = append(t.Consts, c)
			if !p.got(token.COMMA) {
				break
			}
		}
		if p.tok != token.RBRACE {
			p.errorExpected(p.pos, "',' or '}'")
			t.Rbrace = p.pos
			return t
		}
		t.Rbrace = p.expect(token.RBRACE)
		return t
	case token.RECORD:
		t := &ast.RecordType{RecordPos: pos}
		p.next()
		t.Lbrace = p.expect(token.LBRACE)
		for p.tok == token.IDENT || p.tok.IsKeyword() && p.tok != token.END {
			start := p.pos
			names := []*ast.Ident{p.parseFieldName()}
			for p.got(token.COMMA) {
				names = append(names, p.parseFieldName())
			}
			colon := p.expect(token.COLON)
			t.Fields = append(t.Fields, p.parseVarRest(names, colon, false, true))
			if p.pos == start {
				break
			}
		}
		t.Rbrace = p.expect(token.RBRACE)
		return t
	}
	p.errorExpected(pos, "type")
	return &ast.BadType{From: pos, To: pos}
}

// ---------------------------------------------------------------------------
// Threads and functions

func (p *parser) parseThreadDecl() *ast.ThreadDecl {
	d := &ast.ThreadDecl{}
	if p.tok == token.MAIN {
		d.Main, d.MainPos = true, p.pos
		p.next()
	}
	d.ThreadPos = p.expect(token.THREAD)
	d.Name = p.parseIdent()
	d.Body = &ast.Body{}
	p.parseParams(d.Body)
	p.parseBody(d.Body, d.Name.Name)
	return d
}

func (p *parser) parseFunctionDecl() *ast.FunctionDecl {
	d := &ast.FunctionDecl{FunctionPos: p.expect(token.FUNCTION)}
	d.Name = p.parseIdent()
	d.Body = &ast.Body{}
	p.parseParams(d.Body)
	if p.tok == token.COLON {
		d.Colon = p.pos
		p.next()
		d.Result = p.parseType()
	}
	p.parseBody(d.Body, d.Name.Name)
	return d
}

func (p *parser) parseParams(b *ast.Body) {
	b.Lparen = p.expect(token.LPAREN)
	for p.tok == token.IDENT {
		names := []*ast.Ident{p.parseIdent()}
		for p.got(token.COMMA) {
			names = append(names, p.parseIdent())
		}
		colon := p.expect(token.COLON)
		d := p.parseVarRest(names, colon, false, false)
		if p.tok == token.COMMA || p.tok == token.SEMICOLON {
			d.Semi = p.pos
			p.next()
		} else if p.tok != token.RPAREN {
			p.errorExpected(p.pos, "',' or ')'")
			break
		}
		b.Params = append(b.Params, d)
	}
	b.Rparen = p.expect(token.RPAREN)
}

// procStart reports whether the current token starts a top-level item
// that cannot occur inside a thread or function body.
func (p *parser) procStart() bool {
	switch p.tok {
	case token.MAIN, token.THREAD, token.FUNCTION, token.PREDICATES, token.PROPERTIES, token.EOF:
		return true
	}
	return false
}

func (p *parser) parseBody(b *ast.Body, name string) {
	for p.tok == token.IDENT {
		start := p.pos
		nerr := len(p.errors)
		b.Locals = append(b.Locals, p.parseVarDecl(true))
		if len(p.errors) > nerr {
			p.syncBody(start)
		}
	}
	for p.tok == token.LOC {
		b.Locations = append(b.Locations, p.parseLocation())
	}
	if p.procStart() {
		// `end Name;` is missing: leave the next item to the caller.
		p.errorExpected(p.pos, "loc or 'end "+source.Excerpt(name)+";'")
		b.EndPos, b.Semi = p.pos, p.prevEnd
		b.EndName = &ast.Ident{NamePos: p.pos, Name: "_"}
		return
	}
	if p.tok != token.END {
		p.errorExpected(p.pos, "loc or end")
		p.syncBody(p.pos)
		for p.tok == token.LOC || p.tok == token.WHEN {
			if p.tok == token.WHEN {
				// transformations without a location: skip them
				p.next()
				p.syncBody(p.pos)
				continue
			}
			b.Locations = append(b.Locations, p.parseLocation())
		}
	}
	b.EndPos = p.expect(token.END)
	b.EndName = p.parseIdent()
	b.Semi = p.expectSemi()
}

func (p *parser) parseLocation() *ast.Location {
	l := &ast.Location{LocPos: p.expect(token.LOC)}
	l.Name = p.parseIdent()
	l.Colon = p.expect(token.COLON)
	if p.tok == token.LIVE {
		ls := &ast.LiveSet{LivePos: p.pos}
		p.next()
		ls.Lbrace = p.expect(token.LBRACE)
		if p.tok == token.IDENT {
			ls.Names = append(ls.Names, p.parseIdent())
			for p.got(token.COMMA) {
				ls.Names = append(ls.Names, p.parseIdent())
			}
		}
		ls.Rbrace = p.expect(token.RBRACE)
		l.Live = ls
	}
	for {
		switch p.tok {
		case token.WHEN:
			start := p.pos
			nerr := len(p.errors)
			t := p.parseTransformation()
			l.Transformations = append(l.Transformations, t)
			if len(p.errors) > nerr {
				p.syncBody(start)
			}
			continue
		case token.LOC, token.END, token.EOF:
		default:
			if p.procStart() {
				return l // parseBody reports the missing end
			}
			p.errorExpected(p.pos, "when, loc or end")
			p.syncBody(p.pos)
			if p.tok == token.WHEN {
				continue
			}
		}
		return l
	}
}

func (p *parser) parseTransformation() *ast.Transformation {
	t := &ast.Transformation{WhenPos: p.expect(token.WHEN)}
	t.Guard = p.parseExpr()
	t.DoPos = p.expect(token.DO)
	if p.tok == token.INVISIBLE {
		t.Invisible, t.InvisiblePos = true, p.pos
		p.next()
	}
	t.Lbrace = p.expect(token.LBRACE)
	for p.tok != token.RBRACE && p.tok != token.EOF && p.tok != token.WHEN && p.tok != token.LOC && p.tok != token.END &&
		p.tok != token.GOTO && p.tok != token.RETURN {
		start := p.pos
		a := p.parseAction()
		t.Actions = append(t.Actions, a)
		if p.pos == start { // no progress: give up on this block
			break
		}
	}
	t.Rbrace = p.expect(token.RBRACE)
	switch p.tok {
	case token.GOTO:
		t.GotoPos = p.pos
		p.next()
		t.Target = p.parseIdent()
	case token.RETURN:
		t.GotoPos = p.pos
		t.Return = true
		p.next()
		switch p.tok {
		case token.SEMICOLON, token.WHEN, token.LOC, token.END, token.EOF:
			// no value; a missing ';' is reported below
		default:
			t.Result = p.parseExpr()
		}
	default:
		p.errorExpected(p.pos, "goto or return")
		t.GotoPos = p.pos
		t.Target = &ast.Ident{NamePos: p.pos, Name: "_"}
	}
	t.Semi = p.expectSemi()
	return t
}

// ---------------------------------------------------------------------------
// Actions

func (p *parser) parseAction() ast.Action {
	pos := p.pos
	switch p.tok {
	case token.LOCK, token.UNLOCK, token.WAIT, token.UNWAIT, token.NOTIFY, token.NOTIFYALL:
		a := &ast.LockAction{OpPos: pos, Op: p.tok}
		p.next()
		p.expect(token.LPAREN)
		a.Lock = p.parseExpr()
		p.expect(token.RPAREN)
		a.Semi = p.expectSemi()
		return a
	case token.START:
		return p.parseStart(nil, source.NoPos)
	case token.CALL:
		return p.parseCall(nil, source.NoPos)
	case token.EXIT:
		p.next()
		return &ast.ExitAction{ExitPos: pos, Semi: p.expectSemi()}
	case token.PRINTLN:
		a := &ast.PrintAction{PrintPos: pos}
		p.next()
		p.expect(token.LPAREN)
		for p.tok != token.RPAREN && p.tok != token.EOF {
			if p.tok == token.STRING {
				a.Args = append(a.Args, &ast.BasicLit{ValuePos: p.pos, Kind: token.STRING, Value: p.lit})
				p.next()
			} else {
				a.Args = append(a.Args, p.parseExpr())
			}
			if !p.got(token.COMMA) {
				break
			}
		}
		a.Rparen = p.expect(token.RPAREN)
		a.Semi = p.expectSemi()
		return a
	case token.ASSERT:
		p.next()
		p.expect(token.LPAREN)
		a := &ast.AssertAction{AssertPos: pos, Cond: p.parseExpr()}
		p.expect(token.RPAREN)
		a.Semi = p.expectSemi()
		return a
	case token.ASSUME:
		p.next()
		p.expect(token.LPAREN)
		a := &ast.AssumeAction{AssumePos: pos, Cond: p.parseExpr()}
		p.expect(token.RPAREN)
		a.Semi = p.expectSemi()
		return a
	case token.IDENT, token.LPAREN:
	default:
		p.errorExpected(pos, "action")
		p.skipAction()
		return &ast.BadAction{From: pos, To: p.pos}
	}
	lhs := p.parsePostfix()
	if p.tok != token.ASSIGN {
		p.errorExpected(p.pos, "':='")
		p.skipAction()
		return &ast.BadAction{From: pos, To: p.pos}
	}
	assign := p.pos
	p.next()
	kw := p.pos
	switch p.tok {
	case token.NEW:
		a := &ast.NewAction{Lhs: lhs, Assign: assign, NewPos: kw}
		p.next()
		a.Collection = p.parseIdent()
		if p.tok == token.LBRACK {
			a.Lbrack = p.pos
			p.next()
			a.Len = p.parseExpr()
			a.Rbrack = p.expect(token.RBRACK)
		}
		a.Semi = p.expectSemi()
		return a
	case token.INTERNCHOOSE, token.EXTERNCHOOSE:
		a := &ast.ChooseAction{Lhs: lhs, Assign: assign, KwPos: kw, Extern: p.tok == token.EXTERNCHOOSE}
		p.next()
		a.Lparen = p.expect(token.LPAREN)
		switch p.tok {
		case token.INT_TYPE, token.RANGE, token.BOOLEAN, token.TID, token.LOCK, token.ARRAY, token.REF:
			// the type form (the type checker wants an integer type);
			// a lone name is a value or a type, which the type checker
			// tells apart
			a.Type = p.parseType()
			a.Rparen = p.expect(token.RPAREN)
			a.Semi = p.expectSemi()
			return a
		}
		first := p.parseExpr()
		if p.tok == token.ELLIPSIS {
			p.next()
			a.Lo = first
			a.Hi = p.parseExpr()
		} else {
			a.Values = []ast.Expr{first}
			for p.got(token.COMMA) {
				a.Values = append(a.Values, p.parseExpr())
			}
		}
		a.Rparen = p.expect(token.RPAREN)
		a.Semi = p.expectSemi()
		return a
	case token.FORALL:
		a := &ast.ForallAction{Lhs: lhs, Assign: assign, KwPos: kw}
		p.next()
		p.expect(token.LPAREN)
		a.Type = p.parseIdent()
		a.Rparen = p.expect(token.RPAREN)
		a.Semi = p.expectSemi()
		return a
	case token.REACHABLE:
		a := &ast.ReachableAction{Lhs: lhs, Assign: assign, KwPos: kw}
		p.next()
		p.expect(token.LPAREN)
		a.From = p.parseExpr()
		p.expect(token.COMMA)
		a.Type = p.parseIdent()
		a.Rparen = p.expect(token.RPAREN)
		a.Semi = p.expectSemi()
		return a
	case token.START:
		return p.parseStart(lhs, assign)
	case token.CALL:
		return p.parseCall(lhs, assign)
	}
	a := &ast.AssignAction{Lhs: lhs, Assign: assign, Rhs: p.parseExpr()}
	a.Semi = p.expectSemi()
	return a
}

// skipAction skips to just after the next ';' or to a '}' or keyword that
// ends the action list.
func (p *parser) skipAction() {
	for {
		switch p.tok {
		case token.SEMICOLON:
			p.next()
			return
		case token.RBRACE, token.EOF, token.WHEN, token.LOC, token.END, token.GOTO, token.RETURN:
			return
		}
		p.next()
	}
}

func (p *parser) parseArgs() (lparen source.Pos, args []ast.Expr, rparen source.Pos) {
	lparen = p.expect(token.LPAREN)
	if p.tok != token.RPAREN {
		args = append(args, p.parseExpr())
		for p.got(token.COMMA) {
			args = append(args, p.parseExpr())
		}
	}
	rparen = p.expect(token.RPAREN)
	return
}

func (p *parser) parseStart(lhs ast.Expr, assign source.Pos) *ast.StartAction {
	a := &ast.StartAction{Lhs: lhs, Assign: assign, StartPos: p.expect(token.START)}
	if p.tok == token.LPAREN {
		// the paper's spelling: start(Thread, args)
		a.PaperForm = true
		a.Lparen = p.pos
		p.next()
		a.Thread = p.parseIdent()
		for p.got(token.COMMA) {
			a.Args = append(a.Args, p.parseExpr())
		}
		a.Rparen = p.expect(token.RPAREN)
	} else {
		a.Thread = p.parseIdent()
		a.Lparen, a.Args, a.Rparen = p.parseArgs()
	}
	a.Semi = p.expectSemi()
	return a
}

func (p *parser) parseCall(lhs ast.Expr, assign source.Pos) *ast.CallAction {
	a := &ast.CallAction{Lhs: lhs, Assign: assign, CallPos: p.expect(token.CALL)}
	a.Func = p.parseIdent()
	a.Lparen, a.Args, a.Rparen = p.parseArgs()
	a.Semi = p.expectSemi()
	return a
}

// ---------------------------------------------------------------------------
// Expressions

func (p *parser) parseExpr() ast.Expr {
	return p.parseBinary(token.LowestPrec + 1)
}

// binaryOp returns the operator the current token stands for, with LTL's
// temporal operators read from identifiers inside formulas.
func (p *parser) binaryOp() (token.Kind, int) {
	op := p.tok
	if p.ltl && op == token.IDENT {
		switch p.lit {
		case "U":
			op = token.UNTIL
		case "R":
			op = token.RELEASE
		case "W":
			op = token.WEAKUNTIL
		}
	}
	// -> and <-> are parsed everywhere; the checker reports them outside
	// predicates and properties, which says more than a syntax error.
	return op, op.Precedence()
}

func rightAssoc(op token.Kind) bool {
	switch op {
	case token.UNTIL, token.RELEASE, token.WEAKUNTIL, token.ARROW:
		return true
	}
	return false
}

func (p *parser) parseBinary(prec1 int) ast.Expr {
	p.enter()
	defer p.leave()
	x := p.parseUnary()
	// Each operator of a left-associative chain nests the tree one level
	// deeper; it holds a level of the budget until the chain ends.
	levels := 0
	defer func() { p.nesting -= levels }()
	for {
		op, oprec := p.binaryOp()
		if oprec < prec1 {
			return x
		}
		pos := p.pos
		p.enter()
		levels++
		p.next()
		next := oprec + 1
		if rightAssoc(op) {
			next = oprec
		}
		y := p.parseBinary(next)
		x = &ast.BinaryExpr{X: x, OpPos: pos, Op: op, Y: y}
	}
}

func (p *parser) parseUnary() ast.Expr {
	pos := p.pos
	op := p.tok
	switch p.tok {
	case token.NOT, token.SUB, token.ADD, token.TILDE:
	case token.ALWAYS, token.EVENTUAL:
		if !p.ltl {
			p.errorAt(pos, fmt.Sprintf("temporal operator %s outside an ltl formula", op))
		}
	case token.IDENT:
		if !p.ltl || p.lit != "X" {
			return p.parsePostfix()
		}
		op = token.NEXT
	default:
		return p.parsePostfix()
	}
	p.enter()
	defer p.leave()
	p.next()
	return &ast.UnaryExpr{OpPos: pos, Op: op, X: p.parseUnary()}
}

func (p *parser) parsePostfix() ast.Expr {
	x := p.parseOperand()
	// As in parseBinary: each selector, index or test nests x one level.
	levels := 0
	defer func() { p.nesting -= levels }()
	for {
		switch p.tok {
		case token.PERIOD, token.LBRACK, token.INSTANCEOF, token.AT, token.COLON:
			p.enter()
			levels++
		}
		switch p.tok {
		case token.PERIOD:
			p.next()
			if p.tok == token.LENGTH {
				x = &ast.LengthExpr{X: x, LengthPos: p.pos}
				p.next()
			} else {
				x = &ast.SelectorExpr{X: x, Sel: p.parseFieldName()}
			}
		case token.LBRACK:
			lb := p.pos
			p.next()
			idx := p.parseExpr()
			x = &ast.IndexExpr{X: x, Lbrack: lb, Index: idx, Rbrack: p.expect(token.RBRACK)}
		case token.INSTANCEOF:
			pos := p.pos
			p.next()
			x = &ast.InstanceofExpr{X: x, InstanceofPos: pos, Type: p.parseIdent()}
		case token.AT, token.COLON:
			// `T[e] : x` is read only in predicates and properties, where
			// no other ':' can follow an expression. `@` is unambiguous:
			// outside them the checker explains that tests belong there.
			if !p.props && p.tok == token.COLON {
				return x
			}
			thread, lb, inst, rb, ok := threadRef(x)
			if !ok {
				p.errorAt(p.pos, fmt.Sprintf("'%s' must follow a thread name, as in T[tid] %s x", p.tok, p.tok))
				return x
			}
			if p.tok == token.AT {
				at := p.pos
				p.next()
				x = &ast.LocationTest{Thread: thread, Lbrack: lb, Instance: inst, Rbrack: rb, At: at, Loc: p.parseIdent()}
			} else {
				colon := p.pos
				p.next()
				x = &ast.RemoteRef{Thread: thread, Lbrack: lb, Instance: inst, Rbrack: rb, Colon: colon, X: p.parseUnary()}
			}
		default:
			return x
		}
	}
}

// threadRef splits `T` or `T[e]` for a location test or remote reference.
func threadRef(x ast.Expr) (thread *ast.Ident, lb source.Pos, inst ast.Expr, rb source.Pos, ok bool) {
	switch x := x.(type) {
	case *ast.Ident:
		return x, source.NoPos, nil, source.NoPos, true
	case *ast.IndexExpr:
		if id, isID := x.X.(*ast.Ident); isID {
			return id, x.Lbrack, x.Index, x.Rbrack, true
		}
	}
	return nil, source.NoPos, nil, source.NoPos, false
}

func (p *parser) parseOperand() ast.Expr {
	pos := p.pos
	switch p.tok {
	case token.IDENT:
		id := p.parseIdent()
		if p.tok != token.LPAREN {
			return id
		}
		lp := p.pos
		p.next()
		x := p.parseExpr()
		return &ast.ConvExpr{Type: id, Lparen: lp, X: x, Rparen: p.expect(token.RPAREN)}
	case token.INT, token.TRUE, token.FALSE, token.NULL:
		lit := p.lit
		if p.tok != token.INT {
			lit = p.tok.String()
		}
		x := &ast.BasicLit{ValuePos: pos, Kind: p.tok, Value: lit}
		p.next()
		return x
	case token.LPAREN:
		p.next()
		x := p.parseExpr()
		return &ast.ParenExpr{Lparen: pos, X: x, Rparen: p.expect(token.RPAREN)}
	case token.LOCKAVAILABLE, token.HASLOCK, token.WASNOTIFIED, token.THREADTERMINATED:
		op := p.tok
		p.next()
		lp := p.expect(token.LPAREN)
		x := p.parseExpr()
		return &ast.BuiltinExpr{OpPos: pos, Op: op, Lparen: lp, X: x, Rparen: p.expect(token.RPAREN)}
	case token.STRING:
		p.errorAt(pos, "string literals are allowed only in println")
		p.next()
		return &ast.BadExpr{From: pos, To: p.pos}
	}
	p.errorExpected(pos, "expression")
	switch p.tok {
	case token.SEMICOLON, token.RBRACE, token.RPAREN, token.RBRACK, token.EOF, token.DO, token.GOTO,
		token.WHEN, token.LOC, token.END, token.COMMA:
		// leave the token for the caller to resynchronise on
	default:
		p.next()
	}
	return &ast.BadExpr{From: pos, To: p.pos}
}

// ---------------------------------------------------------------------------
// Predicates and properties

func (p *parser) parsePredicates() *ast.PredicatesSection {
	s := &ast.PredicatesSection{KwPos: p.expect(token.PREDICATES)}
	p.props = true
	defer func() { p.props = false }()
	for !p.sectionEnd() {
		start := p.pos
		if p.tok != token.IDENT {
			p.errorExpected(p.pos, "predicate name or end")
			p.syncItem(start)
			continue
		}
		nerr := len(p.errors)
		d := &ast.PredicateDecl{Name: p.parseIdent()}
		d.Assign = p.expect(token.DEFINE)
		d.Expr = p.parseExpr()
		d.Semi = p.expectSemi()
		s.Predicates = append(s.Predicates, d)
		if len(p.errors) > nerr && p.prevTok != token.SEMICOLON {
			p.syncItem(start)
		}
	}
	return s
}

func (p *parser) parseProperties() *ast.PropertiesSection {
	s := &ast.PropertiesSection{KwPos: p.expect(token.PROPERTIES)}
	p.props = true
	defer func() { p.props, p.ltl = false, false }()
	for !p.sectionEnd() {
		start := p.pos
		if p.tok != token.INVARIANT && p.tok != token.LTL {
			p.errorExpected(p.pos, "invariant, ltl or end")
			p.syncItem(start)
			continue
		}
		nerr := len(p.errors)
		d := &ast.PropertyDecl{KwPos: p.pos, Kind: p.tok}
		p.next()
		d.Name = p.parseIdent()
		d.Colon = p.expect(token.COLON)
		p.ltl = d.Kind == token.LTL
		d.Expr = p.parseExpr()
		p.ltl = false
		d.Semi = p.expectSemi()
		s.Properties = append(s.Properties, d)
		if len(p.errors) > nerr && p.prevTok != token.SEMICOLON {
			p.syncItem(start)
		}
	}
	return s
}

// sectionEnd reports whether the current token ends a predicates or
// properties section.
func (p *parser) sectionEnd() bool {
	switch p.tok {
	case token.END, token.EOF, token.PREDICATES, token.PROPERTIES:
		return true
	}
	return false
}

// syncItem skips past the next ';' (or to end) inside a predicates or
// properties section.
func (p *parser) syncItem(start source.Pos) {
	for !p.sectionEnd() {
		if p.tok == token.INVARIANT || p.tok == token.LTL {
			if p.pos != start {
				return
			}
		}
		if p.tok == token.SEMICOLON {
			p.next()
			return
		}
		p.next()
	}
}
