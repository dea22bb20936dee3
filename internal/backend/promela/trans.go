package promela

import (
	"errors"
	"fmt"
	"strings"

	"birch/internal/bir/ast"
	"birch/internal/bir/token"
	"birch/internal/bir/types"
)

// itemKind classifies the conditions a transformation meets on its way.
type itemKind int

const (
	itemCheck   itemKind = iota // a runtime error unless cond holds
	itemDisable                 // the transformation is disabled unless cond holds
	itemLimit                   // a bound is hit (the path is cut) if cond holds
)

type item struct {
	kind itemKind
	cond string
}

// altCode is one Promela alternative of a location: one transformation
// with one combination of statically expanded choices.
type altCode struct {
	from      *types.Location
	entry     string // executable when the transformation has an outcome other than a limit
	limit     string // executable when the path hits a bound first ("" if it cannot)
	body      []string
	target    *types.Location
	invisible bool
	exit      bool // the body ends with exit
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

// entries computes the entry and limit conditions from the items in order.
func entries(items []item) (entry, limit string) {
	entry, limit = "true", "false"
	for i := len(items) - 1; i >= 0; i-- {
		it := items[i]
		switch it.kind {
		case itemCheck:
			entry = or(not(it.cond), entry)
			limit = and(it.cond, limit)
		case itemDisable:
			entry = and(it.cond, entry)
			limit = and(it.cond, limit)
		case itemLimit:
			entry = and(not(it.cond), entry)
			limit = or(it.cond, limit)
		}
	}
	return entry, limit
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
		out = append(out, item{itemCheck, c.cond})
	}
	return out
}

func (g *gen) thread(t *types.Proc) error {
	g.proc = t
	g.iLocs = map[*types.Location]bool{}
	g.locAlts = map[*types.Location][]*altCode{}
	g.exitLocs = map[*types.Location]bool{}
	g.needCut = false
	g.usesReach = false
	for _, v := range t.Vars() {
		n := ident(v.Name())
		if g.globalNS[n] {
			n = "l_" + n
		}
		g.names[v] = n
	}
	for _, loc := range t.Locations {
		for _, tr := range loc.Decl.Transformations {
			if tr.Invisible && tr.Target != nil {
				if tgt, ok := g.info.Uses[tr.Target].(*types.Location); ok && len(tgt.Decl.Transformations) > 0 {
					g.iLocs[tgt] = true
				}
			}
		}
	}
	for _, loc := range t.Locations {
		for _, tr := range loc.Decl.Transformations {
			alts, err := g.transformation(loc, tr)
			if err != nil {
				return err
			}
			g.locAlts[loc] = append(g.locAlts[loc], alts...)
		}
	}

	g.p("/* thread %s (tid %d) */\n", t.Name(), g.tidOf(t))
	g.p("active proctype %s() {\n", g.names[t])
	first := t.Locations[0]
	for _, v := range t.Vars() {
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
	for _, loc := range t.Locations {
		g.p("\n")
		if len(loc.Decl.Transformations) == 0 {
			g.p("end_%s: false; /* terminated */\n", ident(loc.Name()))
			continue
		}
		g.p("L_%s:\n  if\n", ident(loc.Name()))
		for _, a := range g.locAlts[loc] {
			g.p("  :: atomic { %s ->\n", a.entry)
			for _, s := range g.finish(a) {
				g.p("       %s;\n", s)
			}
			g.p("     }\n")
			if a.limit != "false" {
				g.p("  :: atomic { %s -> goto L_%s } /* a bound is hit: the path is cut */\n", a.limit, ident(loc.Name()))
			}
		}
		g.p("  fi;\n")
	}
	for _, loc := range t.Locations {
		if g.exitLocs[loc] {
			g.p("end_exit_%s: false; /* terminated by exit */\n", ident(loc.Name()))
		}
	}
	if len(g.iLocs) > 0 {
		g.p("\n  /* invisible runs continue here without interleaving */\n  atomic { skip;\n")
		for _, loc := range t.Locations {
			if !g.iLocs[loc] {
				continue
			}
			g.p("IL_%s:\n  if\n", ident(loc.Name()))
			for _, a := range g.locAlts[loc] {
				g.p("  :: %s ->\n", a.entry)
				for _, s := range g.finish(a) {
					g.p("       %s;\n", s)
				}
				if a.limit != "false" {
					g.needCut = true
					g.p("  :: %s -> goto end_cut /* a bound is hit inside an invisible run */\n", a.limit)
				}
			}
			g.p("  fi;\n")
		}
		g.p("  }\n")
	}
	if g.needCut {
		g.p("end_cut: false;\n")
	}
	g.p("}\n\n")
	return nil
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
		s = or(s, or(a.entry, a.limit))
	}
	return s
}

