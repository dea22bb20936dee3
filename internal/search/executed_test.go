package search

import (
	"slices"
	"testing"

	"birch/internal/model"
)

// executedOracle explores every reachable state of m naively and marks the
// transformations of every step, as Result.Executed should after a
// complete search.
func executedOracle(m *model.Model) []uint64 {
	bits := make([]uint64, (len(m.Groups())+63)/64)
	init, _ := m.Initial(nil)
	seen := map[string]bool{string(init): true}
	queue := [][]byte{init}
	for len(queue) > 0 {
		cur := queue[0]
		queue = queue[1:]
		m.Next(cur, func(st *model.Step) {
			for _, g := range st.Groups {
				bits[g/64] |= 1 << (uint(g) % 64)
			}
			if st.Outcome == model.OK && !seen[string(st.State)] {
				seen[string(st.State)] = true
				queue = append(queue, slices.Clone(st.State))
			}
		})
	}
	return bits
}

// TestExecuted: after a complete search, Result.Executed marks exactly the
// transformations some reachable state executes, for every search order
// and transition cache mode; choose.bir has one that none does.
func TestExecuted(t *testing.T) {
	unexecuted := 0
	for _, ex := range examples(t) {
		if ex.expect.verdict != Pass || ex.name == "msgqueue.bir" {
			continue // (msgqueue's 69,892 states would make the test slow)
		}
		m := loadModel(t, ex.path)
		want := executedOracle(m)
		for g := range m.Groups() {
			if want[g/64]&(1<<(uint(g)%64)) == 0 {
				unexecuted++
			}
		}
		for _, s := range strategies[:3] {
			for _, tc := range []model.CacheMode{model.CacheOff, model.CacheOn} {
				m := loadModelOpts(t, ex.path, model.Options{TransitionCache: tc})
				res := Run(m, s.config())
				if !res.Complete || !slices.Equal(res.Executed, want) {
					t.Errorf("%s %s cache %v: complete %v, executed %b, want %b", ex.name, s.name, tc, res.Complete, res.Executed, want)
				}
			}
		}
	}
	if unexecuted == 0 {
		t.Errorf("no example has a transformation that is never executed (choose.bir should)")
	}
}
