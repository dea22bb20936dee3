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
package types
