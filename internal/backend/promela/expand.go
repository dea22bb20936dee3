package promela

import (
	"fmt"
	"math/big"
	"strings"

	"birch/internal/bir/ast"
	"birch/internal/bir/token"
	"birch/internal/bir/types"
	"birch/internal/source"
)

// Choices made inside the step (forall, reachable, notify's choice of a
// thread, range choices whose bounds' types allow more than
// maxRangeExpansion values) are normally translated inline: a
// nondeterministic if or loop after the entry condition. When a later
// disabling condition (or a check before a later disabling condition or
// bound) reads the value chosen, the transformation is translated again
// with those choices expanded into one option per value, as value lists
// are: each option is entered when its value is a valid choice in the state
// before the step (an object allocated, a thread waiting, an object
// reachable, a value within the bounds), and the rest of the step's
// conditions are read with that value substituted. This file holds that
// deep expansion.

// dirtyError reports a disabling condition that reads a value the
// translation of the alternative could not express before the step.
type dirtyError struct {
	pos  source.Pos
	what string
}

func (e *dirtyError) Error() string {
	return e.what + " depends on a value chosen earlier in the same transformation"
}

// maxReachAtoms bounds the size of the conditions of one expanded
// reachable: the number of comparisons in the unrolled reachability
// conditions of all its options (see reachCond).
const maxReachAtoms = 2048

// heapObj is one object of a collection: C[i], whose reference is ref.
type heapObj struct {
	c   *types.Collection
	i   int
	ref int // colOff[c] + i + 1
}

// objectsOf returns the objects of the collections whose element type is
// tn's type or a subtype, in declaration order: the objects forall(tn) and
// reachable(_, tn) may choose.
func (g *gen) objectsOf(tn *types.TypeName) []heapObj {
	var out []heapObj
	for _, c := range g.prog.Collections {
		if !types.IsSubtype(c.Elem, tn.Named()) {
			continue
		}
		for i := 0; i < int(c.Size); i++ {
			out = append(out, heapObj{c: c, i: i, ref: g.colOff[c] + i + 1})
		}
	}
	return out
}

// choiceOptions returns the number of options a choice action is expanded
// into, 0 when it is not; deep also expands forall, reachable, notify and
// range choices of up to maxExpansion values. why says why a choice that
// is deep-expandable in kind is not expanded.
func (g *gen) choiceOptions(act ast.Action, deep bool) (n int, why string) {
	switch act := act.(type) {
	case *ast.ChooseAction:
		if n := g.expandable(act); n > 0 || !deep {
			return n, ""
		}
		if g.scalar(g.typeOf(act.Lhs)) == "" {
			return 0, ""
		}
		if act.Values != nil {
			return 0, ""
		}
		lo, hi := g.info.Types[act.Lo].Value, g.info.Types[act.Hi].Value
		if lo.Kind == types.IntConst && hi.Kind == types.IntConst {
			if hi.Int < lo.Int {
				return 0, ""
			}
			return 0, fmt.Sprintf("the range choice at %s has %s values, more than %d options", g.lineCol(act.KwPos), new(big.Int).Add(new(big.Int).Sub(big.NewInt(hi.Int), big.NewInt(lo.Int)), big.NewInt(1)), maxExpansion)
		}
		if base, top, ok := g.rangeSpan(act); ok && top >= base && uint64(top-base) < maxExpansion {
			return int(top-base) + 1, ""
		}
		return 0, fmt.Sprintf("the range choice at %s may have more than %d values (its bounds' types allow them)", g.lineCol(act.KwPos), maxExpansion)
	case *ast.ForallAction:
		if !deep {
			return 0, ""
		}
		tn, _ := g.info.Uses[act.Type].(*types.TypeName)
		if tn == nil {
			return 0, ""
		}
		if objs := g.objectsOf(tn); len(objs) > 0 {
			return len(objs) + 1, ""
		}
	case *ast.ReachableAction:
		if !deep {
			return 0, ""
		}
		tn, _ := g.info.Uses[act.Type].(*types.TypeName)
		if tn == nil {
			return 0, ""
		}
		objs := g.objectsOf(tn)
		if len(objs) == 0 {
			return 0, ""
		}
		budget := maxReachAtoms
		preds := g.heapPreds()
		for _, o := range objs {
			visited := make([]bool, g.totalObjs)
			if !countReach(preds, o.ref-1, visited, &budget) {
				return 0, fmt.Sprintf("the reachable at %s would need conditions of more than %d comparisons over this heap", g.lineCol(act.KwPos), maxReachAtoms)
			}
		}
		return len(objs) + 1, ""
	case *ast.LockAction:
		if deep && act.Op == token.NOTIFY {
			return g.maxTids + 1, ""
		}
	}
	return 0, ""
}

