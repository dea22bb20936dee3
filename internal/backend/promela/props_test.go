package promela

import (
	"context"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"birch/internal/bir/ast"
	"birch/internal/bir/format"
	"birch/internal/bir/types"
	"birch/internal/ltl"
	"birch/internal/model"
	"birch/internal/search"
	"birch/internal/testenv"
)

// ltlCase is one LTL property to check with both tools.
type ltlCase struct {
	name string
	spec *ltl.Spec
}

// birchLTL checks spec with birch's product search.
func birchLTL(t *testing.T, m *model.Model, spec *ltl.Spec, fair bool) (*search.LTLResult, *model.Evaluator) {
	t.Helper()
	var exprs []ast.Expr
	for _, p := range spec.Props {
		exprs = append(exprs, p.Expr)
	}
	ev, err := m.NewEvaluator(exprs)
	if err != nil {
		t.Fatal(err)
	}
	aut, err := ltl.Translate(ltl.Un(ltl.Not, spec.Formula), spec.Names())
	if err != nil {
		t.Fatal(err)
	}
	res := search.RunLTL(m, search.Property{Automaton: aut, Labels: ev, Fair: fair, Msg: spec.String()}, search.Config{TimeLimit: time.Minute})
	return res, ev
}

// spinLTL checks every case with SPIN, with and without weak fairness,
// compiling pan once, and compares each verdict with birch's. A violation
// found by SPIN is mapped back to birch (a lasso, or a bad prefix that
// CompleteLasso extends) and must violate the formula by its semantics
// (ltl.Holds on the states' labels).
func spinLTL(t *testing.T, name string, prog *types.Program, cases []ltlCase) (checked int) {
	t.Helper()
	var fs []Formula
	for _, c := range cases {
		fs = append(fs, Formula{Name: c.name, Spec: c.spec})
	}
	tr, err := TranslateFull(prog, Options{Formulas: fs, NoInvariants: true, ReportLimits: true})
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	m, err := model.New(prog, model.Options{})
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	ctx, cancel := context.WithTimeout(context.Background(), 4*time.Minute)
	defer cancel()
	built := false
	for i, c := range cases {
		for _, fair := range []bool{false, true} {
			what := fmt.Sprintf("%s: %s %q (fair %v)", name, c.name, c.spec.String(), fair)
			res, ev := birchLTL(t, m, c.spec, fair)
			r, err := RunSpin(ctx, tr.Promela, SpinConfig{Dir: dir, Claim: tr.Claims[i], Fair: fair, Prebuilt: built, QuickBuild: true, PanArgs: []string{"-w18", "-m100000"}})
			if err != nil {
				t.Fatalf("%s: %v", what, err)
			}
			built = true
			limits := len(panLimitLines.FindAllString(r.Output, -1))
			switch {
			case res.Verdict == search.Fail && res.Violation.Kind == model.LTLViolated:
				if r.Kind != "ltl" {
					t.Errorf("%s: birch: violated, SPIN: %d errors (%q), %d bounds hit\n%s", what, r.Errors, r.Kind, limits, lastLines(r.Output, 12))
					continue
				}
				checkSpinLasso(t, what, m, ev, tr, c, r, dir)
			case res.Verdict == search.Pass:
				if r.Errors != 0 || limits > 0 {
					t.Errorf("%s: birch: holds, SPIN: %d errors (%q), %d bounds hit\n%s", what, r.Errors, r.Kind, limits, lastLines(r.Output, 12))
				}
			case res.Verdict == search.Inconclusive:
				if r.Errors != 0 || limits == 0 {
					t.Errorf("%s: birch: inconclusive (%s), SPIN: %d errors (%q), %d bounds hit", what, res.Reason, r.Errors, r.Kind, limits)
				}
			default:
				// a runtime error: both tools stop at one, not
				// necessarily the same
				if r.Errors == 0 {
					t.Errorf("%s: birch: %s, SPIN found no error", what, res.Reason)
				}
			}
			checked++
		}
	}
	return checked
}

