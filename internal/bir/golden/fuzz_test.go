package golden

import (
	"bytes"
	"path/filepath"
	"testing"

	"birch/internal/bir/format"
	"birch/internal/bir/parser"
	"birch/internal/bir/types"
	"birch/internal/source"
	"birch/internal/testenv"
)

// FuzzFrontEnd feeds arbitrary text to the parser, the checker and the
// formatter. None may panic; a model that parses must format to a model
// that parses to the same tree, formatting must be idempotent, and a model
// that checks must format to a model that checks to the same typed program.
// Seeds: every example and every diagnostics test file.
//
//	go test ./internal/bir/golden -run='^$' -fuzz=FuzzFrontEnd -fuzztime=5m -fuzzminimizetime=2s
//
// (Without -fuzzminimizetime the engine spends up to a minute minimizing each
// new interesting input, and reports 0 execs/sec meanwhile.)
func FuzzFrontEnd(f *testing.F) {
	testenv.AddSeeds(f,
		filepath.Join(examplesDir, "*.bir"),
		filepath.Join("..", "types", "testdata", "*.bir"),
		filepath.Join("..", "format", "testdata", "*.input"))
	f.Fuzz(func(t *testing.T, src []byte) {
		fset := source.NewFileSet()
		file, err := parser.ParseFile(fset, "fuzz.bir", src, parser.ParseComments)
		if file == nil || file.System == nil {
			t.Fatal("ParseFile returned no tree")
		}
		prog, cerr := types.Check(fset, file, nil)
		if prog == nil {
			t.Fatal("Check returned no program")
		}
		var buf bytes.Buffer
		ferr := format.File(&buf, fset, file)
		if err != nil {
			return // a tree with errors need not format faithfully; it must only not crash
		}
		if ferr != nil {
			t.Fatalf("format failed on a parsed model: %v", ferr)
		}
		out := buf.Bytes()
		fset2 := source.NewFileSet()
		file2, err := parser.ParseFile(fset2, "fuzz-formatted.bir", out, parser.ParseComments)
		if err != nil {
			t.Fatalf("formatted model does not parse: %v\n--- input\n%s\n--- formatted\n%s", err, src, out)
		}
		if !format.Equal(file, file2) {
			t.Fatalf("formatting changed the parse tree\n--- input\n%s\n--- formatted\n%s", src, out)
		}
		var buf2 bytes.Buffer
		if err := format.File(&buf2, fset2, file2); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(out, buf2.Bytes()) {
			t.Fatalf("formatting is not idempotent\n--- once\n%s\n--- twice\n%s", out, buf2.Bytes())
		}
		prog2, cerr2 := types.Check(fset2, file2, nil)
		if (cerr == nil) != (cerr2 == nil) {
			t.Fatalf("formatting changed whether the model checks: before %v, after %v", cerr, cerr2)
		}
		if cerr == nil && prog.Dump() != prog2.Dump() {
			t.Fatalf("formatting changed the typed program\n--- input\n%s", src)
		}
	})
}
