package verify

import (
	"fmt"
	"math/big"
	"strings"

	"birch/internal/abstraction/data"
	"birch/internal/abstraction/data/absgen"
	"birch/internal/abstraction/data/infer"
	"birch/internal/bir/ast"
	"birch/internal/bir/format"
	"birch/internal/bir/token"
	"birch/internal/bir/types"
	"birch/internal/model"
	"birch/internal/search"
	"birch/internal/source"
)

// The abstraction-synthesis step of a check with data abstraction: the
// abstractions are inferred from the bindings, the abstract model is
// generated (package absgen) and compiled, and every abstract
// transformation is mapped to the concrete one it stands for, so that
// abstract trails read in the terms of the model as written.

// abstractModel is a concrete model, its abstract model and the map
// between them.
type abstractModel struct {
	conc     *Input
	concM    *model.Model
	abs      *Input // the abstract program (its Src is the generated text)
	absM     *model.Model
	out      *absgen.Output
	inferred *infer.Result
	bindings []string // NAME=ABSTRACTION
	// coercions: the declared coercions in effect, "FROM -> TO"
	coercions []string
	groupMap  []int // abstract group -> concrete group, or -1
	// pred, when not nil, makes this a predicate abstraction (predicate.go):
	// out, inferred, bindings and coercions are then unset
	pred *predAbstraction
	// unbounded: the concrete model has unbounded choices (of values the
	// abstraction stands for) and concM was compiled without values for
	// them (model.Options.ChoiceValues): the replay solves for them
	unbounded bool
	// left: the concrete model's unbounded choices into variables no
	// abstraction stands for, which the abstract model keeps (a check
	// stops at once, as without abstraction)
	left []model.UnboundedChoice
	// onTheFly, when not "", names the on-the-fly predicate abstraction
	// whose instrumented model abs is (apf.go): it has the transformations
	// and positions of the model as written; out, inferred, bindings,
	// coercions and pred are then unset
	onTheFly string
}

// synthesize infers the abstractions of in from the bindings b, generates
// the abstract model and compiles both models with mo.
func synthesize(t *Task, in *Input, b *Bindings, mo model.Options) (*abstractModel, error) {
	da := t.Abstraction
	bs, err := JavaBindings(in, b.Bindings)
	if err != nil {
		return nil, plainError(err)
	}
	sel, err := infer.Resolve(in.Prog, b.Library, bs)
	if err != nil {
		return nil, plainError(err)
	}
	icfg := infer.Config{Coercions: b.Coercions, DefaultPoint: da.Default == "point"}
	res, err := infer.Infer(in.Prog, b.Library, sel, icfg)
	if err != nil {
		return nil, err
	}
	for _, w := range res.Warnings {
		t.warnAt(w.Pos.String(), w.Msg)
	}
	unbounded := model.UnboundedChoices(in.Prog, mo.MaxChoiceRange) != nil
	concM, err := model.New(in.Prog, concreteOptions(mo, unbounded))
	if err != nil {
		return nil, plainError(err)
	}
	out, err := absgen.Generate(in.Prog, res, absgen.Config{Data: data.Config{Solver: da.Solver, Context: t.limits().Ctx}})
	if err != nil {
		if _, ok := err.(source.ErrorList); ok {
			return nil, err
		}
		return nil, &UsageError{err.Error()}
	}
	left := concreteChoicesLeft(in.Prog, res, mo.MaxChoiceRange)
	absM, err := model.New(out.Program, concreteOptions(mo, len(left) > 0))
	if err != nil {
		return nil, usagef("the abstract model: %v", err)
	}
	am := &abstractModel{
		conc: in, concM: concM, absM: absM, out: out, inferred: res, unbounded: unbounded, left: left,
		abs: &Input{Name: in.Name, Fset: out.Program.Fset, File: out.Program.File, Prog: out.Program, Src: out.Source},
	}
	for i, s := range sel {
		// as written (a Java program's in Java terms)
		am.bindings = append(am.bindings, b.Bindings[i].Target+"="+s.Binding.Abstraction)
	}
	for _, c := range res.Declared {
		am.coercions = append(am.coercions, c.From.Name+" -> "+c.To.Name)
	}
	am.mapGroups()
	return am, nil
}

