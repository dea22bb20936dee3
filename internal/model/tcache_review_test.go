package model

import (
	"fmt"
	"math/rand"
	"path/filepath"
	"slices"
	"testing"
)

// The tests of this file exercise the transition cache on the models
// testdata/tcache-*.bir, each written so that a thread's step is reached
// with the same segment and different values of the fixed part it reads or
// writes through one access path (see each model's header). With
// checkEncoding on, a hit whose outcomes differ from a real expansion
// panics (verifyHit), and so does a recorded run that changes a fixed slot
// it did not trace (checkFixes).

func tcReviewFiles(t *testing.T) []string { return testdataFiles(t, "testdata/tcache-*.bir") }

// testdataFiles lists the models matching pattern; there must be some.
func testdataFiles(t *testing.T, pattern string) []string {
	t.Helper()
	files, err := filepath.Glob(pattern)
	if err != nil || len(files) == 0 {
		t.Fatalf("no %s models (%v)", pattern, err)
	}
	return files
}

// compareOnOff checks that the models on (the cache on) and off (off)
// give the same outcomes for every state, in order and again in a random
// order (so that entries recorded in one state are hit in states far from
// it), and that on had cache hits.
func compareOnOff(t *testing.T, on, off *Model, states [][]byte) {
	t.Helper()
	check := func(s []byte) {
		a, doneA := outcomes(on, s)
		b, doneB := outcomes(off, s)
		if !slices.Equal(a, b) || doneA != doneB {
			t.Fatalf("state %q: with the cache %v (all done %v), without %v (%v)", s, a, doneA, b, doneB)
		}
	}
	for _, s := range states {
		check(s)
	}
	rng := rand.New(rand.NewSource(int64(len(states))))
	for _, i := range rng.Perm(len(states)) {
		check(states[i])
	}
	if on.tc.hits == 0 {
		t.Fatal("no cache hit")
	}
}

// cacheEntriesByThread counts, per thread index, the first-level entries of
// m's cache (the (thread, segment) pairs with a cached expansion).
func cacheEntriesByThread(m *Model) map[int]int {
	n := map[int]int{}
	for _, e := range m.tc.l1s {
		n[int(m.tc.data[e.key])|int(m.tc.data[e.key+1])<<8]++
	}
	return n
}

// TestTransitionCacheReviewModels explores every review model depth first
// with the cache on, then re-expands every explored state with the cache on
// and off (in order, and again in a random order, so that entries recorded
// in one state are hit in states far from it) and compares the outcomes.
// Every model must produce cache hits, or it tests nothing.
func TestTransitionCacheReviewModels(t *testing.T) {
	t.Parallel() // CPU-bound, shares nothing
	for _, f := range tcReviewFiles(t) {
		t.Run(filepath.Base(f), func(t *testing.T) {
			on := loadOpts(t, f, Options{TransitionCache: CacheOn})
			off := loadOpts(t, f, Options{TransitionCache: CacheOff})
			states := dfsCheck(on, capStates(20000))
			if len(states) == 0 {
				t.Fatal("no state")
			}
			compareOnOff(t, on, off, states)
			t.Logf("%d states, %d hits, entries by thread %v", len(states), on.tc.hits, cacheEntriesByThread(on))
		})
	}
}

// TestTransitionCacheReviewBFS explores the review models breadth first
// (another order of recording and hitting) with the cache on and off and
// compares the numbers of states, transitions, errors, deadlocks and
// limits.
func TestTransitionCacheReviewBFS(t *testing.T) {
	t.Parallel() // CPU-bound, shares nothing
	for _, f := range tcReviewFiles(t) {
		on := loadOpts(t, f, Options{TransitionCache: CacheOn})
		off := loadOpts(t, f, Options{TransitionCache: CacheOff})
		a, b := bfs(on, capStates(50000)), bfs(off, capStates(50000))
		if fmt.Sprint(a) != fmt.Sprint(b) {
			t.Errorf("%s: with the cache %+v, without %+v", f, a, b)
		}
	}
}

