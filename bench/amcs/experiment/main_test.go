package main

import (
	"bytes"
	"strconv"
	"strings"
	"testing"
	"time"
)

// TestQuick runs the experiment in quick mode (one run, a short bound) on
// two small models, with an error planted at a successor of the initial
// state: every technique finds it, at depth 1, and the tables are well
// formed.
func TestQuick(t *testing.T) {
	models := []string{"testdata/steps.bir", "testdata/twocount.bir"}
	planted := map[string]bool{}
	cfg := &Config{
		Models:     models,
		Techniques: techniques,
		Time:       200 * time.Millisecond,
		Runs:       1,
		Errors:     40,
		Seed:       1,
		MaxMemory:  256 << 20,
		plant: func(name string, depth1 [][]byte) []byte {
			if len(depth1) == 0 {
				t.Fatalf("%s: no successor of the initial state", name)
			}
			planted[name] = true
			return depth1[len(depth1)-1]
		},
	}
	res, err := Run(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Models) != 2 || !planted["steps"] || !planted["twocount"] {
		t.Fatalf("%d models, planted in %v", len(res.Models), planted)
	}
	for _, mr := range res.Models {
		if !mr.Complete || len(mr.ErrorDepth) != 40 || mr.ErrorDepth[0] != 1 {
			t.Fatalf("%s: complete %v, %d errors, the first at depth %v", mr.Name, mr.Complete, len(mr.ErrorDepth), mr.ErrorDepth)
		}
		for ti, tech := range techniques {
			o := mr.Obs[ti][0][0]
			if !o.Found || o.Depth != 1 {
				t.Errorf("%s, %s: the error planted at depth 1: found %v at depth %d (run ended: %s)", mr.Name, tech.Name, o.Found, o.Depth, mr.Summary[ti][0].End)
			}
		}
	}
	var out bytes.Buffer
	res.WriteTables(&out)
	checkTables(t, out.String(), []string{"steps", "twocount"})
}

// checkTables checks the layout of the experiment's tables: Tables 5.1-5.5
// with a column per technique in the thesis's order and a row per model,
// every cell a number in [0, 1], a 1.00 in every row of the normalized
// tables (an error found by every technique gives someone a point), and
// Table 2.1 with a row per model.
func checkTables(t *testing.T, out string, models []string) {
	t.Helper()
	lines := strings.Split(out, "\n")
	find := func(title string) int {
		for i, l := range lines {
			if strings.HasPrefix(l, title) {
				return i
			}
		}
		t.Fatalf("no %q in\n%s", title, out)
		return 0
	}
	cells := func(l string) []string {
		f := strings.Split(strings.Trim(l, "| "), "|")
		for i := range f {
			f[i] = strings.TrimSpace(f[i])
		}
		return f
	}
	for _, num := range []string{"5.1", "5.2", "5.3", "5.4", "5.5"} {
		i := find("Table " + num + ": " + tableTitles[num])
		head := cells(lines[i+2])
		want := append([]string{"Models"}, techniqueNames()...)
		if strings.Join(head, ",") != strings.Join(want, ",") {
			t.Errorf("Table %s: header %v, want %v", num, head, want)
		}
		for k, name := range models {
			row := cells(lines[i+4+k])
			if len(row) != len(want) || row[0] != name {
				t.Errorf("Table %s: row %d is %v, want %d cells for %s", num, k, row, len(want), name)
				continue
			}
			one := false
			for _, c := range row[1:] {
				v, err := strconv.ParseFloat(c, 64)
				if err != nil || v < 0 || v > 1 || len(c) != 4 {
					t.Errorf("Table %s, %s: cell %q is not a number in [0, 1] with two decimals", num, name, c)
				}
				one = one || c == "1.00"
			}
			if num != "5.2" && !one {
				t.Errorf("Table %s, %s: no technique has 1.00: %v", num, name, row)
			}
		}
		if l := lines[i+4+len(models)]; l != "" {
			t.Errorf("Table %s: more rows than models: %q", num, l)
		}
	}
	i := find("Table 2.1: " + tableTitles["2.1"])
	for k, name := range models {
		row := cells(lines[i+4+k])
		if len(row) != 2 || row[0] != name || row[1] == "" {
			t.Errorf("Table 2.1: row %d is %v", k, row)
		}
	}
}

