// Package testenv says what birch's tests may expect of the machine they
// run on: for now, whether the long suites run; and it holds what the fuzz
// targets share.
//
// The default `go test ./...` runs a representative part of each
// exhaustive comparison (birch against SPIN, the reference interpreter,
// z3 and cvc5) so that it takes a few minutes on 2 cores; with the
// environment variable BIRCH_LONG set (to anything but the empty string)
// the tests run the whole of each. .ci/run runs both (README,
// "Developing").
package testenv

import (
	"os"
	"path/filepath"
	"testing"

	"birch/internal/bir/parser"
	"birch/internal/bir/types"
	"birch/internal/source"
)

// LongVar is the environment variable that turns the long suites on.
const LongVar = "BIRCH_LONG"

// Long reports whether the long suites run (BIRCH_LONG is set).
func Long() bool { return os.Getenv(LongVar) != "" }

// SkipUnlessLong skips t unless the long suites run.
func SkipUnlessLong(t testing.TB) {
	t.Helper()
	if !Long() {
		t.Skipf("a long suite: set %s=1 to run it", LongVar)
	}
}

// AddSeeds adds the contents of every file matching one of the glob
// patterns to f's seed corpus.
func AddSeeds(f *testing.F, patterns ...string) {
	for _, pattern := range patterns {
		files, _ := filepath.Glob(pattern)
		for _, path := range files {
			if src, err := os.ReadFile(path); err == nil {
				f.Add(src)
			}
		}
	}
}

// CheckBIR parses and type-checks a model, as a fuzz target's first steps;
// it returns nil when the model has an error.
func CheckBIR(src []byte) *types.Program {
	fset := source.NewFileSet()
	file, err := parser.ParseFile(fset, "fuzz.bir", src, 0)
	if err != nil {
		return nil
	}
	prog, err := types.Check(fset, file, nil)
	if err != nil {
		return nil
	}
	return prog
}
