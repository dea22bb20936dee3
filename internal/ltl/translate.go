package ltl

import (
	"fmt"
	"math/bits"
)

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
	a, err := TranslateRaw(f, props)
	if err != nil {
		return nil, err
	}
	a.Simplify()
	return a, nil
}

// TranslateRaw is Translate without the final simplification of the
// automaton (the formula is still simplified); tests compare the two.
func TranslateRaw(f *Formula, props []string) (*Automaton, error) {
	g := Simplify(NNF(f))
	t := newTableau(g)
	if len(t.untils) > 64 {
		return nil, fmt.Errorf("the formula has %d U subformulas; at most 64 are supported", len(t.untils))
	}
	start := &tnode{incoming: []int{-1}, new: t.newSet(), old: t.newSet(), next: t.newSet()}
	start.new.add(t.root)
	t.expand(start)
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
}

type tnode struct {
	incoming       []int // nodes with an edge to this one; -1 is the initial state
	new, old, next bitset
	pos, neg       uint64 // the literals in old
}

func newTableau(f *Formula) *tableau {
	t := &tableau{index: map[string]int{}}
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
	for _, q := range t.nodes {
		if q.old.equal(n.old) && q.next.equal(n.next) {
			for _, in := range n.incoming {
				if !containsInt(q.incoming, in) {
					q.incoming = append(q.incoming, in)
				}
			}
			return
		}
	}
	t.nodes = append(t.nodes, n)
	id := len(t.nodes) - 1
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

func (s bitset) equal(t bitset) bool {
	for i := range s {
		if s[i] != t[i] {
			return false
		}
	}
	return true
}
