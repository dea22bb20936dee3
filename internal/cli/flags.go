package cli

import (
	"fmt"
	"math"
	"os"
	"strconv"
	"strings"
	"time"

	"birch/internal/model"
	"birch/internal/search"
	"birch/internal/source"
)

// parseBytes reads sizes such as 4G, 512M, 64k or 1000000: a finite
// number of at least one byte that fits an int64. NaN, Inf, 1e30 or 0.5
// (bytes) are errors, not a limit silently turned off.
func parseBytes(s string) (int64, error) {
	t := strings.TrimSuffix(strings.TrimSuffix(strings.ToUpper(strings.TrimSpace(s)), "B"), "I")
	mult := int64(1)
	if n := len(t); n > 0 {
		switch t[n-1] {
		case 'K':
			mult, t = 1<<10, t[:n-1]
		case 'M':
			mult, t = 1<<20, t[:n-1]
		case 'G':
			mult, t = 1<<30, t[:n-1]
		case 'T':
			mult, t = 1<<40, t[:n-1]
		}
	}
	v, err := strconv.ParseFloat(t, 64)
	if err != nil || math.IsNaN(v) || math.IsInf(v, 0) {
		return 0, fmt.Errorf("invalid size %s (want e.g. 4G, 512M or a number of bytes)", quote(s))
	}
	b := v * float64(mult)
	switch {
	case b < 1:
		return 0, fmt.Errorf("invalid size %s: less than one byte", quote(s))
	case b >= math.MaxInt64:
		return 0, fmt.Errorf("invalid size %s: too large (at most 8E, 2^63-1 bytes)", quote(s))
	}
	return int64(b), nil
}

// parseDuration reads a Go duration or a number of seconds: a positive,
// finite time of at least a nanosecond that fits a time.Duration (about
// 292 years). NaN, Inf or 1e30 are errors, not a limit silently turned off.
func parseDuration(s string) (time.Duration, error) {
	d, err := time.ParseDuration(s)
	if v, ferr := strconv.ParseFloat(s, 64); ferr == nil {
		// a number of seconds
		switch ns := v * float64(time.Second); {
		case math.IsNaN(v) || math.IsInf(v, 0):
			return 0, fmt.Errorf("invalid duration %s (want e.g. 30s, 5m or a number of seconds)", quote(s))
		case ns >= math.MaxInt64:
			return 0, fmt.Errorf("invalid duration %s: too long (at most about 292 years)", quote(s))
		default:
			d, err = time.Duration(ns), nil
		}
	}
	if err != nil {
		return 0, fmt.Errorf("invalid duration %s (want e.g. 30s, 5m or a number of seconds)", quote(s))
	}
	if d <= 0 {
		return 0, fmt.Errorf("invalid duration %s: want a positive time of at least 1ns", quote(s))
	}
	return d, nil
}

// defaultMaxMemory is 80% of the machine's memory (4 GiB if unknown).
func defaultMaxMemory() int64 {
	b, err := os.ReadFile("/proc/meminfo")
	if err == nil {
		for _, line := range strings.Split(string(b), "\n") {
			f := strings.Fields(line)
			if len(f) >= 2 && f[0] == "MemTotal:" {
				if kb, err := strconv.ParseInt(f[1], 10, 64); err == nil && kb > 0 {
					return kb * 1024 / 10 * 8
				}
			}
		}
	}
	return 4 << 30
}

// isTerminal reports whether w is a character device (a terminal).
func isTerminal(w any) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	fi, err := f.Stat()
	return err == nil && fi.Mode()&os.ModeCharDevice != 0
}

// searchConfig builds the search configuration from flags; it reports
// usage errors on stderr.
func (o *checkOptions) config(e *env, cmd string) (search.Config, model.Options, bool) {
	var cfg search.Config
	bad := func(format string, args ...any) (search.Config, model.Options, bool) {
		fmt.Fprintf(e.stderr, "birch %s: "+format+"\n", append([]any{cmd}, args...)...)
		return cfg, model.Options{}, false
	}
	switch o.search {
	case "dfs":
		cfg.Strategy = search.DFS
	case "bfs":
		cfg.Strategy = search.BFS
	case "random":
		cfg.Strategy = search.Random
	default:
		return bad("unknown --search=%s (want dfs, bfs or random)", source.Excerpt(o.search))
	}
	cfg.Seed = o.seed
	if o.maxDepth < 0 || o.maxStates < 0 || o.maxReplay < 0 {
		return bad("--max-depth, --max-states and --max-replay must not be negative")
	}
	cfg.MaxDepth, cfg.MaxStates = o.maxDepth, o.maxStates
	if o.maxMemory != "" {
		n, err := parseBytes(o.maxMemory)
		if err != nil {
			return bad("--max-memory: %v", err)
		}
		cfg.MaxMemory = n
	} else {
		cfg.MaxMemory = defaultMaxMemory()
	}
	if o.timeLimit != "" {
		d, err := parseDuration(o.timeLimit)
		if err != nil {
			return bad("--time-limit: %v", err)
		}
		cfg.TimeLimit = d
	}
	cfg.ChooseFree, cfg.NoDeadlock = o.chooseFree, o.noDeadlock
	switch o.onLimit {
	case "cut":
	case "error":
		cfg.LimitError = true
	default:
		return bad("unknown --on-limit=%s (want cut or error)", source.Excerpt(o.onLimit))
	}
	if msg := modelBoundsError(o.maxThreads, o.maxCalls); msg != "" {
		return bad("%s", msg)
	}
	tc, ok := model.ParseCacheMode(o.tcache)
	if !ok {
		return bad("unknown --transition-cache=%s (want auto, on or off)", source.Excerpt(o.tcache))
	}
	return cfg, model.Options{MaxThreads: o.maxThreads, MaxCallDepth: o.maxCalls, TransitionCache: tc}, true
}
