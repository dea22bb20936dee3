package bp

import (
	"birch/internal/bir/ast"
	"birch/internal/bir/types"
	"birch/internal/boolprog"
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
}

// Map relates the boolean program to the BIR program it was translated
// from: labels to locations and transformations, variables to BIR
// variables, assertions to BIR assertions.
type Map struct {
	BIR *types.Program
	// procs: per boolean-program procedure name, the BIR thread or
	// function it stands for, with its labels and variables.
	procs map[string]*procMap
	// globals[i] is the BIR global of the program's i-th global.
	globals []*types.Var
	// asserts: the position (line and column in the boolean program) of
	// every assert statement, and the BIR assertion it stands for.
	asserts map[lineCol]assertOrigin
	// calls: the position of every call statement
	calls map[lineCol]bool
}

type lineCol struct{ line, col int }

type assertOrigin struct {
	trans  *transMap
	action int // index in the transformation's Actions
}

// procMap is what the Map knows of one procedure.
type procMap struct {
	proc *types.Proc
	vars []*types.Var // the procedure's parameters and locals, in the boolean program's order
	locs map[string]*types.Location
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
	// Assert is, for the failing step, the index in Transformation.Actions
	// of the assertion that fails; -1 otherwise.
	Assert int
}

// Value is the value of a BIR boolean variable.
type Value struct {
	Var   *types.Var
	Value bool
}

// Schedule is a boolean-program trail in terms of the BIR model: the
// transformations of its one thread, in order. When Fails is set the
// trail ends in an assertion that fails in the last step (Steps[len-1]
// with Assert >= 0).
type Schedule struct {
	Steps []Step
	Fails bool
}
