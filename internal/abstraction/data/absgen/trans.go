package absgen

import (
	"fmt"
	"strconv"
	"strings"

	"birch/internal/abstraction/data"
	"birch/internal/bir/ast"
	"birch/internal/bir/format"
	"birch/internal/bir/token"
	"birch/internal/bir/types"
)

// procState holds the synthetic locals of one thread or function.
type procState struct {
	p     *types.Proc
	z     string // an int, 0 between transformations: markers and division errors
	rv    string // a range 0..0, for range errors
	bools []string
	temps map[*data.Abstraction][]string
	order []*data.Abstraction
}

func (g *gen) proc(d ast.Decl) {
	var body *ast.Body
	var name *ast.Ident
	var head, result string
	switch d := d.(type) {
	case *ast.ThreadDecl:
		body, name, head = d.Body, d.Name, "thread "
		if d.Main {
			head = "main thread "
		}
	case *ast.FunctionDecl:
		body, name, head = d.Body, d.Name, "function "
		if d.Result != nil {
			result = format.TypeExpr(d.Result)
		}
	}
	p, _ := g.prog.Procs.LookupLocal(name.Name).(*types.Proc)
	if p == nil {
		g.errorf(name.Pos(), "%s is not a thread or function", name.Name)
		return
	}
	if a := g.res.Funcs[p]; a != nil && !a.Identity {
		result = g.tokenType(a).name
	}
	ps := &procState{p: p, temps: map[*data.Abstraction][]string{}}

	// The locations first, to learn the synthetic locals.
	main := g.b
	g.b = &strings.Builder{}
	firstSpan := len(g.spans)
	for _, l := range body.Locations {
		g.location(ps, l)
	}
	locs := g.b.String()
	lastSpan := len(g.spans)
	g.b = main

	g.printf("%s%s (", head, name.Name)
	for i, pd := range body.Params {
		for j, id := range pd.Names {
			if i > 0 || j > 0 {
				g.printf(", ")
			}
			start := g.b.Len()
			v, _ := g.info.Defs[id].(*types.Var)
			g.printf("%s : %s", id.Name, g.typeText(v, pd.Type))
			g.span(start, id.Pos())
		}
	}
	g.printf(")")
	if result != "" {
		g.printf(" : %s", result)
	}
	g.printf("\n")
	for _, ld := range body.Locals {
		g.varDecl(ld, "  ", ";\n")
	}
	if ps.z != "" {
		g.printf("  %s : int;\n", ps.z)
	}
	if ps.rv != "" {
		g.printf("  %s : range 0..0;\n", ps.rv)
	}
	for _, b := range ps.bools {
		g.printf("  %s : boolean;\n", b)
	}
	for _, a := range ps.order {
		for _, t := range ps.temps[a] {
			g.printf("  %s : %s;\n", t, g.tokenType(a).name)
		}
	}
	off := g.b.Len()
	for i := firstSpan; i < lastSpan; i++ {
		g.spans[i].start += off
		g.spans[i].end += off
	}
	g.b.WriteString(locs)
	g.printf("end %s;\n", name.Name)
}

func (ps *procState) zero(g *gen) string {
	if ps.z == "" {
		ps.z = g.unique("abs_z")
	}
	return ps.z
}

func (ps *procState) boolTemp(g *gen, i int) string {
	for len(ps.bools) <= i {
		ps.bools = append(ps.bools, g.unique("abs_b"))
	}
	return ps.bools[i]
}

func (ps *procState) tokTemp(g *gen, a *data.Abstraction, i int) string {
	if _, ok := ps.temps[a]; !ok {
		ps.order = append(ps.order, a)
	}
	for len(ps.temps[a]) <= i {
		ps.temps[a] = append(ps.temps[a], g.unique("abs_"+a.Name))
	}
	return ps.temps[a][i]
}

// outTrans is one abstract transformation before it is printed.
type outTrans struct {
	guard     string
	invisible bool
	acts      []string
	origin    []int
	tail      string
	target    string
	choose    bool
	o         *Origin
}

func (g *gen) location(ps *procState, l *ast.Location) {
	start := g.b.Len()
	g.printf("  loc %s:", l.Name.Name)
	if l.Live != nil {
		var names []string
		for _, id := range l.Live.Names {
			names = append(names, id.Name)
		}
		g.printf(" live { %s }", strings.Join(names, ", "))
	}
	g.printf("\n")
	g.span(start, l.Pos())
	loc := ps.p.Location(l.Name.Name)
	var outs []*outTrans
	for i, t := range l.Transformations {
		outs = append(outs, g.transformation(ps, loc, i, t)...)
	}
	// BIR: between two locations, all transformations or none contain a
	// choose action.
	withChoose := map[string]bool{}
	for _, o := range outs {
		if o.choose {
			withChoose[o.target] = true
		}
	}
	for _, o := range outs {
		if withChoose[o.target] && !o.choose {
			o.acts = append([]string{ps.zero(g) + " := externChoose(0);"}, o.acts...)
			o.origin = append([]int{-1}, o.origin...)
			o.choose = true
		}
	}
	for _, o := range outs {
		start := g.b.Len()
		g.printf("    when %s do ", o.guard)
		if o.invisible {
			g.printf("invisible ")
		}
		g.printf("{")
		for i, a := range o.acts {
			g.printf(" ")
			s := g.b.Len()
			g.printf("%s", a)
			if k := o.origin[i]; k >= 0 {
				g.span(s, o.o.Transformation.Actions[k].Pos())
			}
		}
		g.printf(" } %s\n", o.tail)
		g.span(start, o.o.Transformation.Pos())
		o.o.Actions = o.origin
		g.origins = append(g.origins, o.o)
	}
}

