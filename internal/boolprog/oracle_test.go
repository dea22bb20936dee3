package boolprog

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"birch/internal/source"
)

// generated parses and resolves a generated program.
func generated(t *testing.T, seed uint64, recursive bool) (string, *source.FileSet, *Info) {
	t.Helper()
	text := String(genProgram(seed, recursive))
	fset := source.NewFileSet()
	prog, err := Parse(fset, fmt.Sprintf("gen%d.bp", seed), []byte(text))
	if err != nil {
		t.Fatalf("seed %d: generated program does not parse: %v\n%s", seed, err, text)
	}
	info, err := Resolve(fset, prog)
	if err != nil {
		t.Fatalf("seed %d: generated program does not resolve: %v\n%s", seed, err, text)
	}
	return text, fset, info
}

// The oracle is a second, independent semantics for programs without
// recursion and without goto: it computes, statement by statement on the
// tree, the set of states reachable after each statement (a collecting
// semantics), running each call's callee on the callee's entry states and
// memoising per (procedure, globals, arguments). It shares nothing with the
// checker but Resolve's tables.

type ostate struct{ g, l uint64 }

type oset map[ostate]bool

type oret struct{ g, rets uint64 }

type oracle struct {
	info   *Info
	failed bool
	memo   map[[4]uint64]map[oret]bool
	// With maxDepth > 0, calls deeper than maxDepth do not return: the
	// oracle under-approximates programs with recursion.
	maxDepth, depth int
}

func (o *oracle) value(x *Ident, s ostate) bool {
	v := o.info.Uses[x]
	if v.Global() {
		return s.g>>v.Index&1 == 1
	}
	return s.l>>v.Index&1 == 1
}

func (o *oracle) with(x *Ident, s ostate, b bool) ostate {
	v := o.info.Uses[x]
	w := &s.l
	if v.Global() {
		w = &s.g
	}
	*w &^= 1 << v.Index
	if b {
		*w |= 1 << v.Index
	}
	return s
}

// values returns the values e can take in s.
func (o *oracle) values(e Expr, s ostate) []bool {
	switch e := e.(type) {
	case *Ident:
		return []bool{o.value(e, s)}
	case *Const:
		return []bool{e.Value}
	case *Nondet:
		return []bool{false, true}
	case *Choose:
		var out []bool
		for _, t := range o.values(e.True, s) {
			if t {
				out = append(out, true)
				continue
			}
			for _, f := range o.values(e.False, s) {
				if f {
					out = append(out, false)
				} else {
					out = append(out, false, true)
				}
			}
		}
		return out
	case *Unary:
		var out []bool
		for _, x := range o.values(e.X, s) {
			out = append(out, !x)
		}
		return out
	case *Binary:
		var out []bool
		for _, x := range o.values(e.X, s) {
			for _, y := range o.values(e.Y, s) {
				var r bool
				switch e.Op {
				case Implies:
					r = !x || y
				case Or:
					r = x || y
				case Xor:
					r = x != y
				case And:
					r = x && y
				case Eq:
					r = x == y
				case Neq:
					r = x != y
				}
				out = append(out, r)
			}
		}
		return out
	}
	panic("oracle: unexpected expression")
}

func (o *oracle) may(e Expr, s ostate, want bool) bool {
	for _, v := range o.values(e, s) {
		if v == want {
			return true
		}
	}
	return false
}

// tuples returns every combination of the values of list in s.
func (o *oracle) tuples(list []Expr, s ostate) [][]bool {
	out := [][]bool{nil}
	for _, e := range list {
		var next [][]bool
		for _, prefix := range out {
			for _, v := range o.values(e, s) {
				next = append(next, append(append([]bool(nil), prefix...), v))
			}
		}
		out = next
	}
	return out
}

func bits(vals []bool) uint64 {
	var w uint64
	for i, b := range vals {
		if b {
			w |= 1 << i
		}
	}
	return w
}

func (o *oracle) filter(pi *ProcInfo, in oset) oset {
	if pi.Proc.Enforce == nil {
		return in
	}
	out := oset{}
	for s := range in {
		if o.may(pi.Proc.Enforce, s, true) {
			out[s] = true
		}
	}
	return out
}

