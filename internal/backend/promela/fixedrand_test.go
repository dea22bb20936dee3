package promela

import (
	"context"
	"fmt"
	"math/bits"
	"math/rand"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	"birch/internal/model"
	"birch/internal/search"
	"birch/internal/testenv"
)

// TestSpinFixedRandom is the random differential test of the fixed-width
// types in the Promela translation: random models whose inputs are chosen
// among the edge values of int8 … uint16 compute random expressions
// (conversions of + - * chains, & | ^ ~, shifts with counts inside and
// outside 0..63, Java's >>> as its front end lowers it, / and % with zero
// divisors, comparisons) into fixed-width
// variables of random types. An independent evaluator of BIR's semantics
// (below) gives every value for every input, which the model asserts, and
// the runtime errors; birch and SPIN must both pass with equal state
// counts, or both fail with a kind the evaluator gives, SPIN's trail mapped
// to birch ending in that error. The default run checks 2 models,
// BIRCH_LONG=1 150.
func TestSpinFixedRandom(t *testing.T) {
	needSpin(t)
	n := 2
	if testenv.Long() {
		n = 150
	}
	for seed := 1; seed <= n; seed++ {
		t.Run(fmt.Sprint(seed), func(t *testing.T) {
			t.Parallel()
			src, kinds := fixedRandomModel(rand.New(rand.NewSource(int64(seed))))
			path := filepath.Join(t.TempDir(), "r.bir")
			if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
				t.Fatal(err)
			}
			prog := load(t, path)
			tr, err := TranslateFull(prog, Options{ReportLimits: true})
			if err != nil {
				t.Fatalf("%v\n%s", err, src)
			}
			m, err := model.New(prog, model.Options{})
			if err != nil {
				t.Fatal(err)
			}
			res := search.Run(m, search.Config{Strategy: search.DFS, TimeLimit: time.Minute})
			sp, dir := runSpin(t, tr)
			if len(kinds) == 0 {
				if res.Verdict != search.Pass || sp.Errors != 0 {
					t.Fatalf("birch %s (%v), SPIN %d errors (%s); the evaluator finds no error:\n%s", res.Verdict, res.Violation, sp.Errors, sp.Kind, src)
				}
				if int(sp.States) != res.Stats.States {
					t.Fatalf("states: birch %d, SPIN %d:\n%s", res.Stats.States, sp.States, src)
				}
				return
			}
			if res.Verdict != search.Fail || !kinds[res.Violation.Kind.String()] {
				t.Fatalf("birch %s (%v); the evaluator finds %v:\n%s", res.Verdict, res.Violation, kinds, src)
			}
			if sp.Errors == 0 || !kinds[sp.Kind] {
				t.Fatalf("SPIN %d errors (%s); the evaluator finds %v:\n%s\n%s", sp.Errors, sp.Kind, kinds, src, sp.Output)
			}
			// SPIN's trail, replayed by SPIN's simulator, maps to birch
			// and ends in the same error there
			checkTrail(t, "random", m, tr, sp, dir, false)
		})
	}
}

// ftype is a fixed-width type of at most 32 bits.
type ftype struct {
	name   string
	bits   int
	signed bool
}

var ftypes = []ftype{{"int8", 8, true}, {"int16", 16, true}, {"int32", 32, true}, {"uint8", 8, false}, {"uint16", 16, false}}

func (t ftype) wrap(v int64) int64 {
	s := uint(64 - t.bits)
	if t.signed {
		return v << s >> s
	}
	return int64(uint64(v) << s >> s)
}

func (t ftype) lo() int64 {
	if t.signed {
		return -1 << (t.bits - 1)
	}
	return 0
}

func (t ftype) hi() int64 {
	if t.signed {
		return 1<<(t.bits-1) - 1
	}
	return 1<<t.bits - 1
}

// edges returns n distinct values of t, its edges first.
func (t ftype) edges(r *rand.Rand, n int) []int64 {
	cand := []int64{t.lo(), t.hi(), 0, 1, t.lo() + 1, t.hi() - 1, 31, 32, 63, 64}
	if t.signed {
		cand = append(cand, -1, -2)
	}
	r.Shuffle(len(cand), func(i, j int) { cand[i], cand[j] = cand[j], cand[i] })
	seen := map[int64]bool{}
	var out []int64
	for _, v := range cand {
		if v >= t.lo() && v <= t.hi() && !seen[v] && len(out) < n {
			seen[v] = true
			out = append(out, v)
		}
	}
	return out
}

