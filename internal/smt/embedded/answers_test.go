package embedded

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"birch/internal/smt"
	"birch/internal/smt/smtlib"
)

// TestAnswers runs the scripts of testdata/answers, sequences of queries
// that once made the solver fail (each says how), and requires the
// answers of the .answers file beside it, one per check-sat.
func TestAnswers(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join("testdata", "answers", "*.smt2"))
	if len(files) == 0 {
		t.Fatal("no scripts in testdata/answers")
	}
	for _, path := range files {
		src, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		want, err := os.ReadFile(strings.TrimSuffix(path, ".smt2") + ".answers")
		if err != nil {
			t.Fatal(err)
		}
		tm := smt.NewTermManager()
		s := New(tm)
		s.SetLimit(smt.Limit{Timeout: 10 * time.Second})
		var out bytes.Buffer
		in := &smtlib.Interpreter{TM: tm, Solver: s, Out: &out}
		func() {
			defer func() {
				if r := recover(); r != nil {
					t.Fatalf("%s: panic: %v", path, r)
				}
			}()
			if err := in.Run(path, src); err != nil {
				t.Fatalf("%s: %v", path, err)
			}
		}()
		if got := strings.TrimSpace(out.String()); got != strings.TrimSpace(string(want)) {
			t.Errorf("%s: answers differ:\n%s\nwant\n%s", path, got, want)
		}
	}
}
