package c2bp

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"birch/internal/abstraction/predicate"
	"birch/internal/search"
	"birch/internal/testenv"
)

// The wrong-pass check: random models with what the soundness test's
// generator leaves out (functions with results and bounded recursion,
// [function] predicates, a thread started once with its own predicates, a
// heap of records with int fields), run concretely (small inputs) and
// abstracted with random predicates. Whenever the concrete search finds a
// violation, the abstract search must find one too (a pass of the abstract
// model of a failing model is the worst bug the abstraction can have), and
// every kind of error the model reaches (within 20000 states), the
// abstract model reaches, as the concrete error Origin.Errors names.

// wpModel is a generated model and its predicate file.
type wpModel struct {
	src, preds string
}

type wpGen struct {
	r     *rand.Rand
	b     strings.Builder
	cmps  map[string][]string // scope ("" global, "thread M", ...) -> comparisons
	heap  bool
	fbool bool // f returns a boolean
}

func (g *wpGen) n(k int) int              { return g.r.IntN(k) }
func (g *wpGen) pick(xs ...string) string { return xs[g.n(len(xs))] }

// intExpr is a small integer expression over vars.
func (g *wpGen) intExpr(vars []string) string {
	switch g.n(5) {
	case 0:
		return fmt.Sprint(g.n(4) - 1)
	case 1, 2:
		return g.pick(vars...)
	case 3:
		return g.pick(vars...) + " + " + fmt.Sprint(g.n(3)+1)
	}
	return g.pick(vars...) + " - " + g.pick(vars...)
}

// cmp is a comparison over vars, remembered as a predicate candidate of
// scope.
func (g *wpGen) cmp(scope string, vars []string) string {
	c := g.pick(vars...) + " " + g.pick("<", "<=", "==", "!=", ">", ">=") + " " + g.intExpr(vars)
	g.cmps[scope] = append(g.cmps[scope], c)
	return c
}

// stmts is a few actions over the int variables ints (assignable) and
// reads.
func (g *wpGen) stmts(scope string, ints, reads []string) string {
	var out []string
	for i, n := 0, g.n(3); i < n; i++ {
		switch g.n(6) {
		case 0:
			out = append(out, g.pick(ints...)+" := externChoose("+fmt.Sprint(g.n(3)-1)+", "+fmt.Sprint(g.n(3)+1)+");")
		case 1:
			out = append(out, "assert("+g.cmp(scope, reads)+");")
		case 2:
			out = append(out, "assume("+g.cmp(scope, reads)+");")
		case 3:
			out = append(out, "flag := "+g.cmp(scope, reads)+";")
		default:
			out = append(out, g.pick(ints...)+" := "+g.intExpr(reads)+";")
		}
	}
	return strings.Join(out, " ")
}

func (g *wpGen) line(format string, args ...any) { fmt.Fprintf(&g.b, format+"\n", args...) }

