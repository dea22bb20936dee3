package boolprog

import (
	"fmt"

	"birch/internal/source"
)

// tok is a token kind of the boolean-program dialect.
type tok uint8

const (
	tEOF tok = iota
	tIllegal
	tIdent // a or {a b}
	tInt   // 0, 1 (others are errors in the parser)

	tAssign  // :=
	tEq      // =
	tNeq     // !=
	tImplies // =>
	tAnd     // & &&
	tOr      // | ||
	tXor     // ^
	tNot     // ! ~
	tStar    // * ?
	tSemi    // ;
	tComma   // ,
	tColon   // :
	tLparen  // (
	tRparen  // )
	tLbrack  // [
	tRbrack  // ]
	tLess    // <
	tGreater // >

	keywordsStart
	kwDecl
	kwBool
	kwVoid
	kwBegin
	kwEnd
	kwEnforce
	kwSkip
	kwGoto
	kwReturn
	kwAssert
	kwAssume
	kwIf
	kwThen
	kwElse
	kwElsif
	kwFi
	kwWhile
	kwDo
	kwOd
	kwSchoose
	keywordsEnd
)

var tokText = map[tok]string{
	tEOF: "end of file", tIllegal: "illegal character", tIdent: "identifier", tInt: "integer",
	tAssign: "':='", tEq: "'='", tNeq: "'!='", tImplies: "'=>'", tAnd: "'&'", tOr: "'|'",
	tXor: "'^'", tNot: "'!'", tStar: "'*'", tSemi: "';'", tComma: "','", tColon: "':'",
	tLparen: "'('", tRparen: "')'", tLbrack: "'['", tRbrack: "']'", tLess: "'<'", tGreater: "'>'",
}

var keywords = map[string]tok{
	"decl": kwDecl, "bool": kwBool, "void": kwVoid, "begin": kwBegin, "end": kwEnd,
	"enforce": kwEnforce, "skip": kwSkip, "goto": kwGoto, "return": kwReturn,
	"assert": kwAssert, "assume": kwAssume, "if": kwIf, "then": kwThen, "else": kwElse,
	"elsif": kwElsif, "fi": kwFi, "while": kwWhile, "do": kwDo, "od": kwOd, "schoose": kwSchoose,
}

func (t tok) String() string {
	if s, ok := tokText[t]; ok {
		return s
	}
	for k, v := range keywords {
		if v == t {
			return "'" + k + "'"
		}
	}
	return fmt.Sprintf("token(%d)", int(t))
}

// scanner splits a source file into tokens. Comments are `// ...` to the end
// of the line and `/* ... */`.
type scanner struct {
	file *source.File
	src  []byte
	off  int
	errf func(off int, msg string)
}

// next returns the next token and its offset; s.off is then its end.
func (s *scanner) next() (tok, int) {
	for {
		for s.off < len(s.src) && isSpace(s.src[s.off]) {
			s.off++
		}
		if s.off+1 < len(s.src) && s.src[s.off] == '/' && s.src[s.off+1] == '/' {
			for s.off < len(s.src) && s.src[s.off] != '\n' {
				s.off++
			}
			continue
		}
		if s.off+1 < len(s.src) && s.src[s.off] == '/' && s.src[s.off+1] == '*' {
			start := s.off
			s.off += 2
			for s.off+1 < len(s.src) && !(s.src[s.off] == '*' && s.src[s.off+1] == '/') {
				s.off++
			}
			if s.off+1 >= len(s.src) {
				s.off = len(s.src)
				s.errf(start, "comment not terminated")
			} else {
				s.off += 2
			}
			continue
		}
		break
	}
	start := s.off
	if s.off >= len(s.src) {
		return tEOF, start
	}
	c := s.src[s.off]
	two := func(second byte, ifTwo, ifOne tok) (tok, int) {
		if s.off+1 < len(s.src) && s.src[s.off+1] == second {
			s.off += 2
			return ifTwo, start
		}
		s.off++
		return ifOne, start
	}
	switch {
	case isLetter(c):
		for s.off < len(s.src) && (isLetter(s.src[s.off]) || isDigit(s.src[s.off])) {
			s.off++
		}
		if k, ok := keywords[string(s.src[start:s.off])]; ok {
			return k, start
		}
		return tIdent, start
	case isDigit(c):
		for s.off < len(s.src) && isDigit(s.src[s.off]) {
			s.off++
		}
		return tInt, start
	case c == '{':
		s.off++
		for s.off < len(s.src) && s.src[s.off] != '}' && s.src[s.off] != '\n' {
			s.off++
		}
		if s.off >= len(s.src) || s.src[s.off] != '}' {
			s.errf(start, "braced name not terminated on its line")
			return tIllegal, start
		}
		s.off++
		if s.off-start == 2 {
			s.errf(start, "empty braced name {}")
			return tIllegal, start
		}
		return tIdent, start
	case c == ':':
		return two('=', tAssign, tColon)
	case c == '=':
		return two('>', tImplies, tEq)
	case c == '!':
		return two('=', tNeq, tNot)
	case c == '&':
		return two('&', tAnd, tAnd)
	case c == '|':
		return two('|', tOr, tOr)
	}
	s.off++
	switch c {
	case '^':
		return tXor, start
	case '~':
		return tNot, start
	case '*', '?':
		return tStar, start
	case ';':
		return tSemi, start
	case ',':
		return tComma, start
	case '(':
		return tLparen, start
	case ')':
		return tRparen, start
	case '[':
		return tLbrack, start
	case ']':
		return tRbrack, start
	case '<':
		return tLess, start
	case '>':
		return tGreater, start
	}
	return tIllegal, start
}

func isSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f'
}
func isLetter(c byte) bool { return c == '_' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' }
func isDigit(c byte) bool  { return '0' <= c && c <= '9' }
