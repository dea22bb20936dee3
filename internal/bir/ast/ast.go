package ast

import (
	"birch/internal/bir/token"
	"birch/internal/source"
)

// Node is implemented by every syntax tree node.
type Node interface {
	Pos() source.Pos // first character of the node
	End() source.Pos // first character after the node
}

// ---------------------------------------------------------------------------
// Comments

// Comment is one // or /* */ comment.
type Comment struct {
	Slash source.Pos // position of the leading '/'
	Text  string     // the comment text, including // or /* */
}

func (c *Comment) Pos() source.Pos { return c.Slash }
func (c *Comment) End() source.Pos { return c.Slash + source.Pos(len(c.Text)) }

// CommentGroup is a run of comments with no blank line or token between them.
type CommentGroup struct {
	List []*Comment // len(List) > 0
}

func (g *CommentGroup) Pos() source.Pos { return g.List[0].Pos() }
func (g *CommentGroup) End() source.Pos { return g.List[len(g.List)-1].End() }

// ---------------------------------------------------------------------------
// File and system

// File is one parsed BIR source file.
type File struct {
	Name     string          // file name as given to the parser
	System   *System         // the system; nil only if the file had no system header
	Comments []*CommentGroup // every comment of the file, in source order
}

func (f *File) Pos() source.Pos {
	if f.System != nil {
		return f.System.Pos()
	}
	return source.NoPos
}
func (f *File) End() source.Pos {
	if f.System != nil {
		return f.System.End()
	}
	return source.NoPos
}

// System is `system Name () … end Name;` (or `process Name () …`).
type System struct {
	Keyword    source.Pos         // position of `system` or `process`
	Process    bool               // spelled `process`
	Name       *Ident             // the system's name
	Lparen     source.Pos         // position of "("
	Rparen     source.Pos         // position of ")"
	Decls      []Decl             // definitions, threads and functions in source order
	Predicates *PredicatesSection // or nil
	Properties *PropertiesSection // or nil
	EndPos     source.Pos         // position of `end`
	EndName    *Ident             // the name after `end`
	Semi       source.Pos         // position of the final ";"
}

func (s *System) Pos() source.Pos { return s.Keyword }
func (s *System) End() source.Pos { return s.Semi + 1 }

// ---------------------------------------------------------------------------
// Declarations

// Decl is a top-level item of a system: *ConstDecl, *TypeDecl, *ExtendsDecl,
// *CollectionDecl, *VarDecl, *ThreadDecl, *FunctionDecl or *BadDecl.
type Decl interface {
	Node
	declNode()
}

// ConstDecl is `const N 3;` (the paper's form) or `const N = 3;` [ext].
type ConstDecl struct {
	ConstPos source.Pos // position of `const`
	Name     *Ident
	Assign   source.Pos // position of "=", or NoPos in the paper's form
	Value    Expr       // a constant expression
	Semi     source.Pos
}

// TypeDecl is `Name = TYPE;`.
type TypeDecl struct {
	Name   *Ident
	Assign source.Pos // position of "="
	Type   TypeExpr
	Semi   source.Pos
}

// ExtendsDecl is `Sub extends Super;`.
type ExtendsDecl struct {
	Sub        *Ident
	ExtendsPos source.Pos
	Super      *Ident
	Semi       source.Pos
}

// CollectionDecl is `Name : collection [SIZE] of Elem;`.
type CollectionDecl struct {
	Name          *Ident
	Colon         source.Pos
	CollectionPos source.Pos // position of `collection`
	Size          Expr       // constant bound, or nil for the default (3)
	OfPos         source.Pos
	Elem          *Ident // the element type's name (a record or array type)
	Semi          source.Pos
}

// VarDecl declares one or more variables of one type: a global
// (`x, y : T := v;`), a thread or function local, a parameter, or a record
// field (fields have no initial value).
type VarDecl struct {
	Names  []*Ident // len(Names) > 0
	Colon  source.Pos
	Type   TypeExpr
	Assign source.Pos // position of ":=", or NoPos
	Init   Expr       // initial value, or nil
	Semi   source.Pos // position of ";" or ","; NoPos for a last parameter without one
}

