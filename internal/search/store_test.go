package search

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"hash/maphash"
	"math/rand/v2"
	"testing"

	"birch/internal/testenv"
)

// storeConfig is a store geometry under test. The small ones make chunk
// boundaries, multi-unit chunks, id widening and hash recomputation on
// table growth happen within a few thousand states.
type storeConfig struct {
	name       string
	chunkShift uint
	firstChunk int
	idBits     uint
}

var storeConfigs = []storeConfig{
	{"default", stateChunkShift, stateFirstChunk, stateInitIDBits},
	// 1 KiB units: states up to 200 bytes cross chunk ends often, and
	// larger test states need multi-unit chunks.
	{"small-chunks", 10, 64, stateInitIDBits},
	// 12 id bits: the arena outgrows them at once and keeps widening them.
	{"widening", 10, 64, 12},
	// 52 id bits leave 12 hash bits, fewer than the table's index bits
	// past 4096 slots, so doubling must rehash from the arena.
	{"rehash-from-arena", 12, 256, 52},
}

func (c storeConfig) new(auxWords int) *StateStore {
	return newStateStore(auxWords, c.chunkShift, c.firstChunk, c.idBits)
}

// randomState returns a random byte string of length 0..maxLen. Half of
// the strings use only a few byte values, like varint-encoded states.
func randomState(r *rand.Rand, maxLen int) []byte {
	s := make([]byte, r.IntN(maxLen+1))
	alphabet := 256
	if r.IntN(2) == 0 {
		alphabet = 3
	}
	for i := range s {
		s[i] = byte(r.IntN(alphabet))
	}
	return s
}

// TestStateStoreMatchesMap checks Insert, Lookup, State, Aux and Len
// against a Go map over many random strings with many duplicates.
func TestStateStoreMatchesMap(t *testing.T) {
	for _, cfg := range storeConfigs {
		for auxWords := range 2 {
			t.Run(fmt.Sprintf("%s/aux%d", cfg.name, auxWords), func(t *testing.T) {
				// the small geometries reach their boundaries, id widths
				// and rehashes within a few thousand states: a quarter of
				// the operations by default, all with BIRCH_LONG=1; the
				// default one needs them all to fill its first 4 MiB unit
				ops := 200_000
				if cfg.name != "default" && !testenv.Long() {
					ops /= 4
				}
				testStoreMatchesMap(t, cfg.new(auxWords), auxWords, ops)
			})
		}
	}
}

func testStoreMatchesMap(t *testing.T, st *StateStore, auxWords, ops int) {
	r := rand.New(rand.NewPCG(1, uint64(auxWords)))
	want := make(map[string]StateID)
	wantAux := make(map[StateID]uint64)
	var seen [][]byte
	var lastID StateID
	for op := range ops {
		var s []byte
		switch {
		case len(seen) > 0 && r.IntN(3) == 0:
			// A duplicate, through a fresh copy so no slice is shared.
			s = bytes.Clone(seen[r.IntN(len(seen))])
		case op%5000 == 0:
			// Now and then a state larger than the small configs' units.
			s = randomState(r, 5000)
		default:
			s = randomState(r, 200)
		}
		aux := r.Uint64()
		id, isNew := st.Insert(s, aux)
		wid, ok := want[string(s)]
		if isNew == ok {
			t.Fatalf("op %d: Insert(%q) isNew = %v, but present before = %v", op, s, isNew, ok)
		}
		if ok {
			if id != wid {
				t.Fatalf("op %d: Insert(%q) of a stored state = %d, want %d", op, s, id, wid)
			}
		} else {
			if len(want) > 0 && id <= lastID {
				t.Fatalf("op %d: new id %d not above previous id %d", op, id, lastID)
			}
			lastID = id
			want[string(s)] = id
			wantAux[id] = aux
			if auxWords == 0 {
				wantAux[id] = 0
			}
			seen = append(seen, s)
		}
		if !bytes.Equal(st.State(id), s) {
			t.Fatalf("op %d: State(%d) = %q, want %q", op, id, st.State(id), s)
		}
		if st.Len() != len(want) {
			t.Fatalf("op %d: Len = %d, want %d", op, st.Len(), len(want))
		}
		// Change some aux words along the way; later checks see the change.
		if auxWords == 1 && op%7 == 0 {
			a := r.Uint64()
			st.SetAux(id, a)
			wantAux[id] = a
		}
	}
	if len(want) < ops/2 || len(want) > ops*9/10 {
		t.Fatalf("test generated %d distinct states of %d; want a mix of new and duplicate", len(want), ops)
	}
	for s, id := range want {
		got, ok := st.Lookup([]byte(s))
		if !ok || got != id {
			t.Fatalf("Lookup(%q) = %d, %v; want %d, true", s, got, ok, id)
		}
		if !bytes.Equal(st.State(id), []byte(s)) {
			t.Fatalf("State(%d) = %q, want %q", id, st.State(id), s)
		}
		if a := st.Aux(id); a != wantAux[id] {
			t.Fatalf("Aux(%d) = %#x, want %#x", id, a, wantAux[id])
		}
	}
	for range 10_000 {
		s := randomState(r, 200)
		if _, stored := want[string(s)]; stored {
			continue
		}
		if id, ok := st.Lookup(s); ok || id != NoState {
			t.Fatalf("Lookup(%q) of an absent state = %d, %v; want NoState, false", s, id, ok)
		}
	}
}

