package search

import (
	"fmt"
	"slices"
	"testing"

	"birch/internal/model"
	"birch/internal/testenv"
)

// fewHashBits is a store's initial id bits that leave 12 hash bits in a
// slot: with the tables of the examples (2^10 to 2^18 slots) a slot's hash
// bits then often match those of a state that is not stored, so that depth-
// first search defers new successors and finds them new only in verify.
const fewHashBits = 52

// TestDeferredVerification runs depth-first and random searches with a
// store that keeps few hash bits, so that many successors classify defers
// are new after all (late states, which take back the generation made in
// the meantime), and checks that nothing a user sees depends on it: every
// example's verdict and violation kind, the exact counts of the examples
// without a violation, the limits hit, and trails that replay. It also
// checks that the late path was taken, and with --max-depth, where the
// deferred successors are verified before the next generation. With
// deferAll every new state is a late one. The default run takes
// depth-first and one random seed, BIRCH_LONG=1 every seed of strategies.
func TestDeferredVerification(t *testing.T) {
	var late, undone int
	const many = "testdata/limit-many.bir" // the limit hit from 64 states
	exs := append(examples(t), example{name: "limit-many.bir", path: many, expect: readExpect(t, many)})
	for _, ex := range exs {
		m := loadModel(t, ex.path)
		for _, st := range strategies {
			if st.strategy == BFS || st.seed > 1 && !testenv.Long() {
				continue
			}
			cfg := st.config()
			want := Run(m, cfg)
			all := cfg
			all.deferAll = true
			got := Run(m, all)
			what := fmt.Sprintf("%s %s", ex.name, st.name)
			checkSameOutcome(t, what+" defer-all", m, ex, want, got)
			if got.Verdict != Fail && got.lateStates != got.Stats.States-1 {
				t.Errorf("%s defer-all: %d late states of %d", what, got.lateStates, got.Stats.States)
			}
			cfg.storeIDBits = fewHashBits
			got = Run(m, cfg)
			late += got.lateStates
			undone += got.undone
			checkSameOutcome(t, what, m, ex, want, got)

			if ex.expect.verdict != Fail {
				// a depth bound no order reaches (a path visits each
				// state once): verified before each generation, same
				// counts, complete
				cfg.MaxDepth = want.Stats.States
				got = Run(m, cfg)
				late += got.lateStates
				checkSameOutcome(t, what+" max-depth", m, ex, want, got)
			} else if len(want.Trail) > 1 {
				cfg.MaxDepth = len(want.Trail) + 2
				got = Run(m, cfg)
				late += got.lateStates
				if got.Verdict == Fail {
					checkReplay(t, what+" max-depth", m, got)
					if len(got.Trail) > cfg.MaxDepth+1 {
						t.Errorf("%s max-depth: trail of %d steps with --max-depth=%d", what, len(got.Trail), cfg.MaxDepth)
					}
				}
			}
		}
	}
	if late == 0 || undone == 0 {
		t.Errorf("the searches found %d deferred successors new and took back %d generations: the late path was not tested", late, undone)
	}
	t.Logf("%d late states, %d generations taken back", late, undone)
}

// checkSameOutcome checks that got, a search with few hash bits, has the
// outcome of want, the same search with the default store.
func checkSameOutcome(t *testing.T, what string, m *model.Model, ex example, want, got *Result) {
	t.Helper()
	if got.Verdict != want.Verdict || got.Verdict != ex.expect.verdict {
		t.Errorf("%s: verdict %v (%s), default store %v, expected %v", what, got.Verdict, got.Reason, want.Verdict, ex.expect.verdict)
		return
	}
	if got.Verdict == Fail {
		if got.Violation.Kind != ex.expect.kind {
			t.Errorf("%s: violation %v, expected %v", what, got.Violation.Kind, ex.expect.kind)
		}
		checkReplay(t, what, m, got)
		return
	}
	if got.Stats.States != want.Stats.States || got.Stats.Transitions != want.Stats.Transitions {
		t.Errorf("%s: states=%d transitions=%d, default store states=%d transitions=%d",
			what, got.Stats.States, got.Stats.Transitions, want.Stats.States, want.Stats.Transitions)
	}
	if c, ok := exhaustiveCounts[ex.name]; ok && (got.Stats.States != c.states || got.Stats.Transitions != int64(c.transitions)) {
		t.Errorf("%s: states=%d transitions=%d, want states=%d transitions=%d", what, got.Stats.States, got.Stats.Transitions, c.states, c.transitions)
	}
	if got.Complete != want.Complete || got.Reason != want.Reason {
		t.Errorf("%s: complete=%v (%s), default store complete=%v (%s)", what, got.Complete, got.Reason, want.Complete, want.Reason)
	}
	if !slices.Equal(got.LimitsHit, want.LimitsHit) {
		t.Errorf("%s: limits hit %v, default store %v", what, got.LimitsHit, want.LimitsHit)
	}
}

// recordingModel records the states of the OK outcomes its model delivers
// until the first Error outcome, which a plain search (no --choose-free,
// --on-limit=cut) takes as its violation.
type recordingModel struct {
	Model
	seen   map[string]bool
	failed bool
}

func (r *recordingModel) Initial(dst []byte) ([]byte, *model.Step) {
	init, fail := r.Model.Initial(dst)
	r.seen[string(init)] = true
	return init, fail
}

func (r *recordingModel) Next(state []byte, yield func(*model.Step)) (int, bool) {
	return r.Model.Next(state, func(st *model.Step) {
		switch {
		case r.failed:
		case st.Outcome == model.OK:
			r.seen[string(st.State)] = true
		case st.Outcome == model.Error:
			r.failed = true
		}
		yield(st)
	})
}

// TestSearchStoresWhatItGenerates checks that a search stores every state
// it generated before it stopped, also when it stops at a violation: the
// states stored are exactly the initial state and the successors the model
// delivered before the failing step (with a deferred successor, depth-first
// search must still compare it with the stored states before it returns).
// The store keeps its default hash bits, so that no generation is taken
// back (one taken back generates successors it does not store).
func TestSearchStoresWhatItGenerates(t *testing.T) {
	for _, ex := range examples(t) {
		m := loadModel(t, ex.path)
		for _, st := range strategies {
			r := &recordingModel{Model: m, seen: map[string]bool{}}
			res := Run(r, st.config())
			if res.undone != 0 {
				t.Fatalf("%s %s: %d generations taken back with the default store", ex.name, st.name, res.undone)
			}
			if res.Stats.States != len(r.seen) {
				t.Errorf("%s %s: %v, %d states stored, %d generated", ex.name, st.name, res.Verdict, res.Stats.States, len(r.seen))
			}
		}
	}
}
