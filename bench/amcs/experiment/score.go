package main

import (
	"fmt"
	"io"
	"runtime"
	"strings"
	"time"
	"unicode"
)

// Metric is one of the scored categories of §5.5.1: for each injected
// error, a point to each technique whose value at the error's discovery is
// the least among the techniques that found it (ties: a point to each).
type Metric int

// Metrics, in the order of the thesis's tables.
const (
	MetricTime Metric = iota
	MetricStates
	MetricDepth
	MetricPredicates
	numMetrics
)

// timeResolution is the resolution at which discovery times compare: two
// techniques that find an error within the same millisecond tie.
const timeResolution = time.Millisecond

func (mt Metric) value(o Observation) int64 {
	switch mt {
	case MetricTime:
		return int64(o.Time / timeResolution)
	case MetricStates:
		return int64(o.States)
	case MetricDepth:
		return int64(o.Depth)
	}
	return int64(o.Predicates)
}

// competes reports whether technique t competes on metric mt: a technique
// without predicates (RandomDFS) has none to win on, as in the thesis's
// Table 5.5, where RandDFS has 0.00 on every model (even on DiningPhil,
// where it found every error).
func (mt Metric) competes(t Technique) bool {
	return mt != MetricPredicates || !t.NoPredicates
}

// Wins counts, for model mr, the points of each technique on metric mt,
// summed over the runs: each run is scored on its own (run r of every
// technique against run r of the others: the same errors, each technique
// with the run's seed), which is the thesis's points averaged over the runs
// times the number of runs; normalizing removes the factor.
func (mr *ModelResult) Wins(techs []Technique, mt Metric) []int {
	wins := make([]int, len(techs))
	for r := range mr.Obs[0] {
		for e := range mr.ErrorDepth {
			best, any := int64(0), false
			for t := range techs {
				o := mr.Obs[t][r][e]
				if !o.Found || !mt.competes(techs[t]) {
					continue
				}
				if v := mt.value(o); !any || v < best {
					best, any = v, true
				}
			}
			if !any {
				continue
			}
			for t := range techs {
				o := mr.Obs[t][r][e]
				if o.Found && mt.competes(techs[t]) && mt.value(o) == best {
					wins[t]++
				}
			}
		}
	}
	return wins
}

// Normalized is Wins divided by the most wins of any technique: the one
// that wins on most errors gets 1 (all get 0 when no error was found).
func (mr *ModelResult) Normalized(techs []Technique, mt Metric) []float64 {
	wins := mr.Wins(techs, mt)
	most := 0
	for _, w := range wins {
		most = max(most, w)
	}
	out := make([]float64, len(wins))
	for t, w := range wins {
		if most > 0 {
			out[t] = float64(w) / float64(most)
		}
	}
	return out
}

// FoundFraction is, per technique, the fraction of the injected errors it
// found, averaged over the runs (Table 5.2).
func (mr *ModelResult) FoundFraction(techs []Technique) []float64 {
	out := make([]float64, len(techs))
	for t := range techs {
		n := 0
		for _, run := range mr.Obs[t] {
			for _, o := range run {
				if o.Found {
					n++
				}
			}
		}
		out[t] = float64(n) / float64(len(mr.Obs[t])*len(mr.ErrorDepth))
	}
	return out
}

// tableTitles are the thesis's captions.
var tableTitles = map[string]string{
	"5.1": "Normalized time results",
	"5.2": "Per model fraction of errors found over total errors",
	"5.3": "Normalized states results",
	"5.4": "Normalized error depth results",
	"5.5": "Normalized predicate results",
	"2.1": "AMCS error-free search",
}

// writeTable writes a table in the thesis's layout (models as rows,
// techniques as columns) as a Markdown table.
func writeTable(w io.Writer, num string, cols []string, rows []string, cell func(r, c int) string) {
	fmt.Fprintf(w, "Table %s: %s\n\n", num, tableTitles[num])
	width := make([]int, len(cols)+1)
	width[0] = len("Models")
	for _, r := range rows {
		width[0] = max(width[0], len(r))
	}
	cells := make([][]string, len(rows))
	for r := range rows {
		for c := range cols {
			cells[r] = append(cells[r], cell(r, c))
		}
	}
	for c, h := range cols {
		width[c+1] = len(h)
		for r := range rows {
			width[c+1] = max(width[c+1], len(cells[r][c]))
		}
	}
	line := func(first string, rest []string, left bool) {
		fmt.Fprintf(w, "| %-*s |", width[0], first)
		for c, s := range rest {
			if left {
				fmt.Fprintf(w, " %-*s |", width[c+1], s)
			} else {
				fmt.Fprintf(w, " %*s |", width[c+1], s)
			}
		}
		fmt.Fprintln(w)
	}
	// numbers right-aligned, text (Table 2.1) left-aligned
	left := false
	for r := range cells {
		for _, c := range cells[r] {
			left = left || strings.IndexFunc(c, unicode.IsLetter) >= 0
		}
	}
	line("Models", cols, left)
	fmt.Fprintf(w, "|%s|", strings.Repeat("-", width[0]+2))
	for c := range cols {
		if left {
			fmt.Fprintf(w, "%s|", strings.Repeat("-", width[c+1]+2))
		} else {
			fmt.Fprintf(w, "%s:|", strings.Repeat("-", width[c+1]+1))
		}
	}
	fmt.Fprintln(w)
	for r, name := range rows {
		line(name, cells[r], left)
	}
	fmt.Fprintln(w)
}

