package amcs

import (
	"math/rand/v2"
	"reflect"
	"testing"

	"birch/internal/model"
)

const idX, idY = 1, 2

// Figure 4.1: three abstract states whose segments of x overlap at [3, 4]
// (closed: x in [0,4], [3,7], [2,5]); x > 3 splits all three, and no
// predicate on x splits more.
func TestMaxOverlapFigure41(t *testing.T) {
	segs := []segment{{0, idX, 0, 4}, {1, idX, 3, 7}, {2, idX, 2, 5}}
	p, n, ok := maxOverlap(segs, nil)
	if !ok || p != (datumPred{idX, 3}) || n != 3 {
		t.Fatalf("maxOverlap = %v %d %v, want x > 3 splitting 3", p, n, ok)
	}
	for _, g := range segs {
		if !p.splits(g) {
			t.Errorf("x > 3 does not split %+v", g)
		}
	}
	// x > 4 would not split [0, 4]: its values are all <= 4
	if (datumPred{idX, 4}).splits(segs[0]) {
		t.Error("x > 4 splits [0,4]")
	}
	// with a second variable whose best point splits only two, x still wins
	segs = append(segs, segment{0, idY, 0, 9}, segment{1, idY, 5, 9})
	for seed := uint64(0); seed < 20; seed++ {
		p, n, _ := maxOverlap(segs, rand.New(rand.NewPCG(seed, 1)))
		if p != (datumPred{idX, 3}) || n != 3 {
			t.Fatalf("seed %d: %v %d, want x > 3, 3", seed, p, n)
		}
	}
}

// Ties between points of maximum overlap are broken at random with the
// seed: two disjoint segments of x, each its own plateau.
func TestMaxOverlapTies(t *testing.T) {
	segs := []segment{{0, idX, 0, 2}, {1, idX, 5, 8}}
	seen := map[datumPred]bool{}
	for seed := uint64(0); seed < 40; seed++ {
		p, n, _ := maxOverlap(segs, rand.New(rand.NewPCG(seed, 2)))
		if n != 1 {
			t.Fatalf("n = %d", n)
		}
		seen[p] = true
		q, _, _ := maxOverlap(segs, rand.New(rand.NewPCG(seed, 2)))
		if p != q {
			t.Fatalf("seed %d: %v then %v", seed, p, q)
		}
	}
	if !reflect.DeepEqual(seen, map[datumPred]bool{{idX, 0}: true, {idX, 5}: true}) {
		t.Errorf("choices %v, want x > 0 and x > 5", seen)
	}
}

// Figure 4.2: three abstract states with segments of x and y. The minimal
// sets per variable are {x > 2, x > 6} and {y > 2, y > 6}; the table
// (predicate x state: splits) is
//
//	       α1 α2 α3
//	x > 2   1  1  0
//	x > 6   0  0  1
//	y > 2   1  0  0
//	y > 6   0  1  1
//
// and the greedy cover takes one of the two predicates that split two
// states, then one that splits the last: two predicates, every state split.
func TestMinSetFigure42(t *testing.T) {
	segs := []segment{
		{0, idX, 0, 3}, {1, idX, 2, 5}, {2, idX, 6, 9},
		{0, idY, 2, 4}, {1, idY, 6, 8}, {2, idY, 5, 7},
	}
	if got := stabbing(segs[:3]); !reflect.DeepEqual(got, []int64{2, 6}) {
		t.Errorf("stabbing x = %v, want [2 6]", got)
	}
	if got := stabbing(segs[3:]); !reflect.DeepEqual(got, []int64{2, 6}) {
		t.Errorf("stabbing y = %v, want [2 6]", got)
	}
	preds, table := minSetCandidates(segs)
	wantPreds := []datumPred{{idX, 2}, {idX, 6}, {idY, 2}, {idY, 6}}
	wantTable := [][]int{{0, 1}, {2}, {0}, {1, 2}}
	if !reflect.DeepEqual(preds, wantPreds) || !reflect.DeepEqual(table, wantTable) {
		t.Fatalf("table %v %v, want %v %v", preds, table, wantPreds, wantTable)
	}
	firsts := map[datumPred]bool{}
	for seed := uint64(0); seed < 40; seed++ {
		got, at := minSet(segs, rand.New(rand.NewPCG(seed, 3)))
		if len(got) != 2 {
			t.Fatalf("seed %d: %v, want two predicates", seed, got)
		}
		firsts[got[0]] = true
		for i, p := range got {
			if !p.splits(segs[at[i]]) && !p.splits(segs[at[i]+3]) {
				t.Errorf("seed %d: %v named after state %d, which it does not split", seed, p, at[i])
			}
		}
		for st := 0; st < 3; st++ {
			split := false
			for _, p := range got {
				for _, g := range segs {
					split = split || (g.State == st && p.splits(g))
				}
			}
			if !split {
				t.Errorf("seed %d: %v does not split state %d", seed, got, st)
			}
		}
	}
	if !reflect.DeepEqual(firsts, map[datumPred]bool{{idX, 2}: true, {idY, 6}: true}) {
		t.Errorf("first choices %v, want x > 2 and y > 6 (the two that split two states)", firsts)
	}
}

