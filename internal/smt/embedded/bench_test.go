package embedded

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"birch/internal/smt"
)

// predAbsQueries builds n queries shaped like predicate abstraction's: a
// cube of 2–8 atoms over 2–6 integer variables, and the weakest
// precondition of a predicate under an assignment x := e. The query asks
// whether the cube implies the precondition.
func predAbsQueries(tm *smt.TermManager, r *rand.Rand, n int) [][2]*smt.Term {
	var vars []*smt.Term
	for i := range 6 {
		vars = append(vars, tm.Const(fmt.Sprintf("v%d", i), smt.IntSort))
	}
	var qs [][2]*smt.Term
	for range n {
		vs := vars[:2+r.IntN(5)]
		pick := func() *smt.Term { return vs[r.IntN(len(vs))] }
		lin := func() *smt.Term {
			switch r.IntN(4) {
			case 0:
				return pick()
			case 1:
				return tm.Add(pick(), tm.Int(r.Int64N(5)-2))
			case 2:
				return tm.Add(pick(), pick())
			}
			return tm.Sub(tm.Scale(r.Int64N(3)+1, pick()), pick())
		}
		atom := func() *smt.Term {
			a, b := lin(), tm.Int(r.Int64N(11)-5)
			if r.IntN(2) == 0 {
				b = pick()
			}
			switch r.IntN(5) {
			case 0:
				return tm.Lt(a, b)
			case 1:
				return tm.Le(a, b)
			case 2:
				return tm.Eq(a, b)
			case 3:
				return tm.Not(tm.Eq(a, b))
			}
			return tm.Ge(a, b)
		}
		var cube []*smt.Term
		for range 2 + r.IntN(7) {
			a := atom()
			if r.IntN(3) == 0 {
				a = tm.Not(a)
			}
			cube = append(cube, a)
		}
		post := atom()
		x := pick()
		wp := tm.Substitute(post, map[*smt.Term]*smt.Term{x: lin()})
		qs = append(qs, [2]*smt.Term{tm.And(cube...), wp})
	}
	return qs
}

// predAbsPrograms builds queries as one abstraction pass asks them: per
// program, 2–6 integer variables, a pool of 10 predicates and 3
// assignments; each query is a cube of 2–8 pool predicates (some negated)
// against the weakest precondition of a pool predicate under an
// assignment. Predicates recur across queries, as they do in practice.
func predAbsPrograms(tm *smt.TermManager, r *rand.Rand, programs, perProgram int) [][2]*smt.Term {
	var qs [][2]*smt.Term
	for p := range programs {
		var vs []*smt.Term
		for i := range 2 + r.IntN(5) {
			vs = append(vs, tm.Const(fmt.Sprintf("p%d_v%d", p, i), smt.IntSort))
		}
		pick := func() *smt.Term { return vs[r.IntN(len(vs))] }
		lin := func() *smt.Term {
			switch r.IntN(4) {
			case 0:
				return pick()
			case 1:
				return tm.Add(pick(), tm.Int(r.Int64N(5)-2))
			case 2:
				return tm.Add(pick(), pick())
			}
			return tm.Sub(tm.Scale(r.Int64N(3)+1, pick()), pick())
		}
		var pool []*smt.Term
		for range 10 {
			a, b := lin(), tm.Int(r.Int64N(11)-5)
			if r.IntN(2) == 0 {
				b = pick()
			}
			switch r.IntN(4) {
			case 0:
				pool = append(pool, tm.Lt(a, b))
			case 1:
				pool = append(pool, tm.Le(a, b))
			case 2:
				pool = append(pool, tm.Eq(a, b))
			default:
				pool = append(pool, tm.Ge(a, b))
			}
		}
		var assigns []map[*smt.Term]*smt.Term
		for range 3 {
			assigns = append(assigns, map[*smt.Term]*smt.Term{pick(): lin()})
		}
		for range perProgram {
			var cube []*smt.Term
			for _, i := range r.Perm(len(pool))[:2+r.IntN(7)] {
				a := pool[i]
				if r.IntN(2) == 0 {
					a = tm.Not(a)
				}
				cube = append(cube, a)
			}
			wp := tm.Substitute(pool[r.IntN(len(pool))], assigns[r.IntN(len(assigns))])
			qs = append(qs, [2]*smt.Term{tm.And(cube...), wp})
		}
	}
	return qs
}

