package bp

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"birch/internal/bir/types"
	"birch/internal/boolprog"
	"birch/internal/boolprog/bebop"
	"birch/internal/model"
	"birch/internal/search"
	"birch/internal/testenv"
)

// verdicts is what the engines said of one model.
type verdicts struct {
	bir, bebop, explicit string // pass, fail or inconclusive
	kind                 string // the BIR violation's kind
}

// agree checks one model: birch's explicit search on the BIR model, bebop
// and the explicit boolean-program checker on its translation must agree
// on whether an assertion can fail (the BIR search may be inconclusive
// where a bound of BIR cuts paths: then the boolean program, which has no
// such bound, may say either); every failing trail of the boolean program
// must map to a schedule that the BIR model executes to the same
// assertion's failure, unless a bound of BIR stops it.
func agree(t *testing.T, name string, prog *types.Program, src string) verdicts {
	t.Helper()
	fail := func(format string, args ...any) {
		t.Helper()
		t.Fatalf("%s: %s\n%s", name, fmt.Sprintf(format, args...), src)
	}
	mod, err := model.New(prog, model.Options{})
	if err != nil {
		fail("model: %v", err)
	}
	res := search.Run(mod, search.Config{NoDeadlock: true, MaxStates: 50000})
	var v verdicts
	switch {
	case res.Verdict == search.Fail && res.Violation.Kind != model.Deadlock:
		v.bir = "fail"
		v.kind = res.Violation.Kind.String()
	case res.Verdict == search.Fail:
		fail("BIR violation %s: %s", res.Violation.Kind, res.Violation.Msg)
	case res.Verdict == search.Pass && res.Complete:
		v.bir = "pass"
	default:
		v.bir = "inconclusive"
	}
	out, err := Translate(prog, Config{})
	if err != nil {
		fail("translate: %v", err)
	}
	br := bebop.Check(out.Info, bebop.Config{})
	v.bebop = br.BoolprogResult(out.Fset).Verdict.String()
	ex := boolprog.CheckExplicit(out.Fset, out.Info, boolprog.Limits{})
	v.explicit = ex.Verdict.String()
	if v.bebop == "inconclusive" || v.explicit == "inconclusive" {
		fail("a boolean-program check is inconclusive: %s %s\n%s", br.Reason, ex.Reason, out.Source)
	}
	if v.bebop != v.explicit {
		fail("bebop says %s, the explicit checker %s\n%s", v.bebop, v.explicit, out.Source)
	}
	if v.bir != "inconclusive" && v.bir != v.bebop {
		fail("BIR says %s, the boolean program %s\n%s", v.bir, v.bebop, out.Source)
	}
	if v.bir == "inconclusive" && out.Bounds == "" {
		fail("BIR is inconclusive (%s), but Output.Bounds says no bound is reached", res.Reason)
	}
	if v.bebop == "fail" {
		replay(t, name, mod, out, br.BoolprogResult(out.Fset), v.bir, src)
		replay(t, name+" (explicit)", mod, out, ex, v.bir, src)
	}
	return v
}

// replay maps a failing trail of the boolean program to the BIR model and
// executes it there: its last step must fail the assertion the trail
// fails.
func replay(t *testing.T, name string, mod *model.Model, out *Output, r *boolprog.Result, bir string, src string) {
	t.Helper()
	sc, err := out.Map.Schedule(r.Trail, true)
	if err != nil {
		t.Fatalf("%s: schedule: %v\n%s\n%s", name, err, src, out.Source)
	}
	ords, err := sc.Ordinals(mod)
	if err != nil {
		if bir == "inconclusive" {
			return // a bound of BIR may stop the schedule
		}
		var b strings.Builder
		boolprog.WriteTrail(&b, r)
		t.Fatalf("%s: ordinals: %v\n%s\n%s\ntrail:\n%s", name, err, src, out.Source, b.String())
	}
	_, steps, err := search.Replay(mod, ords)
	if err != nil {
		t.Fatalf("%s: replay: %v", name, err)
	}
	last := steps[len(steps)-1].Step
	a := sc.Steps[len(sc.Steps)-1]
	if last.Outcome != model.Error || last.Kind != a.Fail || a.Fail == model.Assertion && last.Pos != a.Transformation.Actions[a.Assert].Pos() {
		t.Fatalf("%s: the replayed trail ends in %v %s, not in the %s the trail ends in", name, last.Outcome, last.Kind, a.Fail)
	}
	if groups, _ := sc.Groups(mod); len(groups) != len(sc.Steps) {
		t.Fatalf("%s: %d groups for %d steps", name, len(groups), len(sc.Steps))
	}
}