func lastLines(s string, n int) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}

// checkSpinLasso maps SPIN's counterexample to birch and checks that it
// violates the formula.
func checkSpinLasso(t *testing.T, what string, m *model.Model, ev *model.Evaluator, tr *Translation, c ltlCase, r *PanReport, dir string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	steps, cyc, err := ReadLasso(ctx, dir, tr)
	if err != nil {
		t.Fatalf("%s: %v", what, err)
	}
	var ords []int
	if r.Cycle {
		if ords, err = MapLasso(m, steps, cyc); err != nil {
			t.Fatalf("%s: mapping SPIN's lasso: %v", what, err)
		}
	} else {
		prefix, err := MapPrefix(m, steps)
		if err != nil {
			t.Fatalf("%s: mapping SPIN's bad prefix: %v", what, err)
		}
		ords, cyc, _, err = CompleteLasso(m, prefix, 100000)
		if err != nil {
			t.Fatalf("%s: completing SPIN's bad prefix: %v", what, err)
		}
	}
	init, ts, err := search.Replay(m, ords)
	if err != nil {
		t.Fatalf("%s: %v", what, err)
	}
	label := func(s []byte) uint64 {
		mask, _, e := ev.Mask(s)
		if e != nil {
			t.Fatalf("%s: %s", what, e.Msg)
		}
		return mask
	}
	states := [][]byte{init}
	for _, st := range ts {
		states = append(states, st.After)
	}
	var prefix, cycle []uint64
	for i := 0; i < cyc; i++ {
		prefix = append(prefix, label(states[i]))
	}
	if cyc == len(ts) { // stutter
		cycle = []uint64{label(states[cyc])}
	} else {
		for i := cyc; i < len(ts); i++ {
			cycle = append(cycle, label(states[i]))
		}
		if string(states[len(ts)]) != string(states[cyc]) {
			t.Fatalf("%s: SPIN's cycle does not return to its start in birch", what)
		}
	}
	if ltl.Holds(c.spec.Formula, prefix, cycle) {
		t.Fatalf("%s: SPIN's counterexample satisfies the formula", what)
	}
}

// ltlModels are the models whose ltl properties are compared.
func ltlModels(t *testing.T) []string {
	t.Helper()
	var out []string
	for _, path := range models(t) {
		prog := load(t, path)
		for _, p := range prog.Properties {
			if p.LTL {
				out = append(out, path)
				break
			}
		}
	}
	return out
}

// quickLTL are the models whose ltl properties TestSpinLTL compares in the
// default run (weak fairness matters in fairness.bir; remote-array.bir's
// propositions read a started thread's locals through embedded C);
// BIRCH_LONG=1 compares every model with ltl properties.
var quickLTL = map[string]bool{"fairness": true, "terminate": true, "remote-array": true}

// TestSpinLTL compares birch's and SPIN's verdicts on every ltl property
// of the examples and test models, with and without weak fairness.
func TestSpinLTL(t *testing.T) {
	needSpin(t)
	paths := ltlModels(t)
	if len(paths) < 4 {
		t.Fatalf("only %d models with ltl properties", len(paths))
	}
	quick := 0
	for _, path := range paths {
		name := strings.TrimSuffix(filepath.Base(path), ".bir")
		if quickLTL[name] {
			quick++
		} else if !testenv.Long() {
			continue
		}
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			prog := load(t, path)
			var cases []ltlCase
			for _, p := range prog.Properties {
				if !p.LTL {
					continue
				}
				spec, err := ltl.FromExpr(prog.Fset, p.Decl.Expr)
				if err != nil {
					t.Fatal(err)
				}
				cases = append(cases, ltlCase{name: p.Name(), spec: spec})
			}
			n := spinLTL(t, name, prog, cases)
			t.Logf("%s: %d properties, %d checks agree", name, len(cases), n)
		})
	}
	if quick != len(quickLTL) {
		t.Errorf("%d of the %d quickLTL models have ltl properties", quick, len(quickLTL))
	}
}

