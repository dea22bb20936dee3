package c2bp

import (
	"fmt"
	"math/rand/v2"
	"strconv"
	"strings"
)

// This file generates the random models of the soundness test
// (soundness_test.go; soundness_self_test.go tests the test): small BIR models of one or two threads over a few
// int variables whose values stay small (inputs are choices among a few
// constants, assignments add and subtract constants and variables), with
// guards, asserts and assumes that compare them, plus a concrete boolean
// and a small range variable; and random predicates over their int
// variables, comparisons of a variable with another (plus a constant) or
// with a constant, which the test evaluates on concrete states itself.

// genOperand is a variable plus a constant, or a constant alone (Var "").
// A variable is named as the soundness test names it: a global by its
// name ("g0"), a local as Thread.name ("T0.a").
type genOperand struct {
	Var string
	Add int64
}

func (o genOperand) String() string {
	name := o.Var
	if i := strings.IndexByte(name, '.'); i >= 0 {
		name = name[i+1:]
	}
	switch {
	case name == "":
		return strconv.FormatInt(o.Add, 10)
	case o.Add > 0:
		return name + " + " + strconv.FormatInt(o.Add, 10)
	case o.Add < 0:
		return name + " - " + strconv.FormatInt(-o.Add, 10)
	}
	return name
}

// genCmp is a comparison L op R of int operands: a guard, an assertion or
// a predicate.
type genCmp struct {
	L  genOperand
	Op string // < <= == != > >=
	R  genOperand
}

func (c genCmp) String() string { return c.L.String() + " " + c.Op + " " + c.R.String() }

// eval evaluates c with the values of its variables.
func (c genCmp) eval(val func(name string) int64) bool {
	v := func(o genOperand) int64 {
		if o.Var == "" {
			return o.Add
		}
		return val(o.Var) + o.Add
	}
	l, r := v(c.L), v(c.R)
	switch c.Op {
	case "<":
		return l < r
	case "<=":
		return l <= r
	case "==":
		return l == r
	case "!=":
		return l != r
	case ">":
		return l > r
	case ">=":
		return l >= r
	}
	panic("genCmp: operator " + c.Op)
}

// thread returns the thread whose locals c reads ("" for none); a
// comparison never reads the locals of two threads.
func (c genCmp) thread() string {
	for _, o := range []genOperand{c.L, c.R} {
		if i := strings.IndexByte(o.Var, '.'); i >= 0 {
			return o.Var[:i]
		}
	}
	return ""
}

// genPred is a predicate of a generated predicate file.
type genPred struct {
	Thread string // the [thread T] scope, or "" for a predicate over globals
	Cmp    genCmp
}

func (p genPred) String() string {
	if p.Thread != "" {
		return "[thread " + p.Thread + "] " + p.Cmp.String()
	}
	return p.Cmp.String()
}

// genModel is a generated model and predicate file.
type genModel struct {
	Seed    uint64
	Src     string    // the BIR model
	Preds   []genPred // the predicates, in the file's order
	Threads []string  // the threads (all main threads, one instance each)
	Ints    []string  // the int variables (g0, T0.a, ...)
	// Flag and Small say whether the model has the concrete boolean flag
	// and the range 0..3 variable small (globals both).
	Flag, Small bool
	// Init holds the initial values of the globals declared with one
	// (the others, and the locals, start at 0).
	Init    map[string]int64
	threads []*genThread
}

// PredFile returns the predicate file's text.
func (g *genModel) PredFile() string {
	var b strings.Builder
	fmt.Fprintf(&b, "# predicates of the generated model of seed %d\n", g.Seed)
	for _, p := range g.Preds {
		b.WriteString(p.String() + "\n")
	}
	return b.String()
}

// genOptions bounds the generated models.
type genOptions struct {
	MaxThreads   int // 1 or 2
	MaxLocations int // per thread, at least 2
	MaxPreds     int
}

var genDefault = genOptions{MaxThreads: 2, MaxLocations: 5, MaxPreds: 4}