// TestScoring checks the scoring of §5.5.1 on the thesis's illustrating
// example (40 errors: MinOnly finds 20 first, MaxOverlap 10, 10 are not
// found: 1 and 0.5), ties (a point to each winner), RandDFS's exclusion
// from the predicate table, the sum over runs, and Table 5.2's fraction.
func TestScoring(t *testing.T) {
	techs := []Technique{{Name: "RandDFS", NoPredicates: true}, {Name: "MinOnly"}, {Name: "MaxOverlap"}}
	const n = 40
	mr := &ModelResult{Name: "m", ErrorDepth: make([]int, n)}
	obs := make([][]Observation, len(techs))
	for t := range obs {
		obs[t] = make([]Observation, n)
	}
	at := func(ms, states, preds, depth int) Observation {
		return Observation{Found: true, Time: time.Duration(ms) * time.Millisecond, States: states, Predicates: preds, Depth: depth}
	}
	for e := 0; e < 20; e++ { // MinOnly first; MaxOverlap later or not at all
		obs[1][e] = at(5, 10, 3, 4)
		if e%2 == 0 {
			obs[2][e] = at(9, 20, 5, 6)
		}
	}
	for e := 20; e < 30; e++ { // MaxOverlap alone
		obs[2][e] = at(7, 8, 2, 3)
	}
	// errors 30..39: nobody; RandDFS finds error 0 later than MinOnly with
	// fewer states, and error 2 with MinOnly's states and depth (ties)
	obs[0][0] = at(6, 9, 0, 9)
	obs[0][2] = at(6, 10, 0, 4)
	mr.Obs = [][][]Observation{{obs[0]}, {obs[1]}, {obs[2]}}
	check := func(what string, got []int, want ...int) {
		t.Helper()
		if len(got) != len(want) {
			t.Fatalf("%s: %v, want %v", what, got, want)
		}
		for i := range got {
			if got[i] != want[i] {
				t.Errorf("%s: %v, want %v", what, got, want)
				return
			}
		}
	}
	check("time", mr.Wins(techs, MetricTime), 0, 20, 10)
	check("states", mr.Wins(techs, MetricStates), 2, 19, 10)
	check("depth", mr.Wins(techs, MetricDepth), 1, 20, 10)
	check("predicates", mr.Wins(techs, MetricPredicates), 0, 20, 10)
	if got := mr.Normalized(techs, MetricTime); got[0] != 0 || got[1] != 1 || got[2] != 0.5 {
		t.Errorf("normalized time %v, want [0 1 0.5]", got)
	}
	if got := mr.FoundFraction(techs); got[0] != 2.0/n || got[1] != 20.0/n || got[2] != 20.0/n {
		t.Errorf("found %v, want [0.05 0.5 0.5]", got)
	}
	// a second run, the same: the points double, the normalized scores stay
	for t := range mr.Obs {
		mr.Obs[t] = append(mr.Obs[t], append([]Observation(nil), mr.Obs[t][0]...))
	}
	check("time, two runs", mr.Wins(techs, MetricTime), 0, 40, 20)
	if got := mr.Normalized(techs, MetricTime); got[2] != 0.5 {
		t.Errorf("normalized time over two runs %v", got)
	}
	// times within the same millisecond tie (in the first run)
	mr.Obs[0][0][0].Time = 5*time.Millisecond + 400*time.Microsecond
	check("time, a tie", mr.Wins(techs, MetricTime), 1, 40, 20)
}

// TestUsage checks the command line's errors: exit status 2.
func TestUsage(t *testing.T) {
	for _, args := range [][]string{{}, {"-techniques", "nosuch", "testdata/steps.bir"}, {"-runs", "0", "testdata/steps.bir"}, {"testdata/nosuch.bir"}} {
		var out, errb bytes.Buffer
		if code := run(args, &out, &errb); code != 2 || errb.Len() == 0 {
			t.Errorf("%v: exit %d, stderr %q", args, code, errb.String())
		}
	}
}

