// Package scanner turns BIR source text into tokens.
//
// It is the second stage of the BIR front end (token -> scanner -> parser).
// Like go/scanner it never stops at an error: it reports the error through a
// handler and goes on, so the parser can report everything at once.
package scanner

import (
	"fmt"
	"strconv"
	"strings"
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
			if (start == 0 || s.src[start-1] == '\n') && s.ch == '\n' {
				s.lineDirective(start, string(s.src[start:end]), s.offset+1)
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
			tok = token.AND
		}
	case '|':
		if s.ch == '|' {
			s.next()
			tok = token.LOR
		} else {
			tok = token.OR
		}
	case '^':
		tok = token.XOR
	case '~':
		tok = token.TILDE
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
		case s.ch == '<':
			s.next()
			tok = token.SHL
		default:
			tok = token.LSS
		}
	case '>':
		switch s.ch {
		case '=':
			s.next()
			tok = token.GEQ
		case '>':
			s.next()
			tok = token.SHR
		default:
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

// lineDirective records text, a comment in column 1, in the file's line
// table if it is a `//line FILE:LINE:COL` directive; next is the offset of
// the line it maps.
func (s *Scanner) lineDirective(start int, text string, next int) {
	if !strings.HasPrefix(text, LineDirectivePrefix) {
		return
	}
	file, line, col, ok := ParseLineDirective(text)
	if !ok {
		s.error(start, "malformed line directive: want //line FILE:LINE:COL with LINE and COL positive")
		return
	}
	s.file.AddLineColumnInfo(next, file, line, col)
}

// maxDirectiveLine bounds LINE and COL, so that the lines after a directive
// cannot overflow.
const maxDirectiveLine = 1 << 30

// LineDirectivePrefix starts a line directive (in column 1).
const LineDirectivePrefix = "//line "

// ParseLineDirective splits a line directive `//line FILE:LINE:COL` (or
// `//line FILE:LINE`, column 1) into its parts. FILE may contain colons;
// LINE and COL are positive decimal numbers.
func ParseLineDirective(text string) (file string, line, col int, ok bool) {
	rest, found := strings.CutPrefix(text, LineDirectivePrefix)
	if !found {
		return "", 0, 0, false
	}
	rest = strings.TrimRight(rest, " \t")
	digits := func(s string) bool { return s != "" && strings.Trim(s, "0123456789") == "" }
	num := func(s string) int {
		n, err := strconv.Atoi(s)
		if err != nil || !digits(s) || n > maxDirectiveLine {
			return 0
		}
		return n
	}
	i := strings.LastIndexByte(rest, ':')
	if i < 0 {
		return "", 0, 0, false
	}
	last := num(rest[i+1:])
	if j := strings.LastIndexByte(rest[:i], ':'); j >= 0 && digits(rest[j+1:i]) {
		file, line, col = rest[:j], num(rest[j+1:i]), last
	} else {
		file, line, col = rest[:i], last, 1
	}
	if file == "" || line < 1 || col < 1 {
		return "", 0, 0, false
	}
	return file, line, col, true
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
