package model

import (
	"path/filepath"
	"slices"
	"testing"
)

// Review 2 of the transition cache's recent changes. checkEncoding is on
// (loadOpts): every hit is re-checked against an expansion (verifyHit),
// every traced run's changes against its trace (checkFixes), and every
// memoized condition value against a full evaluation (Evaluator.Eval).

func review2Files(t *testing.T) []string { return testdataFiles(t, "testdata/review2-*.bir") }

// TestReview2Models explores each review2 model with the cache on, then
// compares the outcomes of every state with the cache on and off, in order
// and in a random order; and evaluates the predicates on every successor
// through LoadStep (memo and hit paths) and on the decoded successor.
func TestReview2Models(t *testing.T) {
	for _, f := range review2Files(t) {
		t.Run(filepath.Base(f), func(t *testing.T) {
			on := loadOpts(t, f, Options{TransitionCache: CacheOn})
			off := loadOpts(t, f, Options{TransitionCache: CacheOff})
			states := dfsCheck(on, 20000)
			compareOnOff(t, on, off, states)
			if len(on.Labels()) == 0 {
				return
			}
			// predicates through LoadStep: one evaluator kept across the
			// whole exploration (memos of many Next calls), twice over
			conds, byStep := labelEvaluator(t, on)
			_, byState := labelEvaluator(t, on)
			evaluated, errs, memo := 0, 0, 0
			for round := 0; round < 2; round++ {
				for _, s := range states {
					on.Next(s, func(st *Step) {
						if st.Outcome != OK {
							return
						}
						byStep.LoadStep(st)
						byState.Load(st.State)
						for i := range conds {
							if byStep.hit != nil && !byStep.threads[i] {
								if _, _, ok := byStep.evalUnchanged(i); ok {
									memo++
								}
							}
							a, errA := byStep.Eval(i)
							b, errB := byState.Eval(i)
							if a != b || (errA == nil) != (errB == nil) || errA != nil && *errA != *errB {
								t.Fatalf("condition %d: LoadStep %v %v, decoded %v %v", i, a, errA, b, errB)
							}
							if errA != nil {
								errs++
							}
							evaluated++
						}
					})
				}
			}
			t.Logf("%d states, %d hits, %d evaluations (%d errors, %d from the memo)", len(states), on.tc.hits, evaluated, errs, memo)
		})
	}
}

// TestReview2ScanSegsWaiting checks that scanSegs reads the states of
// review2-locks.bir in which a thread waits (general shape, wait count 1
// or 2) and agrees with decoding.
func TestReview2ScanSegsWaiting(t *testing.T) {
	m := loadOpts(t, "testdata/review2-locks.bir", Options{TransitionCache: CacheOff})
	general, count2 := 0, 0
	for _, s := range dfsCheck(m, 20000) {
		segs, run, ok := m.scanSegs(nil, nil, s)
		d, dsegs, _ := m.decodeSegs(nil, nil, s)
		off := m.threadOffsets(d, nil)
		waiting := false
		for _, p := range off {
			if d[p+thWaitCount] != 0 {
				waiting = true
				if d[p+thWaitCount] == 2 {
					count2++
				}
			}
		}
		if !ok {
			t.Fatalf("state %q: scanSegs fails", s)
		}
		if !slices.Equal(segs, dsegs) || len(run) != len(off) {
			t.Fatalf("state %q: scanned %v %v, decoded %v", s, segs, run, dsegs)
		}
		for j, p := range off {
			if run[j] != (d[p+thStatus] == 0) {
				t.Fatalf("state %q: thread %d running %v", s, j, run[j])
			}
		}
		if waiting {
			general++
		}
	}
	if general == 0 || count2 == 0 {
		t.Fatalf("%d states with a waiting thread, %d with a wait count of 2", general, count2)
	}
}

// TestReview2Key1 checks that first-level keys of different (thread,
// segment) pairs never compare equal: short keys (packed) are distinct
// and never 0, long keys differ in their bytes or (a thread index of 2^16
// or more, whose two key bytes wrap) in their hash.
func TestReview2Key1(t *testing.T) {
	var tc tcache
	type key struct {
		k, h uint64
		b    string
	}
	var keys []key
	var names []string
	for _, th := range []int{0, 1, 255, 256, 65535, 65536, 65537, 131072} {
		for n := 1; n <= 8; n++ {
			for _, fill := range []byte{0, 1, 0x80, 0xff} {
				for _, last := range []byte{0, fill} {
					seg := make([]byte, n)
					for i := range seg {
						seg[i] = fill
					}
					seg[n-1] = last
					k, h := tc.key1(th, seg)
					b := ""
					if k == 0 {
						b = string(tc.key)
					}
					keys = append(keys, key{k, h, b})
					names = append(names, string(rune(th))+"/"+string(seg))
				}
			}
		}
	}
	for i := range keys {
		for j := range i {
			a, b := keys[i], keys[j]
			if names[i] == names[j] {
				continue
			}
			if a.h == b.h && a.k == b.k && (a.k != 0 || a.b == b.b) {
				t.Fatalf("keys %d and %d compare equal: %+v", i, j, a)
			}
		}
	}
}

// TestReview2WholeValues checks that values of the whole fixed part of
// different lengths or bytes (trailing zeros included) never compare
// equal.
func TestReview2WholeValues(t *testing.T) {
	var tc tcache
	seen := map[[2]uint64]string{}
	long := map[string]bool{}
	for n := 0; n <= 10; n++ {
		for _, fill := range []byte{0, 1, 0xff} {
			fixed := make([]byte, n)
			for i := range fixed {
				fixed[i] = fill
			}
			v, short, _ := tc.values(0, -1, nil, fixed)
			if short != (n <= 7) {
				t.Fatalf("length %d: short %v", n, short)
			}
			if short {
				if prev, ok := seen[[2]uint64{v, 0}]; ok && prev != string(fixed) {
					t.Fatalf("fixed parts %q and %q pack to the same value", prev, fixed)
				}
				seen[[2]uint64{v, 0}] = string(fixed)
			} else {
				if len(tc.vals) == 0 || string(tc.vals) != string(fixed) {
					t.Fatalf("long values %q for %q", tc.vals, fixed)
				}
				long[string(fixed)] = true
			}
		}
	}
}