// probe is an abstract value a transformation's actions read in the state
// before it: an abstract variable, field or element, or a concrete
// expression abstracted by an abstraction's function.
type probe struct {
	key      string
	expr     ast.Expr
	abs      *data.Abstraction
	concrete bool
}

// caseResult is the outcome of one case of a transformation.
type caseResult struct {
	acts      []string
	origin    []int
	tail      string
	imprecise bool
	choose    bool
	vals      [][]int
}

func (g *gen) transformation(ps *procState, loc *types.Location, idx int, t *ast.Transformation) []*outTrans {
	may, must := g.boolForms(t.Guard)
	var probes []*probe
	disc := &run{g: g, ps: ps, probes: &probes, discover: true}
	disc.exec(t)
	total := 1
	for _, p := range probes {
		total *= len(p.abs.Tokens)
		if total > g.cfg.MaxCases {
			g.errorf(t.Pos(), "this transformation reads too many abstract values: more than %d cases", g.cfg.MaxCases)
			return nil
		}
	}
	var groups []*caseResult
	var dontCare [][]int
	byKey := map[string]*caseResult{}
	val := make([]int, len(probes))
	for c := 0; c < total; c++ {
		// The guard reads the state before the actions: evaluate it in a run
		// that has not executed them (after them, a variable the actions
		// write would have its new token).
		pre := &run{g: g, ps: ps, probes: &probes, val: val}
		pre.reset()
		r := &run{g: g, ps: ps, probes: &probes, val: val}
		r.exec(t)
		if !pre.guardMay(t.Guard) {
			// The guard is false in this case: the case is a don't-care.
			dontCare = append(dontCare, append([]int(nil), val...))
			next(val, probes)
			continue
		}
		key := strings.Join(r.acts, "\x00") + "\x01" + r.tail + "\x01" + strconv.FormatBool(r.imprecise)
		cr := byKey[key]
		if cr == nil {
			cr = &caseResult{acts: r.acts, origin: r.origin, tail: r.tail, imprecise: r.imprecise, choose: r.choose}
			byKey[key] = cr
			groups = append(groups, cr)
		}
		cr.vals = append(cr.vals, append([]int(nil), val...))
		next(val, probes)
	}
	target := "return"
	if !t.Return && t.Target != nil {
		target = t.Target.Name
	}
	precise := may.String() == must.String()
	var outs []*outTrans
	for _, cr := range groups {
		cond := g.caseCond(probes, cr.vals, dontCare)
		mk := func(guard *form, marker bool) {
			if guard.op == 'F' {
				return
			}
			o := &outTrans{guard: guard.String(), invisible: t.Invisible, tail: cr.tail, target: target, choose: cr.choose}
			o.acts = append(o.acts, cr.acts...)
			o.origin = append(o.origin, cr.origin...)
			imprecise := cr.imprecise
			if marker {
				o.acts = append([]string{ps.zero(g) + " := internChoose(0);"}, o.acts...)
				o.origin = append([]int{-1}, o.origin...)
				o.choose, imprecise = true, true
			}
			caseText := ""
			if len(cr.vals) < total {
				caseText = cond.String()
			}
			o.o = &Origin{Proc: ps.p, Location: loc, Transformation: t, Index: idx, Case: caseText, Imprecise: imprecise}
			outs = append(outs, o)
		}
		if precise {
			mk(and(may, cond), false)
		} else {
			mk(and(must, cond), false)
			mk(and(may, not(must), cond), true)
		}
	}
	return outs
}

// next advances a valuation of the probes.
func next(val []int, probes []*probe) {
	for i := len(val) - 1; i >= 0; i-- {
		val[i]++
		if val[i] < len(probes[i].abs.Tokens) {
			return
		}
		val[i] = 0
	}
}

