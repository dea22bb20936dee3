package basl

import (
	"fmt"

	"birch/internal/source"
)

// Kind is the kind of a lexical token.
type Kind int

// The token kinds. Keywords are scanned as IDENT and recognized by the
// parser, so that they remain usable where a name is expected.
const (
	EOF Kind = iota
	ILLEGAL
	IDENT
	INT

	LBRACE // {
	RBRACE // }
	LPAREN // (
	RPAREN // )
	COMMA  // ,
	SEMI   // ;
	ASSIGN // =
	ARROW  // ->

	EQL // ==
	NEQ // !=
	LSS // <
	LEQ // <=
	GTR // >
	GEQ // >=
	ADD // +
	SUB // -
	MUL // *
	QUO // /
	REM // %
	AND // &&
	OR  // ||
	NOT // !
)

var kindNames = [...]string{
	EOF: "end of file", ILLEGAL: "illegal character", IDENT: "name", INT: "number",
	LBRACE: "{", RBRACE: "}", LPAREN: "(", RPAREN: ")", COMMA: ",", SEMI: ";",
	ASSIGN: "=", ARROW: "->",
	EQL: "==", NEQ: "!=", LSS: "<", LEQ: "<=", GTR: ">", GEQ: ">=",
	ADD: "+", SUB: "-", MUL: "*", QUO: "/", REM: "%", AND: "&&", OR: "||", NOT: "!",
}

// String returns the token's spelling, or a description for IDENT, INT,
// EOF and ILLEGAL.
func (k Kind) String() string {
	if k >= 0 && int(k) < len(kindNames) {
		return kindNames[k]
	}
	return fmt.Sprintf("Kind(%d)", int(k))
}

// scanner splits a BASL source into tokens. Errors (an illegal character,
// an unterminated comment) go to the error callback.
type scanner struct {
	file *source.File
	src  []byte
	off  int
	err  func(pos source.Pos, msg string)
}

func (s *scanner) init(file *source.File, src []byte, err func(source.Pos, string)) {
	s.file, s.src, s.off, s.err = file, src, 0, err
}

func isLetter(c byte) bool { return c == '_' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' }
func isDigit(c byte) bool  { return '0' <= c && c <= '9' }

// scan returns the next token, its position and its text (for IDENT, INT
// and ILLEGAL).
func (s *scanner) scan() (source.Pos, Kind, string) {
	s.skipSpace()
	start := s.off
	pos := s.file.Pos(start)
	if s.off >= len(s.src) {
		return pos, EOF, ""
	}
	c := s.src[s.off]
	s.off++
	switch {
	case isLetter(c):
		for s.off < len(s.src) && (isLetter(s.src[s.off]) || isDigit(s.src[s.off])) {
			s.off++
		}
		return pos, IDENT, string(s.src[start:s.off])
	case isDigit(c):
		for s.off < len(s.src) && (isDigit(s.src[s.off]) || isLetter(s.src[s.off])) {
			s.off++
		}
		lit := string(s.src[start:s.off])
		for i := 0; i < len(lit); i++ {
			if !isDigit(lit[i]) {
				s.err(pos, fmt.Sprintf("malformed number %s", lit))
				break
			}
		}
		return pos, INT, lit
	}
	two := func(next byte, yes, no Kind) Kind {
		if s.off < len(s.src) && s.src[s.off] == next {
			s.off++
			return yes
		}
		return no
	}
	switch c {
	case '{':
		return pos, LBRACE, ""
	case '}':
		return pos, RBRACE, ""
	case '(':
		return pos, LPAREN, ""
	case ')':
		return pos, RPAREN, ""
	case ',':
		return pos, COMMA, ""
	case ';':
		return pos, SEMI, ""
	case '+':
		return pos, ADD, ""
	case '*':
		return pos, MUL, ""
	case '/':
		return pos, QUO, ""
	case '%':
		return pos, REM, ""
	case '-':
		return pos, two('>', ARROW, SUB), ""
	case '=':
		return pos, two('=', EQL, ASSIGN), ""
	case '!':
		return pos, two('=', NEQ, NOT), ""
	case '<':
		return pos, two('=', LEQ, LSS), ""
	case '>':
		return pos, two('=', GEQ, GTR), ""
	case '&':
		if k := two('&', AND, ILLEGAL); k == AND {
			return pos, AND, ""
		}
	case '|':
		if k := two('|', OR, ILLEGAL); k == OR {
			return pos, OR, ""
		}
	}
	lit := string(s.src[start:s.off])
	s.err(pos, fmt.Sprintf("illegal character %q", lit))
	return pos, ILLEGAL, lit
}

// skipSpace skips white space and comments.
func (s *scanner) skipSpace() {
	for s.off < len(s.src) {
		switch c := s.src[s.off]; {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f':
			s.off++
		case c == '/' && s.off+1 < len(s.src) && s.src[s.off+1] == '/':
			for s.off < len(s.src) && s.src[s.off] != '\n' {
				s.off++
			}
		case c == '/' && s.off+1 < len(s.src) && s.src[s.off+1] == '*':
			start := s.off
			s.off += 2
			for {
				if s.off+1 >= len(s.src) {
					s.off = len(s.src)
					s.err(s.file.Pos(start), "comment not terminated")
					return
				}
				if s.src[s.off] == '*' && s.src[s.off+1] == '/' {
					s.off += 2
					break
				}
				s.off++
			}
		default:
			return
		}
	}
}