// TestAgreeHandWritten: the models of testdata, whose names say their
// verdict.
func TestAgreeHandWritten(t *testing.T) {
	files, _ := filepath.Glob("testdata/*.bir")
	for _, path := range files {
		if strings.Contains(path, "error") {
			continue
		}
		src, _ := os.ReadFile(path)
		v := agree(t, path, loadFile(t, path), string(src))
		want := "pass"
		if strings.Contains(path, "-unsafe") {
			want = "fail"
		}
		if v.bir != want || v.bebop != want {
			t.Errorf("%s: BIR %s, bebop %s, want %s", path, v.bir, v.bebop, want)
		}
	}
}

// TestAgreeRandom: random boolean one-thread models, without functions,
// with functions that do not recurse, and with recursion; and models with
// variables of a small range and an enum too, with and without functions.
func TestAgreeRandom(t *testing.T) {
	n := map[string]int{"flat": 150, "calls": 150, "recursive": 40, "finite": 120, "finite-calls": 120}
	if testenv.Long() {
		n = map[string]int{"flat": 3000, "calls": 3000, "recursive": 1000, "finite": 3000, "finite-calls": 3000}
	}
	for _, kind := range []string{"flat", "calls", "recursive", "finite", "finite-calls"} {
		t.Run(kind, func(t *testing.T) { agreeRandom(t, kind, n[kind]) })
	}
}

// agreeRandom checks n generated models of one kind, and that they give
// both verdicts (or the test proves little).
func agreeRandom(t *testing.T, kind string, n int) {
	count := map[string]int{}
	for i := 0; i < n; i++ {
		seed := uint64(i)
		g := &genModel{r: rand.New(rand.NewPCG(seed, 18)), funcs: kind == "calls" || kind == "recursive" || kind == "finite-calls",
			recursion: kind == "recursive", finite: strings.HasPrefix(kind, "finite")}
		src := g.model()
		name := fmt.Sprintf("%s seed %d", kind, seed)
		v := agree(t, name, load(t, name, []byte(src)), src)
		count["bir "+v.bir]++
		count["bp "+v.bebop]++
		if v.kind != "" {
			count[v.kind]++
		}
	}
	t.Logf("%s: %v", kind, count)
	if count["bp pass"] == 0 || count["bp fail"] == 0 {
		t.Errorf("%s: the generated models all have one verdict: %v", kind, count)
	}
}

// genModel writes a random BIR model of one thread with boolean data
// (and, with finite, variables of a small range and an enum).
type genModel struct {
	r         *rand.Rand
	funcs     bool // generate functions
	recursion bool // functions may call themselves and earlier ones
	finite    bool // variables of type Small and Color too
	b         strings.Builder

	globals []string
	fns     []genFn
	typ     map[string]string // variable -> boolean, Small or Color
}

type genFn struct {
	name   string
	params []string
	locals []string
	result string // "" for none
}

func (g *genModel) pick(list []string) string { return list[g.r.IntN(len(list))] }

// newVar declares the type of a new variable.
func (g *genModel) newVar(name string) string {
	t := "boolean"
	if g.finite {
		switch g.r.IntN(5) {
		case 0:
			t = "Small"
		case 1:
			t = "Color"
		}
	}
	g.typ[name] = t
	return t
}

