// Package types is the type checker of BIR: it resolves names, computes the
// type of every expression, evaluates constant expressions and enforces every
// static rule of BIR.md (and docs/decisions.md).
//
// It is the fourth stage of the BIR front end (token -> scanner -> parser ->
// types), and its result, a *Program, is the typed BIR that every later stage
// consumes: the compiled model, the abstraction passes and the back ends.
// As in go/types, results are written into side tables (Info: Types, Defs,
// Uses) and never into the AST, so one tree can be checked many times, and
// the Config's zero value works.
//
// The main entry point:
//
//	prog, err := types.Check(fset, file, nil)
//
// err is a source.ErrorList of every error found (each "file:line:col:
// message"); prog is non-nil even then, holding what could be resolved.
//
// Types are Basic (boolean, int, tid, and the type of null), Range, Enum,
// Record, Array, Lock, Ref and Named; records and enums are compared by name,
// the rest by structure. Objects are the things names denote: Const,
// TypeName, Collection, Var (global, local, parameter, field), EnumConst,
// Proc (thread or function), Location, Predicate and Property.
//
// The fixed-width integer types int8 … uint64 (docs/bir.md §5.12) are
// predeclared *Named types, shared by every program (FixedTypes), whose
// underlying type is a *Range with Wrap set, Bits the width and Lo, Hi the
// type's bounds — except uint64, whose Hi is 2^63-1: birch computes on
// 64-bit integers and holds the uint64 values below 2^63 only; a store of
// any other is a limit of the check, never a wrong value. A store into a
// Wrap range reduces the value with Range.WrapValue instead of checking
// it. A conversion T(e) is an *ast.ConvExpr of type T; inside its operand
// the + - * and unary - that Info.Types marks Wraps compute modulo 2^64.
// The bitwise operators & | ^ << >> ~ give int (Bitwise). FixedWidthUse
// finds the first use of any of these, for the consumers that refuse them.
package types
