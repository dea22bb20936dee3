package basl

import (
	"fmt"

	"birch/internal/source"
)

// Mode controls optional parser behaviour; the zero value works.
type Mode uint

const (
	// AllErrors reports every error instead of stopping after 10.
	AllErrors Mode = 1 << iota
)

const (
	maxErrors  = 10
	maxNesting = 200
)

// ParseFile parses a BASL source registered in fset under filename. It
// always returns a non-nil *File, partial after errors; err is a sorted
// source.ErrorList or nil. Errors read "expected X, found Y"; after one the
// parser skips to the next case, rule or section, keeps at most one error
// per line and stops after 10 unless AllErrors is set.
func ParseFile(fset *source.FileSet, filename string, src []byte, mode Mode) (f *File, err error) {
	p := &parser{fset: fset, mode: mode}
	p.file = fset.AddFile(filename, src)
	p.sc.init(p.file, src, p.errorAt)
	f = &File{Name: filename}
	defer func() {
		if r := recover(); r != nil {
			if _, ok := r.(bailout); !ok {
				panic(r)
			}
		}
		p.errors.Sort()
		err = p.errors.Err()
	}()
	p.next()
	for p.tok != EOF {
		if p.isKeyword("abstraction") {
			f.Abstractions = append(f.Abstractions, p.parseAbstraction())
			continue
		}
		p.errorExpected(p.pos, "abstraction")
		for p.tok != EOF && !p.isKeyword("abstraction") {
			p.next()
		}
	}
	if len(f.Abstractions) == 0 && len(p.errors) == 0 {
		p.errorAt(p.pos, "expected abstraction, found end of file")
	}
	return f, nil
}

// ParseExpr parses one condition expression (for tests and tools);
// positions refer to a file named "expr".
func ParseExpr(src string) (Expr, error) {
	fset := source.NewFileSet()
	p := &parser{fset: fset}
	p.file = fset.AddFile("expr", []byte(src))
	p.sc.init(p.file, []byte(src), p.errorAt)
	var x Expr = &Bad{}
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
		if p.tok != EOF {
			p.errorExpected(p.pos, "end of expression")
		}
	}()
	p.errors.Sort()
	return x, p.errors.Err()
}

type bailout struct{}

type parser struct {
	fset   *source.FileSet
	file   *source.File
	sc     scanner
	mode   Mode
	errors source.ErrorList

	pos     source.Pos
	tok     Kind
	lit     string
	prevEnd source.Pos // end of the previous token
	nesting int
	failed  int // errors seen, including those not reported
}

func (p *parser) next() {
	if p.pos.IsValid() {
		p.prevEnd = p.pos + source.Pos(p.tokLen())
	}
	p.pos, p.tok, p.lit = p.sc.scan()
}

func (p *parser) tokLen() int {
	switch p.tok {
	case IDENT, INT, ILLEGAL:
		return len(p.lit)
	case EOF:
		return 0
	}
	return len(p.tok.String())
}

func (p *parser) errorAt(pos source.Pos, msg string) {
	p.failed++
	position := p.fset.Position(pos)
	if n := len(p.errors); n > 0 {
		last := p.errors[n-1].Pos
		if last.Line == position.Line || position.Offset < last.Offset {
			return
		}
	}
	p.errors.Add(position, msg)
	if p.mode&AllErrors == 0 && len(p.errors) >= maxErrors {
		panic(bailout{})
	}
}

