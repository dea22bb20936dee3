// Package basl reads the Bandera Abstraction Specification Language: the
// files that define a data abstraction of the integers by its tokens, its
// abstraction function and, optionally, its abstract operators and tests.
//
// It is the front end of data abstraction (internal/abstraction/data): it
// scans and parses, keeps a position on every node and collects errors as
// "file:line:col: message" in a source.ErrorList. It knows nothing of
// solvers; package data checks what a specification means (tokens are
// declared, the abstraction function covers every integer exactly once, the
// given tables are sound) and synthesizes what is left out.
//
// The format is Bandera's. An abstraction starts with either the paper's
// heading or the one of Bandera's library files:
//
//	abstraction Signs abstracts int        // or: abstraction Signs extends integral
//	begin
//	  TOKENS = { NEG, ZERO, POS };
//	  DEFAULT = ZERO;                      // optional
//	  ONE2ONE = { ZERO };                  // optional: tokens that stand for one value
//	  abstract(n)
//	  begin
//	    n < 0  -> NEG;
//	    n == 0 -> ZERO;
//	    n > 0  -> POS;
//	  end
//	  operator + add                       // optional: left out, it is synthesized
//	  begin
//	    (NEG, NEG) -> NEG;
//	    (POS, _)   -> { ZERO, POS };       // _ matches any token
//	    (_, _)     -> T;                   // T is every token
//	  end
//	  test < lt
//	  begin
//	    (NEG, POS) -> TRUE;
//	    (_, _)     -> { TRUE, FALSE };
//	  end
//	end
//
// Cases of an operator or a test are tried in order and the first whose
// patterns match applies, as in Bandera. Conditions of the abstraction
// function are Java expressions over the parameter: integer literals,
// + - * / % (truncating, as in BIR and Java), comparisons, && || ! and
// parentheses. Comments are // and /* */. A file may hold several
// abstractions.
package basl