// call returns the (globals, results) pairs with which pi returns when
// entered with globals g and parameter bits p.
func (o *oracle) call(pi *ProcInfo, g, p uint64) map[oret]bool {
	key := [4]uint64{uint64(pi.Index), g, p, uint64(o.depth)}
	if r, ok := o.memo[key]; ok {
		return r
	}
	if o.maxDepth > 0 && o.depth >= o.maxDepth {
		return nil
	}
	o.depth++
	defer func() { o.depth-- }()
	np := len(pi.Proc.Params)
	in := oset{}
	for x := uint64(0); x < 1<<(len(pi.Vars)-np); x++ {
		in[ostate{g, p | x<<np}] = true
	}
	rets := map[oret]bool{}
	out := o.filter(pi, o.list(pi, pi.Proc.Body, in, rets))
	for s := range out {
		for r := uint64(0); r < 1<<pi.Proc.Returns; r++ {
			rets[oret{s.g, r}] = true
		}
	}
	o.memo[key] = rets
	return rets
}

func (o *oracle) list(pi *ProcInfo, list []Stmt, in oset, rets map[oret]bool) oset {
	for _, s := range list {
		in = o.stmt(pi, s, in, rets)
	}
	return in
}

func (o *oracle) stmt(pi *ProcInfo, st Stmt, in oset, rets map[oret]bool) oset {
	if l, ok := st.(*LabeledStmt); ok {
		return o.stmt(pi, l.Stmt, in, rets)
	}
	in = o.filter(pi, in)
	out := oset{}
	switch st := st.(type) {
	case *SkipStmt:
		return in
	case *AssignStmt:
		for s := range in {
			for _, vals := range o.tuples(st.Rhs, s) {
				t := s
				for i, x := range st.Lhs {
					t = o.with(x, t, vals[i])
				}
				out[t] = true
			}
		}
	case *CallStmt:
		callee := o.info.Callees[st]
		for s := range in {
			for _, args := range o.tuples(st.Args, s) {
				for r := range o.call(callee, s.g, bits(args)) {
					t := ostate{r.g, s.l}
					for i, x := range st.Lhs {
						t = o.with(x, t, r.rets>>i&1 == 1)
					}
					out[t] = true
				}
			}
		}
	case *AssumeStmt:
		for s := range in {
			if o.may(st.Cond, s, true) {
				out[s] = true
			}
		}
	case *AssertStmt:
		for s := range in {
			if o.may(st.Cond, s, false) {
				o.failed = true
			}
			if o.may(st.Cond, s, true) {
				out[s] = true
			}
		}
	case *ReturnStmt:
		for s := range in {
			for _, vals := range o.tuples(st.Results, s) {
				rets[oret{s.g, bits(vals)}] = true
			}
		}
	case *IfStmt:
		thenIn, elseIn := oset{}, oset{}
		for s := range in {
			if o.may(st.Cond, s, true) {
				thenIn[s] = true
			}
			if o.may(st.Cond, s, false) {
				elseIn[s] = true
			}
		}
		for s := range o.list(pi, st.Then, thenIn, rets) {
			out[s] = true
		}
		for s := range o.list(pi, st.Else, elseIn, rets) {
			out[s] = true
		}
	case *WhileStmt:
		head := oset{}
		pending := in
		for {
			bodyIn := oset{}
			for s := range o.filter(pi, pending) {
				if head[s] {
					continue
				}
				head[s] = true
				if o.may(st.Cond, s, true) {
					bodyIn[s] = true
				}
			}
			if len(bodyIn) == 0 {
				break
			}
			pending = o.list(pi, st.Body, bodyIn, rets)
		}
		for s := range head {
			if o.may(st.Cond, s, false) {
				out[s] = true
			}
		}
	default:
		panic(fmt.Sprintf("oracle: unexpected statement %T", st))
	}
	return out
}

