package search

import (
	"testing"

	"birch/internal/model"
)

// refBFS is a breadth-first search over Next that inserts each state's
// successors before expanding the next state and checks --max-states before
// each expansion, as bfs did before batching.
func refBFS(m *model.Model, maxStates int) (states, transitions int) {
	s0, _ := m.Initial(nil)
	seen := map[string]bool{string(s0): true}
	queue := [][]byte{s0}
	for len(queue) > 0 {
		if maxStates > 0 && len(seen) >= maxStates {
			break
		}
		s := queue[0]
		queue = queue[1:]
		m.Next(s, func(st *model.Step) {
			transitions++
			if st.Outcome == model.OK && !seen[string(st.State)] {
				seen[string(st.State)] = true
				queue = append(queue, append([]byte(nil), st.State...))
			}
		})
	}
	return len(seen), transitions
}

// TestBFSMaxStatesBatched checks that a batched breadth-first search stops
// at --max-states where one-by-one insertion stops (same states and
// transitions): the limit must see the successors waiting in the batch.
func TestBFSMaxStatesBatched(t *testing.T) {
	m := loadModel(t, "../../examples/msgqueue.bir")
	for _, max := range []int{2, 10, 37, 100, 1000} {
		ws, wt := refBFS(m, max)
		res := Run(m, Config{Strategy: BFS, MaxStates: max, NoDeadlock: true})
		if res.Stats.States != ws || res.Stats.Transitions != int64(wt) {
			t.Errorf("--max-states=%d: %d states, %d transitions; one by one: %d states, %d transitions", max, res.Stats.States, res.Stats.Transitions, ws, wt)
		}
	}
}
