package ltl

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"math/bits"
)

// MaxNodes bounds the construction: a translation that builds more than
// this many tableau nodes stops with an error wrapping ErrTooLarge instead
// of exhausting memory.
const MaxNodes = 1_000_000

// ErrTooLarge is wrapped by the error of a translation that exceeded
// MaxNodes (or the bound given to a Translator).
var ErrTooLarge = errors.New("the automaton is too large")

// Translate builds a transition-based generalized Büchi automaton that
// accepts exactly the words satisfying f, whose propositions are named by
// props (for printing). The formula is put in negation normal form and
// simplified, translated by the tableau construction of Gerth, Peled, Vardi
// and Wolper ("Simple on-the-fly automatic verification of linear temporal
// logic", 1995) into a generalized Büchi automaton with one acceptance set
// per U subformula, read as a transition-based automaton (an edge into a
// tableau node carries that node's label and acceptance sets), and reduced
// by Automaton.Simplify.
//
// It fails only when the formula has more than 64 U subformulas.
func Translate(f *Formula, props []string) (*Automaton, error) {
	return TranslateContext(context.Background(), f, props)
}

// TranslateContext is Translate under a context: the construction polls ctx
// and, once it is done, stops with an error wrapping ctx.Err(). It also
// stops with an error wrapping ErrTooLarge when the construction exceeds
// MaxNodes nodes.
func TranslateContext(ctx context.Context, f *Formula, props []string) (*Automaton, error) {
	return Translator{}.Translate(ctx, f, props)
}

// Translator holds the limits of a translation; its zero value uses
// MaxNodes.
type Translator struct {
	MaxNodes int  // bound on the construction's nodes; 0 means MaxNodes
	Raw      bool // skip the final simplification of the automaton
}

// Translate translates f as TranslateContext does, within t's limits.
func (tr Translator) Translate(ctx context.Context, f *Formula, props []string) (*Automaton, error) {
	limit := tr.MaxNodes
	if limit <= 0 {
		limit = MaxNodes
	}
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("LTL translation stopped: %w", err)
	}
	g := Simplify(NNF(f))
	t := newTableau(g)
	t.ctx, t.limit = ctx, limit
	if len(t.untils) > 64 {
		return nil, fmt.Errorf("the formula has %d U subformulas; at most 64 are supported", len(t.untils))
	}
	a, err := t.build(props)
	if err != nil {
		return nil, err
	}
	if !tr.Raw {
		if err := a.simplify(ctx); err != nil {
			return nil, err
		}
	}
	return a, nil
}

// TranslateRaw is Translate without the final simplification of the
// automaton (the formula is still simplified); tests compare the two.
func TranslateRaw(f *Formula, props []string) (*Automaton, error) {
	return Translator{Raw: true}.Translate(context.Background(), f, props)
}

func (t *tableau) build(props []string) (*Automaton, error) {
	start := &tnode{incoming: []int{-1}, new: t.newSet(), old: t.newSet(), next: t.newSet()}
	start.new.add(t.root)
	t.expand(start)
	if t.err != nil {
		return nil, t.err
	}
	a := &Automaton{Props: props, NumAcc: len(t.untils)}
	a.States = make([]State, len(t.nodes)+1)
	a.Init = 0
	for i, n := range t.nodes {
		var acc uint64
		for k, u := range t.untils {
			if !n.old.has(u) || n.old.has(t.right[u]) {
				acc |= 1 << uint(k)
			}
		}
		for _, from := range n.incoming {
			e := Edge{To: i + 1, Pos: n.pos, Neg: n.neg, Acc: acc}
			a.States[from+1].Edges = append(a.States[from+1].Edges, e)
		}
	}
	return a, nil
}

// cancelled reports whether the construction must stop, recording why in
// t.err; it polls the context every 256 calls.
func (t *tableau) cancelled() bool {
	if t.err != nil {
		return true
	}
	t.steps++
	if t.steps&255 == 0 {
		if err := t.ctx.Err(); err != nil {
			t.err = fmt.Errorf("LTL translation stopped: %w", err)
			return true
		}
	}
	if len(t.nodes) > t.limit {
		t.err = fmt.Errorf("LTL translation stopped after %d nodes: %w", len(t.nodes), ErrTooLarge)
		return true
	}
	return false
}

// tableau is the state of the GPVW construction. Subformulas of the
// formula (in negation normal form) are numbered; node sets are bit sets of
// those numbers.
type tableau struct {
	forms       []*Formula
	left, right []int // operands' numbers, -1 when absent
	index       map[string]int
	root        int
	untils      []int // the U subformulas: one acceptance set each
	nodes       []*tnode
	byKey       map[string]int // nodes by old and next sets

	ctx   context.Context
	limit int
	steps int
	err   error
}

