// Package c is birch's C front end: it reads a C program (a .c file,
// preprocessed with the system's gcc, or an already preprocessed .i file),
// parses and type-checks it with modernc.org/cc/v4, and lowers it to BIR
// text. Every position in that text is mapped back to the C source by
// `//line file:line:col` directives (docs/bir.md, "Line directives"), so
// that errors and trails found on the BIR model name the C source.
//
// The lowering keeps C's meaning exactly or refuses: integer types become
// BIR's fixed-width types (int8 … uint64) under the data model of the task
// (ILP32 or LP64), arithmetic wraps as the machine computes it (or, with
// Config.OverflowError, signed overflow is an error), and every construct
// the lowering does not handle (floating point, for instance) is an
// *UnsupportedError that names each such construct with its position; a
// check then says inconclusive (SV-COMP: unknown), never a guess.
//
// # API
//
//	out, err := c.Translate("prog.c", src, c.Config{DataModel: c.ILP32})
//	// out.BIR:      the model, BIR text with line directives
//	// out.Property: the C positions whose assertion failures are the
//	//               property (calls of the error functions, ERROR: labels,
//	//               assert); every other runtime error of the model is
//	//               undefined behaviour of the C program, not the property
//
// A C syntax or type error, or a missing gcc, is a source.ErrorList with
// positions (exit status 2 in the command line).
//
// # The lowering
//
// parse.go runs gcc's preprocessor, then gcc's syntax check (cc/v4's parser
// loops forever on some malformed programs: gcc rejects them first), then
// cc/v4's type checker (with the ABI of 386 or amd64 for ILP32 or LP64,
// whatever the host). lower.go lowers the
// functions reachable from main, each by a fnLowerer (stmt.go: statements,
// expr.go: integer expressions, call.go: calls and the builtins), which
// lays out BIR locations with a builder (builder.go). An integer value is
// an operand: a BIR expression with its C type and the bounds of its value,
// reduced into the type by a conversion only where the exact value matters
// (see operand). mem.go is the seam for pointers, arrays, structs and the
// heap: each hook there is called where an integer lowering meets such a
// construct. docs/c.md describes the lowering for users.
//
// A lowered statement, in BIR:
//
//	//line prog.c:7:3
//	    when true do { x := int32(x * 3) / 2; } goto L4;
//
// Stage: front end (C -> BIR). It imports nothing of birch but source.
package c
