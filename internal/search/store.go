package search

import (
	"encoding/binary"
	"math/bits"
	"unsafe"
)

// StateID identifies a state kept by a StateStore. It is the offset of the
// state's entry in the store's arena, so ids are neither dense nor in steps of
// one: do not use them as slice indices. An id is stable for the lifetime of
// its store, grows with insertion order and is less than Bytes(), so below
// 2^40 while the store holds less than 1 TiB.
type StateID uint64

// NoState is an id no stored state ever has (BFS uses it as the parent of
// the initial states).
const NoState StateID = ^StateID(0)

// Store geometry. The arena is addressed in units of 1<<stateChunkShift
// bytes; a chunk is one unit (or several, for a state that does not fit in
// one), so that State finds a chunk by a shift and an index.
const (
	stateChunkShift   = 22       // 4 MiB units
	stateFirstChunk   = 64 << 10 // the first chunk starts this small and doubles to a unit
	stateTableMinLog  = 10       // smallest table: 1024 slots, 8 KiB
	stateInitIDBits   = 32       // slot bits holding id+1 until the arena passes 4 GiB
	stateMaxLoadNum   = 3        // grow the table when count reaches 3/4 of its slots
	stateMaxLoadDenom = 4
)

// StateStore is a set of byte strings (encoded states) built for 10^7 and
// more entries: each state costs its length, a length prefix, its aux words
// and 10.7 to 21.3 bytes of table, and inserting or looking up a state
// allocates nothing except when the arena needs a new chunk or the table
// doubles.
//
// The arena is a list of chunks. An entry is the uvarint length of the
// state, then the aux words (8 bytes each, little-endian), then the bytes;
// entries never move once written except that the first, small chunk is
// copied as it grows (see makeRoom), which keeps ids valid because ids are
// offsets.
//
// The table is open addressing with linear probing over uint64 slots. A slot
// is 0 when empty, otherwise
//
//	top (64-idBits) bits of the state's hash | id+1 in the low idBits bits
//
// and a state's home slot is given by the top tableLog bits of its hash.
// Because the stored hash bits are the top bits, they contain the home slot
// whenever tableLog <= 64-idBits: doubling the table then reads slot words
// only, never the arena, and walks old and new tables in order (old slot i
// moves to about 2i). The bits below the home-slot bits filter probes: a
// slot's state bytes are compared only when all stored hash bits agree.
// idBits starts at 32 and widens (clearing hash bits in every slot, see
// widenIDs) only when the arena passes 4 GiB, so up to about 10^8 states
// there remain at least 32-tableLog filtering bits.
//
// A StateStore is not safe for concurrent use.
type StateStore struct {
	table     []uint64
	tableLog  uint   // len(table) == 1<<tableLog
	tableMask uint64 // len(table)-1
	growAt    int    // count at which the table doubles
	idBits    uint
	idMask    uint64 // 1<<idBits - 1
	count     int

	// chunks[k] holds the arena bytes from offset k<<chunkShift on. A chunk
	// of several units appears as several consecutive entries, each a
	// subslice running to the chunk's end, so an entry in any unit is
	// reached through chunks[id>>chunkShift].
	chunks     [][]byte
	chunkShift uint
	chunkMask  uint64
	firstChunk int
	tail       uint64 // offset of the next free arena byte
	end        uint64 // end offset of the chunk tail is in
	arenaBytes int64  // sum of the chunks' sizes
	auxBytes   int    // 8 * auxWords

	tableMapped bool     // the table is mapped memory (allocWords)
	mapped      [][]byte // arena chunks in mapped memory
}

// NewStateStore returns an empty store. auxWords is the number of uint64
// words kept with each state, 0 or 1 (BFS keeps a parent link there); it
// panics on another value.
func NewStateStore(auxWords int) *StateStore {
	return newStateStore(auxWords, stateChunkShift, stateFirstChunk, stateInitIDBits)
}