// concreteChoicesLeft lists the unbounded choices of prog
// (model.UnboundedChoices) into variables that res leaves concrete.
func concreteChoicesLeft(prog *types.Program, res *infer.Result, max int) []model.UnboundedChoice {
	cs := model.UnboundedChoices(prog, max)
	if cs == nil {
		return nil
	}
	abstracted := map[source.Position]bool{}
	ast.Inspect(prog.File, func(n ast.Node) bool {
		if c, ok := n.(*ast.ChooseAction); ok && c.Type != nil {
			if a := res.Exprs[c.Lhs]; a != nil && !a.Identity {
				abstracted[prog.Fset.Position(c.KwPos)] = true
			}
		}
		return true
	})
	var out []model.UnboundedChoice
	for _, c := range cs {
		if !abstracted[c.Pos] {
			out = append(out, c)
		}
	}
	return out
}

// concreteOptions are the options the concrete model is compiled with:
// mo, without values for its unbounded choices when it has them
// (unbounded), which the abstraction stands for and the replay solves for.
func concreteOptions(mo model.Options, unbounded bool) model.Options {
	if unbounded {
		mo.ChoiceValues = []int64{}
	}
	return mo
}

// exposed is am with both models compiled with invisible runs exposed
// (for a formula with X).
func (am *abstractModel) exposed(mo model.Options) (*abstractModel, error) {
	mo.ExposeInvisible = true
	x := *am
	var err error
	if x.concM, err = model.New(am.conc.Prog, concreteOptions(mo, am.unbounded)); err != nil {
		return nil, plainError(err)
	}
	if x.absM, err = model.New(am.abs.Prog, mo); err != nil {
		return nil, plainError(err)
	}
	x.groupMap = nil
	x.mapGroups()
	return &x, nil
}

// mapGroups maps every transformation of the abstract model to the
// concrete one it was generated from.
func (am *abstractModel) mapGroups() {
	byDecl := map[*ast.Transformation]int{}
	for _, g := range am.concM.Groups() {
		byDecl[g.Decl] = g.Index
	}
	for _, g := range am.absM.Groups() {
		c := -1
		if d := am.origin(g.Decl); d != nil {
			if i, ok := byDecl[d]; ok {
				c = i
			}
		}
		am.groupMap = append(am.groupMap, c)
	}
}

// sameGroups maps every transformation of the instrumented model of an
// on-the-fly abstraction to the one of the model as written at the same
// index, after checking that they are the same transformations.
func (am *abstractModel) sameGroups() error {
	ag, cg := am.absM.Groups(), am.concM.Groups()
	if len(ag) != len(cg) {
		return fmt.Errorf("%d transformations, the model has %d", len(ag), len(cg))
	}
	am.groupMap = make([]int, len(ag))
	for i, g := range ag {
		a, c := am.abs.Fset.Position(g.Decl.Pos()), am.conc.Fset.Position(cg[i].Decl.Pos())
		if a.Line != c.Line || a.Column != c.Column {
			return fmt.Errorf("transformation %d is at %s, the model's at %s", i, a, c)
		}
		am.groupMap[i] = i
	}
	return nil
}

// origin is the concrete transformation the abstract one d was generated
// from, or nil.
func (am *abstractModel) origin(d *ast.Transformation) *ast.Transformation {
	if am.pred != nil {
		if o := am.pred.origins[d]; o != nil {
			return o.Transformation
		}
		return nil
	}
	if o := am.out.Map.Transformation(d); o != nil {
		return o.Transformation
	}
	return nil
}

func (am *abstractModel) mapGroup(i int) int {
	if i < 0 || i >= len(am.groupMap) {
		return -1
	}
	return am.groupMap[i]
}

// basis is what a check with the abstraction rests on; pass qualifies
// what a pass proves.
func (am *abstractModel) basis(pass string) Basis {
	if am.pred != nil {
		return Basis{Abstracted, am.pred.what() + ": an over-approximation, so a pass is a proof" + pass}
	}
	return Basis{Abstracted, "data abstraction " + strings.Join(am.bindings, ", ") + ": an over-approximation, so a pass is a proof" + pass}
}