// of is the variables of scope of type t.
func (g *genModel) of(scope []string, t string) []string {
	var out []string
	for _, v := range scope {
		if g.typ[v] == t {
			out = append(out, v)
		}
	}
	return out
}

// initOf is an initial value of type t, or "".
func (g *genModel) initOf(t string) string {
	if g.r.IntN(3) > 0 {
		return ""
	}
	switch t {
	case "Small":
		return " := " + g.pick([]string{"-1", "1", "2"})
	case "Color":
		return " := " + g.pick([]string{"RED", "GREEN"})
	}
	return " := true"
}

func (g *genModel) model() string {
	g.typ = map[string]string{}
	g.b.WriteString("system Gen ()\nconst K true;\n")
	if g.finite {
		// an enum whose first constant (its default) is not its least
		g.b.WriteString("Small = range -1..2;\nColor = enum { BLUE = 2, RED = 0, GREEN };\n")
	}
	for i := range g.r.IntN(4) {
		name := fmt.Sprintf("g%d", i)
		g.globals = append(g.globals, name)
		t := g.newVar(name)
		fmt.Fprintf(&g.b, "%s : %s%s;\n", name, t, g.initOf(t))
	}
	if g.funcs {
		for i := range 1 + g.r.IntN(2) {
			f := genFn{name: fmt.Sprintf("f%d", i)}
			if g.r.IntN(2) == 0 {
				f.result = "boolean"
				if g.finite {
					f.result = g.pick([]string{"boolean", "Small", "Color"})
				}
			}
			for j := range g.r.IntN(3) {
				f.params = append(f.params, fmt.Sprintf("f%dp%d", i, j))
				g.newVar(f.params[j])
			}
			for j := range g.r.IntN(3) {
				f.locals = append(f.locals, fmt.Sprintf("f%dl%d", i, j))
			}
			g.fns = append(g.fns, f)
		}
	}
	for i, f := range g.fns {
		var ps []string
		for _, p := range f.params {
			ps = append(ps, p+" : "+g.typ[p])
		}
		res := ""
		if f.result != "" {
			res = " : " + f.result
		}
		fmt.Fprintf(&g.b, "\nfunction %s (%s)%s\n", f.name, strings.Join(ps, ", "), res)
		g.body(i, append(append([]string(nil), f.params...), f.locals...), f.locals, 1+g.r.IntN(3))
		fmt.Fprintf(&g.b, "end %s;\n", f.name)
	}
	fmt.Fprintf(&g.b, "\nmain thread Main ()\n")
	var locals []string
	for j := range g.r.IntN(4) {
		locals = append(locals, fmt.Sprintf("x%d", j))
	}
	g.body(-1, locals, locals, 2+g.r.IntN(4))
	g.b.WriteString("end Main;\n\nend Gen;\n")
	return g.b.String()
}

// body writes the locals and locations of main (fn < 0) or of g.fns[fn].
func (g *genModel) body(fn int, vars, locals []string, nloc int) {
	for _, l := range locals {
		t := g.newVar(l)
		fmt.Fprintf(&g.b, "  %s : %s%s;\n", l, t, g.initOf(t))
	}
	all := append(append([]string(nil), g.globals...), vars...)
	for li := range nloc {
		live := ""
		if len(vars) > 0 && g.r.IntN(4) == 0 {
			var keep []string
			for _, v := range vars {
				if g.r.IntN(2) == 0 {
					keep = append(keep, v)
				}
			}
			live = " live { " + strings.Join(keep, ", ") + " }"
		}
		fmt.Fprintf(&g.b, "  loc s%d:%s\n", li, live)
		ntrans := g.r.IntN(4)
		if li == 0 && ntrans == 0 {
			ntrans = 1
		}
		// all transformations of a location choose or none (BIR §12.2);
		// invisible ones read and write locals only and go forward
		choose := g.r.IntN(3) == 0
		invisible := li < nloc-1 && len(vars) > 0 && g.r.IntN(5) == 0
		scope := all
		if invisible {
			scope = vars
		}
		for range ntrans {
			g.transformation(fn, li, nloc, scope, choose, invisible)
		}
	}
}

