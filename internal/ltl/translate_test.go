package ltl

import (
	"math/rand/v2"
	"os"
	"testing"
)

// randFormula builds a random formula over nprops propositions with about
// size operators, using every operator of the language.
func randFormula(r *rand.Rand, nprops, size int) *Formula {
	if size <= 0 {
		switch r.IntN(10) {
		case 0:
			return T()
		case 1:
			return F()
		}
		return Prop(r.IntN(nprops))
	}
	unary := []Op{Not, Next, Always, Eventually}
	binary := []Op{And, Or, Implies, Iff, Until, Release, WeakUntil}
	if r.IntN(3) == 0 {
		return Un(unary[r.IntN(len(unary))], randFormula(r, nprops, size-1))
	}
	k := r.IntN(size)
	return Bin(binary[r.IntN(len(binary))], randFormula(r, nprops, k), randFormula(r, nprops, size-1-k))
}

func randWord(r *rand.Rand, nprops, n int) []uint64 {
	w := make([]uint64, n)
	for i := range w {
		w[i] = r.Uint64() & (1<<uint(nprops) - 1)
	}
	return w
}

// randLassos returns random lassos plus every lasso with a prefix of at
// most 1 and a cycle of at most 2 letters.
func randLassos(r *rand.Rand, nprops, n int) (pres, cycs [][]uint64) {
	letters := 1 << uint(nprops)
	for a := 0; a < letters; a++ {
		pres = append(pres, nil)
		cycs = append(cycs, []uint64{uint64(a)})
		for b := 0; b < letters; b++ {
			pres = append(pres, []uint64{uint64(a)})
			cycs = append(cycs, []uint64{uint64(b)})
			pres = append(pres, nil)
			cycs = append(cycs, []uint64{uint64(a), uint64(b)})
		}
	}
	for i := 0; i < n; i++ {
		pres = append(pres, randWord(r, nprops, r.IntN(4)))
		cycs = append(cycs, randWord(r, nprops, 1+r.IntN(4)))
	}
	return pres, cycs
}

// TestNNFAndSimplify checks that NNF and Simplify keep a formula's meaning
// on random lassos, and that their results have the promised shape.
func TestNNFAndSimplify(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for i := 0; i < 2000; i++ {
		f := randFormula(r, 3, 1+r.IntN(7))
		n := NNF(f)
		s := Simplify(n)
		checkNNF(t, n)
		checkNNF(t, s)
		pres, cycs := randLassos(r, 3, 20)
		for j := range pres {
			want := Holds(f, pres[j], cycs[j])
			if got := Holds(n, pres[j], cycs[j]); got != want {
				t.Fatalf("NNF(%v) = %v: on %v %v^w got %v, want %v", f, n, pres[j], cycs[j], got, want)
			}
			if got := Holds(s, pres[j], cycs[j]); got != want {
				t.Fatalf("Simplify(%v) = %v: on %v %v^w got %v, want %v", n, s, pres[j], cycs[j], got, want)
			}
		}
	}
}

func checkNNF(t *testing.T, f *Formula) {
	t.Helper()
	switch f.Op {
	case True, False, Atom:
	case Not:
		if f.L.Op != Atom {
			t.Fatalf("not in negation normal form: %v", f)
		}
	case And, Or, Until, Release:
		checkNNF(t, f.L)
		checkNNF(t, f.R)
	case Next:
		checkNNF(t, f.L)
	default:
		t.Fatalf("operator %v in negation normal form: %v", f.Op, f)
	}
}

// TestTranslateRandom checks the automata against the formulas' semantics:
// for random formulas and random lassos u·v^ω, membership decided by
// evaluating the formula on the lasso (Holds) must equal acceptance by the
// automaton, raw and simplified, generalized and degeneralized.
func TestTranslateRandom(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	n := 3000
	if testing.Short() {
		n = 500
	}
	for i := 0; i < n; i++ {
		nprops := 1 + r.IntN(3)
		f := randFormula(r, nprops, 1+r.IntN(6))
		raw, err := TranslateRaw(f, nil)
		if err != nil {
			t.Fatal(err)
		}
		simp, _ := Translate(f, nil)
		ba := Degeneralize(simp)
		ba.Simplify()
		checkWellFormed(t, f, simp)
		checkWellFormed(t, f, ba)
		if len(simp.States) > len(raw.States) {
			t.Errorf("%v: simplification grew the automaton from %d to %d states", f, len(raw.States), len(simp.States))
		}
		pres, cycs := randLassos(r, nprops, 30)
		for j := range pres {
			want := Holds(f, pres[j], cycs[j])
			for _, c := range []struct {
				name string
				a    *Automaton
			}{{"raw", raw}, {"simplified", simp}, {"degeneralized", ba}} {
				if got := c.a.Accepts(pres[j], cycs[j]); got != want {
					t.Fatalf("%v: the %s automaton says %v on %v %v^w, the formula %v\n%s",
						f, c.name, got, pres[j], cycs[j], want, c.a.Format(""))
				}
			}
		}
	}
}

