package promela

import (
	"errors"
	"fmt"
	"strings"

	"birch/internal/bir/ast"
	"birch/internal/bir/token"
	"birch/internal/bir/types"
	"birch/internal/ltl"
)

// Formula is an LTL property to emit as an `ltl` block: pan checks it with
// an acceptance-cycle search (pan -a -N Name).
type Formula struct {
	Name string    // the block's name (a Promela identifier is made of it)
	Spec *ltl.Spec // the formula over the model's propositions
}

// The properties of a translation (docs/promela.md, "Properties"):
//
//   - Invariants are checked by a monitor process, the last active
//     proctype, whose only statement is
//     `end_monitor: atomic { !(INV) -> assert(...) }`. It is blocked in
//     every state where the invariants hold, so it adds no state and no
//     deadlock; SPIN's processes never interleave inside the atomic steps
//     of the threads, so the monitor sees exactly the states birch stores,
//     the initial one included. It is the last process because remote
//     references (location tests, remote locals) must come after the
//     proctypes they name; its pid shifts the pids of started threads by
//     one (meExpr, nThreadsExpr).
//   - LTL formulas become `ltl` blocks over macros BIR_P_k, one per
//     proposition; SPIN builds their never claims itself, an independent
//     translation. A claim moves only between atomic steps, so it reads the
//     states birch stores. With limits of the model, the formula is
//     `<> BIR_cut || (f)`: a step that hits a bound sets BIR_cut, after
//     which the claim of the negation is blocked (birch cuts such a path).

// remoteCtx is the thread a remote reference of a property reads: properties are read by the
// monitor or a never claim, not by a thread, so a thread's locals are
// remote references and the asking thread is the remote one.
type remoteCtx struct {
	proc *types.Proc
	ref  string // "T[pid]"
	tid  string // the thread's tid
	// pid is the thread's pid; with inC set, its locals are named
	// remoteMarker + name, for cExpr to reach through SPIN's process
	// table (remoteToC)
	pid int
	inC bool
}

// remoteMarker prefixes the locals of a remote thread in an expression
// that remoteToC converts to C.
const remoteMarker = "BIR_rl_"

// errRemoteC says that a remote reference reads an array or a lock of the
// thread, which SPIN's remote references cannot: it is translated again
// for embedded C.
var errRemoteC = errors.New("a remote reference to an array or a lock")

// invariants returns the invariants the translation checks.
func (g *gen) invariants() []*types.Property {
	if g.opts.NoInvariants {
		return nil
	}
	if g.opts.Invariants != nil {
		return g.opts.Invariants
	}
	var out []*types.Property
	for _, p := range g.prog.Properties {
		if !p.LTL {
			out = append(out, p)
		}
	}
	return out
}

// scanProps decides what the properties need before anything is emitted:
// the monitor process, the table of started threads' procs.
func (g *gen) scanProps() error {
	invs := g.invariants()
	g.monitor = len(invs) > 0
	var exprs []ast.Expr
	for _, p := range invs {
		exprs = append(exprs, p.Decl.Expr)
	}
	for _, f := range g.opts.Formulas {
		if f.Spec == nil {
			return fmt.Errorf("promela: formula %s has no specification", f.Name)
		}
		for _, p := range f.Spec.Props {
			exprs = append(exprs, p.Expr)
		}
	}
	seen := map[*types.Predicate]bool{}
	var walk func(e ast.Expr)
	walk = func(e ast.Expr) {
		ast.Inspect(e, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.Ident:
				if p, ok := g.info.Uses[n].(*types.Predicate); ok && !seen[p] && p.Decl != nil {
					seen[p] = true
					walk(p.Decl.Expr)
				}
			case *ast.LocationTest:
				if t, ok := g.info.Uses[n.Thread].(*types.Proc); ok && t.Started {
					g.procTab = true
				}
			case *ast.RemoteRef:
				if t, ok := g.info.Uses[n.Thread].(*types.Proc); ok && t.Started {
					g.procTab = true
				}
			case *ast.BuiltinExpr:
				if n.Op == token.THREADTERMINATED {
					g.usesTerm = true
				}
			}
			return true
		})
	}
	for _, e := range exprs {
		walk(e)
	}
	if g.procTab && !g.hasStart {
		g.procTab = false
	}
	return nil
}