// expr is an expression of type t (boolean, Small or Color) over scope.
func (g *genModel) expr(t string, scope []string, depth int) string {
	switch t {
	case "Small":
		return g.small(scope, depth)
	case "Color":
		if vs := g.of(scope, "Color"); len(vs) > 0 && g.r.IntN(3) > 0 {
			return g.pick(vs)
		}
		return g.pick([]string{"RED", "GREEN", "BLUE"})
	}
	bools := g.of(scope, "boolean")
	if depth <= 0 || g.r.IntN(3) == 0 {
		if g.r.IntN(10) == 0 || len(bools) == 0 {
			return g.pick([]string{"true", "false", "K"})
		}
		return g.pick(bools)
	}
	k := g.r.IntN(6)
	if g.finite && g.r.IntN(3) == 0 {
		k = 6
	}
	switch k {
	case 0:
		return "!" + g.expr(t, scope, depth-1)
	case 1:
		return "(" + g.expr(t, scope, depth-1) + " && " + g.expr(t, scope, depth-1) + ")"
	case 2, 3:
		return "(" + g.expr(t, scope, depth-1) + " || " + g.expr(t, scope, depth-1) + ")"
	case 4:
		return "(" + g.expr(t, scope, depth-1) + " == " + g.expr(t, scope, depth-1) + ")"
	case 5:
		return "(" + g.expr(t, scope, depth-1) + " != " + g.expr(t, scope, depth-1) + ")"
	}
	ct := g.pick([]string{"Small", "Small", "Color"})
	op := g.pick([]string{"==", "!=", "<", "<=", ">", ">="})
	return "(" + g.expr(ct, scope, depth-1) + " " + op + " " + g.expr(ct, scope, depth-1) + ")"
}

// small is an integer expression over the Small variables of scope.
func (g *genModel) small(scope []string, depth int) string {
	vs := g.of(scope, "Small")
	if depth <= 0 || g.r.IntN(2) == 0 {
		if len(vs) > 0 && g.r.IntN(3) > 0 {
			return g.pick(vs)
		}
		return g.pick([]string{"0", "1", "2", "3"})
	}
	switch k := g.r.IntN(10); {
	case k == 0:
		return "-(" + g.small(scope, depth-1) + ")"
	case k < 4:
		return "(" + g.small(scope, depth-1) + " + " + g.small(scope, depth-1) + ")"
	case k < 7:
		return "(" + g.small(scope, depth-1) + " - " + g.small(scope, depth-1) + ")"
	case k < 8:
		return "(" + g.small(scope, depth-1) + " * " + g.small(scope, depth-1) + ")"
	}
	if len(vs) == 0 {
		return g.small(scope, depth-1)
	}
	// a variable divisor: a constant zero divisor is a static error
	return "(" + g.small(scope, depth-1) + " " + g.pick([]string{"/", "%"}) + " " + g.pick(vs) + ")"
}

// value is a value for variable v: an expression of its type (a constant
// one outside v's range would be a static error).
func (g *genModel) value(v string, scope []string, depth int) string {
	if g.typ[v] == "Small" {
		return g.smallValue(scope, depth)
	}
	return g.expr(g.typ[v], scope, depth)
}

// smallValue is a Small expression that reads a variable, or a constant
// of the range.
func (g *genModel) smallValue(scope []string, depth int) string {
	e := g.small(scope, depth)
	for _, v := range g.of(scope, "Small") {
		if strings.Contains(e, v) {
			return e
		}
	}
	return g.pick([]string{"-1", "0", "1", "2"})
}