// newStateStore lets tests shrink chunks and id bits so that chunk
// boundaries, widening and hash recomputation happen on small inputs.
func newStateStore(auxWords int, chunkShift uint, firstChunk int, idBits uint) *StateStore {
	if auxWords != 0 && auxWords != 1 {
		panic("search: NewStateStore: auxWords must be 0 or 1")
	}
	st := &StateStore{
		chunkShift: chunkShift,
		chunkMask:  1<<chunkShift - 1,
		firstChunk: min(firstChunk, 1<<chunkShift),
		idBits:     idBits,
		idMask:     1<<idBits - 1,
		auxBytes:   8 * auxWords,
	}
	st.resizeTable(stateTableMinLog)
	return st
}

// Len returns the number of states stored.
func (st *StateStore) Len() int { return st.count }

// Bytes returns the memory the store holds: arena chunks (including the
// unused end of each), the table and the chunk index.
func (st *StateStore) Bytes() int64 {
	return st.arenaBytes + 8*int64(len(st.table)) + 24*int64(cap(st.chunks))
}

// Reserve sizes the table for n states so that inserting up to n states
// does not double it. It never shrinks the table; the arena is not touched.
func (st *StateStore) Reserve(n int) {
	log := st.tableLog
	for n >= (1<<log)/stateMaxLoadDenom*stateMaxLoadNum {
		log++
	}
	if log > st.tableLog {
		st.resizeTable(log)
	}
}

// Insert adds a copy of s unless an equal byte string is stored already. It
// returns the id of the stored copy and whether it was added. aux is stored
// only with a new state.
func (st *StateStore) Insert(s []byte, aux uint64) (id StateID, isNew bool) {
	return st.InsertHash(s, stateHash(s), aux)
}

// Hash returns the hash Insert uses for s.
func (st *StateStore) Hash(s []byte) uint64 { return stateHash(s) }

// TouchSlots reads the home slot of each hash in hs and then the entry each
// slot points to when its hash bits match, in two tight loops so that the processor has the cache
// misses of the whole batch in flight at once (the entry's address depends
// on the slot). It returns a value that depends on what it read.
func (st *StateStore) TouchSlots(hs []uint64) uint64 {
	t, sh := st.table, 64-st.tableLog
	var sink uint64
	for _, h := range hs {
		sink += t[h>>sh]
	}
	for _, h := range hs {
		// the entry of the first slot along the probe sequence whose hash
		// bits match (a state displaced from its home slot by linear
		// probing is found there); a slot holding another state would
		// cost a miss for nothing
		if id := st.Match(h); id != NoState {
			c := st.entry(id)
			sink += uint64(c[0])
			if len(c) > 24 {
				// an entry of a small state may straddle two cache
				// lines: touch the second too
				sink += uint64(c[24])
			}
		}
	}
	return sink
}

// Prefetch starts fetching the home table slot of hash h (see Hash) into
// the cache, without waiting for it.
func (st *StateStore) Prefetch(h uint64) {
	prefetch(&st.table[h>>(64-st.tableLog)])
}

// PrefetchState starts fetching the start of state id's entry into the
// cache, without waiting for it.
func (st *StateStore) PrefetchState(id StateID) {
	c := st.chunks[uint64(id)>>st.chunkShift]
	prefetch((*uint64)(unsafe.Pointer(&c[uint64(id)&st.chunkMask])))
}

// Match returns the id of the first state along the probe sequence of hash
// h whose stored hash bits equal h's, or NoState when the sequence reaches
// an empty slot first: then no stored state has hash h, and a state of hash
// h is new. A state with a match is very likely stored (all stored hash bits
// agree), but only InsertHash or Lookup, which compare the bytes, can tell.
// Match reads the table only, never the arena.
func (st *StateStore) Match(h uint64) StateID {
	t, idBits, mask := st.table, st.idBits, st.tableMask
	for i := h >> (64 - st.tableLog); ; i = (i + 1) & mask {
		w := t[i]
		if w == 0 {
			return NoState
		}
		if (w^h)>>idBits == 0 {
			return StateID(w&st.idMask - 1)
		}
	}
}

