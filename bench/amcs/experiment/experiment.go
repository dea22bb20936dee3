package main

import (
	"fmt"
	"hash/fnv"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"time"

	"birch/internal/model"
	"birch/internal/search"
	"birch/internal/verify"
)

// Config configures an experiment.
type Config struct {
	Models     []string // BIR files
	Techniques []Technique
	Time       time.Duration // bound per model, technique and run
	Time21     time.Duration // bound of Table 2.1's search; 0: Time
	Runs       int
	Errors     int // injected errors per model
	Seed       uint64
	MaxMemory  int64 // bytes one search may hold; 0: unbounded
	EnumLimit  int   // states the enumeration stores at most; 0: unbounded
	NoTable21  bool
	Log        io.Writer // progress; nil: none
	// plant, in tests, is called with the model's name and the states of
	// depth 1 (successors of the initial state) and may return one of them
	// to replace the first injected error.
	plant func(name string, depth1 [][]byte) []byte
}

// Observation is what one run of a technique recorded about one injected
// error: whether it generated the error state within the bound, and then,
// at that moment, the time since the run started, the states stored (the
// abstract states of the current round for an AMCS technique), the
// predicates, the refinement round (1 for the first; 0 for RandomDFS) and
// the depth (the length of the trail to the state).
type Observation struct {
	Found      bool
	Time       time.Duration
	States     int
	Predicates int
	Round      int
	Depth      int
}

// RunSummary is how one run of a technique ended.
type RunSummary struct {
	Found   int
	Rounds  int
	Seconds float64
	End     string // why the run ended
}

// ModelResult is the experiment on one model.
type ModelResult struct {
	Name     string // the thesis's family name where known
	Path     string
	States   int  // reachable states the enumeration stored
	Complete bool // the enumeration stored every reachable state
	EnumNote string
	// ErrorDepth is the shortest distance of each injected error from the
	// initial state (the enumeration is breadth-first).
	ErrorDepth []int
	// Obs[t][r][e] is technique t's run r on error e.
	Obs     [][][]Observation
	Summary [][]RunSummary
	Table21 string // the error-free AMCS search, as Table 2.1 prints it
}

// Result is the whole experiment.
type Result struct {
	Cfg    *Config
	Models []*ModelResult
	Start  time.Time
	Took   time.Duration
	// Load is the system's load averages (/proc/loadavg) at the start and
	// at the end, "" where unknown: the searches compete for the cores
	Load [2]string
}

// loadAverage is the 1, 5 and 15 minute load averages, or "".
func loadAverage() string {
	b, err := os.ReadFile("/proc/loadavg")
	if f := strings.Fields(string(b)); err == nil && len(f) >= 3 {
		return strings.Join(f[:3], " ")
	}
	return ""
}

// Run runs the experiment.
func Run(cfg *Config) (*Result, error) {
	res := &Result{Cfg: cfg, Start: time.Now()}
	res.Load[0] = loadAverage()
	// a model that does not load stops the experiment before it starts,
	// not after the models before it have run
	ms := make([]*model.Model, len(cfg.Models))
	for i, path := range cfg.Models {
		m, err := loadModel(path)
		if err != nil {
			return nil, err
		}
		ms[i] = m
	}
	for i, path := range cfg.Models {
		mr, err := runModel(cfg, path, ms[i])
		if err != nil {
			return nil, err
		}
		res.Models = append(res.Models, mr)
	}
	res.Took = time.Since(res.Start)
	res.Load[1] = loadAverage()
	return res, nil
}

func (cfg *Config) logf(format string, args ...any) {
	if cfg.Log != nil {
		fmt.Fprintf(cfg.Log, format, args...)
	}
}

// loadModel loads and compiles a BIR model.
func loadModel(path string) (*model.Model, error) {
	src, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	in, err := verify.Load(path, src)
	if err != nil {
		return nil, err
	}
	return model.New(in.Prog, model.Options{})
}

// familyNames are the thesis's names of the model families, by file name.
var familyNames = map[string]string{
	"barbershop":  "Barbershop",
	"branches":    "Branches",
	"custworkers": "CustWorkers",
	"diningphil":  "DiningPhil",
	"fibonacci":   "Fibonacci",
	"factorial":   "Factorial",
	"handshake":   "Handshake",
	"hyman":       "Hyman",
	"stack":       "Stack",
	"sumton":      "SumToN",
	"sumtonbig":   "SumToNBig",
	"multiplyton": "MultiplyToN",
}

