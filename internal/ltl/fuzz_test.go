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
		spec, err := Parse("fuzz", src)
		if err != nil || len(spec.Props) > 4 || spec.Formula.Size() > 40 {
			return
		}
		form := spec.Formula
		a, err := Translator{MaxNodes: 50000}.Translate(context.Background(), form, spec.Names())
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
		n := max(len(spec.Props), 1)
		pres, cycs := randLassos(r, n, 20)
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