// ThreadDecl is `[main] thread Name (params) … end Name;`.
type ThreadDecl struct {
	Main      bool
	MainPos   source.Pos // position of `main`, or NoPos
	ThreadPos source.Pos // position of `thread`
	Name      *Ident
	Body      *Body
}

// FunctionDecl is `function Name (params) [: Result] … end Name;` [ext].
type FunctionDecl struct {
	FunctionPos source.Pos
	Name        *Ident
	Body        *Body
	Colon       source.Pos // position of ":" before the result type, or NoPos
	Result      TypeExpr   // or nil for a function that returns no value
}

// Body is what threads and functions share: parameters, locals, locations
// and the closing `end Name;`.
type Body struct {
	Lparen    source.Pos
	Params    []*VarDecl
	Rparen    source.Pos
	Locals    []*VarDecl
	Locations []*Location
	EndPos    source.Pos // position of `end`
	EndName   *Ident
	Semi      source.Pos
}

// BadDecl stands for a declaration that could not be parsed.
type BadDecl struct {
	From, To source.Pos
}

func (d *ConstDecl) Pos() source.Pos      { return d.ConstPos }
func (d *ConstDecl) End() source.Pos      { return d.Semi + 1 }
func (d *TypeDecl) Pos() source.Pos       { return d.Name.Pos() }
func (d *TypeDecl) End() source.Pos       { return d.Semi + 1 }
func (d *ExtendsDecl) Pos() source.Pos    { return d.Sub.Pos() }
func (d *ExtendsDecl) End() source.Pos    { return d.Semi + 1 }
func (d *CollectionDecl) Pos() source.Pos { return d.Name.Pos() }
func (d *CollectionDecl) End() source.Pos { return d.Semi + 1 }
func (d *VarDecl) Pos() source.Pos        { return d.Names[0].Pos() }
func (d *VarDecl) End() source.Pos {
	switch {
	case d.Semi.IsValid():
		return d.Semi + 1
	case d.Init != nil:
		return d.Init.End()
	case d.Type != nil:
		return d.Type.End()
	}
	return d.Names[len(d.Names)-1].End()
}
func (d *ThreadDecl) Pos() source.Pos {
	if d.Main {
		return d.MainPos
	}
	return d.ThreadPos
}
func (d *ThreadDecl) End() source.Pos   { return d.Body.End() }
func (d *FunctionDecl) Pos() source.Pos { return d.FunctionPos }
func (d *FunctionDecl) End() source.Pos { return d.Body.End() }
func (b *Body) Pos() source.Pos         { return b.Lparen }
func (b *Body) End() source.Pos         { return b.Semi + 1 }
func (d *BadDecl) Pos() source.Pos      { return d.From }
func (d *BadDecl) End() source.Pos      { return d.To }

func (*ConstDecl) declNode()      {}
func (*TypeDecl) declNode()       {}
func (*ExtendsDecl) declNode()    {}
func (*CollectionDecl) declNode() {}
func (*VarDecl) declNode()        {}
func (*ThreadDecl) declNode()     {}
func (*FunctionDecl) declNode()   {}
func (*BadDecl) declNode()        {}

// Location is `loc NAME: [live { … }] transformations…`.
type Location struct {
	LocPos          source.Pos
	Name            *Ident
	Colon           source.Pos
	Live            *LiveSet // or nil: every local is live
	Transformations []*Transformation
}

func (l *Location) Pos() source.Pos { return l.LocPos }
func (l *Location) End() source.Pos {
	if n := len(l.Transformations); n > 0 {
		return l.Transformations[n-1].End()
	}
	if l.Live != nil {
		return l.Live.End()
	}
	return l.Colon + 1
}

// LiveSet is `live { a, b }`.
type LiveSet struct {
	LivePos source.Pos
	Lbrace  source.Pos
	Names   []*Ident
	Rbrace  source.Pos
}

func (l *LiveSet) Pos() source.Pos { return l.LivePos }
func (l *LiveSet) End() source.Pos { return l.Rbrace + 1 }