// caseCond is the condition of a group of cases on the probes: true in the
// group's cases, false in the cases of other groups, anything in the
// don't-cares (cases where the guard is false).
func (g *gen) caseCond(probes []*probe, vals, dontCare [][]int) *form {
	if len(probes) == 0 {
		return fTrue
	}
	key := func(v []int) string { return fmt.Sprint(v) }
	in, dc := map[string]bool{}, map[string]bool{}
	for _, v := range vals {
		in[key(v)] = true
	}
	for _, v := range dontCare {
		dc[key(v)] = true
	}
	var all [][]int
	v := make([]int, len(probes))
	for {
		all = append(all, append([]int(nil), v...))
		next(v, probes)
		if allZero(v) {
			break
		}
	}
	// cube returns the smallest product of token sets holding the cases
	// sel, when it holds no case outside sel ∪ don't-cares.
	cube := func(sel func(k string) bool) (*form, bool) {
		proj := make([]data.Set, len(probes))
		n := 0
		for _, v := range all {
			if k := key(v); sel(k) && !dc[k] {
				n++
				for i, t := range v {
					proj[i] = proj[i].With(t)
				}
			}
		}
		if n == 0 {
			return nil, false
		}
		for _, v := range all {
			k := key(v)
			if sel(k) || dc[k] {
				continue
			}
			inside := true
			for i, t := range v {
				inside = inside && proj[i].Has(t)
			}
			if inside {
				return nil, false
			}
		}
		var conj []*form
		for i, p := range probes {
			if proj[i] == data.All(len(p.abs.Tokens)) {
				continue
			}
			var alts []*form
			for t := range p.abs.Tokens {
				if proj[i].Has(t) {
					alts = append(alts, g.probeCond(p, t))
				}
			}
			conj = append(conj, or(alts...))
		}
		return and(conj...), true
	}
	if c, ok := cube(func(k string) bool { return in[k] }); ok {
		return c
	}
	// The complement (the other groups' cases) may be a cube.
	if c, ok := cube(func(k string) bool { return !in[k] }); ok {
		return not(c)
	}
	var alts []*form
	for _, v := range vals {
		var conj []*form
		for i, p := range probes {
			conj = append(conj, g.probeCond(p, v[i]))
		}
		alts = append(alts, and(conj...))
	}
	return or(alts...)
}

func allZero(v []int) bool {
	for _, x := range v {
		if x != 0 {
			return false
		}
	}
	return true
}

func (g *gen) probeCond(p *probe, t int) *form {
	if p.concrete {
		return g.condForm(p.abs, t, p.expr)
	}
	return atom(g.leafText(p.expr)+" == "+g.tok(p.abs, t), false)
}

// run is the abstract execution of one transformation's actions in one
// case (or, with discover, the run that finds the probes).
type run struct {
	g        *gen
	ps       *procState
	probes   *[]*probe
	val      []int
	discover bool

	store   map[*types.Var]data.Set // abstract plain variables written
	lstore  map[string]data.Set     // the abstract field or element written last, by its text
	written map[*types.Var]bool     // plain variables written
	heapW   bool                    // a field or element was written
	absW    bool                    // an abstract field or element was written

	acts      []string
	origin    []int
	pre       []string
	tail      string
	imprecise bool
	choose    bool
	nb        int
	nt        map[*data.Abstraction]int
	usedZ     bool
	keep      map[string]bool // temporaries a final call passes
}

func (r *run) emit(k int, a string) {
	for _, p := range r.pre {
		r.acts = append(r.acts, p)
		r.origin = append(r.origin, -1)
	}
	r.pre = r.pre[:0]
	if a != "" {
		r.acts = append(r.acts, a)
		r.origin = append(r.origin, k)
	}
}

// reset empties what a run has executed.
func (r *run) reset() {
	r.store = map[*types.Var]data.Set{}
	r.lstore = map[string]data.Set{}
	r.written = map[*types.Var]bool{}
	r.nt = map[*data.Abstraction]int{}
	r.keep = map[string]bool{}
}

func (r *run) exec(t *ast.Transformation) {
	g := r.g
	r.reset()
	for k, a := range t.Actions {
		r.action(k, a)
	}
	if t.Return {
		r.tail = "return;"
		if t.Result != nil {
			fa := g.res.Funcs[r.ps.p]
			switch {
			case fa != nil && !fa.Identity && r.isLeaf(t.Result, fa) && rangeCond(r.ps.p.Result) == "":
				r.value(t.Result, fa)
				r.tail = "return " + format.Expr(t.Result) + ";"
			case fa != nil && !fa.Identity:
				r.tail = "return " + r.tokExpr(r.value(t.Result, fa), fa) + ";"
			case types.IsBoolean(g.info.TypeOf(t.Result)):
				r.tail = "return " + r.boolText(t.Result) + ";"
			default:
				r.tail = "return " + format.Expr(t.Result) + ";"
			}
			r.emit(-1, "")
		}
	} else {
		r.tail = "goto " + t.Target.Name + ";"
	}
	// Reset the temporaries, before a final wait or call.
	var resets []string
	if r.usedZ {
		resets = append(resets, r.ps.z+" := 0;")
	}
	for i := 0; i < r.nb; i++ {
		if b := r.ps.bools[i]; !r.keep[b] {
			resets = append(resets, b+" := false;")
		}
	}
	for _, a := range r.ps.order {
		for i := 0; i < r.nt[a]; i++ {
			if v := r.ps.temps[a][i]; !r.keep[v] {
				resets = append(resets, v+" := "+g.tok(a, a.Default)+";")
			}
		}
	}
	if t.Return {
		return // the frame is popped
	}
	at := len(r.acts)
	if n := len(t.Actions); n > 0 && at > 0 && r.origin[at-1] == n-1 {
		switch a := t.Actions[n-1].(type) {
		case *ast.CallAction:
			at--
		case *ast.LockAction:
			if a.Op == token.WAIT {
				at--
			}
		}
	}
	acts := append([]string(nil), r.acts[:at]...)
	origin := append([]int(nil), r.origin[:at]...)
	for _, s := range resets {
		acts = append(acts, s)
		origin = append(origin, -1)
	}
	r.acts = append(acts, r.acts[at:]...)
	r.origin = append(origin, r.origin[at:]...)
}

