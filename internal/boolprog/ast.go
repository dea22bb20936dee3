package boolprog

import "birch/internal/source"

// Node is implemented by every syntax tree node.
type Node interface {
	Pos() source.Pos // first character of the node
}

// Program is a parsed boolean program: global declarations, then procedures.
type Program struct {
	Filename string  // the name given to Parse
	Globals  []*Decl // the global `decl` lines, in source order
	Procs    []*Proc // the procedures, in source order
}

// Decl is one `decl a, b, {c};` line.
type Decl struct {
	Decl  source.Pos // position of `decl`
	Names []*Ident   // len(Names) > 0 in parsed programs
}

func (d *Decl) Pos() source.Pos { return d.Decl }

// Ident is a name: a plain identifier or a braced one, `{curr == NULL}`.
// Name keeps the text as written, braces included, so that `a` and `{a}`
// are different names and printing gives back the source spelling.
type Ident struct {
	NamePos source.Pos
	Name    string
}

func (x *Ident) Pos() source.Pos { return x.NamePos }

// Proc is a procedure:
//
//	bool<2> f(a, b) begin decl t; enforce !(a & t); ... end
//
// Returns is the number of return values: 0 for `void`, 1 for `bool`, k for
// `bool<k>`. A procedure that reaches its `end` returns unconstrained values.
type Proc struct {
	Type    source.Pos // position of `void` or `bool`
	Returns int        // number of return values (>= 0)
	Name    *Ident
	Params  []*Ident // formal parameters, in order; may be empty
	Locals  []*Decl  // local `decl` lines; may be empty
	Enforce Expr     // the `enforce e;` invariant, or nil when absent
	Body    []Stmt   // len(Body) > 0 in parsed programs
	EndPos  source.Pos
}

func (p *Proc) Pos() source.Pos { return p.Type }

// ---------------------------------------------------------------------------
// Statements

// Stmt is a statement: *SkipStmt, *AssignStmt, *CallStmt, *AssumeStmt,
// *AssertStmt, *GotoStmt, *ReturnStmt, *IfStmt, *WhileStmt or *LabeledStmt.
// The set is closed.
type Stmt interface {
	Node
	stmtNode()
}

// SkipStmt is `skip;`.
type SkipStmt struct {
	Skip source.Pos
}

// AssignStmt is a parallel assignment `a, b := e1, e2;`: every right-hand
// side is evaluated in the state before the statement. len(Lhs) ==
// len(Rhs) in checked programs; the names are distinct.
type AssignStmt struct {
	Lhs    []*Ident
	Assign source.Pos // position of ":="
	Rhs    []Expr
}

// CallStmt is `f(e1, e2);` or, with results, `a, b := f(e1, e2);`.
// Lhs is empty when the results are discarded; otherwise len(Lhs) is the
// callee's number of return values.
type CallStmt struct {
	Lhs    []*Ident // may be empty
	Proc   *Ident   // the callee
	Lparen source.Pos
	Args   []Expr // may be empty
}

// AssumeStmt is `assume(e);`: executions in which e is false stop here.
type AssumeStmt struct {
	Assume source.Pos
	Cond   Expr
}

// AssertStmt is `assert(e);`: an execution reaching it with e false is a
// violation.
type AssertStmt struct {
	Assert source.Pos
	Cond   Expr
}

// GotoStmt is `goto L1, L2;`: a jump to any one of the labels.
type GotoStmt struct {
	Goto    source.Pos
	Targets []*Ident // len(Targets) > 0 in parsed programs
}

// ReturnStmt is `return;` or `return e1, e2;`.
type ReturnStmt struct {
	Return  source.Pos
	Results []Expr // may be empty
}

// IfStmt is `if (e) then S1 else S2 fi` (else optional). An `elsif (e)
// then ...` is an IfStmt with Elsif set, the only statement of its parent's
// Else.
type IfStmt struct {
	If    source.Pos // position of `if` (or `elsif`)
	Cond  Expr
	Then  []Stmt
	Else  []Stmt // nil when there is no else branch
	Elsif bool   // written `elsif`
}

