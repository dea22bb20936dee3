package search

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"birch/internal/bir/ast"
	"birch/internal/ltl"
	"birch/internal/model"
)

// deepCounters is a model whose depth-first search goes about as deep as
// it has states (eight counters, each step increments one), so that the
// product search's stacks of edges and frames hold more memory than its
// state table.
const deepCounters = `system Deep ()
const K = 8;
const M = 3;
Id = range 0..K - 1;
Val = range 0..M;
cnt : array [K] of Val;
main thread Main ()
  loc m0:
    when cnt[0] >= 0 || cnt[7] == 3 && cnt[6] == 3 && cnt[5] == 3 do { start Worker(0); start Worker(1); start Worker(2); start Worker(3);
      start Worker(4); start Worker(5); start Worker(6); start Worker(7); } goto m1;
  loc m1:
end Main;
thread Worker (id : Id)
  loc w0:
    when true do { cnt[id] := (cnt[id] + 1) % (M + 1); } goto w0;
end Worker;
end Deep;
`

// deepProperty compiles deepCounters and the property f, whose
// proposition 0 is cnt[0] >= 0 (true in every state).
func deepProperty(t *testing.T, f *ltl.Formula) (*model.Model, Property) {
	t.Helper()
	return deepPropertyOf(t, "cnt[0] >= 0", f)
}

// deepPropertyOf compiles deepCounters and the property f, whose
// proposition 0 is the expression p (of a guard of the model).
func deepPropertyOf(t *testing.T, p string, f *ltl.Formula) (*model.Model, Property) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "deep.bir")
	if err := os.WriteFile(path, []byte(deepCounters), 0o644); err != nil {
		t.Fatal(err)
	}
	m := loadModel(t, path)
	x, err := ltlExprOf(m, p)
	if err != nil {
		t.Fatal(err)
	}
	ev, err := m.NewEvaluator([]ast.Expr{x})
	if err != nil {
		t.Fatal(err)
	}
	aut, err := ltl.Translate(ltl.Un(ltl.Not, f), nil)
	if err != nil {
		t.Fatal(err)
	}
	return m, Property{Automaton: aut, Labels: ev, Msg: f.String()}
}

// TestLTLMemoryCoversStacks: --max-memory bounds what the product search
// holds, its stacks included. On a model whose state table alone stays
// well under the limit, the search stops at the limit, and the memory it
// reports never passes it (the stacks once grew by doubling between two
// checks: 200M gave 245 MiB of accounted memory and 446 MB of RSS).
func TestLTLMemoryCoversStacks(t *testing.T) {
	m, prop := deepProperty(t, ltl.Un(ltl.Always, ltl.Prop(0)))
	safety := Run(m, Config{})
	if safety.Verdict != Pass {
		t.Fatalf("safety search: %s", safety.Reason)
	}
	full := RunLTL(m, prop, Config{})
	if full.Verdict != Pass || full.Stats.States != safety.Stats.States {
		t.Fatalf("product search: %s, %d states; want a pass with the %d states of the model", full.Reason, full.Stats.States, safety.Stats.States)
	}
	if full.Stats.MaxDepth < full.Stats.States/2 {
		t.Fatalf("the product search went %d deep for %d states; the test wants a deep search", full.Stats.MaxDepth, full.Stats.States)
	}
	// the stacks of the deepest path hold an edge per thread for each
	// state on it, and its frame, root and live entries: 22 MB, against
	// 3 MB for the whole state table. A search whose stacks doubled from
	// 8 to 16 MB between two checks of the limits held more than 14 MB;
	// one that doubled from 16 to 32 MB more than 27 MB.
	stacks := int64(full.Stats.MaxDepth) * (8*32 + 32 + 40 + 8)
	if stacks < 6*safety.Stats.Memory {
		t.Fatalf("the stacks (%d bytes) should dwarf the state table (%d bytes)", stacks, safety.Stats.Memory)
	}
	for i, extra := range []int64{11 << 20, 24 << 20, 28 << 20} {
		limit := safety.Stats.Memory + extra
		r := RunLTL(m, prop, Config{MaxMemory: limit})
		if r.Stats.Memory > limit {
			t.Errorf("--max-memory=%d: the search holds %d bytes", limit, r.Stats.Memory)
		}
		if r.Verdict != Pass && !strings.Contains(r.Reason, "memory limit") {
			t.Fatalf("--max-memory=%d: %s", limit, r.Reason)
		}
		if i == 0 && r.Verdict == Pass {
			// the state table and the headroom the check keeps fit in
			// the limit: only the stacks can have stopped the search
			t.Errorf("--max-memory=%d: the search passed, holding %d bytes; its stacks are not counted", limit, r.Stats.Memory)
		}
	}
}