// meExpr is the tid of the running thread: its pid + 1, except for started
// threads when the monitor (whose pid comes right after the main threads')
// exists.
func (g *gen) meExpr() string {
	x := g.extraProcs()
	if x == 0 || !g.hasStart || g.thr == nil || !g.thr.Started {
		return "(_pid + 1)"
	}
	started := "_pid"
	if x > 1 {
		started = fmt.Sprintf("(_pid - %d)", x-1)
	}
	if !g.thr.Main {
		return started
	}
	return fmt.Sprintf("(_pid < %d -> _pid + 1 : %s)", g.nThreads, started)
}

// extraProcs counts the active processes that are no threads (the monitor,
// the stutter process): they come after the main threads.
func (g *gen) extraProcs() int {
	n := 0
	if g.monitor {
		n++
	}
	if len(g.opts.Formulas) > 0 {
		n++
	}
	return n
}

// myBitExpr is the running thread's bit in a set of threads (bit tid-1).
func (g *gen) myBitExpr() string {
	if me := g.meExpr(); me != "(_pid + 1)" {
		return "(1 << (" + me + " - 1))"
	}
	return "(1 << _pid)"
}

// nThreadsExpr is the number of threads that exist (the monitor is a
// process but no thread).
//
// In pan, _nr_pr also counts the never claim (in the verifier, not in
// SPIN's simulator): a translation with formulas is only right for a pan
// that runs one of its claims.
func (g *gen) nThreadsExpr() string {
	n := g.extraProcs()
	if len(g.opts.Formulas) > 0 {
		n++ // the claim
	}
	if n == 0 {
		return "_nr_pr"
	}
	return fmt.Sprintf("(_nr_pr - %d)", n)
}

// pidOfTid is the pid of the process of thread tid.
func (g *gen) pidOfTid(tid int) int {
	if tid > g.nThreads {
		return tid - 1 + g.extraProcs()
	}
	return tid - 1
}

// threadOfPid is the thread index (tid - 1) of a pid, or -1 for one of the
// extra processes (pids first .. first+n-1).
func threadOfPid(pid, first, n int) int {
	switch {
	case n == 0 || pid < first:
		return pid
	case pid < first+n:
		return -1
	}
	return pid - n
}

// procNum numbers the emitted threads from 1 for the table BIR_proc.
func (g *gen) procNum(t *types.Proc) int {
	for i, p := range g.emittedThreads() {
		if p == t {
			return i + 1
		}
	}
	return 0
}

// instances returns, for each tid an instance of t may have, the condition
// (in property context) that the thread with that tid is an instance of t.
func (g *gen) instances(t *types.Proc) (tids []int, conds []string) {
	if t.Main {
		tids = append(tids, g.tidOf(t))
		conds = append(conds, "true")
	}
	if t.Started && g.hasStart {
		for tid := g.nThreads + 1; tid <= g.maxTids; tid++ {
			tids = append(tids, tid)
			conds = append(conds, fmt.Sprintf("BIR_proc[%d] == %d", tid-1-g.nThreads, g.procNum(t)))
		}
	}
	return tids, conds
}

// instanceExpr translates the instance of a location test or remote
// reference: its Promela value ("" when there is none, the single instance
// or any) and whether null means any instance.
func (g *gen) instanceExpr(inst ast.Expr, en *env) (string, []check, error) {
	if inst == nil {
		return "", nil, nil
	}
	if lit, ok := ast.Unparen(inst).(*ast.BasicLit); ok && lit.Kind == token.NULL {
		return "", nil, nil
	}
	return g.expr(inst, en)
}

func (g *gen) locationTest(e *ast.LocationTest, en *env) (string, []check, error) {
	t, _ := g.info.Uses[e.Thread].(*types.Proc)
	loc, _ := g.info.Uses[e.Loc].(*types.Location)
	if t == nil || loc == nil {
		return "", nil, g.errorf(e.Pos(), "cannot translate this location test")
	}
	inst, cs, err := g.instanceExpr(e.Instance, en)
	if err != nil {
		return "", nil, err
	}
	label := g.locLabel(loc)
	var labels []string
	if len(loc.Decl.Transformations) > 0 {
		labels = append(labels, "L_"+label)
	} else {
		labels = append(labels, "end_"+label)
	}
	if hasExit(loc) {
		labels = append(labels, "end_exit_"+label)
	}
	tids, conds := g.instances(t)
	out := "false"
	for i, tid := range tids {
		ref := fmt.Sprintf("%s[%d]", g.names[t], g.pidOfTid(tid))
		at := "false"
		for _, l := range labels {
			at = or(at, ref+"@"+l)
		}
		c := and(conds[i], at)
		if inst != "" {
			c = and(fmt.Sprintf("(%s == 0 || %s == %d)", paren(inst), paren(inst), tid), c)
		}
		out = or(out, c)
	}
	return "(" + out + ")", cs, nil
}