func (r *run) zero() string {
	r.usedZ = true
	return r.ps.zero(r.g)
}

func (r *run) boolTemp() string {
	n := r.ps.boolTemp(r.g, r.nb)
	r.nb++
	return n
}

func (r *run) tokTemp(a *data.Abstraction) string {
	n := r.ps.tokTemp(r.g, a, r.nt[a])
	r.nt[a]++
	return n
}

// tokExpr is an expression for a set of tokens: the token, or a temporary
// chosen among them.
func (r *run) tokExpr(s data.Set, a *data.Abstraction) string {
	if s.Len() <= 1 {
		return r.g.tok(a, first(s))
	}
	t := r.tokTemp(a)
	r.pre = append(r.pre, t+" := "+r.choice("internChoose", s, a)+";")
	r.imprecise, r.choose = true, true
	return t
}

func first(s data.Set) int {
	for i := 0; i < 64; i++ {
		if s.Has(i) {
			return i
		}
	}
	return 0
}

func (r *run) choice(kw string, s data.Set, a *data.Abstraction) string {
	var names []string
	for i := range a.Tokens {
		if s.Has(i) {
			names = append(names, r.g.tok(a, i))
		}
	}
	return kw + "(" + strings.Join(names, ", ") + ")"
}

// written marks the left-hand side lhs as written.
func (r *run) write(lhs ast.Expr, abstract bool, s data.Set) {
	if id, ok := ast.Unparen(lhs).(*ast.Ident); ok {
		if v, ok := r.g.info.Uses[id].(*types.Var); ok {
			r.written[v] = true
			if abstract {
				r.store[v] = s
			}
			return
		}
	}
	if abstract && !r.affected(lhs, true) {
		for k := range r.lstore {
			delete(r.lstore, k) // may be aliases
		}
		r.lstore[format.Expr(lhs)] = s
	} else if abstract {
		clear(r.lstore)
	}
	r.heapW = true
	if abstract {
		r.absW = true
	}
}