// BenchmarkPredicateAbstractionPass reports the median latency of one
// implication query on a long-lived solver over recurring predicates.
func BenchmarkPredicateAbstractionPass(b *testing.B) {
	tm := smt.NewTermManager()
	qs := predAbsPrograms(tm, rand.New(rand.NewPCG(2, 2)), 20, 100)
	benchQueries(b, tm, qs)
}

// BenchmarkPredicateAbstraction reports the median latency of one
// implication query on a long-lived solver over 1000 distinct random
// queries (little reuse of encodings).
func BenchmarkPredicateAbstraction(b *testing.B) {
	tm := smt.NewTermManager()
	qs := predAbsQueries(tm, rand.New(rand.NewPCG(1, 1)), 1000)
	benchQueries(b, tm, qs)
}

// benchQueries asks the queries in turn (Push, Assert cube and ¬wp, Check,
// Pop) of one solver and reports the median and 90th percentile latency.
func benchQueries(b *testing.B, tm *smt.TermManager, qs [][2]*smt.Term) {
	nots := make([]*smt.Term, len(qs))
	for i, q := range qs {
		nots[i] = tm.Not(q[1])
	}
	s := New(tm)
	times := make([]time.Duration, 0, b.N)
	results := map[smt.Result]int{}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		k := i % len(qs)
		t0 := time.Now()
		s.Push()
		s.Assert(qs[k][0])
		s.Assert(nots[k])
		r, _ := s.Check()
		s.Pop(1)
		times = append(times, time.Since(t0))
		results[r]++
	}
	b.StopTimer()
	slices.Sort(times)
	b.ReportMetric(float64(times[len(times)/2].Nanoseconds()), "median-ns/query")
	b.ReportMetric(float64(times[len(times)*9/10].Nanoseconds()), "p90-ns/query")
	if results[smt.Unknown] > 0 {
		b.Logf("%d unknown of %d", results[smt.Unknown], b.N)
	}
}

// TestPredicateAbstractionQueries checks the benchmark's queries against
// fresh solvers: a long-lived solver must answer as a new one does.
func TestPredicateAbstractionQueries(t *testing.T) {
	tm := smt.NewTermManager()
	qs := predAbsQueries(tm, rand.New(rand.NewPCG(1, 1)), 300)
	qs = append(qs, predAbsPrograms(tm, rand.New(rand.NewPCG(2, 2)), 5, 60)...)
	s := New(tm)
	counts := map[smt.Result]int{}
	for i, q := range qs {
		ok, err := smt.Implies(s, q[0], q[1])
		fresh := New(tm)
		fresh.Assert(q[0])
		fresh.Assert(tm.Not(q[1]))
		r, _ := fresh.Check()
		counts[r]++
		if err != nil || ok != (r == smt.Unsat) {
			t.Fatalf("query %d: implies %v (%v), fresh solver %v", i, ok, err, r)
		}
	}
	t.Logf("%v", counts)
}

// BenchmarkPredicateAbstractionFresh asks each query of a new solver.
func BenchmarkPredicateAbstractionFresh(b *testing.B) {
	tm := smt.NewTermManager()
	qs := predAbsQueries(tm, rand.New(rand.NewPCG(1, 1)), 1000)
	times := make([]time.Duration, 0, b.N)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		q := qs[i%len(qs)]
		t0 := time.Now()
		s := New(tm)
		s.Assert(q[0])
		s.Assert(tm.Not(q[1]))
		s.Check()
		times = append(times, time.Since(t0))
	}
	b.StopTimer()
	slices.Sort(times)
	b.ReportMetric(float64(times[len(times)/2].Nanoseconds()), "median-ns/query")
	b.ReportMetric(float64(times[len(times)*9/10].Nanoseconds()), "p90-ns/query")
}
