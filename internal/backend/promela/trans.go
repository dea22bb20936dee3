package promela

import (
	"errors"
	"fmt"
	"strings"

	"birch/internal/bir/ast"
	"birch/internal/bir/format"
	"birch/internal/bir/token"
	"birch/internal/bir/types"
	"birch/internal/source"
)

// itemKind classifies the conditions a transformation meets on its way.
type itemKind int

const (
	itemCheck   itemKind = iota // a runtime error unless cond holds
	itemDisable                 // the transformation is disabled unless cond holds
	itemLimit                   // a bound is hit (the path is cut) if cond holds
	itemChoice                  // a symbolic choice is made here (symbolic.go)
)

type item struct {
	kind itemKind
	cond string
	// for itemLimit: birch's message and the position of the action
	msg string
	pos source.Pos
}

func limitItem(cond string, pos source.Pos, format string, args ...any) item {
	return item{kind: itemLimit, cond: cond, msg: fmt.Sprintf(format, args...), pos: pos}
}

// limitCode is one way a transformation hits a bound: when cond holds
// before the step, the path is cut there with birch's message msg.
type limitCode struct {
	cond string
	msg  string
	pos  source.Pos
}

// altCode is one Promela alternative of a location: one transformation
// with one combination of statically expanded choices.
type altCode struct {
	tr        *ast.Transformation
	from      *types.Location
	entry     string      // executable when the transformation has an outcome other than a limit
	limits    []limitCode // the bounds the path may hit first, mutually exclusive
	body      []string
	target    *types.Location
	invisible bool
	exit      bool        // the body ends with exit
	callee    *types.Proc // the body ends with a call of callee
	ret       bool        // a return: the body pops the frame
	// void is set for an option of an expanded choice that is never
	// taken: the choice is made inside the step by another option
	void bool
	// imprecise is set when a check was left out of the entry condition
	// (it reads a value chosen inside the step) before a disabling
	// condition or a bound
	imprecise bool
	// pre chooses the values of the symbolic choices at the start of the
	// block; cfns are the C functions its conditions call (symbolic.go)
	pre  []string
	cfns []cfn
	nsym int
}

func and(a, b string) string {
	switch {
	case a == "true":
		return b
	case b == "true":
		return a
	case a == "false" || b == "false":
		return "false"
	}
	return paren(a) + " && " + paren(b)
}

func or(a, b string) string {
	switch {
	case a == "false":
		return b
	case b == "false":
		return a
	case a == "true" || b == "true":
		return "true"
	}
	return paren(a) + " || " + paren(b)
}

func not(a string) string {
	switch a {
	case "true":
		return "false"
	case "false":
		return "true"
	}
	return "!" + paren(a)
}

// entries computes the entry condition and the limit conditions from the
// items in order: the path reaches item k when every check before it holds
// (an error ends the path), no disabling condition fails and no earlier
// bound is hit.
func entries(items []item) (entry string, limits []limitCode) {
	entry = foldEntry(items, "true")
	// reach is folded only as far as the last bound: the checks after it
	// bear on no bound, and folding them anyway took time cubic in the
	// length of a chain such as a + b + c + … (one overflow check each).
	reach, folded := "true", 0
	for k, it := range items {
		if it.kind != itemLimit {
			continue
		}
		for _, before := range items[folded:k] {
			if before.kind == itemCheck || before.kind == itemDisable {
				reach = and(reach, before.cond)
			}
		}
		if c := and(reach, it.cond); c != "false" {
			limits = append(limits, limitCode{cond: c, msg: it.msg, pos: it.pos})
		}
		reach = and(reach, not(it.cond))
		folded = k + 1
	}
	return entry, limits
}

// limitCond is the condition that some bound is hit.
func limitCond(ls []limitCode) string {
	s := "false"
	for _, l := range ls {
		s = or(s, l.cond)
	}
	return s
}

func assertStmts(cs []check) []string {
	var out []string
	for _, c := range cs {
		out = append(out, fmt.Sprintf("assert(%s || %s)", paren(c.cond), KindVar(c.kind)))
	}
	return out
}

func checkItems(cs []check) []item {
	var out []item
	for _, c := range cs {
		out = append(out, item{kind: itemCheck, cond: c.cond})
	}
	return out
}

func (g *gen) thread(t *types.Proc) error {
	g.proc = t
	g.thr = t
	g.iLocs = map[*types.Location]bool{}
	g.locAlts = map[*types.Location][]*altCode{}
	g.exitLocs = map[*types.Location]bool{}
	g.usesReach = false
	g.usesChoice = false
	g.symMax = 0
	taken := map[string]bool{}
	for _, v := range t.Vars() {
		n := ident(v.Name())
		if g.globalNS[n] {
			n = "l_" + n
		}
		g.names[v] = n
		taken[n] = true
	}
	g.scalarArr = map[string][]string{}
	for _, v := range t.Params {
		arr, ok := v.Type().Underlying().(*types.Array)
		if !ok || t.Main {
			continue
		}
		// a row of a nested array is a name of scalarArr too (never
		// emitted), whose elements are the scalars
		var split func(name string, arr *types.Array)
		split = func(name string, arr *types.Array) {
			es := make([]string, arr.Len)
			for k := range es {
				n := fmt.Sprintf("%s_%d", name, k)
				for taken[n] || g.globalNS[n] {
					n += "_"
				}
				taken[n] = true
				es[k] = n
				if row, ok := arr.Elem.Underlying().(*types.Array); ok {
					split(n, row)
				}
			}
			g.scalarArr[name] = es
		}
		split(g.names[v], arr)
	}
	g.paramArr[t] = g.scalarArr // for remote references (remoteRef)
	// the thread and the functions it may call: each process holds a copy
	// of the code of every function its thread may call
	depth := g.frameDepths(t)
	procs := []*types.Proc{t}
	for _, f := range g.prog.Functions {
		if depth[f] > 0 {
			procs = append(procs, f)
		}
	}
	g.procs = procs
	for _, p := range procs {
		for _, loc := range p.Locations {
			for _, tr := range loc.Decl.Transformations {
				if !tr.Invisible {
					continue
				}
				for _, tgt := range g.arrivals(tr, procs) {
					if len(tgt.Decl.Transformations) > 0 {
						g.iLocs[tgt] = true
					}
				}
			}
		}
	}
	for _, p := range procs {
		g.proc = p
		for _, loc := range p.Locations {
			for _, tr := range loc.Decl.Transformations {
				alts, err := g.transformation(loc, tr)
				if err != nil {
					return err
				}
				g.locAlts[loc] = append(g.locAlts[loc], alts...)
			}
		}
	}
	g.proc = t
	for _, alts := range g.locAlts {
		for _, a := range alts {
			g.symMax = max(g.symMax, a.nsym)
		}
	}

	first := t.Locations[0]
	// a bound hit inside an invisible run (after its first transformation)
	// restores the thread's variables saved at the start of the run and
	// returns to the location the run started from: the step leads back to
	// the state before the run, as birch cuts the run's path there
	savePlain, saveLoops := g.runSaves(procs, depth)
	saved := savePlain != nil
	fromOf := map[*types.Location]int{}
	if saved {
		for _, p := range procs {
			for _, loc := range p.Locations {
				for _, a := range g.locAlts[loc] {
					if a.invisible && fromOf[loc] == 0 {
						fromOf[loc] = len(fromOf) + 1
					}
				}
			}
		}
		save, n := saveCode(savePlain, saveLoops, false)
		restore, _ := saveCode(savePlain, saveLoops, true)
		g.saveLen = max(g.saveLen, n)
		name := g.names[t]
		g.p("/* the variables of %s at the start of an invisible run, restored when a bound is hit inside it */\n", t.Name())
		g.p("inline BIR_save_%s() {\n", name)
		for _, st := range save {
			g.p("  %s;\n", st)
		}
		g.p("}\n")
		g.p("inline BIR_restore_%s() {\n", name)
		for _, st := range restore {
			g.p("  %s;\n", st)
		}
		g.p("  if\n")
		for _, p := range procs {
			for _, loc := range p.Locations {
				if k := fromOf[loc]; k > 0 {
					g.p("  :: BIR_from == %d -> goto L_%s\n", k, g.locLabel(loc))
				}
			}
		}
		g.p("  fi\n}\n\n")
	}
	if t.Main {
		g.p("/* thread %s (tid %d) */\n", t.Name(), g.tidOf(t))
		g.p("active proctype %s() {\n", g.names[t])
	} else {
		// started with run: the pid is the creation index, the tid _pid + 1
		var params []string
		for _, v := range t.Params {
			if arr, ok := v.Type().Underlying().(*types.Array); ok {
				// one scalar parameter per element
				s := g.scalar(leafType(arr))
				if s == "" {
					return g.errorf(v.Pos(), "thread parameters of type %s are not supported", v.Type())
				}
				for _, e := range g.leafPaths(g.names[v], arr) {
					params = append(params, s+" "+e)
				}
				continue
			}
			s := g.scalar(v.Type())
			if s == "" {
				return g.errorf(v.Pos(), "thread parameters of type %s are not supported", v.Type())
			}
			params = append(params, s+" "+g.names[v])
		}
		if g.monitor {
			g.p("/* thread %s, created by start (run): its tid is _pid (the monitor's pid comes before) */\n", t.Name())
		} else {
			g.p("/* thread %s, created by start (run): its tid is _pid + 1 */\n", t.Name())
		}
		g.p("proctype %s(%s) {\n", g.names[t], strings.Join(params, "; "))
	}
	for _, v := range t.Locals {
		init := ""
		if v.Init.Kind != types.NoConst && (!first.HasLive || inLive(first, v)) {
			init = constString(v.Init)
		}
		d, err := g.varDecl(v.Type(), g.names[v], init, v.Pos())
		if err != nil {
			return err
		}
		g.p("  %s;\n", d)
	}
	if g.hasWait {
		g.p("  byte BIR_wc; /* the lock count saved by wait, 0 when not waiting */\n")
	}
	if g.usesReach {
		g.p("  int BIR_reach; byte BIR_i; /* scratch of reachable, 0 between steps */\n")
	}
	if g.usesChoice {
		g.p("  int BIR_ch; /* scratch of range choices, 0 between steps */\n")
	}
	if g.symMax > 0 {
		var vs []string
		for k := 0; k < g.symMax; k++ {
			vs = append(vs, symName(k))
		}
		g.p("  int %s; /* the values of symbolic choices, chosen at the start of a step; 0 between steps */\n", strings.Join(vs, ", "))
		g.p("  int BIR_cd; /* scratch of symbolic choices: the distance to the next valid value; 0 between steps */\n")
	}
	if len(procs) > 1 {
		maxD := 0
		for _, f := range procs[1:] {
			maxD = max(maxD, depth[f])
		}
		siteT := "byte"
		if len(g.sites) >= 255 {
			siteT = "short"
		}
		g.p("  /* the stack of function frames: BIR_sp frames; frame i (from 0) was created by\n")
		g.p("     the call site BIR_site[i] and holds its variables at index i of the F_ arrays;\n")
		g.p("     the top frame's location is the control point; unused entries hold defaults */\n")
		g.p("  byte BIR_sp;\n")
		g.p("  %s BIR_site[%d];\n", siteT, maxD)
		for _, f := range procs[1:] {
			for _, v := range f.Vars() {
				if _, ok := v.Type().Underlying().(*types.Array); ok {
					g.p("  %s %s[%d]; /* %s of %s */\n", g.frameTypedef(v), g.fbase[v], depth[f], v.Name(), f.Name())
					continue
				}
				d, err := g.varDecl(&types.Array{Len: int64(depth[f]), Elem: v.Type()}, g.fbase[v], "", v.Pos())
				if err != nil {
					return err
				}
				g.p("  %s; /* %s of %s */\n", d, v.Name(), f.Name())
			}
		}
	}
	for _, p := range procs {
		if !p.Thread {
			g.p("\n  /* function %s */", p.Name())
		}
		for _, loc := range p.Locations {
			g.p("\n")
			name := g.locLabel(loc)
			if len(loc.Decl.Transformations) == 0 {
				if p.Thread {
					g.p("end_%s: false; /* terminated */\n", name)
				} else {
					g.p("L_%s: false; /* stuck: a function location without transformations */\n", name)
				}
				continue
			}
			g.p("L_%s:\n  if\n", name)
			// the initial state holds a value beyond 32 bits: each step
			// birch takes from it is an overflow, the others are disabled
			wideAt := g.wideStart && p.Thread && p.Main && loc == p.Locations[0]
			wideTaken := map[*ast.Transformation]bool{}
			for _, a := range g.locAlts[loc] {
				g.cfns = append(g.cfns, a.cfns...)
				g.mark(Entry{Trans: a.tr})
				entry := a.entry
				if wideAt {
					entry = "false"
					if g.wideFirst[wideKey{g.tidOf(t), a.tr}] && !wideTaken[a.tr] {
						entry = "true"
						wideTaken[a.tr] = true
					}
				}
				if entry == "true" && g.selfLoop(a) {
					// pan rejects an option "(1)" that leads back to
					// its own state ("unconditional self-loop")
					entry = "BIR_always"
					g.usesAlways = true
				}
				g.p("  :: atomic { %s ->\n", entry)
				if wideAt {
					for _, s := range wideStmts() {
						g.p("       %s;\n", s)
					}
				}
				if saved && a.invisible {
					g.p("       BIR_from = %d; BIR_save_%s();\n", fromOf[loc], g.names[t])
				}
				for _, s := range g.finish(a) {
					g.p("       %s;\n", s)
				}
				g.p("     }\n")
				for _, l := range a.limits {
					if wideAt {
						break // not in the initial state
					}
					g.limitOption(l, "atomic { ", "goto L_"+name+" }", "a bound is hit: the path is cut")
				}
			}
			g.p("  fi;\n")
		}
	}
	for _, p := range procs {
		for _, loc := range p.Locations {
			if g.exitLocs[loc] {
				g.p("end_exit_%s: false; /* terminated by exit */\n", g.locLabel(loc))
			}
		}
	}
	if len(g.iLocs) > 0 {
		g.p("\n  /* invisible runs continue here without interleaving */\n  atomic { skip;\n")
		for _, p := range procs {
			for _, loc := range p.Locations {
				if !g.iLocs[loc] {
					continue
				}
				g.p("IL_%s:\n  if\n", g.locLabel(loc))
				for _, a := range g.locAlts[loc] {
					g.mark(Entry{Trans: a.tr, IL: true})
					g.p("  :: %s ->\n", a.entry)
					for _, s := range g.finish(a) {
						g.p("       %s;\n", s)
					}
					for _, l := range a.limits {
						g.limitOption(l, "", "BIR_restore_"+g.names[t]+"()", "a bound is hit inside an invisible run: back to its start")
					}
				}
				g.p("  fi;\n")
			}
		}
		g.p("  }\n")
	}
	g.p("}\n\n")
	g.scalarArr = nil // the names are this thread's
	return nil
}

