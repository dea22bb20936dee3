package promela

import (
	"fmt"
	"sort"
	"strings"

	"birch/internal/bir/ast"
	"birch/internal/bir/token"
	"birch/internal/bir/types"
)

// Symbolic choices. A choice that deep expansion cannot give one option
// per value (a range choice over int bounds, a constant range of more than
// maxExpansion values, a reachable whose unrolled condition would be too
// large, choices whose options would multiply beyond maxExpansion, a
// reachable over more than 31 objects) makes every choice of its
// transformation a symbol: the process local BIR_cv<k> for choice k, written
// into the conditions the translation builds before the step. Their
// existential, "some values of the choices let the step have an outcome",
// is a C function (SPIN's embedded C: a c_expr in the entry condition calls
// it) that loops over the first choice's domain, evaluating the rest of the
// step's conditions, converted to C (cexpr.go), for each value; the
// functions nest, one level per choice. A domain is a range of values: a
// range choice's bounds, or the span of a finite domain (objects, threads,
// the values or indices of a list) with C conditions for its members.
//
// Inside the atomic block, before any action (so that the state is still
// the one before the step, in which the conditions are written), each
// symbol gets its value without ever blocking, by a walk from the domain's
// lowest value: a counter BIR_cd, computed in C, leads to the next valid
// value, where the walk either stops or moves on when a further valid value
// exists. Each valid value is reached by exactly one path, and the values
// are assigned by Promela statements only (c_expr is side-effect free and
// appears only in guards or in BIR_cd), so SPIN's simulator, which does not
// run embedded C, still replays a trail with the right values. The action
// then stores BIR_cv<k> and sets it back to 0; BIR_cd is 0 after the walk:
// both are 0 between steps and add no state.

// pickSym marks, in the picks of an alternative, a choice translated
// symbolically.
const pickSym = -2

// symChoice is a symbolic choice of an alternative: its value is
// symName(k), one of lo .. hi (Promela, in the state before the step, over
// the earlier symbols; constants for a finite domain) for which groups
// hold (C conditions over v<k>; none for a range, whose values are all
// valid), after the C statements of prelude (the set of objects reachable).
type symChoice struct {
	k       int
	lo, hi  string
	groups  []symGroup
	prelude string
}

// symGroup is part of a finite domain: the values from .. to for which
// cond holds.
type symGroup struct {
	from, to int64
	cond     string
}

// domain is the C condition that v<k> is in the domain of a finite choice.
func (s *symChoice) domain() string {
	if len(s.groups) == 0 {
		return "1"
	}
	var parts []string
	for _, gr := range s.groups {
		if gr.from == gr.to {
			parts = append(parts, fmt.Sprintf("(v%d == %d && (%s))", s.k, gr.from, gr.cond))
		} else {
			parts = append(parts, fmt.Sprintf("(v%d >= %d && v%d <= %d && (%s))", s.k, gr.from, s.k, gr.to, gr.cond))
		}
	}
	return strings.Join(parts, " || ")
}

// finite sets lo and hi from the groups.
func (s *symChoice) finite() {
	lo, hi := s.groups[0].from, s.groups[0].to
	for _, gr := range s.groups {
		lo, hi = min(lo, gr.from), max(hi, gr.to)
	}
	s.lo, s.hi = fmt.Sprint(lo), fmt.Sprint(hi)
}

func symName(k int) string { return fmt.Sprintf("BIR_cv%d", k) }

// symbolicKind reports whether a choice action can be translated
// symbolically.
func (g *gen) symbolicKind(act ast.Action) bool {
	switch act := act.(type) {
	case *ast.ChooseAction:
		return g.scalar(g.typeOf(act.Lhs)) != ""
	case *ast.ForallAction:
		tn, _ := g.info.Uses[act.Type].(*types.TypeName)
		return tn != nil
	case *ast.ReachableAction:
		tn, _ := g.info.Uses[act.Type].(*types.TypeName)
		return tn != nil
	case *ast.LockAction:
		return act.Op == token.NOTIFY
	}
	return false
}