// TestSpinLTLRandom compares the verdicts on random formulas over the
// propositions of small models (their predicates, invariants and the
// propositions of their ltl properties). The formulas are drawn for every
// model in turn; the default run checks those of terminate.bir and
// fairness.bir, BIRCH_LONG=1 all of them, in parallel.
func TestSpinLTLRandom(t *testing.T) {
	needSpin(t)
	rng := rand.New(rand.NewPCG(7, 11))
	for _, m := range []struct {
		file  string
		quick bool
	}{
		{filepath.Join(examplesDir, "peterson.bir"), false},
		{filepath.Join(examplesDir, "dynamic-threads.bir"), false},
		{filepath.Join(propsDir, "fairness.bir"), true},
		{filepath.Join(propsDir, "terminate.bir"), true},
		{filepath.Join("testdata", "props-start.bir"), false},
	} {
		name := strings.TrimSuffix(filepath.Base(m.file), ".bir")
		prog := load(t, m.file)
		pool := propPool(t, prog)
		if len(pool) < 2 {
			t.Fatalf("%s: %d propositions", name, len(pool))
		}
		var cases []ltlCase
		for i := 0; i < 6; i++ {
			f := randFormula(rng, len(pool), 4)
			spec := &ltl.Spec{Formula: f}
			for _, e := range pool {
				spec.Props = append(spec.Props, ltl.Proposition{Text: fmt.Sprintf("(%s)", exprText(e)), Expr: e})
			}
			cases = append(cases, ltlCase{name: fmt.Sprintf("random%d", i), spec: spec})
		}
		if !m.quick && !testenv.Long() {
			continue
		}
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			n := spinLTL(t, name, prog, cases)
			t.Logf("%s: %d random formulas, %d checks agree", name, len(cases), n)
		})
	}
}

// propPool collects boolean expressions of a model: its predicates, its
// invariants and the propositions of its ltl properties.
func propPool(t *testing.T, prog *types.Program) []ast.Expr {
	var pool []ast.Expr
	seen := map[string]bool{}
	add := func(e ast.Expr) {
		if k := exprText(e); !seen[k] {
			seen[k] = true
			pool = append(pool, e)
		}
	}
	for _, p := range prog.Predicates {
		if p.Decl != nil {
			add(p.Decl.Expr)
		}
	}
	for _, p := range prog.Properties {
		if !p.LTL {
			add(p.Decl.Expr)
			continue
		}
		s, err := ltl.FromExpr(prog.Fset, p.Decl.Expr)
		if err != nil {
			t.Fatal(err)
		}
		for _, pr := range s.Props {
			add(pr.Expr)
		}
	}
	if len(pool) > 5 {
		pool = pool[:5]
	}
	return pool
}

// randFormula draws a formula over n propositions with about size
// operators, X included.
func randFormula(r *rand.Rand, n, size int) *ltl.Formula {
	if size <= 0 {
		switch r.IntN(8) {
		case 0:
			return ltl.T()
		case 1:
			return ltl.F()
		}
		return ltl.Prop(r.IntN(n))
	}
	switch k := r.IntN(12); {
	case k < 5:
		ops := []ltl.Op{ltl.Not, ltl.Next, ltl.Always, ltl.Eventually, ltl.Always}
		return ltl.Un(ops[k], randFormula(r, n, size-1))
	default:
		ops := []ltl.Op{ltl.And, ltl.Or, ltl.Implies, ltl.Until, ltl.Release, ltl.WeakUntil, ltl.Iff}
		l := r.IntN(size)
		return ltl.Bin(ops[k-5], randFormula(r, n, l), randFormula(r, n, size-1-l))
	}
}

func exprText(e ast.Expr) string { return format.Expr(e) }
