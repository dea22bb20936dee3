package c2bp

import (
	"fmt"
	"math/big"
	"math/rand/v2"
	"slices"
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
	// Conv is a fixed-width type (int8 ...) the operand is converted to
	// (genOptions.Wrap), or "".
	Conv string
}

func (o genOperand) String() string {
	name := o.Var
	if i := strings.IndexByte(name, '.'); i >= 0 {
		name = name[i+1:]
	}
	name = strings.ReplaceAll(name, "->", ".") // a field through a reference: p->v is p.v
	return o.text(name)
}

// text writes the operand with its variable written name.
func (o genOperand) text(name string) string {
	s := name
	switch {
	case o.Var == "":
		s = strconv.FormatInt(o.Add, 10)
	case o.Add > 0:
		s = name + " + " + strconv.FormatInt(o.Add, 10)
	case o.Add < 0:
		s = name + " - " + strconv.FormatInt(-o.Add, 10)
	}
	if o.Conv != "" {
		s = o.Conv + "(" + s + ")"
	}
	return s
}

// genWidths are the fixed-width types of the generated models, with their
// conversions as Go computes them.
var genWidths = map[string]func(int64) int64{
	"int8":   func(v int64) int64 { return int64(int8(v)) },
	"uint8":  func(v int64) int64 { return int64(uint8(v)) },
	"int16":  func(v int64) int64 { return int64(int16(v)) },
	"uint16": func(v int64) int64 { return int64(uint16(v)) },
}

// genWrapTypes are the types a variable of a model with Wrap may have:
// int, or a fixed-width type that the abstraction abstracts (int16 and
// uint16 have more than 256 values). int8 and uint8 appear in conversions
// only: a variable of theirs is kept as written, and its choice of 256
// values whenever abstracted data is stored into it makes abstract state
// spaces too large to enumerate.
var genWrapTypes = []string{"int", "int16", "uint16", "int16", "uint16"}

// genCmp is a comparison L op R of int operands, or with Ref of two
// references (== or !=; the operands' Var are p, q, h0, h1, p->next,
// q->next or null): a guard, an assertion or a predicate.
type genCmp struct {
	L   genOperand
	Op  string // < <= == != > >=
	R   genOperand
	Ref bool
}

// evalRef evaluates a comparison of references with their values
// (Describe's: null, Cells[0], ...).
func (c genCmp) evalRef(ref func(name string) string) bool {
	l, r := ref(c.L.Var), ref(c.R.Var)
	if c.Op == "==" {
		return l == r
	}
	return l != r
}

func (c genCmp) String() string { return c.L.String() + " " + c.Op + " " + c.R.String() }

