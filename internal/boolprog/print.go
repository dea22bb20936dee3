package boolprog

import (
	"bytes"
	"fmt"
	"io"
	"strings"
)

// Fprint writes prog in the dialect Parse reads: one statement a line, four
// spaces of indentation a level, `!`, `&`, `|` for the operators and T and F
// for the constants, parentheses only where the tree needs them. Parsing the
// output gives prog back (positions aside). An empty statement list, which
// Parse never produces, is printed as `skip;`.
func Fprint(w io.Writer, prog *Program) error {
	pr := &printer{}
	for _, d := range prog.Globals {
		pr.decl(d)
	}
	for i, p := range prog.Procs {
		if i > 0 || len(prog.Globals) > 0 {
			pr.buf.WriteByte('\n')
		}
		pr.proc(p)
	}
	_, err := w.Write(pr.buf.Bytes())
	return err
}

// String returns prog as Fprint writes it.
func String(prog *Program) string {
	var b strings.Builder
	Fprint(&b, prog)
	return b.String()
}

// ExprString returns e as printed.
func ExprString(e Expr) string {
	pr := &printer{}
	pr.expr(e, 0)
	return pr.buf.String()
}

// StmtHeader returns the first line of s as printed, without indentation:
// the whole statement for simple ones, `if (e) then` or `while (e) do` for
// compound ones. Labels are left out. Trails use it to name a statement.
func StmtHeader(s Stmt) string {
	pr := &printer{}
	for {
		l, ok := s.(*LabeledStmt)
		if !ok {
			break
		}
		s = l.Stmt
	}
	switch s := s.(type) {
	case *IfStmt:
		pr.buf.WriteString("if (")
		pr.expr(s.Cond, 0)
		pr.buf.WriteString(") then")
	case *WhileStmt:
		pr.buf.WriteString("while (")
		pr.expr(s.Cond, 0)
		pr.buf.WriteString(") do")
	default:
		pr.stmt(s)
		return strings.TrimSpace(pr.buf.String())
	}
	return pr.buf.String()
}

type printer struct {
	buf    bytes.Buffer
	indent int
}

func (pr *printer) line(format string, args ...any) {
	for i := 0; i < pr.indent; i++ {
		pr.buf.WriteString("    ")
	}
	fmt.Fprintf(&pr.buf, format, args...)
	pr.buf.WriteByte('\n')
}

func names(list []*Ident) string {
	s := make([]string, len(list))
	for i, x := range list {
		s[i] = x.Name
	}
	return strings.Join(s, ", ")
}

func (pr *printer) exprs(list []Expr) string {
	s := make([]string, len(list))
	for i, e := range list {
		s[i] = ExprString(e)
	}
	return strings.Join(s, ", ")
}

func (pr *printer) decl(d *Decl) { pr.line("decl %s;", names(d.Names)) }

func (pr *printer) proc(p *Proc) {
	typ := "void"
	switch {
	case p.Returns == 1:
		typ = "bool"
	case p.Returns > 1:
		typ = fmt.Sprintf("bool<%d>", p.Returns)
	}
	pr.line("%s %s(%s) begin", typ, p.Name.Name, names(p.Params))
	pr.indent++
	for _, d := range p.Locals {
		pr.decl(d)
	}
	if p.Enforce != nil {
		pr.line("enforce %s;", ExprString(p.Enforce))
	}
	pr.stmts(p.Body)
	pr.indent--
	pr.line("end")
}

func (pr *printer) stmts(list []Stmt) {
	if len(list) == 0 {
		pr.line("skip;")
	}
	for _, s := range list {
		pr.stmt(s)
	}
}

func (pr *printer) stmt(s Stmt) {
	switch s := s.(type) {
	case *SkipStmt:
		pr.line("skip;")
	case *AssignStmt:
		pr.line("%s := %s;", names(s.Lhs), pr.exprs(s.Rhs))
	case *CallStmt:
		call := fmt.Sprintf("%s(%s);", s.Proc.Name, pr.exprs(s.Args))
		if len(s.Lhs) > 0 {
			call = names(s.Lhs) + " := " + call
		}
		pr.line("%s", call)
	case *AssumeStmt:
		pr.line("assume(%s);", ExprString(s.Cond))
	case *AssertStmt:
		pr.line("assert(%s);", ExprString(s.Cond))
	case *GotoStmt:
		pr.line("goto %s;", names(s.Targets))
	case *ReturnStmt:
		if len(s.Results) == 0 {
			pr.line("return;")
		} else {
			pr.line("return %s;", pr.exprs(s.Results))
		}
	case *IfStmt:
		pr.line("if (%s) then", ExprString(s.Cond))
		pr.ifRest(s)
	case *WhileStmt:
		pr.line("while (%s) do", ExprString(s.Cond))
		pr.indent++
		pr.stmts(s.Body)
		pr.indent--
		pr.line("od")
	case *LabeledStmt:
		pr.indent--
		if pr.indent < 0 {
			pr.indent = 0
		}
		pr.line("%s:", s.Label.Name)
		pr.indent++
		pr.stmt(s.Stmt)
	default:
		panic(fmt.Sprintf("boolprog: unexpected statement %T", s))
	}
}

// ifRest prints the branches of s and the closing fi.
func (pr *printer) ifRest(s *IfStmt) {
	pr.indent++
	pr.stmts(s.Then)
	pr.indent--
	if len(s.Else) == 1 {
		if e, ok := s.Else[0].(*IfStmt); ok && e.Elsif {
			pr.line("elsif (%s) then", ExprString(e.Cond))
			pr.ifRest(e)
			return
		}
	}
	if s.Else != nil {
		pr.line("else")
		pr.indent++
		pr.stmts(s.Else)
		pr.indent--
	}
	pr.line("fi")
}

// Binding levels: => 1, | 2, ^ 3, & 4, = and != 5, ! 6, primaries 7.
func exprLevel(e Expr) int {
	switch e := e.(type) {
	case *Binary:
		return level(e.Op)
	case *Unary:
		return 6
	}
	return 7
}

// expr prints e, in parentheses when it binds looser than min.
func (pr *printer) expr(e Expr, min int) {
	if exprLevel(e) < min {
		pr.buf.WriteByte('(')
		defer pr.buf.WriteByte(')')
	}
	switch e := e.(type) {
	case *Ident:
		pr.buf.WriteString(e.Name)
	case *Const:
		if e.Value {
			pr.buf.WriteByte('T')
		} else {
			pr.buf.WriteByte('F')
		}
	case *Nondet:
		pr.buf.WriteByte('*')
	case *Choose:
		pr.buf.WriteString("schoose[")
		pr.expr(e.True, 0)
		pr.buf.WriteString(", ")
		pr.expr(e.False, 0)
		pr.buf.WriteByte(']')
	case *Unary:
		pr.buf.WriteByte('!')
		pr.expr(e.X, 6)
	case *Binary:
		l := level(e.Op)
		pr.expr(e.X, l)
		pr.buf.WriteString(" " + e.Op.String() + " ")
		pr.expr(e.Y, l+1)
	default:
		panic(fmt.Sprintf("boolprog: unexpected expression %T", e))
	}
}