// mustBeSymbolic reports whether a choice that is made inside the step
// without deep expansion has no inline translation: reachable over more
// than 31 objects (the inline search keeps the set in a bit mask).
func (g *gen) mustBeSymbolic(act ast.Action) bool {
	_, ok := act.(*ast.ReachableAction)
	return ok && g.totalObjs > 31 && g.symbolicKind(act)
}

// cNames returns the resolver of names for the C code of the thread being
// translated: its symbols 0..n-1 are the parameters v0, v1, ...
func (g *gen) cNames(n int) *cNames {
	if g.cGlobals == nil {
		g.cGlobals = map[string]bool{"BIR_term": true, "BIR_term2": true, "BIR_proc": true, "BIR_cut": true}
		for _, v := range g.prog.Globals {
			g.cGlobals[g.names[v]] = true
		}
		for _, c := range g.prog.Collections {
			g.cGlobals[g.names[c]] = true
			g.cGlobals[g.countName(c)] = true
		}
		g.cHidden = map[string]bool{"BIR_always": true, "BIR_sv": true, "BIR_from": true, "BIR_k": true, "BIR_rv": true, "BIR_rva": true}
		for _, k := range errorKinds {
			g.cHidden[KindVar(k)] = true
		}
	}
	sp := map[string]string{}
	for i := 0; i < n; i++ {
		sp[symName(i)] = fmt.Sprintf("v%d", i)
	}
	return &cNames{proc: g.names[g.thr], globals: g.cGlobals, hidden: g.cHidden, special: sp}
}

// toC converts a Promela condition of the alternative to C; the symbols
// become v0, v1, ... and the placeholder symPH the C text inner.
func (x *tx) toC(s, inner string) (string, error) {
	n := x.g.cNames(len(x.syms) + 1)
	if inner != "" {
		n.special[symPH] = inner
	}
	return cExpr(s, n)
}

// symPH stands, in a condition being built, for the call of the function
// of the next level.
const symPH = "BIR_XX"

// newSym adds a symbolic choice: the marker item after the conditions
// that come before the choice.
func (x *tx) newSym(s *symChoice) string {
	s.k = len(x.syms)
	x.syms = append(x.syms, s)
	x.items = append(x.items, item{kind: itemChoice, cond: "true"})
	return symName(s.k)
}

// symRange translates lhs := internChoose(lo .. hi) (or externChoose),
// with any bounds, symbolically: the bounds are evaluated and checked, an
// empty range disables the transformation, a range of MaxChoiceRange
// values or more is a limit, and the value is the symbol.
func (x *tx) symRange(act *ast.ChooseAction) error {
	g := x.g
	_, _, hlo, hhi, err := x.rangeBounds(act)
	if err != nil {
		return err
	}
	clo, chi := g.info.Types[act.Lo].Value, g.info.Types[act.Hi].Value
	var src types.Type
	if clo.Kind == types.IntConst && chi.Kind == types.IntConst {
		m := int64(g.opts.MaxChoiceRange)
		if chi.Int < clo.Int {
			x.items = append(x.items, item{kind: itemDisable, cond: "false"})
		} else if chi.Int-clo.Int >= m {
			x.items = append(x.items, limitItem("true", act.KwPos, "choice range has more than %d values", m))
		}
		src = &types.Range{Lo: min(clo.Int, chi.Int), Hi: max(clo.Int, chi.Int)}
	} else {
		src = x.rangeItems(act, hlo, hhi)
	}
	v := x.newSym(&symChoice{lo: hlo, hi: hhi})
	dst := g.typeOf(act.Lhs)
	alts, pcs, err := g.place(act.Lhs, x.plain)
	if err != nil {
		return err
	}
	return x.storeValue(act.Lhs, dst, alts, pcs, src, v, v+" = 0")
}