// finish returns the body of an alternative followed by its jump.
func (g *gen) finish(a *altCode) []string {
	out := append([]string(nil), a.body...)
	if a.exit {
		return out
	}
	tgt := a.target
	name := ident(tgt.Name())
	switch {
	case len(tgt.Decl.Transformations) == 0:
		if g.usesTerm {
			out = append(out, "BIR_term = BIR_term | "+myBit)
		}
		out = append(out, "goto end_"+name)
	case a.invisible:
		out = append(out, fmt.Sprintf("if :: %s -> goto IL_%s :: else -> goto L_%s fi", g.enabled(tgt), name, name))
	default:
		out = append(out, "goto L_"+name)
	}
	return out
}

// choiceSet describes the statically expanded choices of a transformation.
type choiceSet struct {
	actions []int // indices of expanded choice actions
	n       []int // number of alternatives of each
}

const maxExpansion = 1024

func (g *gen) expandable(a *ast.ChooseAction) int {
	id, ok := ast.Unparen(a.Lhs).(*ast.Ident)
	if !ok {
		return 0
	}
	v, ok := g.info.Uses[id].(*types.Var)
	if !ok || g.scalar(v.Type()) == "" {
		return 0
	}
	if a.Values != nil {
		return len(a.Values)
	}
	lo, hi := g.info.Types[a.Lo].Value, g.info.Types[a.Hi].Value
	if lo.Kind != types.IntConst || hi.Kind != types.IntConst || hi.Int < lo.Int || hi.Int-lo.Int >= maxExpansion {
		return 0
	}
	return int(hi.Int-lo.Int) + 1
}