type genState struct {
	r    *rand.Rand
	opts genOptions
	m    *genModel
	cmps []genCmp // the comparisons of the model, candidates for predicates
}

// genRandomModel returns the model of a seed.
func genRandomModel(seed uint64, opts genOptions) *genModel {
	g := &genState{r: rand.New(rand.NewPCG(seed, 0x5eed)), opts: opts, m: &genModel{Seed: seed}}
	return g.model()
}

func (g *genState) intn(n int) int { return g.r.IntN(n) }

func (g *genState) chance(percent int) bool { return g.r.IntN(100) < percent }

func (g *genState) pick(xs []string) string { return xs[g.intn(len(xs))] }

func (g *genState) model() *genModel {
	m := g.m
	nGlobals := 1 + g.intn(3)
	var globals []string
	m.Init = map[string]int64{}
	for i := 0; i < nGlobals; i++ {
		v := "g" + strconv.Itoa(i)
		globals = append(globals, v)
		if g.chance(30) {
			m.Init[v] = int64(g.intn(3))
		}
	}
	m.Ints = append(m.Ints, globals...)
	m.Flag, m.Small = g.chance(50), g.chance(40)
	nThreads := 1
	if g.opts.MaxThreads > 1 && g.chance(50) {
		nThreads = 2
	}
	for t := 0; t < nThreads; t++ {
		m.threads = append(m.threads, g.thread("T"+strconv.Itoa(t), globals))
		m.Threads = append(m.Threads, m.threads[t].name)
	}
	m.Src = m.render("", nil)
	g.predicates()
	return m
}

// genThread is a generated main thread: its int locals, and its
// locations l0, l1, ... with their transformations.
type genThread struct {
	name   string
	locals []string
	locs   [][]genTrans
}

// genTrans is a generated transformation: `when Guard do { Actions }
// goto Target;`.
type genTrans struct {
	guard, target string
	actions       []string
	choose        bool // an action is a choose action
}

// render writes the model; decls are more global declarations, and
// extra, when not nil, gives actions to add at the end of every
// transformation of a thread.
func (m *genModel) render(decls string, extra func(thread string) []string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "system Gen%d ()\n", m.Seed)
	for _, v := range m.Ints {
		if strings.Contains(v, ".") {
			continue
		}
		init := ""
		if c, ok := m.Init[v]; ok {
			init = " := " + strconv.FormatInt(c, 10)
		}
		fmt.Fprintf(&b, "%s : int%s;\n", v, init)
	}
	if m.Flag {
		b.WriteString("flag : boolean;\n")
	}
	if m.Small {
		b.WriteString("small : range 0..3;\n")
	}
	b.WriteString(decls)
	for _, th := range m.threads {
		fmt.Fprintf(&b, "\nmain thread %s ()\n", th.name)
		for _, v := range th.locals {
			fmt.Fprintf(&b, "  %s : int;\n", v)
		}
		for l, ts := range th.locs {
			fmt.Fprintf(&b, "  loc l%d:\n", l)
			for _, tr := range ts {
				acts := tr.actions
				if extra != nil {
					acts = append(append([]string(nil), acts...), extra(th.name)...)
				}
				var a string
				for _, x := range acts {
					a += x + "; "
				}
				fmt.Fprintf(&b, "    when %s do { %s} goto %s;\n", tr.guard, a, tr.target)
			}
		}
		fmt.Fprintf(&b, "end %s;\n", th.name)
	}
	fmt.Fprintf(&b, "\nend Gen%d;\n", m.Seed)
	return b.String()
}

