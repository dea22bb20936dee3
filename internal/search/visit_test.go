package search

import (
	"testing"

	"birch/internal/model"
)

// distances is an independent breadth-first search of m: the length of the
// shortest path to each reachable state, by its bytes, and each state's
// predecessors.
func distances(m *model.Model) (map[string]int, map[string][]string) {
	init, _ := m.Initial(nil)
	dist := map[string]int{string(init): 0}
	pred := map[string][]string{}
	queue := []string{string(init)}
	for len(queue) > 0 {
		s := queue[0]
		queue = queue[1:]
		m.Next([]byte(s), func(st *model.Step) {
			if st.Outcome != model.OK {
				return
			}
			pred[string(st.State)] = append(pred[string(st.State)], s)
			if _, ok := dist[string(st.State)]; !ok {
				dist[string(st.State)] = dist[s] + 1
				queue = append(queue, string(st.State))
			}
		})
	}
	return dist, pred
}

// TestVisit checks Config.Visit: every stored state is given once, the
// initial state first at depth 0; breadth-first depths are the shortest
// distances; a depth-first search's depth of a state is one more than that
// of a state given before it of which it is a successor (its parent on the
// search's path), also when the search defers successors (few hash bits,
// every successor deferred) and in random order.
func TestVisit(t *testing.T) {
	for _, path := range []string{"../../bench/models/small/filter.bir", "../../bench/models/small/buffer.bir"} {
		m := loadModel(t, path)
		dist, pred := distances(m)
		for _, c := range []struct {
			name string
			cfg  Config
		}{
			{"bfs", Config{Strategy: BFS}},
			{"dfs", Config{}},
			{"random", Config{Strategy: Random, Seed: 7}},
			{"dfs few-hash-bits", Config{storeIDBits: fewHashBits}},
			{"random defer-all", Config{Strategy: Random, Seed: 3, deferAll: true}},
		} {
			t.Run(path+" "+c.name, func(t *testing.T) {
				depth := map[string]int{}
				index := map[string]int{}
				var order []string
				cfg := c.cfg
				cfg.Visit = func(state []byte, d int) {
					if _, ok := depth[string(state)]; ok {
						t.Fatalf("state given twice (depths %d and %d)", depth[string(state)], d)
					}
					depth[string(state)] = d
					index[string(state)] = len(order)
					order = append(order, string(state))
				}
				r := Run(m, cfg)
				if r.Verdict != Pass || len(depth) != r.Stats.States || len(depth) != len(dist) {
					t.Fatalf("%s: %d states given, %d stored, %d reachable", r.Verdict, len(depth), r.Stats.States, len(dist))
				}
				if dist[order[0]] != 0 || depth[order[0]] != 0 {
					t.Fatalf("the first state given is not the initial state at depth 0")
				}
				maxDepth := 0
				for k, s := range order {
					d := depth[s]
					maxDepth = max(maxDepth, d)
					if c.cfg.Strategy == BFS {
						if d != dist[s] {
							t.Fatalf("state %d: depth %d, shortest distance %d", k, d, dist[s])
						}
						continue
					}
					if k == 0 {
						continue
					}
					// a parent: a state given before s, one step shallower,
					// with s among its successors
					found := false
					for _, p := range pred[s] {
						if depth[p] == d-1 && index[p] < k {
							found = true
						}
					}
					if !found {
						t.Fatalf("state %d at depth %d: no state given before it at depth %d leads to it", k, d, d-1)
					}
				}
				if maxDepth != r.Stats.MaxDepth {
					// a complete search expands every state it stores
					t.Errorf("deepest state given at %d, the search's MaxDepth is %d", maxDepth, r.Stats.MaxDepth)
				}
			})
		}
	}
}
