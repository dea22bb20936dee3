package search

import (
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"testing"

	"birch/internal/testenv"
)

var benchLine = regexp.MustCompile(`(?m)^// bench: states=(\d+) transitions=(\d+)$`)

// TestBenchModelCounts checks the exact state and transition counts that
// the header of every benchmark model states (`// bench: states=N
// transitions=M`). The headers say how each count was derived: by formula,
// by counting (bench/philosophers-count.py), with the reference interpreter
// tools/birsim/bir.py on the small instances, and for two large models from
// the engine itself (bench/README.md). The large models run only without
// -short, and the AMCS families of bench/amcs/models only with BIRCH_LONG=1.
func TestBenchModelCounts(t *testing.T) {
	small, _ := filepath.Glob("../../bench/models/small/*.bir")
	large, _ := filepath.Glob("../../bench/models/*.bir")
	if len(small) == 0 || len(large) == 0 {
		t.Fatal("no benchmark models")
	}
	files := small
	if !testing.Short() {
		// the fastest large ones; the others take tens of seconds each
		for _, f := range large {
			switch filepath.Base(f) {
			case "counters.bir", "mutex.bir":
				files = append(files, f)
			}
		}
	}
	if testenv.Long() {
		// Kudra's AMCS families, 0.5-1 million states each, a few seconds
		// (bench/amcs/models/README.md: SPIN's counts and count.py's)
		amcs, _ := filepath.Glob("../../bench/amcs/models/*.bir")
		if len(amcs) != 12 {
			t.Errorf("%d models in bench/amcs/models, want the 12 families", len(amcs))
		}
		files = append(files, amcs...)
	}
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		m := benchLine.FindSubmatch(src)
		if m == nil {
			t.Errorf("%s: no `// bench: states=N transitions=M` line", f)
			continue
		}
		states, _ := strconv.Atoi(string(m[1]))
		trans, _ := strconv.ParseInt(string(m[2]), 10, 64)
		mod := loadModel(t, f)
		r := Run(mod, Config{})
		if r.Verdict != Pass || r.Stats.States != states || r.Stats.Transitions != trans {
			t.Errorf("%s: %s, %d states, %d transitions; the header says pass, %d states, %d transitions",
				f, r.Verdict, r.Stats.States, r.Stats.Transitions, states, trans)
		}
	}
}
