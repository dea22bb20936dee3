package ltl

import (
	"context"
	"errors"
	"testing"
)

// fold joins f(0), …, f(n-1) with op.
func fold(op Op, n int, f func(i int) *Formula) *Formula {
	g := f(0)
	for i := 1; i < n; i++ {
		g = Bin(op, g, f(i))
	}
	return g
}

// responses is (p0 -> <> p1) && (p2 -> <> p3) && … with n conjuncts over
// 2n propositions (independent obligations).
func responses(n int) *Formula {
	return fold(And, n, func(i int) *Formula { return Bin(Implies, Prop(2*i), Un(Eventually, Prop(2*i+1))) })
}

// persistences is <>[]p0 || <>[]p1 || … with n disjuncts.
func persistences(n int) *Formula {
	return fold(Or, n, func(i int) *Formula { return Un(Eventually, Un(Always, Prop(i))) })
}

// chain is (p0 -> <> p1) && (p1 -> <> p2) && … && (p(n-1) -> <> pn).
func chain(n int) *Formula {
	return fold(And, n, func(i int) *Formula { return Bin(Implies, Prop(i), Un(Eventually, Prop(i+1))) })
}

// A cancelled context stops the translation with an error that wraps the
// context's.
func TestTranslateContextCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	a, err := TranslateContext(ctx, responses(11), nil)
	if !errors.Is(err, context.Canceled) || a != nil {
		t.Fatalf("got %v, %v; want an error wrapping context.Canceled", a, err)
	}
}

// A construction larger than the bound stops with ErrTooLarge.
func TestTranslateNodeBound(t *testing.T) {
	f := Un(Always, responses(6))
	a, err := Translator{MaxNodes: 10}.Translate(context.Background(), f, nil)
	if !errors.Is(err, ErrTooLarge) || a != nil {
		t.Fatalf("got %v, %v; want an error wrapping ErrTooLarge", a, err)
	}
	// and within the default bound a smaller one translates
	if _, err := Translate(Un(Always, responses(2)), nil); err != nil {
		t.Fatal(err)
	}
}

// The formula families of issue 16 translate within a bound on the work of
// the construction and with automata as small as SPIN's (spin -f gives the
// same counts of Büchi states for n = 11: 12 for !chain and for
// persistences, and it does not finish the other two in minutes).
func TestTranslateFamilies(t *testing.T) {
	for n := 1; n <= 11; n++ {
		for _, c := range []struct {
			name   string
			f      *Formula
			states int // bound on the Büchi automaton's states
			tgba   int // bound on the generalized automaton's states
		}{
			{"!chain", Un(Not, chain(n)), n + 1, n + 1},
			{"persistences", persistences(n), n + 1, n + 1},
			// [] <> !p0 && … && [] <> !pn: one state, n acceptance sets
			{"!persistences", Un(Not, persistences(n)), n + 1, 1},
		} {
			// the bound on the construction is polynomial in n
			tr := Translator{MaxNodes: 1000 * (n + 1) * (n + 1)}
			a, err := tr.Translate(context.Background(), c.f, nil)
			if err != nil {
				t.Fatalf("%s(%d): %v", c.name, n, err)
			}
			ba := Degeneralize(a)
			ba.Simplify()
			if c.name == "!persistences" && a.NumEdges() > n+1 {
				// true, and !pi with mark i: the edges with more literals
				// and marks are subsumed by these together
				t.Errorf("%s(%d): %d edges; want at most %d\n%s", c.name, n, a.NumEdges(), n+1, a.Format(""))
			}
			if len(a.States) > c.tgba || len(ba.States) > c.states {
				t.Errorf("%s(%d): %d generalized and %d Büchi states; want at most %d and %d", c.name, n, len(a.States), len(ba.States), c.tgba, c.states)
			}
		}
	}
	// the chain itself needs a state per set of pending obligations: 2^n
	// of them and the initial state, no more; so does [] of n independent
	// responses (spin -f does not finish n = 3 in a minute)
	for n := 1; n <= 7; n++ {
		for _, c := range []struct {
			name   string
			f      *Formula
			states int
		}{
			{"chain", chain(n), 1<<n + 1},
			{"[] responses", Un(Always, responses(n)), 1 << n},
		} {
			if c.name == "[] responses" && n > 5 {
				continue // 5^n edges
			}
			a, err := Translate(c.f, nil)
			if err != nil {
				t.Fatal(err)
			}
			if len(a.States) > c.states {
				t.Errorf("%s(%d): %d states; want at most %d", c.name, n, len(a.States), c.states)
			}
		}
	}
}

// Conjunctions of 30 recurrences or persistences are one state: for
// [] <> p0 && … && [] <> p29 the expansion never lists the 2^30 ways to
// postpone the <> pi.
func TestTranslateManyRecurrences(t *testing.T) {
	const n = 30
	for _, c := range []struct {
		name        string
		f           *Formula
		states, acc int
	}{
		{"recurrences", fold(And, n, func(i int) *Formula { return Un(Always, Un(Eventually, Prop(i))) }), 1, n},
		{"persistences", fold(And, n, func(i int) *Formula { return Un(Eventually, Un(Always, Prop(i))) }), 2, 1},
	} {
		a, err := Translator{MaxNodes: 10000}.Translate(context.Background(), c.f, nil)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if len(a.States) != c.states || a.NumAcc != c.acc || a.NumEdges() > n+1 {
			t.Errorf("%s: %d states, %d edges, %d acceptance sets; want %d states, at most %d edges, %d sets",
				c.name, len(a.States), a.NumEdges(), a.NumAcc, c.states, n+1, c.acc)
		}
	}
}

// Parallel edges labelled with every minterm over 10 propositions merge
// into one edge labelled true.
func TestSimplifyMergesMinterms(t *testing.T) {
	const n = 10
	a := &Automaton{States: make([]State, 1)}
	for m := uint64(0); m < 1<<n; m++ {
		a.States[0].Edges = append(a.States[0].Edges, Edge{To: 0, Pos: m, Neg: ^m & (1<<n - 1)})
	}
	a.Simplify()
	if es := a.States[0].Edges; len(es) != 1 || es[0].Pos != 0 || es[0].Neg != 0 {
		t.Fatalf("got %d edges, want one labelled true:\n%s", len(es), a.Format(""))
	}
}