// saveLoop is a family of places saved by a loop over BIR_k in 0..n-1
// (the entries of the frame arrays), which keeps the inline short: SPIN
// merges at most 256 statements of a sequence.
type saveLoop struct {
	n      int
	places []string // in terms of BIR_k
}

// runSaves returns the scalar places of a thread's process that a bound hit
// inside an invisible run must restore (every variable of the thread and
// of its frames), or nil when no bound can be hit inside a run.
func (g *gen) runSaves(procs []*types.Proc, depth map[*types.Proc]int) ([]string, []saveLoop) {
	need := false
	for loc := range g.iLocs {
		for _, a := range g.locAlts[loc] {
			need = need || len(a.limits) > 0
		}
	}
	if !need {
		return nil, nil
	}
	out := []string{}
	for _, v := range procs[0].Vars() {
		out = append(out, g.scalarsOf(v.Type(), g.names[v])...)
	}
	if g.hasWait {
		out = append(out, "BIR_wc")
	}
	var loops []saveLoop
	if len(procs) > 1 {
		maxD := 0
		for _, f := range procs[1:] {
			maxD = max(maxD, depth[f])
		}
		out = append(out, "BIR_sp")
		loops = append(loops, saveLoop{n: maxD, places: []string{"BIR_site[BIR_k]"}})
		for _, f := range procs[1:] {
			var ps []string
			for _, v := range f.Vars() {
				ps = append(ps, g.scalarsOf(v.Type(), g.frameSlot(v, "BIR_k"))...)
			}
			if len(ps) > 0 {
				loops = append(loops, saveLoop{n: depth[f], places: ps})
			}
		}
	}
	return out, loops
}

// saveCode returns the statements of the save (or, with restore, of the
// restore) of the places into BIR_sv, and the number of entries used.
func saveCode(plain []string, loops []saveLoop, restore bool) ([]string, int) {
	copyStmt := func(place, slot string) string {
		if restore {
			return place + " = BIR_sv[" + slot + "]"
		}
		return "BIR_sv[" + slot + "] = " + place
	}
	var out []string
	n := 0
	for _, p := range plain {
		out = append(out, copyStmt(p, fmt.Sprint(n)))
		n++
	}
	for _, l := range loops {
		var body []string
		for j, p := range l.places {
			body = append(body, copyStmt(p, fmt.Sprintf("%d + BIR_k * %d", n+j, len(l.places))))
		}
		out = append(out, fmt.Sprintf("do :: BIR_k < %d -> %s; BIR_k = BIR_k + 1 :: else -> BIR_k = 0; break od", l.n, strings.Join(body, "; ")))
		n += l.n * len(l.places)
	}
	return out, n
}

// leafType is the type of the scalars (or locks) an array of type t is
// made of, through every level of nesting.
func leafType(t types.Type) types.Type {
	for {
		a, ok := t.Underlying().(*types.Array)
		if !ok {
			return t
		}
		t = a.Elem
	}
}

// scalarsOf returns the scalar Promela places a variable of type t at
// place name is made of.
func (g *gen) scalarsOf(t types.Type, name string) []string {
	switch u := t.Underlying().(type) {
	case *types.Lock:
		out := []string{name + ".owner", name + ".count"}
		if g.hasWait {
			for _, w := range g.setWords() {
				out = append(out, name+".waiting"+w, name+".notified"+w)
			}
		}
		return out
	case *types.Array:
		var out []string
		for k := int64(0); k < u.Len; k++ {
			out = append(out, g.scalarsOf(u.Elem, g.elemPath(name, u.Elem, k))...)
		}
		return out
	}
	return []string{name}
}

// limitOption prints the option for one bound: with ReportLimits, the
// first time it is taken, pan prints "BIR-limit N" (N indexes
// Translation.Limits), so that `birch spin` can tell a search that cut
// paths from a complete one.
func (g *gen) limitOption(l limitCode, open, jump, comment string) {
	marker := ""
	if g.opts.ReportLimits {
		k := len(g.limits)
		g.limits = append(g.limits, Limit{Msg: l.msg, Pos: l.pos})
		marker = fmt.Sprintf("c_code { if (!BIR_hit[%d]) { BIR_hit[%d] = 1; printf(\"BIR-limit %d\\n\"); } }; ", k, k, k)
	}
	g.anyLimit = true
	if len(g.opts.Formulas) > 0 {
		marker += "BIR_cut = 1; "
	}
	g.mark(Entry{Limit: true})
	g.p("  :: %s%s -> %s%s /* %s */\n", open, l.cond, marker, jump, comment)
}

// selfLoop reports whether option a may end where it starts (at L_x).
func (g *gen) selfLoop(a *altCode) bool {
	switch {
	case a.exit || a.ret:
		return false
	case a.callee != nil:
		return a.callee.Locations[0] == a.from
	}
	return a.target == a.from && !a.invisible
}

// locLabel is the base of a location's labels: its name in a thread,
// FUNCTION__NAME in a function.
func (g *gen) locLabel(loc *types.Location) string {
	if loc.Proc.Thread {
		return ident(loc.Name())
	}
	return ident(loc.Proc.Name()) + "__" + ident(loc.Name())
}

// arrivals returns the locations a thread arrives at after tr: its target,
// the callee's first location for a call, and for a return the targets of
// the call sites (among procs) that call tr's function.
func (g *gen) arrivals(tr *ast.Transformation, procs []*types.Proc) []*types.Location {
	if tr.Return {
		var out []*types.Location
		for _, s := range g.sites {
			if s.callee == g.procOfTrans(tr) && containsProc(procs, s.from.Proc) {
				out = append(out, s.target)
			}
		}
		return out
	}
	if c := callOf(tr); c != nil {
		if f, ok := g.info.Uses[c.Func].(*types.Proc); ok && len(f.Locations) > 0 {
			return []*types.Location{f.Locations[0]}
		}
		return nil
	}
	if tgt, ok := g.info.Uses[tr.Target].(*types.Location); ok {
		return []*types.Location{tgt}
	}
	return nil
}

func containsProc(ps []*types.Proc, p *types.Proc) bool {
	for _, q := range ps {
		if q == p {
			return true
		}
	}
	return false
}