func (g *gen) remoteRef(e *ast.RemoteRef, en *env) (string, []check, error) {
	t, _ := g.info.Uses[e.Thread].(*types.Proc)
	if t == nil {
		return "", nil, g.errorf(e.Pos(), "cannot translate this remote reference")
	}
	inst, cs, err := g.instanceExpr(e.Instance, en)
	if err != nil {
		return "", nil, err
	}
	tids, conds := g.instances(t)
	out := "0"
	if isBool(g.typeOf(e.X)) {
		out = "false"
	}
	// the names of the remote thread's array parameters (one scalar per
	// element), as elemPath finds them
	saved := g.scalarArr
	g.scalarArr = g.paramArr[t]
	defer func() { g.scalarArr = saved }()
	for i := len(tids) - 1; i >= 0; i-- {
		tid := tids[i]
		pid := g.pidOfTid(tid)
		ren := &env{prop: true, remote: &remoteCtx{proc: t, ref: fmt.Sprintf("%s[%d]", g.names[t], pid), tid: fmt.Sprint(tid), pid: pid}}
		v, vcs, err := g.expr(e.X, ren)
		if errors.Is(err, errRemoteC) {
			ren.remote.inC = true
			v, vcs, err = g.expr(e.X, ren)
			if err == nil {
				v, vcs, err = g.remoteToC(t, pid, v, vcs)
			}
			if err != nil {
				err = g.errorf(e.Pos(), "cannot translate this remote reference to embedded C: %v", err)
			}
		}
		if err != nil {
			return "", nil, err
		}
		c := conds[i]
		if inst != "" {
			c = and(fmt.Sprintf("%s == %d", paren(inst), tid), c)
		}
		cs = append(cs, under(c, vcs)...)
		switch {
		case c == "true":
			out = v
		case isBool(g.typeOf(e.X)):
			// the instances are exclusive: a disjunction, which SPIN's
			// ltl parser accepts (it has no conditional expressions)
			out = or(and(c, v), out)
		default:
			out = fmt.Sprintf("(%s -> %s : %s)", c, v, out)
		}
	}
	if out == "false" {
		out = "0"
	}
	return out, cs, nil
}

// remoteVar names a local of the remote thread: T[pid]:x for a scalar;
// an array or a lock fails with errRemoteC (SPIN's remote references read
// scalar locals only: P[0]:a[1] does not parse), and remoteRef translates
// the reference again with inC set, for remoteToC.
func (g *gen) remoteVar(v *types.Var, en *env, pos ast.Node) (string, error) {
	if en.remote.inC {
		return remoteMarker + g.names[v], nil
	}
	if g.scalar(v.Type()) == "" {
		return "", errRemoteC
	}
	return en.remote.ref + ":" + g.names[v], nil
}

// remoteToC converts the value and the checks of a remote reference read
// with inC to embedded C: each is a c_expr that reads the locals of the
// process pid, of proctype t, in pan's process table. SPIN compiles its
// own remote reference T[pid]:x to ((P<n> *)Pptr(BASE+pid))->x (BASE is 1
// in a verifier with a never claim, which is process 0); __typeof__(PT)
// is that pointer type, whatever n the proctype has. The guards of the
// instance (its proc in BIR_proc) stay in Promela around the c_expr, so
// the process exists where it is read.
func (g *gen) remoteToC(t *types.Proc, pid int, v string, cs []check) (string, []check, error) {
	n := g.cNames(0)
	n.remote = fmt.Sprintf("((__typeof__(P%s))Pptr(BASE + %d))", g.names[t], pid)
	conv := func(s string) (string, error) {
		if !strings.Contains(s, remoteMarker) {
			return s, nil
		}
		c, err := cExpr(s, n)
		if err != nil {
			return "", err
		}
		return "c_expr { (" + c + ") }", nil
	}
	v, err := conv(v)
	if err != nil {
		return "", nil, err
	}
	out := make([]check, len(cs))
	for i, c := range cs {
		cond, err := conv(c.cond)
		if err != nil {
			return "", nil, err
		}
		out[i] = check{cond: cond, kind: c.kind}
	}
	return v, out, nil
}

