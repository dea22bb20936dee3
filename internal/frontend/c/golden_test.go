package c_test

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	cfront "birch/internal/frontend/c"
	"birch/internal/verify"
)

var update = flag.Bool("update", false, "rewrite the golden .bir files of testdata")

// TestGolden lowers each testdata/*.c program (ILP32; a name ending in
// _lp64 under LP64, in _ovf with OverflowError) and compares the BIR with testdata/NAME.bir, which
// -update rewrites. The BIR must load (parse and type-check) as a model.
func TestGolden(t *testing.T) {
	files, err := filepath.Glob("testdata/*.c")
	if err != nil || len(files) == 0 {
		t.Fatal("no testdata/*.c", err)
	}
	for _, file := range files {
		name := strings.TrimSuffix(filepath.Base(file), ".c")
		t.Run(name, func(t *testing.T) {
			src, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			cfg := cfront.Config{}
			if strings.HasSuffix(name, "_lp64") {
				cfg.DataModel = cfront.LP64
			}
			cfg.OverflowError = strings.HasSuffix(name, "_ovf")
			in, err := verify.LoadWith(file, src, verify.LoadOptions{C: cfg})
			if err != nil {
				t.Fatalf("%s: %v", file, err)
			}
			got := in.Src
			golden := strings.TrimSuffix(file, ".c") + ".bir"
			if *update {
				if err := os.WriteFile(golden, got, 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run go test -update)", err)
			}
			if !bytes.Equal(got, want) {
				t.Errorf("%s: the lowering differs from %s (go test -update rewrites it):\n%s", file, golden, diffLines(string(want), string(got)))
			}
		})
	}
}

// diffLines shows the first lines where two texts differ.
func diffLines(want, got string) string {
	w, g := strings.Split(want, "\n"), strings.Split(got, "\n")
	var b strings.Builder
	shown := 0
	for i := 0; i < len(w) || i < len(g); i++ {
		var x, y string
		if i < len(w) {
			x = w[i]
		}
		if i < len(g) {
			y = g[i]
		}
		if x != y {
			b.WriteString("line " + itoa(i+1) + ":\n  want: " + x + "\n  got:  " + y + "\n")
			if shown++; shown == 5 {
				break
			}
		}
	}
	return b.String()
}

func itoa(i int) string {
	var buf [20]byte
	n := len(buf)
	for {
		n--
		buf[n] = byte('0' + i%10)
		i /= 10
		if i == 0 {
			return string(buf[n:])
		}
	}
}