// transformation translates one transformation into its alternatives.
func (g *gen) transformation(loc *types.Location, tr *ast.Transformation) ([]*altCode, error) {
	var cs choiceSet
	total := 1
	for i, a := range tr.Actions {
		if c, ok := a.(*ast.ChooseAction); ok {
			if n := g.expandable(c); n > 0 && total*n <= maxExpansion {
				cs.actions = append(cs.actions, i)
				cs.n = append(cs.n, n)
				total *= n
			}
		}
	}
	var out []*altCode
	combo := make([]int, len(cs.actions))
	for {
		pick := map[int]int{}
		for k, i := range cs.actions {
			pick[i] = combo[k]
		}
		a, err := g.alternative(loc, tr, pick)
		if err != nil {
			return nil, err
		}
		out = append(out, a)
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
	return out, nil
}

// tx is the translation state of one alternative.
type tx struct {
	g     *gen
	plain *env
	hoist *env
	items []item
	body  []string
	news  map[*types.Collection]int
	// locked records the locks taken earlier in the transformation by
	// their Promela place: their hoisted place and how often.
	locked map[string]*lockedInfo
}

type lockedInfo struct {
	halts []alt
	k     int
}

// constPlace reports whether the place's Promela text cannot change within
// a transformation: a variable, or constant indices into one.
func (g *gen) constPlace(e ast.Expr) bool {
	switch e := ast.Unparen(e).(type) {
	case *ast.Ident:
		return true
	case *ast.IndexExpr:
		_, isArr := g.typeOf(e.X).Underlying().(*types.Array)
		return isArr && g.info.Types[e.Index].Value.Kind == types.IntConst && g.constPlace(e.X)
	}
	return false
}

func (x *tx) emit(s ...string) { x.body = append(x.body, s...) }

// hoisted translates e in terms of the state before the transformation and
// adds its checks as items; ok is false when e depends on earlier writes.
func (x *tx) hoisted(e ast.Expr) (string, bool, error) {
	v, cs, err := x.g.expr(e, x.hoist)
	if errors.Is(err, errDirty) {
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
		return nil, false, nil
	}
	if err != nil {
		return nil, false, err
	}
	x.items = append(x.items, checkItems(cs)...)
	return alts, true, nil
}

func (x *tx) markDirty(lhs ast.Expr) {
	for _, r := range x.g.roots(lhs) {
		x.hoist.dirty[r] = true
		if v, ok := r.(*types.Var); ok {
			delete(x.hoist.subst, v)
		}
	}
}

// setHoisted records that simple variable lhs now holds hv (in pre-state
// terms), or marks its roots dirty.
func (x *tx) setHoisted(lhs ast.Expr, hv string, ok bool) {
	if id, isID := ast.Unparen(lhs).(*ast.Ident); isID && ok {
		if v, isVar := x.g.info.Uses[id].(*types.Var); isVar && x.g.scalar(v.Type()) != "" {
			x.hoist.subst[v] = hv
			delete(x.hoist.dirty, v)
			return
		}
	}
	x.markDirty(lhs)
}

func (g *gen) alternative(loc *types.Location, tr *ast.Transformation, pick map[int]int) (*altCode, error) {
	x := &tx{
		g:      g,
		plain:  &env{proc: g.proc},
		hoist:  &env{proc: g.proc, hoist: true, subst: map[*types.Var]string{}, dirty: map[any]bool{}},
		news:   map[*types.Collection]int{},
		locked: map[string]*lockedInfo{},
	}
	a := &altCode{from: loc, invisible: tr.Invisible}
	if tr.Target != nil {
		a.target, _ = g.info.Uses[tr.Target].(*types.Location)
	}
	if a.target == nil && !tr.Return {
		return nil, g.errorf(tr.GotoPos, "transformation without a target")
	}
	gv, gcs, err := g.expr(tr.Guard, x.plain)
	if err != nil {
		return nil, err
	}
	x.items = append(x.items, checkItems(gcs)...)
	x.items = append(x.items, item{itemDisable, gv})
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
	a.entry, a.limit = entries(x.items)
	a.body = x.body
	if !a.exit {
		a.body = append(a.body, g.resets(a.target)...)
	}
	return a, nil
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

func (g *gen) resetVar(t types.Type, name string) []string {
	switch u := t.Underlying().(type) {
	case *types.Lock:
		if g.hasWait {
			return []string{name + ".owner = 0", name + ".count = 0", name + ".waiting = 0", name + ".notified = 0"}
		}
		return []string{name + ".owner = 0", name + ".count = 0"}
	case *types.Array:
		var out []string
		for i := int64(0); i < u.Len; i++ {
			out = append(out, g.resetVar(u.Elem, fmt.Sprintf("%s[%d]", name, i))...)
		}
		return out
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
		if s, ok := src.Underlying().(*types.Range); ok && s.Lo >= d.Lo && s.Hi <= d.Hi {
			return nil
		}
		return []check{{fmt.Sprintf("%s >= %d && %s <= %d", paren(v), d.Lo, paren(v), d.Hi), "range"}}
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
	for i := int64(0); i < arr.Len; i++ {
		src := readAlts(ra, fmt.Sprintf("[%d]", i))
		x.emit(forAlts(la, func(p string) string { return fmt.Sprintf("%s[%d] = %s", p, i, src) }))
	}
	x.markDirty(lhs)
	return nil
}

func (x *tx) unsupportedDirty(pos ast.Node, what string) error {
	return x.g.errorf(pos.Pos(), "%s depends on a value written earlier in the same transformation, which the Promela translation does not support yet", what)
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
			lo := g.info.Types[act.Lo].Value.Int
			v := fmt.Sprint(lo + int64(pick))
			return false, x.assignConst(act.Lhs, v)
		}
		return false, x.inlineChoice(act)
	case *ast.ForallAction:
		return false, x.forall(act)
	case *ast.ReachableAction:
		return false, x.reachable(act)
	case *ast.NewAction:
		return false, x.newAction(act)
	case *ast.LockAction:
		return false, x.lockAction(act)
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
			x.items = append(x.items, item{itemCheck, hv})
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
		x.items = append(x.items, item{itemDisable, hv})
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
	case *ast.ExitAction:
		if g.usesTerm {
			x.emit("BIR_term = BIR_term | " + myBit)
		}
		x.emit("goto end_exit_" + ident(loc.Name()))
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
	chk := g.valueChecks(nil, types.Typ[types.Int], v, dst)
	x.emit(assertStmts(lcs)...)
	x.emit(assertStmts(chk)...)
	x.emit(forAlts(alts, func(p string) string { return p + " = " + v }))
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
			return g.errorf(act.KwPos, "a range choice with bounds that are not constant is not supported yet")
		}
		if hi.Int-lo.Int >= 1<<16 {
			return g.errorf(act.KwPos, "a range choice of more than 65536 values is not supported")
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
		}
		stmts = append(stmts, assertStmts(lcs)...)
		stmts = append(stmts, assertStmts(chk)...)
		stmts = append(stmts, forAlts(alts, func(p string) string { return p + " = " + v }))
		b.WriteString(" :: " + strings.Join(stmts, "; "))
	}
	b.WriteString(" fi")
	x.emit(b.String())
	x.markDirty(act.Lhs)
	return nil
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
	x.emit(assertStmts(lcs)...)
	var b strings.Builder
	b.WriteString("if")
	var none []string
	for _, c := range g.prog.Collections {
		if !types.IsSubtype(c.Elem, tn.Named()) {
			continue
		}
		for i := 0; i < int(c.Size); i++ {
			ref := fmt.Sprint(g.colOff[c] + i + 1)
			fmt.Fprintf(&b, " :: %s > %d -> %s", g.countName(c), i, forAlts(alts, func(p string) string { return p + " = " + ref }))
		}
		none = append(none, g.countName(c)+" == 0")
	}
	if len(none) == 0 {
		return nil // no collection: no change
	}
	fmt.Fprintf(&b, " :: %s -> skip fi", strings.Join(none, " && "))
	x.emit(b.String())
	x.markDirty(act.Lhs)
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
	x.items = append(x.items, item{itemLimit, full})
	alts, lcs, err := g.place(act.Lhs, x.plain)
	if err != nil {
		return err
	}
	var lenStmt string
	if arr, ok := c.Elem.Underlying().(*types.Array); ok {
		n, ncs, err := g.expr(act.Len, x.plain)
		if err != nil {
			return err
		}
		ncs = append(ncs, check{fmt.Sprintf("%s >= 0 && %s <= %d", paren(n), paren(n), arr.Len), "index-out-of-bounds"})
		x.emit(assertStmts(ncs)...)
		if hn, hcs, err := g.expr(act.Len, x.hoist); err == nil {
			x.items = append(x.items, checkItems(hcs)...)
			x.items = append(x.items, item{itemCheck, fmt.Sprintf("%s >= 0 && %s <= %d", paren(hn), paren(hn), arr.Len)})
		}
		lenStmt = fmt.Sprintf("%s[%s - 1].n = %s", g.names[c], cnt, n)
	}
	x.emit(assertStmts(lcs)...)
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
	x.setHoisted(act.Lhs, fmt.Sprintf("%d + %s", g.colOff[c]+1+k, cnt), true)
	// the new object's fields hold their defaults; writes to them mark
	// the collection dirty.
	return nil
}