// symList translates lhs := internChoose(e0, e1, ...) symbolically: the
// symbol is the value chosen when the values are constants, otherwise the
// index of the value chosen, and each value's checks hold when it is
// chosen.
func (x *tx) symList(act *ast.ChooseAction) error {
	g := x.g
	dst := g.typeOf(act.Lhs)
	alts, lcs, err := g.place(act.Lhs, x.plain)
	if err != nil {
		return err
	}
	if vals, ok := g.constValues(act.Values); ok {
		// the symbol is the value: stored with the checks of a value
		// of the list's span
		s := &symChoice{}
		for _, c := range vals {
			if n := len(s.groups); n > 0 && s.groups[n-1].to+1 == c {
				s.groups[n-1].to = c
			} else if n == 0 || s.groups[n-1].to < c {
				s.groups = append(s.groups, symGroup{c, c, "1"})
			}
		}
		s.finite()
		v := x.newSym(s)
		src := &types.Range{Lo: vals[0], Hi: vals[len(vals)-1]}
		return x.storeValue(act.Lhs, dst, alts, lcs, src, v, v+" = 0")
	}
	s := &symChoice{groups: []symGroup{{0, int64(len(act.Values)) - 1, "1"}}}
	s.finite()
	v := x.newSym(s)
	var b strings.Builder
	b.WriteString("if")
	hvs, hok := make([]string, len(act.Values)), true
	for i, e := range act.Values {
		pv, vcs, err := g.expr(e, x.plain)
		if err != nil {
			return err
		}
		stmts := append(assertStmts(vcs), assertStmts(lcs)...)
		stmts = append(stmts, assertStmts(g.valueChecks(e, nil, pv, dst))...)
		stmts = append(stmts, forAlts(alts, func(p string) string { return p + " = " + pv }))
		fmt.Fprintf(&b, " :: %s == %d -> %s", v, i, strings.Join(stmts, "; "))
		h, hcs, err := g.expr(e, x.hoist)
		if err == errDirty {
			hok = false
			x.lose()
			continue
		} else if err != nil {
			return err
		}
		is := fmt.Sprintf("%s == %d", v, i)
		x.items = append(x.items, checkItems(under(is, append(hcs, g.valueChecks(e, nil, h, dst)...)))...)
		hvs[i] = paren(h)
	}
	b.WriteString(" fi")
	x.emit(b.String(), v+" = 0")
	if _, _, err := x.hoistedPlace(act.Lhs); err != nil {
		return err
	}
	hv := ""
	if hok {
		hv = hvs[len(hvs)-1]
		for i := len(hvs) - 2; i >= 0; i-- {
			hv = fmt.Sprintf("(%s == %d -> %s : %s)", v, i, hvs[i], hv)
		}
	}
	x.setHoisted(act.Lhs, hv, hok)
	return nil
}

// constValues returns the values of a list of constants, sorted (nil,
// false when some value is not a 32-bit constant).
func (g *gen) constValues(es []ast.Expr) ([]int64, bool) {
	var out []int64
	for _, e := range es {
		c := g.info.Types[e].Value
		switch {
		case c.Kind == types.IntConst && fits32(c.Int):
			out = append(out, c.Int)
		case c.Kind == types.BoolConst && c.Bool:
			out = append(out, 1)
		case c.Kind == types.BoolConst:
			out = append(out, 0)
		default:
			if lit, ok := ast.Unparen(e).(*ast.BasicLit); ok && lit.Kind == token.NULL {
				out = append(out, 0)
				continue
			}
			if id, ok := ast.Unparen(e).(*ast.Ident); ok {
				if ec, ok := g.info.Uses[id].(*types.EnumConst); ok {
					out = append(out, ec.Ordinal)
					continue
				}
			}
			return nil, false
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i] < out[j] })
	return out, len(out) > 0
}