func modelName(path string) string {
	base := strings.TrimSuffix(filepath.Base(path), filepath.Ext(path))
	if n, ok := familyNames[strings.ToLower(base)]; ok {
		return n
	}
	return base
}

// seedFor mixes the experiment's seed with a name, so that each model's
// error choice is its own.
func seedFor(seed uint64, name string) uint64 {
	h := fnv.New64a()
	h.Write([]byte(name))
	return seed ^ h.Sum64()
}

func runModel(cfg *Config, path string, m *model.Model) (*ModelResult, error) {
	mr := &ModelResult{Name: modelName(path), Path: path}
	errs, err := chooseErrors(cfg, m, mr)
	if err != nil {
		return nil, err
	}
	index := make(map[string]int, len(errs))
	for i, e := range errs {
		index[string(e)] = i
	}
	cfg.logf("%s: %d states%s, %d errors injected (shortest depths %v)\n", mr.Name, mr.States, mr.EnumNote, len(errs), mr.ErrorDepth)
	for _, t := range cfg.Techniques {
		var runs [][]Observation
		var sums []RunSummary
		for r := 0; r < cfg.Runs; r++ {
			obs := make([]Observation, len(errs))
			sum := runTechnique(cfg, t, m, index, obs, cfg.Seed+uint64(r))
			cfg.logf("  %-10s run %d: %d/%d found, %d rounds, %.2fs, %s\n", t.Name, r+1, sum.Found, len(errs), sum.Rounds, sum.Seconds, sum.End)
			runs = append(runs, obs)
			sums = append(sums, sum)
		}
		mr.Obs = append(mr.Obs, runs)
		mr.Summary = append(mr.Summary, sums)
	}
	if !cfg.NoTable21 {
		mr.Table21 = table21(cfg, m, mr)
		cfg.logf("  Table 2.1: %s\n", mr.Table21)
	}
	return mr, nil
}

// chooseErrors enumerates the reachable states of m with a complete
// breadth-first search and picks cfg.Errors of them other than the
// initial state, uniformly at random with the experiment's seed
// (reservoir sampling, so that only the chosen states are kept). A model
// with fewer states gets all of them.
func chooseErrors(cfg *Config, m *model.Model, mr *ModelResult) ([][]byte, error) {
	rng := rand.New(rand.NewPCG(seedFor(cfg.Seed, mr.Name), 0x5eed))
	var chosen [][]byte
	var depth []int
	var depth1 [][]byte
	seen := 0
	visit := func(state []byte, d int) {
		if d == 0 {
			return
		}
		if d == 1 && cfg.plant != nil {
			depth1 = append(depth1, append([]byte(nil), state...))
		}
		seen++
		if len(chosen) < cfg.Errors {
			chosen = append(chosen, append([]byte(nil), state...))
			depth = append(depth, d)
			return
		}
		if k := rng.IntN(seen); k < cfg.Errors {
			chosen[k] = append(chosen[k][:0], state...)
			depth[k] = d
		}
	}
	r := search.Run(m, search.Config{Strategy: search.BFS, NoDeadlock: true, MaxStates: cfg.EnumLimit, MaxMemory: cfg.MaxMemory, Visit: visit})
	mr.States, mr.Complete = r.Stats.States, r.Complete
	switch {
	case r.Violation != nil:
		// the model's own violation ends the enumeration: the errors are
		// chosen among the states before it
		mr.EnumNote = fmt.Sprintf(" (enumeration ended by the model's violation: %s)", r.Reason)
	case !r.Complete:
		mr.EnumNote = fmt.Sprintf(" (enumeration not complete: %s)", r.Reason)
	}
	if len(chosen) == 0 {
		return nil, fmt.Errorf("%s: no reachable state besides the initial one", mr.Path)
	}
	if cfg.plant != nil {
		if p := cfg.plant(mr.Name, depth1); p != nil {
			for i, c := range chosen {
				if string(c) == string(p) {
					// keep the states distinct
					chosen[i], depth[i] = chosen[0], depth[0]
				}
			}
			chosen[0], depth[0] = p, 1
		}
	}
	mr.ErrorDepth = depth
	return chosen, nil
}