func (x *tx) lockAction(act *ast.LockAction) error {
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
	monitor := func() {
		x.emit(fmt.Sprintf("assert(%s || %s)", paren(readAlts(alts, ".owner")+" == "+me), KindVar("illegal-monitor-state")))
	}
	key := readAlts(alts, "")
	if li := x.locked[key]; li != nil && act.Op == token.LOCK {
		// taken earlier in this transformation: held by this thread now
		if !lt.Reentrant {
			x.items = append(x.items, item{itemDisable, "false"})
		} else {
			owner, count := readAlts(li.halts, ".owner"), readAlts(li.halts, ".count")
			x.items = append(x.items, item{itemLimit, fmt.Sprintf("(%s == %s -> %s : 0) + %d >= %d", owner, me, count, li.k, g.opts.MaxReentrancy)})
		}
		li.k++
		x.emit(forAlts(alts, func(p string) string { return fmt.Sprintf("%s.count = %s.count + 1", p, p) }))
		x.markDirty(act.Lock)
		return nil
	}
	delete(x.locked, key)
	needHoist := act.Op == token.LOCK || act.Op == token.UNWAIT || act.Op == token.WAIT
	var halts []alt
	if needHoist {
		var ok bool
		halts, ok, err = x.hoistedPlace(act.Lock)
		if err != nil {
			return err
		}
		if !ok || (act.Op != token.LOCK && x.hoist.dirty[rootWC]) {
			return x.unsupportedDirty(act, act.Op.String())
		}
	} else if _, _, err := x.hoistedPlace(act.Lock); err != nil {
		return err
	}
	switch act.Op {
	case token.LOCK:
		owner := readAlts(halts, ".owner")
		if lt.Reentrant {
			x.items = append(x.items, item{itemDisable, fmt.Sprintf("%s == 0 || %s == %s", owner, owner, me)})
			x.items = append(x.items, item{itemLimit, fmt.Sprintf("%s == %s && %s >= %d", owner, me, readAlts(halts, ".count"), g.opts.MaxReentrancy)})
		} else {
			x.items = append(x.items, item{itemDisable, owner + " == 0"})
		}
		x.emit(forAlts(alts, func(p string) string {
			return fmt.Sprintf("if :: %s.owner == 0 -> %s.owner = %s; %s.count = 1 :: else -> %s.count = %s.count + 1 fi", p, p, me, p, p, p)
		}))
		if g.constPlace(act.Lock) {
			x.locked[key] = &lockedInfo{halts: halts, k: 1}
		}
	case token.UNLOCK:
		monitor()
		x.emit(forAlts(alts, func(p string) string {
			return fmt.Sprintf("%s.count = %s.count - 1; if :: %s.count == 0 -> %s.owner = 0 :: else -> skip fi", p, p, p, p)
		}))
	case token.WAIT:
		monitor()
		x.items = append(x.items, item{itemCheck, readAlts(halts, ".owner") + " == " + me})
		x.items = append(x.items, item{itemLimit, "BIR_wc != 0"})
		x.emit(forAlts(alts, func(p string) string {
			return fmt.Sprintf("BIR_wc = %s.count; %s.count = 0; %s.owner = 0; %s.waiting = %s.waiting | %s", p, p, p, p, p, myBit)
		}))
		x.hoist.dirty[rootWC] = true
	case token.UNWAIT:
		x.items = append(x.items, item{itemDisable, fmt.Sprintf("(%s & %s) != 0 && %s == 0", readAlts(halts, ".notified"), myBit, readAlts(halts, ".owner"))})
		x.emit(forAlts(alts, func(p string) string {
			return fmt.Sprintf("%s.owner = %s; %s.count = BIR_wc; BIR_wc = 0; %s.notified = %s.notified & ~%s", p, me, p, p, p, myBit)
		}))
		x.hoist.dirty[rootWC] = true
	case token.NOTIFY:
		monitor()
		x.emit(forAlts(alts, func(p string) string {
			var b strings.Builder
			fmt.Fprintf(&b, "if :: %s.waiting == 0 -> skip", p)
			for t := 0; t < g.nThreads; t++ {
				fmt.Fprintf(&b, " :: (%s.waiting & %d) != 0 -> %s.waiting = %s.waiting & ~%d; %s.notified = %s.notified | %d", p, 1<<t, p, p, 1<<t, p, p, 1<<t)
			}
			b.WriteString(" fi")
			return b.String()
		}))
	case token.NOTIFYALL:
		monitor()
		x.emit(forAlts(alts, func(p string) string {
			return fmt.Sprintf("%s.notified = %s.notified | %s.waiting; %s.waiting = 0", p, p, p, p)
		}))
	default:
		return g.errorf(act.OpPos, "%s is not supported", act.Op)
	}
	x.markDirty(act.Lock)
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
			switch u := c.Elem.Underlying().(type) {
			case *types.Record:
				for _, f := range u.Fields {
					fn := obj + "." + ident(f.Name())
					switch ft := f.Type().Underlying().(type) {
					case *types.Ref:
						refs = append(refs, bit(fn))
					case *types.Array:
						if _, ok := ft.Elem.Underlying().(*types.Ref); ok {
							for k := int64(0); k < ft.Len; k++ {
								refs = append(refs, bit(fmt.Sprintf("%s[%d]", fn, k)))
							}
						}
					}
				}
			case *types.Array:
				if _, ok := u.Elem.Underlying().(*types.Ref); ok {
					for k := int64(0); k < u.Len; k++ {
						refs = append(refs, bit(fmt.Sprintf("%s.e[%d]", obj, k)))
					}
				}
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
	x.markDirty(act.Lhs)
	return nil
}
