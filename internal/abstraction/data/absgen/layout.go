package absgen

import (
	"sort"

	"birch/internal/bir/format"
	"birch/internal/bir/scanner"
	"birch/internal/bir/token"
	"birch/internal/source"
)

// canonical returns src in the canonical layout of birch fmt, with the
// spans moved to the same text in it. The generator writes one
// transformation to a line; the formatter decides where lines break and
// where blank lines go, so the model birch abstract prints is one that
// birch fmt leaves alone. Formatting changes only the space between tokens,
// so a span is moved token by token. ok is false (and src and spans are
// untouched) when src does not format or the tokens differ, which would be
// a bug of the formatter; the generated layout is then kept.
func canonical(filename string, src []byte, spans []span) (out []byte, ok bool) {
	out, err := format.Source(filename, src)
	if err != nil {
		return src, false
	}
	from, _, fromText := tokenSpans(src)
	to, toEnd, toText := tokenSpans(out)
	if len(from) != len(to) {
		return src, false
	}
	for i := range from {
		if fromText[i] != toText[i] {
			return src, false
		}
	}
	// move maps an offset of src to out: an offset inside or after token i
	// (and before token i+1) goes to the same place in or just after token
	// i of out.
	move := func(off int, end bool) int {
		i := sort.SearchInts(from, off)
		if i < len(from) && from[i] == off && !end {
			return to[i]
		}
		i-- // the last token starting before off
		if i < 0 {
			return off
		}
		return to[i] + min(off-from[i], toEnd[i]-to[i])
	}
	for k := range spans {
		spans[k].start = move(spans[k].start, false)
		spans[k].end = move(spans[k].end, true)
	}
	return out, true
}

// tokenSpans returns the start and end offsets and the text of every token
// of src (comments are skipped by the scanner).
func tokenSpans(src []byte) (starts, ends []int, texts []string) {
	fset := source.NewFileSet()
	file := fset.AddFile("", src)
	var s scanner.Scanner
	s.Init(file, src, func(source.Pos, string) {})
	for {
		pos, tok, lit := s.Scan()
		switch tok {
		case token.EOF:
			return starts, ends, texts
		case token.COMMENT:
			continue
		}
		start := file.Offset(pos)
		text := lit
		if text == "" {
			// A keyword as written (the scanner gives only its kind), or an
			// operator.
			n := 0
			for start+n < len(src) && isWordByte(src[start+n]) {
				n++
			}
			text = tok.String()
			if n > 0 {
				text = string(src[start : start+n])
			}
		}
		starts = append(starts, start)
		ends = append(ends, start+len(text))
		texts = append(texts, text)
	}
}

func isWordByte(c byte) bool {
	return c == '_' || c == '$' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9'
}