// thread generates one main thread: up to two int locals, and locations
// l0..l(n-1) whose transformations go to any location (loops allowed); the
// last location may have none (the thread terminates there).
func (g *genState) thread(name string, globals []string) *genThread {
	th := &genThread{name: name}
	vars := append([]string(nil), globals...)
	nLocals := g.intn(3)
	for i := 0; i < nLocals; i++ {
		local := string(rune('a' + i))
		th.locals = append(th.locals, local)
		vars = append(vars, name+"."+local)
		g.m.Ints = append(g.m.Ints, name+"."+local)
	}
	nLocs := 2 + g.intn(g.opts.MaxLocations-1)
	for l := 0; l < nLocs; l++ {
		if l == nLocs-1 && l > 0 && g.chance(50) {
			th.locs = append(th.locs, nil) // terminal
			continue
		}
		n := 1 + g.intn(2)
		var ts []genTrans
		for k := 0; k < n; k++ {
			// the first transformation mostly goes on to the next
			// location, the second anywhere (a loop, a branch); the
			// second's guard is often the first's negation (if-else)
			tr := genTrans{guard: g.guard(vars), target: "l" + strconv.Itoa(g.intn(nLocs))}
			if k == 0 && (l == 0 || g.chance(40)) {
				tr.guard = "true"
			}
			if k == 0 && l+1 < nLocs && g.chance(75) {
				tr.target = "l" + strconv.Itoa(l+1)
			}
			if k == 1 && ts[0].guard != "true" && g.chance(50) {
				tr.guard = "!(" + ts[0].guard + ")"
			}
			nActs := g.intn(4)
			for a := 0; a < nActs; a++ {
				act, choose := g.action(vars)
				tr.actions = append(tr.actions, act)
				tr.choose = tr.choose || choose
			}
			ts = append(ts, tr)
		}
		// BIR §12.2: the transformations between one source and one
		// target all choose or none does: make the second go elsewhere
		if n == 2 && ts[0].target == ts[1].target && ts[0].choose != ts[1].choose {
			ts[1].target = "l" + strconv.Itoa((l+1)%nLocs)
			if ts[1].target == ts[0].target {
				ts[1].target = "l" + strconv.Itoa(l)
			}
			if ts[1].target == ts[0].target {
				ts = ts[:1]
			}
		}
		th.locs = append(th.locs, ts)
	}
	return th
}

// operand returns a variable of vars plus a small constant, or a constant.
func (g *genState) operand(vars []string, constOK bool) genOperand {
	if constOK && g.chance(30) {
		return genOperand{Add: int64(g.intn(5) - 1)}
	}
	o := genOperand{Var: g.pick(vars)}
	if g.chance(25) {
		o.Add = int64(g.intn(5) - 2)
	}
	return o
}

var genOps = []string{"<", "<=", "==", "!=", ">", ">="}

// cmp returns a comparison over vars that reads the locals of at most one
// thread (vars holds the globals and one thread's locals) and is not a
// comparison of two constants; it becomes a predicate candidate.
func (g *genState) cmp(vars []string) genCmp {
	c := genCmp{L: g.operand(vars, false), Op: genOps[g.intn(len(genOps))], R: g.operand(vars, true)}
	if c.R.Var == c.L.Var {
		c.R = genOperand{Add: int64(g.intn(4))}
	}
	g.cmps = append(g.cmps, c)
	return c
}

func (g *genState) guard(vars []string) string {
	switch k := g.intn(10); {
	case k < 3:
		return "true"
	case k < 6:
		return g.cmp(vars).String()
	case k < 7:
		return g.cmp(vars).String() + " && " + g.cmp(vars).String()
	case k < 8:
		return "!(" + g.cmp(vars).String() + ")"
	case k < 9 && g.m.Flag:
		if g.chance(50) {
			return "flag"
		}
		return g.cmp(vars).String() + " || !flag"
	case g.m.Small:
		return "small < " + strconv.Itoa(1+g.intn(3))
	}
	return g.cmp(vars).String()
}

// intExpr returns an int expression: a constant, a variable, a variable
// plus or minus a constant or another variable.
func (g *genState) intExpr(vars []string) string {
	switch k := g.intn(10); {
	case k < 2:
		return strconv.Itoa(g.intn(4) - 1)
	case k < 4:
		return genOperand{Var: g.pick(vars)}.String()
	case k < 7:
		return g.operand(vars, false).String()
	case k < 9:
		return genOperand{Var: g.pick(vars)}.String() + " + " + genOperand{Var: g.pick(vars)}.String()
	}
	return genOperand{Var: g.pick(vars)}.String() + " - " + genOperand{Var: g.pick(vars)}.String()
}

