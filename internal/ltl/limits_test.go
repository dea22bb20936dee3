package ltl

import (
	"context"
	"errors"
	"testing"
)

// responses is (p0 -> <> p1) && (p2 -> <> p3) && … with n conjuncts over
// 2n propositions (independent obligations).
func responses(n int) *Formula {
	var f *Formula
	for i := 0; i < n; i++ {
		g := Bin(Implies, Prop(2*i), Un(Eventually, Prop(2*i+1)))
		if f == nil {
			f = g
		} else {
			f = Bin(And, f, g)
		}
	}
	return f
}

// persistences is <>[]p0 || <>[]p1 || … with n disjuncts.
func persistences(n int) *Formula {
	var f *Formula
	for i := 0; i < n; i++ {
		g := Un(Eventually, Un(Always, Prop(i)))
		if f == nil {
			f = g
		} else {
			f = Bin(Or, f, g)
		}
	}
	return f
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