// Transformation is `when GUARD do [invisible] { ACTIONS } goto L;` or, in a
// function, `… return [EXPR];`.
type Transformation struct {
	WhenPos      source.Pos
	Guard        Expr
	DoPos        source.Pos
	Invisible    bool
	InvisiblePos source.Pos // or NoPos
	Lbrace       source.Pos
	Actions      []Action
	Rbrace       source.Pos
	GotoPos      source.Pos // position of `goto` or `return`
	Return       bool       // ends with return instead of goto
	Target       *Ident     // goto target; nil when Return
	Result       Expr       // returned value, or nil
	Semi         source.Pos
}

func (t *Transformation) Pos() source.Pos { return t.WhenPos }
func (t *Transformation) End() source.Pos { return t.Semi + 1 }

// ---------------------------------------------------------------------------
// Type expressions

// TypeExpr is the syntax of a type: *Ident (a named type), *BasicType,
// *RangeType, *EnumType, *RecordType, *ArrayType, *LockType, *RefType or
// *BadType.
type TypeExpr interface {
	Node
	typeNode()
}

// BasicType is `boolean`, `int` or `tid`.
type BasicType struct {
	KindPos source.Pos
	Kind    token.Kind // BOOLEAN, INT_TYPE or TID
}

// RangeType is `range LO..HI`.
type RangeType struct {
	RangePos source.Pos
	Lo       Expr
	Ellipsis source.Pos
	Hi       Expr
}

// EnumType is `enum { A, B = 5, C }`.
type EnumType struct {
	EnumPos source.Pos
	Lbrace  source.Pos
	Consts  []*EnumConst
	Rbrace  source.Pos
}

// EnumConst is one enum constant with an optional explicit ordinal.
type EnumConst struct {
	Name   *Ident
	Assign source.Pos // or NoPos
	Value  Expr       // or nil
}

func (c *EnumConst) Pos() source.Pos { return c.Name.Pos() }
func (c *EnumConst) End() source.Pos {
	if c.Value != nil {
		return c.Value.End()
	}
	return c.Name.End()
}

// RecordType is `record { f : T; g, h : U; }`.
type RecordType struct {
	RecordPos source.Pos
	Lbrace    source.Pos
	Fields    []*VarDecl
	Rbrace    source.Pos
}

// ArrayType is `array [LEN] of ELEM`.
type ArrayType struct {
	ArrayPos source.Pos
	Lbrack   source.Pos
	Len      Expr
	Rbrack   source.Pos
	OfPos    source.Pos
	Elem     TypeExpr
}

// LockType is `lock [wait] [reentrant]`.
type LockType struct {
	LockPos      source.Pos
	Wait         bool
	WaitPos      source.Pos // or NoPos
	Reentrant    bool
	ReentrantPos source.Pos // or NoPos
}

// RefType is `ref T { C1, C2 }` or, without a collection list [ext], `ref T`.
type RefType struct {
	RefPos      source.Pos
	Target      *Ident
	Lbrace      source.Pos // NoPos when the collection list is omitted
	Collections []*Ident
	Rbrace      source.Pos
}

// BadType stands for a type that could not be parsed.
type BadType struct {
	From, To source.Pos
}

func (t *BasicType) Pos() source.Pos { return t.KindPos }
func (t *BasicType) End() source.Pos {
	return t.KindPos + source.Pos(len(t.Kind.String()))
}
func (t *RangeType) Pos() source.Pos  { return t.RangePos }
func (t *RangeType) End() source.Pos  { return t.Hi.End() }
func (t *EnumType) Pos() source.Pos   { return t.EnumPos }
func (t *EnumType) End() source.Pos   { return t.Rbrace + 1 }
func (t *RecordType) Pos() source.Pos { return t.RecordPos }
func (t *RecordType) End() source.Pos { return t.Rbrace + 1 }
func (t *ArrayType) Pos() source.Pos  { return t.ArrayPos }
func (t *ArrayType) End() source.Pos  { return t.Elem.End() }
func (t *LockType) Pos() source.Pos   { return t.LockPos }
func (t *LockType) End() source.Pos {
	switch {
	case t.Reentrant:
		return t.ReentrantPos + source.Pos(len("reentrant"))
	case t.Wait:
		return t.WaitPos + source.Pos(len("wait"))
	}
	return t.LockPos + source.Pos(len("lock"))
}
func (t *RefType) Pos() source.Pos { return t.RefPos }
func (t *RefType) End() source.Pos {
	if t.Lbrace.IsValid() {
		return t.Rbrace + 1
	}
	return t.Target.End()
}
func (t *BadType) Pos() source.Pos { return t.From }
func (t *BadType) End() source.Pos { return t.To }