// choice is the argument list of a choose action into v.
func (g *genModel) choice(v string, scope []string) string {
	switch g.typ[v] {
	case "Small":
		return g.pick([]string{"-1, 2", "0 .. 2", "Small", g.smallValue(scope, 1) + ", 1", g.smallValue(scope, 1) + ", " + g.smallValue(scope, 1)})
	case "Color":
		return g.pick([]string{"RED, BLUE", "BLUE, GREEN, RED", g.expr("Color", scope, 1) + ", GREEN"})
	}
	return g.pick([]string{"true, false", "false, true", g.expr("boolean", scope, 1) + ", true", g.expr("boolean", scope, 1) + ", " + g.expr("boolean", scope, 1)})
}

func (g *genModel) transformation(fn, li, nloc int, scope []string, choose, invisible bool) {
	var acts []string
	n := g.r.IntN(3)
	if choose && n == 0 {
		n = 1
	}
	chosen := false
	for i := range n {
		if len(scope) == 0 {
			break
		}
		switch k := g.r.IntN(12); {
		case choose && (k < 3 || !chosen && i == n-1):
			v := g.pick(scope)
			acts = append(acts, fmt.Sprintf("%s := %s(%s);", v, g.pick([]string{"internChoose", "externChoose"}), g.choice(v, scope)))
			chosen = true
		case k < 7:
			v := g.pick(scope)
			acts = append(acts, fmt.Sprintf("%s := %s;", v, g.value(v, scope, 2)))
		case k < 9:
			acts = append(acts, fmt.Sprintf("assert(%s);", g.expr("boolean", scope, 2)))
		case k < 10:
			acts = append(acts, fmt.Sprintf("assume(%s);", g.expr("boolean", scope, 1)))
		case k < 11:
			acts = append(acts, `println("here");`)
		default:
			if !invisible && g.r.IntN(4) == 0 {
				acts = append(acts, "exit;")
			}
		}
	}
	// a call, the last action of a transformation that ends in goto
	ret := fn >= 0 && g.r.IntN(3) == 0
	// (none in an invisible transformation: an invisible run through
	// recursive calls is a tree of runs the model enumerates up to a
	// depth of 10000)
	if !ret && !invisible && len(g.fns) > 0 && g.r.IntN(3) == 0 {
		var callees []int
		for j := range g.fns {
			if fn < 0 || j > fn || g.recursion {
				callees = append(callees, j)
			}
		}
		if len(callees) > 0 {
			f := g.fns[callees[g.r.IntN(len(callees))]]
			var args []string
			for _, p := range f.params {
				args = append(args, g.value(p, scope, 1))
			}
			call := fmt.Sprintf("call %s(%s);", f.name, strings.Join(args, ", "))
			if vs := g.of(scope, f.result); f.result != "" && len(vs) > 0 && g.r.IntN(3) > 0 {
				call = g.pick(vs) + " := " + call
			}
			acts = append(acts, call)
		}
	}
	guard := "true"
	if g.r.IntN(3) > 0 {
		guard = g.expr("boolean", scope, 2)
	}
	vis := ""
	if invisible {
		vis = "invisible "
	}
	end := ""
	switch {
	case ret && g.fns[fn].result == "Small":
		// a returned value stays in the result's range (a wider one is
		// not translated)
		if vs := g.of(scope, "Small"); len(vs) > 0 && g.r.IntN(2) == 0 {
			end = "return " + g.pick(vs) + ";"
		} else {
			end = "return " + g.pick([]string{"-1", "0", "2"}) + ";"
		}
	case ret && g.fns[fn].result != "":
		end = "return " + g.expr(g.fns[fn].result, scope, 1) + ";"
	case ret:
		end = "return;"
	case invisible:
		end = fmt.Sprintf("goto s%d;", li+1+g.r.IntN(nloc-li-1))
	default:
		end = fmt.Sprintf("goto s%d;", g.r.IntN(nloc))
	}
	fmt.Fprintf(&g.b, "    when %s do %s{ %s } %s\n", guard, vis, strings.Join(acts, " "), end)
}