func (p *parser) describe() string {
	switch p.tok {
	case IDENT:
		return "name " + p.lit
	case INT:
		return "number " + p.lit
	case EOF:
		return "end of file"
	case ILLEGAL:
		return fmt.Sprintf("%q", p.lit)
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

func (p *parser) isKeyword(kw string) bool { return p.tok == IDENT && p.lit == kw }

// expect consumes a token of kind k or reports it missing.
func (p *parser) expect(k Kind) source.Pos {
	pos := p.pos
	if p.tok != k {
		p.errorExpected(pos, "'"+k.String()+"'")
		return pos
	}
	p.next()
	return pos
}

// expectSemi reports a missing ';' just after the previous token.
func (p *parser) expectSemi() {
	if p.tok == SEMI {
		p.next()
		return
	}
	p.errorAt(p.prevEnd, "expected ';', found "+p.describe())
}

func (p *parser) expectKeyword(kw string) bool {
	if p.isKeyword(kw) {
		p.next()
		return true
	}
	p.errorExpected(p.pos, kw)
	return false
}

func (p *parser) got(k Kind) bool {
	if p.tok == k {
		p.next()
		return true
	}
	return false
}

func (p *parser) parseIdent() *Ident {
	id := &Ident{Pos: p.pos}
	if p.tok == IDENT {
		id.Name = p.lit
		p.next()
	} else {
		p.errorExpected(p.pos, "name")
		id.Name = "_"
	}
	return id
}

// sectionStart reports whether the current token begins a section of an
// abstraction (or ends it), where the parser resynchronizes after errors.
func (p *parser) sectionStart() bool {
	if p.tok != IDENT {
		return p.tok == EOF
	}
	switch p.lit {
	case "TOKENS", "DEFAULT", "ONE2ONE", "abstract", "operator", "test", "end", "abstraction":
		return true
	}
	return false
}

// skipToSection skips tokens until a section keyword.
func (p *parser) skipToSection() {
	for !p.sectionStart() {
		p.next()
	}
}

func (p *parser) parseAbstraction() *Abstraction {
	a := &Abstraction{Pos: p.pos}
	p.next() // abstraction
	a.Name = p.parseIdent()
	switch {
	case p.isKeyword("abstracts"):
		p.next()
	case p.isKeyword("extends"):
		a.Extends = true
		p.next()
	default:
		p.errorExpected(p.pos, "abstracts or extends")
	}
	a.Type = p.parseIdent()
	if !p.expectKeyword("begin") {
		p.skipToSection()
	}
	for {
		switch {
		case p.tok == EOF:
			p.errorExpected(p.pos, "end")
			a.End = p.pos
			return a
		case p.isKeyword("end"):
			a.End = p.pos
			p.next()
			p.got(SEMI)
			return a
		case p.isKeyword("abstraction"):
			p.errorExpected(p.pos, "end")
			a.End = p.pos
			return a
		case p.isKeyword("TOKENS"):
			if a.TokensPos.IsValid() {
				p.errorAt(p.pos, "TOKENS declared twice")
			}
			a.TokensPos = p.pos
			a.Tokens = p.parseSetSection()
		case p.isKeyword("DEFAULT"):
			if a.Default != nil {
				p.errorAt(p.pos, "DEFAULT declared twice")
			}
			p.next()
			p.expect(ASSIGN)
			a.Default = p.parseIdent()
			p.expectSemi()
		case p.isKeyword("ONE2ONE"):
			if a.One2OnePos.IsValid() {
				p.errorAt(p.pos, "ONE2ONE declared twice")
			}
			a.One2OnePos = p.pos
			a.One2One = p.parseSetSection()
		case p.isKeyword("abstract"):
			if a.Func != nil {
				p.errorAt(p.pos, "abstraction function defined twice")
			}
			a.Func = p.parseFunc()
		case p.isKeyword("operator"), p.isKeyword("test"):
			t := p.parseTable()
			if t.Test {
				a.Tests = append(a.Tests, t)
			} else {
				a.Operators = append(a.Operators, t)
			}
		default:
			p.errorExpected(p.pos, "TOKENS, DEFAULT, ONE2ONE, abstract, operator, test or end")
			p.next()
			p.skipToSection()
		}
	}
}

// parseSetSection parses `KEYWORD = { A, B, … };`.
func (p *parser) parseSetSection() []*Ident {
	p.next() // TOKENS or ONE2ONE
	p.expect(ASSIGN)
	var ids []*Ident
	if p.tok != LBRACE {
		p.errorExpected(p.pos, "'{'")
		p.skipToSection()
		return nil
	}
	p.next()
	for p.tok != RBRACE && p.tok != EOF && !p.sectionStart() {
		ids = append(ids, p.parseIdent())
		if !p.got(COMMA) {
			break
		}
	}
	if p.tok != RBRACE {
		p.errorExpected(p.pos, "',' or '}'")
		p.skipToSection()
		return ids
	}
	p.next()
	p.expectSemi()
	return ids
}

// parseBlockItems parses `begin ITEM; … end`, calling item for each item;
// after an error in an item it skips to the next ';' or end.
func (p *parser) parseBlock(item func()) {
	if !p.expectKeyword("begin") {
		p.skipToSection()
		if !p.isKeyword("end") {
			return
		}
	}
	for !p.isKeyword("end") {
		if p.tok == EOF || p.sectionStart() {
			p.errorExpected(p.pos, "end")
			return
		}
		n := p.failed
		item()
		if p.failed > n {
			for p.tok != SEMI && p.tok != EOF && !p.isKeyword("end") {
				p.next()
			}
			p.got(SEMI)
		}
	}
	p.next() // end
	p.got(SEMI)
}

func (p *parser) parseFunc() *Func {
	fn := &Func{Pos: p.pos}
	p.next() // abstract
	p.expect(LPAREN)
	fn.Param = p.parseIdent()
	p.expect(RPAREN)
	p.parseBlock(func() {
		r := &Rule{Cond: p.parseExpr()}
		r.Arrow = p.expect(ARROW)
		if p.tok == LBRACE {
			p.next()
			r.Token = p.parseIdent()
			p.expect(RBRACE)
		} else {
			r.Token = p.parseIdent()
		}
		p.expectSemi()
		fn.Rules = append(fn.Rules, r)
	})
	return fn
}

var operatorKinds = map[Kind]bool{ADD: true, SUB: true, MUL: true, QUO: true, REM: true}
var testKinds = map[Kind]bool{EQL: true, NEQ: true, LSS: true, LEQ: true, GTR: true, GEQ: true}

func (p *parser) parseTable() *Table {
	t := &Table{Pos: p.pos, Test: p.lit == "test"}
	p.next() // operator or test
	t.OpPos = p.pos
	t.Op = p.tok
	switch {
	case !t.Test && operatorKinds[p.tok]:
		p.next()
	case t.Test && testKinds[p.tok]:
		p.next()
	case t.Test:
		p.errorExpected(p.pos, "a test (== != < <= > >=)")
		p.skipToSection()
		return t
	default:
		p.errorExpected(p.pos, "an operator (+ - * / %)")
		p.skipToSection()
		return t
	}
	if p.tok == IDENT && p.lit != "begin" {
		t.Name = p.parseIdent()
	}
	p.parseBlock(func() {
		c := &Case{Pos: p.pos}
		p.expect(LPAREN)
		for {
			c.Args = append(c.Args, p.parseIdent())
			if !p.got(COMMA) {
				break
			}
		}
		p.expect(RPAREN)
		p.expect(ARROW)
		c.Result = p.parseResult()
		p.expectSemi()
		t.Cases = append(t.Cases, c)
	})
	return t
}

func (p *parser) parseResult() *Result {
	r := &Result{Pos: p.pos}
	if p.tok == LBRACE {
		p.next()
		for p.tok != RBRACE && p.tok != EOF {
			id := p.parseIdent()
			if id.Name == "T" {
				r.All = true
			} else {
				r.Names = append(r.Names, id)
			}
			if !p.got(COMMA) {
				break
			}
		}
		p.expect(RBRACE)
		return r
	}
	id := p.parseIdent()
	if id.Name == "T" {
		r.All = true
	} else {
		r.Names = append(r.Names, id)
	}
	return r
}

// Expressions, with Java's precedence.

func (p *parser) parseExpr() Expr { return p.parseBinary(1) }

func (p *parser) parseBinary(prec int) Expr {
	x := p.parseUnary()
	for {
		op := p.tok
		q := precedence(op)
		if q < prec {
			return x
		}
		pos := p.pos
		p.next()
		y := p.parseBinary(q + 1)
		x = &Binary{X: x, OpPos: pos, Op: op, Y: y}
	}
}

func (p *parser) parseUnary() Expr {
	p.nesting++
	defer func() { p.nesting-- }()
	if p.nesting > maxNesting {
		p.errorAt(p.pos, "expression nested too deeply")
		panic(bailout{})
	}
	switch p.tok {
	case SUB, NOT:
		pos, op := p.pos, p.tok
		p.next()
		return &Unary{Pos: pos, Op: op, X: p.parseUnary()}
	case LPAREN:
		pos := p.pos
		p.next()
		x := p.parseExpr()
		p.expect(RPAREN)
		return &Paren{Pos: pos, X: x}
	case INT:
		x := &IntLit{Pos: p.pos, Lit: p.lit}
		p.next()
		return x
	case IDENT:
		switch p.lit {
		case "true", "false":
			x := &BoolLit{Pos: p.pos, Value: p.lit == "true"}
			p.next()
			return x
		}
		x := &Name{Ident{Pos: p.pos, Name: p.lit}}
		p.next()
		return x
	}
	pos := p.pos
	p.errorExpected(pos, "expression")
	return &Bad{Pos: pos}
}