// wpGenerate makes the model of a seed.
func wpGenerate(seed uint64) wpModel {
	g := &wpGen{r: rand.New(rand.NewPCG(seed, 0x3a5)), cmps: map[string][]string{}}
	g.heap = g.n(2) == 0
	g.fbool = g.n(3) == 0
	g.line("system W%d ()", seed)
	if g.heap {
		g.line("Node = record { v : int; next : NodeRef; };")
		g.line("NodeRef = ref Node {Nodes};")
		g.line("Nodes : collection [2] of Node;")
		g.line("h : NodeRef;")
	}
	g.line("g0, g1 : int;")
	g.line("flag : boolean;")
	globals := []string{"g0", "g1"}
	// the function: bounded recursion on d
	res := "int"
	if g.fbool {
		res = "boolean"
	}
	fvars := []string{"a", "t", "g0"}
	g.line("function f (a : int, d : range 0..2) : %s", res)
	g.line("  t : int;")
	g.line("  loc f0:")
	g.line("    when d > 0 && %s do { %s } goto f1;", g.cmp("function f", fvars), g.stmts("function f", []string{"t", "g0"}, fvars))
	ret := g.intExpr(fvars)
	if g.fbool {
		ret = g.cmp("function f", fvars)
	}
	g.line("    when d == 0 do { %s } return %s;", g.stmts("function f", []string{"t", "g1"}, fvars), ret)
	if g.fbool {
		g.line("    when d > 0 do { flag := call f(%s, d - 1); } goto f2;", g.intExpr(fvars))
	} else {
		g.line("    when d > 0 do { t := call f(%s, d - 1); } goto f2;", g.intExpr(fvars))
	}
	g.line("  loc f1:")
	g.line("    when true do { %s } goto f2;", g.stmts("function f", []string{"t", "g0"}, fvars))
	g.line("  loc f2:")
	ret = g.intExpr(fvars)
	if g.fbool {
		ret = g.cmp("function f", fvars)
	}
	g.line("    when true do { } return %s;", ret)
	g.line("end f;")
	// a thread started once, in half the models
	withW := g.n(2) == 0
	wvars := []string{"x", "g0", "g1"}
	g.line("thread W (x : int)")
	g.line("  loc w0:")
	g.line("    when %s do { %s } goto w1;", g.cmp("thread W", wvars), g.stmts("thread W", []string{"x", "g1"}, wvars))
	g.line("    when true do { %s } goto w2;", g.stmts("thread W", []string{"x", "g0"}, wvars))
	g.line("  loc w1:")
	g.line("  loc w2:")
	g.line("end W;")
	// the main thread
	mvars := []string{"m", "n", "g0", "g1"}
	g.line("main thread M ()")
	g.line("  m, n : int;")
	g.line("  b : boolean;")
	g.line("  r : range 0..3;")
	g.line("  arr : array [3] of boolean;")
	if g.heap {
		g.line("  p : NodeRef;")
	}
	g.line("  loc l0:")
	g.line("    when true do { m := externChoose(0, 1, 2); n := externChoose(-1, 1); } goto l1;")
	// runtime errors on abstracted data, a small range and a value array
	// read with abstracted data, a live set that resets n
	live := ""
	if g.n(2) == 0 {
		live = " live { m, b, r, arr }"
	}
	g.line("  loc l1:%s", live)
	g.line("    when true do { %s } goto l1b;", g.pick(
		"n := 10 / m;",
		"r := m;",
		"b := arr[m];",
		"arr[1] := m > n;",
		"n := m % (n + 1);",
		"m := -n;",
		"assert(r < 3);",
		"arr[m] := n > 0; assert(!arr[2]);",
		"arr[m - 1] := true; b := arr[n + 1];",
	))
	g.line("  loc l1b:")
	start := ""
	if withW {
		start = "start W(" + g.intExpr(mvars) + ");"
	}
	g.line("    when true do { %s %s } goto l2;", start, g.stmts("thread M", []string{"m", "g0"}, mvars))
	g.line("  loc l2:")
	call := "n := call f(" + g.intExpr(mvars) + ", " + fmt.Sprint(g.n(3)) + ");"
	if g.fbool {
		call = "b := call f(" + g.intExpr(mvars) + ", " + fmt.Sprint(g.n(3)) + ");"
	}
	g.line("    when %s do { %s } goto l3;", g.cmp("thread M", mvars), call)
	g.line("    when true do { %s } goto l2b;", g.stmts("thread M", []string{"m", "n"}, mvars))
	g.line("  loc l2b:")
	g.line("    when true do { } goto l3;")
	g.line("  loc l3:")
	if g.heap {
		g.line("    when true do { p := new Nodes; p.v := %s; p.next := h; h := p; } goto l4;", g.intExpr(mvars))
		g.cmps["thread M"] = append(g.cmps["thread M"], "p.v > "+fmt.Sprint(g.n(3)-1), "h == null", "h.v "+g.pick("<", "==", ">")+" m")
		g.line("  loc l4:")
		g.line("    when h != null do { assert(h.v %s %s); } goto l5;", g.pick("<", "<=", "!=", ">="), g.intExpr(mvars))
		g.line("    when h == null do { } goto l5;")
		g.line("  loc l5:")
	}
	g.line("    when true do { %s } goto l9;", g.stmts("thread M", []string{"m", "n", "g1"}, mvars))
	g.line("    when b do { assert(%s); } goto l8;", g.cmp("thread M", mvars))
	g.line("  loc l8:")
	g.line("  loc l9:")
	g.line("end M;")
	g.line("end W%d;", seed)
	// predicates: a few comparisons of the model, in their scopes
	var preds []string
	scopes := []string{"", "thread M", "function f"}
	if withW {
		scopes = append(scopes, "thread W")
	}
	for i, n := 0, 1+g.n(5); i < n; i++ {
		s := scopes[g.n(len(scopes))]
		cs := g.cmps[s]
		if s == "" {
			var gs []string
			for _, c := range append(g.cmps["thread M"], g.cmps["thread W"]...) {
				if !strings.ContainsAny(strings.NewReplacer("g0", "", "g1", "", "null", "").Replace(c), "mnxphabt") {
					gs = append(gs, c)
				}
			}
			cs = append(gs, "g0 > g1", "g0 == 0", "g1 >= "+fmt.Sprint(g.n(3)))
			_ = globals
		}
		if len(cs) == 0 {
			continue
		}
		c := cs[g.n(len(cs))]
		if s != "" {
			c = "[" + s + "] " + c
		}
		preds = append(preds, c)
	}
	return wpModel{src: g.b.String(), preds: strings.Join(preds, "\n") + "\n"}
}