func isBool(t types.Type) bool {
	b, ok := t.Underlying().(*types.Basic)
	return ok && b.Kind == types.Bool
}

func hasExit(loc *types.Location) bool {
	for _, tr := range loc.Decl.Transformations {
		for _, a := range tr.Actions {
			if _, ok := a.(*ast.ExitAction); ok {
				return true
			}
		}
	}
	return false
}

// propExpr translates a boolean expression of a property: its value and
// the condition that it evaluates without a runtime error.
func (g *gen) propExpr(e ast.Expr) (string, []check, error) {
	return g.expr(e, &env{prop: true})
}

// emitMonitor writes the monitor process of the invariants.
func (g *gen) emitMonitor() error {
	invs := g.invariants()
	if len(invs) == 0 {
		return nil
	}
	g.thr = nil
	cond := "true"
	var stmts []string
	g.p("/* the invariants, checked in every state (the monitor is blocked while they hold;\n")
	g.p("   it never runs inside the atomic steps of the threads) */\n")
	for i, p := range invs {
		v, cs, err := g.propExpr(p.Decl.Expr)
		if err != nil {
			return err
		}
		name := fmt.Sprintf("BIR_I_%d", i)
		g.p("#define %s (%s) /* invariant %s */\n", name, v, p.Name())
		cond = and(cond, and(okOf(cs), name))
		// the kind comes first: pan shortens long assertions in its report
		for _, c := range cs {
			stmts = append(stmts, fmt.Sprintf("assert(%s || %s)", KindVar(c.kind), paren(c.cond)))
		}
		stmts = append(stmts, fmt.Sprintf("assert(%s || %s) /* invariant %s */", KindVar("invariant"), name, p.Name()))
	}
	g.p("active proctype BIR_monitor() {\n")
	g.p("end_monitor:\n  atomic { !(%s) ->\n", cond)
	for _, s := range stmts {
		g.p("    %s;\n", s)
	}
	g.p("  }\n}\n\n")
	return nil
}

// emitFormulas writes the ltl blocks.
func (g *gen) emitFormulas() error {
	if len(g.opts.Formulas) == 0 {
		return nil
	}
	g.thr = nil
	// pan's own stutter extension is not seen by its weak fairness (-f),
	// which then misses fair runs that end in a terminal state: a process
	// repeats such a state instead, enabled exactly when no thread can move
	g.p("/* a state where no thread can move repeats forever (birch's stutter step) */\n")
	g.p("active proctype BIR_stutter() {\nend_stutter:\n  do\n  :: timeout -> skip\n  od\n}\n\n")
	macro := map[string]string{}
	conditional := map[string]bool{} // macros SPIN's ltl parser cannot read
	size := map[string]int{}
	g.p("/* the propositions of the ltl properties */\n")
	for _, f := range g.opts.Formulas {
		for _, p := range f.Spec.Props {
			if _, done := macro[p.Text]; done {
				continue
			}
			v, cs, err := g.propExpr(p.Expr)
			if err != nil {
				return err
			}
			name := fmt.Sprintf("BIR_P_%d", len(macro))
			macro[p.Text] = name
			if len(cs) > 0 {
				// a proposition that fails to evaluate is false here
				// (birch reports the error; docs/promela.md)
				v = fmt.Sprintf("(%s -> %s : false)", okOf(cs), paren(v))
			}
			conditional[name] = strings.Contains(v, " -> ") || strings.Contains(v, "c_expr")
			size[name] = len(v)
			g.p("#define %s (%s) /* %s */\n", name, v, strings.ReplaceAll(p.Text, "*/", "* /"))
		}
	}
	g.p("\n")
	for _, f := range g.opts.Formulas {
		prop := func(i int) string { return macro[f.Spec.Props[i].Text] }
		own := f.Spec.Formula.HasNext()
		for _, i := range f.Spec.Formula.Atoms() {
			own = own || conditional[prop(i)]
		}
		// SPIN's ltl parser reads the formula with the macros expanded
		// into a buffer of limited size
		n := 0
		spinFormula(f.Spec.Formula, func(i int) string { n += size[prop(i)]; return "" })
		own = own || n > maxLTLText
		if own {
			if err := g.emitNever(f, prop); err != nil {
				return err
			}
			continue
		}
		body := spinFormula(f.Spec.Formula, prop)
		if g.anyLimit {
			body = "<> BIR_cut || " + body
		}
		g.p("/* %s */\n", strings.ReplaceAll(f.Spec.String(), "*/", "* /"))
		g.p("ltl %s { %s }\n", ClaimName(f.Name), body)
	}
	return nil
}

