package cli

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestSpinPredicateAbstractions: the predicate abstraction that birch
// abstract writes as BIR is a model birch spin accepts, and SPIN's verdict
// on it is birch check's (issue 18: "birch check and birch spin accept
// it"). Two examples of examples/predicates: two threads that pass, one that fails
// (SPIN compiles each with gcc: a few seconds).
func TestSpinPredicateAbstractions(t *testing.T) {
	needSpin(t)
	dir := t.TempDir()
	exdir := filepath.Join("..", "..", "examples", "predicates")
	for _, ex := range []string{"lockedcounter", "payload"} {
		abs := filepath.Join(dir, ex+".abs.bir")
		var out bytes.Buffer
		if st := Main([]string{"abstract", "--predicates", filepath.Join(exdir, ex+".pred"), filepath.Join(exdir, ex+".bir"), "-o", abs}, nil, &out, &out); st != ExitPass {
			t.Fatalf("%s: birch abstract: status %d: %s", ex, st, out.String())
		}
		if _, err := os.Stat(abs); err != nil {
			t.Fatal(err)
		}
		var cout, sout bytes.Buffer
		cst := Main([]string{"check", abs}, nil, &cout, &cout)
		sst := Main([]string{"spin", abs}, nil, &sout, &sout)
		if cst != sst || (cst != ExitPass && cst != ExitViolation) {
			t.Errorf("%s: birch check status %d, birch spin status %d\ncheck: %s\nspin: %s", ex, cst, sst, cout.String(), sout.String())
		}
		if want := map[string]int{"payload": ExitViolation}[ex]; want != 0 && sst != want || want == 0 && sst != ExitPass {
			t.Errorf("%s: birch spin status %d", ex, sst)
		}
		if first, _, _ := strings.Cut(sout.String(), "\n"); strings.HasPrefix(first, "inconclusive") {
			t.Errorf("%s: %s", ex, first)
		}
	}
}