// PrefetchEntry starts fetching state id's entry into the cache, both cache
// lines of an entry of a small state that straddles two, without waiting.
func (st *StateStore) PrefetchEntry(id StateID) {
	c := st.chunks[uint64(id)>>st.chunkShift][uint64(id)&st.chunkMask:]
	prefetch((*uint64)(unsafe.Pointer(&c[0])))
	if len(c) > 24 {
		prefetch((*uint64)(unsafe.Pointer(&c[24])))
	}
}

// InsertHash is Insert for a state whose hash (Hash) is known.
func (st *StateStore) InsertHash(s []byte, h uint64, aux uint64) (id StateID, isNew bool) {
	t, idBits := st.table, st.idBits
	mask := uint64(len(t) - 1)
	i := h >> (64 - st.tableLog)
	for {
		i &= mask
		w := t[i]
		if w == 0 {
			break
		}
		if (w^h)>>idBits == 0 {
			id := StateID(w&st.idMask - 1)
			if st.equalAt(id, s) {
				return id, false
			}
		}
		i++
	}
	id = st.appendEntry(s, aux)
	if st.count >= st.growAt {
		st.resizeTable(st.tableLog + 1)
		i = st.freeSlot(h >> (64 - st.tableLog))
	}
	// appendEntry may have widened idBits; the slot index is unaffected.
	st.table[i] = h>>st.idBits<<st.idBits | uint64(id+1)
	st.count++
	return id, true
}

// Lookup returns the id of the stored state equal to s, if there is one.
func (st *StateStore) Lookup(s []byte) (StateID, bool) {
	h := stateHash(s)
	t, idBits := st.table, st.idBits
	mask := uint64(len(t) - 1)
	i := h >> (64 - st.tableLog)
	for {
		i &= mask
		w := t[i]
		if w == 0 {
			return NoState, false
		}
		if (w^h)>>idBits == 0 {
			id := StateID(w&st.idMask - 1)
			if st.equalAt(id, s) {
				return id, true
			}
		}
		i++
	}
}

// State returns the bytes of the state id. The slice aliases the store's
// memory and stays valid and unchanged for the store's lifetime; the caller
// must not modify it. id must have come from this store.
func (st *StateStore) State(id StateID) []byte {
	p := st.entry(id)
	n, k := uint64(p[0]), 1
	if n >= 0x80 {
		n, k = binary.Uvarint(p)
	}
	p = p[k+st.auxBytes:]
	return p[:n:n]
}

// Aux returns the aux word of state id; it is 0 in a store without aux
// words.
func (st *StateStore) Aux(id StateID) uint64 {
	if st.auxBytes == 0 {
		return 0
	}
	p := st.entry(id)
	return binary.LittleEndian.Uint64(p[uvarintSize(p):])
}

// SetAux replaces the aux word of state id. It panics in a store without
// aux words.
func (st *StateStore) SetAux(id StateID, aux uint64) {
	if st.auxBytes == 0 {
		panic("search: StateStore.SetAux on a store without aux words")
	}
	p := st.entry(id)
	binary.LittleEndian.PutUint64(p[uvarintSize(p):], aux)
}

// entry returns the arena from the start of id's entry to its chunk's end.
func (st *StateStore) entry(id StateID) []byte {
	return st.chunks[uint64(id)>>st.chunkShift][uint64(id)&st.chunkMask:]
}

// uvarintSize returns the length of the uvarint at the start of p.
func uvarintSize(p []byte) int {
	k := 1
	for p[k-1] >= 0x80 {
		k++
	}
	return k
}

// equalAt reports whether the state stored at id equals s.
func (st *StateStore) equalAt(id StateID, s []byte) bool {
	p := st.entry(id)
	n, k := uint64(p[0]), 1
	if n >= 0x80 {
		n, k = binary.Uvarint(p)
	}
	if n != uint64(len(s)) {
		return false
	}
	p = p[k+st.auxBytes:]
	return string(p[:n]) == string(s)
}

