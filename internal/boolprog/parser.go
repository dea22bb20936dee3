package boolprog

import (
	"fmt"
	"math"
	"strconv"

	"birch/internal/source"
)

// MaxErrors is how many syntax errors Parse reports before it stops.
const MaxErrors = 10

// MaxReturns bounds k in `bool<k>`.
const MaxReturns = 64

// MaxNesting bounds the depth of an expression tree (a chain a & b & c
// counts one level per operator) and the nesting of statements, so that no
// input exhausts the stack of the parser or of the passes after it.
const MaxNesting = 10000

// Parse parses src, the text of the boolean program filename, adding the file
// to fset. It returns the program it could build (partial when there are
// errors) and a source.ErrorList of positioned syntax errors, or nil. Parse
// stops after MaxErrors errors. Names and arities are checked by Check.
func Parse(fset *source.FileSet, filename string, src []byte) (*Program, error) {
	p := &parser{file: fset.AddFile(filename, src), src: src}
	if len(src) > math.MaxInt32 {
		p.errorAt(0, "file too large")
		return &Program{Filename: filename}, p.errs.Err()
	}
	sc := &scanner{file: p.file, src: src}
	sc.errf = func(off int, msg string) { p.errorAt(off, msg) }
	prog := &Program{Filename: filename}
	for {
		t, off := sc.next()
		p.toks = append(p.toks, token{t, int32(off), int32(sc.off)})
		if t == tEOF {
			break
		}
	}
	p.guard(func() { p.parseProgram(prog) }, func(tok) bool { return false })
	p.errs.RemoveMultiples()
	return prog, p.errs.Err()
}

// token is one token: its kind and where it starts and ends in the source.
type token struct {
	t        tok
	off, end int32
}

type parser struct {
	file *source.File
	src  []byte
	toks []token
	i    int
	errs source.ErrorList
	// depth is the depth of the expression the expression parser last
	// returned; nesting is the current statement nesting.
	depth   int
	nesting int
	open    int // unfinished !, ( and schoose the expression parser is inside
	bailed  bool
}

// enter counts one more open !, ( or schoose at off, and reports one too
// many before the parser recurses into it. The caller defers p.open--.
func (p *parser) enter(off int) {
	p.open++
	if p.open > MaxNesting {
		p.deep(off, "expression")
	}
}

// deep reports an expression or statement nested deeper than MaxNesting at
// off and abandons the construct.
func (p *parser) deep(off int, what string) {
	p.errorAt(off, fmt.Sprintf("%s nested too deeply (more than %d levels)", what, MaxNesting))
	panic(syncErr{})
}

// syncErr abandons the current statement or declaration; it does not
// leave Parse.
type syncErr struct{}

// errorAt records an error. After MaxErrors errors the parser bails out:
// it records no more and sees the end of the file from then on, so that
// every construct ends at once, without a chain of panics.
func (p *parser) errorAt(off int, msg string) {
	if p.bailed {
		return
	}
	p.errs.Add(p.file.Position(p.file.Pos(off)), msg)
	if len(p.errs) >= MaxErrors {
		p.bailed = true
	}
}

// text returns the current token's text.
func (p *parser) text() string {
	t := p.toks[p.i]
	return string(p.src[t.off:t.end])
}

func (p *parser) tok() tok {
	if p.bailed {
		return tEOF
	}
	return p.toks[p.i].t
}
func (p *parser) pos() source.Pos { return p.file.Pos(int(p.toks[p.i].off)) }
func (p *parser) peek(k int) tok {
	if p.i+k < len(p.toks) && !p.bailed {
		return p.toks[p.i+k].t
	}
	return tEOF
}

func (p *parser) advance() {
	if p.toks[p.i].t != tEOF {
		p.i++
	}
}

func (p *parser) found() string {
	t := p.toks[p.i]
	switch t.t {
	case tIdent, tInt:
		return fmt.Sprintf("%s %s", t.t, p.text())
	case tIllegal:
		return fmt.Sprintf("illegal character %q", p.text())
	}
	return t.t.String()
}

// fail reports "expected what, found ..." at the current token and abandons
// the current construct.
func (p *parser) fail(what string) {
	p.errorAt(int(p.toks[p.i].off), "expected "+what+", found "+p.found())
	panic(syncErr{})
}

func (p *parser) expect(t tok) source.Pos {
	pos := p.pos()
	if p.tok() != t {
		p.fail(t.String())
	}
	p.advance()
	return pos
}

func (p *parser) ident() *Ident {
	if p.tok() != tIdent {
		p.fail("name")
	}
	x := &Ident{NamePos: p.pos(), Name: p.text()}
	p.advance()
	return x
}

func (p *parser) identList() []*Ident {
	list := []*Ident{p.ident()}
	for p.tok() == tComma {
		p.advance()
		list = append(list, p.ident())
	}
	return list
}

