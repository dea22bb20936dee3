package model

import (
	"fmt"
	"math/rand"
	"path/filepath"
	"slices"
	"testing"
	"time"
)

// outcomes lists everything Next delivers for state, in order.
func outcomes(m *Model, state []byte) ([]string, bool) {
	var out []string
	n, done := m.Next(state, func(st *Step) {
		out = append(out, fmt.Sprintf("%d %d %d %v %v %q %d %q %v", st.Outcome, st.Ordinal, st.Thread,
			st.Groups, st.Intern, st.State, st.Kind, st.Msg, st.Pos))
	})
	if n != len(out) {
		panic("Next's count differs from its outcomes")
	}
	return out, done
}

// TestTransitionCache explores every example and test model with the
// transition cache always on and checkEncoding set, so that every hit is
// checked against expanding the thread (verifyHit), and compares the
// outcomes of every state explored, in order, with those of the model
// without the cache.
func TestTransitionCache(t *testing.T) {
	t.Parallel() // CPU-bound, shares nothing
	hits := 0
	for _, f := range exampleFiles(t) {
		on := loadOpts(t, f, Options{TransitionCache: CacheOn})
		off := loadOpts(t, f, Options{TransitionCache: CacheOff})
		states := dfsCheck(on, capStates(20000))
		for _, s := range states[:min(len(states), capStates(5000))] {
			a, doneA := outcomes(on, s)
			b, doneB := outcomes(off, s)
			if !slices.Equal(a, b) || doneA != doneB {
				t.Fatalf("%s: state %q: with the cache %v (all done %v), without %v (%v)", f, s, a, doneA, b, doneB)
			}
		}
		if off.tc.hits != 0 || off.tc.used() != 0 {
			t.Fatalf("%s: the cache was used with CacheOff", f)
		}
		hits += on.tc.hits
	}
	if hits == 0 {
		t.Fatal("no cache hit")
	}
}

// TestTransitionCacheNonlocal checks the steps that must not be cached: a
// thread whose step reads another thread (threadTerminated), and one whose
// step starts threads. dynamic-threads.bir has both, in Main; its workers'
// steps are cached.
func TestTransitionCacheNonlocal(t *testing.T) {
	m := loadOpts(t, filepath.Join("..", "..", "examples", "dynamic-threads.bir"), Options{TransitionCache: CacheOn})
	dfsCheck(m, 100000)
	main, workers := 0, 0
	for _, e := range m.tc.l1s {
		if th := int(m.tc.data[e.key]) | int(m.tc.data[e.key+1])<<8; th == 0 {
			main++
		} else {
			workers++
		}
	}
	// Main's steps at m0 and m1 start threads and the one at m2 reads
	// threadTerminated; its step at m3 is local
	if workers == 0 {
		t.Fatal("no worker step cached")
	}
	for _, e := range m.tc.l1s {
		if th := int(m.tc.data[e.key]) | int(m.tc.data[e.key+1])<<8; th != 0 {
			continue
		}
		seg := m.tc.data[e.key+2 : e.key+e.klen]
		pi := m.procs[getBits(seg, 0, uint(m.encoding.threadBits))]
		loc := getBits(seg, uint(m.encoding.threadBits)+2, uint(pi.enc.locBits))
		if want := pi.proc.Location("m3"); want == nil || int(loc) != want.Index {
			t.Errorf("Main's step at location %d was cached", loc)
		}
	}
	if main != 1 {
		t.Errorf("Main has %d cache entries, want 1 (at m3)", main)
	}
}

