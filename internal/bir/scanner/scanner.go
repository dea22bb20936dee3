// Package scanner turns BIR source text into tokens.
//
// It is the second stage of the BIR front end (token -> scanner -> parser).
// Like go/scanner it never stops at an error: it reports the error through a
// handler and goes on, so the parser can report everything at once.
package scanner

import (
	"fmt"
	"unicode/utf8"

	"birch/internal/bir/token"
	"birch/internal/source"
)

// ErrorHandler receives scanning errors.
type ErrorHandler func(pos source.Pos, msg string)

// Scanner holds the scanning state. Initialise it with Init.
type Scanner struct {
	file *source.File
	src  []byte
	err  ErrorHandler

	ch       rune // current character, -1 at end of file
	offset   int  // offset of ch
	rdOffset int  // offset after ch

	ErrorCount int
}

// Init prepares s to scan src, which belongs to file.
func (s *Scanner) Init(file *source.File, src []byte, err ErrorHandler) {
	s.InitAt(file, src, 0, err)
}

// InitAt prepares s to scan src from byte offset from on; src is a prefix of
// file's content, so that positions point into file. It lets a tool scan
// one part of a file that is not BIR as a whole (a line of a predicate file).
func (s *Scanner) InitAt(file *source.File, src []byte, from int, err ErrorHandler) {
	s.file = file
	s.src = src
	s.err = err
	s.ch = ' '
	s.offset = from
	s.rdOffset = from
	s.ErrorCount = 0
	s.next()
}

func (s *Scanner) next() {
	if s.rdOffset >= len(s.src) {
		s.offset = len(s.src)
		s.ch = -1
		return
	}
	s.offset = s.rdOffset
	r, w := rune(s.src[s.rdOffset]), 1
	if r >= utf8.RuneSelf {
		r, w = utf8.DecodeRune(s.src[s.rdOffset:])
		if r == utf8.RuneError && w == 1 {
			s.error(s.offset, "illegal UTF-8 encoding")
		}
	} else if r == 0 {
		s.error(s.offset, "illegal character NUL")
	}
	s.rdOffset += w
	s.ch = r
}

func (s *Scanner) peek() byte {
	if s.rdOffset < len(s.src) {
		return s.src[s.rdOffset]
	}
	return 0
}

func (s *Scanner) error(offset int, msg string) {
	if s.err != nil {
		s.err(s.file.Pos(offset), msg)
	}
	s.ErrorCount++
}

func isLetter(ch rune) bool {
	return 'a' <= ch && ch <= 'z' || 'A' <= ch && ch <= 'Z' || ch == '_' || ch == '$'
}

func isDigit(ch rune) bool { return '0' <= ch && ch <= '9' }

func (s *Scanner) skipWhitespace() {
	for s.ch == ' ' || s.ch == '\t' || s.ch == '\n' || s.ch == '\r' || s.ch == '\f' {
		s.next()
	}
}

// Scan returns the next token: its position, kind and, for identifiers,
// literals and comments, its text. At the end of input it returns EOF.
func (s *Scanner) Scan() (pos source.Pos, tok token.Kind, lit string) {
	s.skipWhitespace()
	start := s.offset
	pos = s.file.Pos(start)
	ch := s.ch
	switch {
	case isLetter(ch):
		for isLetter(s.ch) || isDigit(s.ch) {
			s.next()
		}
		lit = string(s.src[start:s.offset])
		tok = token.Lookup(lit)
		if tok != token.IDENT {
			lit = ""
		}
		return
	case isDigit(ch):
		for isDigit(s.ch) {
			s.next()
		}
		if isLetter(s.ch) {
			for isLetter(s.ch) || isDigit(s.ch) {
				s.next()
			}
			s.error(start, fmt.Sprintf("malformed integer literal %q", source.Excerpt(string(s.src[start:s.offset]))))
		}
		return pos, token.INT, string(s.src[start:s.offset])
	}
	s.next()
	switch ch {
	case -1:
		tok = token.EOF
	case '"':
		tok, lit = token.STRING, s.scanString(start)
	case '/':
		switch s.ch {
		case '/':
			for s.ch != '\n' && s.ch >= 0 {
				s.next()
			}
			end := s.offset
			if end > start && s.src[end-1] == '\r' {
				end--
			}
			return pos, token.COMMENT, string(s.src[start:end])
		case '*':
			s.next()
			for {
				if s.ch < 0 {
					s.error(start, "comment not terminated")
					break
				}
				c := s.ch
				s.next()
				if c == '*' && s.ch == '/' {
					s.next()
					break
				}
			}
			return pos, token.COMMENT, string(s.src[start:s.offset])
		default:
			tok = token.QUO
		}
	case '+':
		tok = token.ADD
	case '-':
		if s.ch == '>' {
			s.next()
			tok = token.ARROW
		} else {
			tok = token.SUB
		}
	case '*':
		tok = token.MUL
	case '%':
		tok = token.REM
	case '&':
		if s.ch == '&' {
			s.next()
			tok = token.LAND
		} else {
			s.error(start, "unexpected '&' (did you mean &&?)")
			tok = token.ILLEGAL
			lit = "&"
		}
	case '|':
		if s.ch == '|' {
			s.next()
			tok = token.LOR
		} else {
			s.error(start, "unexpected '|' (did you mean ||?)")
			tok = token.ILLEGAL
			lit = "|"
		}
	case '!':
		if s.ch == '=' {
			s.next()
			tok = token.NEQ
		} else {
			tok = token.NOT
		}
	case '=':
		if s.ch == '=' {
			s.next()
			tok = token.EQL
		} else {
			tok = token.DEFINE
		}
	case '<':
		switch {
		case s.ch == '=':
			s.next()
			tok = token.LEQ
		case s.ch == '>':
			s.next()
			tok = token.EVENTUAL
		case s.ch == '-' && s.peek() == '>':
			s.next()
			s.next()
			tok = token.IFF
		default:
			tok = token.LSS
		}
	case '>':
		if s.ch == '=' {
			s.next()
			tok = token.GEQ
		} else {
			tok = token.GTR
		}
	case ':':
		if s.ch == '=' {
			s.next()
			tok = token.ASSIGN
		} else {
			tok = token.COLON
		}
	case '@':
		tok = token.AT
	case '(':
		tok = token.LPAREN
	case ')':
		tok = token.RPAREN
	case '[':
		if s.ch == ']' {
			s.next()
			tok = token.ALWAYS
		} else {
			tok = token.LBRACK
		}
	case ']':
		tok = token.RBRACK
	case '{':
		tok = token.LBRACE
	case '}':
		tok = token.RBRACE
	case ',':
		tok = token.COMMA
	case ';':
		tok = token.SEMICOLON
	case '.':
		if s.ch == '.' {
			s.next()
			tok = token.ELLIPSIS
		} else {
			tok = token.PERIOD
		}
	default:
		s.error(start, fmt.Sprintf("illegal character %#U", ch))
		tok = token.ILLEGAL
		lit = string(ch)
	}
	return
}

func (s *Scanner) scanString(start int) string {
	for {
		ch := s.ch
		if ch == '\n' || ch < 0 {
			s.error(start, "string literal not terminated")
			break
		}
		s.next()
		if ch == '"' {
			break
		}
		if ch == '\\' {
			switch s.ch {
			case '"', '\\', 'n':
				s.next()
			default:
				s.error(s.offset, "unknown escape sequence in string (allowed: \\\" \\\\ \\n)")
				if s.ch >= 0 && s.ch != '\n' {
					s.next()
				}
			}
		}
	}
	return string(s.src[start:s.offset])
}