// TestStateStoreIDsStable checks that ids and the slices State returned
// stay valid while the table doubles, the first chunk grows and new chunks
// are added.
func TestStateStoreIDsStable(t *testing.T) {
	for _, cfg := range storeConfigs {
		t.Run(cfg.name, func(t *testing.T) {
			st := cfg.new(1)
			type early struct {
				id    StateID
				state []byte // as returned by State, aliasing the store
				want  []byte
			}
			var kept []early
			buf := make([]byte, 24)
			for i := range 300_000 {
				binary.LittleEndian.PutUint64(buf, uint64(i))
				id, _ := st.Insert(buf, uint64(i))
				if i%1000 == 0 {
					kept = append(kept, early{id, st.State(id), bytes.Clone(buf)})
				}
			}
			for _, e := range kept {
				if got, ok := st.Lookup(e.want); !ok || got != e.id {
					t.Fatalf("Lookup(%x) = %d, %v; want %d", e.want, got, ok, e.id)
				}
				if !bytes.Equal(st.State(e.id), e.want) || !bytes.Equal(e.state, e.want) {
					t.Fatalf("state %d changed: now %x, early slice %x, want %x", e.id, st.State(e.id), e.state, e.want)
				}
				if i := binary.LittleEndian.Uint64(e.want); st.Aux(e.id) != i {
					t.Fatalf("Aux(%d) = %d, want %d", e.id, st.Aux(e.id), i)
				}
			}
		})
	}
}

func TestStateStoreEdgeStates(t *testing.T) {
	for _, cfg := range storeConfigs {
		t.Run(cfg.name, func(t *testing.T) {
			st := cfg.new(1)
			huge := make([]byte, 5<<20) // bigger than every unit, also 4 MiB
			for i := range huge {
				huge[i] = byte(i * 7)
			}
			states := [][]byte{{}, {0}, {0, 0}, huge, {1}, huge[:1<<stateChunkShift], huge[:300], {0x80}}
			ids := make([]StateID, len(states))
			for i, s := range states {
				id, isNew := st.Insert(s, uint64(i))
				if !isNew {
					t.Fatalf("Insert(state %d) not new", i)
				}
				ids[i] = id
			}
			for i, s := range states {
				id, isNew := st.Insert(bytes.Clone(s), 99)
				if isNew || id != ids[i] {
					t.Fatalf("second Insert(state %d) = %d, %v; want %d, false", i, id, isNew, ids[i])
				}
				if !bytes.Equal(st.State(id), s) {
					t.Fatalf("State(state %d) has length %d, want %d", i, len(st.State(id)), len(s))
				}
				if st.Aux(id) != uint64(i) {
					t.Fatalf("Aux(state %d) = %d, want %d", i, st.Aux(id), i)
				}
			}
			if st.Len() != len(states) {
				t.Fatalf("Len = %d, want %d", st.Len(), len(states))
			}
		})
	}
}