// callOf returns the call action of tr (always its last action), or nil.
func callOf(tr *ast.Transformation) *ast.CallAction {
	if n := len(tr.Actions); n > 0 {
		c, _ := tr.Actions[n-1].(*ast.CallAction)
		return c
	}
	return nil
}

// procOfTrans returns the proc whose location tr leaves.
func (g *gen) procOfTrans(tr *ast.Transformation) *types.Proc {
	return g.transProc[tr]
}

// frameDepths returns, for each function thread t may call, the largest
// number of function frames the thread can have while the function's frame
// is on top (bounded by the call depth: at most MaxCallDepth-1 function
// frames); 0 for functions t never calls.
func (g *gen) frameDepths(t *types.Proc) map[*types.Proc]int {
	d := map[*types.Proc]int{t: 0}
	limit := max(g.opts.MaxCallDepth-1, 1) // arrays of at least one frame
	changed := true
	for changed {
		changed = false
		for _, s := range g.sites {
			dc, ok := d[s.from.Proc]
			if !ok || dc >= limit {
				continue
			}
			if n := dc + 1; n > d[s.callee] {
				d[s.callee] = n
				changed = true
			}
		}
	}
	delete(d, t)
	return d
}

func (g *gen) tidOf(t *types.Proc) int {
	for i, m := range g.mainThreads() {
		if m == t {
			return i + 1
		}
	}
	return 0
}

func inLive(loc *types.Location, v *types.Var) bool {
	for _, x := range loc.Live {
		if x == v {
			return true
		}
	}
	return false
}

// enabled is the condition that location loc has an outcome.
func (g *gen) enabled(loc *types.Location) string {
	s := "false"
	for _, a := range g.locAlts[loc] {
		s = or(s, or(a.entry, limitCond(a.limits)))
	}
	return s
}

// finish returns the body of an alternative followed by its jump.
func (g *gen) finish(a *altCode) []string {
	out := append([]string(nil), a.body...)
	switch {
	case a.exit:
	case a.callee != nil:
		out = append(out, g.jump(a.callee.Locations[0], a.invisible)...)
	case a.ret:
		out = append(out, g.returnDispatch(a))
	default:
		out = append(out, g.jump(a.target, a.invisible)...)
	}
	return out
}

// jump returns the statements that move the thread's top frame to tgt at
// the end of a step: a thread's own frame terminates at a location without
// transformations, a function frame is stuck there, and after an invisible
// transformation the run goes on (atomically) while tgt has an outcome.
func (g *gen) jump(tgt *types.Location, invisible bool) []string {
	name := g.locLabel(tgt)
	switch {
	case len(tgt.Decl.Transformations) == 0:
		if !tgt.Proc.Thread {
			return []string{"goto L_" + name}
		}
		var out []string
		if g.usesTerm {
			out = append(out, g.termMe()...)
		}
		return append(out, "goto end_"+name)
	case invisible:
		return []string{fmt.Sprintf("if :: %s -> goto IL_%s :: else -> goto L_%s fi", g.enabled(tgt), name, name)}
	}
	return []string{"goto L_" + name}
}

// returnDispatch continues a return after the function's frame is popped:
// by the call site that created the frame, the caller receives the result,
// resets its dead variables and moves to the target of the call.
func (g *gen) returnDispatch(a *altCode) string {
	var b strings.Builder
	b.WriteString("if")
	for _, s := range g.sites {
		if s.callee != a.from.Proc || !containsProc(g.procs, s.from.Proc) {
			continue
		}
		stmts := []string{"BIR_site[BIR_sp] = 0"}
		stmts = append(stmts, g.siteStore[s]...)
		stmts = append(stmts, g.resets(s.target)...)
		stmts = append(stmts, g.jump(s.target, a.invisible)...)
		fmt.Fprintf(&b, " :: BIR_site[BIR_sp] == %d -> %s", s.id, strings.Join(stmts, "; "))
	}
	b.WriteString(" fi")
	return b.String()
}

// choiceSet describes the statically expanded choices of a transformation.
type choiceSet struct {
	actions []int // indices of expanded choice actions
	n       []int // number of alternatives of each
}

const maxExpansion = 1024

func (g *gen) expandable(a *ast.ChooseAction) int {
	if g.scalar(g.typeOf(a.Lhs)) == "" {
		return 0
	}
	if a.Values != nil {
		return len(a.Values)
	}
	lo, hi := g.info.Types[a.Lo].Value, g.info.Types[a.Hi].Value
	if lo.Kind != types.IntConst || hi.Kind != types.IntConst {
		// bounds that are not constant: one alternative per value their
		// types allow, when there are few
		if base, top, ok := g.rangeSpan(a); ok && top >= base && uint64(top-base) < maxRangeExpansion {
			return int(top-base) + 1
		}
		return 0
	}
	if hi.Int < lo.Int || uint64(hi.Int-lo.Int) >= maxExpansion {
		return 0
	}
	return int(hi.Int-lo.Int) + 1
}

// maxRangeExpansion bounds the alternatives of a range choice whose bounds
// are not constant; a wider one is a loop inside the step (rangeChoice).
// (The width of a range lo..hi with lo <= hi is compared as uint64(hi-lo),
// which does not overflow: int64(hi-lo) is negative for -2^63..2^63-1.)
const maxRangeExpansion = 64

// rangeSpan returns the smallest and largest value a range choice can
// pick, from the types of its bounds.
func (g *gen) rangeSpan(a *ast.ChooseAction) (lo, hi int64, ok bool) {
	l, _, ok1 := g.bounds(a.Lo)
	_, h, ok2 := g.bounds(a.Hi)
	return l, h, ok1 && ok2
}

// transformation translates one transformation into its alternatives.
// Choices are first expanded as usual (value lists, small ranges); when a
// disabling condition then reads a value chosen inside the step, or a check
// that reads one is left out of the entry condition before a disabling
// condition or a bound, the transformation is translated again with the
// choices made inside the step expanded too (see expand.go), or, where one
// option per value is impossible, with every choice a symbol (symbolic.go).
func (g *gen) transformation(loc *types.Location, tr *ast.Transformation) ([]*altCode, error) {
	out, _, err := g.expand(loc, tr, false)
	var de *dirtyError
	if err != nil && !errors.As(err, &de) {
		return nil, err
	}
	if err == nil && !anyImprecise(out) {
		return out, nil
	}
	deep, why, derr := g.expand(loc, tr, true)
	if err != nil {
		// refused unless the deep expansion expresses it
		if derr != nil {
			if errors.As(derr, &de) {
				return nil, g.refusal(de, why)
			}
			return nil, derr
		}
		return deep, nil
	}
	if derr == nil && !anyImprecise(deep) {
		return deep, nil
	}
	return out, nil
}

func anyImprecise(alts []*altCode) bool {
	for _, a := range alts {
		if a.imprecise {
			return true
		}
	}
	return false
}

// expand translates a transformation with its choices expanded (deep: see
// transformation), or symbolic when some choice cannot be; why lists the
// choices that had to stay inside the step.
func (g *gen) expand(loc *types.Location, tr *ast.Transformation, deep bool) ([]*altCode, []string, error) {
	var cs choiceSet
	var why []string
	total := 1
	symbolic := false // some choice has no option per value
	for i, a := range tr.Actions {
		n, reason := g.choiceOptions(a, deep)
		switch {
		case n > 0 && total*n <= maxExpansion:
			cs.actions = append(cs.actions, i)
			cs.n = append(cs.n, n)
			total *= n
		case (n > 0 || reason != "") && deep && g.symbolicKind(a):
			symbolic = true
		case n > 0:
			why = append(why, fmt.Sprintf("the choice at %s would make more than %d options", g.lineCol(a.Pos()), maxExpansion))
		case reason != "":
			why = append(why, reason)
		case g.mustBeSymbolic(a):
			symbolic = true
		}
	}
	// Then every choice that has options is a symbol (symbolic.go): the
	// transformation is one option, whose entry condition is an
	// existential in embedded C over the values of all its choices.
	sym := map[int]bool{}
	if symbolic {
		for i, a := range tr.Actions {
			if n, reason := g.choiceOptions(a, deep); (n > 0 || reason != "" || g.mustBeSymbolic(a)) && g.symbolicKind(a) {
				sym[i] = true
			}
		}
		var keep choiceSet
		for k, i := range cs.actions {
			if !sym[i] {
				keep.actions = append(keep.actions, i)
				keep.n = append(keep.n, cs.n[k])
			}
		}
		cs = keep
	}
	var out []*altCode
	combo := make([]int, len(cs.actions))
	for {
		pick := map[int]int{}
		for k, i := range cs.actions {
			pick[i] = combo[k]
		}
		for i := range sym {
			pick[i] = pickSym
		}
		a, err := g.alternative(loc, tr, pick)
		if err != nil {
			return nil, why, err
		}
		if !a.void {
			out = append(out, a)
		}
		k := len(combo) - 1
		for ; k >= 0; k-- {
			combo[k]++
			if combo[k] < cs.n[k] {
				break
			}
			combo[k] = 0
		}
		if k < 0 {
			break
		}
	}
	return prune(out), why, nil
}

// prune removes from the options of one transformation the limit options
// an earlier option already has (the bounds hit before the expanded
// choices are the same in every option), then the options that can never
// be taken (entry false, no limit left), keeping at least one.
func prune(alts []*altCode) []*altCode {
	if len(alts) < 2 {
		return alts
	}
	type key struct {
		cond string
		pos  source.Pos
	}
	seen := map[key]bool{}
	var out []*altCode
	for _, a := range alts {
		var ls []limitCode
		for _, l := range a.limits {
			if k := (key{l.cond, l.pos}); !seen[k] {
				seen[k] = true
				ls = append(ls, l)
			}
		}
		a.limits = ls
		if a.entry == "false" && len(ls) == 0 {
			continue
		}
		out = append(out, a)
	}
	if len(out) == 0 {
		out = alts[:1]
	}
	return out
}

// tx is the translation state of one alternative.
type tx struct {
	g     *gen
	tr    *ast.Transformation
	plain *env
	hoist *env
	items []item
	body  []string
	news  map[*types.Collection]int
	// starts counts the start actions executed so far in the
	// transformation: _nr_pr has grown by that much.
	starts int
	// lostAt is the number of items when a check was first left out of
	// the entry condition (-1: none)
	lostAt int
	// syms are the symbolic choices made so far, symbol k in order
	syms []*symChoice
}

func (x *tx) emit(s ...string) { x.body = append(x.body, s...) }