// symStore stores val into lhs when cond holds (forall and reachable store
// only when there is an object to choose, as in birch): the place is
// evaluated and checked only then.
func (x *tx) symStore(lhs ast.Expr, cond, val string) error {
	g := x.g
	alts, lcs, err := g.place(lhs, x.plain)
	if err != nil {
		return err
	}
	stmts := append(assertStmts(lcs), forAlts(alts, func(p string) string { return p + " = " + val }))
	x.emit(fmt.Sprintf("if :: %s -> %s :: else -> skip fi", cond, strings.Join(stmts, "; ")))
	_, hcs, perr := g.place(lhs, x.hoist)
	old, ocs, oerr := g.expr(lhs, x.hoist)
	switch {
	case perr != nil && perr != errDirty:
		return perr
	case oerr != nil && oerr != errDirty:
		return oerr
	case perr != nil:
		x.lose()
		x.setHoisted(lhs, "", false)
		return nil
	}
	x.items = append(x.items, checkItems(under(cond, hcs))...)
	_ = ocs // the same checks as the place's
	if oerr != nil {
		x.setHoisted(lhs, "", false)
		return nil
	}
	x.setHoisted(lhs, fmt.Sprintf("(%s -> %s : %s)", cond, val, paren(old)), true)
	return nil
}

// symForall translates lhs := forall(T) symbolically: the symbol is the
// reference of an allocated object of T's collections, or 0 (no change)
// when there is none.
func (x *tx) symForall(act *ast.ForallAction) error {
	g := x.g
	tn, _ := g.info.Uses[act.Type].(*types.TypeName)
	objs := g.objectsOf(tn)
	if len(objs) == 0 {
		return nil // no collection: no change
	}
	k := len(x.syms)
	s := &symChoice{}
	seen := map[*types.Collection]bool{}
	for _, o := range objs {
		if seen[o.c] {
			continue
		}
		seen[o.c] = true
		// object i of C is allocated when i < BIR_n_C + the objects
		// allocated earlier in the step
		n, err := x.toC(g.countName(o.c), "")
		if err != nil {
			return err
		}
		first := int64(g.colOff[o.c] + 1)
		s.groups = append(s.groups, symGroup{first, first + o.c.Size - 1, fmt.Sprintf("v%d - %d < %s + %d", k, first, n, x.news[o.c])})
	}
	c, err := x.toC(x.noneAllocated(objs), "")
	if err != nil {
		return err
	}
	s.groups = append(s.groups, symGroup{0, 0, c})
	s.finite()
	v := x.newSym(s)
	if err := x.symStore(act.Lhs, v+" != 0", v); err != nil {
		return err
	}
	x.emit(v + " = 0")
	return nil
}

