package amcs

import (
	"container/heap"
	"math/rand/v2"
	"sort"
)

// datumPred is the datum predicate `ID > C`.
type datumPred struct {
	ID uint64
	C  int64
}

// segment is the minimum and maximum (Lo < Hi) of one datum over the
// concrete states an abstract state received: the thesis's max-min segment.
type segment struct {
	State int // the abstract state
	ID    uint64
	Lo    int64
	Hi    int64
}

// splits reports whether p separates two values of the segment: some
// value of it satisfies p and another does not, which is Lo <= C < Hi.
func (p datumPred) splits(s segment) bool { return p.ID == s.ID && s.Lo <= p.C && p.C < s.Hi }

// maxOverlap is MaxOverlap's choice (thesis section 4.1): for each datum,
// the points C where `ID > C` splits the most segments of that datum (the
// leftmost point of each plateau of maximum overlap), and among all data
// one of the best, at random. It returns the predicate and the number of
// segments it splits (0 and false when segs is empty).
func maxOverlap(segs []segment, rng *rand.Rand) (datumPred, int, bool) {
	type event struct {
		id  uint64
		at  int64
		add int
	}
	ev := make([]event, 0, 2*len(segs))
	for _, s := range segs {
		if s.Lo < s.Hi {
			ev = append(ev, event{s.ID, s.Lo, 1}, event{s.ID, s.Hi, -1})
		}
	}
	if len(ev) == 0 {
		return datumPred{}, 0, false
	}
	sort.Slice(ev, func(i, j int) bool {
		if ev[i].id != ev[j].id {
			return ev[i].id < ev[j].id
		}
		return ev[i].at < ev[j].at
	})
	var best []datumPred
	bestN := 0
	for i := 0; i < len(ev); {
		id, active := ev[i].id, 0
		for i < len(ev) && ev[i].id == id {
			at, rising := ev[i].at, false
			for i < len(ev) && ev[i].id == id && ev[i].at == at {
				active += ev[i].add
				rising = rising || ev[i].add > 0
				i++
			}
			// a plateau starts where a segment starts
			if !rising {
				continue
			}
			switch {
			case active > bestN:
				bestN, best = active, append(best[:0], datumPred{id, at})
			case active == bestN:
				best = append(best, datumPred{id, at})
			}
		}
	}
	return best[pick(rng, len(best))], bestN, true
}

// pick returns a random index below n (0 without a generator).
func pick(rng *rand.Rand, n int) int {
	if rng == nil || n <= 1 {
		return 0
	}
	return rng.IntN(n)
}

// stabbing returns, for the segments of one datum, a minimum set of
// points C such that every segment has one with Lo <= C < Hi: the greedy
// that takes segments by decreasing Lo and adds the Lo of each segment not
// yet split (the mirror of the classic interval stabbing by right ends),
// in increasing order.
func stabbing(segs []segment) []int64 {
	s := append([]segment(nil), segs...)
	sort.Slice(s, func(i, j int) bool { return s[i].Lo > s[j].Lo })
	var pts []int64
	for _, g := range s {
		if g.Lo >= g.Hi {
			continue
		}
		if n := len(pts); n > 0 && pts[n-1] < g.Hi {
			continue // pts[n-1] >= g.Lo: it is the Lo of a later-starting segment
		}
		pts = append(pts, g.Lo)
	}
	for i, j := 0, len(pts)-1; i < j; i, j = i+1, j-1 {
		pts[i], pts[j] = pts[j], pts[i]
	}
	return pts
}

// minSetCandidates is MinSet's table (thesis section 4.2, Figure 4.2): per
// datum a minimum set of predicates splitting its segments (stabbing), and
// for each predicate the abstract states it splits, in increasing order.
func minSetCandidates(segs []segment) ([]datumPred, [][]int) {
	byID := map[uint64][]segment{}
	var ids []uint64
	for _, s := range segs {
		if s.Lo >= s.Hi {
			continue
		}
		if _, ok := byID[s.ID]; !ok {
			ids = append(ids, s.ID)
		}
		byID[s.ID] = append(byID[s.ID], s)
	}
	sort.Slice(ids, func(i, j int) bool { return ids[i] < ids[j] })
	var preds []datumPred
	var splits [][]int
	for _, id := range ids {
		ss := byID[id]
		pts := stabbing(ss)
		first := len(preds)
		for _, c := range pts {
			preds = append(preds, datumPred{id, c})
			splits = append(splits, nil)
		}
		for _, g := range ss {
			// the points inside [Lo, Hi)
			k := sort.Search(len(pts), func(k int) bool { return pts[k] >= g.Lo })
			for ; k < len(pts) && pts[k] < g.Hi; k++ {
				splits[first+k] = append(splits[first+k], g.State)
			}
		}
	}
	for i := range splits {
		sort.Ints(splits[i])
		splits[i] = dedupInts(splits[i])
	}
	return preds, splits
}