// refSlot is a place of an object that holds a reference: a field, an
// element of an array field, or an element of a heap array, at any level
// of nesting of arrays.
type refSlot struct {
	suffix string   // after the object's place: ".next", ".kids[1]", ".e[2]", ".m[1].e[0]"
	shape  string   // as place computes it: ".next", ".kids[]", ".e[]", ".m[][]"
	ks     []string // the element indices, none for a field
	cols   []*types.Collection
}

// refSlots returns the reference places of an object of collection c.
func (g *gen) refSlots(c *types.Collection) []refSlot {
	var out []refSlot
	var visit func(t types.Type, suffix, shape string, ks []string)
	visit = func(t types.Type, suffix, shape string, ks []string) {
		switch u := t.Underlying().(type) {
		case *types.Ref:
			out = append(out, refSlot{suffix: suffix, shape: shape, ks: ks, cols: refCollections(t)})
		case *types.Array:
			row := ""
			if isArray(u.Elem) {
				row = ".e"
			}
			for k := int64(0); k < u.Len; k++ {
				visit(u.Elem, fmt.Sprintf("%s[%d]%s", suffix, k, row), shape+"[]", append(append([]string(nil), ks...), fmt.Sprint(k)))
			}
		}
	}
	switch u := c.Elem.Underlying().(type) {
	case *types.Record:
		for _, f := range u.Fields {
			fn := "." + ident(f.Name())
			visit(f.Type(), fn, fn, nil)
		}
	case *types.Array:
		visit(u, ".e", ".e", nil)
	}
	return out
}

// heapEdge says that object from may refer to object to through slot.
type heapEdge struct {
	from int // global object index (reference - 1)
	c    *types.Collection
	i    int
	slot refSlot
}

// heapPreds returns, for each object (by reference - 1), the places of
// other objects that may refer to it, by the types of the references.
func (g *gen) heapPreds() [][]heapEdge {
	if g.preds != nil {
		return g.preds
	}
	preds := make([][]heapEdge, g.totalObjs)
	owner := make([]*types.Collection, g.totalObjs)
	for _, c := range g.prog.Collections {
		for i := 0; i < int(c.Size); i++ {
			owner[g.colOff[c]+i] = c
		}
	}
	for _, c := range g.prog.Collections {
		slots := g.refSlots(c)
		for i := 0; i < int(c.Size); i++ {
			p := g.colOff[c] + i
			for _, s := range slots {
				for o := range preds {
					if o == p {
						continue
					}
					for _, tc := range s.cols {
						if tc == owner[o] {
							preds[o] = append(preds[o], heapEdge{from: p, c: c, i: i, slot: s})
							break
						}
					}
				}
			}
		}
	}
	g.preds = preds
	return preds
}

// countReach counts the comparisons of reachCond(o) against budget,
// reporting false when the budget runs out.
func countReach(preds [][]heapEdge, o int, visited []bool, budget *int) bool {
	*budget--
	if *budget < 0 {
		return false
	}
	visited[o] = true
	defer func() { visited[o] = false }()
	for _, e := range preds[o] {
		if visited[e.from] {
			continue
		}
		*budget--
		if !countReach(preds, e.from, visited, budget) {
			return false
		}
	}
	return true
}

