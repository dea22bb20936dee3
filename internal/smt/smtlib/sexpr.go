package smtlib

import (
	"bufio"
	"fmt"
	"io"
	"strings"
)

// Kind classifies S-expressions.
type Kind uint8

const (
	List    Kind = iota // ( … )
	Symbol              // x, |a b| (Text holds the name without bars)
	Keyword             // :named
	Numeral             // 42
	Decimal             // 4.2
	Hex                 // #x1F
	Binary              // #b101
	String              // "abc" (Text holds the contents, "" unescaped)
)

// A Node is an S-expression with the byte offset where it starts.
type Node struct {
	Kind   Kind
	Text   string  // atoms: the token (symbols unquoted, strings unescaped)
	Kids   []*Node // lists
	Offset int
	Quoted bool // symbols written |…|
}

// IsSymbol reports whether n is the symbol name.
func (n *Node) IsSymbol(name string) bool { return n.Kind == Symbol && n.Text == name }

// Head returns the symbol at the head of a list, or "".
func (n *Node) Head() string {
	if n.Kind == List && len(n.Kids) > 0 && n.Kids[0].Kind == Symbol && !n.Kids[0].Quoted {
		return n.Kids[0].Text
	}
	return ""
}

// String prints n back in SMT-LIB2 syntax.
func (n *Node) String() string {
	var b strings.Builder
	n.write(&b)
	return b.String()
}

func (n *Node) write(b *strings.Builder) {
	switch n.Kind {
	case List:
		b.WriteByte('(')
		for i, k := range n.Kids {
			if i > 0 {
				b.WriteByte(' ')
			}
			k.write(b)
		}
		b.WriteByte(')')
	case Symbol:
		if n.Quoted {
			b.WriteString("|" + n.Text + "|")
		} else {
			b.WriteString(n.Text)
		}
	case String:
		b.WriteString(`"` + strings.ReplaceAll(n.Text, `"`, `""`) + `"`)
	default:
		b.WriteString(n.Text)
	}
}

// Error is an error at a byte offset of the input.
type Error struct {
	Offset int
	Msg    string
}

func errorAt(n *Node, format string, args ...any) error {
	return &Error{Offset: n.Offset, Msg: fmt.Sprintf(format, args...)}
}

func (e *Error) Error() string { return fmt.Sprintf("offset %d: %s", e.Offset, e.Msg) }

// MaxDepth bounds the nesting of lists in a script, so that no input can
// exhaust the stack of the parser or of the stages that walk its terms
// recursively (elaboration, rewriting, the solver). Deeper input is an
// error at the list that goes too deep.
const MaxDepth = 10000

// Parse reads all S-expressions of src. On a syntax error it returns the
// expressions before it and the error.
func Parse(src string) ([]*Node, error) {
	p := &parser{src: src}
	var out []*Node
	for {
		p.skip()
		if p.pos >= len(p.src) {
			return out, nil
		}
		n, err := p.node()
		if err != nil {
			return out, err
		}
		out = append(out, n)
	}
}

type parser struct {
	src   string
	pos   int
	depth int // lists open
}

// skip passes white space and comments.
func (p *parser) skip() {
	for p.pos < len(p.src) {
		c := p.src[p.pos]
		switch {
		case c == ';':
			for p.pos < len(p.src) && p.src[p.pos] != '\n' {
				p.pos++
			}
		case c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f':
			p.pos++
		default:
			return
		}
	}
}

func (p *parser) errorf(off int, format string, args ...any) error {
	return &Error{Offset: off, Msg: fmt.Sprintf(format, args...)}
}