// TestTransitionCacheReviewClone checks that a clone starts with an empty
// cache of its own and gives the same outcomes.
func TestTransitionCacheReviewClone(t *testing.T) {
	t.Parallel() // CPU-bound, shares nothing
	for _, f := range tcReviewFiles(t) {
		m := loadOpts(t, f, Options{TransitionCache: CacheOn})
		states := dfsCheck(m, capStates(3000))
		c := m.Clone()
		c.checkEncoding = true
		if c.tc.used() != 0 || c.tc.hits != 0 {
			t.Fatalf("%s: a clone shares the cache", f)
		}
		for _, s := range states {
			a, _ := outcomes(m, s)
			b, _ := outcomes(c, s)
			if !slices.Equal(a, b) {
				t.Fatalf("%s: state %q: model %v, clone %v", f, s, a, b)
			}
		}
	}
}

// TestTransitionCacheReviewLoadStep evaluates the predicates of the review
// models on every successor through LoadStep (from the cached fixed slots
// on a hit) and on the decoded successor.
func TestTransitionCacheReviewLoadStep(t *testing.T) {
	evaluated, hits := 0, 0
	for _, f := range tcReviewFiles(t) {
		m := loadOpts(t, f, Options{TransitionCache: CacheOn})
		if len(m.Labels()) == 0 {
			continue
		}
		conds, byStep := labelEvaluator(t, m)
		_, byState := labelEvaluator(t, m)
		for _, s := range dfsCheck(m, 5000) {
			m.Next(s, func(st *Step) {
				if st.Outcome != OK {
					return
				}
				byState.Load(st.State)
				for i := range conds {
					byStep.LoadStep(st)
					a, errA := byStep.Eval(i)
					b, errB := byState.Eval(i)
					if a != b || (errA == nil) != (errB == nil) {
						t.Fatalf("%s: condition %d: LoadStep %v %v, decoded %v %v", f, i, a, errA, b, errB)
					}
					evaluated++
				}
			})
		}
		hits += m.tc.hits
	}
	if evaluated == 0 || hits == 0 {
		t.Fatalf("%d conditions evaluated, %d hits", evaluated, hits)
	}
}

// TestTransitionCacheReviewOptions explores the review models with bounds
// that the models reach (limits, never cached, next to cached steps) or
// that widen fields (64-bit wait sets), with the cache on, and compares the
// outcomes of every state explored with the cache off.
func TestTransitionCacheReviewOptions(t *testing.T) {
	t.Parallel() // CPU-bound, shares nothing
	for _, c := range []struct {
		file      string
		opts      Options
		wantLimit bool
	}{
		{"tcache-wide.bir", Options{MaxThreads: 64}, false},
		{"tcache-wait.bir", Options{MaxThreads: 64}, false},
		{"tcache-heaplock.bir", Options{MaxThreads: 64}, false},
		{"tcache-nonlocal.bir", Options{MaxThreads: 3}, true},
		{"tcache-locks.bir", Options{MaxReentrancy: 1}, true},
		{"tcache-calls.bir", Options{MaxCallDepth: 3}, true},
		{"tcache-invisible.bir", Options{MaxInvisible: 1}, true},
		{"tcache-invisible.bir", Options{MaxCallDepth: 1}, true},
		{"tcache-choose.bir", Options{MaxChoiceRange: 2}, true},
	} {
		f := filepath.Join("testdata", c.file)
		onOpts, offOpts := c.opts, c.opts
		onOpts.TransitionCache, offOpts.TransitionCache = CacheOn, CacheOff
		on, off := loadOpts(t, f, onOpts), loadOpts(t, f, offOpts)
		states := dfsCheck(on, capStates(20000))
		limits := 0
		for _, s := range states {
			a, doneA := outcomes(on, s)
			b, doneB := outcomes(off, s)
			if !slices.Equal(a, b) || doneA != doneB {
				t.Fatalf("%s %+v: state %q: with the cache %v (all done %v), without %v (%v)", f, c.opts, s, a, doneA, b, doneB)
			}
			off.Next(s, func(st *Step) {
				if st.Outcome == Limit {
					limits++
				}
			})
		}
		if on.tc.hits == 0 {
			t.Errorf("%s %+v: no cache hit", f, c.opts)
		}
		if (limits > 0) != c.wantLimit {
			t.Errorf("%s %+v: %d limit outcomes", f, c.opts, limits)
		}
		t.Logf("%s %+v: %d states, %d hits, %d limit outcomes", c.file, c.opts, len(states), on.tc.hits, limits)
	}
}

