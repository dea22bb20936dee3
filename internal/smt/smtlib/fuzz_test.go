package smtlib_test

import (
	"errors"
	"io"
	"strings"
	"testing"
	"time"

	"birch/internal/smt"
	"birch/internal/smt/smtlib"
	"birch/internal/smt/solvers"
	"birch/internal/source"
	"birch/internal/testenv"
)

// FuzzScript feeds arbitrary text to the SMT-LIB reader and runs it on the
// embedded solver, as `birch smt` does. Nothing may panic; an error is
// positioned (file:line:col); what parses prints to text that parses to
// the same S-expressions. Each query is bounded so that one input costs
// little. Seeds: the scripts of testdata and of the solver's regressions.
//
//	go test ./internal/smt/smtlib -run='^$' -fuzz=FuzzScript -fuzztime=3m -fuzzminimizetime=2s
func FuzzScript(f *testing.F) {
	testenv.AddSeeds(f, "testdata/*.smt2", "../testdata/regress/*.smt2")
	f.Fuzz(func(t *testing.T, src []byte) {
		tm := smt.NewTermManager()
		s, err := solvers.New("embedded", tm)
		if err != nil {
			t.Fatal(err)
		}
		defer s.Close()
		s.SetLimit(smt.Limit{Timeout: time.Second, Steps: 20000})
		in := &smtlib.Interpreter{TM: tm, Solver: s, Out: io.Discard}
		if err := in.Run("fuzz.smt2", src); err != nil {
			var pe *source.Error
			if !errors.As(err, &pe) || !pe.Pos.IsValid() {
				t.Fatalf("the error is not positioned: %v", err)
			}
		}
		nodes, err := smtlib.Parse(string(src))
		if err != nil {
			return
		}
		var printed []string
		for _, n := range nodes {
			printed = append(printed, n.String())
		}
		again, err := smtlib.Parse(strings.Join(printed, "\n"))
		if err != nil {
			t.Fatalf("printed S-expressions do not parse: %v\n%s", err, strings.Join(printed, "\n"))
		}
		for i, n := range again {
			if i >= len(printed) || n.String() != printed[i] {
				t.Fatalf("printing and parsing again changed the S-expressions:\n%s", strings.Join(printed, "\n"))
			}
		}
		if len(again) != len(printed) {
			t.Fatalf("printing and parsing again gave %d S-expressions, not %d", len(again), len(printed))
		}
	})
}
