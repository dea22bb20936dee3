package bp

import (
	"birch/internal/bir/ast"
	"birch/internal/bir/types"
	"birch/internal/boolprog"
	"birch/internal/model"
	"birch/internal/source"
)

// Config configures Translate; its zero value works.
type Config struct {
	// Filename names the boolean program in positions (default: the BIR
	// file's name with its extension replaced by ".bp").
	Filename string
}

// Output is the boolean program of a BIR model.
type Output struct {
	// Source is the boolean program as text (boolprog.Fprint's layout).
	Source []byte
	// Program is Source parsed, with positions in Fset; Info is its
	// boolprog.Resolve result, ready for bebop.Check or
	// boolprog.CheckExplicit.
	Program *boolprog.Program
	Fset    *source.FileSet
	Info    *boolprog.Info
	// Map relates the boolean program to the BIR model.
	Map *Map
	// Bounds says why BIR's bounds may cut paths that the boolean program
	// follows, or is "" when they cannot: a recursive function (BIR stops
	// a thread at 64 active calls) or a cycle of invisible transformations
	// (BIR stops an invisible run after 10000). Where they can, the
	// boolean program's verdict may differ from birch check's on the BIR
	// model, which reports a path cut by a bound as inconclusive: a pass
	// of the boolean program does not say that no bound is reached, and a
	// failure beyond a bound does not replay (Schedule.Ordinals says so).
	Bounds string
}

// Map relates the boolean program to the BIR program it was translated
// from: labels to locations and transformations, variables to BIR
// variables, assertions to BIR assertions.
type Map struct {
	BIR *types.Program
	// procs: per boolean-program procedure name, the BIR thread or
	// function it stands for, with its labels and variables.
	procs map[string]*procMap
	// globals: the BIR globals and the positions of their bits among the
	// program's globals
	globals []slot
	// asserts: the position (line and column in the boolean program) of
	// every assert statement, and the BIR assertion it stands for.
	asserts map[lineCol]assertOrigin
	// calls: the position of every call statement
	calls map[lineCol]bool
}

type lineCol struct{ line, col int }

// assertOrigin is what an assert statement stands for: a BIR assertion,
// or a runtime error of an action (of the guard: -1; of the returned
// value: len(Actions)).
type assertOrigin struct {
	trans  *transMap
	action int // index in the transformation's Actions
	kind   model.ErrorKind
}

// slot is a BIR variable and the positions of its bits among the
// variables of its scope in the boolean program.
type slot struct {
	v    *types.Var
	d    *domain // nil: a boolean
	bits []int
}

// procMap is what the Map knows of one procedure.
type procMap struct {
	proc *types.Proc
	// vars: the parameters and locals; temps: the temporaries of choices
	// that follow them
	vars  []slot
	temps int
	locs  map[string]*types.Location
	// trans: by the label of its first statement, a transformation
	trans map[string]*transMap
}

// transMap is one BIR transformation in the boolean program.
type transMap struct {
	proc  *types.Proc
	loc   *types.Location
	index int
	decl  *ast.Transformation
	call  bool // ends in a call
	ret   bool // ends in a return
}

// Step is one BIR transformation taken by a boolean-program trail.
type Step struct {
	// Proc is the thread or function, Location the location the step
	// leaves, Index the transformation's index among the location's
	// transformations and Transformation its syntax.
	Proc           *types.Proc
	Location       *types.Location
	Index          int
	Transformation *ast.Transformation
	// Depth is the number of function calls active before the step (0 in
	// the thread itself).
	Depth int
	// To is the location the thread is at after the step (in the callee
	// after a call, in the caller after a return), and After the values
	// of the globals and of To's thread or function's variables there
	// (Vars: the parameters, then the locals). Both are nil for a step that
	// fails (the last step of a failing trail).
	To    *types.Location
	After []Value
	// Frames are the values of the variables of every active call after
	// the step, the thread's first and the top one (After's) last; nil
	// with After.
	Frames [][]Value
	// Fail is, for the failing step, what it fails with: an assertion, or
	// a runtime error of a range or enum value (a value out of a range, a
	// zero divisor, an overflow); model.NoError otherwise. Assert is then
	// the index in Transformation.Actions of the failing action (-1: the
	// guard; len(Actions): the returned value); -1 for other steps.
	Fail   model.ErrorKind
	Assert int
}

// Value is the value of a BIR variable: a boolean (Kind
// types.BoolConst), or a range's value or an enum's ordinal
// (types.IntConst).
type Value struct {
	Var   *types.Var
	Value types.ConstValue
}

// Schedule is a boolean-program trail in terms of the BIR model: the
// transformations of its one thread, in order. When Fails is set the
// trail ends in a violation of the last step (Steps[len-1].Fail).
type Schedule struct {
	Steps []Step
	Fails bool
}
