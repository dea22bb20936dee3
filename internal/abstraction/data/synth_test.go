package data

import "testing"

// TestSynthesisQueries checks that the synthesis of range(0,30) (33
// tokens) asks the solver a number of questions of the order of the
// number of entries, not one per token per entry: entries of two tokens
// of few integers are decided by trying every pair, and one query asks for
// all the tokens not found yet (issue 16: range(0,61) asked hundreds of
// thousands and took 28 s).
func TestSynthesisQueries(t *testing.T) {
	var l Library
	a, err := l.Lookup("range(0,30)")
	if err != nil {
		t.Fatal(err)
	}
	k := len(a.Tokens)
	if a.queries > 4*k*k {
		t.Errorf("range(0,30): %d queries for %d tokens, more than 4k² = %d", a.queries, k, 4*k*k)
	}
}
