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
	in   *verify.Input
}

// loadModel reads and loads one input (loadInput), for the commands that
// work on its BIR program. On failure it prints the diagnostics and
// returns nil.
func loadModel(e *env, name string) *loaded {
	in := loadInput(e, name)
	if in == nil {
		return nil
	}
	return &loaded{fset: in.Fset, file: in.File, prog: in.Prog, in: in}
}

// loadInput reads and loads an input (verify.LoadWith, by its file type,
// with the front ends' settings of the command line). On failure it prints
// the diagnostics and returns nil; a construct the front end does not
// handle makes the command inconclusive (env.unsupported).
func loadInput(e *env, name string) *verify.Input {
	in, err := loadInputErr(e, name)
	if err != nil {
		if lang, list, ok := unsupportedOf(err); ok {
			e.unsupported = true
			fmt.Fprintf(e.stderr, "birch: %s: inconclusive: the %s program uses constructs birch does not handle:\n", name, lang)
			source.Print(e.stderr, list, maxShownErrors)
			return nil
		}
		printLoadError(e, err)
		return nil
	}
	return in
}

// loadInputErr reads and loads an input, returning the error unprinted.
func loadInputErr(e *env, name string) (*verify.Input, error) {
	if in, ok, err := loadDirInput(e, name); ok {
		return in, err
	}
	src, err := readSource(e, name)
	if err != nil {
		return nil, readError{err}
	}
	return verify.LoadWith(name, src, e.load)
}

// readError is an input that could not be read.
type readError struct{ err error }

func (r readError) Error() string { return r.err.Error() }
func (r readError) Unwrap() error { return r.err }

// printLoadError prints an error of loadInputErr.
func printLoadError(e *env, err error) {
	if _, ok := err.(readError); ok {
		fmt.Fprintf(e.stderr, "birch: %v\n", err)
		return
	}
	source.Print(e.stderr, err, maxShownErrors)
}
