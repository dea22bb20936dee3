package model

import (
	"math/rand"
	"path/filepath"
	"testing"

	"birch/internal/testenv"
)

// exampleFiles lists the example models and the test models.
func exampleFiles(t *testing.T) []string {
	files, _ := filepath.Glob("../../examples/*.bir")
	more, _ := filepath.Glob("../search/testdata/*.bir")
	more2, _ := filepath.Glob("testdata/*.bir")
	return append(append(files, more...), more2...)
}

// capStates is how many states a test that checks every state it
// explores takes of one model: n with BIRCH_LONG=1; in the default run an
// eighth of n, at least 500, so that every model is still checked, a small
// one whole and a large one on its first states (of the 49 example and test
// models, the dozen largest took most of the time), and the deep states are
// left to the long run.
func capStates(n int) int {
	if testenv.Long() {
		return n
	}
	return max(n/8, 500)
}

// dfsCheck explores depth-first (the first successor expanded next, so the
// kept-slot path of Next is taken) with checkEncoding on, and returns the
// states in order.
func dfsCheck(m *Model, max int) [][]byte {
	s0, fail := m.Initial(nil)
	if fail != nil {
		return nil
	}
	seen := map[string]bool{string(s0): true}
	stack := [][]byte{s0}
	var all [][]byte
	for len(stack) > 0 && len(seen) < max {
		s := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		all = append(all, s)
		var kids [][]byte
		m.Next(s, func(st *Step) {
			if st.Outcome == OK && !seen[string(st.State)] {
				seen[string(st.State)] = true
				kids = append(kids, append([]byte(nil), st.State...))
			}
		})
		for i := len(kids) - 1; i >= 0; i-- {
			stack = append(stack, kids[i])
		}
	}
	return all
}

// TestKeptFirstSuccessorDFS explores depth first, so that Next mostly runs
// on the first successor of its last call (whose slots it keeps), and
// compares every state's outcomes with those of a clone that decodes.
func TestKeptFirstSuccessorDFS(t *testing.T) {
	t.Parallel() // CPU-bound, shares nothing
	for _, f := range exampleFiles(t) {
		for _, ex := range []bool{false, true} {
			m := loadOpts(t, f, Options{ExposeInvisible: ex})
			states := dfsCheck(m, capStates(20000))
			// compare DFS-with-kept-slots outcomes against fresh decoding on a clone
			c := m.Clone()
			c.checkEncoding = true
			for _, s := range states[:min(len(states), capStates(3000))] {
				var a, b []string
				m.Next(s, func(st *Step) { a = append(a, string(st.State)+st.Msg) })
				c.first.ok = false
				c.Next(s, func(st *Step) { b = append(b, string(st.State)+st.Msg) })
				if len(a) != len(b) {
					t.Fatalf("%s: differ", f)
				}
				for i := range a {
					if a[i] != b[i] {
						t.Fatalf("%s: differ at %d", f, i)
					}
				}
			}
		}
	}
}

// TestDecodeMalformed checks that reachable states round-trip and that
// truncated, flipped, extended or random bytes never make decodeState panic.
func TestDecodeMalformed(t *testing.T) {
	t.Parallel() // CPU-bound, shares nothing
	rng := rand.New(rand.NewSource(1))
	for _, f := range exampleFiles(t) {
		m := loadOpts(t, f, Options{})
		states := dfsCheck(m, capStates(3000))
		for _, s := range states {
			d, ok := m.decodeState(nil, s)
			if !ok {
				t.Fatalf("%s: reachable state does not decode", f)
			}
			if string(m.appendState(nil, d)) != string(s) {
				t.Fatalf("%s: no round trip", f)
			}
			for k := 0; k < 20; k++ {
				b := append([]byte(nil), s...)
				switch rng.Intn(4) {
				case 0:
					b = b[:rng.Intn(len(b)+1)]
				case 1:
					if len(b) > 0 {
						b[rng.Intn(len(b))] ^= byte(1 << rng.Intn(8))
					}
				case 2:
					b = append(b, byte(rng.Intn(256)))
				case 3:
					for i := range b {
						b[i] = byte(rng.Intn(256))
					}
				}
				func() {
					defer func() {
						if r := recover(); r != nil {
							t.Fatalf("%s: decodeState(%x) panics: %v", f, b, r)
						}
					}()
					m.decodeState(nil, b)
					m.Decode(b)
				}()
			}
		}
	}
}

