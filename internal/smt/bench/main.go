// Command bench measures birch's decision procedures side by side: the
// embedded solver against z3 (and cvc5) over pipes, in the same run, on
//
//   - predicate abstraction's queries (package gen's PredAbs: a cube of 2–8
//     atoms implies a weakest precondition over 2–6 integer variables, some
//     with uninterpreted functions), one Implies query at a time — push,
//     assert the cube, assert the negated precondition, check, pop — on one
//     long-lived solver per workload; it prints the median, 90th percentile
//     and mean latency per query;
//   - generated QF_LIA problems of growing size (package gen, fragment
//     lia), each in its own scope; it prints the time per problem.
//
// Run it from the module root:
//
//	go run ./internal/smt/bench
//	go run ./internal/smt/bench -n 5000 -solvers embedded,z3,cvc5 -lia-sizes 4x8,64x128
//
// Every answer is compared across the solvers; a disagreement (one says
// valid or sat, another invalid or unsat) is reported and makes the exit
// status 1.
package main

import (
	"flag"
	"fmt"
	"os"
	"runtime"
	"runtime/pprof"
	"slices"
	"strconv"
	"strings"
	"time"

	"birch/internal/smt"
	"birch/internal/smt/gen"
	"birch/internal/smt/solvers"
)

func main() {
	n := flag.Int("n", 2000, "queries per predicate abstraction workload")
	warm := flag.Int("warmup", 300, "queries asked of each solver before measuring (other seeds)")
	names := flag.String("solvers", "embedded,z3", "comma-separated solvers to compare")
	sizes := flag.String("lia-sizes", "4x8,8x12,16x16,32x24,64x32,128x48", "QF_LIA problem sizes, VARSxCLAUSES, comma-separated (empty: none)")
	liaN := flag.Int("lia-n", 40, "QF_LIA problems per size")
	timeout := flag.Duration("timeout", 10*time.Second, "limit per QF_LIA problem")
	cpuprofile := flag.String("cpuprofile", "", "write a CPU profile of the run to this file")
	only := flag.String("workloads", "", "run only the predicate abstraction workloads whose names contain this string")
	flag.Parse()
	if *cpuprofile != "" {
		f, err := os.Create(*cpuprofile)
		if err != nil {
			fmt.Fprintln(os.Stderr, "bench:", err)
			os.Exit(2)
		}
		if err := pprof.StartCPUProfile(f); err != nil {
			fmt.Fprintln(os.Stderr, "bench:", err)
			os.Exit(2)
		}
		defer pprof.StopCPUProfile()
	}

	var ss []string
	for _, name := range strings.Split(*names, ",") {
		if !solvers.Available(name) {
			fmt.Fprintf(os.Stderr, "bench: %s is not available, skipped\n", name)
			continue
		}
		ss = append(ss, name)
	}
	if len(ss) == 0 {
		fmt.Fprintln(os.Stderr, "bench: no solver available")
		os.Exit(2)
	}
	fmt.Printf("birch smt bench: %s, %s/%s, GOMAXPROCS %d, %s\n", runtime.Version(), runtime.GOOS, runtime.GOARCH,
		runtime.GOMAXPROCS(0), time.Now().Format("2006-01-02 15:04"))
	bad := false

	fmt.Printf("\nPredicate abstraction: one Implies query (push, assert cube, assert ¬wp, check, pop), %d queries per workload\n\n", *n)
	fmt.Printf("| workload | valid |")
	for _, name := range ss {
		fmt.Printf(" %s median | p90 | mean |", name)
	}
	fmt.Printf(" disagreements |\n|---|---|")
	for range ss {
		fmt.Printf("---|---|---|")
	}
	fmt.Printf("---|\n")
	workloads := []struct {
		name string
		cfg  gen.PredAbsConfig
	}{
		{"distinct queries, LIA", gen.PredAbsConfig{}},
		{"distinct queries, LIA+UF", gen.PredAbsConfig{UF: true}},
		{"abstraction passes (recurring predicates), LIA", gen.PredAbsConfig{Programs: *n / 100, PerProgram: 100}},
		{"abstraction passes (recurring predicates), LIA+UF", gen.PredAbsConfig{UF: true, Programs: *n / 100, PerProgram: 100}},
	}
	for _, w := range workloads {
		if !strings.Contains(w.name, *only) {
			continue
		}
		var answers [][]smt.Result
		var times [][]time.Duration
		for _, name := range ss {
			tm := smt.NewTermManager()
			qs := gen.PredAbs(tm, 1, *n, w.cfg)
			wcfg := w.cfg
			if wcfg.Programs > 0 {
				wcfg.Programs = max(1, *warm/wcfg.PerProgram)
			}
			warmup := gen.PredAbs(tm, 2, *warm, wcfg)
			s, err := solvers.New(name, tm)
			if err != nil {
				fmt.Fprintln(os.Stderr, "bench:", err)
				os.Exit(2)
			}
			for _, q := range warmup {
				smt.Implies(s, q.Cube, q.WP)
			}
			rs := make([]smt.Result, len(qs))
			ts := make([]time.Duration, len(qs))
			for i, q := range qs {
				t0 := time.Now()
				ok, err := smt.Implies(s, q.Cube, q.WP)
				ts[i] = time.Since(t0)
				switch {
				case err != nil:
					rs[i] = smt.Unknown
				case ok:
					rs[i] = smt.Unsat // the negation is unsat: valid
				default:
					rs[i] = smt.Sat
				}
			}
			s.Close()
			answers = append(answers, rs)
			times = append(times, ts)
		}
		valid := 0
		for _, r := range answers[0] {
			if r == smt.Unsat {
				valid++
			}
		}
		fmt.Printf("| %s | %d |", w.name, valid)
		for i := range ss {
			st := stats(times[i])
			fmt.Printf(" %s | %s | %s |", us(st.median), us(st.p90), us(st.mean))
		}
		d := disagreements(answers)
		fmt.Printf(" %d |\n", d)
		bad = bad || d > 0
		for i, name := range ss {
			if u := count(answers[i], smt.Unknown); u > 0 {
				fmt.Printf("|   %s: %d unknown |\n", name, u)
			}
		}
	}

	if *sizes != "" {
		fmt.Printf("\nQF_LIA problems (package gen, fragment lia, as in the differential test: clauses of 1–3 literals over a pool of atoms with + and * by constants, div and mod by constants, ite, over VARS variables), %d per size, each in a scope of a long-lived solver, limit %v\n\n", *liaN, *timeout)
		fmt.Printf("| vars × clauses |")
		for _, name := range ss {
			fmt.Printf(" %s median | mean | max | sat/unsat/unknown |", name)
		}
		fmt.Printf(" disagreements |\n|---|")
		for range ss {
			fmt.Printf("---|---|---|---|")
		}
		fmt.Printf("---|\n")
		for _, size := range strings.Split(*sizes, ",") {
			v, c, ok := strings.Cut(size, "x")
			nv, err1 := strconv.Atoi(v)
			nc, err2 := strconv.Atoi(c)
			if !ok || err1 != nil || err2 != nil {
				fmt.Fprintf(os.Stderr, "bench: bad size %q (want VARSxCLAUSES)\n", size)
				os.Exit(2)
			}
			var answers [][]smt.Result
			var times [][]time.Duration
			for _, name := range ss {
				tm := smt.NewTermManager()
				g := gen.New(tm, uint64(nv*1000+nc), gen.Config{Fragment: gen.LIA, Vars: nv})
				s, err := solvers.New(name, tm)
				if err != nil {
					fmt.Fprintln(os.Stderr, "bench:", err)
					os.Exit(2)
				}
				s.SetLimit(smt.Limit{Timeout: *timeout})
				rs := make([]smt.Result, *liaN)
				ts := make([]time.Duration, *liaN)
				for i := range *liaN {
					p := g.Problem(nc)
					t0 := time.Now()
					s.Push()
					for _, f := range p {
						s.Assert(f)
					}
					r, err := s.Check()
					s.Pop(1)
					ts[i] = time.Since(t0)
					rs[i] = r
					if err != nil {
						// a process that failed is not usable: start another
						s.Close()
						if s, err = solvers.New(name, tm); err != nil {
							fmt.Fprintln(os.Stderr, "bench:", err)
							os.Exit(2)
						}
						s.SetLimit(smt.Limit{Timeout: *timeout})
					}
				}
				s.Close()
				answers = append(answers, rs)
				times = append(times, ts)
			}
			fmt.Printf("| %d × %d |", nv, nc)
			for i := range ss {
				st := stats(times[i])
				fmt.Printf(" %s | %s | %s | %d/%d/%d |", us(st.median), us(st.mean), us(st.max),
					count(answers[i], smt.Sat), count(answers[i], smt.Unsat), count(answers[i], smt.Unknown))
			}
			d := disagreements(answers)
			fmt.Printf(" %d |\n", d)
			bad = bad || d > 0
		}
	}
	if bad {
		fmt.Println("\nthe solvers disagree")
		pprof.StopCPUProfile()
		os.Exit(1)
	}
}

type summary struct{ median, p90, mean, max time.Duration }

func stats(ts []time.Duration) summary {
	s := slices.Clone(ts)
	slices.Sort(s)
	var sum time.Duration
	for _, t := range s {
		sum += t
	}
	return summary{s[len(s)/2], s[len(s)*9/10], sum / time.Duration(len(s)), s[len(s)-1]}
}

// us prints a duration in microseconds, or in milliseconds from 10 ms.
func us(d time.Duration) string {
	if d >= 10*time.Millisecond {
		return fmt.Sprintf("%.1f ms", float64(d)/1e6)
	}
	return fmt.Sprintf("%.1f µs", float64(d)/1e3)
}

func count(rs []smt.Result, r smt.Result) int {
	n := 0
	for _, x := range rs {
		if x == r {
			n++
		}
	}
	return n
}

// disagreements counts the queries on which two solvers gave different
// decided answers.
func disagreements(answers [][]smt.Result) int {
	n := 0
	for i := range answers[0] {
		var first smt.Result
		for _, rs := range answers {
			r := rs[i]
			if r == smt.Unknown {
				continue
			}
			if first == smt.Unknown {
				first = r
			} else if r != first {
				n++
				break
			}
		}
	}
	return n
}