// symReachable translates lhs := reachable(r, T) symbolically: the symbol
// is the reference of an object of T's collections reachable from r in the
// heap as the step's earlier writes left it, or 0 (no change) when there is
// none. The set of reachable objects is computed in C, a search over the
// reference fields of the objects (each read with the earlier writes
// applied). When r or the heap cannot be read before the step, the choice
// is made inline.
func (x *tx) symReachable(act *ast.ReachableAction) error {
	g := x.g
	tn, _ := g.info.Uses[act.Type].(*types.TypeName)
	objs := g.objectsOf(tn)
	saved := len(x.items)
	inline := func() error {
		x.items = x.items[:saved]
		if g.totalObjs > 31 {
			// no inline translation either: deep expansion makes
			// the value of r known before the step
			return x.unsupportedDirty(act, "reachable")
		}
		return x.reachable(act)
	}
	hr, ok, err := x.hoisted(act.From)
	if err != nil {
		return err
	}
	if !ok {
		return inline()
	}
	cr, err := x.toC(hr, "")
	if err != nil {
		return err
	}
	n := max(g.totalObjs, 1)
	var pre strings.Builder
	fmt.Fprintf(&pre, "unsigned char R_[%d]; int i_, q_, ch_, none_ = 1; long long t_ = %s;\n", n, cr)
	fmt.Fprintf(&pre, "  for (i_ = 0; i_ < %d; i_++) R_[i_] = 0;\n", n)
	fmt.Fprintf(&pre, "  if (t_ > 0 && t_ <= %d) R_[t_ - 1] = 1;\n", n)
	pre.WriteString("  do {\n    ch_ = 0;\n")
	// each collection's objects in a loop over q_: the reference fields
	// of C[q_] read with the step's earlier writes applied (the Promela
	// name BIR_q stands for q_)
	qn := x.g.cNames(len(x.syms) + 1)
	qn.special["BIR_q"] = "q_"
	for _, c := range g.prog.Collections {
		slots := g.refSlots(c)
		if len(slots) == 0 {
			continue
		}
		if x.hoist.dirty[c] {
			return inline()
		}
		off := g.colOff[c]
		var reads []string
		for _, sl := range slots {
			a := alt{path: fmt.Sprintf("%s[BIR_q]%s", g.names[c], sl.suffix), root: c, shape: sl.shape, dyn: []string{fmt.Sprintf("BIR_q + %d", off+1)}}
			a.dyn = append(a.dyn, sl.ks...)
			v, err := g.read([]alt{a}, x.hoist)
			if err != nil {
				return inline()
			}
			cv, err := cExpr(v, qn)
			if err != nil {
				return err
			}
			reads = append(reads, fmt.Sprintf("t_ = %s; if (t_ > 0 && t_ <= %d && !R_[t_ - 1]) { R_[t_ - 1] = 1; ch_ = 1; }", cv, n))
		}
		fmt.Fprintf(&pre, "    for (q_ = 0; q_ < %d; q_++) if (R_[%d + q_]) {\n      %s\n    }\n", c.Size, off, strings.Join(reads, "\n      "))
	}
	pre.WriteString("  } while (ch_);\n")
	k := len(x.syms)
	s := &symChoice{}
	seen := map[*types.Collection]bool{}
	for _, o := range objs {
		if seen[o.c] {
			continue
		}
		seen[o.c] = true
		first := int64(g.colOff[o.c] + 1)
		s.groups = append(s.groups, symGroup{first, first + o.c.Size - 1, fmt.Sprintf("R_[v%d - 1]", k)})
		fmt.Fprintf(&pre, "  for (i_ = %d; i_ < %d; i_++) if (R_[i_]) none_ = 0;\n", first-1, first-1+o.c.Size)
	}
	s.groups = append(s.groups, symGroup{0, 0, "none_"})
	s.prelude = pre.String()
	s.finite()
	_, fcs, err := g.expr(act.From, x.plain)
	if err != nil {
		return err
	}
	x.emit(assertStmts(fcs)...)
	v := x.newSym(s)
	if len(objs) > 0 {
		if err := x.symStore(act.Lhs, v+" != 0", v); err != nil {
			return err
		}
	}
	x.emit(v + " = 0")
	return nil
}

// symNotify translates notify's choice of a thread symbolically: the
// symbol is the tid of a thread waiting on the lock, or 0 (no change) when
// none waits. waiting and notified are the lock's sets before the step
// with its earlier writes applied; when they are not known, the choice is
// made inline.
func (x *tx) symNotify(alts []alt, hread func(part string) string, set func(part, val string)) error {
	g := x.g
	var waiting, notified, cw []string
	for _, w := range g.setWords() {
		waiting = append(waiting, hread(".waiting"+w))
		notified = append(notified, hread(".notified"+w))
	}
	for i := range waiting {
		if waiting[i] == "" || notified[i] == "" {
			x.notifyInline(alts, set)
			return nil
		}
		c, err := x.toC(waiting[i], "")
		if err != nil {
			return err
		}
		cw = append(cw, c)
	}
	k := len(x.syms)
	var s *symChoice
	if !g.wideSets {
		s = &symChoice{groups: []symGroup{
			{1, int64(g.maxTids), fmt.Sprintf("((%s) >> (v%d - 1)) & 1", cw[0], k)},
			{0, 0, fmt.Sprintf("(%s) == 0", cw[0])},
		}}
	} else {
		s = &symChoice{groups: []symGroup{
			{1, 32, fmt.Sprintf("((%s) >> (v%d - 1)) & 1", cw[0], k)},
			{33, int64(g.maxTids), fmt.Sprintf("((%s) >> (v%d - 33)) & 1", cw[1], k)},
			{0, 0, fmt.Sprintf("(%s) == 0 && (%s) == 0", cw[0], cw[1])},
		}}
	}
	s.finite()
	v := x.newSym(s)
	x.emit(fmt.Sprintf("if :: %s != 0 -> %s :: else -> skip fi", v, forAlts(alts, func(p string) string {
		var parts []string
		for i, w := range g.setWords() {
			bit := g.tidBit(v, i)
			parts = append(parts, fmt.Sprintf("%s.waiting%s = %s.waiting%s & ~%s; %s.notified%s = %s.notified%s | %s", p, w, p, w, bit, p, w, p, w, bit))
		}
		return strings.Join(parts, "; ")
	})), v+" = 0")
	for i, w := range g.setWords() {
		bit := g.tidBit(v, i)
		set(".waiting"+w, fmt.Sprintf("(%s != 0 -> %s & ~%s : %s)", v, paren(waiting[i]), bit, paren(waiting[i])))
		set(".notified"+w, fmt.Sprintf("(%s != 0 -> %s | %s : %s)", v, paren(notified[i]), bit, paren(notified[i])))
	}
	return nil
}