// eval evaluates c with the values of its variables, over the
// mathematical integers as the abstraction reads a predicate (x - 2 < y at
// the smallest int is true, not an overflow); inside a conversion the
// sum wraps modulo 2^64 first, as BIR computes it there.
func (c genCmp) eval(val func(name string) int64) bool {
	v := func(o genOperand) *big.Int {
		if o.Conv != "" {
			x := o.Add
			if o.Var != "" {
				x += val(o.Var)
			}
			return big.NewInt(genWidths[o.Conv](x))
		}
		x := big.NewInt(o.Add)
		if o.Var != "" {
			x.Add(x, big.NewInt(val(o.Var)))
		}
		return x
	}
	d := v(c.L).Cmp(v(c.R))
	switch c.Op {
	case "<":
		return d < 0
	case "<=":
		return d <= 0
	case "==":
		return d == 0
	case "!=":
		return d != 0
	case ">":
		return d > 0
	case ">=":
		return d >= 0
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
	// Thread is the scope: a thread T0, T1 ([thread T]), a function f0
	// ([function f]), or "" for a predicate over globals.
	Thread string
	Cmp    genCmp
}

// Func says whether the predicate's scope is a function.
func (p genPred) Func() bool { return strings.HasPrefix(p.Thread, "f") }

func (p genPred) String() string {
	switch {
	case p.Func():
		return "[function " + p.Thread + "] " + p.Cmp.String()
	case p.Thread != "":
		return "[thread " + p.Thread + "] " + p.Cmp.String()
	}
	return p.Cmp.String()
}

// readsGlobal says whether the predicate reads a global variable.
func (p genPred) readsGlobal() bool {
	for _, o := range []genOperand{p.Cmp.L, p.Cmp.R} {
		if o.Var != "" && !strings.Contains(o.Var, ".") {
			return true
		}
	}
	return false
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
	// Fn is the function f0 the threads may call, or nil; FnVars its
	// parameters and locals (f0.x, ...).
	Fn     *genThread
	FnVars []string
	// Worker is the thread W that T0 starts, or nil; it is in threads
	// and Threads too (last).
	Worker *genThread
	// Heap: the model has the cells, h0, h1, p and q (genOptions.Heap).
	Heap bool
	// Arrays: the model has the array arr and its index i
	// (genOptions.Arrays).
	Arrays bool
	// Inv is the condition of the model's invariant, or "".
	Inv string
	// Types holds the fixed-width type of each int variable declared
	// with one (genOptions.Wrap), and of f0's result as "f0#result"; the
	// others are int.
	Types map[string]string
}

// typeOf is the declared type of the int variable v.
func (g *genModel) typeOf(v string) string {
	if t := g.Types[v]; t != "" {
		return t
	}
	return "int"
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
	Arith        int // percent of int expressions that add or subtract
	// ChooseLast moves the choose actions of a transformation after
	// its other actions (no action then reads a value chosen in the
	// same step).
	ChooseLast bool
	// Functions adds, to half of the models, a function f0 with int
	// parameters (and an int result, or none) that the threads call;
	// it has [function f0] predicates.
	Functions bool
	// Start adds, to half of the models, a thread W (not a main
	// thread) that T0 starts once, from a first location s0 that no
	// transformation goes back to; it has [thread W] predicates.
	Start bool
	// Heap adds two cells (records with an int v and a reference next,
	// allocated by T0 at a first location a0, linked in a cycle) in h0
	// and h1, references p and q (h0 and h1 at first) that the threads
	// assign, compare and read and write v and next through, and
	// predicates over them (p.v > g0, p == q, ...).
	Heap bool
	// Arrays adds a global array arr of three ints, read and written at
	// the int index i (an index error out of 0..2) and at constants.
	Arrays bool
	// Invariant adds a properties section with an invariant over the
	// globals (a comparison, often among the predicates).
	Invariant bool
	// Wrap declares the globals, the locals of the threads and the
	// function's parameters, locals and result with fixed-width types
	// (int16, uint16) or int, adds large
	// constants that make stores wrap, and converts operands and
	// expressions (uint8(x + 200)) in guards, actions and predicates.
	Wrap bool
}

var genDefault = genOptions{MaxThreads: 2, MaxLocations: 5, MaxPreds: 5, Arith: 20}

// genCalls is genDefault with functions.
var genCalls = genOptions{MaxThreads: 2, MaxLocations: 5, MaxPreds: 5, Arith: 20, Functions: true}

// genHeap is genDefault with cells on the heap.
var genHeap = genOptions{MaxThreads: 2, MaxLocations: 5, MaxPreds: 5, Arith: 20, Heap: true}

// genInvariant is genDefault with an invariant.
var genInvariant = genOptions{MaxThreads: 2, MaxLocations: 5, MaxPreds: 5, Arith: 20, Invariant: true}

// genArrays is genDefault with an array.
var genArrays = genOptions{MaxThreads: 2, MaxLocations: 5, MaxPreds: 5, Arith: 20, Arrays: true}

// genStart is genDefault with a started thread.
var genStart = genOptions{MaxThreads: 2, MaxLocations: 5, MaxPreds: 5, Arith: 20, Start: true}

// genWrap is genCalls with fixed-width variables, parameters and results,
// and conversions.
var genWrap = genOptions{MaxThreads: 2, MaxLocations: 5, MaxPreds: 5, Arith: 40, Functions: true, Wrap: true}

type genState struct {
	r       *rand.Rand
	opts    genOptions
	m       *genModel
	cmps    []genCmp // the comparisons of the model, candidates for predicates
	asserts []genCmp // the conditions of its assertions
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
	m.Types = map[string]string{}
	for i := 0; i < nGlobals; i++ {
		v := "g" + strconv.Itoa(i)
		globals = append(globals, v)
		g.declare(v)
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
	if g.opts.Functions && g.chance(50) {
		m.Fn = g.function(globals)
	}
	if g.opts.Heap {
		m.Heap = true
		globals = append(globals, "p->v", "q->v")
	}
	if g.opts.Arrays {
		m.Arrays = true
		m.Ints = append(m.Ints, "i")
		globals = append(globals, "i", "arr[i]", "arr[0]", "arr[2]")
	}
	for t := 0; t < nThreads; t++ {
		m.threads = append(m.threads, g.thread("T"+strconv.Itoa(t), globals))
		m.Threads = append(m.Threads, m.threads[t].name)
	}
	if g.opts.Start && g.chance(50) {
		m.Worker = g.thread("W", globals)
		m.threads = append(m.threads, m.Worker)
		m.Threads = append(m.Threads, "W")
	}
	if g.opts.Invariant {
		m.Inv = g.cmp(g.scope("")).String()
		if g.chance(50) {
			m.Inv = genCmp{L: genOperand{Var: g.pick(g.scope(""))}, Op: "<=", R: genOperand{Add: int64(2 + g.intn(3))}}.String()
		}
	}
	m.Src = m.render("", nil)
	g.predicates()
	return m
}

// declare gives the int variable v a type: with Wrap, often a
// fixed-width one.
func (g *genState) declare(v string) {
	if g.opts.Wrap {
		if t := g.pick(genWrapTypes); t != "int" {
			g.m.Types[v] = t
		}
	}
}

// genThread is a generated main thread: its int locals, and its
// locations l0, l1, ... with their transformations.
type genThread struct {
	name   string
	params []string // a function's int parameters
	result bool     // a function returns an int
	locals []string
	locs   [][]genTrans
}

// genTrans is a generated transformation: `when Guard do { Actions }
// goto Target;`, or in a function `... } return [EXPR];` (Target
// "return" or "return EXPR").
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
		fmt.Fprintf(&b, "%s : %s%s;\n", v, m.typeOf(v), init)
	}
	if m.Flag {
		b.WriteString("flag : boolean;\n")
	}
	if m.Small {
		b.WriteString("small : range 0..3;\n")
	}
	if m.Arrays {
		b.WriteString("arr : array [3] of int;\n")
	}
	if m.Heap {
		b.WriteString("Cell = record { v : int; next : CellRef; };\nCellRef = ref Cell {Cells};\nCells : collection [2] of Cell;\nh0, h1, p, q : CellRef;\n")
	}
	b.WriteString(decls)
	procs := m.threads
	if m.Fn != nil {
		procs = append([]*genThread{m.Fn}, procs...)
	}
	for _, th := range procs {
		if th == m.Fn {
			var ps []string
			for _, p := range th.params {
				ps = append(ps, p+" : "+m.typeOf(th.name+"."+p))
			}
			result := ""
			if th.result {
				result = " : " + m.typeOf(th.name+"#result")
			}
			fmt.Fprintf(&b, "\nfunction %s (%s)%s\n", th.name, strings.Join(ps, ", "), result)
		} else if th == m.Worker {
			fmt.Fprintf(&b, "\nthread %s ()\n", th.name)
		} else {
			fmt.Fprintf(&b, "\nmain thread %s ()\n", th.name)
		}
		for _, v := range th.locals {
			fmt.Fprintf(&b, "  %s : %s;\n", v, m.typeOf(th.name+"."+v))
		}
		if m.Worker != nil && th == m.threads[0] {
			fmt.Fprintf(&b, "  w : tid;\n  loc s0:\n    when true do { w := start %s(); } goto l0;\n", m.Worker.name)
		}
		if m.Heap && th == m.threads[0] {
			b.WriteString("  loc a0:\n    when true do { h0 := new Cells; h1 := new Cells; h0.next := h1; h1.next := h0; p := h0; q := h1; } goto l0;\n")
		}
		for l, ts := range th.locs {
			fmt.Fprintf(&b, "  loc l%d:\n", l)
			for _, tr := range ts {
				acts := tr.actions
				if extra != nil && th != m.Fn {
					acts = append(append([]string(nil), acts...), extra(th.name)...)
				}
				var a string
				for _, x := range acts {
					a += x + "; "
				}
				target := "goto " + tr.target
				if strings.HasPrefix(tr.target, "return") {
					target = tr.target
				}
				fmt.Fprintf(&b, "    when %s do { %s} %s;\n", tr.guard, a, target)
			}
		}
		fmt.Fprintf(&b, "end %s;\n", th.name)
	}
	if m.Inv != "" {
		fmt.Fprintf(&b, "\nproperties\n  invariant inv: %s;\n", m.Inv)
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
		g.declare(name + "." + local)
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
			tr.actions, tr.choose = g.actions(vars, g.intn(4))
			if fn := g.m.Fn; fn != nil && g.chance(30) {
				tr.actions = append(tr.actions, g.call(fn, vars))
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

// function generates f0: one or two int parameters, maybe a local,
// maybe an int result, and one to three locations whose transformations
// go forward or return (so every call returns, or blocks).
func (g *genState) function(globals []string) *genThread {
	f := &genThread{name: "f0", result: g.chance(60)}
	vars := append([]string(nil), globals...)
	nParams := 1 + g.intn(2)
	for i := 0; i < nParams; i++ {
		f.params = append(f.params, string(rune('x'+i)))
	}
	if g.chance(50) {
		f.locals = append(f.locals, "r")
	}
	g.declare(f.name + "#result")
	for _, v := range append(append([]string(nil), f.params...), f.locals...) {
		g.declare(f.name + "." + v)
		vars = append(vars, f.name+"."+v)
		g.m.FnVars = append(g.m.FnVars, f.name+"."+v)
	}
	ret := func() string {
		if f.result {
			return "return " + g.intExpr(vars)
		}
		return "return"
	}
	// half of the functions leave their first parameter as it is (no
	// guard or action reads or writes it; the result may), the parameter
	// a return predicate relates the result to
	body := vars
	keep := g.chance(50)
	if keep {
		body = slices.DeleteFunc(slices.Clone(vars), func(v string) bool { return v == f.name+"."+f.params[0] })
	}
	nLocs := 1 + g.intn(3)
	for l := 0; l < nLocs; l++ {
		var ts []genTrans
		n := 1 + g.intn(2)
		for k := 0; k < n; k++ {
			tr := genTrans{guard: g.guard(body), target: ret()}
			if k == 0 && (l == 0 || g.chance(50)) {
				tr.guard = "true"
			}
			if l+1 < nLocs && g.chance(70) {
				tr.target = "l" + strconv.Itoa(l+1+g.intn(nLocs-l-1))
			}
			tr.actions, tr.choose = g.actions(body, g.intn(3))
			if k == 1 && genTargetKey(tr.target) == genTargetKey(ts[0].target) && tr.choose != ts[0].choose {
				continue // BIR §12.2
			}
			ts = append(ts, tr)
		}
		f.locs = append(f.locs, ts)
	}
	if !keep && g.chance(50) {
		// the others often change it: a return predicate must not
		// take the changed parameter for the argument
		ts := f.locs[g.intn(len(f.locs))]
		tr := &ts[g.intn(len(ts))]
		tr.actions = append([]string{f.params[0] + " := " + g.intExpr(vars)}, tr.actions...)
	}
	return f
}

// genTargetKey is the target of a transformation as BIR §12.2 compares
// them: every return is one target.
func genTargetKey(target string) string {
	if strings.HasPrefix(target, "return") {
		return "return"
	}
	return target
}

// call returns a call of f with arguments over vars, its result assigned
// to a variable of vars when f has one.
func (g *genState) call(f *genThread, vars []string) string {
	var args, whole []string
	var locals []string
	for _, v := range vars {
		if strings.Contains(v, ".") {
			locals = append(locals, v)
		}
	}
	for i := range f.params {
		arg := g.intExpr(vars)
		if i == 0 && len(locals) > 0 && g.chance(40) {
			arg = genOperand{Var: g.pick(locals)}.String()
		}
		args = append(args, arg)
		for _, v := range vars {
			if (genOperand{Var: v}).String() == arg && strings.Contains(v, ".") {
				whole = append(whole, v) // a local passed whole
			}
		}
	}
	c := "call " + f.name + "(" + strings.Join(args, ", ") + ")"
	if f.result && g.chance(70) {
		x := genOperand{Var: g.pick(vars)}
		c = x.String() + " := " + c
		// comparisons of the result's variable alone and with a local
		// passed whole, candidate predicates that the return passes
		// back (return predicates)
		g.cmps = append(g.cmps, genCmp{L: x, Op: genOps[g.intn(len(genOps))], R: genOperand{Add: int64(g.intn(4))}})
		if len(whole) > 0 {
			if y := g.pick(whole); y != x.Var {
				// likely a predicate (as an assertion's condition is)
				c := genCmp{L: x, Op: genOps[g.intn(len(genOps))], R: genOperand{Var: y, Add: int64(g.intn(3) - 1)}}
				g.cmps = append(g.cmps, c)
				g.asserts = append(g.asserts, c)
			}
		}
	}
	return c
}

// actions returns n actions over vars (the choose actions last with
// ChooseLast) and whether one of them is a choose action.
func (g *genState) actions(vars []string, n int) (acts []string, choose bool) {
	var chooses []string
	for a := 0; a < n; a++ {
		act, c := g.action(vars)
		if c && g.opts.ChooseLast {
			chooses = append(chooses, act)
		} else {
			acts = append(acts, act)
		}
		choose = choose || c
	}
	return append(acts, chooses...), choose
}

// genRefs are the reference expressions of a model with cells.
var genRefs = []string{"p", "q", "h0", "h1", "null", "p->next", "q->next"}

// refCmp returns a comparison of two references (a predicate candidate).
func (g *genState) refCmp() genCmp {
	l := genRefs[[]int{0, 1, 5, 6}[g.intn(4)]]
	r := l
	for r == l {
		r = g.pick(genRefs)
	}
	op := "=="
	if g.chance(40) {
		op = "!="
	}
	c := genCmp{L: genOperand{Var: l}, Op: op, R: genOperand{Var: r}, Ref: true}
	g.cmps = append(g.cmps, c)
	return c
}

// refAction returns an assignment of a reference: p or q (any reference
// expression), or the next field of the cell p or q points to (a null
// dereference when it points to none).
func (g *genState) refAction() string {
	if g.chance(60) {
		r := g.pick(genRefs)
		if r == "null" && g.chance(70) {
			r = "h0" // null seldom: every field access through it fails
		}
		return g.pick([]string{"p", "q"}) + " := " + genOperand{Var: r}.String()
	}
	r := g.pick(genRefs[:5])
	if r == "null" && g.chance(70) {
		r = "h1"
	}
	return g.pick([]string{"p", "q"}) + ".next := " + r
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
	if g.opts.Wrap && g.chance(20) {
		o.Conv = g.conv()
		if g.chance(50) {
			o.Add = g.wrapConst()
		}
	}
	return o
}

// conv returns a fixed-width type to convert to.
func (g *genState) conv() string {
	return g.pick([]string{"int8", "uint8", "int16", "uint16"})
}

// wrapConst returns a constant that makes a fixed-width value wrap soon
// (or, added to an int, grow fast).
func (g *genState) wrapConst() int64 {
	c := []int64{100, 127, 128, 200, 255, 256, 30000, 32767, 65535}[g.intn(9)]
	if g.chance(40) {
		c = -c
	}
	return c
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
	if g.m.Heap && g.chance(25) {
		return g.refCmp().String()
	}
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

// intExpr returns an int expression: a constant or a variable, or (in
// Arith percent of the cases) a variable plus or minus a constant or
// another variable. Few sums: the abstraction of one whose operands no
// predicate bounds fails (the sum may overflow), and the abstract model
// then stops at that step.
func (g *genState) intExpr(vars []string) string {
	if !g.opts.Wrap {
		return g.intExpr0(vars)
	}
	switch k := g.intn(10); {
	case k < 3:
		o := genOperand{Var: g.pick(vars), Add: g.wrapConst()}
		return o.String()
	case k < 5:
		return g.conv() + "(" + g.intExpr0(vars) + ")"
	}
	return g.intExpr0(vars)
}

func (g *genState) intExpr0(vars []string) string {
	if g.intn(100) >= g.opts.Arith {
		if g.chance(50) {
			return strconv.Itoa(g.intn(4) - 1)
		}
		return genOperand{Var: g.pick(vars)}.String()
	}
	x := genOperand{Var: g.pick(vars)}
	if g.chance(50) {
		x.Add = int64(g.intn(5) - 2)
		if x.Add == 0 {
			x.Add = 1
		}
		return x.String()
	}
	op := " + "
	if g.chance(50) {
		op = " - "
	}
	return x.String() + op + genOperand{Var: g.pick(vars)}.String()
}

// action returns an action over vars and whether it is a choose action.
func (g *genState) action(vars []string) (string, bool) {
	if g.m.Heap && g.chance(30) {
		return g.refAction(), false
	}
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
			g.asserts = append(g.asserts, c)
			return "assert(" + c.String() + ")", false
		}
		c := g.cmp(vars)
		g.asserts = append(g.asserts, c)
		return "assert(" + c.String() + ")", false
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

// predicates chooses 1..MaxPreds predicates without repetition: most
// assertions' conditions first (so that the abstraction can prove them
// and the abstract model goes on past them), then comparisons of the
// model (those a proof would need) and random ones, half and half.
func (g *genState) predicates() {
	m := g.m
	n := 1 + g.intn(g.opts.MaxPreds)
	seen := map[string]bool{}
	add := func(c genCmp) {
		p := genPred{Thread: c.thread(), Cmp: c}
		if p.Func() && p.readsGlobal() && len(m.threads) > 1 {
			return // c2bp: only in models of one thread instance
		}
		if len(m.Preds) < n && !seen[p.String()] {
			seen[p.String()] = true
			m.Preds = append(m.Preds, p)
		}
	}
	for _, c := range g.asserts {
		if g.chance(80) {
			add(c)
		}
	}
	for tries := 0; len(m.Preds) < n && tries < 20; tries++ {
		if len(g.cmps) > 0 && g.chance(50) {
			add(g.cmps[g.intn(len(g.cmps))])
			continue
		}
		vars := m.Ints
		if t := g.pick(append(append([]string(nil), m.Ints...), m.FnVars...)); strings.Contains(t, ".") {
			vars = g.scope(t[:strings.IndexByte(t, '.')])
		} else {
			vars = g.scope("")
		}
		add(g.cmp(vars))
	}
}

// scope returns the globals and the locals of thread t ("" for none).
func (g *genState) scope(t string) []string {
	var out []string
	for _, v := range append(append([]string(nil), g.m.Ints...), g.m.FnVars...) {
		if !strings.Contains(v, ".") || (t != "" && strings.HasPrefix(v, t+".")) {
			out = append(out, v)
		}
	}
	return out
}

// WithPredicates returns the model with a predicates section that defines
// pred<i> as predicate i, a local of thread T read as the remote reference
// (T : x), for the model's own evaluation of the predicates (those of a
// function left out).
func (g *genModel) WithPredicates() string {
	var b strings.Builder
	b.WriteString("\npredicates\n")
	remote := func(o genOperand) string {
		if i := strings.IndexByte(o.Var, '.'); i >= 0 {
			return o.text("(" + o.Var[:i] + " : " + o.Var[i+1:] + ")")
		}
		return o.String()
	}
	for i, p := range g.Preds {
		if p.Func() {
			continue // a function's frame has no remote reference
		}
		fmt.Fprintf(&b, "  pred%d = %s %s %s;\n", i, remote(p.Cmp.L), p.Cmp.Op, remote(p.Cmp.R))
	}
	end := fmt.Sprintf("\nend Gen%d;\n", g.Seed)
	return strings.TrimSuffix(g.Src, end) + b.String() + end
}