// The greedy cover on a table where the largest row is the right first
// choice and a cover of two exists.
func TestGreedyCover(t *testing.T) {
	splits := [][]int{{0, 1, 2, 3}, {0, 1}, {2, 3, 4}, {4}}
	got := greedyCover(splits, nil)
	if !reflect.DeepEqual(got, []int{0, 2}) {
		t.Errorf("greedyCover = %v, want [0 2]", got)
	}
	if got := greedyCover(nil, nil); len(got) != 0 {
		t.Errorf("greedyCover(nil) = %v", got)
	}
}

// Figure 4.3: s1 and s2 match the same abstract state under x > 5 (x = 6
// and x = 8, say); MinOnly keeps min(x) = 6 with unique false and adds
// x > 6, which splits them (6 is not > 6, 8 is). A datum that kept one
// value stays unique and is never chosen.
func TestMinOnlyFigure43(t *testing.T) {
	uniqX, minX := true, int64(6) // s1 stored
	uniqX, minX = minOnlyUpdate(minX, uniqX, 8)
	if uniqX || minX != 6 {
		t.Fatalf("after s2: unique %v min %d, want false 6", uniqX, minX)
	}
	uniqY, minY := minOnlyUpdate(4, true, 4) // y = 4 in both
	if !uniqY || minY != 4 {
		t.Fatalf("y: unique %v min %d, want true 4", uniqY, minY)
	}
	var cands []datumPred
	if !uniqX {
		cands = append(cands, datumPred{idX, minX})
	}
	if !uniqY {
		cands = append(cands, datumPred{idY, minY})
	}
	p, ok := minOnlyChoice(cands, rand.New(rand.NewPCG(1, 1)))
	if !ok || p != (datumPred{idX, 6}) {
		t.Fatalf("minOnlyChoice = %v %v, want x > 6", p, ok)
	}
	if 6 > p.C || !(8 > p.C) {
		t.Error("x > 6 does not separate 6 and 8")
	}
	// a smaller value afterwards moves the minimum
	u, mn := minOnlyUpdate(minX, uniqX, 2)
	if u || mn != 2 {
		t.Errorf("after x = 2: %v %d", u, mn)
	}
	if _, ok := minOnlyChoice(nil, nil); ok {
		t.Error("a choice without candidates")
	}
}

// The key of the datum predicates is their valuation: two data vectors get
// the same key exactly when every predicate has the same value on both,
// whether the data come in increasing ID order or not.
func TestDatumPredsKey(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 5))
	d := &datumPreds{}
	var all []datumPred
	for i := 0; i < 40; i++ {
		p := datumPred{uint64(rng.IntN(6)), int64(rng.IntN(21) - 10)}
		if d.add(p, "") {
			all = append(all, p)
		} else if !d.has(p) {
			t.Fatalf("add(%v) false but has false", p)
		}
	}
	if d.n != len(all) {
		t.Fatalf("n = %d, want %d", d.n, len(all))
	}
	valuation := func(data []model.Datum) string {
		var b []byte
		for _, x := range data {
			for _, p := range all {
				if p.ID == x.ID {
					b = append(b, byte(x.ID), map[bool]byte{false: '0', true: '1'}[x.Value > p.C])
				}
			}
		}
		return string(b)
	}
	vec := func(order []uint64) []model.Datum {
		var out []model.Datum
		for _, id := range order {
			out = append(out, model.Datum{ID: id, Value: int64(rng.IntN(25) - 12)})
		}
		return out
	}
	orders := [][]uint64{{0, 1, 2, 3, 4, 5, 6}, {6, 2, 0, 5, 1, 3, 4}}
	same := 0
	for _, order := range orders {
		for i := 0; i < 300; i++ {
			// b is a with one value moved a little: often the same valuation
			a := vec(order)
			b := append([]model.Datum(nil), a...)
			b[rng.IntN(len(b))].Value += int64(rng.IntN(5) - 2)
			if i%3 == 0 {
				b = vec(order)
			}
			sameKey := string(d.appendKey(nil, a)) == string(d.appendKey(nil, b))
			sameVal := valuation(a) == valuation(b)
			if sameKey != sameVal {
				t.Fatalf("order %v: %v and %v: same key %v, same valuation %v", order, a, b, sameKey, sameVal)
			}
			if sameVal {
				same++
			}
		}
	}
	if same < 100 || same > 500 {
		t.Errorf("%d of 600 pairs with the same valuation: the test does not try both cases", same)
	}
}