type tnode struct {
	incoming       []int // nodes with an edge to this one; -1 is the initial state
	new, old, next bitset
	pos, neg       uint64 // the literals in old
}

func newTableau(f *Formula) *tableau {
	t := &tableau{index: map[string]int{}, byKey: map[string]int{}}
	t.root = t.intern(f)
	return t
}

func (t *tableau) intern(f *Formula) int {
	k := f.String()
	if i, ok := t.index[k]; ok {
		return i
	}
	l, r := -1, -1
	if f.L != nil && f.Op != Not {
		l = t.intern(f.L)
	}
	if f.R != nil {
		r = t.intern(f.R)
	}
	i := len(t.forms)
	t.index[k] = i
	t.forms = append(t.forms, f)
	t.left = append(t.left, l)
	t.right = append(t.right, r)
	if f.Op == Until {
		t.untils = append(t.untils, i)
	}
	return i
}

func (t *tableau) newSet() bitset { return make(bitset, (len(t.forms)+63)/64) }

func (n *tnode) clone() *tnode {
	return &tnode{
		incoming: append([]int(nil), n.incoming...),
		new:      n.new.clone(), old: n.old.clone(), next: n.next.clone(),
		pos: n.pos, neg: n.neg,
	}
}

// expand processes the formulas of n.new (GPVW's procedure expand).
func (t *tableau) expand(n *tnode) {
	for {
		if t.cancelled() {
			return
		}
		i := n.new.first()
		if i < 0 {
			break
		}
		n.new.del(i)
		if n.old.has(i) {
			continue
		}
		f := t.forms[i]
		switch f.Op {
		case True:
			n.old.add(i)
		case False:
			return // contradiction: the node is dropped
		case Atom:
			bit := uint64(1) << uint(f.Atom)
			if n.neg&bit != 0 {
				return
			}
			n.pos |= bit
			n.old.add(i)
		case Not: // of a proposition (negation normal form)
			bit := uint64(1) << uint(f.L.Atom)
			if n.pos&bit != 0 {
				return
			}
			n.neg |= bit
			n.old.add(i)
		case And:
			n.old.add(i)
			n.new.add(t.left[i])
			n.new.add(t.right[i])
		case Next:
			n.old.add(i)
			n.next.add(t.left[i])
		case Or, Until, Release:
			n.old.add(i)
			m := n.clone()
			a, b := t.left[i], t.right[i]
			switch f.Op {
			case Or: // a, or b
				n.new.add(a)
				m.new.add(b)
			case Until: // a and X(a U b), or b
				n.new.add(a)
				n.next.add(i)
				m.new.add(b)
			case Release: // b and X(a R b), or a and b
				n.new.add(b)
				n.next.add(i)
				m.new.add(a)
				m.new.add(b)
			}
			t.expand(m)
		default:
			panic("ltl: the tableau needs negation normal form, found " + f.Op.String())
		}
	}
	key := n.old.key() + "|" + n.next.key()
	if id, ok := t.byKey[key]; ok {
		q := t.nodes[id]
		for _, in := range n.incoming {
			if !containsInt(q.incoming, in) {
				q.incoming = append(q.incoming, in)
			}
		}
		return
	}
	t.nodes = append(t.nodes, n)
	id := len(t.nodes) - 1
	t.byKey[key] = id
	t.expand(&tnode{incoming: []int{id}, new: n.next.clone(), old: t.newSet(), next: t.newSet()})
}

func containsInt(a []int, x int) bool {
	for _, y := range a {
		if y == x {
			return true
		}
	}
	return false
}

// bitset is a set of small integers.
type bitset []uint64

func (s bitset) has(i int) bool { return s[i/64]&(1<<uint(i%64)) != 0 }
func (s bitset) add(i int)      { s[i/64] |= 1 << uint(i%64) }
func (s bitset) del(i int)      { s[i/64] &^= 1 << uint(i%64) }
func (s bitset) clone() bitset  { return append(bitset(nil), s...) }

func (s bitset) first() int {
	for w, x := range s {
		if x != 0 {
			return w*64 + bits.TrailingZeros64(x)
		}
	}
	return -1
}

// key is the set's contents as a string, for maps.
func (s bitset) key() string {
	b := make([]byte, 0, 8*len(s))
	for _, x := range s {
		b = binary.LittleEndian.AppendUint64(b, x)
	}
	return string(b)
}