func (*Ident) typeNode()      {}
func (*BasicType) typeNode()  {}
func (*RangeType) typeNode()  {}
func (*EnumType) typeNode()   {}
func (*RecordType) typeNode() {}
func (*ArrayType) typeNode()  {}
func (*LockType) typeNode()   {}
func (*RefType) typeNode()    {}
func (*BadType) typeNode()    {}

// ---------------------------------------------------------------------------
// Actions

// Action is one action of a transformation: *AssignAction, *NewAction,
// *ChooseAction, *ForallAction, *ReachableAction, *LockAction, *StartAction,
// *ExitAction, *CallAction, *PrintAction, *AssertAction, *AssumeAction or
// *BadAction.
type Action interface {
	Node
	actionNode()
}

// AssignAction is `LHS := EXPR;`.
type AssignAction struct {
	Lhs    Expr
	Assign source.Pos
	Rhs    Expr
	Semi   source.Pos
}

// NewAction is `LHS := new C;` or, for a collection of arrays,
// `LHS := new C[LEN];`.
type NewAction struct {
	Lhs        Expr
	Assign     source.Pos
	NewPos     source.Pos
	Collection *Ident
	Lbrack     source.Pos // or NoPos
	Len        Expr       // or nil
	Rbrack     source.Pos
	Semi       source.Pos
}

// ChooseAction is `LHS := internChoose(v1, …);`, `externChoose(…)`, the
// range form `internChoose(LO .. HI)` [ext], or the type form
// `internChoose(T)` [ext] with T an integer type.
//
// The parser gives the type form for `int` and `range l..u`; a lone name,
// which may be a value or a type, it gives as a one-value list, and the
// type checker moves it to Type when it names a type. For the type form
// the type checker also sets Lo and Hi to constant expressions of T's
// bounds (positioned at T), so that a consumer that does not look at Type
// sees the range form of the same values.
type ChooseAction struct {
	Lhs    Expr
	Assign source.Pos
	Extern bool       // externChoose
	KwPos  source.Pos // position of internChoose / externChoose
	Lparen source.Pos
	Values []Expr   // the listed values; nil in the range and type forms
	Lo, Hi Expr     // the range form's bounds, or nil
	Type   TypeExpr // the type form's type, or nil
	Rparen source.Pos
	Semi   source.Pos
}

// ForallAction is `LHS := forall(T);`.
type ForallAction struct {
	Lhs    Expr
	Assign source.Pos
	KwPos  source.Pos
	Type   *Ident
	Rparen source.Pos
	Semi   source.Pos
}

// ReachableAction is `LHS := reachable(FROM, T);`.
type ReachableAction struct {
	Lhs    Expr
	Assign source.Pos
	KwPos  source.Pos
	From   Expr
	Type   *Ident
	Rparen source.Pos
	Semi   source.Pos
}

// LockAction is `lock(l);`, `unlock(l);`, `wait(l);`, `unwait(l);`,
// `notify(l);` or `notifyAll(l);`.
type LockAction struct {
	OpPos source.Pos
	Op    token.Kind // LOCK, UNLOCK, WAIT, UNWAIT, NOTIFY or NOTIFYALL
	Lock  Expr
	Semi  source.Pos
}

// StartAction is `[LHS :=] start Thread(ARGS);`; the paper's spelling
// `start(Thread, ARGS)` parses to the same node with PaperForm set.
type StartAction struct {
	Lhs       Expr       // or nil
	Assign    source.Pos // or NoPos
	StartPos  source.Pos
	Thread    *Ident
	Lparen    source.Pos
	Args      []Expr
	Rparen    source.Pos
	PaperForm bool
	Semi      source.Pos
}

// ExitAction is `exit;`.
type ExitAction struct {
	ExitPos source.Pos
	Semi    source.Pos
}

