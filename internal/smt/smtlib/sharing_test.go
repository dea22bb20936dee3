package smtlib_test

import (
	"bytes"
	"fmt"
	"runtime"
	"strings"
	"testing"

	"birch/internal/smt"
	"birch/internal/smt/embedded"
	"birch/internal/smt/smtlib"
)

// doublingLets is a script whose assertion binds x1 = x0 + x0,
// x2 = x1 + x1, … xn with nested lets: a DAG of n nodes whose tree has 2ⁿ.
func doublingLets(n int, top string) string {
	var b strings.Builder
	b.WriteString("(declare-fun x0 () Int)\n(assert ")
	for i := 1; i <= n; i++ {
		fmt.Fprintf(&b, "(let ((x%d (+ x%d x%d))) ", i, i-1, i-1)
	}
	b.WriteString(strings.ReplaceAll(top, "X", fmt.Sprintf("x%d", n)))
	b.WriteString(strings.Repeat(")", n+1) + "\n(check-sat)\n")
	return b.String()
}

// doublingDefs is doublingLets with define-fun: f1 = f0 + f0, ….
func doublingDefs(n int, top string) string {
	var b strings.Builder
	b.WriteString("(declare-fun f0 () Int)\n")
	for i := 1; i <= n; i++ {
		fmt.Fprintf(&b, "(define-fun f%d () Int (+ f%d f%d))\n", i, i-1, i-1)
	}
	fmt.Fprintf(&b, "(assert %s)\n(check-sat)\n", strings.ReplaceAll(top, "X", fmt.Sprintf("f%d", n)))
	return b.String()
}

// TestDoublingChains decides chains of 100 doubling links, whose terms as
// trees have 2¹⁰⁰ nodes: the reader and the embedded solver must work on
// the shared DAG (issue 16: 28 links took 3 s).
func TestDoublingChains(t *testing.T) {
	const n = 100
	for _, c := range []struct{ name, src, want string }{
		{"let sat", doublingLets(n, "(and (> X 5) (< x0 2))"), "sat\n"},
		{"let unsat", doublingLets(n, "(and (> X 5) (< x0 1))"), "unsat\n"},
		{"define-fun sat", doublingDefs(n, "(and (> X 5) (< f0 2))"), "sat\n"},
		{"define-fun unsat", doublingDefs(n, "(and (= X 3) (> f0 (- 5)))"), "unsat\n"},
	} {
		tm := smt.NewTermManager()
		var out bytes.Buffer
		in := &smtlib.Interpreter{TM: tm, Solver: embedded.New(tm), Out: &out}
		if err := in.Run("chain.smt2", []byte(c.src)); err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if out.String() != c.want {
			t.Errorf("%s: got %q, want %q", c.name, out.String(), c.want)
		}
	}
}

// TestLetChainLinear reads chains of nested lets of two lengths and checks
// that the memory it takes grows linearly with the length, not
// quadratically (each let used to copy every binding in scope).
func TestLetChainLinear(t *testing.T) {
	alloc := func(n int) uint64 {
		src := []byte(doublingLets(n, "(> X 0)"))
		tm := smt.NewTermManager()
		in := &smtlib.Interpreter{TM: tm, Solver: &discard{stub{tm: tm}}, Out: &bytes.Buffer{}}
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		if err := in.Run("chain.smt2", src); err != nil {
			t.Fatal(err)
		}
		runtime.ReadMemStats(&after)
		return after.TotalAlloc - before.TotalAlloc
	}
	small, large := alloc(500), alloc(2000)
	// Linear: about 4 times as much for 4 times the length; quadratic: 16.
	if large > 8*small {
		t.Errorf("reading 500 lets allocates %d bytes, 2000 lets %d: more than linear", small, large)
	}
}

// discard is a stub that forgets its assertions (the stub prints them as
// trees).
type discard struct{ stub }

func (*discard) Assert(*smt.Term) {}

// TestDoublingNonlinear asserts a division by zero of a 100-link
// doubling chain: the embedded solver answers unknown, and the reason it
// records quotes a bounded excerpt of the term (it used to print the term
// as a tree, 2¹⁰⁰ nodes, and run out of memory).
func TestDoublingNonlinear(t *testing.T) {
	tm := smt.NewTermManager()
	s := embedded.New(tm)
	var out bytes.Buffer
	in := &smtlib.Interpreter{TM: tm, Solver: s, Out: &out}
	if err := in.Run("chain.smt2", []byte(doublingLets(100, "(> (div X 0) 5)"))); err != nil {
		t.Fatal(err)
	}
	if out.String() != "unknown\n" {
		t.Errorf("got %q, want unknown", out.String())
	}
	if why := s.Unsupported(); !strings.HasPrefix(why, "division by zero: ") || len(why) > 300 {
		t.Errorf("Unsupported() = %q, want a bounded excerpt", why)
	}
}
