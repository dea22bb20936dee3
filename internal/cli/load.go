package cli

import (
	"fmt"
	"io"
	"os"

	"birch/internal/bir/ast"
	"birch/internal/bir/types"
	"birch/internal/source"
	"birch/internal/verify"
)

// maxShownErrors caps the diagnostics printed per file.
const maxShownErrors = 10

// readSource reads a file, or standard input for "-".
func readSource(e *env, name string) ([]byte, error) {
	if name == "-" {
		return io.ReadAll(e.stdin)
	}
	return os.ReadFile(name)
}

// loaded is a parsed and checked model.
type loaded struct {
	fset *source.FileSet
	file *ast.File
	prog *types.Program
}

// loadModel reads and loads one input (loadInput), for the commands that
// work on its BIR program. On failure it prints the diagnostics and
// returns nil.
func loadModel(e *env, name string) *loaded {
	in := loadInput(e, name)
	if in == nil {
		return nil
	}
	return &loaded{fset: in.Fset, file: in.File, prog: in.Prog}
}

// loadInput reads and loads an input (verify.Load, by its file type). On
// failure it prints the diagnostics and returns nil.
func loadInput(e *env, name string) *verify.Input {
	src, err := readSource(e, name)
	if err != nil {
		fmt.Fprintf(e.stderr, "birch: %v\n", err)
		return nil
	}
	in, err := verify.Load(name, src)
	if err != nil {
		source.Print(e.stderr, err, maxShownErrors)
		return nil
	}
	return in
}
