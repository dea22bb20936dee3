package c

import (
	"fmt"
	"path/filepath"
	"strings"

	"modernc.org/cc/v4"

	"birch/internal/source"
)

// DataModel is the sizes of C's integer and pointer types.
type DataModel int

const (
	// ILP32: int, long and pointers are 32 bits wide (SV-COMP's default).
	ILP32 DataModel = iota
	// LP64: int is 32 bits wide, long and pointers 64.
	LP64
)

func (d DataModel) String() string {
	if d == LP64 {
		return "LP64"
	}
	return "ILP32"
}

// ParseDataModel reads "ILP32" or "LP64" (any case).
func ParseDataModel(s string) (DataModel, error) {
	switch strings.ToUpper(s) {
	case "ILP32":
		return ILP32, nil
	case "LP64":
		return LP64, nil
	}
	return ILP32, fmt.Errorf("unknown data model %q (ILP32 or LP64)", s)
}

// Config is how a C program is read and lowered.
type Config struct {
	DataModel DataModel
	// OverflowError makes signed integer overflow an error of the model
	// (reported as a violation) instead of wrapping around.
	OverflowError bool
	// ErrorFunctions are the functions whose calls are the property
	// (unreachable); nil means reach_error and __VERIFIER_error.
	ErrorFunctions []string
	// ErrorLabels are the labels whose reaching is the property (SV-COMP's
	// unreach-label property, CPAchecker's ERROR label); nil means ERROR,
	// an empty list none (an unreach-call task names only functions).
	ErrorLabels []string
	// MallocNeverFails: malloc and calloc always return a new block
	// (CBMC's default; --malloc-may-fail=false); by default either may
	// also return null.
	MallocNeverFails bool
	// GCC is the C compiler used to preprocess .c files; "" is "gcc".
	GCC string
}

// DefaultErrorFunctions are the error functions of SV-COMP's
// unreach-call property, old and new.
var DefaultErrorFunctions = []string{"reach_error", "__VERIFIER_error"}

// DefaultErrorLabels are the labels of SV-COMP's unreach-label property.
var DefaultErrorLabels = []string{"ERROR"}

// Output is a lowered C program.
type Output struct {
	// BIR is the model: BIR text whose line directives map every position
	// back to the C source.
	BIR []byte
	// Property lists the C positions of the assertions that stand for the
	// property: a violation at one of them is the property's; any other
	// runtime error of the model is undefined behaviour of the program.
	Property []source.Position
	// Messages say in C terms what the failure of each of the lowering's
	// assertions means (Describe).
	Messages []Message
	// PropertyWhat says what each position of Property is: "call F" (a
	// call of the error function F), "label L" (the label L) or "assert"
	// (C's assert). The C text at a position does not always say it: a
	// position inside a macro's expansion has the column of the
	// preprocessed line.
	PropertyWhat []string
}

// UnsupportedError lists the constructs of a program that the lowering
// does not handle, each with its position. A check of such a program is
// inconclusive (SV-COMP: unknown).
type UnsupportedError struct {
	List source.ErrorList
}

func (e *UnsupportedError) Error() string {
	if len(e.List) == 0 {
		return "unsupported C construct"
	}
	return e.List.Error()
}

// Translate reads the C program src (named filename; a .i file is taken
// as preprocessed) and lowers it to BIR.
func Translate(filename string, src []byte, cfg Config) (*Output, error) {
	text := src
	if !strings.EqualFold(filepath.Ext(filename), ".i") {
		var err error
		if text, err = preprocess(filename, src, cfg); err != nil {
			return nil, err
		}
	}
	text = blankBodyAttributes(text)
	if err := syntaxCheck(filename, text, cfg); err != nil {
		return nil, err
	}
	ast, err := parse(filename, text, cfg.DataModel)
	if err != nil {
		return nil, err
	}
	return lowerSafely(filename, ast, cfg)
}

// lowerSafely lowers the program; a panic of the lowering (a bug) becomes
// an *UnsupportedError, so that a check says unknown rather than crash.
func lowerSafely(filename string, ast *cc.AST, cfg Config) (out *Output, err error) {
	defer func() {
		if r := recover(); r != nil {
			out = nil
			err = &UnsupportedError{List: source.ErrorList{{
				Pos: source.Position{Filename: filename, Line: 1, Column: 1},
				Msg: fmt.Sprintf("%s: %v", internalErrorMsg, r)}}}
		}
	}()
	return lower(filename, ast, cfg)
}

// internalErrorMsg starts the message of a panic of the lowering.
const internalErrorMsg = "internal error of the C lowering"