// oracleFails reports whether some assertion can fail from main in an
// execution whose calls nest at most maxDepth deep (0: no bound, for
// programs without recursion).
func oracleFails(info *Info, maxDepth int) bool {
	o := &oracle{info: info, memo: map[[4]uint64]map[oret]bool{}, maxDepth: maxDepth}
	m := info.Main
	for g := uint64(0); g < 1<<len(info.Globals); g++ {
		for p := uint64(0); p < 1<<len(m.Proc.Params); p++ {
			o.call(m, g, p)
		}
	}
	return o.failed
}

// ---------------------------------------------------------------------------
// Random programs: no recursion (procedure i calls only procedures after
// it), no goto.

type gen struct {
	r         *rand.Rand
	recursive bool // calls may go to any procedure
	det       bool // generate expressions without * and schoose
	procs     []*Proc
	scope     []string // variables in scope in the procedure being generated
	cur       int
}

func id(name string) *Ident { return &Ident{Name: name} }

func (g *gen) expr(depth int) Expr {
	k := g.r.IntN(10)
	if depth <= 0 && k >= 6 {
		k = g.r.IntN(6)
	}
	switch {
	case k < 3 && len(g.scope) > 0:
		return id(g.scope[g.r.IntN(len(g.scope))])
	case k < 4:
		return &Const{Value: g.r.IntN(2) == 0}
	case k < 5 && !g.det:
		return &Nondet{}
	case k < 6:
		return &Unary{X: g.expr(depth - 1)}
	case k < 7 && !g.det:
		return &Choose{True: g.expr(depth - 1), False: g.expr(depth - 1)}
	}
	return &Binary{X: g.expr(depth - 1), Op: Op(1 + g.r.IntN(6)), Y: g.expr(depth - 1)}
}

// distinct returns n distinct variables in scope, or nil when there are
// fewer.
func (g *gen) distinct(n int) []*Ident {
	if n > len(g.scope) {
		return nil
	}
	var out []*Ident
	for _, i := range g.r.Perm(len(g.scope))[:n] {
		out = append(out, id(g.scope[i]))
	}
	return out
}

func (g *gen) stmts(depth int) []Stmt {
	n := 1 + g.r.IntN(3)
	out := make([]Stmt, n)
	for i := range out {
		out[i] = g.stmt(depth)
	}
	return out
}

func (g *gen) stmt(depth int) Stmt {
	for {
		switch k := g.r.IntN(20); {
		case k < 6:
			lhs := g.distinct(1 + g.r.IntN(2))
			if lhs == nil {
				continue
			}
			s := &AssignStmt{Lhs: lhs}
			for range lhs {
				s.Rhs = append(s.Rhs, g.expr(2))
			}
			return s
		case k < 9:
			var callee *Proc
			switch {
			case g.recursive:
				callee = g.procs[g.r.IntN(len(g.procs))]
			case g.cur+1 < len(g.procs):
				callee = g.procs[g.cur+1+g.r.IntN(len(g.procs)-g.cur-1)]
			default:
				continue
			}
			s := &CallStmt{Proc: id(callee.Name.Name)}
			for range callee.Params {
				s.Args = append(s.Args, g.expr(1))
			}
			if callee.Returns > 0 && g.r.IntN(4) > 0 {
				s.Lhs = g.distinct(callee.Returns)
			}
			return s
		case k < 10:
			return &AssumeStmt{Cond: g.expr(2)}
		case k < 13:
			// Deterministic conditions, so that most assertions fail only
			// in some states.
			g.det = true
			defer func() { g.det = false }()
			return &AssertStmt{Cond: g.expr(2)}
		case k < 15:
			if depth <= 0 {
				continue
			}
			s := &IfStmt{Cond: g.expr(1), Then: g.stmts(depth - 1)}
			if g.r.IntN(2) == 0 {
				s.Else = g.stmts(depth - 1)
			}
			return s
		case k < 17:
			if depth <= 0 {
				continue
			}
			return &WhileStmt{Cond: g.expr(1), Body: g.stmts(depth - 1)}
		case k < 18:
			s := &ReturnStmt{}
			for range g.procs[g.cur].Returns {
				s.Results = append(s.Results, g.expr(1))
			}
			return s
		default:
			return &SkipStmt{}
		}
	}
}