// hoisted translates e in terms of the state before the transformation and
// adds its checks as items; ok is false when e depends on earlier writes.
func (x *tx) hoisted(e ast.Expr) (string, bool, error) {
	v, cs, err := x.g.expr(e, x.hoist)
	if errors.Is(err, errDirty) {
		x.lose()
		return "", false, nil
	}
	if err != nil {
		return "", false, err
	}
	x.items = append(x.items, checkItems(cs)...)
	return v, true, nil
}

func (x *tx) hoistedPlace(e ast.Expr) ([]alt, bool, error) {
	alts, cs, err := x.g.place(e, x.hoist)
	if errors.Is(err, errDirty) {
		x.lose()
		return nil, false, nil
	}
	if err != nil {
		return nil, false, err
	}
	x.items = append(x.items, checkItems(cs)...)
	return alts, true, nil
}

// lose records that checks are left out of the entry condition from here.
func (x *tx) lose() {
	if x.lostAt < 0 {
		x.lostAt = len(x.items)
	}
}

func (x *tx) markDirty(lhs ast.Expr) {
	for _, r := range x.g.roots(lhs) {
		x.hoist.dirty[r] = true
		if v, ok := r.(*types.Var); ok {
			delete(x.hoist.subst, v)
		}
	}
}

// setHoisted records that lhs now holds hv (in terms of the state before
// the transformation), or a value not known before the step when !ok: a
// scalar variable through the env's substitution, any other place as a
// write of the store (its address is computed before the write). A place
// whose address is not known marks its roots dirty.
func (x *tx) setHoisted(lhs ast.Expr, hv string, ok bool) {
	if id, isID := ast.Unparen(lhs).(*ast.Ident); isID {
		if v, isVar := x.g.info.Uses[id].(*types.Var); isVar && x.g.scalar(v.Type()) != "" {
			if ok {
				x.hoist.subst[v] = hv
				delete(x.hoist.dirty, v)
			} else {
				x.hoist.dirty[v] = true
				delete(x.hoist.subst, v)
			}
			return
		}
	}
	halts, _, err := x.g.place(lhs, x.hoist)
	if err != nil {
		x.markDirty(lhs)
		return
	}
	if !ok {
		hv = ""
	}
	x.store(halts, hv)
}

// store records a write of val ("" for unknown) to the places halts.
func (x *tx) store(halts []alt, val string) {
	for _, a := range halts {
		x.hoist.writes = append(x.hoist.writes, write{root: a.root, shape: a.shape, dyn: a.dyn, val: val})
	}
}

func (g *gen) alternative(loc *types.Location, tr *ast.Transformation, pick map[int]int) (*altCode, error) {
	x := &tx{
		g:      g,
		tr:     tr,
		plain:  &env{proc: g.proc},
		hoist:  &env{proc: g.proc, hoist: true, subst: map[*types.Var]string{}, dirty: map[any]bool{}},
		news:   map[*types.Collection]int{},
		lostAt: -1,
	}
	a := &altCode{tr: tr, from: loc, invisible: tr.Invisible}
	if tr.Target != nil {
		a.target, _ = g.info.Uses[tr.Target].(*types.Location)
	}
	if a.target == nil && !tr.Return {
		return nil, g.errorf(tr.GotoPos, "transformation without a target")
	}
	if tr.Guard == nil {
		return nil, g.errorf(tr.WhenPos, "transformation without a guard")
	}
	gv, gcs, err := g.expr(tr.Guard, x.plain)
	if err != nil {
		return nil, err
	}
	x.items = append(x.items, checkItems(gcs)...)
	x.items = append(x.items, item{kind: itemDisable, cond: gv})
	x.emit(assertStmts(gcs)...)
	for i, act := range tr.Actions {
		idx, expanded := pick[i]
		if !expanded {
			idx = -1
		}
		stop, err := x.action(act, idx, loc, a)
		if err != nil {
			return nil, err
		}
		if stop {
			break
		}
	}
	if tr.Return && !a.exit {
		if err := x.returnAction(tr, a); err != nil {
			return nil, err
		}
	}
	if len(x.syms) > 0 {
		if err := x.symbolic(a); err != nil {
			return nil, err
		}
	} else {
		a.entry, a.limits = entries(x.items)
	}
	if x.lostAt >= 0 {
		for _, it := range x.items[x.lostAt:] {
			if it.kind != itemCheck && it.cond != "true" {
				a.imprecise = true
			}
		}
	}
	a.body = append(a.pre, x.body...)
	if !a.exit && a.callee == nil && !a.ret {
		a.body = append(a.body, g.resets(a.target)...)
	}
	return a, nil
}

// returnAction translates `return [e]`: the result goes to BIR_rv, the
// function's frame is popped (its variables reset to the defaults that
// unused frames hold); returnDispatch does the rest.
func (x *tx) returnAction(tr *ast.Transformation, a *altCode) error {
	g := x.g
	f := a.from.Proc
	if f.Thread {
		return g.errorf(tr.GotoPos, "return in a thread")
	}
	a.ret = true
	var arr *types.Array
	if tr.Result != nil {
		arr, _ = g.typeOf(tr.Result).Underlying().(*types.Array)
	}
	if arr != nil {
		// the elements go to BIR_rva before the frame is popped
		alts, cs, err := g.place(tr.Result, x.plain)
		if err != nil {
			return err
		}
		x.emit(assertStmts(cs)...)
		if _, _, err := x.hoistedPlace(tr.Result); err != nil {
			return err
		}
		for k, l := range g.leaves(alts, arr) {
			x.emit(fmt.Sprintf("BIR_rva[%d] = %s", k, readAlts(l, "")))
		}
	} else if tr.Result != nil {
		if g.scalar(g.typeOf(tr.Result)) == "" {
			return g.errorf(tr.Result.Pos(), "function results of type %s are not supported", g.typeOf(tr.Result))
		}
		v, cs, err := g.expr(tr.Result, x.plain)
		if err != nil {
			return err
		}
		x.emit(assertStmts(cs)...)
		if _, _, err := x.hoisted(tr.Result); err != nil {
			return err
		}
		if f.Result != nil {
			// the result is stored in the function's result type, as
			// birch checks it
			x.emit(assertStmts(g.valueChecks(tr.Result, nil, v, f.Result))...)
		}
		x.emit("BIR_rv = " + v)
	}
	for _, v := range f.Vars() {
		x.emit(g.resetTo(v.Type(), g.names[v], true)...)
	}
	x.emit("BIR_sp = BIR_sp - 1")
	// the caller's store of the result, by call site
	for _, s := range g.sites {
		if s.callee != f || !containsProc(g.procs, s.from.Proc) {
			continue
		}
		if _, done := g.siteStore[s]; done {
			continue
		}
		var stmts []string
		if lhs := s.call.Lhs; lhs != nil {
			dst := g.typeOf(lhs)
			if arr, isArr := dst.Underlying().(*types.Array); isArr {
				// the caller's target receives the elements
				alts, lcs, err := g.place(lhs, &env{})
				if err != nil {
					return err
				}
				stmts = append(stmts, assertStmts(lcs)...)
				for k, l := range g.leaves(alts, arr) {
					stmts = append(stmts, forAlts(l, func(p string) string { return fmt.Sprintf("%s = BIR_rva[%d]", p, k) }))
				}
				g.siteStore[s] = stmts
				continue
			}
			if g.scalar(dst) == "" {
				return g.errorf(lhs.Pos(), "results of type %s are not supported", dst)
			}
			alts, lcs, err := g.place(lhs, &env{})
			if err != nil {
				return err
			}
			stmts = append(stmts, assertStmts(lcs)...)
			rv := "BIR_rv"
			if f.Result != nil {
				stmts = append(stmts, assertStmts(g.valueChecks(nil, f.Result, "BIR_rv", dst))...)
				rv = wrapStored(rv, f.Result, dst)
			}
			stmts = append(stmts, forAlts(alts, func(p string) string { return p + " = " + rv }))
		}
		g.siteStore[s] = stmts
	}
	return nil
}

// callAction translates [lhs :=] call f(args), the last action of its
// transformation: the arguments are evaluated and checked in the caller, a
// call with MaxCallDepth frames is a limit, and a frame of f is pushed
// (index BIR_sp of f's variable arrays) with the parameters and locals
// as on arrival at f's first location.
func (x *tx) callAction(act *ast.CallAction, tr *ast.Transformation, a *altCode) error {
	g := x.g
	f, _ := g.info.Uses[act.Func].(*types.Proc)
	if f == nil || f.Thread {
		return g.errorf(act.Func.Pos(), "%s is not a function", act.Func.Name)
	}
	vals := make([]string, len(act.Args))
	hvals := make([]string, len(act.Args))
	hoks := make([]bool, len(act.Args))
	arrs := make([][]alt, len(act.Args)) // the places of array arguments
	for i, e := range act.Args {
		if i >= len(f.Params) {
			return g.errorf(e.Pos(), "too many arguments")
		}
		if _, isArr := f.Params[i].Type().Underlying().(*types.Array); isArr {
			// an array is passed by value: its elements are copied
			// into the new frame
			alts, cs, err := g.place(e, x.plain)
			if err != nil {
				return err
			}
			x.emit(assertStmts(cs)...)
			arrs[i] = alts
			if _, _, err := x.hoistedPlace(e); err != nil {
				return err
			}
			continue
		}
		if g.scalar(f.Params[i].Type()) == "" {
			return g.errorf(e.Pos(), "arguments of type %s are not supported", g.typeOf(e))
		}
		v, cs, err := g.expr(e, x.plain)
		if err != nil {
			return err
		}
		x.emit(assertStmts(cs)...)
		vals[i] = v
		hvals[i], hoks[i], err = x.hoisted(e)
		if err != nil {
			return err
		}
	}
	x.items = append(x.items, limitItem(fmt.Sprintf("BIR_sp >= %d", g.opts.MaxCallDepth-1), act.CallPos, "call depth exceeds %d", g.opts.MaxCallDepth))
	first := f.Locations[0]
	dead := func(v *types.Var) bool { return first.HasLive && !inLive(first, v) }
	for i, e := range act.Args {
		pv := f.Params[i]
		if dead(pv) && wideValue(pv.Type(), "") {
			x.emit(wideStmts()...) // dead on arrival: its default
		}
		if arr, ok := pv.Type().Underlying().(*types.Array); ok {
			if !dead(pv) {
				src := g.leaves(arrs[i], arr)
				for k, dst := range g.leafPaths(g.frameSlot(pv, "BIR_sp"), arr) {
					x.emit(fmt.Sprintf("%s = %s", dst, readAlts(src[k], "")))
				}
			}
			continue
		}
		chk := g.valueChecks(e, nil, vals[i], pv.Type())
		x.emit(assertStmts(chk)...)
		if hoks[i] {
			x.items = append(x.items, checkItems(g.valueChecks(e, nil, hvals[i], pv.Type()))...)
		}
		if !dead(pv) {
			x.emit(fmt.Sprintf("%s = %s", g.frameSlot(pv, "BIR_sp"), vals[i]))
		}
	}
	for _, v := range f.Locals {
		init := ""
		if v.Init.Kind != types.NoConst && !dead(v) {
			init = constString(v.Init)
		}
		if wideValue(v.Type(), init) {
			// the frame holds a value beyond 32 bits
			x.emit(wideStmts()...)
			continue
		}
		if init != "" && init != defaultOf(v.Type()) {
			x.emit(fmt.Sprintf("%s = %s", g.frameSlot(v, "BIR_sp"), init))
		}
	}
	x.emit(fmt.Sprintf("BIR_site[BIR_sp] = %d", g.siteOf[tr].id), "BIR_sp = BIR_sp + 1")
	a.callee = f
	return nil
}

