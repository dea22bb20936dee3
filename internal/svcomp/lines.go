package svcomp

import (
	"regexp"
	"strconv"
	"strings"
)

// lineMarker is a line marker of preprocessed C, `# 12 "prog.c" 1`, or a
// #line directive, `#line 12 "prog.c"` or `#line 12` (the same file): the
// next line is line 12 of prog.c.
var lineMarker = regexp.MustCompile(`^\s*#\s*(?:line\s+)?(\d+)(?:\s+"((?:[^"\\]|\\.)*)")?(?:\s+\d+)*\s*$`)

// SourceLines returns the lines of C source that positions name: line
// `line` of `file`, "" when it is not known; the texts of all the lines
// mapped to it, separated by newlines, where #line directives map several
// lines to one (as CIL's output does). A file is read with read
// (once); a file that cannot be read (the original of a preprocessed .i
// file, named by its line markers) is looked up in the line markers of the
// inputs, so that the text at a position of a .i file's program is found
// in the .i file itself.
func SourceLines(inputs []string, read func(string) ([]byte, error)) func(file string, line int) string {
	files := map[string][]string{}
	var marked map[string]map[int][]string // file -> line -> texts, from the inputs' markers
	return func(file string, line int) string {
		ls, ok := files[file]
		if !ok {
			if b, err := read(file); err == nil {
				ls = strings.Split(string(b), "\n")
			}
			files[file] = ls
		}
		if ls != nil {
			if line < 1 || line > len(ls) {
				return ""
			}
			return ls[line-1]
		}
		if marked == nil {
			marked = map[string]map[int][]string{}
			for _, in := range inputs {
				if b, err := read(in); err == nil {
					markedLines(string(b), marked)
				}
			}
		}
		return strings.Join(marked[file][line], "\n")
	}
}

// markedLines adds the lines of preprocessed C src to m by the file and
// line their markers give them.
func markedLines(src string, m map[string]map[int][]string) {
	file, line := "", 0
	for _, l := range strings.Split(src, "\n") {
		if g := lineMarker.FindStringSubmatch(l); g != nil {
			n, err := strconv.Atoi(g[1])
			if err == nil && (g[2] != "" || file != "") {
				if g[2] != "" {
					file = strings.ReplaceAll(g[2], `\\`, `\`)
				}
				line = n
				continue
			}
		}
		if file != "" {
			if m[file] == nil {
				m[file] = map[int][]string{}
			}
			m[file][line] = append(m[file][line], l)
		}
		line++
	}
}
