package source

import (
	"fmt"
	"sort"
	"sync"
)

// Pos is a compact position: an offset into a FileSet's global space.
// The zero value NoPos means "no position".
type Pos int

// NoPos is the zero Pos; it is never a valid position.
const NoPos Pos = 0

// IsValid reports whether p is a real position.
func (p Pos) IsValid() bool { return p != NoPos }

// Position is a Pos resolved to a file name, line and column (both 1-based;
// the column counts bytes).
type Position struct {
	Filename string
	Offset   int
	Line     int
	Column   int
}

// IsValid reports whether the position names a line.
func (p Position) IsValid() bool { return p.Line > 0 }

// String formats the position as file:line:col (or a shorter form when parts
// are missing).
func (p Position) String() string {
	s := p.Filename
	if p.IsValid() {
		if s != "" {
			s += ":"
		}
		s += fmt.Sprintf("%d:%d", p.Line, p.Column)
	}
	if s == "" {
		s = "-"
	}
	return s
}

// File is one source file inside a FileSet.
type File struct {
	name  string
	base  int
	size  int
	lines []int // offsets of line starts; lines[0] == 0
	infos []lineInfo
}

// lineInfo is a line directive's effect: from the line starting at Offset
// on, positions are reported in Filename at Line (and, on that first line,
// exactly Column).
type lineInfo struct {
	Offset   int
	Filename string
	Line     int
	Column   int
}

// Name returns the file name given to AddFile.
func (f *File) Name() string { return f.name }

// Base returns the Pos of the file's first byte.
func (f *File) Base() int { return f.base }

// Size returns the file's length in bytes.
func (f *File) Size() int { return f.size }

// Pos returns the Pos for a byte offset within the file. Offsets are clamped
// to [0, size].
func (f *File) Pos(offset int) Pos {
	if offset < 0 {
		offset = 0
	}
	if offset > f.size {
		offset = f.size
	}
	return Pos(f.base + offset)
}

// Offset returns the byte offset of p within the file.
func (f *File) Offset(p Pos) int { return int(p) - f.base }

// AddLine records that a line starts at offset. Offsets must increase.
func (f *File) AddLine(offset int) {
	if n := len(f.lines); n == 0 || f.lines[n-1] < offset && offset <= f.size {
		f.lines = append(f.lines, offset)
	}
}

// SetLinesForContent computes the line table from the file's content.
func (f *File) SetLinesForContent(src []byte) {
	f.lines = f.lines[:0]
	f.lines = append(f.lines, 0)
	for i, c := range src {
		if c == '\n' && i+1 <= f.size {
			f.lines = append(f.lines, i+1)
		}
	}
}

// AddLineColumnInfo records a line directive (`//line FILE:LINE:COL`):
// every position on the line that starts at offset is reported as exactly
// filename:line:column, and the k-th line after it as filename:line+k with
// its own column, up to the next directive. offset must be the start of a
// line and greater than that of the directives already recorded; others
// are ignored (a file parsed twice records its directives once).
func (f *File) AddLineColumnInfo(offset int, filename string, line, column int) {
	if offset < 0 || offset > f.size || line < 1 || column < 1 {
		return
	}
	if n := len(f.infos); n > 0 && f.infos[n-1].Offset >= offset {
		return
	}
	f.infos = append(f.infos, lineInfo{Offset: offset, Filename: filename, Line: line, Column: column})
}

// HasLineDirectives reports whether line directives were recorded for f.
func (f *File) HasLineDirectives() bool { return len(f.infos) > 0 }

// Position resolves p, which must belong to f, applying line directives.
func (f *File) Position(p Pos) Position { return f.PositionFor(p, true) }

// PositionFor resolves p, which must belong to f; adjusted says whether line
// directives apply (false gives the place in f itself, for layout).
func (f *File) PositionFor(p Pos, adjusted bool) Position {
	off := int(p) - f.base
	i := sort.Search(len(f.lines), func(i int) bool { return f.lines[i] > off }) - 1
	if i < 0 {
		i = 0
	}
	pos := Position{Filename: f.name, Offset: off, Line: i + 1, Column: off - f.lines[i] + 1}
	if !adjusted || len(f.infos) == 0 {
		return pos
	}
	j := sort.Search(len(f.infos), func(j int) bool { return f.infos[j].Offset > off }) - 1
	if j < 0 {
		return pos
	}
	info := f.infos[j]
	first := sort.Search(len(f.lines), func(i int) bool { return f.lines[i] > info.Offset }) - 1
	pos.Filename = info.Filename
	if i == first {
		pos.Line, pos.Column = info.Line, info.Column
	} else {
		pos.Line = info.Line + i - first
	}
	return pos
}

// FileSet holds files and maps positions back to them. It is safe for
// concurrent use. The zero value is ready to use.
type FileSet struct {
	mu    sync.RWMutex
	base  int
	files []*File
}

// NewFileSet returns an empty file set.
func NewFileSet() *FileSet { return &FileSet{} }

// AddFile adds a file of the given name and content and returns it, with its
// line table computed.
func (s *FileSet) AddFile(name string, src []byte) *File {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.base == 0 {
		s.base = 1
	}
	f := &File{name: name, base: s.base, size: len(src), lines: []int{0}}
	f.SetLinesForContent(src)
	s.base += len(src) + 1 // +1 so that the end-of-file position is unique
	s.files = append(s.files, f)
	return f
}

// File returns the file containing p, or nil.
func (s *FileSet) File(p Pos) *File {
	if !p.IsValid() {
		return nil
	}
	s.mu.RLock()
	defer s.mu.RUnlock()
	i := sort.Search(len(s.files), func(i int) bool { return s.files[i].base > int(p) }) - 1
	if i < 0 {
		return nil
	}
	f := s.files[i]
	if int(p) > f.base+f.size {
		return nil
	}
	return f
}

// Position resolves p to file, line and column, applying line directives;
// an invalid p gives the zero Position.
func (s *FileSet) Position(p Pos) Position { return s.PositionFor(p, true) }

// PositionFor is Position, with line directives applied only if adjusted.
func (s *FileSet) PositionFor(p Pos, adjusted bool) Position {
	if s == nil {
		return Position{}
	}
	if f := s.File(p); f != nil {
		return f.PositionFor(p, adjusted)
	}
	return Position{}
}
