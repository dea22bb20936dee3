package c2bp

import (
	"context"
	"time"

	"birch/internal/abstraction/predicate"
	"birch/internal/bir/ast"
	"birch/internal/bir/types"
	"birch/internal/model"
	"birch/internal/source"
)

// Config configures Abstract. The zero value works.
type Config struct {
	// Solver names the solver of the cube queries ("" or "embedded": birch's
	// own; "z3", "cvc5": an SMT-LIB process, as package smt/solvers names them).
	Solver string
	// CubeLength bounds the literals of a cube (0: predicate.DefaultCubeLength).
	CubeLength int
	// Context cancels the abstraction (nil: never).
	Context context.Context
	// Filename names the generated source in positions (default: the
	// concrete file's name with ".pred" before its extension).
	Filename string
	// Cache, when not nil, answers the cube queries that an earlier
	// abstraction of the same model asked (the rounds of birch check
	// --cegar) and keeps this one's answers.
	Cache *predicate.QueryCache
}

// Output is the abstract model: a BIR program in which the predicates are
// boolean variables and the data they abstract are gone, and which
// over-approximates the concrete model (every concrete execution has an
// abstract counterpart with the same threads, locations and
// transformations, and every violation of the concrete model, a violation
// of the abstract one at the same step).
type Output struct {
	// Source is the abstract model as BIR text (birch fmt layout).
	Source []byte
	// Program is Source parsed and type-checked, with a FileSet of its own.
	Program *types.Program
	// Map relates Program to the concrete program.
	Map *Map
	// Predicates lists the predicates with their boolean variables, in the
	// order of the predicate file.
	Predicates []*Pred
	// Abstracted names the concrete variables and fields the abstract model
	// no longer has ("x", "Main.i", "Node.val"), sorted.
	Abstracted []string
	// Stats counts the work.
	Stats Stats
}

// Pred is a predicate and the boolean variable that holds it.
type Pred struct {
	*predicate.Predicate
	// Var is the boolean variable's name in Program; Proc is the thread or
	// function whose local it is, or "" for a global.
	Var, Proc string
}

// Stats counts the work of one abstraction.
type Stats struct {
	Predicates      int
	Transformations int // concrete transformations abstracted
	Queries         int // solver queries asked (cache misses)
	CacheHits       int
	Unknowns        int // queries the solver did not decide (counted as "no")
	SolverTime      time.Duration
	Total           time.Duration
}

// Map relates the abstract program to the concrete one.
type Map struct {
	Concrete *types.Program
	Abstract *types.Program
	// Origins lists the origin of every abstract transformation that stands
	// for a concrete one, in the order of the abstract source.
	Origins []*Origin

	byTrans map[*ast.Transformation]*Origin
}

// Origin says where an abstract transformation comes from.
type Origin struct {
	Abstract *ast.Transformation // in Map.Abstract
	// Proc, Location and Transformation are the concrete thread or
	// function, location and transformation; Index is the
	// transformation's index among its location's transformations.
	Proc           *types.Proc
	Location       *types.Location
	Transformation *ast.Transformation
	Index          int
	// Errors maps the abstract assertions that stand for a concrete
	// runtime error (an overflow, a zero divisor, an index out of bounds, a
	// null dereference, a value out of range whose operands are abstracted)
	// to that error: the key is the abstract action's index in
	// Abstract.Actions.
	Errors map[int]ErrorOutcome
}

// ErrorOutcome is a concrete runtime error that an abstract assertion
// stands for.
type ErrorOutcome struct {
	Kind model.ErrorKind
	Pos  source.Pos // the concrete expression that may fail
}

// Transformation returns the origin of an abstract transformation of
// m.Abstract, or nil for a transformation the abstraction added (the
// initial choice of unknown predicates, the update after a call returns).
func (m *Map) Transformation(t *ast.Transformation) *Origin { return m.byTrans[t] }

// UnsupportedError lists constructs of the concrete model that the
// abstraction cannot translate soundly, each with its position. A check
// reports them and is inconclusive (exit 3), never a guess.
type UnsupportedError struct {
	List source.ErrorList
}

func (e *UnsupportedError) Error() string { return e.List.Error() }