// reachCond is the condition that object o (by reference - 1) is reachable
// from the reference r (a pre-state expression) in the heap as the step's
// earlier writes left it: r is o, or o is referred to by an object p on a
// simple path from r that avoids the objects visited. Each object is
// visited at most once on a path, so the unrolling is finite (paths of at
// most as many edges as there are objects); its size is bounded by
// choiceOptions.
func (x *tx) reachCond(preds [][]heapEdge, r string, o int, visited []bool) (string, error) {
	g := x.g
	ref := fmt.Sprint(o + 1)
	cond := paren(r) + " == " + ref
	visited[o] = true
	defer func() { visited[o] = false }()
	for _, e := range preds[o] {
		if visited[e.from] {
			continue
		}
		pref := fmt.Sprint(e.from + 1)
		a := alt{path: fmt.Sprintf("%s[%d]%s", g.names[e.c], e.i, e.slot.suffix), root: e.c, shape: e.slot.shape, dyn: []string{pref}}
		a.dyn = append(a.dyn, e.slot.ks...)
		if x.hoist.dirty[e.c] {
			return "", errDirty
		}
		v, err := g.read([]alt{a}, x.hoist)
		if err != nil {
			return "", err
		}
		sub, err := x.reachCond(preds, r, e.from, visited)
		if err != nil {
			return "", err
		}
		cond = or(cond, and(sub, paren(v)+" == "+ref))
	}
	return cond, nil
}

// forallPick translates option pick of lhs := forall(T): object pick of
// the collections T admits, entered when that object is allocated (in the
// state before the step, or earlier in the step), or, for the last option,
// no change when no object is allocated, as in birch.
func (x *tx) forallPick(act *ast.ForallAction, pick int) error {
	g := x.g
	tn, _ := g.info.Uses[act.Type].(*types.TypeName)
	if tn == nil {
		return g.errorf(act.Type.Pos(), "cannot translate forall(%s)", act.Type.Name)
	}
	objs := g.objectsOf(tn)
	if pick >= len(objs) {
		x.items = append(x.items, item{kind: itemDisable, cond: x.noneAllocated(objs)})
		return nil
	}
	o := objs[pick]
	if k := x.news[o.c]; o.i >= k {
		x.items = append(x.items, item{kind: itemDisable, cond: fmt.Sprintf("%s > %d", g.countName(o.c), o.i-k)})
	}
	return x.assignConst(act.Lhs, fmt.Sprint(o.ref))
}

// reachablePick translates option pick of lhs := reachable(r, T): object
// pick of the collections T admits, entered when it is reachable from r,
// or, for the last option, no change when r is null or no such object is
// reachable. When r or the heap cannot be read before the step, the last
// option makes the choice inside the step (reachable) and the others are
// void.
func (x *tx) reachablePick(act *ast.ReachableAction, pick int, a *altCode) error {
	g := x.g
	tn, _ := g.info.Uses[act.Type].(*types.TypeName)
	if tn == nil {
		return g.errorf(act.Type.Pos(), "cannot translate reachable(..., %s)", act.Type.Name)
	}
	objs := g.objectsOf(tn)
	inline := func() error {
		if pick < len(objs) {
			a.void = true
			x.items = append(x.items, item{kind: itemDisable, cond: "false"})
			return nil
		}
		return x.reachable(act)
	}
	// a trial on a copy of the items: the checks of r are added once
	saved := len(x.items)
	hr, ok, err := x.hoisted(act.From)
	if err != nil {
		return err
	}
	if !ok {
		x.items = x.items[:saved]
		return inline()
	}
	preds := g.heapPreds()
	conds := make([]string, len(objs))
	for k, o := range objs {
		c, err := x.reachCond(preds, hr, o.ref-1, make([]bool, g.totalObjs))
		if err != nil {
			x.items = x.items[:saved]
			return inline()
		}
		conds[k] = c
	}
	_, fcs, err := g.expr(act.From, x.plain)
	if err != nil {
		return err
	}
	x.emit(assertStmts(fcs)...)
	if pick >= len(objs) {
		none := "true"
		for _, c := range conds {
			none = and(none, not(c))
		}
		x.items = append(x.items, item{kind: itemDisable, cond: none})
		return nil
	}
	x.items = append(x.items, item{kind: itemDisable, cond: conds[pick]})
	return x.assignConst(act.Lhs, fmt.Sprint(objs[pick].ref))
}