// freeSlot returns the first empty slot at or after home. The caller knows
// the state is absent, so nothing is compared.
func (st *StateStore) freeSlot(home uint64) uint64 {
	i := home
	for st.table[i&st.tableMask] != 0 {
		i++
	}
	return i & st.tableMask
}

// appendEntry writes s and aux at the end of the arena and returns the
// entry's id.
func (st *StateStore) appendEntry(s []byte, aux uint64) StateID {
	need := uint64(uvarintLen(uint64(len(s))) + st.auxBytes + len(s))
	if st.tail+need > st.end {
		st.makeRoom(need)
	}
	id := StateID(st.tail)
	p := st.entry(id)
	k := binary.PutUvarint(p, uint64(len(s)))
	if st.auxBytes != 0 {
		binary.LittleEndian.PutUint64(p[k:], aux)
		k += 8
	}
	copy(p[k:], s)
	st.tail += need
	return id
}

func uvarintLen(x uint64) int {
	return (bits.Len64(x|1) + 6) / 7
}

// makeRoom makes the arena able to hold need more bytes at tail, in one
// chunk.
func (st *StateStore) makeRoom(need uint64) {
	unit := uint64(1) << st.chunkShift
	if len(st.chunks) <= 1 && st.tail+need <= unit {
		// The first chunk starts small and doubles up to one unit, so that
		// small models stay small. Copying it keeps ids valid (they are
		// offsets); slices that State returned keep aliasing the old copy,
		// whose state bytes are the same and never change.
		size := uint64(st.firstChunk)
		if len(st.chunks) == 1 {
			size = uint64(len(st.chunks[0]))
		}
		for size < st.tail+need {
			size *= 2
		}
		size = min(size, unit)
		st.reserveIDs(size)
		c := make([]byte, size)
		if len(st.chunks) == 1 {
			copy(c, st.chunks[0][:st.tail])
			st.arenaBytes -= int64(len(st.chunks[0]))
			st.chunks[0] = c
		} else {
			st.chunks = append(st.chunks, c)
		}
		st.arenaBytes += int64(size)
		st.end = size
		return
	}
	// A new chunk starts at the next unit boundary; whatever is left at the
	// end of the current chunk stays unused (at most one entry's size).
	start := uint64(len(st.chunks)) << st.chunkShift
	units := max(1, (need+unit-1)>>st.chunkShift)
	end := start + units<<st.chunkShift
	st.reserveIDs(end)
	c, mapped := allocBytes(int(units << st.chunkShift))
	if mapped {
		st.mapped = append(st.mapped, c)
	}
	for j := range units {
		st.chunks = append(st.chunks, c[j<<st.chunkShift:])
	}
	st.arenaBytes += int64(len(c))
	st.tail, st.end = start, end
}

// reserveIDs makes sure every arena offset below end, plus one, fits in
// the id bits of a slot.
func (st *StateStore) reserveIDs(end uint64) {
	if end <= st.idMask {
		return
	}
	st.widenIDs(uint(bits.Len64(end)))
}

// widenIDs moves the border between hash bits and id bits in every slot up
// to idBits. The top hash bits stay where they are, and every stored id+1
// is below the old border, so widening only clears the hash bits that
// become id bits.
func (st *StateStore) widenIDs(idBits uint) {
	if idBits >= 64-stateTableMinLog {
		panic("search: StateStore arena too large")
	}
	clear := (uint64(1)<<idBits - 1) &^ st.idMask
	for i, w := range st.table {
		st.table[i] = w &^ clear
	}
	st.idBits = idBits
	st.idMask = 1<<idBits - 1
}

