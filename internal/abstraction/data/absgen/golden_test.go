package absgen

import (
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"birch/internal/abstraction/data/infer"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

// TestGolden compares generated models with testdata/*.abs.golden.
func TestGolden(t *testing.T) {
	for _, c := range []struct {
		file, golden string
		cfg          infer.Config
		bind         []string
	}{
		{"power.bir", "power", infer.Config{}, []string{"Main.m=evenodd"}},
		{"power.bir", "power-point", infer.Config{DefaultPoint: true}, []string{"Main.m=evenodd"}},
		{"props.bir", "props", infer.Config{}, []string{"x=signs"}},
		{"guard.bir", "guard", infer.Config{}, []string{"x=signs"}},
		{"range.bir", "range", infer.Config{}, []string{"c=signs"}},
	} {
		prog := load(t, filepath.Join("testdata", c.file))
		out, err := generate(t, prog, c.cfg, c.bind...)
		if err != nil {
			t.Fatalf("%s: %v", c.golden, err)
		}
		checkCanonical(t, c.golden, out.Source)
		path := filepath.Join("testdata", c.golden+".abs.golden")
		if *update {
			if err := os.WriteFile(path, out.Source, 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		want, err := os.ReadFile(path)
		if err != nil {
			t.Fatalf("%v (go test -update creates it)", err)
		}
		if string(want) != string(out.Source) {
			t.Errorf("%s differs:\n%s", path, out.Source)
		}
	}
}

// TestImpreciseGuard: a guard that may be true or false becomes two
// transformations: the precise one, and one marked as the abstraction's
// choice, which a choose-free search skips.
func TestImpreciseGuard(t *testing.T) {
	prog := load(t, "testdata/guard.bir")
	out, err := generate(t, prog, infer.Config{}, "x=signs")
	if err != nil {
		t.Fatal(err)
	}
	imprecise := map[string]int{}
	for _, o := range out.Map.Origins {
		if o.Imprecise {
			imprecise[o.Transformation.Target.Name]++
			if !strings.Contains(o.Case+string(out.Source), "internChoose(0)") {
				t.Errorf("no marker")
			}
		}
	}
	if imprecise["big"] != 1 || imprecise["small"] != 1 {
		t.Errorf("imprecise transformations by target: %v\n%s", imprecise, out.Source)
	}
	// big is reachable only through the abstraction's choice (x = 5 is
	// POS, as is 1).
	res := check(t, out.Program, false)
	if res.Stats.States != 6 {
		t.Errorf("%d states, want 6 (s0, s1 and small with ZERO and POS, big)", res.Stats.States)
	}
}