// fx is an expression of the random models.
type fx struct {
	op   string // lit var conv + - * neg & | ^ ~ << >> / % and the comparisons
	val  int64
	name string
	typ  ftype
	x, y *fx
}

func lit(v int64) string {
	switch {
	case v == -1<<31:
		return "(-2147483647 - 1)"
	case v < 0:
		return fmt.Sprintf("(%d)", v)
	}
	return fmt.Sprint(v)
}

func (e *fx) String() string {
	switch e.op {
	case "lit":
		return lit(e.val)
	case "var":
		return e.name
	case "conv":
		return e.typ.name + "(" + e.x.String() + ")"
	case "neg":
		return "(-" + e.x.String() + ")"
	case "~":
		return "(~" + e.x.String() + ")"
	}
	return "(" + e.x.String() + " " + e.op + " " + e.y.String() + ")"
}

// eval is BIR's semantics (docs/bir.md §14.2): 64-bit integers; inside a
// conversion's operand + - * and unary - compute modulo 2^64 down to the
// first operand that is none of them; elsewhere they fail on a 64-bit
// overflow. It returns the value or the kind of the runtime error.
func (e *fx) eval(env map[string]int64, wrap bool) (int64, string) {
	switch e.op {
	case "lit":
		return e.val, ""
	case "var":
		return env[e.name], ""
	case "conv":
		v, k := e.x.eval(env, true)
		return e.typ.wrap(v), k
	case "neg":
		v, k := e.x.eval(env, wrap)
		if k == "" && !wrap && v == -1<<63 {
			return 0, "overflow"
		}
		return -v, k
	case "~":
		v, k := e.x.eval(env, false)
		return ^v, k
	}
	chain := wrap && (e.op == "+" || e.op == "-" || e.op == "*")
	x, k := e.x.eval(env, chain)
	if k != "" {
		return 0, k
	}
	y, k := e.y.eval(env, chain)
	if k != "" {
		return 0, k
	}
	switch e.op {
	case "+", "-", "*":
		var r int64
		switch e.op {
		case "+":
			r = x + y
		case "-":
			r = x - y
		default:
			r = x * y
		}
		if !chain && !exact(e.op, x, y) {
			return 0, "overflow"
		}
		return r, ""
	case "&":
		return x & y, ""
	case "|":
		return x | y, ""
	case "^":
		return x ^ y, ""
	case "<<", ">>":
		if y < 0 || y > 63 {
			return 0, "shift"
		}
		if e.op == "<<" {
			return int64(uint64(x) << y), ""
		}
		return x >> y, ""
	case "/", "%":
		if y == 0 {
			return 0, "division-by-zero"
		}
		if e.op == "/" {
			return x / y, ""
		}
		return x % y, ""
	}
	b := false
	switch e.op {
	case "<":
		b = x < y
	case "<=":
		b = x <= y
	case "==":
		b = x == y
	case "!=":
		b = x != y
	}
	if b {
		return 1, ""
	}
	return 0, ""
}

// exact reports whether x op y fits in 64 bits.
func exact(op string, x, y int64) bool {
	switch op {
	case "+":
		r := x + y
		return (r > x) == (y > 0)
	case "-":
		r := x - y
		return (r < x) == (y > 0)
	}
	hi, lo := bits.Mul64(uint64(abs64(x)), uint64(abs64(y)))
	return hi == 0 && lo < 1<<63 && x != -1<<63 && y != -1<<63
}

// fxGen generates the expressions of one model over the inputs.
type fxGen struct {
	r      *rand.Rand
	inputs []*fx
}

func (g *fxGen) leaf() *fx {
	if g.r.Intn(3) > 0 {
		return g.inputs[g.r.Intn(len(g.inputs))]
	}
	t := ftypes[g.r.Intn(len(ftypes))]
	return &fx{op: "lit", val: t.edges(g.r, 1)[0]}
}

// value is an expression whose value is within 32 bits: a leaf, a
// conversion, & | ^ ~ and >>.
func (g *fxGen) value(d int) *fx {
	if d <= 0 || g.r.Intn(4) == 0 {
		return g.leaf()
	}
	switch g.r.Intn(6) {
	case 0, 1:
		return &fx{op: "conv", typ: ftypes[g.r.Intn(len(ftypes))], x: g.chain(d - 1)}
	case 2:
		return &fx{op: []string{"&", "|", "^"}[g.r.Intn(3)], x: g.value(d - 1), y: g.value(d - 1)}
	case 3:
		return &fx{op: "~", x: g.value(d - 1)}
	}
	return &fx{op: ">>", x: g.value(d - 1), y: g.count(d - 1)}
}

