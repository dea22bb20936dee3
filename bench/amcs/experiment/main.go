// Command experiment recreates the experiment of Kudra's thesis (Chapter 5,
// "Finding Termination and Time Improvement in Predicate Abstraction with
// Under-Approximation and Abstract Matching", BYU 2007) on birch: for each
// model it marks 40 reachable states, chosen at random with a seed, as
// errors, runs seven techniques under a time bound (AMCS, RandomDFS, AMCS
// without theorem prover, MinOnly, MaxOverlap, Add-All AMCS, MinSet), and
// records for each marked state the first time a technique generates it:
// the time, the states stored, the predicates, the refinement rounds and
// the depth. It prints the thesis's normalized win tables (5.1-5.5) and
// the analogue of its Table 2.1 (an error-free AMCS search).
//
// Usage:
//
//	go run ./bench/amcs/experiment [flags] MODEL.bir...
//
// bench/amcs/run.sh runs it on bench/amcs/models; docs/amcs.md ("The experiment")
// says how the tables are scored and puts them beside the thesis's.
package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// run parses the command line, runs the experiment and writes the tables;
// it returns the exit status (2 for bad usage).
func run(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("experiment", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var cfg Config
	var techs string
	fs.DurationVar(&cfg.Time, "time", 10*time.Second, "time bound per model, technique and run")
	fs.DurationVar(&cfg.Time21, "time21", 0, "time bound of Table 2.1's error-free AMCS search (default -time)")
	fs.IntVar(&cfg.Runs, "runs", 3, "runs of each technique on each model (seeds seed+0, seed+1, ...)")
	fs.IntVar(&cfg.Errors, "errors", 40, "injected errors per model")
	fs.Uint64Var(&cfg.Seed, "seed", 1, "seed of the error choice and of the runs")
	fs.StringVar(&techs, "techniques", "", "comma-separated subset of the techniques (default all: "+strings.Join(techniqueNames(), ",")+")")
	fs.Int64Var(&cfg.MaxMemory, "max-memory", 1<<30, "bytes one search may hold (the enumeration and every run)")
	fs.IntVar(&cfg.EnumLimit, "enum-states", 4_000_000, "states the enumeration of a model stores at most")
	fs.BoolVar(&cfg.NoTable21, "no-table21", false, "skip the error-free AMCS search (Table 2.1)")
	out := fs.String("out", "", "directory to write tables.md and observations.tsv into (created)")
	quick := fs.Bool("quick", false, "smoke test: the first 2 models, -time 2s, -runs 1")
	fs.Usage = func() {
		fmt.Fprintf(stderr, "usage: experiment [flags] MODEL.bir...\n")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return 2
	}
	cfg.Models = fs.Args()
	if *quick {
		if len(cfg.Models) > 2 {
			cfg.Models = cfg.Models[:2]
		}
		cfg.Time, cfg.Runs = 2*time.Second, 1
	}
	if len(cfg.Models) == 0 {
		fs.Usage()
		return 2
	}
	if cfg.Runs < 1 || cfg.Errors < 1 || cfg.Time <= 0 {
		fmt.Fprintln(stderr, "experiment: -runs and -errors must be at least 1 and -time positive")
		return 2
	}
	var err error
	if cfg.Techniques, err = parseTechniques(techs); err != nil {
		fmt.Fprintln(stderr, "experiment:", err)
		return 2
	}
	cfg.Log = stderr
	res, err := Run(&cfg)
	if err != nil {
		fmt.Fprintln(stderr, "experiment:", err)
		return 2
	}
	var tables strings.Builder
	res.WriteTables(&tables)
	io.WriteString(stdout, tables.String())
	if *out != "" {
		if err := os.MkdirAll(*out, 0o755); err != nil {
			fmt.Fprintln(stderr, "experiment:", err)
			return 2
		}
		var all strings.Builder
		all.WriteString(tables.String())
		all.WriteString("\n")
		res.WriteBeside(&all)
		all.WriteString("\n")
		writeThesisTables(&all)
		if err := os.WriteFile(filepath.Join(*out, "tables.md"), []byte(all.String()), 0o644); err != nil {
			fmt.Fprintln(stderr, "experiment:", err)
			return 2
		}
		var obs strings.Builder
		res.WriteObservations(&obs)
		if err := os.WriteFile(filepath.Join(*out, "observations.tsv"), []byte(obs.String()), 0o644); err != nil {
			fmt.Fprintln(stderr, "experiment:", err)
			return 2
		}
		fmt.Fprintf(stderr, "experiment: wrote %s and %s\n", filepath.Join(*out, "tables.md"), filepath.Join(*out, "observations.tsv"))
	}
	return 0
}