// TestChunkStack: a chunk stack's bytes count its chunks, and growth the
// chunk its next push may take.
func TestChunkStack(t *testing.T) {
	var c chunkStack[pedge]
	const chunk = (1 << chunkShift) * 32
	if c.bytes() != 0 || c.growth() < chunk {
		t.Fatalf("empty: bytes %d, growth %d", c.bytes(), c.growth())
	}
	n := 3<<chunkShift + 5
	for i := range n {
		c.push(pedge{id: StateID(i)})
	}
	if c.len() != n || c.bytes() < 4*chunk || c.bytes() > 4*chunk+1024 {
		t.Fatalf("%d pushed: len %d, bytes %d; want %d chunks of %d", n, c.len(), c.bytes(), 4, chunk)
	}
	for i := range n {
		if c.at(i).id != StateID(i) {
			t.Fatalf("at(%d) = %d", i, c.at(i).id)
		}
	}
	c.truncate(5)
	if c.len() != 5 || c.bytes() > 2*chunk+1024 || c.top().id != 4 {
		t.Fatalf("truncated to 5: len %d, bytes %d, top %d", c.len(), c.bytes(), c.top().id)
	}
	if v := c.pop(); v.id != 4 || c.len() != 4 {
		t.Fatalf("pop = %d, len %d", v.id, c.len())
	}
}

// TestLassoStops: Ctrl-C, the time limit and the memory limit also stop
// the breadth-first searches that build an LTL counterexample once the
// product search has found an accepting cycle (their maps of visited
// states were counted nowhere): the result is inconclusive and says the
// property is violated.
func TestLassoStops(t *testing.T) {
	// <> !p is violated by every run: p holds everywhere
	m, prop := deepProperty(t, ltl.Un(ltl.Eventually, ltl.Un(ltl.Not, ltl.Prop(0))))
	if r := RunLTL(m, prop, Config{}); r.Verdict != Fail || r.CycleStart < 0 {
		t.Fatalf("without a limit: %s; want a lasso", r.Reason)
	}
	r := RunLTL(m, prop, Config{stopAtLasso: true})
	want := "the product has an accepting cycle (the property is violated), but building the counterexample was stopped: interrupted"
	if r.Verdict != Inconclusive || r.Reason != want || r.Violation != nil {
		t.Errorf("stopped at the lasso: %s, %q; want inconclusive, %q", r.Verdict, r.Reason, want)
	}
}

// TestLassoMemory: the memory limit bounds the breadth-first searches of
// the counterexample too. With weak fairness, the lasso of "[] <> r" (r
// holds in one state of 65,537) must move every thread, and its searches
// visit most of the product; under a limit that the product search alone
// stays within, they stop, where they used to build the whole lasso
// holding maps of every state they visited, counted nowhere.
func TestLassoMemory(t *testing.T) {
	// <> [] !r, violated by the fair executions that reach r again and again
	f := ltl.Un(ltl.Eventually, ltl.Un(ltl.Always, ltl.Un(ltl.Not, ltl.Prop(0))))
	m, prop := deepPropertyOf(t, "cnt[7] == 3 && cnt[6] == 3 && cnt[5] == 3", f)
	prop.Fair = true
	full := RunLTL(m, prop, Config{MaxMemory: 1 << 30})
	if full.Verdict != Fail || full.CycleStart < 0 {
		t.Fatalf("with room for the lasso: %s; want a lasso", full.Reason)
	}
	// the search found the accepting cycle holding full.Stats.Memory; the
	// limit leaves it the headroom of its checks (4 MiB, twice the table,
	// the growth of the stacks) and a few MiB more, less than the 61,552
	// states the lasso's searches visit take
	limit := full.Stats.Memory + 7<<20
	res := RunLTL(m, prop, Config{MaxMemory: limit})
	want := "the product has an accepting cycle (the property is violated), but building the counterexample was stopped: memory limit reached"
	if res.Verdict != Inconclusive || !strings.HasPrefix(res.Reason, want) {
		t.Errorf("--max-memory=%d: %s: %s; want inconclusive, %q", limit, res.Verdict, res.Reason, want)
	}
}