// defaultOf32 is defaultOf, or 0 for a default beyond 32 bits (which the
// step reports as an overflow: startsWide).
func defaultOf32(t types.Type) string {
	if d := defaultOf(t); !wide(d) {
		return d
	}
	return "0"
}

// startsWide reports whether a new thread of p holds a value beyond 32
// bits: a parameter dead on arrival, or a local, with such a default or
// initial value.
func (g *gen) startsWide(p *types.Proc) bool {
	first := p.Locations[0]
	for _, v := range p.Params {
		if first.HasLive && !inLive(first, v) && wideValue(v.Type(), "") {
			return true
		}
	}
	for _, v := range p.Locals {
		if g.localWide(v) {
			return true
		}
	}
	return false
}

// localWide reports whether thread local v holds a value beyond 32 bits
// when its thread begins (its initial value, or its default when it has
// none or is dead at the first location).
func (g *gen) localWide(v *types.Var) bool {
	first := v.Owner.Locations[0]
	init := ""
	if v.Init.Kind != types.NoConst && (!first.HasLive || inLive(first, v)) {
		init = constString(v.Init)
	}
	return wideValue(v.Type(), init)
}

// resets returns the statements resetting the variables dead at loc.
func (g *gen) resets(loc *types.Location) []string {
	if !loc.HasLive {
		return nil
	}
	var out []string
	for _, v := range loc.Proc.Vars() {
		if inLive(loc, v) {
			continue
		}
		out = append(out, g.resetVar(v.Type(), g.names[v])...)
	}
	return out
}

// rangeCheck is the check that the 32-bit value v lies in lo..hi, with
// only 32-bit constants: a bound beyond 32 bits holds for every value v
// may have (and is left out) or for none (and the check is false: v,
// computed within 32 bits, is the value birch stores, out of the range).
func rangeCheck(v string, lo, hi int64) []check {
	var parts []string
	switch {
	case lo > 1<<31-1 || hi < -1<<31 || lo > hi:
		return []check{{"false", "range"}}
	}
	if lo > -1<<31 {
		parts = append(parts, fmt.Sprintf("%s >= %d", paren(v), lo))
	}
	if hi < 1<<31-1 {
		parts = append(parts, fmt.Sprintf("%s <= %d", paren(v), hi))
	}
	if len(parts) == 0 {
		return nil
	}
	return []check{{strings.Join(parts, " && "), "range"}}
}

// resetVar returns the statements resetting a variable to its default; a
// default beyond 32 bits is an overflow (wideStmts).
func (g *gen) resetVar(t types.Type, name string) []string { return g.resetTo(t, name, false) }

// resetTo is resetVar; with popped, for the variables of a frame that is
// popped, a default beyond 32 bits is 0 (as declared: birch has no such
// frame).
func (g *gen) resetTo(t types.Type, name string, popped bool) []string {
	switch u := t.Underlying().(type) {
	case *types.Lock:
		if g.hasWait {
			out := []string{name + ".owner = 0", name + ".count = 0"}
			for _, w := range g.setWords() {
				out = append(out, name+".waiting"+w+" = 0", name+".notified"+w+" = 0")
			}
			return out
		}
		return []string{name + ".owner = 0", name + ".count = 0"}
	case *types.Array:
		var out []string
		for i := int64(0); i < u.Len; i++ {
			out = append(out, g.resetTo(u.Elem, g.elemPath(name, u.Elem, i), popped)...)
		}
		return out
	}
	if d := defaultOf(t); wide(d) {
		if popped {
			return []string{name + " = 0"}
		}
		return wideStmts()
	}
	return []string{name + " = " + defaultOf(t)}
}

// valueChecks are the checks of storing value v (of expression e, or of
// type src when e is nil) into a place of type dst.
func (g *gen) valueChecks(e ast.Expr, src types.Type, v string, dst types.Type) []check {
	if e != nil {
		if tv, ok := g.info.Types[e]; ok {
			src = tv.Type
			if tv.Value.Kind == types.IntConst {
				if r, ok := dst.Underlying().(*types.Range); ok && tv.Value.Int >= r.Lo && tv.Value.Int <= r.Hi {
					return nil
				}
			}
		}
	}
	switch d := dst.Underlying().(type) {
	case *types.Range:
		if d.Wrap {
			return nil // the store wraps (fixed.go)
		}
		if s, ok := src.Underlying().(*types.Range); ok && s.Lo >= d.Lo && s.Hi <= d.Hi {
			return nil
		}
		return rangeCheck(v, d.Lo, d.Hi)
	case *types.Ref:
		s, ok := src.Underlying().(*types.Ref)
		if !ok {
			return nil
		}
		all := true
		for _, c := range s.Collections {
			if !d.Holds(c) {
				all = false
			}
		}
		if all {
			return nil
		}
		conds := []string{paren(v) + " == 0"}
		for _, c := range refCollections(dst) {
			if s.Holds(c) {
				conds = append(conds, g.inCol(paren(v), c))
			}
		}
		return []check{{strings.Join(conds, " || "), "type"}}
	}
	return nil
}

// assign translates lhs := value (the value's Promela text v, from
// expression e, with checks vcs; hv is its hoisted text when hok).
func (x *tx) assign(lhs ast.Expr, e ast.Expr, v string, vcs []check, hv string, hok bool) error {
	g := x.g
	dst := g.typeOf(lhs)
	if _, isArr := dst.Underlying().(*types.Array); isArr {
		return x.copyArray(lhs, e)
	}
	alts, lcs, err := g.place(lhs, x.plain)
	if err != nil {
		return err
	}
	chk := g.valueChecks(e, nil, v, dst)
	x.emit(assertStmts(vcs)...)
	x.emit(assertStmts(lcs)...)
	x.emit(assertStmts(chk)...)
	x.emit(forAlts(alts, func(p string) string { return p + " = " + v }))
	if _, ok, err := x.hoistedPlace(lhs); err != nil {
		return err
	} else if ok && hok {
		x.items = append(x.items, checkItems(g.valueChecks(e, nil, hv, dst))...)
	}
	x.setHoisted(lhs, hv, hok)
	return nil
}

func (x *tx) copyArray(lhs, rhs ast.Expr) error {
	g := x.g
	arr := g.typeOf(lhs).Underlying().(*types.Array)
	la, lcs, err := g.place(lhs, x.plain)
	if err != nil {
		return err
	}
	ra, rcs, err := g.place(rhs, x.plain)
	if err != nil {
		return err
	}
	x.emit(assertStmts(rcs)...)
	x.emit(assertStmts(lcs)...)
	rl := g.leaves(ra, arr)
	for i, l := range g.leaves(la, arr) {
		src := readAlts(rl[i], "")
		x.emit(forAlts(l, func(p string) string { return p + " = " + src }))
	}
	// the store: every element of the target holds the source's, read
	// before any is written
	hr, rok, err := x.hoistedPlace(rhs)
	if err != nil {
		return err
	}
	hl, lok, err := x.hoistedPlace(lhs)
	if err != nil {
		return err
	}
	if !lok {
		x.markDirty(lhs)
		return nil
	}
	hls := g.leaves(hl, arr)
	vals := make([]string, len(hls))
	if rok {
		for i, l := range g.leaves(hr, arr) {
			if v, err := g.read(l, x.hoist); err == nil {
				vals[i] = v
			}
		}
	}
	for i, v := range vals {
		x.store(hls[i], v)
	}
	return nil
}

// unsupportedDirty reports a disabling condition that reads a value not
// known before the step; transformation tries the deep expansion, and
// refuses the transformation (refusal) if that does not express it either.
func (x *tx) unsupportedDirty(pos ast.Node, what string) error {
	return &dirtyError{pos: pos.Pos(), what: what}
}

