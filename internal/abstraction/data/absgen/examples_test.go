package absgen

import (
	"bytes"
	"path/filepath"
	"strings"
	"testing"

	"birch/internal/abstraction/data/infer"
	"birch/internal/backend/promela"
	"birch/internal/bir/format"
	"birch/internal/bir/types"
	"birch/internal/model"
	"birch/internal/source"
)

// checkCanonical fails unless src, a generated model, is in the layout
// birch fmt prints: birch fmt -l would not list the output of birch abstract.
func checkCanonical(t *testing.T, what string, src []byte) {
	t.Helper()
	got, err := format.Source("abstract.bir", src)
	if err != nil {
		t.Errorf("%s: the abstract model does not format: %v", what, err)
	} else if !bytes.Equal(got, src) {
		t.Errorf("%s: the abstract model is not in the canonical layout; birch fmt prints:\n%s", what, got)
	}
}

// TestExamples abstracts every integer variable of every example model,
// one at a time, with several abstractions (and those of testdata): the
// generator either writes a model in the canonical layout that type-checks
// (Generate checks it) and compiles, or reports positioned errors; it never
// fails otherwise.
func TestExamples(t *testing.T) {
	files, _ := filepath.Glob("../../../../examples/*.bir")
	more, _ := filepath.Glob("../../../../examples/abstraction/*.bir")
	files = append(files, more...)
	more, _ = filepath.Glob("testdata/*.bir")
	files = append(files, more...)
	if len(files) < 10 {
		t.Fatalf("found %d examples", len(files))
	}
	runs := 0
	for _, f := range files {
		prog := load(t, f)
		var buf bytes.Buffer
		promelaOK := promela.Translate(prog, &buf, promela.Options{}) == nil
		var targets []string
		for _, v := range prog.Globals {
			if types.IsInteger(v.Type()) {
				targets = append(targets, v.Name())
			}
		}
		for _, p := range prog.Threads {
			for _, v := range p.Vars() {
				if types.IsInteger(v.Type()) {
					targets = append(targets, p.Name()+"."+v.Name())
				}
			}
		}
		for _, target := range targets {
			for _, abs := range []string{"signs", "evenodd", "range(0,2)", "point"} {
				for _, def := range []bool{false, true} {
					b, err := infer.ParseBinding(target + "=" + abs)
					if err != nil {
						t.Fatal(err)
					}
					sel, err := infer.Resolve(prog, &lib, []infer.Binding{b})
					if err != nil {
						continue
					}
					res, err := infer.Infer(prog, &lib, sel, infer.Config{DefaultPoint: def})
					if err != nil {
						continue // a conflict or a concrete context: tested elsewhere
					}
					runs++
					out, err := Generate(prog, res, Config{})
					if err != nil {
						if _, ok := err.(source.ErrorList); !ok || strings.Contains(err.Error(), "bug") {
							t.Errorf("%s %s=%s default point %v: %v", filepath.Base(f), target, abs, def, err)
						}
						continue
					}
					checkCanonical(t, filepath.Base(f)+" "+target+"="+abs, out.Source)
					if _, err := model.New(out.Program, model.Options{}); err != nil {
						t.Errorf("%s %s=%s: the model does not compile: %v\n%s", filepath.Base(f), target, abs, err, out.Source)
					}
					if promelaOK {
						promelaOK = false // once per model: the back end is slow on big models
						if err := promela.Translate(out.Program, &buf, promela.Options{}); err != nil {
							t.Errorf("%s %s=%s: promela: %v", filepath.Base(f), target, abs, err)
						}
					}
				}
			}
		}
	}
	if runs < 50 {
		t.Errorf("only %d generations", runs)
	}
}
