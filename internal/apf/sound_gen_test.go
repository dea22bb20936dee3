package apf_test

import (
	"fmt"
	"math/big"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
)

// This file generates the random models of the soundness tests
// (sound_test.go): small BIR models whose int data stay small (choices
// among a few constants, + and - of constants and variables), over int
// globals, the int locals of one or two threads (a main thread T0, and a
// main thread T1 or a thread W that T0 starts), a function f with int
// parameters and maybe a result, two cells on the heap (records with an
// int v and a reference next, reached through the globals p and q, which
// may alias), a value array arr of three ints written and read at computed
// indices, a boolean flag and a range 0..3 small assigned from int
// comparisons and values; with guards, assertions and assumptions that
// compare them; and random predicates in every context of a predicate file
// (globals, [thread T], [function f], [record Cell] with this). Each
// expression is a tree (rexp) that the test both prints and evaluates on
// concrete states itself, independently of internal/apf.

// rexp is an expression of a generated model or predicate.
type rexp struct {
	op   string // see below
	k    int64  // "k": the constant
	name string // "v": the variable
	x    []*rexp
}

// The ops: "k" an int constant, "v" a variable, "true", "null", "this",
// "f" the int field v of the reference x[0], "nx" its field next, "ix" the
// element x[0] of the value array arr, "hx" the element x[0] of the heap
// array h, "hl" h's length; "+" "-" "*" "/" "%" of ints; "<" "<=" "==" "!="
// ">" ">=" comparisons (of ints, or == != of references); "&&" "||" "!".

func rk(k int64) *rexp                { return &rexp{op: "k", k: k} }
func rv(name string) *rexp            { return &rexp{op: "v", name: name} }
func rop(op string, x ...*rexp) *rexp { return &rexp{op: op, x: x} }

// String prints e as BIR.
func (e *rexp) String() string { return e.text(func(name string) string { return name }) }

// text prints e with each variable printed by name (a remote reference,
// for the self-test's predicates section).
func (e *rexp) text(name func(string) string) string {
	sub := func(x *rexp) string {
		s := x.text(name)
		if len(x.x) == 2 {
			return "(" + s + ")"
		}
		return s
	}
	switch e.op {
	case "k":
		return strconv.FormatInt(e.k, 10)
	case "v":
		return name(e.name)
	case "true", "null", "this":
		return e.op
	case "f":
		return sub(e.x[0]) + ".v"
	case "nx":
		return sub(e.x[0]) + ".next"
	case "ix":
		return "arr[" + e.x[0].text(name) + "]"
	case "hx":
		return "h[" + e.x[0].text(name) + "]"
	case "hl":
		return "h.length"
	case "!":
		return "!(" + e.x[0].text(name) + ")"
	}
	return sub(e.x[0]) + " " + e.op + " " + sub(e.x[1])
}

// reads calls f with every variable e reads.
func (e *rexp) reads(f func(name string)) {
	if e.op == "v" {
		f(e.name)
	}
	for _, x := range e.x {
		x.reads(f)
	}
}

// has says whether e has a sub-expression of op.
func (e *rexp) has(op string) bool {
	if e.op == op {
		return true
	}
	for _, x := range e.x {
		if x.has(op) {
			return true
		}
	}
	return false
}

// rundef is the panic of an evaluation that reads through null or out of
// bounds: the expression has no value in that state.
type rundef struct{}

// renv is what an expression is evaluated in: the named values of a
// concrete state (model.Describe's names and values), the prefix of the
// context frame's locals ("T0[1].", "T0[1].f#1."), and the object this
// stands for ("Cells[0]").
type renv struct {
	vals    map[string]string
	frame   string
	this    string
	globals map[string]bool
}

func (v *renv) get(name string) string {
	s, ok := v.vals[name]
	if !ok {
		panic(fmt.Sprintf("evaluation: no value for %s in %v", name, v.vals))
	}
	return s
}

func (v *renv) varName(name string) string {
	if v.globals[name] {
		return name
	}
	return v.frame + name
}

