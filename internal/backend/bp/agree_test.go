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
	case res.Verdict == search.Fail && res.Violation.Kind == model.Assertion:
		v.bir = "fail"
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
	if last.Outcome != model.Error || last.Kind != model.Assertion || last.Pos != a.Transformation.Actions[a.Assert].Pos() {
		t.Fatalf("%s: the replayed trail ends in %v %s at %v, not in the assertion", name, last.Outcome, last.Kind, mod.Groups()[last.Groups[0]].Proc.Name())
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
// with functions that do not recurse, and with recursion.
func TestAgreeRandom(t *testing.T) {
	n := map[string]int{"flat": 150, "calls": 150, "recursive": 40}
	if testenv.Long() {
		n = map[string]int{"flat": 3000, "calls": 3000, "recursive": 1000}
	}
	for _, kind := range []string{"flat", "calls", "recursive"} {
		count := map[string]int{}
		for i := 0; i < n[kind]; i++ {
			seed := uint64(i)
			g := &genModel{r: rand.New(rand.NewPCG(seed, 18)), funcs: kind != "flat", recursion: kind == "recursive"}
			src := g.model()
			name := fmt.Sprintf("%s seed %d", kind, seed)
			prog := load(t, name, []byte(src))
			v := agree(t, name, prog, src)
			count["bir "+v.bir]++
			count["bp "+v.bebop]++
		}
		t.Logf("%s: %v", kind, count)
		// the generator must give both answers, or the test proves little
		if count["bp pass"] == 0 || count["bp fail"] == 0 {
			t.Errorf("%s: the generated models all have one verdict: %v", kind, count)
		}
	}
}

// genModel writes a random BIR model of one thread with boolean data.
type genModel struct {
	r         *rand.Rand
	funcs     bool // generate functions
	recursion bool // functions may call themselves and earlier ones
	b         strings.Builder

	globals []string
	fns     []genFn
}

type genFn struct {
	name   string
	params []string
	locals []string
	result bool
}

func (g *genModel) pick(list []string) string { return list[g.r.IntN(len(list))] }

func (g *genModel) model() string {
	g.b.WriteString("system Gen ()\nconst K true;\n")
	for i := range g.r.IntN(4) {
		name := fmt.Sprintf("g%d", i)
		g.globals = append(g.globals, name)
		init := ""
		if g.r.IntN(3) == 0 {
			init = " := true"
		}
		fmt.Fprintf(&g.b, "%s : boolean%s;\n", name, init)
	}
	if g.funcs {
		for i := range 1 + g.r.IntN(2) {
			f := genFn{name: fmt.Sprintf("f%d", i), result: g.r.IntN(2) == 0}
			for j := range g.r.IntN(3) {
				f.params = append(f.params, fmt.Sprintf("p%d", j))
			}
			for j := range g.r.IntN(3) {
				f.locals = append(f.locals, fmt.Sprintf("l%d", j))
			}
			g.fns = append(g.fns, f)
		}
	}
	for i, f := range g.fns {
		var ps []string
		for _, p := range f.params {
			ps = append(ps, p+" : boolean")
		}
		res := ""
		if f.result {
			res = " : boolean"
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
		init := ""
		if g.r.IntN(3) == 0 {
			init = " := true"
		}
		fmt.Fprintf(&g.b, "  %s : boolean%s;\n", l, init)
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

func (g *genModel) expr(scope []string, depth int) string {
	if depth <= 0 || g.r.IntN(3) == 0 {
		switch k := g.r.IntN(10); {
		case k == 0 || len(scope) == 0:
			return g.pick([]string{"true", "false", "K"})
		default:
			return g.pick(scope)
		}
	}
	switch g.r.IntN(6) {
	case 0:
		return "!" + g.expr(scope, depth-1)
	case 1:
		return "(" + g.expr(scope, depth-1) + " && " + g.expr(scope, depth-1) + ")"
	case 2, 3:
		return "(" + g.expr(scope, depth-1) + " || " + g.expr(scope, depth-1) + ")"
	case 4:
		return "(" + g.expr(scope, depth-1) + " == " + g.expr(scope, depth-1) + ")"
	}
	return "(" + g.expr(scope, depth-1) + " != " + g.expr(scope, depth-1) + ")"
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
			vals := g.pick([]string{"true, false", "false, true", g.expr(scope, 1) + ", true", g.expr(scope, 1) + ", " + g.expr(scope, 1)})
			acts = append(acts, fmt.Sprintf("%s := %s(%s);", g.pick(scope), g.pick([]string{"internChoose", "externChoose"}), vals))
			chosen = true
		case k < 7:
			acts = append(acts, fmt.Sprintf("%s := %s;", g.pick(scope), g.expr(scope, 2)))
		case k < 9:
			acts = append(acts, fmt.Sprintf("assert(%s);", g.expr(scope, 2)))
		case k < 10:
			acts = append(acts, fmt.Sprintf("assume(%s);", g.expr(scope, 1)))
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
			for range f.params {
				args = append(args, g.expr(scope, 1))
			}
			call := fmt.Sprintf("call %s(%s);", f.name, strings.Join(args, ", "))
			if f.result && len(scope) > 0 && g.r.IntN(3) > 0 {
				call = g.pick(scope) + " := " + call
			}
			acts = append(acts, call)
		}
	}
	guard := "true"
	if g.r.IntN(3) > 0 {
		guard = g.expr(scope, 2)
	}
	vis := ""
	if invisible {
		vis = "invisible "
	}
	end := ""
	switch {
	case ret && g.fns[fn].result:
		end = "return " + g.expr(scope, 1) + ";"
	case ret:
		end = "return;"
	case invisible:
		end = fmt.Sprintf("goto s%d;", li+1+g.r.IntN(nloc-li-1))
	default:
		end = fmt.Sprintf("goto s%d;", g.r.IntN(nloc))
	}
	fmt.Fprintf(&g.b, "    when %s do %s{ %s } %s\n", guard, vis, strings.Join(acts, " "), end)
}