func (r *run) action(k int, a ast.Action) {
	g := r.g
	switch a := a.(type) {
	case *ast.AssignAction:
		la := g.absOf(a.Lhs)
		lt := g.info.TypeOf(a.Lhs)
		switch {
		case la != nil && types.IsInteger(lt):
			// A copy of a variable, field or element of the same
			// abstraction copies its token at run time: exact.
			if r.isLeaf(a.Rhs, la) {
				if s := r.value(a.Rhs, la); s.Len() > 1 && !r.narrows(a.Lhs, la, s) {
					r.emit(k, format.Expr(a.Lhs)+" := "+format.Expr(a.Rhs)+";")
					r.write(a.Lhs, true, s)
					return
				}
			}
			s := r.rangeCheck(a.Lhs, la, r.value(a.Rhs, la))
			if s == 0 {
				r.emit(k, "") // the division or the store fails
			} else if s.Len() == 1 {
				r.emit(k, format.Expr(a.Lhs)+" := "+g.tok(la, first(s))+";")
			} else {
				r.emit(k, format.Expr(a.Lhs)+" := "+r.choice("internChoose", s, la)+";")
				r.imprecise, r.choose = true, true
			}
			r.write(a.Lhs, true, s)
		case types.IsBoolean(lt):
			rhs := r.boolText(a.Rhs)
			r.emit(k, format.Expr(a.Lhs)+" := "+rhs+";")
			r.write(a.Lhs, false, 0)
		default:
			if ra := g.absOf(a.Rhs); la != ra && (la != nil || ra != nil) {
				g.errorf(a.Rhs.Pos(), "cannot coerce an array of %s to an array of %s", absName(ra), absName(la))
			}
			r.emit(k, format.Expr(a.Lhs)+" := "+format.Expr(a.Rhs)+";")
			r.write(a.Lhs, la != nil, data.All(64))
		}
	case *ast.ChooseAction:
		r.choose = true
		kw := "internChoose"
		if a.Extern {
			kw = "externChoose"
		}
		la := g.absOf(a.Lhs)
		if la == nil || !types.IsInteger(g.info.TypeOf(a.Lhs)) {
			var vals []string
			for _, v := range a.Values {
				if types.IsBoolean(g.info.TypeOf(v)) {
					vals = append(vals, r.boolText(v))
				} else {
					vals = append(vals, format.Expr(v))
				}
			}
			switch {
			case a.Type != nil:
				vals = []string{format.TypeExpr(a.Type)}
			case a.Values == nil:
				vals = []string{format.Expr(a.Lo) + " .. " + format.Expr(a.Hi)}
			}
			r.emit(k, format.Expr(a.Lhs)+" := "+kw+"("+strings.Join(vals, ", ")+");")
			r.write(a.Lhs, false, 0)
			return
		}
		var s data.Set
		var names []string
		exact := true
		if a.Values != nil {
			for _, v := range a.Values {
				vs := r.value(v, la)
				if vs.Len() > 1 {
					exact = false
				}
				for i := range la.Tokens {
					if vs.Has(i) && !s.Has(i) {
						s = s.With(i)
						names = append(names, g.tok(la, i))
					}
				}
			}
		} else if a.Type != nil {
			// Every value of the type: the tokens that hold one.
			s = r.typeTokens(g.info.TypeExprs[a.Type], la)
			for i := range la.Tokens {
				if s.Has(i) {
					names = append(names, g.tok(la, i))
				}
			}
		} else {
			lo, ok1 := g.constInt(a.Lo)
			hi, ok2 := g.constInt(a.Hi)
			if ok1 && ok2 && hi >= lo && uint64(hi-lo) <= 1<<16 {
				for k := uint64(0); k <= uint64(hi-lo); k++ {
					s = s.With(la.Abstract64(lo + int64(k)))
				}
			} else {
				s, exact = data.All(len(la.Tokens)), false
			}
			for i := range la.Tokens {
				if s.Has(i) {
					names = append(names, g.tok(la, i))
				}
			}
		}
		if !exact {
			kw = "internChoose"
		}
		if kw == "internChoose" {
			r.imprecise = true
		}
		if in := r.rangeCheck(a.Lhs, la, s); in != s && in != 0 {
			// Values out of the variable's range are the concrete error.
			s, names = in, nil
			for i := range la.Tokens {
				if s.Has(i) {
					names = append(names, g.tok(la, i))
				}
			}
		}
		if len(names) == 0 {
			names = []string{g.tok(la, la.Default)}
		}
		r.emit(k, format.Expr(a.Lhs)+" := "+kw+"("+strings.Join(names, ", ")+");")
		r.write(a.Lhs, true, s)
	case *ast.NewAction:
		r.emit(k, format.Expr(a.Lhs)+" := "+nodeText(a)+";")
		r.write(a.Lhs, false, 0)
	case *ast.ForallAction:
		r.choose = true
		r.emit(k, format.Expr(a.Lhs)+" := forall("+a.Type.Name+");")
		r.write(a.Lhs, false, 0)
	case *ast.ReachableAction:
		r.choose = true
		r.emit(k, format.Expr(a.Lhs)+" := reachable("+format.Expr(a.From)+", "+a.Type.Name+");")
		r.write(a.Lhs, false, 0)
	case *ast.LockAction:
		r.emit(k, a.Op.String()+"("+format.Expr(a.Lock)+");")
	case *ast.ExitAction:
		r.emit(k, "exit;")
	case *ast.StartAction:
		args := r.args(a.Thread, a.Args, false)
		s := "start " + a.Thread.Name + "(" + args + ");"
		if a.Lhs != nil {
			s = format.Expr(a.Lhs) + " := " + s
		}
		r.emit(k, s)
		if a.Lhs != nil {
			r.write(a.Lhs, false, 0)
		}
	case *ast.CallAction:
		args := r.args(a.Func, a.Args, true)
		s := "call " + a.Func.Name + "(" + args + ");"
		if a.Lhs != nil {
			la := g.absOf(a.Lhs)
			var fa *data.Abstraction
			if p, ok := g.info.Uses[a.Func].(*types.Proc); ok {
				if f := g.res.Funcs[p]; f != nil && !f.Identity {
					fa = f
				}
			}
			if la != fa {
				g.errorf(a.Lhs.Pos(), "cannot coerce the result of %s (%s) to %s: the abstract model cannot convert a value after a call", a.Func.Name, absName(fa), absName(la))
			}
			s = format.Expr(a.Lhs) + " := " + s
		}
		r.emit(k, s)
	case *ast.PrintAction:
		var args []string
		for _, x := range a.Args {
			args = append(args, r.printArg(x))
		}
		r.emit(k, "println("+strings.Join(args, ", ")+");")
	case *ast.AssertAction:
		r.emit(k, "assert("+r.boolText(a.Cond)+");")
	case *ast.AssumeAction:
		r.emit(k, "assume("+r.boolText(a.Cond)+");")
	}
}

func absName(a *data.Abstraction) string {
	if a == nil {
		return "concrete"
	}
	return a.Name
}

func nodeText(a *ast.NewAction) string {
	if a.Len != nil {
		return "new " + a.Collection.Name + "[" + format.Expr(a.Len) + "]"
	}
	return "new " + a.Collection.Name
}

// args prints the arguments of a call or start.
func (r *run) args(callee *ast.Ident, xs []ast.Expr, call bool) string {
	g := r.g
	p, _ := g.info.Uses[callee].(*types.Proc)
	var out []string
	for i, x := range xs {
		var pv *types.Var
		if p != nil && i < len(p.Params) {
			pv = p.Params[i]
		}
		var s string
		switch {
		case pv != nil && g.varAbs(pv) != nil && types.IsInteger(pv.Type()) && r.isLeaf(x, g.varAbs(pv)) && !r.narrowsType(pv.Type(), g.varAbs(pv), r.value(x, g.varAbs(pv))):
			s = format.Expr(x)
		case pv != nil && g.varAbs(pv) != nil && types.IsInteger(pv.Type()):
			s = r.tokExpr(r.value(x, g.varAbs(pv)), g.varAbs(pv))
			if call {
				r.keep[s] = true
			}
		case types.IsBoolean(g.info.TypeOf(x)):
			s = r.boolText(x)
			if call {
				r.keep[s] = true
			}
		default:
			s = format.Expr(x)
		}
		out = append(out, s)
	}
	return strings.Join(out, ", ")
}