func (p *parser) node() (*Node, error) {
	start := p.pos
	c := p.src[p.pos]
	switch {
	case c == '(':
		if p.depth >= MaxDepth {
			return nil, p.errorf(start, "lists nested more than %d deep", MaxDepth)
		}
		p.depth++
		defer func() { p.depth-- }()
		p.pos++
		n := &Node{Kind: List, Offset: start}
		for {
			p.skip()
			if p.pos >= len(p.src) {
				return nil, p.errorf(start, "unclosed (")
			}
			if p.src[p.pos] == ')' {
				p.pos++
				return n, nil
			}
			k, err := p.node()
			if err != nil {
				return nil, err
			}
			n.Kids = append(n.Kids, k)
		}
	case c == ')':
		return nil, p.errorf(start, "unexpected )")
	case c == '|':
		end := strings.IndexByte(p.src[p.pos+1:], '|')
		if end < 0 {
			return nil, p.errorf(start, "unclosed |")
		}
		text := p.src[p.pos+1 : p.pos+1+end]
		if strings.IndexByte(text, '\\') >= 0 {
			return nil, p.errorf(start, `quoted symbol contains \`)
		}
		p.pos += end + 2
		return &Node{Kind: Symbol, Text: text, Offset: start, Quoted: true}, nil
	case c == '"':
		var b strings.Builder
		i := p.pos + 1
		for {
			if i >= len(p.src) {
				return nil, p.errorf(start, "unclosed string")
			}
			if p.src[i] == '"' {
				if i+1 < len(p.src) && p.src[i+1] == '"' {
					b.WriteByte('"')
					i += 2
					continue
				}
				break
			}
			b.WriteByte(p.src[i])
			i++
		}
		p.pos = i + 1
		return &Node{Kind: String, Text: b.String(), Offset: start}, nil
	case c == '#':
		i := p.pos + 2
		if p.pos+1 >= len(p.src) || (p.src[p.pos+1] != 'x' && p.src[p.pos+1] != 'b') {
			return nil, p.errorf(start, "unexpected #")
		}
		for i < len(p.src) && isHexDigit(p.src[i]) {
			i++
		}
		kind := Hex
		if p.src[p.pos+1] == 'b' {
			kind = Binary
		}
		n := &Node{Kind: kind, Text: p.src[p.pos:i], Offset: start}
		p.pos = i
		return n, nil
	case c >= '0' && c <= '9':
		i := p.pos
		for i < len(p.src) && p.src[i] >= '0' && p.src[i] <= '9' {
			i++
		}
		kind := Numeral
		if i < len(p.src) && p.src[i] == '.' {
			kind = Decimal
			i++
			for i < len(p.src) && p.src[i] >= '0' && p.src[i] <= '9' {
				i++
			}
		}
		n := &Node{Kind: kind, Text: p.src[p.pos:i], Offset: start}
		p.pos = i
		if p.pos < len(p.src) && isSymbolChar(p.src[p.pos]) {
			return nil, p.errorf(start, "malformed numeral")
		}
		return n, nil
	case c == ':':
		i := p.pos + 1
		for i < len(p.src) && isSymbolChar(p.src[i]) {
			i++
		}
		n := &Node{Kind: Keyword, Text: p.src[p.pos:i], Offset: start}
		p.pos = i
		return n, nil
	case isSymbolChar(c):
		i := p.pos
		for i < len(p.src) && isSymbolChar(p.src[i]) {
			i++
		}
		n := &Node{Kind: Symbol, Text: p.src[p.pos:i], Offset: start}
		p.pos = i
		return n, nil
	}
	return nil, p.errorf(start, "unexpected character %q", c)
}

func isSymbolChar(c byte) bool {
	switch {
	case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c >= '0' && c <= '9':
		return true
	}
	return strings.IndexByte("~!@$%^&*_-+=<>.?/", c) >= 0
}

func isHexDigit(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'
}

// ReadResponse reads one complete S-expression (a list or an atom) from r,
// as a solver prints it in answer to a command, skipping comments and
// blank space before it. It returns the text read.
func ReadResponse(r *bufio.Reader) (string, error) {
	var b strings.Builder
	depth := 0
	started := false
	for {
		c, err := r.ReadByte()
		if err != nil {
			if err == io.EOF && started && depth == 0 {
				return b.String(), nil
			}
			if err == io.EOF {
				err = io.ErrUnexpectedEOF
			}
			return b.String(), err
		}
		switch {
		case c == ';':
			line, _ := r.ReadString('\n')
			if started {
				b.WriteByte(c)
				b.WriteString(line)
			}
			if started && depth == 0 {
				return b.String(), nil
			}
			continue
		case c == '|' || c == '"':
			started = true
			b.WriteByte(c)
			for {
				d, err := r.ReadByte()
				if err != nil {
					return b.String(), io.ErrUnexpectedEOF
				}
				b.WriteByte(d)
				if d == c {
					if c == '"' {
						if next, err := r.Peek(1); err == nil && next[0] == '"' {
							r.ReadByte()
							b.WriteByte('"')
							continue
						}
					}
					break
				}
			}
			if depth == 0 {
				return b.String(), nil
			}
			continue
		case c == '(':
			started = true
			depth++
		case c == ')':
			depth--
			b.WriteByte(c)
			if depth <= 0 {
				return b.String(), nil
			}
			continue
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			if !started {
				continue
			}
			if depth == 0 {
				return b.String(), nil
			}
		default:
			started = true
		}
		b.WriteByte(c)
	}
}
