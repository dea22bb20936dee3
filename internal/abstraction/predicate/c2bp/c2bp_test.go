package c2bp

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"birch/internal/abstraction/predicate"
	"birch/internal/bir/parser"
	"birch/internal/bir/types"
	"birch/internal/model"
	"birch/internal/search"
	"birch/internal/source"
	"birch/internal/testenv"
)

// loadSource parses and checks a model.
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

// abstractSource abstracts model with the predicates (a predicate file's
// text).
func abstractSource(t *testing.T, model, preds string) (*Output, error) {
	t.Helper()
	prog := loadSource(t, "model.bir", []byte(model))
	pf, err := predicate.ParseFile(prog, "model.pred", []byte(preds))
	if err != nil {
		t.Fatal(err)
	}
	return Abstract(prog, pf, Config{Solver: os.Getenv("C2BP_SOLVER")})
}

// abstractFile abstracts a model file with its predicate file.
func abstractFile(t *testing.T, bir, pred string) (*Output, error) {
	t.Helper()
	src, err := os.ReadFile(bir)
	if err != nil {
		t.Fatal(err)
	}
	ps, err := os.ReadFile(pred)
	if err != nil {
		t.Fatal(err)
	}
	prog := loadSource(t, filepath.Base(bir), src)
	pf, err := predicate.ParseFile(prog, filepath.Base(pred), ps)
	if err != nil {
		t.Fatal(err)
	}
	return Abstract(prog, pf, Config{Solver: os.Getenv("C2BP_SOLVER")})
}

// explore runs the explicit engine on the abstract model (no deadlocks).
func explore(t *testing.T, prog *types.Program) *search.Result {
	t.Helper()
	return exploreMax(t, prog, 1<<20)
}

// exploreMax is explore up to max states.
func exploreMax(t *testing.T, prog *types.Program, max int) *search.Result {
	t.Helper()
	m, err := model.New(prog, model.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var sm search.Model = m
	var props []*types.Property
	for _, p := range prog.Properties {
		if !p.LTL {
			props = append(props, p)
		}
	}
	if len(props) > 0 {
		inv, err := search.NewInvariants(m, props)
		if err != nil {
			t.Fatal(err)
		}
		sm = search.WithStateCheck(m, inv)
	}
	return search.Run(sm, search.Config{NoDeadlock: true, MaxStates: max})
}

// TestLockLoop: SLAM's locking loop, abstracted with cur == old, has no
// violation; without that predicate the abstract loop may leave with the
// lock released, and the search finds the violation.
func TestLockLoop(t *testing.T) {
	out, err := abstractFile(t, "../../../../examples/predicates/lockloop.bir", "../../../../examples/predicates/lockloop.pred")
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%s", out.Source)
	res := explore(t, out.Program)
	if res.Verdict != search.Pass || !res.Complete {
		t.Fatalf("with cur == old: %v (%s)\n%s", res.Verdict, res.Reason, out.Source)
	}
	out, err = abstractFile(t, "../../../../examples/predicates/lockloop.bir", "testdata/lockloop-weak.pred")
	if err != nil {
		t.Fatal(err)
	}
	res = explore(t, out.Program)
	if res.Verdict != search.Fail || res.Violation == nil || res.Violation.Kind != model.Assertion {
		t.Fatalf("without cur == old: %v (%s), want an assertion failure\n%s", res.Verdict, res.Reason, out.Source)
	}
}

var _ = strings.Contains

// TestCancel: a cancelled context stops the abstraction with the
// context's error, not a model.
func TestCancel(t *testing.T) {
	prog := loadSource(t, "model.bir", []byte(`system S ()
x : int;
main thread M ()
  loc l0:
    when x < 10 do { x := x + 1; } goto l0;
end M;
end S;
`))
	pf, err := predicate.ParseFile(prog, "model.pred", []byte("x < 10\nx == 3\nx > 0\n"))
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	out, err := Abstract(prog, pf, Config{Context: ctx})
	if !errors.Is(err, context.Canceled) || out != nil {
		t.Fatalf("Abstract after cancel: %v, %v", out != nil, err)
	}
}

// TestManyPredicates: a cone of many predicates (here 48 over one
// variable, 1128 contradictory pairs; with cubes of three literals, 138000
// cubes) does
// not make the abstraction run for minutes, nor write a formula past BIR's
// nesting bound: each F visits a bounded number of cubes and keeps at most
// 200 of them, and the consistency assumptions come 200 clauses at a
// time. (Cubes of one literal; BIRCH_LONG=1: 60 predicates, cubes of
// three.)
func TestManyPredicates(t *testing.T) {
	var preds strings.Builder
	n := 48
	if testenv.Long() {
		n = 60
	}
	for i := 0; i < n; i++ {
		fmt.Fprintf(&preds, "x != %d\n", i)
		if i == 0 {
			preds.WriteString("x < 1000\n")
		}
	}
	prog := loadSource(t, "model.bir", []byte(`system S ()
x : int;
main thread M ()
  loc l0:
    when x < 100 do { x := x + 1; } goto l0;
end M;
end S;
`))
	pf, err := predicate.ParseFile(prog, "model.pred", []byte(preds.String()))
	if err != nil {
		t.Fatal(err)
	}
	cfg := Config{CubeLength: 1} // the long run: cubes of three literals
	if testenv.Long() {
		cfg.CubeLength = 3
	}
	out, err := Abstract(prog, pf, cfg)
	if err != nil {
		t.Fatal(err)
	}
	if out.Stats.Queries > 200000 {
		t.Fatalf("%d queries", out.Stats.Queries)
	}
	t.Logf("%d queries, %v", out.Stats.Queries, out.Stats.Total)
}