// printArg prints an argument of println: abstract values as their tokens.
func (r *run) printArg(x ast.Expr) string {
	g := r.g
	if a := g.absOf(x); a != nil && types.IsInteger(g.info.TypeOf(x)) {
		switch ast.Unparen(x).(type) {
		case *ast.Ident, *ast.SelectorExpr, *ast.IndexExpr:
			return format.Expr(x)
		}
		return strconv.Quote(a.SetString(r.value(x, a)))
	}
	if types.IsBoolean(g.info.TypeOf(x)) && g.hasAbstract(x) {
		return r.boolText(x)
	}
	return format.Expr(x)
}

// boolText prints a boolean expression of an action with its abstract
// tests decided in the case: true, false, or a temporary chosen by
// internChoose(true, false) when the test is imprecise.
func (r *run) boolText(x ast.Expr) string {
	g := r.g
	if !g.hasAbstract(x) {
		return format.Expr(x)
	}
	switch y := x.(type) {
	case *ast.ParenExpr:
		s := r.boolText(y.X)
		if s == "true" || s == "false" {
			return s
		}
		return "(" + s + ")"
	case *ast.UnaryExpr:
		switch s := r.boolText(y.X); s {
		case "true":
			return "false"
		case "false":
			return "true"
		default:
			return y.Op.String() + "(" + s + ")"
		}
	case *ast.BinaryExpr:
		if a := g.testAbs(y); a != nil {
			var o data.Outcomes
			if leaf, b, cond, ok := g.exactTest(y); ok {
				s := r.value(leaf, b)
				for k := range b.Tokens {
					if s.Has(k) {
						o |= g.decide(b, cond, k)
					}
				}
				return r.outcome(o)
			}
			l, rr := r.value(y.X, a), r.value(y.Y, a)
			for i := range a.Tokens {
				for j := range a.Tokens {
					if l.Has(i) && rr.Has(j) {
						o |= a.Compare(testOf(y.Op), i, j)
					}
				}
			}
			return r.outcome(o)
		}
		l := r.boolText(y.X)
		if r.discover {
			// Find the probes of both operands, whatever the case.
			return "(" + l + ") " + y.Op.String() + " (" + r.boolText(y.Y) + ")"
		}
		switch {
		case y.Op == token.LOR && l == "true", y.Op == token.LAND && l == "false":
			return l // the right operand is not evaluated
		case y.Op == token.LOR && l == "false", y.Op == token.LAND && l == "true":
			return r.boolText(y.Y)
		}
		return "(" + l + ") " + y.Op.String() + " (" + r.boolText(y.Y) + ")"
	}
	return format.Expr(x)
}

// outcome prints the outcome of an abstract test.
func (r *run) outcome(o data.Outcomes) string {
	switch o {
	case data.True:
		return "true"
	case data.False:
		return "false"
	case 0:
		return "true" // a division before fails
	}
	b := r.boolTemp()
	r.pre = append(r.pre, b+" := internChoose(true, false);")
	r.imprecise, r.choose = true, true
	return b
}

// value evaluates the integer expression x, used in context abstraction
// a, to the set of tokens of a it may have in this case.
func (r *run) value(x ast.Expr, a *data.Abstraction) data.Set {
	g := r.g
	if c, ok := g.constInt(x); ok {
		return data.Set(0).With(a.Abstract64(c))
	}
	own := g.absOf(x)
	if own == nil {
		return r.concrete(x, a)
	}
	if leaf, b, text, ok := g.linearExpr(x); ok {
		ls := r.value(leaf, b)
		var out data.Set
		for k := range b.Tokens {
			if ls.Has(k) {
				out |= g.image(b, text, k, a)
			}
		}
		return out
	}
	s := r.own(x, own)
	if own == a {
		return s
	}
	var out data.Set
	for i := range own.Tokens {
		if s.Has(i) {
			out |= g.coerceSet(own, a, i)
		}
	}
	return out
}

func (r *run) own(x ast.Expr, own *data.Abstraction) data.Set {
	g := r.g
	all := data.All(len(own.Tokens))
	switch y := x.(type) {
	case *ast.ParenExpr:
		return r.own(y.X, own)
	case *ast.ConvExpr:
		return r.value(y.X, own) // the mathematical value (Output.Wraps)
	case *ast.UnaryExpr:
		if y.Op == token.ADD {
			return r.value(y.X, own)
		}
		if y.Op == token.SUB {
			return r.apply(data.Sub, "-", data.Set(0).With(own.Abstract64(0)), r.value(y.X, own), own)
		}
	case *ast.BinaryExpr:
		if isArith(y.Op) {
			l := r.value(y.X, own)
			rr := r.value(y.Y, own)
			if c, ok := g.constInt(y.Y); ok && c != 0 {
				return r.apply(opOf(y.Op), "", l, rr, own) // no division by zero
			}
			return r.apply(opOf(y.Op), y.Op.String(), l, rr, own)
		}
	case *ast.Ident:
		v, ok := g.info.Uses[y].(*types.Var)
		if !ok {
			return all
		}
		if s, ok := r.store[v]; ok {
			return s
		}
		return r.probe(fmt.Sprintf("v%p", v), y, own, false)
	case *ast.SelectorExpr, *ast.IndexExpr:
		if r.affected(x, true) {
			return all
		}
		if s, ok := r.lstore[format.Expr(x)]; ok {
			return s // written before by this transformation, through the same reference and index
		}
		if r.absW {
			return all // may be an alias of a field or element written before
		}
		return r.probe("l"+format.Expr(x), x, own, false)
	}
	return all
}

