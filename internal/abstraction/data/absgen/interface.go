package absgen

import (
	"sort"

	"birch/internal/abstraction/data"
	"birch/internal/bir/ast"
	"birch/internal/bir/types"
	"birch/internal/source"
)

// Config configures Generate. The zero value works.
type Config struct {
	// Data configures the synthesis of coercions between abstractions.
	Data data.Config
	// Filename names the generated source in positions (default: the
	// concrete file's name with ".abs" before its extension).
	Filename string
	// MaxCases bounds the cases of one transformation (default 4096).
	MaxCases int
}

// Output is the abstract model.
type Output struct {
	// Source is the abstract model as BIR text.
	Source []byte
	// Program is Source parsed and type-checked, with a FileSet of its own.
	Program *types.Program
	// Map relates Program to the concrete program.
	Map *Map
	// Wraps lists the places of the concrete program where an abstracted
	// value may wrap around a fixed-width type, in source order: the
	// abstract model covers only the executions in which none of them
	// wraps (a pass must say so). Empty when no abstracted value meets a
	// fixed-width type.
	Wraps []Wrap
}

// Map relates the abstract program to the concrete one.
type Map struct {
	Concrete *types.Program
	Abstract *types.Program
	// Origins lists the origin of every abstract transformation, in the
	// order of the abstract source.
	Origins []*Origin

	byTrans map[*ast.Transformation]*Origin
	spans   []span // sorted by start, then by decreasing end
}

// Origin says where an abstract transformation comes from.
type Origin struct {
	// Abstract is the abstract transformation (in Map.Abstract).
	Abstract *ast.Transformation
	// Proc, Location and Transformation are the concrete thread or
	// function, location and transformation; Index is the
	// transformation's index among its location's transformations.
	Proc           *types.Proc
	Location       *types.Location
	Transformation *ast.Transformation
	Index          int
	// Case describes the case for people, e.g. "m == ODD, result == EVEN",
	// or "" when the transformation covers every case.
	Case string
	// Imprecise reports that the abstract transformation may execute an
	// internChoose introduced by the abstraction (an imprecise result or
	// test, or a guard that may be true or false).
	Imprecise bool
	// Actions[i] is the index, in Transformation.Actions, of the concrete
	// action that abstract action i stands for, or -1 for an action the
	// generator added (a choice of an imprecise test, a marker, a reset).
	Actions []int
}

// span maps a range of the abstract source to a concrete position.
type span struct {
	start, end int // byte offsets in the abstract source
	pos        source.Pos
}

// Transformation returns the origin of an abstract transformation of
// m.Abstract, or nil.
func (m *Map) Transformation(t *ast.Transformation) *Origin { return m.byTrans[t] }

// Position returns the concrete position of an abstract position of
// m.Abstract: that of the innermost concrete construct the generated text
// at pos stands for. ok is false when pos is in generated text without a
// concrete counterpart (the token type declarations).
func (m *Map) Position(pos source.Pos) (p source.Position, ok bool) {
	f := m.Abstract.Fset.File(pos)
	if f == nil {
		return source.Position{}, false
	}
	off := f.Offset(pos)
	best := -1
	for i := sort.Search(len(m.spans), func(i int) bool { return m.spans[i].start > off }) - 1; i >= 0; i-- {
		s := m.spans[i]
		if s.start <= off && off < s.end && (best < 0 || s.end-s.start < m.spans[best].end-m.spans[best].start) {
			best = i
		}
	}
	if best < 0 {
		return source.Position{}, false
	}
	return m.Concrete.Fset.Position(m.spans[best].pos), true
}

// Proc returns the concrete thread or function of the same name as the
// abstract one, or nil.
func (m *Map) Proc(p *types.Proc) *types.Proc {
	if c, ok := m.Concrete.Procs.LookupLocal(p.Name()).(*types.Proc); ok {
		return c
	}
	return nil
}