// TestTransitionCacheReviewSets checks, after exploring each review model,
// that the bit ranges of every traced slot set cover exactly the stored
// bits of its slots (split at 56 bits, adjacent fields merged), that every
// set is sorted, and that the whole-fixed-part mode is used exactly for
// tcache-whole.bir.
func TestTransitionCacheReviewSets(t *testing.T) {
	t.Parallel() // CPU-bound, shares nothing
	for _, f := range tcReviewFiles(t) {
		for _, opts := range []Options{{TransitionCache: CacheOn}, {TransitionCache: CacheOn, MaxThreads: 64}} {
			m := loadOpts(t, f, opts)
			if want := filepath.Base(f) == "tcache-whole.bir"; m.tc.whole != want {
				t.Fatalf("%s: whole mode %v, want %v", f, m.tc.whole, want)
			}
			dfsCheck(m, capStates(20000))
			if m.tc.whole {
				if len(m.tc.sets) != 0 {
					t.Fatalf("%s: slot sets in whole mode", f)
				}
				continue
			}
			e := &m.encoding
			for k, set := range m.tc.sets {
				if !slices.IsSorted(set.slots) {
					t.Fatalf("%s: set %d not sorted: %v", f, k, set.slots)
				}
				want := map[uint32]bool{}
				for _, j := range set.slots {
					if int(j) >= len(e.fixed) {
						t.Fatalf("%s: set %d has slot %d beyond the fixed fields (the thread count?)", f, k, j)
					}
					if fd := e.fixed[j]; fd.kind == fWidth {
						for b := uint32(0); b < uint32(fd.width); b++ {
							want[e.fixedOff[j]+b] = true
						}
					}
				}
				got := map[uint32]bool{}
				for _, r := range set.ranges {
					if r.width == 0 || r.width > 56 {
						t.Fatalf("%s: set %d: range of %d bits", f, k, r.width)
					}
					for b := uint32(0); b < uint32(r.width); b++ {
						if got[r.off+b] {
							t.Fatalf("%s: set %d: bit %d in two ranges", f, k, r.off+b)
						}
						got[r.off+b] = true
					}
				}
				if len(got) != len(want) {
					t.Fatalf("%s: set %d: ranges cover %d bits, the slots have %d", f, k, len(got), len(want))
				}
				for b := range want {
					if !got[b] {
						t.Fatalf("%s: set %d: bit %d of a slot not in a range", f, k, b)
					}
				}
			}
		}
	}
}

// TestTransitionCacheReviewNonlocal checks that no step that reads another
// thread (Observer's at o0 once a worker is started: threadTerminated) or
// starts one (Main's) is cached in tcache-nonlocal.bir, while the workers'
// steps are. (Observer's step at o0 before the workers are started reads
// only wt1 and wt2, both null, and may be cached.)
func TestTransitionCacheReviewNonlocal(t *testing.T) {
	m := loadOpts(t, filepath.Join("testdata", "tcache-nonlocal.bir"), Options{TransitionCache: CacheOn})
	dfsCheck(m, 100000)
	by := cacheEntriesByThread(m)
	// threads: Main (0) and Observer (1) are the main threads; the workers
	// are 2 and 3
	if by[0] != 0 {
		t.Errorf("Main's start steps were cached (%d entries)", by[0])
	}
	if by[2] == 0 || by[3] == 0 {
		t.Errorf("the workers' steps were not cached: %v", by)
	}
	e := &m.encoding
	tc := &m.tc
	atO0 := 0
	for _, ent := range tc.ents {
		if ent.l1p == 0 {
			continue
		}
		l1 := &tc.l1s[ent.l1p-1]
		key := tc.data[l1.key : l1.key+l1.klen]
		if th := int(key[0]) | int(key[1])<<8; th != 1 {
			continue
		}
		pi := m.procs[getBits(key[2:], 0, uint(e.threadBits))]
		if pi.proc.Name() != "Observer" {
			t.Fatalf("thread 1 is %s", pi.proc.Name())
		}
		loc := getBits(key[2:], uint(e.threadBits)+2, uint(pi.enc.locBits))
		if want := pi.proc.Location("o0"); want == nil || int(loc) != want.Index {
			continue
		}
		atO0++
		// the values of the set's slots: packed in ent.v, or bytes
		vals := tc.data[ent.vkey : ent.vkey+ent.vlen]
		zero := ent.v == 0
		for _, b := range vals {
			zero = zero && b == 0
		}
		if !zero {
			t.Errorf("Observer's step at o0 was cached with a worker started (set %v, values %#x %v)", tc.sets[ent.set].slots, ent.v, vals)
		}
	}
	if atO0 == 0 {
		t.Errorf("Observer's step at o0 before any start was not cached")
	}
}