// TestTransitionCacheModes checks the parsing of the modes and that the
// cache is off with the invisible runs exposed.
func TestTransitionCacheModes(t *testing.T) {
	for _, c := range []struct {
		s    string
		mode CacheMode
		ok   bool
	}{{"auto", CacheAuto, true}, {"on", CacheOn, true}, {"off", CacheOff, true}, {"yes", CacheAuto, false}} {
		if mode, ok := ParseCacheMode(c.s); mode != c.mode || ok != c.ok {
			t.Errorf("ParseCacheMode(%q) = %v, %v", c.s, mode, ok)
		}
	}
	// exposed invisible runs: never cached
	m := loadOpts(t, filepath.Join("..", "..", "examples", "dynamic-threads.bir"), Options{TransitionCache: CacheOn, ExposeInvisible: true})
	dfsCheck(m, 1000)
	if m.tc.allowed || m.tc.used() != 0 {
		t.Error("the cache was used with the invisible runs exposed")
	}
}

// TestTransitionCachePhases drives the phases of CacheAuto with a fake
// clock: the cache is on while it warms and measures, off while the other
// way is measured, and then on exactly when it measured faster. One slow
// measuring phase does not decide.
func TestTransitionCachePhases(t *testing.T) {
	for _, faster := range []bool{true, false} {
		for _, slow := range []int{-1, 1, 2, 3, 4} {
			var tc tcache
			tc.init(CacheAuto, true, false)
			var clock time.Duration
			tc.clock = func() time.Duration { return clock }
			var pattern []bool
			for i := range 2 * tcCycle {
				pattern = append(pattern, tc.on)
				// a phase costs 1 s with the cache and 2 s without when
				// it is faster, and the other way round when it is not;
				// phase number slow of the first cycle takes 10 s
				d := time.Second
				if tc.on != faster {
					d = 2 * time.Second
				}
				if i == slow {
					d = 10 * time.Second
				}
				clock += d
				tc.tick(tc.phaseLen - 1)
			}
			// one way costs half the other, so the first cycle lasts
			// 2*tcCycle phases (see TestTransitionCacheBackoff)
			for i, on := range pattern {
				want := faster
				switch i {
				case 0, 1, 4:
					want = true
				case 2, 3:
					want = false
				}
				if on != want {
					t.Fatalf("faster %v, slow phase %d: phase %d: on %v, want %v (pattern %v)", faster, slow, i, on, want, pattern)
				}
			}
		}
	}
	// forced: always on
	var tc tcache
	tc.init(CacheOn, true, false)
	for range 3 * tcCycle {
		tc.tick(tc.phaseLen)
		if !tc.on {
			t.Fatal("CacheOn turned the cache off")
		}
	}
}

// TestTransitionCacheBackoff checks the length of CacheAuto's cycles with
// a fake clock: a cycle whose measuring phases find one way at least a
// quarter cheaper than the other lasts twice as long as the cycle before
// (up to tcMaxCycle phases), and one that finds the two closer lasts
// tcCycle phases.
func TestTransitionCacheBackoff(t *testing.T) {
	for _, c := range []struct {
		name       string
		on, off    time.Duration // cost of a phase each way
		then       time.Duration // the cost with the cache from the fifth cycle on
		wantCycles []int
	}{
		{"cache far cheaper", time.Second, 2 * time.Second, time.Second, []int{64, 128, 256, 512, 512, 512, 512}},
		{"cache far dearer", 2 * time.Second, time.Second, 2 * time.Second, []int{64, 128, 256, 512, 512, 512, 512}},
		{"close", time.Second, 1100 * time.Millisecond, time.Second, []int{32, 32, 32, 32, 32, 32, 32}},
		{"the gap closes", time.Second, 2 * time.Second, 1900 * time.Millisecond, []int{64, 128, 256, 512, 512, 32, 32}},
	} {
		var tc tcache
		tc.init(CacheAuto, true, false)
		var clock time.Duration
		tc.clock = func() time.Duration { return clock }
		var starts []int // phase numbers at which a cycle starts
		for i := 0; len(starts) <= len(c.wantCycles); i++ {
			if tc.phase == 0 {
				starts = append(starts, i)
			}
			// the measuring phases run each way as their place says
			switch tc.phase {
			case 0, 1, 4:
				if !tc.on {
					t.Fatalf("%s: phase %d of a cycle runs without the cache", c.name, tc.phase)
				}
			case 2, 3:
				if tc.on {
					t.Fatalf("%s: phase %d of a cycle runs with the cache", c.name, tc.phase)
				}
			}
			d := c.off
			if tc.on {
				d = c.on
				if len(starts) > 5 {
					d = c.then
				}
			}
			clock += d
			tc.tick(tc.phaseLen)
		}
		var got []int
		for k := 1; k < len(starts); k++ {
			got = append(got, starts[k]-starts[k-1])
		}
		if !slices.Equal(got, c.wantCycles) {
			t.Errorf("%s: cycles of %v phases, want %v", c.name, got, c.wantCycles)
		}
	}
}