func genProgram(seed uint64, recursive bool) *Program {
	g := &gen{r: rand.New(rand.NewPCG(seed, 18)), recursive: recursive}
	prog := &Program{}
	var globals []string
	if n := g.r.IntN(3); n > 0 {
		d := &Decl{}
		for i := range n {
			globals = append(globals, fmt.Sprintf("g%d", i))
			d.Names = append(d.Names, id(globals[i]))
		}
		prog.Globals = []*Decl{d}
	}
	nprocs := 1 + g.r.IntN(3)
	for i := range nprocs {
		p := &Proc{Name: id(fmt.Sprintf("p%d", i))}
		if i == 0 {
			p.Name = id("main")
		} else {
			p.Returns = g.r.IntN(3)
		}
		for j := range g.r.IntN(3) {
			p.Params = append(p.Params, id(fmt.Sprintf("a%d", j)))
		}
		if n := g.r.IntN(3); n > 0 {
			d := &Decl{}
			for j := range n {
				d.Names = append(d.Names, id(fmt.Sprintf("l%d", j)))
			}
			p.Locals = []*Decl{d}
		}
		g.procs = append(g.procs, p)
	}
	for i, p := range g.procs {
		g.cur = i
		g.scope = append([]string(nil), globals...)
		for _, x := range p.Params {
			g.scope = append(g.scope, x.Name)
		}
		for _, d := range p.Locals {
			for _, x := range d.Names {
				g.scope = append(g.scope, x.Name)
			}
		}
		if g.r.IntN(6) == 0 {
			p.Enforce = g.expr(1)
		}
		p.Body = g.stmts(2)
	}
	prog.Procs = g.procs
	return prog
}

// TestExplicitAgreesWithOracle generates small programs without recursion
// and goto, and checks that the checker's verdict is the oracle's, and that
// each violation comes with a trail ending at an assertion.
func TestExplicitAgreesWithOracle(t *testing.T) {
	const n = 2000
	verdicts := map[Verdict]int{}
	for seed := uint64(0); seed < n; seed++ {
		text, fset, info := generated(t, seed, false)
		name := fmt.Sprintf("gen%d.bp", seed)
		res := CheckExplicit(fset, info, Limits{})
		want := Pass
		if oracleFails(info, 0) {
			want = Fail
		}
		verdicts[res.Verdict]++
		if res.Verdict != want {
			t.Errorf("seed %d: checker %v, oracle %v\n%s", seed, res.Verdict, want, text)
			continue
		}
		if res.Verdict == Fail {
			checkTrailEnds(t, name, fset, info, res)
		}
	}
	if verdicts[Pass] < n/10 || verdicts[Fail] < n/10 {
		t.Errorf("the generator gives too one-sided a mix: %v", verdicts)
	}
	t.Logf("verdicts: pass %d, fail %d", verdicts[Pass], verdicts[Fail])
}

// TestExplicitRecursiveGenerated generates small programs whose calls may
// recurse: every violation the checker reports must replay as an execution,
// and every violation the depth-bounded oracle finds (calls nested at most
// four deep) must be reported.
func TestExplicitRecursiveGenerated(t *testing.T) {
	const n = 1000
	verdicts := map[Verdict]int{}
	beyond := 0
	for seed := uint64(0); seed < n; seed++ {
		text, fset, info := generated(t, seed, true)
		name := fmt.Sprintf("gen%d.bp", seed)
		res := CheckExplicit(fset, info, Limits{})
		verdicts[res.Verdict]++
		bounded := oracleFails(info, 4)
		switch {
		case res.Verdict == Inconclusive:
			t.Errorf("seed %d: inconclusive: %s", seed, res.Reason)
		case res.Verdict == Pass && bounded:
			t.Errorf("seed %d: checker passes, the bounded oracle finds a violation\n%s", seed, text)
		case res.Verdict == Fail:
			checkTrailEnds(t, name, fset, info, res)
			if !bounded {
				beyond++
			}
		}
	}
	if verdicts[Pass] < n/10 || verdicts[Fail] < n/10 {
		t.Errorf("the generator gives too one-sided a mix: %v", verdicts)
	}
	t.Logf("verdicts: pass %d, fail %d (%d of them beyond the oracle's depth)", verdicts[Pass], verdicts[Fail], beyond)
}
