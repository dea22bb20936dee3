package apf

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"birch/internal/abstraction/predicate"
	"birch/internal/bir/ast"
	"birch/internal/bir/parser"
	"birch/internal/bir/types"
	"birch/internal/model"
	"birch/internal/smt"
	"birch/internal/source"
	"birch/internal/testenv"
)

// The runtime's evaluator agrees with the model's: for random int
// expressions (+ - * / % unary minus, conversions, comparisons, && ||)
// over variables holding random values (extremes included), the runtime's
// value in the state's slots is the model's truth, an expression the
// model cannot evaluate (an overflow, a zero divisor) has none, and the
// runtime's formula over the variables' symbols, given their values, is
// the model's truth too.
func TestEvaluatorAgreesWithModel(t *testing.T) {
	n := 300
	if testenv.Long() {
		n = 5000
	}
	rng := rand.New(rand.NewPCG(7, 22))
	vals := []int64{0, 1, -1, 2, -2, 7, -7, 100, math.MaxInt64, math.MinInt64, math.MaxInt64 - 1, math.MinInt64 + 1, 1 << 32, -(1 << 31)}
	var ops = []string{"+", "-", "*", "/", "%"}
	var expr func(d int) string
	expr = func(d int) string {
		if d == 0 || rng.IntN(3) == 0 {
			switch rng.IntN(4) {
			case 0:
				return fmt.Sprint(rng.IntN(9) - 4)
			default:
				return []string{"a", "b", "c"}[rng.IntN(3)]
			}
		}
		switch rng.IntN(8) {
		case 0:
			return "-(" + expr(d-1) + ")"
		case 1:
			return []string{"int8", "uint8", "int32"}[rng.IntN(3)] + "(" + expr(d-1) + ")"
		}
		return "(" + expr(d-1) + " " + ops[rng.IntN(len(ops))] + " " + expr(d-1) + ")"
	}
	cond := func() string {
		c := expr(3) + " " + []string{"<", "<=", "==", "!=", ">", ">="}[rng.IntN(6)] + " " + expr(2)
		if rng.IntN(4) == 0 {
			c += []string{" && ", " || "}[rng.IntN(2)] + expr(2) + " > 0"
		}
		return c
	}
	for round := 0; round < n/20; round++ {
		src := fmt.Sprintf("system E ()\na : int := %d;\nb : int := %d;\nc : int := %d;\nmain thread M ()\n  loc s0:\nend M;\nend E;\n",
			vals[rng.IntN(len(vals))], vals[rng.IntN(len(vals))], vals[rng.IntN(len(vals))])
		// the model's truth
		fset := source.NewFileSet()
		f, err := parser.ParseFile(fset, "e.bir", []byte(src), 0)
		if err != nil {
			t.Fatal(err)
		}
		prog, err := types.Check(fset, f, nil)
		if err != nil {
			t.Fatal(err)
		}
		// lines the checker accepts (a constant zero divisor is static)
		var lines []string
		for len(lines) < 20 {
			l := cond()
			if _, err := predicate.ParseFile(prog, "l.pred", []byte(l+"\n")); err == nil {
				lines = append(lines, l)
			}
		}
		preds := strings.Join(lines, "\n") + "\n"
		pf, err := predicate.ParseFile(prog, "e.pred", []byte(preds))
		if err != nil {
			t.Fatalf("%v\n%s", err, preds)
		}
		cm, err := model.New(prog, model.Options{})
		if err != nil {
			t.Fatal(err)
		}
		var conds []ast.Expr
		var procs []*types.Proc
		for _, p := range pf.Predicates {
			conds, procs = append(conds, p.Expr), append(procs, nil)
		}
		fe, err := cm.NewFrameEvaluator(conds, procs)
		if err != nil {
			t.Fatal(err)
		}
		init, _ := cm.Initial(nil)
		fe.Load(init)
		// the runtime's, in the initial state of P′ (whose abstracted
		// slots hold the initial values)
		p, err := Instrument(source.NewFileSet(), "e.bir", []byte(src), "e.pred", []byte(preds))
		if err != nil {
			t.Fatal(err)
		}
		rt, err := NewRuntime(p, Config{})
		if err != nil {
			t.Fatal(err)
		}
		am, err := model.New(p.Prog, model.Options{Native: rt})
		if err != nil {
			t.Fatal(err)
		}
		ainit, _ := am.Initial(nil)
		var sn snapshot
		sn.reset(am.NativeState(ainit))
		// the formulas over the variables' symbols, and their values
		sub := map[*smt.Term]*smt.Term{}
		for _, v := range p.Prog.Globals {
			if abstracted(v.Type()) {
				sub[rt.sym(locKey{kind: kGlobal, v: v}, v.Type())] = rt.tm.Int(v.Init.Int)
			}
		}
		for i, pr := range p.Preds.Predicates {
			want, cerr := fe.Eval(i, 0, 0)
			if sym := rt.expr(&env{sn: &sn, mode: modePre, thread: -1}, pr.Expr); cerr == nil && sym != nil {
				if v := rt.tm.Simplify(rt.tm.Substitute(sym, sub)); v != rt.tm.Bool(want) {
					t.Errorf("%s with %s: the model gives %v, the runtime's formula %s, with the values %s", lines[i], strings.ReplaceAll(src[16:60], "\n", " "), want, sym, v)
				}
			}
			got := rt.expr(&env{sn: &sn, mode: modeSlots, thread: -1}, pr.Expr)
			switch {
			case cerr != nil && got != nil:
				t.Errorf("%s with %s: the model fails (%v), the runtime gives %v", lines[i], strings.ReplaceAll(src[16:60], "\n", " "), cerr, got)
			case cerr == nil && got == nil:
				t.Errorf("%s with %s: the model gives %v, the runtime nothing", lines[i], strings.ReplaceAll(src[16:60], "\n", " "), want)
			case cerr == nil && got != rt.tm.Bool(want):
				t.Errorf("%s with %s: the model gives %v, the runtime %v", lines[i], strings.ReplaceAll(src[16:60], "\n", " "), want, got)
			}
		}
		rt.Close()
	}
}