// TestTransitionCacheHysteresis checks that CacheAuto leaves the way it
// uses only for one that measured at least a tenth cheaper: a cache 5%
// dearer stays on, one 20% dearer goes off, and then a cache 5% cheaper
// stays off and one 20% cheaper comes back on.
func TestTransitionCacheHysteresis(t *testing.T) {
	var tc tcache
	tc.init(CacheAuto, true, false)
	var clock time.Duration
	tc.clock = func() time.Duration { return clock }
	// each step: the cost of a phase each way for one whole cycle, and
	// the way the cycle's last phases must use
	for i, c := range []struct {
		on, off time.Duration
		want    bool
	}{
		{1050 * time.Millisecond, time.Second, true},
		{1050 * time.Millisecond, time.Second, true},
		{1200 * time.Millisecond, time.Second, false},
		{950 * time.Millisecond, time.Second, false},
		{time.Second, 1050 * time.Millisecond, false},
		{800 * time.Millisecond, time.Second, true},
		{time.Second, 1050 * time.Millisecond, true},
	} {
		start := true
		for start || tc.phase != 0 {
			start = false
			if tc.on {
				clock += c.on
			} else {
				clock += c.off
			}
			tc.tick(tc.phaseLen)
			if tc.phase > 5 && tc.on != c.want {
				t.Fatalf("cycle %d (on %v, off %v): phase %d on %v, want %v", i, c.on, c.off, tc.phase, tc.on, c.want)
			}
		}
	}
}

// TestTransitionCacheBound lowers the cache's bound so that it starts over
// many times during a search, and checks that the outcomes stay those of
// the model without the cache (every hit is checked by verifyHit too).
func TestTransitionCacheBound(t *testing.T) {
	t.Parallel() // CPU-bound, shares nothing
	resets, hits := 0, 0
	for _, f := range exampleFiles(t) {
		on := loadOpts(t, f, Options{TransitionCache: CacheOn})
		on.tc.maxBytes = 48 << 10
		off := loadOpts(t, f, Options{TransitionCache: CacheOff})
		for _, s := range dfsCheck(on, capStates(5000)) {
			a, doneA := outcomes(on, s)
			b, doneB := outcomes(off, s)
			if !slices.Equal(a, b) || doneA != doneB {
				t.Fatalf("%s: state %q: with the cache %v (all done %v), without %v (%v)", f, s, a, doneA, b, doneB)
			}
		}
		if on.tc.used() > 2*on.tc.maxBytes {
			t.Errorf("%s: the cache holds %d bytes, bound %d", f, on.tc.used(), on.tc.maxBytes)
		}
		resets += on.tc.resets
		hits += on.tc.hits
	}
	if resets == 0 || hits == 0 {
		t.Fatalf("the cache started over %d times and had %d hits", resets, hits)
	}
}

