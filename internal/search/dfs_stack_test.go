package search

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// TestIDStack checks the chunked DFS stack against a plain slice through
// random pushes and pops that cross chunk boundaries back and forth.
func TestIDStack(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	var st idStack
	var ref []StateID
	maxLen := 0
	for step := 0; step < 2_000_000; step++ {
		// drift up to more than 2 chunks, then down to empty, and again
		up := 0.8
		if (step/250_000)%2 == 1 {
			up = 0.2
		}
		maxLen = max(maxLen, len(ref))
		if len(ref) == 0 || rng.Float64() < up {
			id := StateID(rng.Uint64() >> 1)
			st.push(id)
			ref = append(ref, id)
		} else {
			got := st.pop()
			want := ref[len(ref)-1]
			ref = ref[:len(ref)-1]
			if got != want {
				t.Fatalf("step %d: pop = %d, want %d", step, got, want)
			}
		}
		if st.len() != len(ref) {
			t.Fatalf("step %d: len = %d, want %d", step, st.len(), len(ref))
		}
		if step%250_000 == 0 && !slices.Equal(st.all(), ref) {
			t.Fatalf("step %d: all() differs from the pushed ids", step)
		}
		if min := 8 * int64(len(ref)); st.bytes() < min {
			t.Fatalf("step %d: bytes = %d, less than the %d ids held", step, st.bytes(), min)
		}
	}
	if maxLen < 2*idStackChunk {
		t.Fatalf("the walk reached %d ids, not two chunks", maxLen)
	}
}