// guard runs f; a syncErr inside it skips tokens up to a stopping point.
// stop reports the tokens at which skipping ends without consuming them; a
// ';' ends it and is consumed.
func (p *parser) guard(f func(), stop func(tok) bool) {
	start := p.i
	defer func() {
		if r := recover(); r != nil {
			if _, ok := r.(syncErr); !ok {
				panic(r)
			}
			if p.i == start && p.tok() != tEOF {
				p.advance() // always make progress
			}
			for {
				t := p.tok()
				if t == tEOF || stop(t) {
					return
				}
				p.advance()
				if t == tSemi {
					return
				}
			}
		}
	}()
	f()
}

func topStop(t tok) bool { return t == kwBool || t == kwVoid || t == kwDecl }

func stmtStop(t tok) bool {
	switch t {
	case kwEnd, kwFi, kwOd, kwElse, kwElsif, kwIf, kwWhile, kwSkip, kwGoto, kwReturn,
		kwAssert, kwAssume, kwBool, kwVoid:
		return true
	}
	return false
}

func (p *parser) parseProgram(prog *Program) {
	for p.tok() == kwDecl {
		p.guard(func() { prog.Globals = append(prog.Globals, p.parseDecl()) }, topStop)
	}
	for p.tok() != tEOF {
		p.guard(func() {
			if p.tok() == kwDecl {
				p.errorAt(int(p.toks[p.i].off), "global declarations must come before the procedures")
				p.parseDecl()
				return
			}
			prog.Procs = append(prog.Procs, p.parseProc())
		}, topStop)
	}
}

func (p *parser) parseDecl() *Decl {
	d := &Decl{Decl: p.expect(kwDecl)}
	d.Names = p.identList()
	p.expect(tSemi)
	return d
}

func (p *parser) parseProc() *Proc {
	pr := &Proc{Type: p.pos()}
	switch p.tok() {
	case kwVoid:
		p.advance()
	case kwBool:
		p.advance()
		pr.Returns = 1
		if p.tok() == tLess {
			p.advance()
			if p.tok() != tInt {
				p.fail("number of return values")
			}
			k, err := strconv.Atoi(p.text())
			if err != nil || k > MaxReturns {
				p.errorAt(int(p.toks[p.i].off), fmt.Sprintf("at most %d return values are supported", MaxReturns))
				k = MaxReturns
			}
			pr.Returns = k
			p.advance()
			p.expect(tGreater)
		}
	default:
		p.fail("procedure (bool or void)")
	}
	pr.Name = p.ident()
	p.expect(tLparen)
	if p.tok() != tRparen {
		pr.Params = p.identList()
	}
	p.expect(tRparen)
	p.expect(kwBegin)
	for p.tok() == kwDecl {
		p.guard(func() { pr.Locals = append(pr.Locals, p.parseDecl()) }, stmtStop)
	}
	if p.tok() == kwEnforce {
		p.guard(func() {
			p.advance()
			pr.Enforce = p.parseExpr()
			p.expect(tSemi)
		}, stmtStop)
	}
	pr.Body = p.parseStmtList()
	pr.EndPos = p.expect(kwEnd)
	return pr
}

// parseStmtList parses statements up to end, fi, od, else or elsif; the
// list may not be empty.
func (p *parser) parseStmtList() []Stmt {
	var list []Stmt
	tried := false // a statement was seen, possibly with errors
	for {
		switch p.tok() {
		case kwEnd, kwFi, kwOd, kwElse, kwElsif, tEOF:
			if !tried {
				p.errorAt(int(p.toks[p.i].off), "expected statement, found "+p.found())
			}
			return list
		case kwBool, kwVoid:
			p.fail("end") // a procedure header: the enclosing procedure was not closed
		}
		tried = true
		p.guard(func() { list = append(list, p.parseStmt()) }, stmtStop)
	}
}

func (p *parser) parseStmt() Stmt {
	pos := p.pos()
	p.nesting++
	defer func() { p.nesting-- }()
	if p.nesting > MaxNesting {
		p.deep(int(p.toks[p.i].off), "statement")
	}
	switch p.tok() {
	case kwSkip:
		p.advance()
		p.expect(tSemi)
		return &SkipStmt{Skip: pos}
	case kwGoto:
		p.advance()
		s := &GotoStmt{Goto: pos, Targets: p.identList()}
		p.expect(tSemi)
		return s
	case kwReturn:
		p.advance()
		s := &ReturnStmt{Return: pos}
		if p.tok() != tSemi {
			s.Results = p.parseExprList()
		}
		p.expect(tSemi)
		return s
	case kwAssert, kwAssume:
		t := p.tok()
		p.advance()
		p.expect(tLparen)
		cond := p.parseExpr()
		p.expect(tRparen)
		p.expect(tSemi)
		if t == kwAssert {
			return &AssertStmt{Assert: pos, Cond: cond}
		}
		return &AssumeStmt{Assume: pos, Cond: cond}
	case kwIf:
		p.advance()
		s := p.parseIfRest(pos, false)
		p.optionalSemi()
		return s
	case kwWhile:
		p.advance()
		p.expect(tLparen)
		s := &WhileStmt{While: pos, Cond: p.parseExpr()}
		p.expect(tRparen)
		p.expect(kwDo)
		s.Body = p.parseStmtList()
		p.expect(kwOd)
		p.optionalSemi()
		return s
	case tIdent:
		switch p.peek(1) {
		case tColon:
			label := p.ident()
			p.advance()
			return &LabeledStmt{Label: label, Stmt: p.parseStmt()}
		case tLparen:
			s := p.parseCall(nil)
			p.expect(tSemi)
			return s
		}
		lhs := p.identList()
		assign := p.expect(tAssign)
		if p.tok() == tIdent && p.peek(1) == tLparen {
			s := p.parseCall(lhs)
			p.expect(tSemi)
			return s
		}
		s := &AssignStmt{Lhs: lhs, Assign: assign, Rhs: p.parseExprList()}
		p.expect(tSemi)
		return s
	}
	p.fail("statement")
	return nil
}