func randField(rng *rand.Rand, f field, prev int64) int64 {
	switch f.kind {
	case fWidth:
		if f.width == 0 {
			return f.base
		}
		var u uint64
		switch rng.Intn(3) {
		case 0:
			u = 0
		case 1:
			u = ^uint64(0)
		default:
			u = rng.Uint64()
		}
		if f.width < 64 {
			u &= 1<<f.width - 1
		}
		return int64(u) + f.base
	case fInt:
		switch rng.Intn(5) {
		case 0:
			return -1 << 63
		case 1:
			return 1<<63 - 1
		case 2:
			return int64(rng.Intn(200) - 100)
		}
		return int64(rng.Uint64())
	case fDerived:
		if prev != 0 {
			return 1
		}
		return 0
	}
	return 0
}

func randFields(rng *rand.Rand, s []int64, fs []field, all bool) {
	var prev int64
	for i, f := range fs {
		if all || rng.Intn(4) == 0 || f.kind == fDerived {
			s[i] = randField(rng, f, prev)
		}
		prev = s[i]
	}
}

// TestAppendSuccRandom mutates the fixed part and one thread of reachable
// states at random and checks appendSucc against appendState and decoding.
func TestAppendSuccRandom(t *testing.T) {
	rng := rand.New(rand.NewSource(2))
	for _, f := range exampleFiles(t) {
		for _, opts := range []Options{{}, {MaxThreads: 64, MaxReentrancy: 3, MaxCallDepth: 5}} {
			m := loadOpts(t, f, opts)
			states := dfsCheck(m, 500)
			for _, src := range states {
				srcSlots, segs, ok := m.decodeSegs(nil, nil, src)
				if !ok {
					t.Fatal("decode")
				}
				off := m.threadOffsets(srcSlots, nil)
				if len(off) == 0 {
					continue
				}
				for k := 0; k < 10; k++ {
					s := append([]int64(nil), srcSlots...)
					if rng.Intn(2) == 0 {
						randFields(rng, s[:m.poolOff], m.encoding.fixed, false)
					}
					tt := rng.Intn(len(off))
					p := off[tt]
					if rng.Intn(3) == 0 {
						s[p+thStatus] = int64(rng.Intn(2))
					}
					if rng.Intn(3) == 0 {
						s[p+thWaitCount] = int64(rng.Intn(m.opts.MaxReentrancy + 1))
					}
					fp := p + thHeader
					for d := s[p+thDepth]; d > 0; d-- {
						pi := m.allProcs[s[fp+frProc]]
						if rng.Intn(2) == 0 {
							s[fp+frLoc] = int64(rng.Intn(len(pi.locs)))
						}
						randFields(rng, s[fp+frHeader:fp+frHeader+pi.varSize], pi.enc.vars, false)
						fp += frHeader + pi.varSize
					}
					want := m.appendState(nil, s)
					var rec []int
					got := m.appendSucc([]byte{0xAA}, s, off, src, srcSlots, segs, tt, &rec)
					if string(got[1:]) != string(want) {
						t.Fatalf("%s %+v: appendSucc\n got %x\nwant %x", f, opts, got[1:], want)
					}
					d, dsegs, ok := m.decodeSegs(nil, nil, want)
					if !ok || !slicesEqual(d, s) {
						t.Fatalf("%s %+v: round trip %v\n%v\n%v", f, opts, ok, d, s)
					}
					if len(rec) != len(dsegs) {
						t.Fatalf("%s: rec %v segs %v", f, rec, dsegs)
					}
					for i := range rec {
						if rec[i] != dsegs[i] {
							t.Fatalf("%s: rec %v segs %v", f, rec, dsegs)
						}
					}
				}
			}
		}
	}
}
