package bebop

import (
	"context"
	"errors"
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"birch/internal/boolprog"
	"birch/internal/source"
)

func parse(t *testing.T, name, src string) (*boolprog.Program, *boolprog.Info, *source.FileSet) {
	t.Helper()
	fset := source.NewFileSet()
	prog, err := boolprog.Parse(fset, name, []byte(src))
	if err != nil {
		t.Fatalf("parse %s: %v\n%s", name, err, src)
	}
	info, err := boolprog.Resolve(fset, prog)
	if err != nil {
		t.Fatalf("resolve %s: %v\n%s", name, err, src)
	}
	return prog, info, fset
}

// TestTestdata checks the hand-written programs here and the boolean
// program package's against the verdict in their names (-safe, -unsafe);
// the recursive ones need unbounded call depth. Each unsafe one's trail is
// replayed step by step (checkTrail).
func TestTestdata(t *testing.T) {
	files, _ := filepath.Glob("testdata/*.bp")
	more, _ := filepath.Glob("../testdata/*.bp")
	files = append(files, more...)
	if len(files) < 10 {
		t.Fatalf("only %d test programs found", len(files))
	}
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		_, info, fset := parse(t, f, string(src))
		res := Check(info, Config{})
		want := Safe
		if strings.HasSuffix(f, "-unsafe.bp") {
			want = Unsafe
		} else if !strings.HasSuffix(f, "-safe.bp") {
			continue
		}
		if res.Outcome != want {
			t.Errorf("%s: %v (%s), want %v", f, res.Outcome, res.Reason, want)
			continue
		}
		if want == Unsafe {
			checkTrail(t, f, info, fset, res)
		}
	}
}

// TestTrailDeepRecursion: the trail of recursion-deep-unsafe.bp goes down
// four levels of recursion before the assertion fails.
func TestTrailDeepRecursion(t *testing.T) {
	src, err := os.ReadFile("testdata/recursion-deep-unsafe.bp")
	if err != nil {
		t.Fatal(err)
	}
	_, info, fset := parse(t, "recursion-deep-unsafe.bp", string(src))
	res := Check(info, Config{})
	if res.Outcome != Unsafe {
		t.Fatalf("%v, want unsafe", res.Outcome)
	}
	last := res.Trail[len(res.Trail)-1]
	if last.Proc != "down" || last.Depth != 4 {
		t.Errorf("the trail ends in %s at depth %d, want down at depth 4:\n%s", last.Proc, last.Depth, trailText(fset, res))
	}
	checkTrail(t, "recursion-deep-unsafe.bp", info, fset, res)
}