// WriteTables writes the five tables of the thesis's §5.5, the analogue of
// its Table 2.1, and the raw counts behind them.
func (res *Result) WriteTables(w io.Writer) {
	cfg := res.Cfg
	techs := cfg.Techniques
	var cols, rows []string
	for _, t := range techs {
		cols = append(cols, t.Name)
	}
	for _, mr := range res.Models {
		rows = append(rows, mr.Name)
	}
	fmt.Fprintf(w, "# The AMCS experiment (Kudra 2007, Chapter 5) on birch\n\n")
	fmt.Fprintf(w, "%d models, %d injected errors each (seed %d), %d run(s) per technique, time bound %s per model, technique and run; started %s, took %s.\n\n",
		len(res.Models), cfg.Errors, cfg.Seed, cfg.Runs, cfg.Time, res.Start.UTC().Format("2006-01-02 15:04 MST"), res.Took.Round(time.Second))
	if !cfg.NoTable21 && cfg.Time21 > 0 {
		fmt.Fprintf(w, "Table 2.1's error-free AMCS search: time bound %s per model.\n\n", cfg.Time21)
	}
	fmt.Fprintf(w, "Machine: %d CPUs (runtime.NumCPU), %s/%s", runtime.NumCPU(), runtime.GOOS, runtime.GOARCH)
	if res.Load[0] != "" {
		fmt.Fprintf(w, ", load average %s at the start and %s at the end", res.Load[0], res.Load[1])
	}
	fmt.Fprintf(w, ".\n\n")
	fmt.Fprintf(w, "Scoring (§5.5.1): per error and run, a point to every technique with the least value among those that found it (ties: all); time at %s resolution; RandDFS does not compete on predicates (it has none; 0.00 as in the thesis's Table 5.5); each run scored on its own and the points summed over the runs; each row normalized so that the technique with most points has 1.00.\n\n", timeResolution)
	for _, num := range []string{"5.1", "5.2", "5.3", "5.4", "5.5"} {
		cells := res.cells(num)
		writeTable(w, num, cols, rows, func(r, c int) string { return cells[r][c] })
	}
	if !cfg.NoTable21 {
		writeTable(w, "2.1", []string{"States Explored"}, rows, func(r, _ int) string { return res.Models[r].Table21 })
	}
	res.writeHeadToHead(w, "RandDFS")
	res.writeDetails(w)
}

// tableMetric is the metric of each normalized table.
var tableMetric = map[string]Metric{"5.1": MetricTime, "5.3": MetricStates, "5.4": MetricDepth, "5.5": MetricPredicates}

// cells are the cells of Table num (5.1-5.5), a row per model and a
// column per technique.
func (res *Result) cells(num string) [][]string {
	out := make([][]string, len(res.Models))
	for i, mr := range res.Models {
		var vals []float64
		if num == "5.2" {
			vals = mr.FoundFraction(res.Cfg.Techniques)
		} else {
			vals = mr.Normalized(res.Cfg.Techniques, tableMetric[num])
		}
		for _, v := range vals {
			out[i] = append(out[i], fmt.Sprintf("%.2f", v))
		}
	}
	return out
}