// ---------------------------------------------------------------------------
// Entry conditions, limit conditions and the choice code

// foldEntry is the condition that the path through items (without
// markers) has an outcome other than a limit, where inner is the condition
// after them (entries with inner for "true").
func foldEntry(items []item, inner string) string {
	entry := inner
	for i := len(items) - 1; i >= 0; i-- {
		it := items[i]
		switch it.kind {
		case itemCheck:
			entry = or(not(it.cond), entry)
		case itemDisable:
			entry = and(it.cond, entry)
		case itemLimit:
			entry = and(not(it.cond), entry)
		}
	}
	return entry
}

// reachAll is the condition that the path passes every item: no check
// fails, nothing disables it, no bound is hit.
func reachAll(items []item) string {
	reach := "true"
	for _, it := range items {
		switch it.kind {
		case itemCheck, itemDisable:
			reach = and(reach, it.cond)
		case itemLimit:
			reach = and(reach, not(it.cond))
		}
	}
	return reach
}

// cexprP wraps C text as a Promela expression; SPIN's check of c_expr
// for side effects takes a name followed by '(' at the start for a
// function call, so the text starts with '('.
func cexprP(c string) string { return "c_expr { (" + c + ") }" }

// cfn is a C function of the translation.
type cfn struct {
	proto, def string
}

