// Package ast declares the syntax tree of BIR models.
//
// The parser (package parser) produces an *ast.File; the type checker
// (package types) resolves it without changing it, writing what it finds into
// side tables; the formatter (package format) prints it back in the canonical
// layout. Every node carries source positions (source.Pos), so diagnostics,
// trails and translated models can point back into the user's file.
//
// The node sets are closed: Decl, TypeExpr, Action and Expr are interfaces
// with unexported marker methods, and code that switches over them lists every
// case. A field documented "or nil" may be nil; all others are set in a tree
// the parser returns, even after syntax errors (missing parts are then *Bad
// nodes or empty identifiers).
//
// The shape of a file:
//
//	File
//	└── System            system Name () … end Name;
//	    ├── Decls         ConstDecl, TypeDecl, ExtendsDecl, CollectionDecl,
//	    │                 VarDecl (globals), ThreadDecl, FunctionDecl
//	    │                 └── Body: Params, Locals, Locations
//	    │                     └── Location: Live, Transformations
//	    │                         └── Transformation: Guard, Actions, Target
//	    ├── Predicates    name = EXPR;
//	    └── Properties    invariant NAME: EXPR;  ltl NAME: FORMULA;
package ast