func trailText(fset *source.FileSet, res *Result) string {
	var b strings.Builder
	for _, s := range res.Trail {
		fmt.Fprintf(&b, "%s: %s%s %s [", fset.Position(s.Pos), strings.Repeat("  ", s.Depth), s.Proc, s.Stmt)
		for i, v := range s.Values {
			if i > 0 {
				b.WriteByte(' ')
			}
			fmt.Fprintf(&b, "%s=%d", v.Name, b2i(v.Value))
		}
		b.WriteString("]\n")
	}
	return b.String()
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// Value sets, as the explicit checker's: bit 0 false possible, bit 1 true.
const (
	canF uint8 = 1
	canT uint8 = 2
)

// evalSet evaluates e in the state vals (names to values), independently
// of the BDD encoding.
func evalSet(info *boolprog.Info, e boolprog.Expr, vals map[*boolprog.Var]bool) uint8 {
	one := func(b bool) uint8 {
		if b {
			return canT
		}
		return canF
	}
	switch e := e.(type) {
	case *boolprog.Ident:
		return one(vals[info.Uses[e]])
	case *boolprog.Const:
		return one(e.Value)
	case *boolprog.Nondet:
		return canF | canT
	case *boolprog.Choose:
		tv, fv := evalSet(info, e.True, vals), evalSet(info, e.False, vals)
		r := uint8(0)
		if tv&canT != 0 {
			r |= canT
		}
		if tv&canF != 0 {
			if fv&canT != 0 {
				r |= canF
			}
			if fv&canF != 0 {
				r |= canF | canT
			}
		}
		return r
	case *boolprog.Unary:
		x := evalSet(info, e.X, vals)
		return x>>1 | x&1<<1
	case *boolprog.Binary:
		x, y := evalSet(info, e.X, vals), evalSet(info, e.Y, vals)
		r := uint8(0)
		for a := 0; a < 2; a++ {
			for b := 0; b < 2; b++ {
				if x&(1<<a) == 0 || y&(1<<b) == 0 {
					continue
				}
				p, q := a == 1, b == 1
				var v bool
				switch e.Op {
				case boolprog.Implies:
					v = !p || q
				case boolprog.Or:
					v = p || q
				case boolprog.Xor, boolprog.Neq:
					v = p != q
				case boolprog.And:
					v = p && q
				case boolprog.Eq:
					v = p == q
				}
				r |= one(v)
			}
		}
		return r
	}
	return 0
}

func has(set uint8, b bool) bool {
	if b {
		return set&canT != 0
	}
	return set&canF != 0
}

// checkTrail replays res's trail on the program's semantics: it starts at
// main's entry, every step follows from the one before by its statement
// (calls and returns matched, with the callee's formals and results), and
// the last is the failing assertion with a state that falsifies it.
func checkTrail(t *testing.T, name string, info *boolprog.Info, fset *source.FileSet, res *Result) {
	t.Helper()
	c := newChecker(info, Config{})
	tr := res.Trail
	if len(tr) == 0 {
		t.Errorf("%s: unsafe without a trail", name)
		return
	}
	nodeOf := func(s Step) *cnode {
		for _, n := range c.nodes {
			if n.pos == s.Pos && n.proc.name() == s.Proc {
				return n
			}
		}
		return nil
	}
	state := func(s Step, p *proc) map[*boolprog.Var]bool {
		vals := map[*boolprog.Var]bool{}
		for i, v := range info.Globals {
			vals[v] = s.Values[i].Value
		}
		for i, v := range p.info.Vars {
			vals[v] = s.Values[len(info.Globals)+i].Value
		}
		return vals
	}
	fail := func(i int, format string, args ...any) {
		t.Errorf("%s: trail step %d: %s\n%s", name, i, fmt.Sprintf(format, args...), trailText(fset, res))
	}
	main := c.byPI[info.Main]
	if n := nodeOf(tr[0]); n == nil || n.id != main.entry || tr[0].Depth != 0 {
		fail(0, "does not start at main's entry")
		return
	}
	var stack []int // the call steps not yet returned from
	for i := 0; i+1 < len(tr); i++ {
		a, b := tr[i], tr[i+1]
		na, nb := nodeOf(a), nodeOf(b)
		if na == nil || nb == nil {
			fail(i, "no statement at %s", fset.Position(a.Pos))
			return
		}
		va, vb := state(a, na.proc), state(b, nb.proc)
		sameExcept := func(targets []*boolprog.Var, vars []*boolprog.Var) bool {
			for _, v := range vars {
				if !slices.Contains(targets, v) && va[v] != vb[v] {
					return false
				}
			}
			return true
		}
		all := append(append([]*boolprog.Var(nil), info.Globals...), na.proc.info.Vars...)
		switch na.kind {
		case kCall:
			if b.Depth != a.Depth+1 || nb.id != na.callee.entry || !sameExcept(nil, info.Globals) {
				fail(i, "the call does not enter its callee with the same globals")
				return
			}
			for j, e := range na.exprs {
				if !has(evalSet(info, e, va), vb[na.callee.info.Vars[j]]) {
					fail(i, "formal %d is not the argument's value", j)
					return
				}
			}
			stack = append(stack, i)
		case kReturn, kEnd:
			if len(stack) == 0 {
				fail(i, "a return from main")
				return
			}
			ci := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			call := nodeOf(tr[ci])
			vc := state(tr[ci], call.proc)
			if b.Depth != a.Depth-1 || nb.id != call.succ[0] {
				fail(i, "the return does not go back after its call (step %d)", ci)
				return
			}
			for _, v := range info.Globals {
				if !slices.Contains(call.lhs, v) && va[v] != vb[v] {
					fail(i, "global %s changed by the return", v.Name)
					return
				}
			}
			for _, v := range call.proc.info.Vars {
				if !slices.Contains(call.lhs, v) && vc[v] != vb[v] {
					fail(i, "local %s not restored after the call", v.Name)
					return
				}
			}
			if na.kind == kReturn {
				for j, x := range call.lhs {
					if !has(evalSet(info, na.exprs[j], va), vb[x]) {
						fail(i, "result %d is not the returned value", j)
						return
					}
				}
			}
		default:
			if b.Depth != a.Depth || nb.proc != na.proc {
				fail(i, "leaves the procedure")
				return
			}
			ok := false
			for k, s := range na.succ {
				if s != nb.id {
					continue
				}
				switch na.kind {
				case kSkip:
					ok = ok || sameExcept(nil, all)
				case kAssume, kAssert:
					ok = ok || (sameExcept(nil, all) && has(evalSet(info, na.cond, va), true))
				case kBranch:
					ok = ok || (sameExcept(nil, all) && has(evalSet(info, na.cond, va), k == 0))
				case kAssign:
					good := sameExcept(na.lhs, all)
					for j, x := range na.lhs {
						good = good && has(evalSet(info, na.exprs[j], va), vb[x])
					}
					ok = ok || good
				}
			}
			if !ok {
				fail(i, "%s does not lead to the next step", a.Stmt)
				return
			}
		}
	}
	last := tr[len(tr)-1]
	n := nodeOf(last)
	if n == nil || n.kind != kAssert || n.stmt != res.Assert || !has(evalSet(info, n.cond, state(last, n.proc)), false) {
		fail(len(tr)-1, "the trail does not end at the failing assertion with a falsifying state")
	}
}

// TestNodeBound: a check that needs more BDD nodes than the bound is
// inconclusive, and says why.
func TestNodeBound(t *testing.T) {
	src, err := os.ReadFile("testdata/recursion-parity-safe.bp")
	if err != nil {
		t.Fatal(err)
	}
	_, info, _ := parse(t, "recursion-parity-safe.bp", string(src))
	res := Check(info, Config{MaxNodes: 20})
	if res.Outcome != Inconclusive || !strings.Contains(res.Reason, "node bound") {
		t.Errorf("with 20 nodes: %v (%q), want inconclusive for the node bound", res.Outcome, res.Reason)
	}
	if res.Stats.BDDNodes > 20 {
		t.Errorf("%d nodes used, bound 20", res.Stats.BDDNodes)
	}
	if res := Check(info, Config{}); res.Outcome != Safe {
		t.Errorf("without a bound: %v", res.Outcome)
	}
}

func TestContextStops(t *testing.T) {
	src, err := os.ReadFile("testdata/recursion-parity-safe.bp")
	if err != nil {
		t.Fatal(err)
	}
	_, info, _ := parse(t, "recursion-parity-safe.bp", string(src))
	ctx, cancel := context.WithCancelCause(context.Background())
	cancel(errors.New("time limit"))
	res := Check(info, Config{Context: ctx})
	if res.Outcome != Inconclusive || !strings.Contains(res.Reason, "time limit") {
		t.Errorf("cancelled: %v (%q), want inconclusive naming the cause", res.Outcome, res.Reason)
	}
}

// gen writes random boolean programs: a few globals and procedures with
// parameters, locals and results, and every statement kind; calls go to
// later procedures only unless recursive is set.
type gen struct {
	r         *rand.Rand
	b         strings.Builder
	procs     []genProc
	cur       int
	scope     []string
	labels    []string
	recursive bool
	det       bool // no * and no schoose in expressions
	indent    int
}

type genProc struct {
	name            string
	params, returns int
}

func (g *gen) expr(depth int) string {
	k := g.r.Intn(10)
	if depth <= 0 {
		k = g.r.Intn(4)
	}
	switch {
	case k < 3 && len(g.scope) > 0:
		return g.scope[g.r.Intn(len(g.scope))]
	case k < 3:
		return []string{"T", "F"}[g.r.Intn(2)]
	case k == 3 && g.det:
		return []string{"T", "F"}[g.r.Intn(2)]
	case k == 3:
		return []string{"T", "F", "*", "*"}[g.r.Intn(4)]
	case k == 4:
		return "!" + g.expr(depth-1)
	case k == 5 && !g.det:
		return fmt.Sprintf("schoose[%s, %s]", g.expr(depth-1), g.expr(depth-1))
	}
	ops := []string{"&", "|", "^", "=", "!=", "=>"}
	return fmt.Sprintf("(%s %s %s)", g.expr(depth-1), ops[g.r.Intn(len(ops))], g.expr(depth-1))
}

func (g *gen) line(format string, args ...any) {
	g.b.WriteString(strings.Repeat("    ", g.indent))
	fmt.Fprintf(&g.b, format, args...)
	g.b.WriteByte('\n')
}

// targets returns k distinct variables of the scope.
func (g *gen) targets(k int) []string {
	perm := g.r.Perm(len(g.scope))
	var out []string
	for _, i := range perm[:k] {
		out = append(out, g.scope[i])
	}
	return out
}

func (g *gen) exprs(k int) []string {
	var out []string
	for i := 0; i < k; i++ {
		out = append(out, g.expr(2))
	}
	return out
}

func (g *gen) stmt(depth int) {
	p := g.procs[g.cur]
	k := g.r.Intn(12)
	if g.cur == 0 && k >= 9 && g.r.Intn(2) == 0 {
		k = 4 // main calls more often
	}
	switch {
	case k < 3 && len(g.scope) > 0:
		n := 1 + g.r.Intn(min(2, len(g.scope)))
		g.line("%s := %s;", strings.Join(g.targets(n), ", "), strings.Join(g.exprs(n), ", "))
	case k < 5:
		lo := g.cur + 1
		if g.recursive {
			lo = 1
		}
		if lo >= len(g.procs) {
			g.line("skip;")
			return
		}
		q := g.procs[lo+g.r.Intn(len(g.procs)-lo)]
		call := fmt.Sprintf("%s(%s);", q.name, strings.Join(g.exprs(q.params), ", "))
		if q.returns > 0 && q.returns <= len(g.scope) && g.r.Intn(3) > 0 {
			call = strings.Join(g.targets(q.returns), ", ") + " := " + call
		}
		g.line("%s", call)
	case k == 5:
		g.line("assume(%s);", g.expr(2))
	case k == 6:
		g.det = g.r.Intn(4) > 0
		g.line("assert(%s);", g.expr(2))
		g.det = false
	case k == 7 && depth > 0:
		g.line("if (%s) then", g.expr(1))
		g.indent++
		g.stmts(depth-1, 1+g.r.Intn(2))
		g.indent--
		if g.r.Intn(2) == 0 {
			g.line("else")
			g.indent++
			g.stmts(depth-1, 1+g.r.Intn(2))
			g.indent--
		}
		g.line("fi")
	case k == 8 && depth > 0:
		g.line("while (%s) do", g.expr(1))
		g.indent++
		g.stmts(depth-1, 1+g.r.Intn(2))
		g.indent--
		g.line("od")
	case k == 9 && len(g.labels) > 0:
		n := 1 + g.r.Intn(2)
		var ls []string
		for i := 0; i < n; i++ {
			ls = append(ls, g.labels[g.r.Intn(len(g.labels))])
		}
		g.line("goto %s;", strings.Join(ls, ", "))
	case k == 10 && g.r.Intn(3) == 0:
		g.line("return %s;", strings.Join(g.exprs(p.returns), ", "))
	default:
		g.line("skip;")
	}
}

func (g *gen) stmts(depth, n int) {
	for i := 0; i < n; i++ {
		g.stmt(depth)
	}
}

func (g *gen) program() string {
	ng := g.r.Intn(4)
	var globals []string
	for i := 0; i < ng; i++ {
		globals = append(globals, fmt.Sprintf("g%d", i))
	}
	if ng > 0 {
		g.line("decl %s;", strings.Join(globals, ", "))
	}
	np := 1 + g.r.Intn(3)
	g.procs = []genProc{{name: "main", params: 0, returns: 0}}
	for i := 1; i <= np; i++ {
		g.procs = append(g.procs, genProc{name: fmt.Sprintf("p%d", i), params: g.r.Intn(3), returns: g.r.Intn(3)})
	}
	for i, p := range g.procs {
		g.cur = i
		var params, locals []string
		for j := 0; j < p.params; j++ {
			params = append(params, fmt.Sprintf("a%d", j))
		}
		for j := g.r.Intn(3); j > 0; j-- {
			locals = append(locals, fmt.Sprintf("l%d", j))
		}
		ret := "void"
		switch p.returns {
		case 1:
			ret = "bool"
		case 2:
			ret = "bool<2>"
		}
		g.line("%s %s(%s) begin", ret, p.name, strings.Join(params, ", "))
		g.indent++
		if len(locals) > 0 {
			g.line("decl %s;", strings.Join(locals, ", "))
		}
		g.scope = append(append(append([]string(nil), globals...), params...), locals...)
		if g.r.Intn(6) == 0 && len(g.scope) > 0 {
			g.line("enforce %s;", g.expr(1))
		}
		n := 2 + g.r.Intn(4)
		if i == 0 {
			n += 2
		}
		g.labels = nil
		labelled := map[int]string{}
		for j := 0; j < n; j++ {
			if g.r.Intn(4) == 0 {
				labelled[j] = fmt.Sprintf("L%d", j)
				g.labels = append(g.labels, labelled[j])
			}
		}
		for j := 0; j < n; j++ {
			if l, ok := labelled[j]; ok {
				g.b.WriteString(strings.Repeat("    ", g.indent-1) + l + ":\n")
			}
			g.stmt(2)
		}
		g.indent--
		g.line("end")
	}
	return g.b.String()
}

// parityProgram keeps the parity of n unconstrained globals by a loop that
// rotates them and a recursive procedure that flips two of them at once.
func parityProgram(n int) string {
	var gs, rot []string
	for i := 0; i < n; i++ {
		gs = append(gs, fmt.Sprintf("g%d", i))
		rot = append(rot, fmt.Sprintf("g%d", (i+1)%n))
	}
	parity := strings.Join(gs, " ^ ")
	return fmt.Sprintf(`decl %s;

void flip() begin
    if (*) then
        g0, g1 := !g0, !g1;
        flip();
    fi
end

void main() begin
    decl p;
    p := %s;
    while (*) do
        %s := %s;
        flip();
    od
    assert(p = (%s));
end
`, strings.Join(gs, ", "), parity, strings.Join(gs, ", "), strings.Join(rot, ", "), parity)
}

// TestManyVariables: parityProgram(40) is safe; the explicit checker would
// enumerate 2^40 initial states (TestManyVariablesExplicit), the BDDs of
// parity are linear in the number of variables. Flipping one variable
// instead of two breaks it.
func TestManyVariables(t *testing.T) {
	src := parityProgram(40)
	_, info, fset := parse(t, "parity-safe.bp", src)
	if res := Check(info, Config{}); res.Outcome != Safe {
		t.Errorf("bdd: %v (%s), want safe", res.Outcome, res.Reason)
	}
	bad := strings.Replace(src, "g0, g1 := !g0, !g1;", "g0 := !g0;", 1)
	_, info, fset = parse(t, "parity-unsafe.bp", bad)
	res := Check(info, Config{})
	if res.Outcome != Unsafe {
		t.Fatalf("bdd on the broken program: %v (%s), want unsafe", res.Outcome, res.Reason)
	}
	checkTrail(t, "parity-unsafe.bp", info, fset, res)
}

// TestTrailTooLong: every execution to the failing assertion runs 2^18
// calls (each procedure calls the next twice); the verdict stands and the
// trail keeps its last MaxTrailSteps steps.
func TestTrailTooLong(t *testing.T) {
	doubling := func(levels int) string {
		var b strings.Builder
		for i := 0; i < levels; i++ {
			fmt.Fprintf(&b, "void p%d() begin\n    p%d();\n    p%d();\nend\n", i, i+1, i+1)
		}
		fmt.Fprintf(&b, "void p%d() begin\n    skip;\nend\n", levels)
		b.WriteString("void main() begin\n    p0();\n    assert(F);\nend\n")
		return b.String()
	}
	// 2^9 calls: the trail is there, complete.
	_, info, fset := parse(t, "long-unsafe.bp", doubling(8))
	res := Check(info, Config{})
	if res.Outcome != Unsafe || len(res.Trail) < 3<<8 {
		t.Fatalf("8 levels: %v, %d trail steps (%s)", res.Outcome, len(res.Trail), res.NoTrail)
	}
	checkTrail(t, "long-unsafe.bp", info, fset, res)
	_, info, _ = parse(t, "long-unsafe.bp", doubling(18))
	res = Check(info, Config{})
	if res.Outcome != Unsafe || len(res.Trail) != MaxTrailSteps || !res.TrailCut {
		t.Fatalf("%v, %d trail steps, cut %v; want unsafe with the last %d steps", res.Outcome, len(res.Trail), res.TrailCut, MaxTrailSteps)
	}
	last := res.Trail[len(res.Trail)-1]
	if last.Proc != "main" || last.Stmt != "assert(F);" {
		t.Errorf("the cut trail ends at %s %s, not at the assertion", last.Proc, last.Stmt)
	}
}

// TestTrailOfLongLoop: a 16-bit counter counts up before assert(F): the
// trail (2^17 steps, cut to the last MaxTrailSteps) is rebuilt with a
// binary search over each node's additions; scanning them at each step
// took 38 s for 14 bits and hours for 18.
func TestTrailOfLongLoop(t *testing.T) {
	const k = 16
	var names, incr []string
	for i := 0; i < k; i++ {
		names = append(names, fmt.Sprintf("c%d", i))
		if i == 0 {
			incr = append(incr, "!c0")
		} else {
			incr = append(incr, fmt.Sprintf("c%d ^ (%s)", i, strings.Join(names[:i], " & ")))
		}
	}
	list := strings.Join(names, ", ")
	src := "void main() begin\n    decl " + list + ";\n    " + list + " := " + strings.TrimSuffix(strings.Repeat("F, ", k), ", ") + ";\n" +
		"    while (!(" + strings.Join(names, " & ") + ")) do\n        " + list + " := " + strings.Join(incr, ", ") + ";\n    od\n    assert(F);\nend\n"
	_, info, _ := parse(t, "counter-unsafe.bp", src)
	res := Check(info, Config{})
	if res.Outcome != Unsafe || !res.TrailCut || len(res.Trail) != MaxTrailSteps {
		t.Fatalf("%v, cut %v, %d steps (%s)", res.Outcome, res.TrailCut, len(res.Trail), res.NoTrail)
	}
	// The last steps: the loop's exit test with every bit set, then the
	// assertion.
	last, exit := res.Trail[len(res.Trail)-1], res.Trail[len(res.Trail)-2]
	if last.Stmt != "assert(F);" || !strings.HasPrefix(exit.Stmt, "while") {
		t.Fatalf("the trail ends with %q, %q", exit.Stmt, last.Stmt)
	}
	for _, v := range exit.Values {
		if !v.Value {
			t.Errorf("the loop exits with %s false", v.Name)
		}
	}
}
