package search

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// TestIDStack checks the chunked DFS stack against a plain slice through
// random pushes (a quarter of them markers) and pops that cross chunk
// boundaries back and forth, with peek and markersOnTop after each.
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
			if rng.IntN(4) == 0 {
				id = marker
			}
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
		k := 0
		for k < len(ref) && ref[len(ref)-1-k] == marker {
			k++
		}
		if got := st.markersOnTop(); got != k {
			t.Fatalf("step %d: markersOnTop = %d, want %d", step, got, k)
		}
		if len(ref) > 0 {
			for _, j := range []int{0, min(k, len(ref)-1), rng.IntN(len(ref))} {
				if got, want := st.peek(j), ref[len(ref)-1-j]; got != want {
					t.Fatalf("step %d: peek(%d) = %d, want %d", step, j, got, want)
				}
			}
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