// action translates one action; stop reports that the transformation ends
// here (exit).
func (x *tx) action(act ast.Action, pick int, loc *types.Location, a *altCode) (stop bool, err error) {
	g := x.g
	switch act := act.(type) {
	case *ast.AssignAction:
		v, vcs, err := g.expr(act.Rhs, x.plain)
		if err != nil {
			return false, err
		}
		hv, hok, err := x.hoisted(act.Rhs)
		if err != nil {
			return false, err
		}
		return false, x.assign(act.Lhs, act.Rhs, v, vcs, hv, hok)
	case *ast.ChooseAction:
		if pick == pickSym {
			if act.Values != nil {
				return false, x.symList(act)
			}
			return false, x.symRange(act)
		}
		if pick >= 0 {
			if act.Values != nil {
				e := act.Values[pick]
				v, vcs, err := g.expr(e, x.plain)
				if err != nil {
					return false, err
				}
				hv, hok, err := x.hoisted(e)
				if err != nil {
					return false, err
				}
				return false, x.assign(act.Lhs, e, v, vcs, hv, hok)
			}
			lo := g.info.Types[act.Lo].Value
			if lo.Kind != types.IntConst {
				return false, x.rangePick(act, pick)
			}
			v := fmt.Sprint(lo.Int + int64(pick))
			return false, x.assignConst(act.Lhs, v)
		}
		return false, x.inlineChoice(act)
	case *ast.ForallAction:
		if pick == pickSym {
			return false, x.symForall(act)
		}
		if pick >= 0 {
			return false, x.forallPick(act, pick)
		}
		return false, x.forall(act)
	case *ast.ReachableAction:
		if pick == pickSym {
			return false, x.symReachable(act)
		}
		if pick >= 0 {
			return false, x.reachablePick(act, pick, a)
		}
		return false, x.reachable(act)
	case *ast.NewAction:
		return false, x.newAction(act)
	case *ast.LockAction:
		return false, x.lockAction(act, pick, a)
	case *ast.AssertAction:
		v, cs, err := g.expr(act.Cond, x.plain)
		if err != nil {
			return false, err
		}
		x.emit(assertStmts(cs)...)
		x.emit(fmt.Sprintf("assert(%s || %s)", paren(v), KindVar("assertion")))
		if hv, ok, err := x.hoisted(act.Cond); err != nil {
			return false, err
		} else if ok {
			x.items = append(x.items, item{kind: itemCheck, cond: hv})
		}
	case *ast.AssumeAction:
		_, cs, err := g.expr(act.Cond, x.plain)
		if err != nil {
			return false, err
		}
		x.emit(assertStmts(cs)...)
		hv, ok, err := x.hoisted(act.Cond)
		if err != nil {
			return false, err
		}
		if !ok {
			return false, x.unsupportedDirty(act, "assume")
		}
		x.items = append(x.items, item{kind: itemDisable, cond: hv})
	case *ast.PrintAction:
		for _, e := range act.Args {
			if lit, ok := e.(*ast.BasicLit); ok && lit.Kind == token.STRING {
				continue
			}
			_, cs, err := g.expr(e, x.plain)
			if err != nil {
				return false, err
			}
			x.emit(assertStmts(cs)...)
			if _, _, err := x.hoisted(e); err != nil {
				return false, err
			}
		}
	case *ast.StartAction:
		return false, x.startAction(act)
	case *ast.CallAction:
		return true, x.callAction(act, x.tr, a)
	case *ast.ExitAction:
		if g.usesTerm {
			x.emit(g.termMe()...)
		}
		x.emit("goto end_exit_" + g.locLabel(loc))
		g.exitLocs[loc] = true
		a.exit = true
		return true, nil
	default:
		return false, g.errorf(act.Pos(), "this action is not supported by the Promela translation yet")
	}
	return false, nil
}

func (x *tx) assignConst(lhs ast.Expr, v string) error {
	g := x.g
	dst := g.typeOf(lhs)
	alts, lcs, err := g.place(lhs, x.plain)
	if err != nil {
		return err
	}
	var src types.Type = types.Typ[types.Int]
	if c, ok := constInt(v); ok {
		src = &types.Range{Lo: c, Hi: c} // no check when the value fits
	}
	return x.storeValue(lhs, dst, alts, lcs, src, v)
}

// storeValue emits the store of v, a value of type src, into lhs (of type
// dst, whose place is alts with the checks lcs), with the checks of the
// value, then the statements after, and records the store for the entry
// conditions.
func (x *tx) storeValue(lhs ast.Expr, dst types.Type, alts []alt, lcs []check, src types.Type, v string, after ...string) error {
	v = wrapStored(v, src, dst)
	chk := x.g.valueChecks(nil, src, v, dst)
	x.emit(assertStmts(lcs)...)
	x.emit(assertStmts(chk)...)
	x.emit(forAlts(alts, func(p string) string { return p + " = " + v }))
	x.emit(after...)
	if _, ok, err := x.hoistedPlace(lhs); err != nil {
		return err
	} else if ok {
		x.items = append(x.items, checkItems(chk)...)
	}
	x.setHoisted(lhs, v, true)
	return nil
}

// inlineChoice translates a choice that is not expanded into alternatives:
// a nondeterministic if inside the atomic step.
func (x *tx) inlineChoice(act *ast.ChooseAction) error {
	g := x.g
	dst := g.typeOf(act.Lhs)
	alts, lcs, err := g.place(act.Lhs, x.plain)
	if err != nil {
		return err
	}
	var vals []string
	var exprs []ast.Expr
	if act.Values != nil {
		exprs = act.Values
	} else {
		lo, hi := g.info.Types[act.Lo].Value, g.info.Types[act.Hi].Value
		if lo.Kind != types.IntConst || hi.Kind != types.IntConst {
			return x.rangeChoice(act)
		}
		if hi.Int < lo.Int {
			// an empty range disables the transformation, as in birch
			x.items = append(x.items, item{kind: itemDisable, cond: "false"})
			x.markDirty(act.Lhs)
			return nil
		}
		if uint64(hi.Int-lo.Int) >= 1<<16 {
			// too many values for one option each: the loop of
			// ranges with bounds that are not constant
			return x.rangeChoice(act)
		}
		for v := lo.Int; v <= hi.Int; v++ {
			vals = append(vals, fmt.Sprint(v))
			exprs = append(exprs, nil)
		}
	}
	var b strings.Builder
	b.WriteString("if")
	for i, e := range exprs {
		var stmts []string
		v := ""
		var chk []check
		if e != nil {
			var vcs []check
			v, vcs, err = g.expr(e, x.plain)
			if err != nil {
				return err
			}
			stmts = append(stmts, assertStmts(vcs)...)
			chk = g.valueChecks(e, nil, v, dst)
		} else {
			v = vals[i]
			chk = g.valueChecks(nil, types.Typ[types.Int], v, dst)
			v = wrapStored(v, types.Typ[types.Int], dst)
		}
		stmts = append(stmts, assertStmts(lcs)...)
		stmts = append(stmts, assertStmts(chk)...)
		stmts = append(stmts, forAlts(alts, func(p string) string { return p + " = " + v }))
		b.WriteString(" :: " + strings.Join(stmts, "; "))
	}
	b.WriteString(" fi")
	x.emit(b.String())
	x.setHoisted(act.Lhs, "", false)
	return nil
}

// rangePick translates the alternative of lhs := internChoose(lo .. hi)
// (or externChoose) that picks the pick-th value of the span the bounds'
// types allow: the bounds are evaluated and checked as in birch, and the
// alternative is enabled when the value lies in lo..hi (in the state before
// the transformation), so an empty range disables every alternative, as
// birch disables the transformation. A range has at most maxRangeExpansion
// values here, fewer than birch's bound on choices.
func (x *tx) rangePick(act *ast.ChooseAction, pick int) error {
	g := x.g
	_, _, hlo, hhi, err := x.rangeBounds(act)
	if err != nil {
		return err
	}
	base, top, _ := g.rangeSpan(act)
	if m := int64(g.opts.MaxChoiceRange); top >= base && uint64(top-base) >= uint64(m) {
		// birch's bound on one choice (the range is known not empty
		// when hi - lo >= m >= 1)
		x.items = append(x.items, limitItem(fmt.Sprintf("%s - %s >= %d", paren(hhi), paren(hlo), m),
			act.KwPos, "choice range has more than %d values", m))
	}
	v := base + int64(pick)
	x.items = append(x.items, item{kind: itemDisable, cond: fmt.Sprintf("%s <= %d && %d <= %s", paren(hlo), v, v, paren(hhi))})
	return x.assignConst(act.Lhs, fmt.Sprint(v))
}

// rangeBounds translates the bounds of a range choice, emitting their
// runtime checks: lo and hi are the bounds inside the step, hlo and hhi
// the same in the state before it (for entry conditions); a bound that
// cannot be expressed before the step is refused.
func (x *tx) rangeBounds(act *ast.ChooseAction) (lo, hi, hlo, hhi string, err error) {
	lo, lcs, err := x.g.expr(act.Lo, x.plain)
	if err != nil {
		return
	}
	hi, hcs, err := x.g.expr(act.Hi, x.plain)
	if err != nil {
		return
	}
	x.emit(assertStmts(lcs)...)
	x.emit(assertStmts(hcs)...)
	hlo, ok1, err := x.hoisted(act.Lo)
	if err != nil {
		return
	}
	hhi, ok2, err := x.hoisted(act.Hi)
	if err != nil {
		return
	}
	if !ok1 || !ok2 {
		err = x.unsupportedDirty(act, "a range choice")
	}
	return
}

// rangeChoice translates lhs := internChoose(lo .. hi) (or externChoose)
// with bounds that are not constant. As in birch, the bounds are evaluated
// once, in order; an empty range disables the transformation (so the
// bounds must be expressible in the state before it), and a range of
// MaxChoiceRange values or more is a bound of the model. Inside the atomic
// step a loop picks the value: BIR_ch starts at lo and either stops or
// grows while it is below hi, so that each value of lo..hi is reached by
// exactly one path, one successor per value as in birch. BIR_ch is 0
// again at the end of the step.
func (x *tx) rangeChoice(act *ast.ChooseAction) error {
	g := x.g
	lo, hi, hlo, hhi, err := x.rangeBounds(act)
	if err != nil {
		return err
	}
	src := x.rangeItems(act, hlo, hhi)
	g.usesChoice = true
	x.emit("BIR_ch = "+lo, fmt.Sprintf("do :: BIR_ch < %s -> BIR_ch = BIR_ch + 1 :: break od", paren(hi)))
	dst := g.typeOf(act.Lhs)
	alts, pcs, err := g.place(act.Lhs, x.plain)
	if err != nil {
		return err
	}
	x.emit(assertStmts(pcs)...)
	x.emit(assertStmts(g.valueChecks(nil, src, "BIR_ch", dst))...)
	ch := wrapStored("BIR_ch", src, dst)
	x.emit(forAlts(alts, func(p string) string { return p + " = " + ch }), "BIR_ch = 0")
	if _, _, err := x.hoistedPlace(act.Lhs); err != nil {
		return err
	}
	x.setHoisted(act.Lhs, "", false)
	return nil
}

// rangeItems adds the items of a range choice whose bounds are hlo and hhi
// in the state before the step: an empty range disables the
// transformation, and a range of MaxChoiceRange values or more is a bound
// of the model. It returns the type of the values the choice can give.
func (x *tx) rangeItems(act *ast.ChooseAction, hlo, hhi string) types.Type {
	g := x.g
	x.items = append(x.items, item{kind: itemDisable, cond: paren(hlo) + " <= " + paren(hhi)})
	m := int64(g.opts.MaxChoiceRange)
	llo, lhi, lok := g.bounds(act.Lo)
	hlo2, hhi2, hok := g.bounds(act.Hi)
	if m < 1<<32 && !(lok && hok && (hhi2 < llo || uint64(hhi2-llo) < uint64(m))) {
		// hi - lo >= m, written so that nothing overflows 32 bits:
		// when hi < MIN + m, hi - lo < m holds anyway
		x.items = append(x.items, limitItem(fmt.Sprintf("%s >= %s && %s - %d >= %s", paren(hhi), lit32(-(1<<31)+m), paren(hhi), m, paren(hlo)),
			act.KwPos, "choice range has more than %d values", m))
	}
	if lok && hok {
		return &types.Range{Lo: min(llo, hlo2), Hi: max(lhi, hhi2)}
	}
	return types.Typ[types.Int]
}