// CallAction is `[LHS :=] call f(ARGS);` [ext].
type CallAction struct {
	Lhs     Expr       // or nil
	Assign  source.Pos // or NoPos
	CallPos source.Pos
	Func    *Ident
	Lparen  source.Pos
	Args    []Expr
	Rparen  source.Pos
	Semi    source.Pos
}

// PrintAction is `println(ARGS);`; string arguments are *BasicLit STRING.
type PrintAction struct {
	PrintPos source.Pos
	Args     []Expr
	Rparen   source.Pos
	Semi     source.Pos
}

// AssertAction is `assert(EXPR);`.
type AssertAction struct {
	AssertPos source.Pos
	Cond      Expr
	Semi      source.Pos
}

// AssumeAction is `assume(EXPR);` [ext].
type AssumeAction struct {
	AssumePos source.Pos
	Cond      Expr
	Semi      source.Pos
}

// BadAction stands for an action that could not be parsed.
type BadAction struct {
	From, To source.Pos
}

func lhsPos(lhs Expr, p source.Pos) source.Pos {
	if lhs != nil {
		return lhs.Pos()
	}
	return p
}

func (a *AssignAction) Pos() source.Pos    { return a.Lhs.Pos() }
func (a *AssignAction) End() source.Pos    { return a.Semi + 1 }
func (a *NewAction) Pos() source.Pos       { return a.Lhs.Pos() }
func (a *NewAction) End() source.Pos       { return a.Semi + 1 }
func (a *ChooseAction) Pos() source.Pos    { return a.Lhs.Pos() }
func (a *ChooseAction) End() source.Pos    { return a.Semi + 1 }
func (a *ForallAction) Pos() source.Pos    { return a.Lhs.Pos() }
func (a *ForallAction) End() source.Pos    { return a.Semi + 1 }
func (a *ReachableAction) Pos() source.Pos { return a.Lhs.Pos() }
func (a *ReachableAction) End() source.Pos { return a.Semi + 1 }
func (a *LockAction) Pos() source.Pos      { return a.OpPos }
func (a *LockAction) End() source.Pos      { return a.Semi + 1 }
func (a *StartAction) Pos() source.Pos     { return lhsPos(a.Lhs, a.StartPos) }
func (a *StartAction) End() source.Pos     { return a.Semi + 1 }
func (a *ExitAction) Pos() source.Pos      { return a.ExitPos }
func (a *ExitAction) End() source.Pos      { return a.Semi + 1 }
func (a *CallAction) Pos() source.Pos      { return lhsPos(a.Lhs, a.CallPos) }
func (a *CallAction) End() source.Pos      { return a.Semi + 1 }
func (a *PrintAction) Pos() source.Pos     { return a.PrintPos }
func (a *PrintAction) End() source.Pos     { return a.Semi + 1 }
func (a *AssertAction) Pos() source.Pos    { return a.AssertPos }
func (a *AssertAction) End() source.Pos    { return a.Semi + 1 }
func (a *AssumeAction) Pos() source.Pos    { return a.AssumePos }
func (a *AssumeAction) End() source.Pos    { return a.Semi + 1 }
func (a *BadAction) Pos() source.Pos       { return a.From }
func (a *BadAction) End() source.Pos       { return a.To }

func (*AssignAction) actionNode()    {}
func (*NewAction) actionNode()       {}
func (*ChooseAction) actionNode()    {}
func (*ForallAction) actionNode()    {}
func (*ReachableAction) actionNode() {}
func (*LockAction) actionNode()      {}
func (*StartAction) actionNode()     {}
func (*ExitAction) actionNode()      {}
func (*CallAction) actionNode()      {}
func (*PrintAction) actionNode()     {}
func (*AssertAction) actionNode()    {}
func (*AssumeAction) actionNode()    {}
func (*BadAction) actionNode()       {}

// ---------------------------------------------------------------------------
// Expressions

// Expr is an expression: *Ident, *BasicLit, *ParenExpr, *UnaryExpr,
// *BinaryExpr, *ConvExpr, *SelectorExpr, *LengthExpr, *IndexExpr, *InstanceofExpr,
// *BuiltinExpr, *LocationTest, *RemoteRef or *BadExpr. LocationTest and
// RemoteRef occur only in predicates and properties; the temporal operators
// (UnaryExpr with ALWAYS, EVENTUAL, NEXT; BinaryExpr with UNTIL, RELEASE,
// WEAKUNTIL) only in ltl formulas, and ARROW and IFF only in properties.
type Expr interface {
	Node
	exprNode()
}