// TestObserverBound checks that an error a search generates after the time
// bound (a search may overrun its limit) does not count, that one within
// it counts once (its first generation), and that finding every error
// stops the run.
func TestObserverBound(t *testing.T) {
	o := &observer{index: map[string]int{"a": 0, "b": 1}, obs: make([]Observation, 2), bound: time.Hour, start: time.Now()}
	o.see([]byte("a"), 3, 10, 2, 1)
	o.see([]byte("a"), 1, 20, 4, 2)
	o.see([]byte("c"), 1, 20, 4, 2)
	if got := o.obs[0]; !got.Found || got.Depth != 3 || got.States != 10 || got.Predicates != 2 || got.Round != 1 || o.found != 1 || o.stop.Load() {
		t.Fatalf("first generation: %+v, found %d, stop %v", got, o.found, o.stop.Load())
	}
	o.bound, o.start = time.Millisecond, time.Now().Add(-time.Second)
	o.see([]byte("b"), 1, 1, 1, 1)
	if o.obs[1].Found || o.found != 1 || !o.stop.Load() {
		t.Fatalf("after the bound: %+v, found %d, stop %v", o.obs[1], o.found, o.stop.Load())
	}
	o.stop.Store(false)
	o.bound = time.Hour
	o.see([]byte("b"), 1, 1, 1, 1)
	if !o.obs[1].Found || o.found != 2 || !o.stop.Load() {
		t.Fatalf("every error found: %+v, found %d, stop %v", o.obs[1], o.found, o.stop.Load())
	}
}

// TestBeside checks that birch's cells are written with the thesis's
// number of the same model and technique beside them ("-" for a model the
// thesis's table does not have).
func TestBeside(t *testing.T) {
	techs := []Technique{{Name: "RandDFS", NoPredicates: true}, {Name: "MinSet"}}
	found := Observation{Found: true, Time: time.Millisecond, States: 1, Predicates: 1, Depth: 1}
	mk := func(name string) *ModelResult {
		return &ModelResult{Name: name, ErrorDepth: []int{1}, Table21: "NT",
			Obs: [][][]Observation{{{found}}, {{{}}}}, Summary: [][]RunSummary{{{}}, {{}}}}
	}
	res := &Result{Cfg: &Config{Techniques: techs, Runs: 1, Errors: 1}, Models: []*ModelResult{mk("Branches"), mk("Other")}}
	var out bytes.Buffer
	res.WriteBeside(&out)
	for _, want := range []string{
		"| Branches | 1.00 (0.22) | 0.00 (0.33) |", // Table 5.1: RandDFS, MinSet
		"| Other    |    1.00 (-) |    0.00 (-) |",
		"| Branches | NT    | NT     |", // Table 2.1
		"| Other    | NT    | -      |",
	} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("no %q in\n%s", want, out.String())
		}
	}
}

// TestHeadToHead checks the comparison with RandDFS on the errors both
// found: MinOnly is faster on one of the two, stores fewer states on both,
// and has the shorter trail on none; error 2, which RandDFS did not find,
// counts only in MinOnly's found and mean columns.
func TestHeadToHead(t *testing.T) {
	techs := []Technique{{Name: "RandDFS", NoPredicates: true}, {Name: "MinOnly"}}
	at := func(ms, states, depth int) Observation {
		return Observation{Found: true, Time: time.Duration(ms) * time.Millisecond, States: states, Depth: depth}
	}
	mr := &ModelResult{Name: "m", ErrorDepth: []int{3, 4, 5}, Obs: [][][]Observation{
		{{at(5, 100, 3), at(5, 100, 9), {}}},
		{{at(2, 10, 3), at(9, 10, 9), at(1, 1, 5)}},
	}}
	res := &Result{Cfg: &Config{Techniques: techs}, Models: []*ModelResult{mr}}
	var out bytes.Buffer
	res.writeHeadToHead(&out, "RandDFS")
	for _, want := range []string{"| RandDFS | - | - | - | - | 2 | 6.0 | 3.5 |", "| MinOnly | 2 | 1 | 2 | 0 | 3 | 5.7 | 4.0 |"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("no %q in\n%s", want, out.String())
		}
	}
}