// optionalSemi skips a ';' after fi or od, which some writers add.
func (p *parser) optionalSemi() {
	if p.tok() == tSemi {
		p.advance()
	}
}

// parseIfRest parses what follows `if` or `elsif`, up to and including `fi`.
func (p *parser) parseIfRest(pos source.Pos, elsif bool) *IfStmt {
	p.expect(tLparen)
	s := &IfStmt{If: pos, Elsif: elsif, Cond: p.parseExpr()}
	p.expect(tRparen)
	p.expect(kwThen)
	s.Then = p.parseStmtList()
	switch p.tok() {
	case kwElse:
		p.advance()
		s.Else = p.parseStmtList()
		p.expect(kwFi)
	case kwElsif:
		epos := p.pos()
		p.advance()
		s.Else = []Stmt{p.parseIfRest(epos, true)}
	default:
		p.expect(kwFi)
	}
	return s
}

func (p *parser) parseCall(lhs []*Ident) *CallStmt {
	s := &CallStmt{Lhs: lhs, Proc: p.ident(), Lparen: p.expect(tLparen)}
	if p.tok() != tRparen {
		s.Args = p.parseExprList()
	}
	p.expect(tRparen)
	return s
}

func (p *parser) parseExprList() []Expr {
	list := []Expr{p.parseExpr()}
	for p.tok() == tComma {
		p.advance()
		list = append(list, p.parseExpr())
	}
	return list
}

// Expressions, loosest first: =>, |, ^, &, = and !=, then ! and primaries.

func (p *parser) parseExpr() Expr { return p.parseBinary(Implies) }

var tokOp = map[tok]Op{tImplies: Implies, tOr: Or, tXor: Xor, tAnd: And, tEq: Eq, tNeq: Neq}

func level(op Op) int {
	if op == Neq {
		return int(Eq)
	}
	return int(op)
}

func (p *parser) parseBinary(lvl Op) Expr {
	if lvl > Eq {
		return p.parseUnary()
	}
	x := p.parseBinary(lvl + 1)
	for {
		op, ok := tokOp[p.tok()]
		if !ok || level(op) != int(lvl) {
			return x
		}
		dx := p.depth
		pos := p.pos()
		p.advance()
		x = &Binary{X: x, OpPos: pos, Op: op, Y: p.parseBinary(lvl + 1)}
		p.setDepth(max(dx, p.depth)+1, pos)
	}
}

func (p *parser) setDepth(d int, pos source.Pos) {
	p.depth = d
	if d > MaxNesting {
		p.deep(p.file.Offset(pos), "expression")
	}
}

func (p *parser) parseUnary() Expr {
	if p.tok() == tNot {
		pos := p.pos()
		p.enter(int(p.toks[p.i].off))
		defer func() { p.open-- }()
		p.advance()
		x := &Unary{OpPos: pos, X: p.parseUnary()}
		p.setDepth(p.depth+1, pos)
		return x
	}
	return p.parsePrimary()
}

func (p *parser) parsePrimary() Expr {
	pos := p.pos()
	switch p.tok() {
	case tIdent:
		p.depth = 1
		x := p.ident()
		switch x.Name {
		case "T":
			return &Const{ValuePos: pos, Value: true}
		case "F":
			return &Const{ValuePos: pos, Value: false}
		}
		return x
	case tInt:
		p.depth = 1
		text := p.text()
		if text != "0" && text != "1" {
			p.errorAt(int(p.toks[p.i].off), "boolean constants are 0 and 1 (and T and F), found "+text)
		}
		p.advance()
		return &Const{ValuePos: pos, Value: text != "0"}
	case tLparen:
		p.enter(int(p.toks[p.i].off))
		defer func() { p.open-- }()
		p.advance()
		x := p.parseExpr()
		p.setDepth(p.depth+1, pos) // the parser recursed for the parentheses
		p.expect(tRparen)
		return x
	case tStar:
		p.depth = 1
		p.advance()
		return &Nondet{Star: pos}
	case kwSchoose:
		p.enter(int(p.toks[p.i].off))
		defer func() { p.open-- }()
		p.advance()
		p.expect(tLbrack)
		c := &Choose{Schoose: pos, True: p.parseExpr()}
		dt := p.depth
		p.expect(tComma)
		c.False = p.parseExpr()
		p.setDepth(max(dt, p.depth)+1, pos)
		p.expect(tRbrack)
		return c
	}
	p.fail("expression")
	return nil
}