// using names the abstraction in reasons.
func (am *abstractModel) using() string {
	if am.pred != nil {
		return "with " + am.pred.what()
	}
	if am.onTheFly != "" {
		return "with " + am.onTheFly
	}
	return "with abstraction (" + strings.Join(am.bindings, ", ") + ")"
}

// info starts the details of a check with the abstraction.
func (am *abstractModel) info(v search.Verdict) *AbstractionInfo {
	return &AbstractionInfo{Bindings: am.bindings, Coercions: am.coercions, Variables: am.variables(), AbstractVerdict: v, Wraps: am.wraps()}
}

// variables names every variable the abstraction applies to, with its
// abstraction.
func (am *abstractModel) variables() map[string]string {
	out := map[string]string{}
	records := map[*types.Var]string{} // a field's record
	for _, tn := range am.conc.Prog.Types {
		if rec, ok := tn.Type().Underlying().(*types.Record); ok {
			for _, f := range rec.Fields {
				if _, dup := records[f]; !dup {
					records[f] = tn.Name()
				}
			}
		}
	}
	for v, a := range am.inferred.Vars {
		if a == nil || a.Identity {
			continue
		}
		name := varName(v)
		if r, ok := records[v]; ok {
			name = r + "." + v.Name()
		}
		if am.conc.Java != nil {
			if j := javaVarName(&am.conc.Java.Names, v, records[v]); j != "" {
				name = j
			}
		}
		out[name] = a.Name
	}
	return out
}

// varName names a variable as bindings do: x, Thread.x, fn.x, Record.f.
func varName(v *types.Var) string {
	switch v.Kind {
	case types.LocalVar, types.ParamVar:
		if v.Owner != nil {
			return v.Owner.Name() + "." + v.Name()
		}
	case types.FieldVar:
		return "field " + v.Name()
	}
	return v.Name()
}

// abstractionOf finds the abstraction of the value a model.Describe name
// denotes in the concrete model: a global, a thread's or frame's local, or
// a field of an object.
func (am *abstractModel) abstractionOf(name string) *data.Abstraction {
	if v, _ := describedVar(am.conc.Prog, name); v != nil {
		return am.inferred.Vars[v]
	}
	return nil
}

// describedVar resolves a model.Describe name in prog: the global, the
// thread's or frame's local or parameter, or the object's field it
// denotes (an element of it, for a value array), or, for an element of a
// heap array, the array type. Both are nil for the rest: a thread's
// location or status, a heap array's length.
func describedVar(prog *types.Program, name string) (*types.Var, *types.Named) {
	base := func(s string) string {
		if i := strings.IndexByte(s, '['); i >= 0 {
			return s[:i]
		}
		return s
	}
	dot := strings.IndexByte(name, '.')
	if dot < 0 {
		switch o := prog.Lookup(base(name)).(type) {
		case *types.Var:
			return o, nil
		case *types.Collection:
			// an element of a heap array: C[i][k]
			if _, ok := o.Elem.Underlying().(*types.Array); ok && strings.Count(name, "[") >= 2 && !strings.ContainsRune(name, ' ') {
				return nil, o.Elem
			}
		}
		return nil, nil
	}
	head, rest := name[:dot], name[dot+1:]
	owner := base(head)
	if i := strings.LastIndexByte(rest, '.'); i >= 0 {
		// a frame: fn#depth.x
		fn := rest[:i]
		if j := strings.IndexByte(fn, '#'); j >= 0 {
			fn = fn[:j]
		}
		owner, rest = fn, rest[i+1:]
	}
	vname := base(rest)
	if p, ok := prog.Procs.LookupLocal(owner).(*types.Proc); ok {
		for _, v := range p.Vars() {
			if v.Name() == vname {
				return v, nil
			}
		}
	}
	for _, c := range prog.Collections {
		if c.Name() != owner {
			continue
		}
		if r, ok := c.Elem.Underlying().(*types.Record); ok {
			if f := r.Field(vname); f != nil {
				return f, nil
			}
		}
	}
	return nil, nil
}