func checkWellFormed(t *testing.T, f *Formula, a *Automaton) {
	t.Helper()
	if a.Init < 0 || a.Init >= len(a.States) {
		t.Fatalf("%v: initial state %d of %d", f, a.Init, len(a.States))
	}
	for q, s := range a.States {
		for _, e := range s.Edges {
			if e.To < 0 || e.To >= len(a.States) || e.Pos&e.Neg != 0 || e.Acc&^a.AllAcc() != 0 {
				t.Fatalf("%v: bad edge %+v of state %d", f, e, q)
			}
			if a.StateBased && e.Acc != s.Edges[0].Acc {
				t.Fatalf("%v: state-based automaton with different marks on the edges of state %d", f, q)
			}
		}
	}
}

// Known translations: sizes of the simplified automata of common formulas
// (the smallest transition-based automata for them).
func TestTranslateSizes(t *testing.T) {
	p, q := Prop(0), Prop(1)
	for _, c := range []struct {
		f      *Formula
		states int
		acc    int
	}{
		{Un(Always, p), 1, 0},
		{Un(Eventually, p), 2, 1},
		{Un(Always, Un(Eventually, p)), 1, 1},
		{Un(Eventually, Un(Always, p)), 2, 1},
		{Un(Always, Bin(Implies, p, Un(Eventually, q))), 2, 1},
		{Bin(Until, p, q), 2, 1},
		{Un(Next, p), 3, 0},
		{F(), 1, 0},
		{T(), 1, 0},
	} {
		a, err := Translate(c.f, []string{"p", "q"})
		if err != nil {
			t.Fatal(err)
		}
		if len(a.States) != c.states || a.NumAcc != c.acc {
			t.Errorf("%v: %d states, %d acceptance sets; want %d, %d\n%s", c.f, len(a.States), a.NumAcc, c.states, c.acc, a.Format(""))
		}
	}
}

// The printed form of a formula parses back to the same formula.
func TestFormatRoundTrip(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	names := []string{"p", "flag[0]", "x > 2", "Main @ done"}
	for i := 0; i < 1000; i++ {
		f := randFormula(r, len(names), 1+r.IntN(8))
		text := f.Format(func(i int) string { return names[i] })
		s, err := Parse("f", text)
		if err != nil {
			t.Fatalf("%s: %v", text, err)
		}
		// renumber: Parse numbers propositions by first occurrence
		back := s.Formula.Format(func(i int) string { return s.Props[i].Text })
		if back != text {
			t.Fatalf("%s printed back as %s", text, back)
		}
	}
}

func TestParseErrors(t *testing.T) {
	for _, c := range []struct{ src, want string }{
		{"[] (p ->", "f:1:9: "},
		{"p U", "f:1:4: "},
		{"", "empty formula"},
		{"(<> p) + 1", "temporal formula cannot be an operand of +"},
	} {
		_, err := Parse("f", c.src)
		if err == nil {
			t.Errorf("%q: no error", c.src)
			continue
		}
		if got := err.Error(); !contains(got, c.want) {
			t.Errorf("%q: error %q, want it to contain %q", c.src, got, c.want)
		}
	}
}

func contains(s, sub string) bool {
	for i := 0; i+len(sub) <= len(s); i++ {
		if s[i:i+len(sub)] == sub {
			return true
		}
	}
	return false
}

// TestTranslateRandomLong is TestTranslateRandom with larger formulas over
// more propositions (BIRCH_LONG=1).
func TestTranslateRandomLong(t *testing.T) {
	if os.Getenv("BIRCH_LONG") == "" {
		t.Skip("set BIRCH_LONG=1 to run")
	}
	r := rand.New(rand.NewPCG(7, 8))
	for i := 0; i < 20000; i++ {
		nprops := 1 + r.IntN(4)
		f := randFormula(r, nprops, 1+r.IntN(14))
		a, err := Translate(f, nil)
		if err != nil {
			t.Fatal(err)
		}
		ba := Degeneralize(a)
		ba.Simplify()
		pres, cycs := randLassos(r, nprops, 40)
		for j := range pres {
			want := Holds(f, pres[j], cycs[j])
			if got := a.Accepts(pres[j], cycs[j]); got != want {
				t.Fatalf("%v: the automaton says %v on %v %v^w, the formula %v\n%s", f, got, pres[j], cycs[j], want, a.Format(""))
			}
			if got := ba.Accepts(pres[j], cycs[j]); got != want {
				t.Fatalf("%v: the degeneralized automaton says %v on %v %v^w, the formula %v\n%s", f, got, pres[j], cycs[j], want, ba.Format(""))
			}
		}
	}
}