// concrete abstracts the concrete integer expression x by a.
func (r *run) concrete(x ast.Expr, a *data.Abstraction) data.Set {
	if len(a.Tokens) == 1 {
		return 1
	}
	if r.affected(x, false) {
		return data.All(len(a.Tokens))
	}
	return r.probe("c"+a.Name+"\x00"+format.Expr(x), x, a, true)
}

// affected reports whether an earlier action of the transformation may
// have changed what x reads (for an lvalue, its reference or index).
func (r *run) affected(x ast.Expr, lvalue bool) bool {
	found := false
	var check func(n ast.Node) bool
	check = func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.Ident:
			if v, ok := r.g.info.Uses[n].(*types.Var); ok && r.written[v] {
				found = true
			}
		case *ast.SelectorExpr, *ast.IndexExpr, *ast.LengthExpr:
			if r.heapW {
				found = true
			}
		}
		return !found
	}
	if lvalue {
		switch y := x.(type) {
		case *ast.SelectorExpr:
			ast.Inspect(y.X, check)
		case *ast.IndexExpr:
			if _, isVar := ast.Unparen(y.X).(*ast.Ident); !isVar {
				ast.Inspect(y.X, check)
			}
			ast.Inspect(y.Index, check)
		}
		return found
	}
	ast.Inspect(x, check)
	return found
}

func (r *run) probe(key string, x ast.Expr, a *data.Abstraction, concrete bool) data.Set {
	for i, p := range *r.probes {
		if p.key == key {
			if r.discover || i >= len(r.val) {
				return data.Set(1)
			}
			return data.Set(0).With(r.val[i])
		}
	}
	if !r.discover {
		return data.All(len(a.Tokens))
	}
	*r.probes = append(*r.probes, &probe{key: key, expr: x, abs: a, concrete: concrete})
	return data.Set(1)
}

// apply applies an abstract operator to sets of tokens; a possible
// division by zero becomes the concrete runtime error.
func (r *run) apply(op data.Op, sym string, l, rr data.Set, a *data.Abstraction) data.Set {
	var out data.Set
	errs := false
	for i := range a.Tokens {
		for j := range a.Tokens {
			if l.Has(i) && rr.Has(j) {
				c := a.Apply(op, i, j)
				out |= c.Tokens
				errs = errs || c.Error
			}
		}
	}
	if errs && sym != "" && (op == data.Div || op == data.Rem) {
		z := r.zero()
		if out == 0 {
			r.pre = append(r.pre, z+" := "+z+" "+sym+" "+z+";")
		} else {
			r.pre = append(r.pre, z+" := internChoose(0, 1);", z+" := "+z+" "+sym+" "+z+";", z+" := 0;")
			r.imprecise, r.choose = true, true
		}
	}
	return out
}

// guardMay evaluates the guard in the case: false when it is certainly
// false for the probes' tokens (abstract values the actions do not read
// count as any token).
func (r *run) guardMay(x ast.Expr) bool {
	return r.outcomes(x).Has(true)
}

// outcomes evaluates a boolean expression abstractly in the case.
func (r *run) outcomes(x ast.Expr) data.Outcomes {
	g := r.g
	if c, ok := g.info.Types[x]; ok && c.Value.Kind == types.BoolConst {
		if c.Value.Bool {
			return data.True
		}
		return data.False
	}
	if b, ok := ast.Unparen(x).(*ast.BinaryExpr); ok && isTest(b.Op) && g.testAbs(b) == nil {
		// A concrete test of a concrete value the case abstracts.
		if leaf, _, cond, ok := g.linearTest(b, true); ok {
			text := format.Expr(leaf)
			for i, p := range *r.probes {
				if p.concrete && format.Expr(p.expr) == text && i < len(r.val) {
					return g.decide(p.abs, cond, r.val[i])
				}
			}
		}
		return data.Both
	}
	if !g.hasAbstract(x) && !r.hasConcreteProbe(x) {
		return data.Both
	}
	switch y := x.(type) {
	case *ast.ParenExpr:
		return r.outcomes(y.X)
	case *ast.UnaryExpr:
		if y.Op == token.NOT {
			o := r.outcomes(y.X)
			return o>>1&1 | o<<1&2
		}
	case *ast.BinaryExpr:
		switch y.Op {
		case token.LAND, token.LOR:
			l, rr := r.outcomes(y.X), r.outcomes(y.Y)
			var o data.Outcomes
			for _, a := range []bool{true, false} {
				for _, b := range []bool{true, false} {
					if l.Has(a) && rr.Has(b) {
						if y.Op == token.LAND && a && b || y.Op == token.LOR && (a || b) {
							o |= data.True
						} else {
							o |= data.False
						}
					}
				}
			}
			return o
		}
		if a := g.testAbs(y); a != nil {
			var o data.Outcomes
			if leaf, b, cond, ok := g.exactTest(y); ok {
				s := r.value(leaf, b)
				for k := range b.Tokens {
					if s.Has(k) {
						o |= g.decide(b, cond, k)
					}
				}
				return o
			}
			l, rr := r.value(y.X, a), r.value(y.Y, a)
			for i := range a.Tokens {
				for j := range a.Tokens {
					if l.Has(i) && rr.Has(j) {
						o |= a.Compare(testOf(y.Op), i, j)
					}
				}
			}
			return o
		}
	}
	return data.Both
}