func (x *tx) forall(act *ast.ForallAction) error {
	g := x.g
	tn, _ := g.info.Uses[act.Type].(*types.TypeName)
	if tn == nil {
		return g.errorf(act.Type.Pos(), "cannot translate forall(%s)", act.Type.Name)
	}
	alts, lcs, err := g.place(act.Lhs, x.plain)
	if err != nil {
		return err
	}
	// as in birch, the target is evaluated (and checked) only when there
	// is an object to store
	var b strings.Builder
	b.WriteString("if")
	var none []string
	for _, c := range g.prog.Collections {
		if !types.IsSubtype(c.Elem, tn.Named()) {
			continue
		}
		for i := 0; i < int(c.Size); i++ {
			ref := fmt.Sprint(g.colOff[c] + i + 1)
			stmts := append(assertStmts(lcs), forAlts(alts, func(p string) string { return p + " = " + ref }))
			fmt.Fprintf(&b, " :: %s > %d -> %s", g.countName(c), i, strings.Join(stmts, "; "))
		}
		none = append(none, g.countName(c)+" == 0")
	}
	if len(none) == 0 {
		return nil // no collection: no change
	}
	fmt.Fprintf(&b, " :: %s -> skip fi", strings.Join(none, " && "))
	x.emit(b.String())
	x.setHoisted(act.Lhs, "", false)
	return nil
}

func (x *tx) newAction(act *ast.NewAction) error {
	g := x.g
	c, _ := g.info.Uses[act.Collection].(*types.Collection)
	if c == nil {
		return g.errorf(act.Collection.Pos(), "cannot translate new %s", act.Collection.Name)
	}
	cnt := g.countName(c)
	k := x.news[c]
	x.news[c]++
	full := fmt.Sprintf("%s >= %d", cnt, c.Size-int64(k))
	x.items = append(x.items, limitItem(full, act.NewPos, "collection %s is full (%d objects)", c.Name(), c.Size))
	alts, lcs, err := g.place(act.Lhs, x.plain)
	if err != nil {
		return err
	}
	var lenStmt string
	hlen := "-" // the new array's length in terms of the state before the step ("" unknown)
	if arr, ok := c.Elem.Underlying().(*types.Array); ok {
		n, ncs, err := g.expr(act.Len, x.plain)
		if err != nil {
			return err
		}
		ncs = append(ncs, check{fmt.Sprintf("%s >= 0 && %s <= %d", paren(n), paren(n), arr.Len), "index-out-of-bounds"})
		x.emit(assertStmts(ncs)...)
		hlen = ""
		if hn, hcs, err := g.expr(act.Len, x.hoist); err == nil {
			x.items = append(x.items, checkItems(hcs)...)
			x.items = append(x.items, item{kind: itemCheck, cond: fmt.Sprintf("%s >= 0 && %s <= %d", paren(hn), paren(hn), arr.Len)})
			hlen = hn
		}
		lenStmt = fmt.Sprintf("%s[%s - 1].n = %s", g.names[c], cnt, n)
	}
	x.emit(assertStmts(lcs)...)
	if wideFields(c.Elem) {
		// the new object holds a value beyond 32 bits (a default)
		x.emit(wideStmts()...)
	}
	x.emit(cnt + " = " + cnt + " + 1")
	if lenStmt != "" {
		x.emit(lenStmt)
	}
	ref := fmt.Sprintf("%d + %s", g.colOff[c], cnt)
	if g.colOff[c] == 0 {
		ref = cnt
	}
	x.emit(forAlts(alts, func(p string) string { return p + " = " + ref }))
	if _, _, err := x.hoistedPlace(act.Lhs); err != nil {
		return err
	}
	href := fmt.Sprintf("%d + %s", g.colOff[c]+1+k, cnt)
	if hlen != "-" {
		x.store([]alt{{root: c, shape: ".n", dyn: []string{href}}}, hlen)
	}
	x.setHoisted(act.Lhs, href, true)
	// the new object's fields hold their defaults; writes to them mark
	// the collection dirty.
	return nil
}

func (x *tx) lockAction(act *ast.LockAction, pick int, a *altCode) error {
	g := x.g
	alts, cs, err := g.place(act.Lock, x.plain)
	if err != nil {
		return err
	}
	lt, _ := g.typeOf(act.Lock).Underlying().(*types.Lock)
	if lt == nil {
		return g.errorf(act.Lock.Pos(), "not a lock")
	}
	x.emit(assertStmts(cs)...)
	halts, ok, err := x.hoistedPlace(act.Lock)
	if err != nil {
		return err
	}
	// the lock's parts in terms of the state before the transformation,
	// with the earlier writes of the step applied ("" when not known)
	hread := func(part string) string {
		if !ok {
			return ""
		}
		v, err := g.read(field(halts, part), x.hoist)
		if err != nil {
			return ""
		}
		return v
	}
	set := func(part, val string) {
		if ok {
			x.store(field(halts, part), val)
		}
	}
	both := func(format, a, b string) string {
		if a == "" || b == "" {
			return ""
		}
		return fmt.Sprintf(format, a, b)
	}
	wc := "BIR_wc"
	if x.hoist.wc != "" {
		wc = x.hoist.wc
	}
	if x.hoist.dirty[rootWC] {
		wc = ""
	}
	me, bit := g.meExpr(), g.myBitExpr()
	owner, count := hread(".owner"), hread(".count")
	monitor := func() {
		x.emit(fmt.Sprintf("assert(%s || %s)", paren(readAlts(field(alts, ".owner"), "")+" == "+me), KindVar("illegal-monitor-state")))
		if owner != "" {
			x.items = append(x.items, item{kind: itemCheck, cond: owner + " == " + me})
		}
	}
	switch act.Op {
	case token.LOCK:
		if owner == "" || (lt.Reentrant && count == "") {
			return x.unsupportedDirty(act, act.Op.String())
		}
		if lt.Reentrant {
			x.items = append(x.items, item{kind: itemDisable, cond: fmt.Sprintf("%s == 0 || %s == %s", owner, owner, me)})
			x.items = append(x.items, limitItem(fmt.Sprintf("%s == %s && %s >= %d", owner, me, count, g.opts.MaxReentrancy),
				act.OpPos, "lock %s re-acquired more than %d times", format.Expr(act.Lock), g.opts.MaxReentrancy))
		} else {
			x.items = append(x.items, item{kind: itemDisable, cond: owner + " == 0"})
		}
		x.emit(forAlts(alts, func(p string) string {
			return fmt.Sprintf("if :: %s.owner == 0 -> %s.owner = %s; %s.count = 1 :: else -> %s.count = %s.count + 1 fi", p, p, me, p, p, p)
		}))
		set(".count", both("(%s == 0 -> 1 : %s + 1)", owner, count))
		set(".owner", me)
	case token.UNLOCK:
		monitor()
		x.emit(forAlts(alts, func(p string) string {
			return fmt.Sprintf("%s.count = %s.count - 1; if :: %s.count == 0 -> %s.owner = 0 :: else -> skip fi", p, p, p, p)
		}))
		set(".owner", both("(%s == 1 -> 0 : %s)", count, owner))
		set(".count", both("%s - %s", count, "1"))
	case token.WAIT:
		if wc == "" {
			return x.unsupportedDirty(act, act.Op.String())
		}
		monitor()
		x.items = append(x.items, limitItem(paren(wc)+" != 0", act.OpPos, "thread waits on a second lock while waiting on another (not supported)"))
		x.emit(forAlts(alts, func(p string) string {
			s := fmt.Sprintf("BIR_wc = %s.count; %s.count = 0; %s.owner = 0", p, p, p)
			for i, w := range g.setWords() {
				s += fmt.Sprintf("; %s.waiting%s = %s.waiting%s | %s", p, w, p, w, g.myBit(i))
			}
			return s
		}))
		if count == "" {
			x.hoist.dirty[rootWC] = true
		} else {
			x.hoist.wc = count
		}
		var waiting []string
		for _, w := range g.setWords() {
			waiting = append(waiting, hread(".waiting"+w))
		}
		set(".count", "0")
		set(".owner", "0")
		for i, w := range g.setWords() {
			set(".waiting"+w, both("(%s | %s)", waiting[i], g.myBit(i)))
		}
	case token.UNWAIT:
		var notified []string
		known := true
		for _, w := range g.setWords() {
			n := hread(".notified" + w)
			notified = append(notified, n)
			known = known && n != ""
		}
		if owner == "" || !known || wc == "" {
			return x.unsupportedDirty(act, act.Op.String())
		}
		if !g.wideSets {
			x.items = append(x.items, item{kind: itemDisable, cond: fmt.Sprintf("(%s & %s) != 0 && %s == 0", paren(notified[0]), bit, owner)})
		} else {
			x.items = append(x.items, item{kind: itemDisable, cond: fmt.Sprintf("(%s) && %s == 0", g.inSet(notified, me), owner)})
		}
		x.emit(forAlts(alts, func(p string) string {
			s := fmt.Sprintf("%s.owner = %s; %s.count = BIR_wc; BIR_wc = 0", p, me, p)
			for i, w := range g.setWords() {
				s += fmt.Sprintf("; %s.notified%s = %s.notified%s & ~%s", p, w, p, w, g.myBit(i))
			}
			return s
		}))
		set(".owner", me)
		set(".count", wc)
		for i, w := range g.setWords() {
			set(".notified"+w, fmt.Sprintf("(%s & ~%s)", notified[i], g.myBit(i)))
		}
		x.hoist.wc = "0"
	case token.NOTIFY:
		monitor()
		if pick == pickSym {
			return x.symNotify(alts, hread, set)
		}
		if pick >= 0 {
			x.notifyPick(act, pick, alts, hread, set, a)
		} else {
			x.notifyInline(alts, set)
		}
	case token.NOTIFYALL:
		monitor()
		x.emit(forAlts(alts, func(p string) string {
			var parts []string
			for _, w := range g.setWords() {
				parts = append(parts, fmt.Sprintf("%s.notified%s = %s.notified%s | %s.waiting%s; %s.waiting%s = 0", p, w, p, w, p, w, p, w))
			}
			return strings.Join(parts, "; ")
		}))
		for _, w := range g.setWords() {
			set(".notified"+w, both("(%s | %s)", hread(".notified"+w), hread(".waiting"+w)))
			set(".waiting"+w, "0")
		}
	default:
		return g.errorf(act.OpPos, "%s is not supported", act.Op)
	}
	if !ok {
		x.markDirty(act.Lock)
	}
	return nil
}