// Ident is a name.
type Ident struct {
	NamePos source.Pos
	Name    string
}

// BasicLit is an INT or STRING literal, or `true`, `false`, `null`.
type BasicLit struct {
	ValuePos source.Pos
	Kind     token.Kind // INT, STRING, TRUE, FALSE or NULL
	Value    string     // the literal as written (strings with quotes)
}

// ParenExpr is `( X )`.
type ParenExpr struct {
	Lparen source.Pos
	X      Expr
	Rparen source.Pos
}

// UnaryExpr is `OP X` for ! - + ~ and the temporal [] <> X.
type UnaryExpr struct {
	OpPos source.Pos
	Op    token.Kind
	X     Expr
}

// BinaryExpr is `X OP Y`.
type BinaryExpr struct {
	X     Expr
	OpPos source.Pos
	Op    token.Kind
	Y     Expr
}

// ConvExpr is a conversion `Type(X)`, as in `int32(x + y)`. The parser
// reads every `name(…)` in an expression as one; the checker wants Type to
// name a fixed-width integer type.
type ConvExpr struct {
	Type   *Ident
	Lparen source.Pos
	X      Expr
	Rparen source.Pos
}

// SelectorExpr is `X.Sel`, a record field through a reference.
type SelectorExpr struct {
	X   Expr
	Sel *Ident
}

// LengthExpr is `X.length`.
type LengthExpr struct {
	X         Expr
	LengthPos source.Pos
}

// IndexExpr is `X[Index]`.
type IndexExpr struct {
	X      Expr
	Lbrack source.Pos
	Index  Expr
	Rbrack source.Pos
}

// InstanceofExpr is `X instanceof T`.
type InstanceofExpr struct {
	X             Expr
	InstanceofPos source.Pos
	Type          *Ident
}

// BuiltinExpr is `lockAvailable(X)`, `hasLock(X)`, `wasNotified(X)` or
// `threadTerminated(X)`.
type BuiltinExpr struct {
	OpPos  source.Pos
	Op     token.Kind // LOCKAVAILABLE, HASLOCK, WASNOTIFIED or THREADTERMINATED
	Lparen source.Pos
	X      Expr
	Rparen source.Pos
}

// LocationTest is `Thread[TID] @ loc` or, for a thread with one instance,
// `Thread @ loc`: the (or some, when TID is null) instance of Thread is at loc.
type LocationTest struct {
	Thread   *Ident
	Lbrack   source.Pos // or NoPos
	Instance Expr       // or nil
	Rbrack   source.Pos
	At       source.Pos
	Loc      *Ident
}

// RemoteRef is `Thread[TID] : X` or `Thread : X`: X evaluated in the scope of
// that thread instance's locals.
type RemoteRef struct {
	Thread   *Ident
	Lbrack   source.Pos // or NoPos
	Instance Expr       // or nil
	Rbrack   source.Pos
	Colon    source.Pos
	X        Expr
}

// BadExpr stands for an expression that could not be parsed.
type BadExpr struct {
	From, To source.Pos
}