var wpStats = map[string]int{}

// wpCheck reports a wrong pass of one generated model, or nil.
func wpCheck(t *testing.T, seed uint64) (skipped bool, err error) {
	m := wpGenerate(seed)
	prog := loadSource(t, fmt.Sprintf("w%d.bir", seed), []byte(m.src))
	pf, perr := predicate.ParseFile(prog, "w.pred", []byte(m.preds))
	if perr != nil {
		wpStats["predicates do not check"]++
		return true, nil // a candidate that does not check in its scope
	}
	conc := exploreMax(t, prog, 20000)
	if conc.Verdict != search.Fail {
		wpStats["concrete "+conc.Verdict.String()]++
		return true, nil
	}
	out, aerr := Abstract(prog, pf, Config{})
	var u *UnsupportedError
	if errors.As(aerr, &u) {
		msg := u.List[0].Msg
		if i := strings.Index(msg, "predicate "); i >= 0 {
			msg = msg[:i]
		}
		wpStats["unsupported: "+msg]++
		return true, nil
	}
	if aerr != nil {
		return false, fmt.Errorf("seed %d: %v\n%s\n%s", seed, aerr, m.src, m.preds)
	}
	abs := exploreMax(t, out.Program, 200000)
	if abs.Verdict == search.Pass {
		return false, fmt.Errorf("seed %d: the model fails (%s) and its abstraction passes\n%s\n%s\n%s", seed, conc.Reason, m.src, m.preds, out.Source)
	}
	// every kind of error the model reaches, the abstraction reaches
	have := map[string]bool{}
	for _, k := range errorKinds(t, out.Program, out, 200000) {
		have[k] = true
	}
	for _, k := range errorKinds(t, prog, nil, 20000) {
		wpStats["kinds compared"]++
		if !have[k] {
			return false, fmt.Errorf("seed %d: the model reaches a %s error, its abstraction does not (it reaches %v)\n%s\n%s\n%s", seed, k, have, m.src, m.preds, out.Source)
		}
	}
	return false, nil
}

// TestNoWrongPass checks the generated models of a few seeds (many with
// BIRCH_LONG=1).
func TestNoWrongPass(t *testing.T) {
	n := uint64(30)
	if testenv.Long() {
		n = 1000
	}
	checked := 0
	for seed := uint64(0); seed < n; seed++ {
		skipped, err := wpCheck(t, seed)
		if err != nil {
			t.Fatal(err)
		}
		if !skipped {
			checked++
		}
	}
	t.Logf("%d of %d models fail concretely and were abstracted; counts: %v", checked, n, wpStats)
	if checked == 0 {
		t.Fatal("no generated model was checked: the test proves nothing")
	}
}

// TestNoWrongPassWrap: the soundness generator's models with fixed-width
// variables (genWrap: stores that wrap, conversions, constants that make
// them wrap soon) that fail concretely within 20000 states must not pass
// abstracted with their random predicates (many with BIRCH_LONG=1).
func TestNoWrongPassWrap(t *testing.T) {
	n := uint64(60)
	if testenv.Long() {
		n = 1500
	}
	var failing, checked int
	for seed := uint64(1); seed <= n; seed++ {
		gm := genRandomModel(seed, genWrap)
		prog, preds, err := genLoad(gm)
		if err != nil {
			t.Fatalf("seed %d: %v\n%s\n%s", seed, err, gm.Src, gm.PredFile())
		}
		conc := exploreMax(t, prog, 20000)
		if conc.Verdict != search.Fail {
			continue
		}
		failing++
		out, aerr := Abstract(prog, preds, Config{})
		var u *UnsupportedError
		if errors.As(aerr, &u) {
			continue
		}
		if aerr != nil {
			t.Fatalf("seed %d: %v\n%s\n%s", seed, aerr, gm.Src, gm.PredFile())
		}
		checked++
		if abs := exploreMax(t, out.Program, 200000); abs.Verdict == search.Pass {
			t.Fatalf("seed %d: the model fails (%s) and its abstraction passes\n%s\n%s\n%s", seed, conc.Reason, gm.Src, gm.PredFile(), out.Source)
		}
	}
	t.Logf("%d of %d models fail concretely, %d of them abstracted", failing, n, checked)
	if checked < int(n)/10 {
		t.Errorf("only %d models checked: the test proves little", checked)
	}
}
