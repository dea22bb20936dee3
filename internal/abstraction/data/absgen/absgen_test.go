package absgen

import (
	"os"
	"path/filepath"
	"testing"

	"birch/internal/abstraction/data"
	"birch/internal/abstraction/data/infer"
	"birch/internal/bir/parser"
	"birch/internal/bir/types"
	"birch/internal/source"
)

var lib data.Library

func load(t *testing.T, path string) *types.Program {
	t.Helper()
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return loadSource(t, filepath.Base(path), src)
}

func loadSource(t *testing.T, name string, src []byte) *types.Program {
	t.Helper()
	fset := source.NewFileSet()
	f, err := parser.ParseFile(fset, name, src, 0)
	if err != nil {
		t.Fatal(err)
	}
	prog, err := types.Check(fset, f, nil)
	if err != nil {
		t.Fatal(err)
	}
	return prog
}

// generate infers with the bindings and generates the abstract model.
func generate(t *testing.T, prog *types.Program, cfg infer.Config, bindings ...string) (*Output, error) {
	t.Helper()
	var bs []infer.Binding
	for _, a := range bindings {
		b, err := infer.ParseBinding(a)
		if err != nil {
			t.Fatal(err)
		}
		bs = append(bs, b)
	}
	sel, err := infer.Resolve(prog, &lib, bs)
	if err != nil {
		t.Fatal(err)
	}
	res, err := infer.Infer(prog, &lib, sel, cfg)
	if err != nil {
		t.Fatal(err)
	}
	return Generate(prog, res, Config{})
}

func TestPowerDump(t *testing.T) {
	prog := load(t, "testdata/power.bir")
	out, err := generate(t, prog, infer.Config{}, "Main.m=evenodd")
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("\n%s", out.Source)
}

func mustRead(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
