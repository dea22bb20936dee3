package c2bp_test

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"birch/internal/abstraction/predicate"
	"birch/internal/abstraction/predicate/c2bp"
	"birch/internal/abstraction/refine"
	"birch/internal/bir/parser"
	"birch/internal/bir/types"
	"birch/internal/model"
	"birch/internal/source"
	"birch/internal/testenv"
)

// TestCorpus abstracts every model of examples/ (and, with BIRCH_LONG=1,
// of every testdata directory) with the predicates a refinement loop
// starts from (the comparisons of its guards, assumptions and assertions,
// refine.Seed): the abstraction either declines (an UnsupportedError with
// positions) or gives an abstract model that checks and that the explicit
// engine can build; it never fails otherwise (an internal error is a bug).
func TestCorpus(t *testing.T) {
	files, _ := filepath.Glob("../../../../examples/*/*.bir")
	more, _ := filepath.Glob("../../../../examples/*.bir")
	files = append(files, more...)
	if testenv.Long() {
		filepath.WalkDir("../../../..", func(path string, d os.DirEntry, err error) error {
			if err == nil && !d.IsDir() && strings.HasSuffix(path, ".bir") && strings.Contains(path, "testdata") {
				files = append(files, path)
			}
			return nil
		})
	}
	abstracted, declined := 0, 0
	for _, path := range files {
		src, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		fset := source.NewFileSet()
		f, err := parser.ParseFile(fset, filepath.Base(path), src, 0)
		if err != nil {
			continue // a test of bad input
		}
		prog, err := types.Check(fset, f, nil)
		if err != nil {
			continue
		}
		seeds, err := refine.Seed(prog)
		if err != nil || len(seeds) == 0 {
			continue
		}
		var lines []string
		for i, s := range seeds {
			if i == 12 {
				break
			}
			lines = append(lines, s.String())
		}
		pf, err := predicate.ParseFile(prog, "seed.pred", []byte(strings.Join(lines, "\n")))
		if err != nil {
			continue
		}
		start := time.Now()
		cfg := c2bp.Config{CubeLength: 1}
		if testenv.Long() {
			cfg.CubeLength = 3
		}
		out, err := c2bp.Abstract(prog, pf, cfg)
		if d := time.Since(start); d > 500*time.Millisecond {
			t.Logf("%s: %v (%d predicates)", path, d, len(lines))
		}
		var u *c2bp.UnsupportedError
		switch {
		case errors.As(err, &u):
			declined++
			if len(u.List) == 0 || !u.List[0].Pos.IsValid() {
				t.Errorf("%s: an UnsupportedError without a position: %v", path, err)
			}
			continue
		case err != nil:
			t.Errorf("%s: %v\n%s", path, err, strings.Join(lines, "\n"))
			continue
		}
		abstracted++
		if _, err := model.New(out.Program, model.Options{}); err != nil {
			t.Errorf("%s: the abstract model does not build: %v", path, err)
		}
	}
	t.Logf("%d models abstracted, %d declined", abstracted, declined)
	if abstracted == 0 {
		t.Fatal("no model was abstracted: the test proves nothing")
	}
}