// agree compares a concrete state with the abstract state of a step: every
// abstracted value must be abstracted by its token.
func (am *abstractModel) agree(abstract map[string]string, state []byte) string {
	var diffs []string
	for _, v := range am.concM.Describe(state) {
		tok, ok := abstract[v.Name]
		if !ok {
			continue
		}
		a := am.abstractionOf(v.Name)
		if a == nil || a.Identity || len(a.Tokens) == 0 {
			continue
		}
		n, ok := new(big.Int).SetString(v.Value, 10)
		if !ok {
			continue
		}
		k := a.Abstract(n)
		if k < 0 {
			continue
		}
		want := a.Tokens[k].Name
		if tok == want || strings.HasSuffix(tok, "_"+want) {
			continue
		}
		diffs = append(diffs, fmt.Sprintf("%s = %s (%s), abstract %s", v.Name, v.Value, want, tok))
	}
	return strings.Join(diffs, ", ")
}

// describeAbstract describes abstract trail steps with the positions of
// the concrete model.
func (am *abstractModel) describeAbstract(steps []search.TrailStep) []Step {
	ts := DescribeTrail(am.absM, am.abs.Fset, steps)
	for i := range ts {
		st := steps[i].Step
		if len(st.Groups) > 0 {
			// the user's transformation, not the generated one
			if c := am.mapGroup(int(st.Groups[0])); c >= 0 {
				decl := am.concM.Groups()[c].Decl
				ts[i].Source = []string{TransformationText(decl)}
				if st.Outcome == model.OK {
					ts[i].Pos = PosString(am.conc.Fset, decl.Pos())
					continue
				}
			}
		}
		ts[i].Pos = am.concretePos(st.Pos)
		if st.Outcome != model.OK {
			k, msg := am.violationOf(st.Kind, st.Msg, st.Groups, st.Pos)
			ts[i].Msg = k.String() + ": " + msg
		}
	}
	return ts
}

// concretePos maps a position of the abstract model to the concrete one.
func (am *abstractModel) concretePos(p source.Pos) string {
	if !p.IsValid() {
		return ""
	}
	if am.pred != nil {
		return am.pred.position(am, p)
	}
	if am.onTheFly != "" {
		return PosString(am.abs.Fset, p)
	}
	if cp, ok := am.out.Map.Position(p); ok {
		return cp.String()
	}
	return am.abs.Fset.Position(p).String()
}

// abstractViolation describes a violation of the abstract model in the
// terms of the concrete one; final is the state its trail ends in.
func (am *abstractModel) abstractViolation(v *search.Violation, final []byte) *Violation {
	av := describeViolation(am.abs.Fset, am.absM, v, final)
	av.Pos = am.concretePos(v.Pos)
	k, msg := am.violationOf(v.Kind, v.Msg, v.Groups, v.Pos)
	av.Kind, av.Message = k.String(), msg
	return av
}

// violationOf is the kind and message of an abstract violation at pos in
// the terms of the concrete model.
func (am *abstractModel) violationOf(k model.ErrorKind, msg string, groups []int32, pos source.Pos) (model.ErrorKind, string) {
	if am.pred != nil {
		return am.pred.violation(am, k, msg, pos)
	}
	if am.onTheFly != "" {
		// the runtime words its own violations
		return k, msg
	}
	return k, am.violationMsg(k, msg, groups)
}

// violationMsg words an abstract violation in terms of the concrete model:
// the abstract text of a failed assertion is the under-approximated
// condition, so the concrete assertion of the transformation is named
// instead (when it has one).
func (am *abstractModel) violationMsg(k model.ErrorKind, msg string, groups []int32) string {
	if k != model.Assertion || len(groups) == 0 {
		return msg
	}
	c := am.mapGroup(int(groups[len(groups)-1]))
	if c < 0 {
		return msg
	}
	var conds []string
	for _, a := range am.concM.Groups()[c].Decl.Actions {
		if as, ok := a.(*ast.AssertAction); ok {
			conds = append(conds, format.Expr(as.Cond))
		}
	}
	if len(conds) != 1 {
		return msg
	}
	// the generator writes assert(false) where the condition is certainly
	// false, and asserts a chosen boolean where it may be either
	how := "may be false in the abstract state"
	if g := int(groups[len(groups)-1]); g >= 0 && g < len(am.absM.Groups()) {
		for _, a := range am.absM.Groups()[g].Decl.Actions {
			if as, ok := a.(*ast.AssertAction); ok && format.Expr(as.Cond) == "false" {
				how = "false in every concrete state the abstract state stands for"
			}
		}
	}
	return "assertion violated: " + conds[0] + " (" + how + ")"
}

