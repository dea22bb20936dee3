package basl

import "birch/internal/source"

// File is a parsed BASL file: one or more abstractions.
type File struct {
	Name         string
	Abstractions []*Abstraction
}

// Ident is a name with its position. In patterns "_" is the wildcard and
// "T" every token.
type Ident struct {
	Pos  source.Pos
	Name string
}

// Abstraction is one `abstraction NAME abstracts TYPE begin … end`.
type Abstraction struct {
	Pos     source.Pos // of the keyword abstraction
	Name    *Ident
	Extends bool   // the heading says "extends" (Bandera's library form), not "abstracts"
	Type    *Ident // the abstracted type: int, integral, …

	TokensPos source.Pos // of TOKENS; NoPos when the section is missing
	Tokens    []*Ident

	Default *Ident // nil when there is no DEFAULT section

	One2OnePos source.Pos // of ONE2ONE; NoPos when there is no such section
	One2One    []*Ident

	Func *Func // nil when there is no abstract(n) section

	Operators []*Table // `operator` sections, in source order
	Tests     []*Table // `test` sections, in source order

	End source.Pos // of the closing end
}

// Func is the abstraction function `abstract(n) begin COND -> TOKEN; … end`.
type Func struct {
	Pos   source.Pos // of the keyword abstract
	Param *Ident
	Rules []*Rule
}

// Rule is one `COND -> TOKEN;` of the abstraction function.
type Rule struct {
	Cond  Expr
	Arrow source.Pos
	Token *Ident
}

// Table is an `operator OP NAME begin … end` or `test OP NAME begin … end`
// section.
type Table struct {
	Pos   source.Pos // of the keyword operator or test
	Test  bool       // a test (results TRUE/FALSE), not an operator
	Op    Kind       // ADD … REM for operators, EQL … GEQ for tests
	OpPos source.Pos
	Name  *Ident // Bandera's method name (add, eq, …); nil when left out
	Cases []*Case
}

// Case is one `(P1, P2) -> RESULT;` of a table.
type Case struct {
	Pos    source.Pos // of the opening parenthesis
	Args   []*Ident   // patterns: token names, _ or T
	Result *Result
}

// Result is the right-hand side of a case: one name, or a set in braces,
// or T for every token.
type Result struct {
	Pos   source.Pos
	Names []*Ident // token names, or TRUE/FALSE in tests
	All   bool     // T
}

// Expr is an expression of the abstraction function: *Name, *IntLit,
// *BoolLit, *Unary, *Binary or *Paren.
type Expr interface {
	Position() source.Pos
	exprNode()
}

// Name is an identifier in an expression: the parameter of abstract(n).
type Name struct{ Ident }

// IntLit is a decimal integer literal. Lit is its text.
type IntLit struct {
	Pos source.Pos
	Lit string
}

// BoolLit is true or false.
type BoolLit struct {
	Pos   source.Pos
	Value bool
}

// Unary is -X or !X.
type Unary struct {
	Pos source.Pos
	Op  Kind // SUB or NOT
	X   Expr
}

// Binary is X op Y.
type Binary struct {
	X     Expr
	OpPos source.Pos
	Op    Kind
	Y     Expr
}

// Paren is (X).
type Paren struct {
	Pos source.Pos
	X   Expr
}

// Bad stands for an expression that could not be parsed.
type Bad struct{ Pos source.Pos }

func (x *Name) Position() source.Pos    { return x.Pos }
func (x *IntLit) Position() source.Pos  { return x.Pos }
func (x *BoolLit) Position() source.Pos { return x.Pos }
func (x *Unary) Position() source.Pos   { return x.Pos }
func (x *Binary) Position() source.Pos  { return x.X.Position() }
func (x *Paren) Position() source.Pos   { return x.Pos }
func (x *Bad) Position() source.Pos     { return x.Pos }

func (*Name) exprNode()    {}
func (*IntLit) exprNode()  {}
func (*BoolLit) exprNode() {}
func (*Unary) exprNode()   {}
func (*Binary) exprNode()  {}
func (*Paren) exprNode()   {}
func (*Bad) exprNode()     {}