// reachable computes, inside the step, the set of objects reachable from
// the start object as a bit mask (bit ref-1), then chooses one of those
// that belong to a collection of the type or a subtype.
func (x *tx) reachable(act *ast.ReachableAction) error {
	g := x.g
	tn, _ := g.info.Uses[act.Type].(*types.TypeName)
	if tn == nil {
		return g.errorf(act.Type.Pos(), "cannot translate reachable(..., %s)", act.Type.Name)
	}
	if g.totalObjs > 31 {
		return g.errorf(act.KwPos, "reachable over more than 31 heap objects is not supported yet")
	}
	g.usesReach = true
	from, fcs, err := g.expr(act.From, x.plain)
	if err != nil {
		return err
	}
	alts, lcs, err := g.place(act.Lhs, x.plain)
	if err != nil {
		return err
	}
	x.emit(assertStmts(fcs)...)
	x.emit(assertStmts(lcs)...)
	x.emit(fmt.Sprintf("if :: %s != 0 -> BIR_reach = 1 << (%s - 1) :: else -> skip fi", paren(from), paren(from)))
	// one pass adds the objects referred to by the objects in the set
	var pass []string
	bit := func(r string) string { return fmt.Sprintf("(%s != 0 -> 1 << (%s - 1) : 0)", r, r) }
	for _, c := range g.prog.Collections {
		for i := 0; i < int(c.Size); i++ {
			obj := fmt.Sprintf("%s[%d]", g.names[c], i)
			var refs []string
			for _, sl := range g.refSlots(c) {
				refs = append(refs, bit(obj+sl.suffix))
			}
			if len(refs) == 0 {
				continue
			}
			j := g.colOff[c] + i
			pass = append(pass, fmt.Sprintf("if :: (BIR_reach & %d) != 0 -> BIR_reach = BIR_reach | %s :: else -> skip fi",
				1<<j, strings.Join(refs, " | ")))
		}
	}
	if len(pass) > 0 && g.totalObjs > 1 {
		x.emit(fmt.Sprintf("do :: BIR_i < %d -> %s; BIR_i = BIR_i + 1 :: else -> BIR_i = 0; break od", g.totalObjs-1, strings.Join(pass, "; ")))
	}
	var b strings.Builder
	b.WriteString("if")
	mask := 0
	for _, c := range g.prog.Collections {
		if !types.IsSubtype(c.Elem, tn.Named()) {
			continue
		}
		for i := 0; i < int(c.Size); i++ {
			j := g.colOff[c] + i
			mask |= 1 << j
			ref := fmt.Sprint(j + 1)
			fmt.Fprintf(&b, " :: (BIR_reach & %d) != 0 -> %s", 1<<j, forAlts(alts, func(p string) string { return p + " = " + ref }))
		}
	}
	fmt.Fprintf(&b, " :: (BIR_reach & %d) == 0 -> skip fi", mask)
	x.emit(b.String())
	x.emit("BIR_reach = 0")
	if _, _, err := x.hoistedPlace(act.Lhs); err != nil {
		return err
	}
	if _, _, err := x.hoisted(act.From); err != nil {
		return err
	}
	x.setHoisted(act.Lhs, "", false)
	return nil
}

// startAction translates [lhs :=] start T(args): the arguments are
// evaluated and checked in the starting thread, starting one thread more
// than the bound is a limit, and the new process's pid is _nr_pr before
// the run (processes never die), so its tid is _nr_pr after it.
func (x *tx) startAction(act *ast.StartAction) error {
	g := x.g
	p, _ := g.info.Uses[act.Thread].(*types.Proc)
	if p == nil || !p.Thread {
		return g.errorf(act.Thread.Pos(), "%s is not a thread", act.Thread.Name)
	}
	vals := make([]string, len(act.Args))
	hvals := make([]string, len(act.Args))
	hoks := make([]bool, len(act.Args))
	arrs := make([][]alt, len(act.Args)) // the places of array arguments
	for i, a := range act.Args {
		if i < len(p.Params) {
			if _, isArr := p.Params[i].Type().Underlying().(*types.Array); isArr {
				// an array is passed by value: one scalar parameter
				// of the new process per element
				alts, cs, err := g.place(a, x.plain)
				if err != nil {
					return err
				}
				x.emit(assertStmts(cs)...)
				arrs[i] = alts
				if _, _, err := x.hoistedPlace(a); err != nil {
					return err
				}
				continue
			}
		}
		v, cs, err := g.expr(a, x.plain)
		if err != nil {
			return err
		}
		x.emit(assertStmts(cs)...)
		vals[i] = v
		hvals[i], hoks[i], err = x.hoisted(a)
		if err != nil {
			return err
		}
	}
	k := x.starts
	x.starts++
	nthr := g.nThreadsExpr() // the threads that exist before this start
	x.items = append(x.items, limitItem(fmt.Sprintf("%s >= %d", nthr, g.opts.MaxThreads-k), act.StartPos, "too many threads (the bound is %d)", g.opts.MaxThreads))
	first := p.Locations[0]
	args := make([]string, len(act.Args))
	for i, a := range act.Args {
		if i >= len(p.Params) {
			return g.errorf(a.Pos(), "too many arguments")
		}
		pv := p.Params[i]
		if arr, isArr := pv.Type().Underlying().(*types.Array); isArr {
			dead := first.HasLive && !inLive(first, pv)
			var es []string
			for _, l := range g.leaves(arrs[i], arr) {
				if dead {
					es = append(es, defaultOf32(leafType(arr)))
				} else {
					es = append(es, readAlts(l, ""))
				}
			}
			args[i] = strings.Join(es, ", ")
			continue
		}
		chk := g.valueChecks(a, nil, vals[i], pv.Type())
		x.emit(assertStmts(chk)...)
		if hoks[i] {
			x.items = append(x.items, checkItems(g.valueChecks(a, nil, hvals[i], pv.Type()))...)
		}
		args[i] = vals[i]
		if first.HasLive && !inLive(first, pv) {
			args[i] = defaultOf32(pv.Type()) // dead on arrival
		}
	}
	if g.startsWide(p) {
		// the new thread holds a value beyond 32 bits
		x.emit(wideStmts()...)
	}
	if len(first.Decl.Transformations) == 0 && g.usesTerm {
		if !g.wideSets {
			x.emit(fmt.Sprintf("BIR_term = BIR_term | (1 << %s)", nthr)) // terminated at once
			if x.hoist.term == "" {
				x.hoist.term = "BIR_term"
			}
			x.hoist.term = fmt.Sprintf("(%s | (1 << (%s + %d)))", x.hoist.term, nthr, k)
		} else {
			for i, w := range g.setWords() {
				x.emit(fmt.Sprintf("BIR_term%s = BIR_term%s | %s", w, w, g.tidBit("("+nthr+" + 1)", i))) // terminated at once
			}
			if x.hoist.term == "" {
				x.hoist.term, x.hoist.term2 = "BIR_term", "BIR_term2"
			}
			t := fmt.Sprintf("(%s + %d)", nthr, k+1)
			x.hoist.term = fmt.Sprintf("(%s | %s)", x.hoist.term, g.tidBit(t, 0))
			x.hoist.term2 = fmt.Sprintf("(%s | %s)", x.hoist.term2, g.tidBit(t, 1))
		}
	}
	if g.procTab {
		x.emit(fmt.Sprintf("BIR_proc[%s - %d] = %d", nthr, g.nThreads, g.procNum(p)))
	}
	x.emit(fmt.Sprintf("run %s(%s)", g.names[p], strings.Join(args, ", ")))
	if act.Lhs == nil {
		return nil
	}
	alts, lcs, err := g.place(act.Lhs, x.plain)
	if err != nil {
		return err
	}
	x.emit(assertStmts(lcs)...)
	x.emit(forAlts(alts, func(p string) string { return p + " = " + nthr }))
	if _, _, err := x.hoistedPlace(act.Lhs); err != nil {
		return err
	}
	x.setHoisted(act.Lhs, fmt.Sprintf("%s + %d", nthr, k+1), true)
	return nil
}

// Sets of threads (the terminated threads, a lock's wait and notified
// sets) are bit masks, bit tid-1 for thread tid: one int up to 31 threads,
// and beyond (wideSets, up to birch's 64) two ints, the second word (the
// variable or field with suffix "2") holding tids 33..64 as bits tid-33.
// Every operation on a set is bitwise, so it is done word by word, with
// the bit of a thread in each word (0 in the word that does not hold it);
// the state vector holds the same sets, so states are unchanged.

// setWords are the suffixes of the words of a set of threads.
func (g *gen) setWords() []string {
	if g.wideSets {
		return []string{"", "2"}
	}
	return []string{""}
}

// tidBit is the bit of thread tid (a Promela expression) in word w of a
// set of threads.
func (g *gen) tidBit(tid string, w int) string {
	if v, ok := constInt(stripParens(tid)); ok && v >= 1 && v <= 64 {
		return g.constBit(int(v)-1, w)
	}
	switch {
	case !g.wideSets:
		return fmt.Sprintf("(1 << (%s - 1))", tid)
	case w == 0:
		return fmt.Sprintf("(%s <= 32 -> 1 << (%s - 1) : 0)", tid, tid)
	}
	return fmt.Sprintf("(%s > 32 -> 1 << (%s - 33) : 0)", tid, tid)
}

// constBit is the bit of the thread with tid t+1 in word w.
func (g *gen) constBit(t, w int) string {
	if t/32 != w {
		return "0"
	}
	if t%32 == 31 {
		return "(1 << 31)" // not a positive 32-bit literal
	}
	return fmt.Sprint(1 << uint(t%32))
}

// myBit is the running thread's bit in word w of a set.
func (g *gen) myBit(w int) string {
	if !g.wideSets {
		return g.myBitExpr()
	}
	return g.tidBit(g.meExpr(), w)
}

// inSet is the condition that thread tid is in the set whose words are
// words (Promela expressions).
func (g *gen) inSet(words []string, tid string) string {
	var parts []string
	for i, w := range words {
		if b := g.tidBit(tid, i); b != "0" {
			parts = append(parts, fmt.Sprintf("(%s & %s) != 0", paren(w), b))
		}
	}
	if len(parts) == 0 {
		return "false"
	}
	return strings.Join(parts, " || ")
}

// termMe are the statements that add the running thread to BIR_term.
func (g *gen) termMe() []string {
	var out []string
	for i, w := range g.setWords() {
		out = append(out, fmt.Sprintf("BIR_term%s = BIR_term%s | %s", w, w, g.myBit(i)))
	}
	return out
}
