// Package format prints BIR syntax trees in birch's canonical layout.
//
// It is the last stage of the BIR front end (token -> scanner -> parser ->
// types -> format): it reads the *ast.File that package parser builds and
// writes it back as text. `birch fmt` uses it to rewrite models, and the rest
// of birch uses Expr and TypeExpr to show guards, actions and types in
// diagnostics and trails. Formatting never changes what a model means: it
// prints every node the parser built, in order, with the parentheses the user
// wrote (it never adds or drops one), and literals exactly as written. The
// only spellings it normalises are ones the parser records as equivalent:
// the paper's `start(T, x)` becomes `start T(x)` and the paper's parameter
// lists `(a : T; b : U;)` become `(a : T, b : U)`.
//
// The API:
//
//	File(w, fset, f)        prints a parsed file
//	Source(filename, src)   parses (with comments) and prints, or returns the parse errors
//	Expr(x), TypeExpr(t)    one-line text of an expression or type, without comments
//	DumpAST(f), DumpNode(n) a position-free dump of a tree, for tests
//	Equal(a, b)             whether two trees are the same model (as formatting keeps them)
//
// # Layout
//
// Indentation is with spaces. Top-level items (const, type, extends,
// collection and global declarations, thread and function headers and their
// `end`, `predicates`, `properties` and the final `end`) start at column 0.
// In threads and functions, locals and `loc` lines are indented 2 and
// transformations 4; the actions of a transformation printed one per line
// are indented 6. Predicates and properties are indented 2. Lines that a
// comment breaks in the middle of an item continue 4 columns further in than
// the item.
//
// Blank lines: between two items of the same list (top-level items, locals
// and locations, the transformations of a location, actions printed one per
// line, fields and enum constants printed one per line, predicates,
// properties) one blank line is kept where the source had at least one, and
// none is added where it had none. There is always one blank line before and
// after each thread and function and before `predicates`, `properties` and
// the final `end`; never one right after a header line (thread, function,
// `loc`, `predicates`, `properties`, `when … {`, `record {`, `enum {`) or
// right before a thread's or function's `end` or a closing `}`. There are
// never two blank lines in a row, no line ends in a space, and the file ends
// with exactly one newline.
//
// Spacing: binary operators have one space on each side; unary `!`, `-` and
// `+` have none (except `- -x` and `+ +x`, which would read as `--` and `++`),
// the temporal `[]`, `<>` and `X` have one. Commas are followed by a space.
// `:` has spaces on both sides in declarations (`x, y : T := v;`), in
// remote references (`T[t] : x`) and in `C : collection [3] of T;`, but none
// before it after a location or property name (`loc s0:`, `invariant safe:`).
// `..` has no spaces in range types (`range -1..3`) and one on each side in
// the range form of a choose (`internChoose(0 .. 3)`). Keywords, names and
// brackets are spaced as in the example below: `array [4] of T`,
// `ref T {A, B}`, `enum {A, B = 5}`, `record { f : T; g, h : U; }`,
// `live { a, b }`, `live { }`, `x := new C[n];`, `lockAvailable(l)`,
// `T[e] @ loc`. `const N 3;` keeps the paper's form and `const N = 3;` the
// extension's.
//
// One line or several: a transformation goes on one line,
// `when G do { a1; a2; } goto L;`, when that line fits in 100 columns and no
// comment stands in the way; otherwise its actions go one per line between
// `when G do {` and `} goto L;`. A transformation without actions always
// keeps `{ }` on its line unless a comment is inside the braces. Records and
// enums follow the same rule for the whole item that contains them (a type
// declaration, a global or local, a thread or function header): on one line
// if the item fits in 100 columns and no comment stands in the way, else one
// field or constant per line, indented 2 more than the item, with the
// closing `}` at the item's indentation. A comment stands in the way unless
// the item is written on one source line and all its comments are `/* */`
// comments, which then stay inline. Expressions are never broken: a line
// with a long guard or action is simply long.
//
// Comments: every comment appears exactly once, in source order relative to
// the tokens around it, with trailing white space removed from each of its
// lines (a `/* */` comment is otherwise printed verbatim, its inner lines
// included). A comment that starts on the line where the previous token or
// comment ends stays at the end of that line, after one space; if it is a
// `//` comment or spans lines and the item goes on, the item continues on
// the next line. Any other comment goes on lines of its own, indented like
// the item that follows it (inside a block, before its closing `end` or `}`,
// like the block's items); in the middle of an item, it breaks the item
// there. Comments between tokens whose position the tree does not record
// (commas, dots, some parentheses) move past those tokens.
//
// Bad nodes (ast.Bad*), which only trees with syntax errors contain, cannot
// be printed faithfully: Source returns the parse errors instead, and File
// prints them as `/* bad */`.
//
// # Example
//
// This input, in the paper's spelling:
//
//	system Q()
//	const N 3;
//	Msg = record { next : Msg_ref; prio : range -1..3; };   // a message
//	Msg_col : collection [3] of Msg;
//	Msg_ref = ref Msg {Msg_col};
//	main thread Main() m : Msg_ref;
//	loc s0: live { m }
//	  when true do invisible { m := new Msg_col; } goto s1;
//	loc s1: live {}
//	  when (m != null) do { m.prio := externChoose(0,1); t := start(Worker, m); } goto s1;
//	end Main;
//	thread Worker(p : Msg_ref;) loc w0: end Worker;
//	predicates busy = Main @ s1;
//	end Q;
//
// is printed as:
//
//	system Q ()
//	const N 3;
//	Msg = record { next : Msg_ref; prio : range -1..3; }; // a message
//	Msg_col : collection [3] of Msg;
//	Msg_ref = ref Msg {Msg_col};
//
//	main thread Main ()
//	  m : Msg_ref;
//	  loc s0: live { m }
//	    when true do invisible { m := new Msg_col; } goto s1;
//	  loc s1: live { }
//	    when (m != null) do { m.prio := externChoose(0, 1); t := start Worker(m); } goto s1;
//	end Main;
//
//	thread Worker (p : Msg_ref)
//	  loc w0:
//	end Worker;
//
//	predicates
//	  busy = Main @ s1;
//
//	end Q;
package format
