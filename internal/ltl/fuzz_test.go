package ltl

import (
	"context"
	"errors"
	"hash/fnv"
	"math/rand/v2"
	"testing"
)

// FuzzTranslate parses a formula, translates it within a bound on the
// construction and checks the automaton, simplified and degeneralized,
// against the formula's semantics (Holds) on lassos.
func FuzzTranslate(f *testing.F) {
	for _, s := range []string{
		"[] (p -> <> q)",
		"<> [] p || <> [] q",
		"!((a -> <> b) && (b -> <> c))",
		"p U (q R X r)",
		"[] <> a && [] <> !b && (c W d)",
		"(p <-> X q) && !(r U <> p)",
		"[] (a && !b -> (!c W (d && !b)))",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		if len(src) > 120 {
			return
		}
		var form *Formula
		var names []string
		nprops := 4
		if spec, err := Parse("fuzz", src); err == nil {
			if len(spec.Props) > 4 || spec.Formula.Size() > 40 {
				return
			}
			form, names, nprops = spec.Formula, spec.Names(), max(len(spec.Props), 1)
		} else {
			// not a formula: read the bytes as one, so that every input
			// reaches the translator
			d := decoder(src)
			form = d.formula(0)
		}
		a, err := Translator{MaxNodes: 50000}.Translate(context.Background(), form, names)
		if errors.Is(err, ErrTooLarge) {
			return
		}
		if err != nil {
			t.Fatalf("%s: %v", src, err)
		}
		ba := Degeneralize(a)
		ba.Simplify()
		checkWellFormed(t, form, a)
		checkWellFormed(t, form, ba)
		h := fnv.New64a()
		h.Write([]byte(src))
		r := rand.New(rand.NewPCG(h.Sum64(), 1))
		pres, cycs := randLassos(r, nprops, 20)
		for j := range pres {
			want := Holds(form, pres[j], cycs[j])
			if got := a.Accepts(pres[j], cycs[j]); got != want {
				t.Fatalf("%s: the automaton says %v on %v %v^w, the formula %v\n%s", src, got, pres[j], cycs[j], want, a.Format(src))
			}
			if got := ba.Accepts(pres[j], cycs[j]); got != want {
				t.Fatalf("%s: the degeneralized automaton says %v on %v %v^w, the formula %v\n%s", src, got, pres[j], cycs[j], want, ba.Format(src))
			}
		}
	})
}

// decoder reads a formula over 4 propositions from bytes: each byte picks
// an operator (and a proposition for a leaf); the formula is at most 8
// deep, and the input running out gives leaves.
type decoder string

func (d *decoder) formula(depth int) *Formula {
	if len(*d) == 0 {
		return Prop(0)
	}
	b := (*d)[0]
	*d = (*d)[1:]
	ops := [...]Op{True, False, Atom, Not, And, Or, Implies, Iff, Next, Always, Eventually, Until, Release, WeakUntil}
	op := ops[int(b)%len(ops)]
	if depth >= 8 || op == Atom {
		return Prop(int(b>>4) % 4)
	}
	switch {
	case op == True, op == False:
		return &Formula{Op: op}
	case op.unary():
		return Un(op, d.formula(depth+1))
	}
	l := d.formula(depth + 1)
	return Bin(op, l, d.formula(depth+1))
}