// writeHeadToHead compares each technique with a reference one (RandDFS)
// on the errors both found in the same run, over every model: the wins of
// the tables count an error found by one technique alone as its win, and
// this shows who is ahead where both find it. It also compares the trails
// with the shortest distances of the errors.
func (res *Result) writeHeadToHead(w io.Writer, ref string) {
	techs := res.Cfg.Techniques
	r := -1
	for t, tech := range techs {
		if tech.Name == ref {
			r = t
		}
	}
	if r < 0 {
		return
	}
	fmt.Fprintf(w, "## Head to head with %s\n\n", ref)
	fmt.Fprintf(w, "On the errors a technique and %s both found in the same run (all models and runs): how often the technique was faster (by a millisecond or more), stored fewer states, had a shorter trail; and the mean trail length of every error the technique found against the mean shortest distance of those errors (breadth-first).\n\n", ref)
	fmt.Fprintf(w, "| technique | found by both | faster | fewer states | shorter trail | found | mean trail | mean shortest |\n")
	fmt.Fprintf(w, "|---|---:|---:|---:|---:|---:|---:|---:|\n")
	for t, tech := range techs {
		both, faster, fewer, shorter, found, depth, shortest := 0, 0, 0, 0, 0, 0, 0
		for _, mr := range res.Models {
			for run := range mr.Obs[t] {
				for e, o := range mr.Obs[t][run] {
					if !o.Found {
						continue
					}
					found++
					depth += o.Depth
					shortest += mr.ErrorDepth[e]
					p := mr.Obs[r][run][e]
					if t == r || !p.Found {
						continue
					}
					both++
					faster += b2i(MetricTime.value(o) < MetricTime.value(p))
					fewer += b2i(o.States < p.States)
					shorter += b2i(o.Depth < p.Depth)
				}
			}
		}
		mean := func(n int) string {
			if found == 0 {
				return "-"
			}
			return fmt.Sprintf("%.1f", float64(n)/float64(found))
		}
		if t == r {
			fmt.Fprintf(w, "| %s | - | - | - | - | %d | %s | %s |\n", tech.Name, found, mean(depth), mean(shortest))
			continue
		}
		fmt.Fprintf(w, "| %s | %d | %d | %d | %d | %d | %s | %s |\n", tech.Name, both, faster, fewer, shorter, found, mean(depth), mean(shortest))
	}
	fmt.Fprintln(w)
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// writeDetails writes the raw numbers behind the tables: per model and
// technique the errors found, the points on each metric, the rounds and
// how the runs ended.
func (res *Result) writeDetails(w io.Writer) {
	techs := res.Cfg.Techniques
	fmt.Fprintf(w, "## Details\n\n")
	for _, mr := range res.Models {
		fmt.Fprintf(w, "%s (%s): %d reachable states%s; injected errors at shortest depths %s.\n\n",
			mr.Name, mr.Path, mr.States, mr.EnumNote, depthRange(mr.ErrorDepth))
		fmt.Fprintf(w, "| technique | found (%d errors x %d runs) | time pts | states pts | depth pts | predicate pts | rounds (mean) | first run ended |\n", len(mr.ErrorDepth), len(mr.Obs[0]))
		fmt.Fprintf(w, "|---|---:|---:|---:|---:|---:|---:|---|\n")
		var wins [numMetrics][]int
		for mt := Metric(0); mt < numMetrics; mt++ {
			wins[mt] = mr.Wins(techs, mt)
		}
		for t, tech := range techs {
			found, rounds := 0, 0
			for r, run := range mr.Obs[t] {
				for _, o := range run {
					if o.Found {
						found++
					}
				}
				rounds += mr.Summary[t][r].Rounds
			}
			fmt.Fprintf(w, "| %s | %d | %d | %d | %d | %d | %.1f | %s |\n", tech.Name, found,
				wins[MetricTime][t], wins[MetricStates][t], wins[MetricDepth][t], wins[MetricPredicates][t],
				float64(rounds)/float64(len(mr.Obs[t])), strings.ReplaceAll(mr.Summary[t][0].End, "|", "/"))
		}
		fmt.Fprintln(w)
	}
}

func depthRange(ds []int) string {
	if len(ds) == 0 {
		return "-"
	}
	lo, hi, sum := ds[0], ds[0], 0
	for _, d := range ds {
		lo, hi, sum = min(lo, d), max(hi, d), sum+d
	}
	return fmt.Sprintf("%d..%d (mean %.1f)", lo, hi, float64(sum)/float64(len(ds)))
}

// WriteObservations writes every observation as tab-separated values.
func (res *Result) WriteObservations(w io.Writer) {
	fmt.Fprintln(w, "model\ttechnique\trun\terror\tshortest_depth\tfound\tseconds\tstates\tpredicates\tround\tdepth")
	for _, mr := range res.Models {
		for t, tech := range res.Cfg.Techniques {
			for r, run := range mr.Obs[t] {
				for e, o := range run {
					fmt.Fprintf(w, "%s\t%s\t%d\t%d\t%d\t%t", mr.Name, tech.Name, r+1, e, mr.ErrorDepth[e], o.Found)
					if o.Found {
						fmt.Fprintf(w, "\t%.6f\t%d\t%d\t%d\t%d\n", o.Time.Seconds(), o.States, o.Predicates, o.Round, o.Depth)
					} else {
						fmt.Fprintf(w, "\t\t\t\t\t\n")
					}
				}
			}
		}
	}
}