// symbolic computes the entry condition, the limit options and the choice
// code of an alternative with symbolic choices. The items are split at the
// choices' markers into segments 0..K; S_j(v0..vj) is the rest of the step
// after choice j (segments j+1..K, through E_{j+1}), E_j(v0..v{j-1}) says
// that some value vj of choice j's domain satisfies S_j, and the entry is
// segment 0 folded around E_0. N_j(v0..v{j-1}, from) is the distance from
// from to the next value that satisfies S_j (-1: none), which the choice
// code walks.
func (x *tx) symbolic(a *altCode) error {
	g := x.g
	id := g.nCFn
	g.nCFn++
	K := len(x.syms)
	segs := make([][]item, K+1)
	s := 0
	for _, it := range x.items {
		if it.kind == itemChoice {
			s++
			continue
		}
		segs[s] = append(segs[s], it)
	}
	params := func(j int) string {
		p := "uchar *_this"
		for i := 0; i < j; i++ {
			p += fmt.Sprintf(", int v%d", i)
		}
		return p
	}
	args := func(j int) string {
		p := "_this"
		for i := 0; i < j; i++ {
			p += fmt.Sprintf(", v%d", i)
		}
		return p
	}
	proc := "P" + g.names[g.thr]
	inArgs := func(j int) string {
		p := "_this"
		for i := 0; i < j; i++ {
			p += fmt.Sprintf(", %s->%s", proc, symName(i))
		}
		return p
	}
	var fns []cfn
	long := 0
	add := func(sig, body string) {
		f := cfn{proto: "static int " + sig + ";", def: "static int " + sig + " {\n" + body + "}"}
		long = max(long, len(f.def))
		fns = append(fns, f)
	}
	// outline(e, j) is the C expression e over v0..v{j-1}, with its long
	// parts moved into helper functions of their own (cOutline), so that
	// every function fits a c_code block
	nh := 0
	outline := func(e string, j int) string {
		return cOutline(e, maxCBlock/2, func(body string) string {
			name := fmt.Sprintf("BIR_h%d_%d", id, nh)
			nh++
			add(fmt.Sprintf("%s(%s)", name, params(j)), "  return "+body+";\n")
			return fmt.Sprintf("%s(%s)", name, args(j))
		})
	}
	// walk defines name over choice j's values from start to its upper
	// bound: ret is returned for the first value for which the domain
	// and the C condition body hold, miss when there is none
	walk := func(sig string, j int, start, body, ret, miss string) error {
		sc := x.syms[j]
		hi, err := x.toC(sc.hi, "")
		if err != nil {
			return err
		}
		var b strings.Builder
		if sc.prelude != "" {
			fmt.Fprintf(&b, "  %s", sc.prelude)
		}
		fmt.Fprintf(&b, "  long long hi_ = %s, w_;\n", hi)
		fmt.Fprintf(&b, "  for (w_ = %s; w_ <= hi_; w_++) {\n    int v%d = (int)w_;\n    if ((%s) && (%s)) return %s;\n  }\n  return %s;\n", start, j, outline(sc.domain(), j+1), outline(body, j+1), ret, miss)
		add(sig, b.String())
		return nil
	}
	// exists defines name(v0..v{j-1}): some value vj of choice j makes
	// the C condition body hold
	exists := func(name string, j int, body string) error {
		lo, err := x.toC(x.syms[j].lo, "")
		if err != nil {
			return err
		}
		return walk(fmt.Sprintf("%s(%s)", name, params(j)), j, lo, body, "1", "0")
	}
	sName := func(j int) string { return fmt.Sprintf("BIR_s%d_%d", id, j) }
	xName := func(j int) string { return fmt.Sprintf("BIR_x%d_%d", id, j) }
	nName := func(j int) string { return fmt.Sprintf("BIR_n%d_%d", id, j) }
	for j := K - 1; j >= 0; j-- {
		inner, call := "true", ""
		if j+1 < K {
			inner, call = symPH, fmt.Sprintf("%s(%s)", xName(j+1), args(j+1))
		}
		body, err := x.toC(foldEntry(segs[j+1], inner), call)
		if err != nil {
			return err
		}
		add(fmt.Sprintf("%s(%s)", sName(j), params(j+1)), fmt.Sprintf("  return %s;\n", outline(body, j+1)))
		sj := fmt.Sprintf("%s(%s)", sName(j), args(j+1))
		if err := exists(xName(j), j, sj); err != nil {
			return err
		}
		err = walk(fmt.Sprintf("%s(%s, long long from_)", nName(j), params(j)), j, "from_", sj,
			"w_ - from_ > 2147483647LL ? 2147483647 : (int)(w_ - from_)", "-1")
		if err != nil {
			return err
		}
	}
	// the entry condition: segment 0 in Promela, around E_0
	a.entry = foldEntry(segs[0], cexprP(xName(0)+"(_this)"))
	// the limits: a bound hit in segment s > 0 is hit for some values of
	// choices 0..s-1, with every item before it passed
	nl := 0
	for s, seg := range segs {
		for p, it := range seg {
			if it.kind != itemLimit {
				continue
			}
			last := and(reachAll(seg[:p]), it.cond)
			if last == "false" {
				continue
			}
			if s == 0 {
				a.limits = append(a.limits, limitCode{cond: last, msg: it.msg, pos: it.pos})
				continue
			}
			lName := func(j int) string { return fmt.Sprintf("BIR_l%d_%d_%d", id, nl, j) }
			body, err := x.toC(last, "")
			if err != nil {
				return err
			}
			for j := s - 1; j >= 0; j-- {
				if j < s-1 {
					body, err = x.toC(and(reachAll(segs[j+1]), symPH), fmt.Sprintf("%s(%s)", lName(j+1), args(j+1)))
					if err != nil {
						return err
					}
				}
				if err := exists(lName(j), j, body); err != nil {
					return err
				}
			}
			a.limits = append(a.limits, limitCode{cond: and(reachAll(segs[0]), cexprP(lName(0)+"(_this)")), msg: it.msg, pos: it.pos})
			nl++
		}
	}
	// the choices, at the start of the block: level j is entered when the
	// path reaches choice j (segment j passes) and some value is valid; a
	// path that fails a check before the choice skips it (the error comes
	// first in the body). BIR_cd counts the steps to the next valid value.
	var level func(j int) string
	level = func(j int) string {
		v := symName(j)
		reach := reachAll(segs[j])
		call := fmt.Sprintf("%s(%s)", xName(j), inArgs(j))
		next := func(from string) string { return fmt.Sprintf("%s(%s, %s)", nName(j), inArgs(j), from) }
		choose := fmt.Sprintf("%s = %s; BIR_cd = %s; do :: %s -> %s = %s + 1; BIR_cd = BIR_cd - 1 :: %s -> break :: %s -> %s = %s + 1; BIR_cd = %s od; BIR_cd = 0",
			v, x.syms[j].lo, cexprP(next(proc+"->"+v)),
			cexprP(proc+"->BIR_cd > 0"), v, v,
			cexprP(proc+"->BIR_cd == 0"),
			cexprP(fmt.Sprintf("%s->BIR_cd == 0 && %s >= 0", proc, next("(long long)"+proc+"->"+v+" + 1"))), v, v,
			cexprP(next(proc+"->"+v)))
		if j+1 < K {
			choose += "; " + level(j+1)
		}
		return fmt.Sprintf("if :: %s -> %s :: %s -> skip fi", and(reach, cexprP(call)), choose, or(not(reach), cexprP("!"+call)))
	}
	if long > maxCBlock {
		// not expected: every long expression is outlined (cOutline), and
		// the statements of a prelude are short
		return g.errorf(x.tr.WhenPos, "the conditions of this transformation's choices need a C function of %d bytes, more than SPIN's embedded C takes (%d)", long, maxCBlock)
	}
	a.pre = []string{level(0)}
	a.cfns = fns
	a.nsym = K
	return nil
}