// observer records the injected errors a run generates.
type observer struct {
	index map[string]int
	obs   []Observation
	found int
	start time.Time
	// bound is the time bound: a search may overrun its time limit (the
	// limit is looked at between units of work), and what it finds after
	// the bound does not count
	bound time.Duration
	stop  atomic.Bool // set once every error is found: the run has nothing left to observe
}

// see records error state's first generation, if it is an injected error.
func (o *observer) see(state []byte, depth, states, preds, round int) {
	i, ok := o.index[string(state)]
	if !ok || o.obs[i].Found {
		return
	}
	at := time.Since(o.start)
	if at > o.bound {
		o.stop.Store(true)
		return
	}
	o.obs[i] = Observation{Found: true, Time: at, States: states, Predicates: preds, Round: round, Depth: depth}
	o.found++
	if o.found == len(o.obs) {
		o.stop.Store(true)
	}
}

// runTechnique runs t on m once with seed, filling obs.
func runTechnique(cfg *Config, t Technique, m *model.Model, index map[string]int, obs []Observation, seed uint64) RunSummary {
	o := &observer{index: index, obs: obs, bound: cfg.Time, start: time.Now()}
	// the searches look at their time limit only every so many states
	// (amcs.Run every 256 expansions, which with solver queries overran a
	// 2 s limit by up to 10 s on a loaded machine) and at Stop before every
	// one, as birch check's watchdog sets it
	var timedOut atomic.Bool
	timer := time.AfterFunc(cfg.Time, func() {
		timedOut.Store(true)
		o.stop.Store(true)
	})
	sum := t.run(cfg, m, o, seed)
	timer.Stop()
	sum.Seconds = time.Since(o.start).Seconds()
	sum.Found = o.found
	switch {
	case o.found == len(obs):
		sum.End = "every error found"
	case timedOut.Load():
		sum.End = fmt.Sprintf("time bound (%s)", cfg.Time)
	}
	return sum
}

// Technique is one of the compared searches.
type Technique struct {
	Name string // as the thesis's tables head it
	// NoPredicates: the technique has no predicates and does not compete
	// on them (RandomDFS: 0.00 in Table 5.5)
	NoPredicates bool
	run          func(cfg *Config, m *model.Model, o *observer, seed uint64) RunSummary
}

// randomDFS is search.Run's depth-first search in random successor order:
// a state's first generation is its storage, at the depth of the search's
// path then.
func randomDFS(cfg *Config, m *model.Model, o *observer, seed uint64) RunSummary {
	n := 0
	r := search.Run(m, search.Config{
		Strategy:   search.Random,
		Seed:       seed,
		NoDeadlock: true,
		TimeLimit:  cfg.Time,
		MaxMemory:  cfg.MaxMemory,
		Stop:       &o.stop,
		Visit: func(state []byte, depth int) {
			n++
			o.see(state, depth, n, 0, 0)
		},
	})
	end := r.Reason
	if r.Complete {
		end = "complete"
	}
	return RunSummary{End: end}
}

func techniqueNames() []string {
	var ns []string
	for _, t := range techniques {
		ns = append(ns, t.Name)
	}
	return ns
}

// parseTechniques returns the techniques named in s (comma-separated, any
// case), in the thesis's column order; "" is all of them.
func parseTechniques(s string) ([]Technique, error) {
	if s == "" {
		return techniques, nil
	}
	want := map[string]bool{}
	for _, n := range strings.Split(s, ",") {
		n = strings.ToLower(strings.TrimSpace(n))
		ok := false
		for _, t := range techniques {
			if strings.ToLower(t.Name) == n {
				ok = true
			}
		}
		if !ok {
			return nil, fmt.Errorf("no technique %q (have %s)", n, strings.Join(techniqueNames(), ","))
		}
		want[n] = true
	}
	var ts []Technique
	for _, t := range techniques {
		if want[strings.ToLower(t.Name)] {
			ts = append(ts, t)
		}
	}
	return ts, nil
}
