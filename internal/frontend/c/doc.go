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
// Stage: front end (C -> BIR). It imports nothing of birch but source.
package c