// rangeCond is the condition of a range type's bounds, or "".
func rangeCond(t types.Type) string {
	rt, ok := t.Underlying().(*types.Range)
	if !ok || rt.Wrap {
		// A store into a fixed-width type wraps, never fails; an abstracted
		// value is stored as its mathematical integer (Output.Wraps).
		return ""
	}
	lit := func(v int64) string {
		if v < 0 {
			return "(0 - " + strconv.FormatInt(-v, 10) + ")"
		}
		return strconv.FormatInt(v, 10)
	}
	return "n >= " + lit(rt.Lo) + " && n <= " + lit(rt.Hi)
}

// typeTokens returns the tokens of a that hold a value of the integer type
// t (all of them when t is not a range).
func (r *run) typeTokens(t types.Type, a *data.Abstraction) data.Set {
	all := data.All(len(a.Tokens))
	if t == nil {
		return all
	}
	rt, ok := t.Underlying().(*types.Range)
	if !ok {
		return all
	}
	lit := func(v int64) string {
		if v < 0 {
			return "(0 - " + strconv.FormatUint(uint64(-(v+1))+1, 10) + ")"
		}
		return strconv.FormatInt(v, 10)
	}
	cond := "n >= " + lit(rt.Lo) + " && n <= " + lit(rt.Hi)
	var s data.Set
	for t := range a.Tokens {
		if r.g.decide(a, cond, t).Has(true) {
			s = s.With(t)
		}
	}
	if s == 0 {
		return all
	}
	return s
}

// narrows reports whether storing tokens s into lhs, of a range type, may
// fail.
func (r *run) narrows(lhs ast.Expr, a *data.Abstraction, s data.Set) bool {
	return r.narrowsType(r.g.info.TypeOf(lhs), a, s)
}

func (r *run) narrowsType(t types.Type, a *data.Abstraction, s data.Set) bool {
	cond := rangeCond(t)
	if cond == "" {
		return false
	}
	for t := range a.Tokens {
		if s.Has(t) && r.g.decide(a, cond, t).Has(false) {
			return true
		}
	}
	return false
}

// rangeCheck is the store of tokens s into lhs of a range type: tokens
// whose integers may lie outside the range raise the concrete model's range
// error (certainly, or by an internChoose when some of their integers are
// inside). It returns the tokens that may be stored.
func (r *run) rangeCheck(lhs ast.Expr, a *data.Abstraction, s data.Set) data.Set {
	cond := rangeCond(r.g.info.TypeOf(lhs))
	if cond == "" || s == 0 {
		return s
	}
	var in data.Set
	out := false
	for t := range a.Tokens {
		if !s.Has(t) {
			continue
		}
		o := r.g.decide(a, cond, t)
		if o.Has(true) {
			in = in.With(t)
		}
		if o.Has(false) {
			out = true
		}
	}
	if !out {
		return s
	}
	z := r.zero()
	if r.ps.rv == "" {
		r.ps.rv = r.g.unique("abs_r")
	}
	if in == 0 {
		r.pre = append(r.pre, r.ps.rv+" := "+z+" + 1;")
	} else {
		r.pre = append(r.pre, z+" := internChoose(0, 1);", r.ps.rv+" := "+z+";", z+" := 0;")
		r.imprecise, r.choose = true, true
	}
	return in
}

// hasConcreteProbe reports whether x reads a concrete value the case
// abstracts.
func (r *run) hasConcreteProbe(x ast.Expr) bool {
	found := false
	ast.Inspect(x, func(n ast.Node) bool {
		if e, ok := n.(ast.Expr); ok && !found {
			text := format.Expr(e)
			for _, p := range *r.probes {
				if p.concrete && format.Expr(p.expr) == text {
					found = true
				}
			}
		}
		return !found
	})
	return found
}

// isLeaf reports whether x is an abstract variable, field or element of
// abstraction a, which a copy can read at run time.
func (r *run) isLeaf(x ast.Expr, a *data.Abstraction) bool {
	if r.g.absOf(x) != a {
		return false
	}
	switch y := ast.Unparen(x).(type) {
	case *ast.Ident:
		_, ok := r.g.info.Uses[y].(*types.Var)
		return ok
	case *ast.SelectorExpr, *ast.IndexExpr:
		return true
	}
	return false
}
