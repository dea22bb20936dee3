package cli

import "io"

// maxMessageLine bounds a line birch writes on stderr. Messages quote at
// most an excerpt of bad input (source.Excerpt) where they are made; this
// is the guarantee for those that quote it whole (a megabyte-long name in
// an SMT-LIB script, a path): the rest of such a line is left out.
const maxMessageLine = 2000

// lineCap writes to w, cutting every line after maxMessageLine bytes with
// "…".
type lineCap struct {
	w   io.Writer
	col int // bytes of the current line written so far
}

func (c *lineCap) Write(p []byte) (int, error) {
	n := len(p)
	for len(p) > 0 {
		i := 0
		for i < len(p) && p[i] != '\n' {
			i++
		}
		line := p[:i]
		if room := maxMessageLine - c.col; len(line) > room {
			if room > 0 {
				if _, err := c.w.Write(line[:room]); err != nil {
					return 0, err
				}
			}
			if room >= 0 { // the line was not cut yet
				if _, err := io.WriteString(c.w, "…"); err != nil {
					return 0, err
				}
			}
			c.col += len(line)
			line = nil
		}
		if len(line) > 0 {
			if _, err := c.w.Write(line); err != nil {
				return 0, err
			}
			c.col += len(line)
		}
		if i < len(p) {
			if _, err := c.w.Write([]byte{'\n'}); err != nil {
				return 0, err
			}
			c.col = 0
			i++
		}
		p = p[i:]
	}
	return n, nil
}