// emitNever writes the never claim of a formula SPIN's ltl blocks do not
// accept — with X (Debian's SPIN is built without the next operator), or
// with a proposition that needs a conditional expression: birch's own Büchi automaton for the negation, degeneralized,
// with `accept_` labels on its accepting states. With limits of the
// model, every edge also requires !BIR_cut.
func (g *gen) emitNever(f Formula, prop func(int) string) error {
	tgba, err := ltl.Translate(ltl.Un(ltl.Not, f.Spec.Formula), f.Spec.Names())
	if err != nil {
		return err
	}
	a := ltl.Degeneralize(tgba)
	order := []int{a.Init} // the initial state comes first
	for q := range a.States {
		if q != a.Init {
			order = append(order, q)
		}
	}
	label := func(q int) string {
		if a.Accepting(q) {
			return fmt.Sprintf("accept_S%d", q)
		}
		return fmt.Sprintf("T_S%d", q)
	}
	g.p("/* %s: birch's automaton for the negation (SPIN's ltl has no X, no conditional\n   expressions, and reads formulas of limited length) */\n", strings.ReplaceAll(f.Spec.String(), "*/", "* /"))
	g.p("never %s {\n", ClaimName(f.Name))
	for _, q := range order {
		g.p("%s:\n", label(q))
		if len(a.States[q].Edges) == 0 {
			g.p("  false;\n")
			continue
		}
		g.p("  if\n")
		for _, e := range a.States[q].Edges {
			cond := "true"
			if g.anyLimit {
				cond = "!BIR_cut"
			}
			for i := range f.Spec.Props {
				switch {
				case e.Pos&(1<<uint(i)) != 0:
					cond = and(cond, prop(i))
				case e.Neg&(1<<uint(i)) != 0:
					cond = and(cond, "!"+prop(i))
				}
			}
			if cond == "true" {
				cond = "(1)"
			}
			g.p("  :: %s -> goto %s\n", cond, label(e.To))
		}
		g.p("  fi;\n")
	}
	g.p("}\n")
	return nil
}

// maxLTLText bounds the text of an ltl block, macros expanded, that is
// left to SPIN's ltl parser.
const maxLTLText = 1500

// ClaimName is the name of the ltl block of a property named name.
func ClaimName(name string) string {
	var b strings.Builder
	for i := 0; i < len(name); i++ {
		if isIdentChar(name[i]) {
			b.WriteByte(name[i])
		} else {
			b.WriteByte('_')
		}
	}
	s := strings.Trim(b.String(), "_")
	if s == "" {
		s = "property"
	}
	return "ltl_" + s
}

// spinFormula prints a formula in SPIN's ltl syntax (fully parenthesized).
func spinFormula(f *ltl.Formula, prop func(int) string) string {
	un := func(op string) string { return op + " (" + spinFormula(f.L, prop) + ")" }
	bin := func(op string) string {
		return "(" + spinFormula(f.L, prop) + " " + op + " " + spinFormula(f.R, prop) + ")"
	}
	switch f.Op {
	case ltl.True:
		return "true"
	case ltl.False:
		return "false"
	case ltl.Atom:
		return prop(f.Atom)
	case ltl.Not:
		return un("!")
	case ltl.Next:
		return un("X")
	case ltl.Always:
		return un("[]")
	case ltl.Eventually:
		return un("<>")
	case ltl.And:
		return bin("&&")
	case ltl.Or:
		return bin("||")
	case ltl.Implies:
		return bin("->")
	case ltl.Iff:
		return bin("<->")
	case ltl.Until:
		return bin("U")
	case ltl.Release:
		return bin("V")
	case ltl.WeakUntil:
		return bin("W")
	}
	return "false"
}
