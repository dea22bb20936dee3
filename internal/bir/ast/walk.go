package ast

// Visitor's Visit is called for each node reached by Walk; if it returns a
// non-nil visitor w, Walk visits the node's children with w and then calls
// w.Visit(nil).
type Visitor interface {
	Visit(node Node) (w Visitor)
}

// Walk traverses the tree rooted at node in depth-first, source order.
func Walk(v Visitor, node Node) {
	if v = v.Visit(node); v == nil {
		return
	}
	walkChildren(v, node)
	v.Visit(nil)
}

type inspector func(Node) bool

func (f inspector) Visit(n Node) Visitor {
	if f(n) {
		return f
	}
	return nil
}

// Inspect calls f for every node of the tree rooted at node, in source order;
// f returning false skips the node's children. f(nil) marks the end of a
// node's children.
func Inspect(node Node, f func(Node) bool) { Walk(inspector(f), node) }

func walkIdent(v Visitor, x *Ident) {
	if x != nil {
		Walk(v, x)
	}
}

func walkExpr(v Visitor, x Expr) {
	if x != nil {
		Walk(v, x)
	}
}

func walkExprs(v Visitor, xs []Expr) {
	for _, x := range xs {
		walkExpr(v, x)
	}
}

func walkType(v Visitor, t TypeExpr) {
	if t != nil {
		Walk(v, t)
	}
}

func walkChildren(v Visitor, node Node) {
	switch n := node.(type) {
	case *Comment, *Ident, *BasicLit, *BasicType, *LockType, *BadDecl, *BadType, *BadAction, *BadExpr, *ExitAction:
		// leaves
	case *CommentGroup:
		for _, c := range n.List {
			Walk(v, c)
		}
	case *File:
		if n.System != nil {
			Walk(v, n.System)
		}
	case *System:
		walkIdent(v, n.Name)
		for _, d := range n.Decls {
			Walk(v, d)
		}
		if n.Predicates != nil {
			Walk(v, n.Predicates)
		}
		if n.Properties != nil {
			Walk(v, n.Properties)
		}
		walkIdent(v, n.EndName)
	case *ConstDecl:
		walkIdent(v, n.Name)
		walkExpr(v, n.Value)
	case *TypeDecl:
		walkIdent(v, n.Name)
		walkType(v, n.Type)
	case *ExtendsDecl:
		walkIdent(v, n.Sub)
		walkIdent(v, n.Super)
	case *CollectionDecl:
		walkIdent(v, n.Name)
		walkExpr(v, n.Size)
		walkIdent(v, n.Elem)
	case *VarDecl:
		for _, x := range n.Names {
			walkIdent(v, x)
		}
		walkType(v, n.Type)
		walkExpr(v, n.Init)
	case *ThreadDecl:
		walkIdent(v, n.Name)
		Walk(v, n.Body)
	case *FunctionDecl:
		walkIdent(v, n.Name)
		walkType(v, n.Result)
		Walk(v, n.Body)
	case *Body:
		for _, p := range n.Params {
			Walk(v, p)
		}
		for _, l := range n.Locals {
			Walk(v, l)
		}
		for _, l := range n.Locations {
			Walk(v, l)
		}
		walkIdent(v, n.EndName)
	case *Location:
		walkIdent(v, n.Name)
		if n.Live != nil {
			Walk(v, n.Live)
		}
		for _, t := range n.Transformations {
			Walk(v, t)
		}
	case *LiveSet:
		for _, x := range n.Names {
			walkIdent(v, x)
		}
	case *Transformation:
		walkExpr(v, n.Guard)
		for _, a := range n.Actions {
			Walk(v, a)
		}
		walkIdent(v, n.Target)
		walkExpr(v, n.Result)
	case *RangeType:
		walkExpr(v, n.Lo)
		walkExpr(v, n.Hi)
	case *EnumType:
		for _, c := range n.Consts {
			Walk(v, c)
		}
	case *EnumConst:
		walkIdent(v, n.Name)
		walkExpr(v, n.Value)
	case *RecordType:
		for _, f := range n.Fields {
			Walk(v, f)
		}
	case *ArrayType:
		walkExpr(v, n.Len)
		walkType(v, n.Elem)
	case *RefType:
		walkIdent(v, n.Target)
		for _, c := range n.Collections {
			walkIdent(v, c)
		}
	case *AssignAction:
		walkExpr(v, n.Lhs)
		walkExpr(v, n.Rhs)
	case *NewAction:
		walkExpr(v, n.Lhs)
		walkIdent(v, n.Collection)
		walkExpr(v, n.Len)
	case *ChooseAction:
		walkExpr(v, n.Lhs)
		walkExprs(v, n.Values)
		if n.Type != nil {
			walkType(v, n.Type)
		} else {
			walkExpr(v, n.Lo)
			walkExpr(v, n.Hi)
		}
	case *ForallAction:
		walkExpr(v, n.Lhs)
		walkIdent(v, n.Type)
	case *ReachableAction:
		walkExpr(v, n.Lhs)
		walkExpr(v, n.From)
		walkIdent(v, n.Type)
	case *LockAction:
		walkExpr(v, n.Lock)
	case *StartAction:
		walkExpr(v, n.Lhs)
		walkIdent(v, n.Thread)
		walkExprs(v, n.Args)
	case *CallAction:
		walkExpr(v, n.Lhs)
		walkIdent(v, n.Func)
		walkExprs(v, n.Args)
	case *PrintAction:
		walkExprs(v, n.Args)
	case *AssertAction:
		walkExpr(v, n.Cond)
	case *AssumeAction:
		walkExpr(v, n.Cond)
	case *ParenExpr:
		walkExpr(v, n.X)
	case *UnaryExpr:
		walkExpr(v, n.X)
	case *BinaryExpr:
		walkExpr(v, n.X)
		walkExpr(v, n.Y)
	case *ConvExpr:
		walkIdent(v, n.Type)
		walkExpr(v, n.X)
	case *SelectorExpr:
		walkExpr(v, n.X)
		walkIdent(v, n.Sel)
	case *LengthExpr:
		walkExpr(v, n.X)
	case *IndexExpr:
		walkExpr(v, n.X)
		walkExpr(v, n.Index)
	case *InstanceofExpr:
		walkExpr(v, n.X)
		walkIdent(v, n.Type)
	case *BuiltinExpr:
		walkExpr(v, n.X)
	case *LocationTest:
		walkIdent(v, n.Thread)
		walkExpr(v, n.Instance)
		walkIdent(v, n.Loc)
	case *RemoteRef:
		walkIdent(v, n.Thread)
		walkExpr(v, n.Instance)
		walkExpr(v, n.X)
	case *PredicatesSection:
		for _, p := range n.Predicates {
			Walk(v, p)
		}
	case *PredicateDecl:
		walkIdent(v, n.Name)
		walkExpr(v, n.Expr)
	case *PropertiesSection:
		for _, p := range n.Properties {
			Walk(v, p)
		}
	case *PropertyDecl:
		walkIdent(v, n.Name)
		walkExpr(v, n.Expr)
	}
}