// TestScanSegs compares scanSegs with decoding on every state explored of
// every example and test model: where it succeeds, the segments and the
// running threads are those of the decoded state. It must succeed on a
// state with a waiting thread (wait-notify models).
func TestScanSegs(t *testing.T) {
	t.Parallel() // CPU-bound, shares nothing
	scanned, general := 0, 0
	for _, f := range exampleFiles(t) {
		m := loadOpts(t, f, Options{TransitionCache: CacheOff})
		for _, s := range dfsCheck(m, capStates(20000)) {
			segs, run, ok := m.scanSegs(nil, nil, s)
			d, dsegs, dok := m.decodeSegs(nil, nil, s)
			if !dok {
				t.Fatalf("%s: state %q does not decode", f, s)
			}
			if !ok {
				continue
			}
			scanned++
			off := m.threadOffsets(d, nil)
			if !slices.Equal(segs, dsegs) || len(run) != len(off) {
				t.Fatalf("%s: state %q: scanned segments %v (running %v), decoded %v", f, s, segs, run, dsegs)
			}
			for j, p := range off {
				if run[j] != (d[p+thStatus] == 0) {
					t.Fatalf("%s: state %q: thread %d running %v, status %d", f, s, j, run[j], d[p+thStatus])
				}
				if d[p+thWaitCount] != 0 || d[p+thStatus] > 1 {
					general++
				}
			}
		}
	}
	if scanned == 0 || general == 0 {
		t.Fatalf("%d states scanned, %d threads in the general shape", scanned, general)
	}
}

// TestTransitionCacheAutoSwitching runs CacheAuto with phases of a few
// outcomes and a clock that makes either way look faster at random, so
// that the cache is switched on and off many times within the exploration
// of each model, and compares every state's outcomes with the model
// without the cache.
func TestTransitionCacheAutoSwitching(t *testing.T) {
	t.Parallel() // CPU-bound, shares nothing
	rng := rand.New(rand.NewSource(7))
	switches := 0
	for _, f := range exampleFiles(t) {
		auto := loadOpts(t, f, Options{})
		auto.tc.phaseLen = 8
		var clock time.Duration
		auto.tc.clock = func() time.Duration {
			clock += time.Duration(1 + rng.Intn(1000))
			return clock
		}
		off := loadOpts(t, f, Options{TransitionCache: CacheOff})
		last := auto.tc.on
		for _, s := range dfsCheck(auto, capStates(3000)) {
			a, doneA := outcomes(auto, s)
			b, doneB := outcomes(off, s)
			if !slices.Equal(a, b) || doneA != doneB {
				t.Fatalf("%s: state %q: auto %v (all done %v), without the cache %v (%v)", f, s, a, doneA, b, doneB)
			}
			if auto.tc.on != last {
				switches++
				last = auto.tc.on
			}
		}
	}
	if switches < 100 {
		t.Fatalf("the cache was switched %d times", switches)
	}
}

// TestScanSegsMemo checks the layout scanSegs takes from the last state it
// scanned against a scan from scratch, on the states of every example and
// test model in depth-first order and then in a shuffled order (so that
// consecutive states differ in their threads' procs and modes).
func TestScanSegsMemo(t *testing.T) {
	hits := 0
	for _, f := range exampleFiles(t) {
		m := loadOpts(t, f, Options{TransitionCache: CacheOn})
		states := dfsCheck(m, 3000)
		rng := rand.New(rand.NewSource(1))
		shuffled := slices.Clone(states)
		rng.Shuffle(len(shuffled), func(i, j int) { shuffled[i], shuffled[j] = shuffled[j], shuffled[i] })
		for _, s := range append(states, shuffled...) {
			memo := m.segMemo.ok
			segs, run, ok := m.scanSegs(nil, nil, s)
			m.segMemo.ok = false
			wsegs, wrun, wok := m.scanSegs(nil, nil, s)
			if ok != wok || !slices.Equal(segs, wsegs) || !slices.Equal(run, wrun) {
				t.Fatalf("%s: scanSegs with the last layout (%v) gives %v %v %v, from scratch %v %v %v", f, memo, segs, run, ok, wsegs, wrun, wok)
			}
			if memo && ok {
				hits++
			}
			// leave the memo as a scan of s made it
		}
	}
	if hits == 0 {
		t.Fatal("no scan had a layout remembered")
	}
}