// int evaluates an int expression over the mathematical integers, as a
// predicate is read (x + 2 > y at the largest int is true, not an
// overflow).
func (v *renv) int(e *rexp) *big.Int {
	var s string
	switch e.op {
	case "k":
		return big.NewInt(e.k)
	case "+":
		return new(big.Int).Add(v.int(e.x[0]), v.int(e.x[1]))
	case "-":
		return new(big.Int).Sub(v.int(e.x[0]), v.int(e.x[1]))
	case "*":
		return new(big.Int).Mul(v.int(e.x[0]), v.int(e.x[1]))
	case "/", "%":
		d := v.int(e.x[1])
		if d.Sign() == 0 {
			panic(rundef{}) // a division by zero has no value
		}
		if e.op == "/" {
			return new(big.Int).Quo(v.int(e.x[0]), d) // truncated, as BIR's
		}
		return new(big.Int).Rem(v.int(e.x[0]), d)
	case "v":
		s = v.get(v.varName(e.name))
	case "f":
		s = v.get(v.obj(e.x[0]) + ".v")
	case "ix":
		k := v.int(e.x[0])
		if !k.IsInt64() || k.Int64() < 0 || k.Int64() > 2 {
			panic(rundef{})
		}
		s = v.get("arr[" + k.String() + "]")
	case "hx":
		k, o := v.int(e.x[0]), v.obj(rv("h"))
		if k.Sign() < 0 || k.Cmp(v.int(&rexp{op: "hl"})) >= 0 {
			panic(rundef{})
		}
		s = v.get(o + "[" + k.String() + "]")
	case "hl":
		s = v.get(v.obj(rv("h")) + ".length")
	default:
		panic("evaluation: not an int: " + e.String())
	}
	n, ok := new(big.Int).SetString(s, 10)
	if !ok {
		panic(fmt.Sprintf("evaluation: %s is %q", e, s))
	}
	return n
}

// ref evaluates a reference: "null" or an object's name.
func (v *renv) ref(e *rexp) string {
	switch e.op {
	case "null":
		return "null"
	case "this":
		return v.this
	case "v":
		return v.get(v.varName(e.name))
	case "nx":
		return v.get(v.obj(e.x[0]) + ".next")
	}
	panic("evaluation: not a reference: " + e.String())
}

// obj evaluates a reference that is dereferenced.
func (v *renv) obj(e *rexp) string {
	o := v.ref(e)
	if o == "null" {
		panic(rundef{})
	}
	return o
}