// WhileStmt is `while (e) do S od`.
type WhileStmt struct {
	While source.Pos
	Cond  Expr
	Body  []Stmt
}

// LabeledStmt is `L: S`. Labels are local to their procedure.
type LabeledStmt struct {
	Label *Ident
	Stmt  Stmt
}

func (s *SkipStmt) Pos() source.Pos   { return s.Skip }
func (s *AssignStmt) Pos() source.Pos { return s.Lhs[0].Pos() }
func (s *CallStmt) Pos() source.Pos {
	if len(s.Lhs) > 0 {
		return s.Lhs[0].Pos()
	}
	return s.Proc.Pos()
}
func (s *AssumeStmt) Pos() source.Pos  { return s.Assume }
func (s *AssertStmt) Pos() source.Pos  { return s.Assert }
func (s *GotoStmt) Pos() source.Pos    { return s.Goto }
func (s *ReturnStmt) Pos() source.Pos  { return s.Return }
func (s *IfStmt) Pos() source.Pos      { return s.If }
func (s *WhileStmt) Pos() source.Pos   { return s.While }
func (s *LabeledStmt) Pos() source.Pos { return s.Label.Pos() }

func (*SkipStmt) stmtNode()    {}
func (*AssignStmt) stmtNode()  {}
func (*CallStmt) stmtNode()    {}
func (*AssumeStmt) stmtNode()  {}
func (*AssertStmt) stmtNode()  {}
func (*GotoStmt) stmtNode()    {}
func (*ReturnStmt) stmtNode()  {}
func (*IfStmt) stmtNode()      {}
func (*WhileStmt) stmtNode()   {}
func (*LabeledStmt) stmtNode() {}

// ---------------------------------------------------------------------------
// Expressions

// Expr is an expression: *Ident (a variable), *Const, *Nondet, *Choose,
// *Unary or *Binary. The set is closed. An expression denotes a set of
// boolean values: each `*` and each undecided `schoose` chooses
// independently.
type Expr interface {
	Node
	exprNode()
}

// Const is T, F, 1 or 0.
type Const struct {
	ValuePos source.Pos
	Value    bool
}

// Nondet is `*` (or `?`): either value.
type Nondet struct {
	Star source.Pos
}

// Choose is `schoose[t, f]`: true when t holds, else false when f holds,
// else either value.
type Choose struct {
	Schoose source.Pos
	True    Expr
	False   Expr
}

// Unary is `!x` (also written `~x`).
type Unary struct {
	OpPos source.Pos
	X     Expr
}

// Op is a binary operator.
type Op int

// The binary operators, from the loosest binding to the tightest: => is
// left-associative, as are the others.
const (
	Implies Op = iota + 1 // =>
	Or                    // | (also ||)
	Xor                   // ^
	And                   // & (also &&)
	Eq                    // =
	Neq                   // !=
)

var opText = [...]string{Implies: "=>", Or: "|", Xor: "^", And: "&", Eq: "=", Neq: "!="}

// String returns the operator as printed.
func (op Op) String() string {
	if op >= Implies && op <= Neq {
		return opText[op]
	}
	return "?op"
}

// Binary is `x op y`.
type Binary struct {
	X     Expr
	OpPos source.Pos
	Op    Op
	Y     Expr
}

func (x *Const) Pos() source.Pos  { return x.ValuePos }
func (x *Nondet) Pos() source.Pos { return x.Star }
func (x *Choose) Pos() source.Pos { return x.Schoose }
func (x *Unary) Pos() source.Pos  { return x.OpPos }
func (x *Binary) Pos() source.Pos { return x.X.Pos() }

func (*Ident) exprNode()  {}
func (*Const) exprNode()  {}
func (*Nondet) exprNode() {}
func (*Choose) exprNode() {}
func (*Unary) exprNode()  {}
func (*Binary) exprNode() {}