// action returns an action over vars and whether it is a choose action.
func (g *genState) action(vars []string) (string, bool) {
	lhs := genOperand{Var: g.pick(vars)}.String()
	switch k := g.intn(20); {
	case k < 8:
		return lhs + " := " + g.intExpr(vars), false
	case k < 11:
		vals := []string{"0", "1", "2"}
		if g.chance(30) {
			vals = []string{"-1", "1", "3"}
		}
		which := "externChoose"
		if g.chance(30) {
			which = "internChoose"
		}
		return lhs + " := " + which + "(" + strings.Join(vals[:2+g.intn(2)], ", ") + ")", true
	case k < 13:
		if g.chance(60) { // a bound that small values keep: fails only after growth
			c := genCmp{L: genOperand{Var: g.pick(vars)}, Op: "<=", R: genOperand{Add: int64(2 + g.intn(3))}}
			if g.chance(30) {
				c.Op, c.R.Add = ">=", -1
			}
			g.cmps = append(g.cmps, c)
			return "assert(" + c.String() + ")", false
		}
		return "assert(" + g.cmp(vars).String() + ")", false
	case k < 14:
		return "assume(" + g.cmp(vars).String() + ")", false
	case k < 18 && g.m.Flag:
		if g.chance(30) {
			return "flag := !flag", false
		}
		return "flag := " + g.cmp(vars).String(), false
	case g.m.Small:
		if g.chance(50) {
			return "small := " + genOperand{Var: g.pick(vars)}.String(), false // a range error when out of 0..3
		}
		return lhs + " := small", false
	}
	return lhs + " := " + g.intExpr(vars), false
}

// predicates chooses 1..MaxPreds predicates, half of them comparisons of
// the model (those a proof would need), the rest random, without
// repetition.
func (g *genState) predicates() {
	m := g.m
	n := 1 + g.intn(g.opts.MaxPreds)
	seen := map[string]bool{}
	for tries := 0; len(m.Preds) < n && tries < 20; tries++ {
		var c genCmp
		if len(g.cmps) > 0 && g.chance(50) {
			c = g.cmps[g.intn(len(g.cmps))]
		} else {
			vars := m.Ints
			if t := g.pick(m.Ints); strings.Contains(t, ".") {
				vars = g.scope(t[:strings.IndexByte(t, '.')])
			} else {
				vars = g.scope("")
			}
			c = g.cmp(vars)
		}
		p := genPred{Thread: c.thread(), Cmp: c}
		if seen[p.String()] {
			continue
		}
		seen[p.String()] = true
		m.Preds = append(m.Preds, p)
	}
}

// scope returns the globals and the locals of thread t ("" for none).
func (g *genState) scope(t string) []string {
	var out []string
	for _, v := range g.m.Ints {
		if !strings.Contains(v, ".") || (t != "" && strings.HasPrefix(v, t+".")) {
			out = append(out, v)
		}
	}
	return out
}

// WithPredicates returns the model with a predicates section that defines
// pred<i> as predicate i, a local of thread T read as the remote reference
// (T : x), for the model's own evaluation of the predicates.
func (g *genModel) WithPredicates() string {
	var b strings.Builder
	b.WriteString("\npredicates\n")
	remote := func(o genOperand) string {
		s := o.String()
		if i := strings.IndexByte(o.Var, '.'); i >= 0 {
			name := o.Var[i+1:]
			s = "(" + o.Var[:i] + " : " + name + ")" + strings.TrimPrefix(s, name)
		}
		return s
	}
	for i, p := range g.Preds {
		fmt.Fprintf(&b, "  pred%d = %s %s %s;\n", i, remote(p.Cmp.L), p.Cmp.Op, remote(p.Cmp.R))
	}
	end := fmt.Sprintf("\nend Gen%d;\n", g.Seed)
	return strings.TrimSuffix(g.Src, end) + b.String() + end
}
