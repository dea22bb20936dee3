package java_test

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	java "birch/internal/frontend/java"
	"birch/internal/frontend/java/classfile"
	"birch/internal/testenv"
	"birch/internal/verify"
)

var update = flag.Bool("update", false, "rewrite the golden .golden files of testdata")

// progs are the package's test programs, compiled by one javac run:
// those of testdata (the default package), the heap's (testdata/heap,
// a package each) and the threads' (testdata/threads, likewise).
var progs = testenv.JavaBuild{Patterns: []string{"testdata/*.java", "testdata/heap/*.java", "testdata/threads/*.java", "testdata/exc/*.java", "testdata/review/*.java", "testdata/jdiff/*.java"}}

// parsed are the classes of progs.
var parsed struct {
	once    sync.Once
	classes []*classfile.Class
	err     error
}

func TestMain(m *testing.M) {
	code := m.Run()
	progs.Remove()
	os.Exit(code)
}

// testClasses compiles every testdata/*.java program (birch's stubs of
// Verify and Verifier on the source path) and parses the classes; it
// skips the test when javac is missing.
func testClasses(t testing.TB) []*classfile.Class {
	t.Helper()
	dir := progs.Dir(t)
	parsed.once.Do(func() {
		parsed.err = filepath.Walk(dir, func(path string, info os.FileInfo, err error) error {
			if err != nil || !strings.HasSuffix(path, ".class") {
				return err
			}
			data, err := os.ReadFile(path)
			if err != nil {
				return err
			}
			c, err := classfile.Parse(data)
			if err != nil {
				return err
			}
			if strings.Contains(c.Name, "/") {
				return nil // the heap's programs, and the stubs
			}
			parsed.classes = append(parsed.classes, c)
			return nil
		})
	})
	if parsed.err != nil {
		t.Fatal(parsed.err)
	}
	return parsed.classes
}

// translate lowers the program whose main class is name.
func translate(t *testing.T, name string) (*java.Output, error) {
	t.Helper()
	return java.Translate(closure(testClasses(t), name), java.Config{Main: name, SourceDirs: []string{"testdata"}})
}

// closure is the classes the class main refers to, directly or not (its
// constant pool's classes, superclass and interfaces), in the order of
// classes: what birch check passes the lowering (verify's class path).
func closure(classes []*classfile.Class, main string) []*classfile.Class {
	by := map[string]*classfile.Class{}
	for _, c := range classes {
		by[c.Name] = c
	}
	seen := map[string]bool{}
	var visit func(name string)
	visit = func(name string) {
		c := by[name]
		if c == nil || seen[name] {
			return
		}
		seen[name] = true
		visit(c.Super)
		for _, i := range c.Interfaces {
			visit(i)
		}
		for i, k := range c.Pool {
			if _, ok := k.(classfile.ClassRef); ok {
				visit(strings.TrimLeft(c.ClassAt(i), "["))
			}
		}
	}
	visit(main)
	var out []*classfile.Class
	for _, c := range classes {
		if seen[c.Name] {
			out = append(out, c)
		}
	}
	return out
}

// TestGolden lowers each testdata/NAME.java program (main class NAME)
// and compares the BIR with testdata/NAME.golden, which -update
// rewrites. The BIR must load (parse and type-check) as a model; a
// program whose lowering is unsupported has no golden file.
func TestGolden(t *testing.T) {
	files, _ := filepath.Glob("testdata/*.java")
	if len(files) == 0 {
		t.Fatal("no testdata/*.java")
	}
	for _, file := range files {
		name := strings.TrimSuffix(filepath.Base(file), ".java")
		if strings.HasPrefix(name, "Unsupported") || name == "DiffDriver" || name == "LargeMethod" {
			continue
		}
		t.Run(name, func(t *testing.T) {
			out, err := translate(t, name)
			if err != nil {
				t.Fatalf("%s: %v", file, err)
			}
			if _, err := verify.Load(name+".bir", out.BIR); err != nil {
				t.Fatalf("%s: the lowered model does not load: %v\n%s", file, err, out.BIR)
			}
			golden := strings.TrimSuffix(file, ".java") + ".golden"
			if *update {
				if err := os.WriteFile(golden, out.BIR, 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run go test -update)", err)
			}
			if !bytes.Equal(out.BIR, want) {
				t.Errorf("%s: the lowering differs from %s (go test -update rewrites it):\n%s", file, golden, diffLines(string(want), string(out.BIR)))
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
			fmt.Fprintf(&b, "line %d:\n  want: %s\n  got:  %s\n", i+1, x, y)
			if shown++; shown == 5 {
				break
			}
		}
	}
	return b.String()
}