func TestStateStoreNoAux(t *testing.T) {
	st := NewStateStore(0)
	id, _ := st.Insert([]byte("abc"), 42)
	if st.Aux(id) != 0 {
		t.Errorf("Aux in a store without aux words = %d, want 0", st.Aux(id))
	}
	defer func() {
		if recover() == nil {
			t.Errorf("SetAux in a store without aux words did not panic")
		}
	}()
	st.SetAux(id, 1)
}

func TestStateStoreReserve(t *testing.T) {
	st := NewStateStore(0)
	st.Reserve(100_000)
	size := len(st.table)
	if size*3/4 <= 100_000 {
		t.Fatalf("after Reserve(100000) the table has %d slots", size)
	}
	buf := make([]byte, 20)
	for i := range 100_000 {
		binary.LittleEndian.PutUint64(buf, uint64(i))
		st.Insert(buf, 0)
	}
	if len(st.table) != size {
		t.Errorf("table grew from %d to %d slots within the reserved count", size, len(st.table))
	}
}

// TestStateStoreAllocs checks that inserts allocate only for new chunks
// and table doublings, and that lookups and duplicate inserts allocate
// nothing.
func TestStateStoreAllocs(t *testing.T) {
	const n = 1_000_000
	st := NewStateStore(1)
	buf := make([]byte, 24)
	allocs := testing.AllocsPerRun(1, func() {
		for i := range n {
			binary.LittleEndian.PutUint64(buf, uint64(i))
			st.Insert(buf, uint64(i))
		}
	})
	if perInsert := allocs / n; perInsert > 0.0001 {
		t.Errorf("%v allocations in %d new inserts, %v per insert", allocs, n, perInsert)
	}
	allocs = testing.AllocsPerRun(1, func() {
		for i := range n {
			binary.LittleEndian.PutUint64(buf, uint64(i))
			id, _ := st.Insert(buf, 0)
			st.Lookup(buf)
			st.State(id)
			st.SetAux(id, st.Aux(id)+1)
		}
	})
	if allocs != 0 {
		t.Errorf("%v allocations in %d duplicate inserts and lookups, want 0", allocs, n)
	}
}

// TestStateStoreBytesPerState checks the memory budget: at 10^6 states of
// 20 bytes, under 45 bytes per state without aux words and under 53 with
// one (the 8 bytes of the parent link).
func TestStateStoreBytesPerState(t *testing.T) {
	if testing.Short() {
		t.Skip("inserts 2*10^6 states")
	}
	for auxWords, limit := range []float64{45, 53} {
		st := NewStateStore(auxWords)
		buf := make([]byte, 20)
		for i := range 1_000_000 {
			binary.LittleEndian.PutUint64(buf, uint64(i)*0x9e3779b97f4a7c15)
			st.Insert(buf, 0)
		}
		perState := float64(st.Bytes()) / float64(st.Len())
		t.Logf("aux words %d: %d states, %d bytes, %.1f bytes per state", auxWords, st.Len(), st.Bytes(), perState)
		if perState > limit {
			t.Errorf("aux words %d: %.1f bytes per state, want at most %v", auxWords, perState, limit)
		}
	}
}

// TestStateStoreHashSpread checks stateHash on structured inputs, where a
// weak hash fails first: no 64-bit collisions, and the top 16 bits (the
// home slot of a 65536-slot table) spread evenly.
func TestStateStoreHashSpread(t *testing.T) {
	seen := make(map[uint64][]byte)
	var buckets [1 << 16]int
	add := func(s []byte) {
		h := stateHash(s)
		if prev, dup := seen[h]; dup {
			if bytes.Equal(prev, s) {
				return // the generator repeats short inputs
			}
			t.Fatalf("inputs %x and %x share hash %#x", prev, s, h)
		}
		seen[h] = bytes.Clone(s)
		buckets[h>>48]++
	}
	// Every string of 0..2 bytes.
	add(nil)
	for i := range 1 << 16 {
		if i < 256 {
			add([]byte{byte(i)})
		}
		add([]byte{byte(i), byte(i >> 8)})
	}
	// Strings of 3..70 bytes, each byte a digit 0..3 like a varint-encoded
	// small number: the first 8 bytes count, the rest are fixed.
	buf := make([]byte, 70)
	for k := range buf {
		buf[k] = byte(k % 3)
	}
	for i := range 1 << 20 {
		n, q := 3+i%68, i/68
		for k := range min(n, 8) {
			buf[k] = byte(q>>(2*k)) & 3
		}
		add(buf[:n])
	}
	// Chi-square over k buckets has mean k-1 and standard deviation
	// sqrt(2(k-1)), about 362; 6 deviations is a failure.
	k := float64(len(buckets))
	expect := float64(len(seen)) / k
	chi := 0.0
	for _, c := range buckets {
		d := float64(c) - expect
		chi += d * d / expect
	}
	if chi > k-1+6*362 {
		t.Errorf("top 16 hash bits uneven: chi-square %.0f over %v buckets", chi, k)
	}
	t.Logf("%d inputs, chi-square %.0f over %v buckets", len(seen), chi, k)
}

