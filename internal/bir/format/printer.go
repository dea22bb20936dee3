package format

import (
	"bytes"
	"sort"
	"strings"

	"birch/internal/bir/ast"
	"birch/internal/bir/scanner"
	"birch/internal/source"
)

// maxWidth is the column limit for the one-line forms of transformations,
// records and enums.
const maxWidth = 100

// contIndent is the extra indentation of the lines of an item that a comment
// broke in the middle.
const contIndent = 4

// blankPolicy says whether a blank line goes before the lines that follow a
// line break requested by the layout.
type blankPolicy uint8

const (
	// keepBlank: one blank line where the source had at least one.
	keepBlank blankPolicy = iota
	// openBlank: none before the first line (it follows an opening line such as
	// a thread header or `when … {`); keepBlank for the lines after it.
	openBlank
	// closeBlank: none before the token (it is a closing `end` or `}`);
	// keepBlank for comment lines before it.
	closeBlank
	// forceBlank: always one before the first line; keepBlank after it.
	forceBlank
	// tightBlank: never; used for breaks that comments force inside an item.
	tightBlank
)

// printer writes tokens and interleaves the file's comments with them by
// position. Line breaks and spaces requested by the layout are lazy: they are
// written just before the next token or comment, so that a comment on the same
// source line as the previous token can still go at the end of its line.
type printer struct {
	fset     *source.FileSet
	comments []*ast.Comment // every comment, in source order
	next     int            // index of the first comment not yet printed

	buf    bytes.Buffer
	col    int  // bytes on the current output line
	indent int  // indentation of the current item
	cont   bool // a comment broke the current item: lines get contIndent more

	// pending separators
	space  bool        // a space before the next token on this line
	nl     bool        // a line break before the next token or own-line comment
	policy blankPolicy // blank-line policy of the pending break
	lineNo int         // lines written since the layout requested the break

	lastLine int // source line where the last printed token or comment ends; 0 if unknown

	multi bool // print records and enums of the current item one element per line
}

func newPrinter(fset *source.FileSet, groups []*ast.CommentGroup) *printer {
	p := &printer{fset: fset}
	for _, g := range groups {
		if g == nil {
			continue
		}
		for _, c := range g.List {
			if c != nil {
				p.comments = append(p.comments, c)
			}
		}
	}
	// The parser delivers comments in source order; sort anyway so that a
	// hand-built tree cannot make the printer lose one.
	sort.SliceStable(p.comments, func(i, j int) bool { return p.comments[i].Slash < p.comments[j].Slash })
	return p
}

// line returns the source line of pos in its own file (line directives do
// not apply: they map positions, not the layout), or 0 when it is unknown.
func (p *printer) line(pos source.Pos) int {
	if p.fset == nil || !pos.IsValid() {
		return 0
	}
	return p.fset.PositionFor(pos, false).Line
}

// isLineDirective reports whether c is a line directive: a //line comment
// in column 1 (docs/bir.md, "Line directives"). It stays in column 1.
func (p *printer) isLineDirective(c *ast.Comment) bool {
	return p.fset != nil && strings.HasPrefix(c.Text, scanner.LineDirectivePrefix) &&
		p.fset.PositionFor(c.Pos(), false).Column == 1
}

// newline asks for a line break before the next output, with the given
// blank-line policy. It ends a continuation started by a comment.
func (p *printer) newline(policy blankPolicy) {
	p.nl = true
	p.policy = policy
	p.lineNo = 0
	p.cont = false
	p.space = false
}

// sp asks for a space before the next token.
func (p *printer) sp() { p.space = true }

// blank decides whether a blank line goes before a new line that starts with
// something at source line line.
func (p *printer) blank(line int, isToken bool) bool {
	gap := line > 0 && p.lastLine > 0 && line-p.lastLine > 1
	switch p.policy {
	case forceBlank:
		return p.lineNo == 0 || gap
	case openBlank:
		return p.lineNo > 0 && gap
	case closeBlank:
		return !isToken && gap
	case tightBlank:
		return false
	}
	return gap
}

// startLine writes the pending line break (if any) and the indentation of a
// new line whose first element is at source line line.
func (p *printer) startLine(line int, isToken bool) {
	if p.nl {
		if p.buf.Len() > 0 {
			p.buf.WriteByte('\n')
			if p.blank(line, isToken) {
				p.buf.WriteByte('\n')
			}
		}
		p.col = 0
		p.nl = false
		p.lineNo++
	}
	if p.col == 0 {
		n := p.indent
		if p.cont {
			n += contIndent
		}
		for i := 0; i < n; i++ {
			p.buf.WriteByte(' ')
		}
		p.col = n
	}
	p.space = false
}

