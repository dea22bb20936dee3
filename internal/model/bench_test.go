package model

import (
	"runtime"
	"testing"

	"birch/internal/cputime"
)

// BenchmarkNext measures successor generation (decoding a state, running
// every enabled transformation, encoding each successor) without a state
// store; allocs/op must be 0.
func BenchmarkNext(b *testing.B) {
	for _, c := range []struct{ name, path string }{
		{"peterson", "../../examples/peterson.bir"},
		{"msgqueue", "../../examples/msgqueue.bir"},
		{"counters", "../../bench/models/counters.bir"},
		{"philosophers", "../../bench/models/philosophers.bir"},
		{"mutex", "../../bench/models/mutex.bir"},
		{"filter", "../../bench/models/filter.bir"},
	} {
		b.Run(c.name, func(b *testing.B) {
			m := load(b, c.path)
			m.checkEncoding = false
			states := benchStates(m, 1000)
			n := 0
			yield := func(*Step) { n++ }
			for _, s := range states {
				m.Next(s, yield)
			}
			b.ReportAllocs()
			n = 0
			i := 0
			runtime.LockOSThread()
			defer runtime.UnlockOSThread()
			c0, cpuOK := cputime.Thread()
			for b.Loop() {
				m.Next(states[i], yield)
				i++
				if i == len(states) {
					i = 0
				}
			}
			if c1, _ := cputime.Thread(); cpuOK {
				// CPU time excludes waiting for a core on a shared machine
				b.ReportMetric(float64(c1-c0)/float64(b.N), "cpu-ns/op")
			}
			b.ReportMetric(float64(n)/float64(b.N), "succ/op")
		})
	}
}

// BenchmarkNextCache is BenchmarkNext with the transition cache forced on
// (warm: every state was expanded once before the timing) and off.
func BenchmarkNextCache(b *testing.B) {
	for _, path := range []string{"../../bench/models/counters.bir", "../../bench/models/mutex.bir", "../../bench/models/buffer.bir", "../../bench/models/updown.bir"} {
		for _, mode := range []CacheMode{CacheOn, CacheOff} {
			name := path[len("../../bench/models/") : len(path)-len(".bir")]
			if mode == CacheOn {
				name += "/cache=on"
			} else {
				name += "/cache=off"
			}
			b.Run(name, func(b *testing.B) {
				m := loadOpts(b, path, Options{TransitionCache: mode})
				m.checkEncoding = false
				states := benchStates(m, 1000)
				yield := func(*Step) {}
				for _, s := range states {
					m.Next(s, yield)
				}
				b.ReportAllocs()
				i := 0
				for b.Loop() {
					m.Next(states[i], yield)
					i++
					if i == len(states) {
						i = 0
					}
				}
			})
		}
	}
}

// benchStates returns up to n states in breadth-first order.
func benchStates(m *Model, n int) [][]byte {
	s0, _ := m.Initial(nil)
	seen := map[string]bool{string(s0): true}
	out := [][]byte{s0}
	for i := 0; i < len(out) && len(out) < n; i++ {
		m.Next(out[i], func(st *Step) {
			if st.Outcome == OK && !seen[string(st.State)] && len(out) < n {
				seen[string(st.State)] = true
				out = append(out, append([]byte(nil), st.State...))
			}
		})
	}
	return out
}