// chain is the operand of a conversion: + - * and unary - modulo 2^64,
// << , / and % of values, and the unsigned shift (x & 4294967295) >> n.
func (g *fxGen) chain(d int) *fx {
	if d <= 0 || g.r.Intn(5) == 0 {
		return g.value(d)
	}
	switch g.r.Intn(8) {
	case 0, 1, 2:
		return &fx{op: []string{"+", "-", "*"}[g.r.Intn(3)], x: g.chain(d - 1), y: g.chain(d - 1)}
	case 6:
		// Java's >>> on int, as the Java front end lowers it
		mask := []int64{4294967295, 2147483648, 4294901760}[g.r.Intn(3)]
		return &fx{op: ">>", x: &fx{op: "&", x: g.value(d - 1), y: &fx{op: "lit", val: mask}}, y: g.count(d - 1)}
	case 3:
		return &fx{op: "neg", x: g.chain(d - 1)}
	case 4:
		return &fx{op: "<<", x: g.chain(d - 1), y: g.count(d - 1)}
	case 5:
		return &fx{op: []string{"/", "%"}[g.r.Intn(2)], x: g.value(d - 1), y: g.divisor(d - 1)}
	}
	return g.value(d)
}

// count is a shift count: mostly a constant within 0..63 or masked, an
// input (which may be outside 0..63) one time in ten.
func (g *fxGen) count(d int) *fx {
	switch g.r.Intn(10) {
	case 0:
		return g.inputs[g.r.Intn(len(g.inputs))]
	case 1, 2, 3:
		return &fx{op: "&", x: g.value(d), y: &fx{op: "lit", val: 31}}
	}
	return &fx{op: "lit", val: []int64{0, 1, 7, 15, 16, 31, 32, 33, 40, 63}[g.r.Intn(10)]}
}

// divisor is an input (which may be 0), a constant other than 0, or a
// value | 1.
func (g *fxGen) divisor(d int) *fx {
	switch g.r.Intn(3) {
	case 0:
		return g.inputs[g.r.Intn(len(g.inputs))]
	case 1:
		return &fx{op: "lit", val: []int64{-1, 1, 2, 3, -7, 255, -2147483648}[g.r.Intn(7)]}
	}
	return &fx{op: "|", x: g.value(d), y: &fx{op: "lit", val: 1}}
}

// stored is a value stored into a fixed-width variable: a value, a
// conversion, + - * of two values (no 64-bit overflow), or a chain
// operator outside a conversion whose operands are values.
func (g *fxGen) stored(d int) *fx {
	switch g.r.Intn(5) {
	case 0:
		return g.value(d)
	case 1:
		return &fx{op: []string{"+", "-", "*"}[g.r.Intn(3)], x: g.value(d - 1), y: g.value(d - 1)}
	case 2:
		return &fx{op: "<<", x: g.value(d - 1), y: g.count(d - 1)}
	case 3:
		return &fx{op: []string{"/", "%"}[g.r.Intn(2)], x: g.value(d - 1), y: g.divisor(d - 1)}
	}
	return &fx{op: "conv", typ: ftypes[g.r.Intn(len(ftypes))], x: g.chain(d - 1)}
}