func (x *Ident) Pos() source.Pos          { return x.NamePos }
func (x *Ident) End() source.Pos          { return x.NamePos + source.Pos(len(x.Name)) }
func (x *BasicLit) Pos() source.Pos       { return x.ValuePos }
func (x *BasicLit) End() source.Pos       { return x.ValuePos + source.Pos(len(x.Value)) }
func (x *ParenExpr) Pos() source.Pos      { return x.Lparen }
func (x *ParenExpr) End() source.Pos      { return x.Rparen + 1 }
func (x *UnaryExpr) Pos() source.Pos      { return x.OpPos }
func (x *UnaryExpr) End() source.Pos      { return x.X.End() }
func (x *BinaryExpr) Pos() source.Pos     { return x.X.Pos() }
func (x *BinaryExpr) End() source.Pos     { return x.Y.End() }
func (x *ConvExpr) Pos() source.Pos       { return x.Type.Pos() }
func (x *ConvExpr) End() source.Pos       { return x.Rparen + 1 }
func (x *SelectorExpr) Pos() source.Pos   { return x.X.Pos() }
func (x *SelectorExpr) End() source.Pos   { return x.Sel.End() }
func (x *LengthExpr) Pos() source.Pos     { return x.X.Pos() }
func (x *LengthExpr) End() source.Pos     { return x.LengthPos + source.Pos(len("length")) }
func (x *IndexExpr) Pos() source.Pos      { return x.X.Pos() }
func (x *IndexExpr) End() source.Pos      { return x.Rbrack + 1 }
func (x *InstanceofExpr) Pos() source.Pos { return x.X.Pos() }
func (x *InstanceofExpr) End() source.Pos { return x.Type.End() }
func (x *BuiltinExpr) Pos() source.Pos    { return x.OpPos }
func (x *BuiltinExpr) End() source.Pos    { return x.Rparen + 1 }
func (x *LocationTest) Pos() source.Pos   { return x.Thread.Pos() }
func (x *LocationTest) End() source.Pos   { return x.Loc.End() }
func (x *RemoteRef) Pos() source.Pos      { return x.Thread.Pos() }
func (x *RemoteRef) End() source.Pos      { return x.X.End() }
func (x *BadExpr) Pos() source.Pos        { return x.From }
func (x *BadExpr) End() source.Pos        { return x.To }

func (*Ident) exprNode()          {}
func (*BasicLit) exprNode()       {}
func (*ParenExpr) exprNode()      {}
func (*UnaryExpr) exprNode()      {}
func (*BinaryExpr) exprNode()     {}
func (*ConvExpr) exprNode()       {}
func (*SelectorExpr) exprNode()   {}
func (*LengthExpr) exprNode()     {}
func (*IndexExpr) exprNode()      {}
func (*InstanceofExpr) exprNode() {}
func (*BuiltinExpr) exprNode()    {}
func (*LocationTest) exprNode()   {}
func (*RemoteRef) exprNode()      {}
func (*BadExpr) exprNode()        {}

// ---------------------------------------------------------------------------
// Predicates and properties

// PredicatesSection is `predicates` followed by `name = EXPR;` items.
type PredicatesSection struct {
	KwPos      source.Pos
	Predicates []*PredicateDecl
}

// PredicateDecl is `Name = EXPR;`.
type PredicateDecl struct {
	Name   *Ident
	Assign source.Pos
	Expr   Expr
	Semi   source.Pos
}

// PropertiesSection is `properties` followed by invariant and ltl items.
type PropertiesSection struct {
	KwPos      source.Pos
	Properties []*PropertyDecl
}

// PropertyDecl is `invariant NAME: EXPR;` or `ltl NAME: FORMULA;`.
type PropertyDecl struct {
	KwPos source.Pos
	Kind  token.Kind // INVARIANT or LTL
	Name  *Ident
	Colon source.Pos
	Expr  Expr
	Semi  source.Pos
}

func (s *PredicatesSection) Pos() source.Pos { return s.KwPos }
func (s *PredicatesSection) End() source.Pos {
	if n := len(s.Predicates); n > 0 {
		return s.Predicates[n-1].End()
	}
	return s.KwPos + source.Pos(len("predicates"))
}
func (s *PropertiesSection) Pos() source.Pos { return s.KwPos }
func (s *PropertiesSection) End() source.Pos {
	if n := len(s.Properties); n > 0 {
		return s.Properties[n-1].End()
	}
	return s.KwPos + source.Pos(len("properties"))
}
func (d *PredicateDecl) Pos() source.Pos { return d.Name.Pos() }
func (d *PredicateDecl) End() source.Pos { return d.Semi + 1 }
func (d *PropertyDecl) Pos() source.Pos  { return d.KwPos }
func (d *PropertyDecl) End() source.Pos  { return d.Semi + 1 }

// Unparen strips any number of enclosing parentheses.
func Unparen(x Expr) Expr {
	for {
		p, ok := x.(*ParenExpr)
		if !ok {
			return x
		}
		x = p.X
	}
}