func BenchmarkStateStoreInsert(b *testing.B) {
	st := NewStateStore(1)
	buf := make([]byte, 24)
	b.ReportAllocs()
	b.ResetTimer()
	for i := range b.N {
		binary.LittleEndian.PutUint64(buf, uint64(i))
		binary.LittleEndian.PutUint64(buf[12:], uint64(i)*3)
		st.Insert(buf, uint64(i))
	}
	b.ReportMetric(float64(st.Bytes())/float64(st.Len()), "B/state")
}

func BenchmarkStateStoreLookupHit(b *testing.B) {
	for _, n := range []int{10_000, 1_000_000} {
		b.Run(fmt.Sprintf("states=%d", n), func(b *testing.B) {
			st := NewStateStore(0)
			buf := make([]byte, 24)
			for i := range n {
				binary.LittleEndian.PutUint64(buf, uint64(i))
				binary.LittleEndian.PutUint64(buf[12:], uint64(i)*3)
				st.Insert(buf, 0)
			}
			b.ReportAllocs()
			b.ResetTimer()
			for i := range b.N {
				k := uint64(i % n)
				binary.LittleEndian.PutUint64(buf, k)
				binary.LittleEndian.PutUint64(buf[12:], k*3)
				if _, ok := st.Lookup(buf); !ok {
					b.Fatal("miss")
				}
			}
		})
	}
}

var hashSink uint64

func BenchmarkStateStoreHash(b *testing.B) {
	for _, n := range []int{8, 24, 60} {
		buf := make([]byte, n)
		b.Run(fmt.Sprintf("bytes=%d", n), func(b *testing.B) {
			b.SetBytes(int64(n))
			for i := range b.N {
				buf[0] = byte(i)
				hashSink += stateHash(buf)
			}
		})
	}
}

// BenchmarkStateStoreHashMaphash measures the alternative to stateHash.
func BenchmarkStateStoreHashMaphash(b *testing.B) {
	seed := maphash.MakeSeed()
	for _, n := range []int{8, 24, 60} {
		buf := make([]byte, n)
		b.Run(fmt.Sprintf("bytes=%d", n), func(b *testing.B) {
			b.SetBytes(int64(n))
			for i := range b.N {
				buf[0] = byte(i)
				hashSink += maphash.Bytes(seed, buf)
			}
		})
	}
}

// TestTouchSlots checks that touching the slots of stored and absent
// states stays within the table and the arena, across chunk boundaries and
// table doublings, and reads what the slots point to.
func TestTouchSlots(t *testing.T) {
	st := newStateStore(0, 8, 64, 32)
	if got := st.TouchSlots([]uint64{0, ^uint64(0), 12345}); got != 0 {
		t.Errorf("TouchSlots on an empty store = %d, want 0", got)
	}
	var hs []uint64
	for i := 0; i < 5000; i++ {
		s := []byte{byte(i), byte(i >> 8), 7, byte(i % 13)}
		st.Insert(s, 0)
		hs = append(hs, st.Hash(s), st.Hash(append(s, 1)))
	}
	// every entry starts with its length (4), so the stored states
	// contribute 4 each; an absent state's slot may hold another state
	if got := st.TouchSlots(hs[0:1]); got == 0 {
		t.Errorf("TouchSlots of a stored state read nothing")
	}
	st.TouchSlots(hs)
}