func dedupInts(a []int) []int {
	out := a[:0]
	for i, x := range a {
		if i == 0 || x != a[i-1] {
			out = append(out, x)
		}
	}
	return out
}

// greedyCover is MinSet's cover (thesis section 4.2): repeatedly the
// candidate that splits the most states not yet split (ties at random),
// until every state some candidate splits is split. It returns the indices
// of the chosen candidates, in the order chosen. States are small
// non-negative integers (abstract state indices).
//
// Counts only decrease, so a lazy max-heap serves: a candidate popped with
// a stale count goes back with its current one. Ties are broken by a
// random rank drawn once per candidate.
func greedyCover(splits [][]int, rng *rand.Rand) []int {
	nStates := 0
	for _, ss := range splits {
		for _, st := range ss {
			nStates = max(nStates, st+1)
		}
	}
	// byState[st] lists the candidates that split st (CSR)
	start := make([]int, nStates+1)
	for _, ss := range splits {
		for _, st := range ss {
			start[st+1]++
		}
	}
	for i := 0; i < nStates; i++ {
		start[i+1] += start[i]
	}
	byState := make([]int, start[nStates])
	fill := append([]int(nil), start[:nStates]...)
	count := make([]int, len(splits))
	h := &coverHeap{}
	for c, ss := range splits {
		count[c] = len(ss)
		for _, st := range ss {
			byState[fill[st]] = c
			fill[st]++
		}
		if len(ss) > 0 {
			rank := uint64(c)
			if rng != nil {
				rank = rng.Uint64()
			}
			h.items = append(h.items, coverItem{c, len(ss), rank})
		}
	}
	heap.Init(h)
	covered := make([]bool, nStates)
	var chosen []int
	for h.Len() > 0 {
		it := heap.Pop(h).(coverItem)
		if n := count[it.c]; n != it.n {
			if n > 0 {
				it.n = n
				heap.Push(h, it)
			}
			continue
		}
		chosen = append(chosen, it.c)
		for _, st := range splits[it.c] {
			if covered[st] {
				continue
			}
			covered[st] = true
			for _, o := range byState[start[st]:start[st+1]] {
				count[o]--
			}
		}
	}
	return chosen
}

type coverItem struct {
	c, n int
	rank uint64
}

// coverHeap orders candidates by count, largest first, then by rank.
type coverHeap struct{ items []coverItem }

func (h *coverHeap) Len() int { return len(h.items) }
func (h *coverHeap) Less(i, j int) bool {
	a, b := h.items[i], h.items[j]
	if a.n != b.n {
		return a.n > b.n
	}
	return a.rank < b.rank
}
func (h *coverHeap) Swap(i, j int) { h.items[i], h.items[j] = h.items[j], h.items[i] }
func (h *coverHeap) Push(x any)    { h.items = append(h.items, x.(coverItem)) }
func (h *coverHeap) Pop() any {
	it := h.items[len(h.items)-1]
	h.items = h.items[:len(h.items)-1]
	return it
}

// minSet is MinSet's choice: the predicates of greedyCover over
// minSetCandidates, each with the first abstract state it splits.
func minSet(segs []segment, rng *rand.Rand) ([]datumPred, []int) {
	preds, splits := minSetCandidates(segs)
	var out []datumPred
	var at []int
	for _, c := range greedyCover(splits, rng) {
		out = append(out, preds[c])
		at = append(at, splits[c][0])
	}
	return out, at
}

// minOnlyChoice is MinOnly's choice for one eligible abstract state
// (thesis section 4.3, Figure 4.3): among its data whose unique flag is
// false (two distinct values seen), one at random, and the predicate
// `ID > min`, which the minimum falsifies and every larger value
// satisfies. cands holds those data's (ID, min).
func minOnlyChoice(cands []datumPred, rng *rand.Rand) (datumPred, bool) {
	if len(cands) == 0 {
		return datumPred{}, false
	}
	return cands[pick(rng, len(cands))], true
}