// notifyPick is option pick of notify on the lock at alts (halts before
// the step): the thread with tid pick + 1 is notified, entered when it
// waits on the lock; the last option, entered when no thread waits,
// changes nothing. When the lock's sets cannot be read before the step,
// the last option makes the choice inside the step and the others are
// void.
func (x *tx) notifyPick(act *ast.LockAction, pick int, alts []alt, hread func(part string) string, set func(part, val string), a *altCode) {
	g := x.g
	known := true
	var waiting []string
	for _, w := range g.setWords() {
		known = known && hread(".waiting"+w) != "" && hread(".notified"+w) != ""
		waiting = append(waiting, hread(".waiting"+w))
	}
	if !known {
		if pick < g.maxTids {
			a.void = true
			x.items = append(x.items, item{kind: itemDisable, cond: "false"})
			return
		}
		x.notifyInline(alts, set)
		return
	}
	if pick >= g.maxTids {
		var conds []string
		for _, w := range waiting {
			conds = append(conds, paren(w)+" == 0")
		}
		x.items = append(x.items, item{kind: itemDisable, cond: strings.Join(conds, " && ")})
		return
	}
	// the thread's bit, in the word of the set that holds it
	w, bit := g.setWords()[pick/32], g.constBit(pick, pick/32)
	waiting1, notified1 := hread(".waiting"+w), hread(".notified"+w)
	x.items = append(x.items, item{kind: itemDisable, cond: fmt.Sprintf("(%s & %s) != 0", paren(waiting1), bit)})
	x.emit(forAlts(alts, func(p string) string {
		return fmt.Sprintf("%s.waiting%s = %s.waiting%s & ~%s; %s.notified%s = %s.notified%s | %s", p, w, p, w, bit, p, w, p, w, bit)
	}))
	set(".waiting"+w, fmt.Sprintf("(%s & ~%s)", paren(waiting1), bit))
	set(".notified"+w, fmt.Sprintf("(%s | %s)", paren(notified1), bit))
}

// notifyInline chooses the thread notify wakes inside the step.
func (x *tx) notifyInline(alts []alt, set func(part, val string)) {
	g := x.g
	x.emit(forAlts(alts, func(p string) string {
		var b strings.Builder
		var none []string
		for _, w := range g.setWords() {
			none = append(none, fmt.Sprintf("%s.waiting%s == 0", p, w))
		}
		fmt.Fprintf(&b, "if :: %s -> skip", strings.Join(none, " && "))
		for t := 0; t < g.maxTids; t++ {
			w, bit := g.setWords()[t/32], g.constBit(t, t/32)
			fmt.Fprintf(&b, " :: (%s.waiting%s & %s) != 0 -> %s.waiting%s = %s.waiting%s & ~%s; %s.notified%s = %s.notified%s | %s", p, w, bit, p, w, p, w, bit, p, w, p, w, bit)
		}
		b.WriteString(" fi")
		return b.String()
	}))
	// which thread is notified is chosen inside the step
	for _, w := range g.setWords() {
		set(".waiting"+w, "")
		set(".notified"+w, "")
	}
}

// refusal is the positioned error for a disabling condition that still
// reads a value chosen inside the step after the deep expansion, with the
// reasons the choices could not be expanded.
func (g *gen) refusal(e *dirtyError, why []string) error {
	msg := e.Error() + " that the Promela translation cannot express before the step"
	if len(why) > 0 {
		msg += ": " + strings.Join(why, "; ")
	}
	return g.errorf(e.pos, "%s", msg)
}

// lineCol is a position as line:col, for messages about the same file.
func (g *gen) lineCol(pos source.Pos) string {
	p := g.fset.Position(pos)
	return fmt.Sprintf("%d:%d", p.Line, p.Column)
}

// noneAllocated is the condition, in the state before the step, that none
// of objs is allocated after the step's earlier allocations: each of their
// collections is empty and allocated nothing earlier in the step.
func (x *tx) noneAllocated(objs []heapObj) string {
	none := "true"
	seen := map[*types.Collection]bool{}
	for _, o := range objs {
		if seen[o.c] {
			continue
		}
		seen[o.c] = true
		if x.news[o.c] > 0 {
			return "false"
		}
		none = and(none, x.g.countName(o.c)+" == 0")
	}
	return none
}