// resizeTable rebuilds the table with 1<<log slots.
func (st *StateStore) resizeTable(log uint) {
	old := st.table
	t, mapped := allocWords(1 << log)
	mask := uint64(len(t) - 1)
	shift := 64 - log
	// The home slot can be read off the slot word while the stored hash
	// bits cover it; otherwise (past ~10^8 states) the hash is recomputed
	// from the arena.
	fromSlot := log <= 64-st.idBits
	for _, w := range old {
		if w == 0 {
			continue
		}
		var i uint64
		if fromSlot {
			i = w >> shift
		} else {
			i = stateHash(st.State(StateID(w&st.idMask-1))) >> shift
		}
		for t[i] != 0 {
			i = (i + 1) & mask
		}
		t[i] = w
	}
	if st.tableMapped {
		freeWords(old)
	}
	st.table, st.tableMapped = t, mapped
	st.tableLog = log
	st.tableMask = mask
	st.growAt = len(t) / stateMaxLoadDenom * stateMaxLoadNum
}

// Hash constants: odd 64-bit numbers with well-spread bits, from published
// sources (2^64/φ, SplitMix64's multipliers, an LCG multiplier of Steele
// and Vigna).
const (
	stateHashK0 = 0x9e3779b97f4a7c15
	stateHashK1 = 0xbf58476d1ce4e5b9
	stateHashK2 = 0x94d049bb133111eb
	stateHashK3 = 0xd1342543de82ef95
)

// foldMul multiplies a and b to 128 bits and folds the halves together: one
// multiply mixes every input bit into the upper half of the result.
func foldMul(a, b uint64) uint64 {
	hi, lo := bits.Mul64(a, b)
	return hi ^ lo
}

// stateHash is the store's 64-bit hash of a byte string. Each multiply
// consumes 16 bytes, and two independent multiplies per 32 bytes keep the
// dependency chain short; the last bytes are read as possibly overlapping
// words, and the length is mixed in, which makes overlapping reads
// unambiguous. A state of up to 32 bytes costs two multiplies in sequence.
// It is deterministic (no seed), so a search behaves the same on every run.
// It is not meant to resist inputs built to collide.
//
// It is preferred to hash/maphash after measuring both (see
// BenchmarkStateStoreHash*): faster up to 32 bytes, as fast to 40, within
// a nanosecond at 60 bytes, and free of a per-run random seed.
func stateHash(p []byte) uint64 {
	n := len(p)
	h := uint64(n) ^ stateHashK0
	if n > 16 {
		var a, b, c, d uint64
		if n > 32 {
			q := p
			for len(q) > 32 {
				h = foldMul(le64(q)^stateHashK1, le64(q[8:])^h) ^
					foldMul(le64(q[16:])^stateHashK2, le64(q[24:])^h)
				q = q[32:]
			}
			a, b, c, d = le64(p[n-32:]), le64(p[n-24:]), le64(p[n-16:]), le64(p[n-8:])
		} else {
			a, b, c, d = le64(p), le64(p[8:]), le64(p[n-16:]), le64(p[n-8:])
		}
		h = foldMul(a^stateHashK1, b^h) ^ foldMul(c^stateHashK2, d^h)
		return foldMul(h^stateHashK3, uint64(n)^stateHashK0)
	}
	var a, b uint64
	switch {
	case n > 8:
		a, b = le64(p), le64(p[n-8:])
	case n >= 4:
		a = uint64(binary.LittleEndian.Uint32(p))
		b = uint64(binary.LittleEndian.Uint32(p[n-4:]))
	case n > 0:
		a = uint64(p[0])<<16 | uint64(p[n>>1])<<8 | uint64(p[n-1])
	}
	h = foldMul(a^stateHashK1, b^h^stateHashK2)
	return foldMul(h^stateHashK3, uint64(n)^stateHashK0)
}

func le64(p []byte) uint64 { return binary.LittleEndian.Uint64(p) }

// TableBytes returns the size of the hash table; doubling it allocates
// twice as much while the old one is still held.
func (st *StateStore) TableBytes() int64 { return 8 * int64(len(st.table)) }

// Release returns the store's memory (some of which is mapped outside the
// Go heap, see allocBytes). The store must not be used afterwards.
func (st *StateStore) Release() {
	if st.tableMapped {
		freeWords(st.table)
	}
	for _, m := range st.mapped {
		freeBytes(m)
	}
	st.table, st.chunks, st.mapped = nil, nil, nil
	st.count = 0
}