func (p *printer) write(s string) {
	p.buf.WriteString(s)
	if i := strings.LastIndexByte(s, '\n'); i >= 0 {
		p.col = len(s) - i - 1
	} else {
		p.col += len(s)
	}
}

// tok prints one token. pos is the token's source position, or NoPos for a
// token the tree does not record (or that the canonical form moves); comments
// before a valid pos are printed first.
func (p *printer) tok(pos source.Pos, s string) {
	if pos.IsValid() {
		p.flush(pos)
	}
	if p.nl || p.col == 0 {
		p.startLine(p.line(pos), true)
	} else if p.space {
		p.buf.WriteByte(' ')
		p.col++
	}
	p.space = false
	p.write(s)
	if l := p.line(pos); l > 0 {
		p.lastLine = l
	}
}

// flush prints every comment that starts before pos.
func (p *printer) flush(pos source.Pos) {
	for p.next < len(p.comments) && p.comments[p.next].Slash < pos {
		c := p.comments[p.next]
		p.next++
		p.comment(c)
	}
}

// flushAll prints the remaining comments.
func (p *printer) flushAll() {
	for p.next < len(p.comments) {
		c := p.comments[p.next]
		p.next++
		p.comment(c)
	}
}

// comment prints one comment. A comment on the source line where the last
// printed token or comment ends stays at the end of the current output line;
// any other goes on a line of its own.
func (p *printer) comment(c *ast.Comment) {
	text := trimComment(c.Text)
	line := p.line(c.Pos())
	lineComment := strings.HasPrefix(text, "//") || strings.Contains(text, "\n")
	if p.col > 0 && line > 0 && line == p.lastLine {
		// trailing comment
		p.buf.WriteByte(' ')
		p.col++
		p.write(text)
		if lineComment && !p.nl {
			// the rest of the item goes on a continuation line
			p.nl, p.policy, p.lineNo, p.cont = true, tightBlank, 0, true
		}
		p.space = !lineComment
	} else {
		if !p.nl && p.col > 0 {
			// a comment on its own line in the middle of an item
			p.nl, p.policy, p.lineNo, p.cont = true, tightBlank, 0, true
		}
		if p.isLineDirective(c) {
			indent, cont := p.indent, p.cont
			p.indent, p.cont = 0, false
			p.startLine(line, false)
			p.indent, p.cont = indent, cont
		} else {
			p.startLine(line, false)
		}
		p.write(text)
		p.nl = true // the next token goes on a line after the comment
	}
	if l := p.line(c.End()); l > 0 {
		p.lastLine = l
	}
}

// trimComment removes white space at the end of each line of a comment.
func trimComment(s string) string {
	if !strings.ContainsAny(s, " \t\r\f\v") {
		return s
	}
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		lines[i] = strings.TrimRight(l, " \t\r\f\v")
	}
	return strings.Join(lines, "\n")
}

// hasComments reports whether a comment starts in [from, to).
func (p *printer) hasComments(from, to source.Pos) bool {
	if !from.IsValid() || !to.IsValid() {
		return false
	}
	i := sort.Search(len(p.comments), func(i int) bool { return p.comments[i].Slash >= from })
	return i < len(p.comments) && p.comments[i].Slash < to
}

// oneLineComments reports whether the comments in [from, to) allow a
// one-line form, and how many columns they add to it. They allow it when
// there are none, or when the range lies on one source line and holds only
// /* */ comments: those stay inline, each after a space.
func (p *printer) oneLineComments(from, to source.Pos) (extra int, ok bool) {
	if !from.IsValid() || !to.IsValid() {
		return 0, true
	}
	i := sort.Search(len(p.comments), func(i int) bool { return p.comments[i].Slash >= from })
	if i == len(p.comments) || p.comments[i].Slash >= to {
		return 0, true
	}
	if p.line(from) == 0 || p.line(from) != p.line(to-1) {
		return 0, false
	}
	for ; i < len(p.comments) && p.comments[i].Slash < to; i++ {
		text := p.comments[i].Text
		if strings.HasPrefix(text, "//") || strings.Contains(text, "\n") {
			return 0, false
		}
		extra += 1 + len(trimComment(text))
	}
	return extra, true
}

// measure returns the length of what f prints on a fresh printer without
// comments, in one-line form.
func measure(f func(q *printer)) int {
	q := &printer{}
	f(q)
	return q.buf.Len()
}

// span returns n's extent, or NoPos for both ends when a malformed tree
// makes it unknowable.
func span(n ast.Node) (from, to source.Pos) {
	defer func() {
		if recover() != nil {
			from, to = source.NoPos, source.NoPos
		}
	}()
	if n == nil {
		return source.NoPos, source.NoPos
	}
	return n.Pos(), n.End()
}
