package cli

import (
	"fmt"
	"io"
	"os"

	"birch/internal/bir/ast"
	"birch/internal/bir/types"
	"birch/internal/source"
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

// loadModel reads, parses and type-checks one model. On failure it prints
// the diagnostics and returns nil.
func loadModel(e *env, name string) *loaded {
	src, err := readSource(e, name)
	if err != nil {
		fmt.Fprintf(e.stderr, "birch: %v\n", err)
		return nil
	}
	return checkSource(e, name, src)
}