func (v *renv) bool(e *rexp) bool {
	switch e.op {
	case "true":
		return true
	case "v":
		return v.get(v.varName(e.name)) == "true"
	case "!":
		return !v.bool(e.x[0])
	case "&&":
		return v.bool(e.x[0]) && v.bool(e.x[1])
	case "||":
		return v.bool(e.x[0]) || v.bool(e.x[1])
	}
	if rrefExpr(e.x[0]) || rrefExpr(e.x[1]) {
		eq := v.ref(e.x[0]) == v.ref(e.x[1])
		return eq == (e.op == "==")
	}
	d := v.int(e.x[0]).Cmp(v.int(e.x[1]))
	switch e.op {
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
	panic("evaluation: not a boolean: " + e.String())
}

// truth evaluates a predicate: "true", "false", or "?" when it reads
// through null or out of bounds.
func (v *renv) truth(e *rexp) (s string) {
	defer func() {
		if r := recover(); r != nil {
			if _, ok := r.(rundef); !ok {
				panic(r)
			}
			s = "?"
		}
	}()
	return strconv.FormatBool(v.bool(e))
}

// rrefExpr says whether e is a reference expression.
func rrefExpr(e *rexp) bool {
	switch e.op {
	case "null", "this", "nx":
		return true
	case "v":
		return e.name == "p" || e.name == "q" || e.name == "h"
	}
	return false
}

// rpred is a predicate of a generated predicate file.
type rpred struct {
	// Ctx is the context: "" (globals), "thread T0", "thread T1",
	// "thread W", "function f" or "record Cell".
	Ctx string
	E   *rexp
}

func (p rpred) String() string {
	if p.Ctx == "" {
		return p.E.String()
	}
	return "[" + p.Ctx + "] " + p.E.String()
}

// rmodel is a generated model and predicate file.
type rmodel struct {
	Seed  uint64
	Src   string
	Preds []rpred
	// Globals holds the names of the globals; Ints the names of the int
	// variables, parameters and fields (globals, locals, f's parameters
	// and local, the field v, and arr), all abstracted by apf.
	Globals map[string]bool
	Ints    map[string]bool
	Inv     string // the condition of an invariant (WithInvariant), or ""
	Heap    bool   // Cells, p and q
	Sub     bool   // with Heap: the subtype Cell2 of Cell, and q's first cell one
	HeapArr bool   // IntArrs and h
	Second  string // "T1", "W" or ""
	Fn      bool   // the function f
}

// PredFile returns the predicate file's text.
func (m *rmodel) PredFile() string {
	var b strings.Builder
	fmt.Fprintf(&b, "# predicates of the random model of seed %d\n", m.Seed)
	for _, p := range m.Preds {
		b.WriteString(p.String() + "\n")
	}
	return b.String()
}

// ropts bounds the generated models.
type ropts struct {
	Threads bool // a second thread (T1 or W), in half of the models
	Fn      bool // the function f, in half of the models
	Heap    bool // the cells, in half of the models
	Arr     bool // the array, in half of the models
	HeapArr bool // the heap array h, in 40% of the models
	Locs    int  // locations per thread, at least 2
	Preds   int  // at most this many predicates
	Grow    int  // percent of int assignments that add or subtract
	Mul     bool // some of those multiply, divide or take a remainder by a constant instead
	Lock    bool // a third of the models have a global lock that the threads take and release
	// Invisible makes some locations' transformations invisible (those
	// of a thread that read and write its locals only)
	Invisible bool
}

var ropt = ropts{Threads: true, Fn: true, Heap: true, Arr: true, HeapArr: true, Locs: 4, Preds: 6, Grow: 25, Mul: true, Invisible: true}

// rlocked is ropt with a lock in a third of the models (the soundness test
// by enumeration; the verdict tests' default seeds are chosen with ropt).
var rlocked = ropts{Threads: true, Fn: true, Heap: true, Arr: true, HeapArr: true, Locs: 4, Preds: 6, Grow: 25, Mul: true, Lock: true, Invisible: true}

// rgen is the generator's state.
type rgen struct {
	r   *rand.Rand
	o   ropts
	m   *rmodel
	arr bool
	// flag and small: the model has the global boolean flag and the
	// global range 0..3 small
	flag, small bool
	globals     []string // the int globals
	// fn says how many parameters f has and whether it has a result
	fn struct {
		params int
		bparam bool
		result bool
	}
	// wParam: the thread W has the int parameter n
	wParam bool
	// lock: the model has the global lock mu
	lock bool
	// cands are comparisons of the model by context ("" the globals, a
	// thread's or f's name), candidates for predicates
	cands map[string][]*rexp
	// scopes holds the scope of each thread and of f
	scopes map[string]*rscope
}

func (g *rgen) n(n int) int             { return g.r.IntN(n) }
func (g *rgen) p(percent int) bool      { return g.r.IntN(100) < percent }
func (g *rgen) pick(xs []string) string { return xs[g.n(len(xs))] }

// rproc is a generated thread or function: its int locals (and
// parameters), its boolean local, its locations.
type rproc struct {
	name   string
	params []string // int parameters
	bparam bool     // f has the boolean parameter k too
	result bool
	ints   []string // int parameters and locals
	bools  []string // boolean parameter and locals
	inits  map[string]int64
	init   []string // T0's first actions (at s0)
	locs   []rloc
}

type rloc struct {
	inv  bool     // every transformation is invisible (they read and write locals only)
	live []string // the live set, or nil
	ts   []rtrans
}

type rtrans struct {
	guard  *rexp
	acts   []string
	target string // "l3", "return", "return EXPR"
	choose bool
}

// rgenerate returns the model of a seed.
func rgenerate(seed uint64, o ropts) *rmodel {
	g := &rgen{r: rand.New(rand.NewPCG(seed, 0xa9f)), o: o, cands: map[string][]*rexp{}, scopes: map[string]*rscope{}}
	g.m = &rmodel{Seed: seed, Globals: map[string]bool{}, Ints: map[string]bool{}}
	return g.model()
}

func (g *rgen) model() *rmodel {
	m := g.m
	var b strings.Builder
	fmt.Fprintf(&b, "system R%d ()\n", m.Seed)
	for i := 0; i < 1+g.n(3); i++ {
		v := "g" + strconv.Itoa(i)
		g.globals = append(g.globals, v)
		init := ""
		if g.p(30) {
			init = " := " + strconv.Itoa(g.n(3))
		}
		fmt.Fprintf(&b, "%s : int%s;\n", v, init)
	}
	if g.flag = g.p(50); g.flag {
		b.WriteString("flag : boolean;\n")
	}
	if g.small = g.p(40); g.small {
		b.WriteString("small : range 0..3;\n")
	}
	if g.arr = g.o.Arr && g.p(50); g.arr {
		b.WriteString("arr : array [3] of int;\n")
		m.Ints["arr"] = true
	}
	if m.Heap = g.o.Heap && g.p(50); m.Heap {
		// in 40% of them q's cell is of a subtype Cell2, whose objects
		// have the [record Cell] predicates too (decided by a generator
		// of its own: the model is otherwise the seed's without it)
		if m.Sub = rand.New(rand.NewPCG(m.Seed, 0x5b)).IntN(10) < 4; m.Sub {
			b.WriteString("Cell = record { v : int; next : CellRef; };\nCell2 = record { v : int; next : CellRef; u : int; };\nCell2 extends Cell;\nCellRef = ref Cell {Cells, Cells2};\nCells : collection [2] of Cell;\nCells2 : collection [1] of Cell2;\np, q : CellRef;\n")
			m.Ints["u"] = true
		} else {
			b.WriteString("Cell = record { v : int; next : CellRef; };\nCellRef = ref Cell {Cells};\nCells : collection [2] of Cell;\np, q : CellRef;\n")
		}
		m.Ints["v"] = true
	}
	// with Lock, a third of the models have the lock mu (decided by a
	// generator of its own: the others are the seed's models without it)
	if g.lock = g.o.Lock && rand.New(rand.NewPCG(m.Seed, 0x10c)).IntN(3) == 0; g.lock {
		b.WriteString("mu : lock;\n")
	}
	if m.HeapArr = g.o.HeapArr && g.p(40); m.HeapArr {
		b.WriteString("IntArr = array [3] of int;\nIntArrs : collection [1] of IntArr;\nh : ref IntArr {IntArrs};\n")
		m.Ints["IntArrs"] = true // the elements: IntArrs[0][1]
	}
	for _, v := range g.globals {
		m.Ints[v] = true
	}
	for _, v := range append([]string{"flag", "small", "arr", "p", "q", "h"}, g.globals...) {
		m.Globals[v] = true
	}
	if g.o.Threads && g.p(50) {
		m.Second = "T1"
		if g.p(50) {
			m.Second = "W"
			g.wParam = g.p(50)
		}
	}
	if m.Fn = g.o.Fn && g.p(50); m.Fn {
		f := g.function()
		g.fn.params, g.fn.bparam, g.fn.result = len(f.params), f.bparam, f.result
		f.write(&b, g)
	}
	t0 := g.thread("T0")
	t0.write(&b, g)
	var second *rproc
	if m.Second != "" {
		second = g.thread(m.Second)
		second.write(&b, g)
	}
	fmt.Fprintf(&b, "\nend R%d;\n", m.Seed)
	m.Src = b.String()
	g.predicates()
	g.invariant(t0, second)
	return m
}

// invariant gives half of the models an invariant (m.Inv) over thread
// locations, booleans, small, references, or ints (which the on-the-fly
// check does not check), drawn from a generator of its own so that the
// model and its predicates are those of the seed without it.
func (g *rgen) invariant(t0, second *rproc) {
	m := g.m
	r := rand.New(rand.NewPCG(m.Seed, 0x1a7))
	if r.IntN(2) == 0 {
		return
	}
	at := func(p *rproc) string {
		return p.name + " @ l" + strconv.Itoa(r.IntN(len(p.locs)))
	}
	var forms []string
	if second != nil && second.name == "T1" {
		forms = append(forms, "!("+at(t0)+" && "+at(second)+")")
	}
	if g.flag {
		forms = append(forms, "!("+at(t0)+" && flag)")
	}
	if g.small {
		forms = append(forms, at(t0)+" -> small != "+strconv.Itoa(r.IntN(4)))
	}
	if slices.Contains(t0.bools, "c") {
		forms = append(forms, "!(T0 : c) || "+at(t0))
	}
	if m.Heap {
		forms = append(forms, "q != null", "p.next != q")
	}
	forms = append(forms, "!("+at(t0)+")", g.globals[0]+" <= "+strconv.Itoa(1+r.IntN(3)))
	m.Inv = forms[r.IntN(len(forms))]
}

// WithInvariant returns the model with its invariant (m.Src when it has
// none).
func (m *rmodel) WithInvariant() string {
	if m.Inv == "" {
		return m.Src
	}
	end := fmt.Sprintf("\nend R%d;\n", m.Seed)
	return strings.TrimSuffix(m.Src, end) + "\nproperties\n  invariant inv: " + m.Inv + ";\n" + end
}

// write prints the thread or function.
func (p *rproc) write(b *strings.Builder, g *rgen) {
	switch {
	case p.name == "f":
		var ps []string
		for _, x := range p.params {
			ps = append(ps, x+" : int")
		}
		if p.bparam {
			ps = append(ps, "k : boolean")
		}
		res := ""
		if p.result {
			res = " : int"
		}
		fmt.Fprintf(b, "\nfunction f (%s)%s\n", strings.Join(ps, ", "), res)
	case p.name == "W" && len(p.params) > 0:
		b.WriteString("\nthread W (n : int)\n")
	case p.name == "W":
		b.WriteString("\nthread W ()\n")
	default:
		fmt.Fprintf(b, "\nmain thread %s ()\n", p.name)
	}
	for _, x := range p.ints[len(p.params):] {
		if k, ok := p.inits[x]; ok {
			fmt.Fprintf(b, "  %s : int := %d;\n", x, k)
			continue
		}
		fmt.Fprintf(b, "  %s : int;\n", x)
	}
	for _, x := range p.bools {
		if x != "k" {
			fmt.Fprintf(b, "  %s : boolean;\n", x)
		}
	}
	if p.name == "T0" && g.m.Second == "W" {
		b.WriteString("  w : tid;\n")
	}
	if p.name == "T1" && (g.m.Heap || g.m.HeapArr) {
		var wait []string // T1 waits until T0 set p and h
		if g.m.Heap {
			wait = append(wait, "p != null")
		}
		if g.m.HeapArr {
			wait = append(wait, "h != null")
		}
		fmt.Fprintf(b, "  loc s0:\n    when %s do { } goto l0;\n", strings.Join(wait, " && "))
	}
	if len(p.init) > 0 {
		fmt.Fprintf(b, "  loc s0:\n    when true do { %s; } goto l0;\n", strings.Join(p.init, "; "))
	}
	for i, l := range p.locs {
		live := ""
		if l.live != nil {
			live = " live { " + strings.Join(l.live, ", ") + " }"
		}
		fmt.Fprintf(b, "  loc l%d:%s\n", i, live)
		for _, t := range l.ts {
			inv := ""
			if l.inv {
				inv = "invisible "
			}
			acts := ""
			for _, a := range t.acts {
				acts += a + "; "
			}
			target := t.target
			if !strings.HasPrefix(target, "return") {
				target = "goto " + target
			}
			fmt.Fprintf(b, "    when %s do %s{ %s} %s;\n", t.guard, inv, acts, target)
		}
	}
	fmt.Fprintf(b, "end %s;\n", p.name)
}

// rscope is what the code of a thread or function may name.
type rscope struct {
	ctx   string   // the thread's or function's name
	ints  []string // int variables: the globals, then its own
	bools []string // boolean variables: flag, then its own
	local []string // its own int variables
	inv   bool     // only its own variables (an invisible transformation)
}

func (g *rgen) scope(p *rproc) *rscope {
	sc := &rscope{ctx: p.name, ints: append(append([]string(nil), g.globals...), p.ints...), local: p.ints}
	if g.flag {
		sc.bools = append(sc.bools, "flag")
	}
	sc.bools = append(sc.bools, p.bools...)
	return sc
}

// localScope is sc restricted to the proc's own variables (invisible
// transformations), nil when it has no int variable.
func (sc *rscope) localScope(p *rproc) *rscope {
	if len(p.ints) == 0 {
		return nil
	}
	return &rscope{ctx: sc.ctx, ints: p.ints, bools: p.bools, local: p.ints, inv: true}
}

func (g *rgen) thread(name string) *rproc {
	p := &rproc{name: name, inits: map[string]int64{}}
	if name == "W" && g.wParam {
		p.params = []string{"n"}
		p.ints = []string{"n"}
		g.m.Ints["n"] = true
	}
	for i := 0; i < g.n(3); i++ {
		x := string(rune('a' + i))
		p.ints = append(p.ints, x)
		g.m.Ints[x] = true
		if g.p(20) {
			p.inits[x] = int64(g.n(3))
		}
	}
	if g.p(35) {
		p.bools = append(p.bools, "c")
	}
	sc := g.scope(p)
	if name == "T0" {
		// T0 first allocates the cells and starts W
		if g.m.Heap {
			if g.p(70) {
				q := "q := new Cells"
				if g.m.Sub {
					q += "2"
				}
				p.init = append(p.init, "p := new Cells", q, "p.next := q", "q.next := p")
			} else {
				p.init = append(p.init, "p := new Cells", "q := p", "p.next := p")
			}
		}
		if g.m.HeapArr {
			p.init = append(p.init, "h := new IntArrs["+strconv.Itoa(2+g.n(2))+"]")
		}
		if g.m.Second == "W" {
			arg := ""
			if g.wParam {
				arg = g.intExpr(sc).String()
			}
			if g.p(30) {
				p.init = append(p.init, "start W("+arg+")") // two instances of W
			}
			p.init = append(p.init, "w := start W("+arg+")")
		}
	}
	g.scopes[name] = sc
	n := 2 + g.n(g.o.Locs-1)
	for l := 0; l < n; l++ {
		if l == n-1 && g.p(50) {
			p.locs = append(p.locs, rloc{}) // the thread terminates there
			continue
		}
		loc := rloc{}
		lsc := sc
		if ls := sc.localScope(p); ls != nil && l+1 < n && g.o.Invisible && g.p(15) {
			loc.inv, lsc = true, ls
		}
		for k := 0; k < 1+g.n(2); k++ {
			t := rtrans{target: "l" + strconv.Itoa(g.n(n))}
			if k == 0 && l+1 < n && g.p(70) {
				t.target = "l" + strconv.Itoa(l+1)
			}
			if loc.inv {
				t.target = "l" + strconv.Itoa(l+1+g.n(n-l-1)) // invisible steps go forward: no invisible loop
			}
			t.guard = g.guard(lsc)
			if k == 0 && (l == 0 || g.p(40)) {
				t.guard = rop("true")
			}
			if k == 1 && loc.ts[0].guard.op != "true" && g.p(50) {
				t.guard = rop("!", loc.ts[0].guard)
			}
			t.acts, t.choose = g.actions(lsc, g.n(4))
			if g.m.Fn && !loc.inv && g.p(30) {
				t.acts = append(t.acts, g.call(sc))
			}
			loc.ts = append(loc.ts, t)
		}
		g.pairRule(&loc)
		p.locs = append(p.locs, loc)
	}
	g.liveSets(p)
	return p
}

// liveSets gives some locations of p a live set: a random part of its
// locals (and parameters); the others are reset to their defaults when
// the thread arrives there.
func (g *rgen) liveSets(p *rproc) {
	all := append(append([]string(nil), p.ints...), p.bools...)
	if p.name == "T0" && g.m.Second == "W" {
		all = append(all, "w")
	}
	if len(all) == 0 {
		return
	}
	for i := range p.locs {
		if g.p(20) {
			live := []string{}
			for _, x := range all {
				if g.p(50) {
					live = append(live, x)
				}
			}
			p.locs[i].live = live
		}
	}
}

// pairRule keeps BIR §12.2: the transformations between one source and
// one target all choose or none does.
func (g *rgen) pairRule(loc *rloc) {
	key := func(t string) string {
		if strings.HasPrefix(t, "return") {
			return "return"
		}
		return t
	}
	if len(loc.ts) == 2 && key(loc.ts[0].target) == key(loc.ts[1].target) && loc.ts[0].choose != loc.ts[1].choose {
		loc.ts = loc.ts[:1]
	}
}

// function generates f: one or two int parameters, maybe the int local r,
// maybe a result; its transformations go forward or return.
func (g *rgen) function() *rproc {
	p := &rproc{name: "f", result: g.p(70), inits: map[string]int64{}}
	for i := 0; i < 1+g.n(2); i++ {
		p.params = append(p.params, string(rune('x'+i)))
	}
	p.ints = append(p.ints, p.params...)
	if g.p(50) {
		p.ints = append(p.ints, "r")
		if g.p(30) {
			p.inits["r"] = int64(g.n(3))
		}
	}
	if g.p(30) {
		p.bparam = true
		p.bools = append(p.bools, "k")
	}
	for _, x := range p.ints {
		g.m.Ints[x] = true
	}
	sc := g.scope(p)
	g.scopes["f"] = sc
	n := 1 + g.n(3)
	for l := 0; l < n; l++ {
		loc := rloc{}
		for k := 0; k < 1+g.n(2); k++ {
			t := rtrans{guard: g.guard(sc), target: "return"}
			if k == 0 && (l == 0 || g.p(50)) {
				t.guard = rop("true")
			}
			if l+1 < n && g.p(60) {
				t.target = "l" + strconv.Itoa(l+1+g.n(n-l-1))
			} else if p.result {
				t.target = "return " + g.intExpr(sc).String()
			}
			t.acts, t.choose = g.actions(sc, g.n(3))
			loc.ts = append(loc.ts, t)
		}
		g.pairRule(&loc)
		p.locs = append(p.locs, loc)
	}
	g.liveSets(p)
	return p
}

// call returns a call of f with arguments over sc, its result stored in
// an int variable of sc (or dropped).
func (g *rgen) call(sc *rscope) string {
	var args []string
	for i := 0; i < g.fn.params; i++ {
		args = append(args, g.intExpr(sc).String())
	}
	if g.fn.bparam {
		args = append(args, g.cmp(sc).String()) // an abstracted value for a boolean
	}
	c := "call f(" + strings.Join(args, ", ") + ")"
	if g.fn.result && g.p(75) {
		x := g.pick(sc.ints)
		c = x + " := " + c
		g.cand(sc, rop(g.cmpOp(), rv(x), rk(int64(g.n(3)))))
	}
	return c
}

var rcmpOps = []string{"<", "<=", "==", "!=", ">", ">="}

func (g *rgen) cmpOp() string { return g.pick(rcmpOps) }

// cand records the comparison c of code in sc as a predicate candidate:
// of sc's context when it reads a variable of sc's own, of the globals
// otherwise.
func (g *rgen) cand(sc *rscope, c *rexp) {
	ctx := ""
	c.reads(func(name string) {
		if !g.m.Globals[name] {
			ctx = sc.ctx
		}
	})
	g.cands[ctx] = append(g.cands[ctx], c)
}

// ref returns a reference expression over the cells.
func (g *rgen) ref() *rexp {
	switch g.n(4) {
	case 0:
		return rv("q")
	case 1:
		return rop("nx", rv("p"))
	case 2:
		return rop("nx", rv("q"))
	}
	return rv("p")
}

// index returns an index of arr: a constant, small (out of bounds at 3)
// or an int variable (an abstracted index).
func (g *rgen) index(sc *rscope) *rexp {
	switch k := g.n(10); {
	case k < 2 && g.small:
		return rv("small")
	case k < 4:
		return rv(g.pick(sc.ints))
	}
	return rk(int64(g.n(3)))
}

// atom returns an int variable, a field, an element of arr, or (with
// constOK) a constant.
func (g *rgen) atom(sc *rscope, constOK bool) *rexp {
	if constOK && g.p(30) {
		return rk(int64(g.n(4) - 1))
	}
	switch k := g.n(10); {
	case k < 2 && g.m.Heap && !sc.inv:
		return rop("f", g.ref())
	case k < 3 && g.arr && !sc.inv:
		return rop("ix", g.index(sc))
	case k < 4 && g.m.HeapArr && !sc.inv:
		if g.p(10) {
			return rop("hl")
		}
		return rop("hx", g.index(sc))
	}
	return rv(g.pick(sc.ints))
}

// intExpr returns an int expression: an atom or a constant, or (Grow
// percent) an atom plus or minus a constant or another atom.
func (g *rgen) intExpr(sc *rscope) *rexp {
	if !g.p(g.o.Grow) {
		return g.atom(sc, true)
	}
	op := g.pick([]string{"+", "-"})
	if g.o.Mul && g.p(15) {
		// * / % by a constant: linear (a product of two variables is
		// not, and the embedded solver takes a second to give up on one
		// that may overflow)
		return rop(g.pick([]string{"*", "/", "%"}), g.atom(sc, false), rk(int64(2+g.n(2))))
	}
	if g.p(50) {
		return rop(op, g.atom(sc, false), rk(int64(1+g.n(2))))
	}
	return rop(op, g.atom(sc, false), g.atom(sc, false))
}

// cmp returns a comparison of ints of sc, a predicate candidate.
func (g *rgen) cmp(sc *rscope) *rexp {
	l := g.atom(sc, false)
	switch k := g.n(10); {
	case k < 2:
		l = rop(g.pick([]string{"+", "-"}), l, rk(int64(1+g.n(2))))
	case k < 3:
		l = rop(g.pick([]string{"+", "-"}), l, g.atom(sc, false))
	}
	r := g.atom(sc, true)
	if r.String() == l.String() {
		r = rk(int64(g.n(3)))
	}
	c := rop(g.cmpOp(), l, r)
	g.cand(sc, c)
	return c
}

func (g *rgen) guard(sc *rscope) *rexp {
	switch k := g.n(20); {
	case k < 5:
		return rop("true")
	case k < 12:
		return g.cmp(sc)
	case k < 14:
		return rop("&&", g.cmp(sc), g.cmp(sc))
	case k < 16:
		return rop("!", g.cmp(sc))
	case k < 17 && len(sc.bools) > 0:
		return rv(g.pick(sc.bools))
	case k < 17:
		return rop("||", g.cmp(sc), rop("!", g.cmp(sc)))
	case k < 18 && g.small && !sc.inv:
		return rop("<", rv("small"), rk(int64(1+g.n(3))))
	case k < 20 && g.m.Heap && !sc.inv:
		c := rop(g.pick([]string{"==", "!="}), g.ref(), g.ref())
		if c.x[0].String() == c.x[1].String() {
			c.x[1] = rv("p")
		}
		return c
	}
	return g.cmp(sc)
}

// actions returns n actions over sc and whether one chooses.
func (g *rgen) actions(sc *rscope, n int) (acts []string, choose bool) {
	for i := 0; i < n; i++ {
		a, c := g.action(sc)
		acts = append(acts, a)
		choose = choose || c
	}
	return acts, choose
}

// lhs returns an int place of sc: a variable, the field v of a cell, an
// element of arr.
func (g *rgen) lhs(sc *rscope) string {
	switch k := g.n(10); {
	case k < 2 && g.m.Heap && !sc.inv:
		return rop("f", g.ref()).String()
	case k < 4 && g.arr && !sc.inv:
		return rop("ix", g.index(sc)).String()
	case k < 5 && g.m.HeapArr && !sc.inv:
		return rop("hx", g.index(sc)).String()
	}
	return g.pick(sc.ints)
}

func (g *rgen) action(sc *rscope) (string, bool) {
	if g.lock && !sc.inv && g.p(12) {
		// lock blocks while another thread holds mu; unlock by a
		// thread that does not hold it is an error
		return g.pick([]string{"lock(mu)", "lock(mu)", "unlock(mu)"}), false
	}
	switch k := g.n(20); {
	case k < 7:
		return g.lhs(sc) + " := " + g.intExpr(sc).String(), false
	case k < 10:
		vals := []string{"0", "1", "2"}
		if g.p(30) {
			vals = []string{"-1", "1", "3"}
		}
		which := "externChoose"
		if g.p(30) {
			which = "internChoose"
		}
		return g.lhs(sc) + " := " + which + "(" + strings.Join(vals[:2+g.n(2)], ", ") + ")", true
	case k < 12:
		if g.p(50) { // a bound that small values keep: fails after growth
			c := rop("<=", rv(g.pick(sc.ints)), rk(int64(2+g.n(3))))
			g.cand(sc, c)
			return "assert(" + c.String() + ")", false
		}
		return "assert(" + g.cmp(sc).String() + ")", false
	case k < 13:
		return "assume(" + g.cmp(sc).String() + ")", false
	case k < 15 && len(sc.bools) > 0:
		b := g.pick(sc.bools)
		if g.p(25) {
			return b + " := !" + b, false
		}
		return b + " := " + g.cmp(sc).String(), false
	case k < 16 && g.small && !sc.inv:
		if g.p(70) {
			return "small := " + g.atom(sc, false).String(), false // a range error out of 0..3
		}
		return g.pick(sc.ints) + " := small", false
	case k < 18 && g.m.Heap && !sc.inv:
		switch g.n(4) {
		case 0:
			return "p := p.next", false
		case 1:
			return g.pick([]string{"p := q", "q := p"}), false
		case 2:
			if g.p(40) {
				return "q := null", false // a null dereference when q is read through
			}
			return "q := q.next", false
		}
		return g.pick([]string{"p.next := q", "q.next := p", "p.next := p"}), false
	}
	return g.pick(sc.ints) + " := " + g.intExpr(sc).String(), false
}

// predicates chooses 1..Preds predicates, without repetition: the
// model's comparisons in their contexts, the same in the context of a
// thread or function, comparisons of [record Cell] through this, and
// random ones.
func (g *rgen) predicates() {
	m := g.m
	n := 1 + g.n(g.o.Preds)
	seen := map[string]bool{}
	add := func(ctx string, e *rexp) {
		p := rpred{Ctx: ctx, E: e}
		if len(m.Preds) < n && !seen[p.String()] {
			seen[p.String()] = true
			m.Preds = append(m.Preds, p)
		}
	}
	ctxOf := func(proc string) string {
		switch proc {
		case "":
			return ""
		case "f":
			return "function f"
		}
		return "thread " + proc
	}
	var procs []string
	for name := range g.scopes {
		procs = append(procs, name)
	}
	slices.Sort(procs)
	for tries := 0; len(m.Preds) < n && tries < 30; tries++ {
		switch k := g.n(10); {
		case k < 5:
			ctx := g.pick(append([]string{""}, procs...))
			if cs := g.cands[ctx]; len(cs) > 0 {
				add(ctxOf(ctx), cs[g.n(len(cs))])
			}
		case k < 6 && len(g.cands[""]) > 0:
			// a global comparison seen from a thread or function
			add(ctxOf(g.pick(procs)), g.cands[""][g.n(len(g.cands[""]))])
		case k < 8 && m.Heap:
			this := rop("f", rop("this"))
			var r *rexp
			switch g.n(4) {
			case 0:
				r = rk(int64(g.n(3)))
			case 1:
				r = rv(g.pick(g.globals))
			case 2:
				r = rop("f", rop("nx", rop("this")))
			default:
				r = rop("+", rv(g.pick(g.globals)), rk(1))
			}
			add("record Cell", rop(g.cmpOp(), this, r))
		default:
			proc := g.pick(append([]string{""}, procs...))
			sc := &rscope{ints: g.globals}
			if proc != "" {
				sc = g.scopes[proc]
			}
			add(ctxOf(proc), g.cmp(sc))
		}
	}
	if len(m.Preds) == 0 {
		add("", rop(">", rv(g.globals[0]), rk(0)))
	}
}
