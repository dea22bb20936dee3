package predicate

import (
	"path/filepath"
	"strings"
	"testing"

	"birch/internal/bir/format"
	"birch/internal/bir/parser"
	"birch/internal/bir/types"
)

// TestWPExamples takes the guards of every thread and function of the
// example models as that proc's predicates (those a predicate file
// accepts) and computes the WP of every transformation of the proc for
// each: no WP may panic, and every WP printed as BIR must parse again and
// type-check as a boolean expression in the proc's scope, outside
// predicates (so that it may stand in a guard).
func TestWPExamples(t *testing.T) {
	files, err := filepath.Glob("../../../examples/*.bir")
	if err != nil || len(files) == 0 {
		t.Fatalf("examples: %v", err)
	}
	computed := 0
	for _, name := range files {
		prog := loadModel(t, name)
		for _, proc := range append(append([]*types.Proc(nil), prog.Threads...), prog.Functions...) {
			var lines []string
			kind := "function"
			if proc.Thread {
				kind = "thread"
			}
			for _, loc := range proc.Body().Locations {
				for _, tr := range loc.Transformations {
					lines = append(lines, "["+kind+" "+proc.Name()+"] "+format.Expr(tr.Guard))
				}
			}
			f, _ := ParseFile(prog, name+".pred", []byte(strings.Join(lines, "\n")))
			for _, loc := range proc.Body().Locations {
				for _, tr := range loc.Transformations {
					for _, p := range f.Predicates {
						out, err := NewWP(prog).Actions(tr.Actions, p.Expr)
						if err != nil {
							if _, ok := err.(*UnsupportedError); !ok {
								t.Errorf("%s: %s: %v", name, p, err)
							}
							continue
						}
						computed++
						checkBIR(t, prog, proc, name, format.Expr(out))
					}
				}
			}
		}
	}
	if computed < 100 {
		t.Errorf("only %d WPs computed", computed)
	}
}

// checkBIR parses text and checks it as a boolean expression of proc.
func checkBIR(t *testing.T, prog *types.Program, proc *types.Proc, name, text string) {
	t.Helper()
	src := []byte(text)
	file := prog.Fset.AddFile("wp", src)
	x, err := parser.ParseExprAt(prog.Fset, file, src, 0, len(src), false)
	var typ types.Type
	if err == nil {
		typ, err = prog.CheckExpr(prog.Fset, x, proc, false)
	}
	if err != nil || !types.IsBoolean(typ) {
		t.Errorf("%s: WP %s does not check: %v (type %v)", name, text, err, typ)
		return
	}
	if again := format.Expr(x); again != text {
		t.Errorf("%s: WP %s prints as %s once parsed", name, text, again)
	}
}