// limits describes the bounds the abstract search hit, at their concrete
// positions.
func (am *abstractModel) limits(ls []search.LimitHit) []Limit {
	out := []Limit{}
	for _, l := range ls {
		out = append(out, Limit{Message: l.Msg, Pos: am.concretePos(l.Pos), Count: l.Count})
	}
	return out
}

// unreached lists the concrete transformations that the complete search
// of the abstract model never executed: the abstract model executes every
// transformation the concrete one does (over-approximation), so these are
// unreached in the model as well. A transformation the abstract model has
// no counterpart of is not listed.
func (am *abstractModel) unreached(res *search.Result) []Unreached {
	if !searchedAll(res) {
		return nil
	}
	covered, executed := map[*ast.Transformation]bool{}, map[*ast.Transformation]bool{}
	for _, g := range am.absM.Groups() {
		if c := am.mapGroup(g.Index); c >= 0 {
			d := am.concM.Groups()[c].Decl
			covered[d] = true
			if wasExecuted(res, g.Index) {
				executed[d] = true
			}
		}
	}
	return listUnreached(am.conc, func(t *ast.Transformation) bool { return covered[t] && !executed[t] })
}

// unraisedDivision finds a division or remainder that the abstract model
// computes without raising division by zero: one that computes with
// abstract values in a guard of the concrete model, in a predicate, or in
// one of exprs (the properties checked). Abstract operations there do not
// raise the error (docs/abstraction.md), so an abstract model without a
// violation proves nothing of a concrete model whose divisor may be 0 there.
// It returns where the first is ("at FILE:LINE:COL"), or "" when there
// is none (a divisor that is a non-zero constant never fails).
func (am *abstractModel) unraisedDivision(exprs ...ast.Expr) string {
	roots := append([]ast.Expr(nil), exprs...)
	ast.Inspect(am.conc.File, func(n ast.Node) bool {
		if tr, ok := n.(*ast.Transformation); ok && tr.Guard != nil {
			roots = append(roots, tr.Guard)
		}
		return true
	})
	for _, p := range am.conc.Prog.Predicates {
		roots = append(roots, p.Decl.Expr)
	}
	abstract := func(x ast.Expr) bool {
		a := am.inferred.Exprs[x]
		return a != nil && !a.Identity
	}
	info := am.conc.Prog.Info
	for _, root := range roots {
		if root == nil {
			continue
		}
		var found ast.Expr
		ast.Inspect(root, func(n ast.Node) bool {
			b, ok := n.(*ast.BinaryExpr)
			if found != nil || !ok || (b.Op != token.QUO && b.Op != token.REM) {
				return found == nil
			}
			if v := info.Types[b.Y].Value; v.Kind == types.IntConst && v.Int != 0 {
				return true
			}
			if abstract(b) || abstract(b.X) || abstract(b.Y) {
				found = b
			}
			return found == nil
		})
		if found != nil {
			return "at " + PosString(am.conc.Fset, found.Pos())
		}
	}
	return ""
}

// divisionNotProven is the reason of a check whose abstract model has no
// violation, but whose division (where: "at POS", "in the --ltl formula")
// the abstract model does not raise.
//
// notProven also rewrites the check's basis, which said "a pass is a
// proof", so that the rests-on line agrees with the reason.
func (am *abstractModel) notProven(c *Check, where string) {
	c.Explored, c.Reason = false, am.divisionNotProven(where)
	for i, b := range c.RestsOn {
		if b.Kind == Abstracted {
			c.RestsOn[i].What = "data abstraction " + strings.Join(am.bindings, ", ") + ": an over-approximation, but no proof here: the abstract model does not raise division by zero at the division " + where
		}
	}
}

func (am *abstractModel) divisionNotProven(where string) string {
	return "no violation in the abstract model, but not proven " + am.using() + ": the division " + where +
		" computes with abstract values in a guard, predicate or property, where the abstract model does not raise division by zero"
}