// fixedRandomModel returns a random model and the kinds of the runtime
// errors its inputs meet (none: it passes).
func fixedRandomModel(r *rand.Rand) (string, map[string]bool) {
	g := &fxGen{r: r}
	var b strings.Builder
	b.WriteString("system FixedRandom ()\n")
	var ins [][]int64
	for i := 0; i < 2; i++ {
		t := ftypes[r.Intn(len(ftypes))]
		v := &fx{op: "var", name: fmt.Sprintf("a%d", i), typ: t}
		g.inputs = append(g.inputs, v)
		ins = append(ins, t.edges(r, 3+r.Intn(2)))
		fmt.Fprintf(&b, "%s : %s;\n", v.name, t.name)
	}
	type out struct {
		name string
		typ  ftype
		e    *fx
	}
	var outs []out
	for i := 0; i < 4; i++ {
		o := out{fmt.Sprintf("r%d", i), ftypes[r.Intn(len(ftypes))], g.stored(3)}
		outs = append(outs, o)
		fmt.Fprintf(&b, "%s : %s;\n", o.name, o.typ.name)
	}
	guard := &fx{op: []string{"<", "<=", "==", "!="}[r.Intn(4)], x: g.value(3), y: g.value(3)}
	b.WriteString("f : boolean;\n\nmain thread M ()\n  loc m0:\n    when true do {")
	for i, in := range g.inputs {
		var vs []string
		for _, v := range ins[i] {
			vs = append(vs, lit(v))
		}
		fmt.Fprintf(&b, " %s := internChoose(%s);", in.name, strings.Join(vs, ", "))
	}
	b.WriteString(" } goto m1;\n  loc m1:\n    when true do {")
	for _, o := range outs {
		fmt.Fprintf(&b, " %s := %s;", o.name, o.e)
	}
	fmt.Fprintf(&b, " } goto m2;\n  loc m2:\n    when %s do { f := true; } goto m3;\n    when !%s do { } goto m3;\n  loc m3:\n    when true do {\n", guard, guard)
	kinds := map[string]bool{}
	for _, x := range ins[0] {
		for _, y := range ins[1] {
			env := map[string]int64{"a0": x, "a1": y}
			var conds []string
			fail := ""
			for _, o := range outs {
				v, k := o.e.eval(env, false)
				if k != "" {
					fail = k
					break
				}
				conds = append(conds, fmt.Sprintf("%s == %s", o.name, lit(o.typ.wrap(v))))
			}
			if fail == "" {
				v, k := guard.eval(env, false)
				fail = k
				conds = append(conds, fmt.Sprintf("f == %v", v == 1))
			}
			if fail != "" {
				kinds[fail] = true
				continue
			}
			fmt.Fprintf(&b, "      assert(a0 != %s || a1 != %s || %s);\n", lit(x), lit(y), strings.Join(conds, " && "))
		}
	}
	b.WriteString("    } goto m4;\n  loc m4:\nend M;\n\nend FixedRandom;\n")
	return b.String(), kinds
}

// TestFixedRandomModelsCheck: the random models are well-typed BIR and
// their assertions hold in birch where the evaluator finds no error (the
// evaluator checked against birch's engine, without SPIN; 60 models, 300
// with BIRCH_LONG=1).
func TestFixedRandomModelsCheck(t *testing.T) {
	var kinds []string
	seen := map[string]bool{}
	n := 60
	if testenv.Long() {
		n = 300
	}
	for seed := 1; seed <= n; seed++ {
		src, ks := fixedRandomModel(rand.New(rand.NewSource(int64(seed))))
		path := filepath.Join(t.TempDir(), "r.bir")
		if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
		m, err := model.New(load(t, path), model.Options{})
		if err != nil {
			t.Fatal(err)
		}
		res := search.Run(m, search.Config{Strategy: search.DFS, TimeLimit: time.Minute})
		switch {
		case len(ks) == 0 && res.Verdict != search.Pass:
			t.Fatalf("seed %d: birch %s (%v), the evaluator finds no error:\n%s", seed, res.Verdict, res.Violation, src)
		case len(ks) > 0 && (res.Verdict != search.Fail || !ks[res.Violation.Kind.String()]):
			t.Fatalf("seed %d: birch %s (%v), the evaluator finds %v:\n%s", seed, res.Verdict, res.Violation, ks, src)
		}
		k := "pass"
		if len(ks) > 0 {
			k = res.Violation.Kind.String()
		}
		if !seen[k] {
			seen[k] = true
			kinds = append(kinds, k)
		}
	}
	sort.Strings(kinds)
	if strings.Join(kinds, " ") != "division-by-zero pass shift" {
		t.Errorf("the random models end in %v, want every outcome", kinds)
	}
}

// TestSpinFixedO2: with gcc -O2, as birch spin compiles pan, the
// translation of fixed-wrap.bir still agrees with birch (1701 states).
// Without -fwrapv it does not: gcc folds int32(a + 1) < a, (a + 1) < a in
// pan's C, to false, and pan reports that assertion violated after 1363
// states (checked by hand, gcc 12). BIRCH_LONG=1 only (gcc -O2 takes
// seconds).
func TestSpinFixedO2(t *testing.T) {
	testenv.SkipUnlessLong(t)
	needSpin(t)
	prog := load(t, filepath.Join("testdata", "fixed-wrap.bir"))
	tr, err := TranslateFull(prog, Options{})
	if err != nil {
		t.Fatal(err)
	}
	sp, err := RunSpin(context.Background(), tr.Promela, SpinConfig{Dir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	if sp.Errors != 0 || sp.States != 1701 || !slices.Contains(sp.CFlags, "-fwrapv") || !slices.Contains(sp.CFlags, "-O2") {
		t.Fatalf("SPIN: %d errors (%s), %d states, gcc %v; want none, 1701 (birch's), -O2 -fwrapv:\n%s", sp.Errors, sp.Kind, sp.States, sp.CFlags, sp.Output)
	}
}