// maxCBlock bounds the text of one c_code block: SPIN reads a block into a
// fixed buffer (about 60 KB in SPIN 6.5.2: "inline text too long").
const maxCBlock = 30000

// emitC writes the C functions of the symbolic choices, in c_code blocks
// of at most maxCBlock bytes (symbolic splits long conditions into helper
// functions, cOutline, so that each function fits one): the prototypes
// first, so that the functions may call each other in any order.
func (g *gen) emitC() error {
	if len(g.cfns) == 0 {
		return nil
	}
	g.p("\n/* embedded C: the existential entry conditions of steps with symbolic choices\n")
	g.p("   (docs/promela.md, \"Symbolic choices\"), called from c_expr */\n")
	var blocks []string
	var cur strings.Builder
	flush := func() {
		if cur.Len() > 0 {
			blocks = append(blocks, cur.String())
			cur.Reset()
		}
	}
	put := func(s string) {
		if cur.Len()+len(s) > maxCBlock {
			flush()
		}
		cur.WriteString(s)
		cur.WriteString("\n")
	}
	for _, f := range g.cfns {
		put(f.proto)
	}
	flush()
	for _, f := range g.cfns {
		put(f.def)
	}
	flush()
	for _, b := range blocks {
		g.p("c_code {\n%s}\n", b)
	}
	return nil
}
