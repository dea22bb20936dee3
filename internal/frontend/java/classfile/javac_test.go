package classfile

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"
)

// The package's Java programs (testdata/*.java, and examples/java/*.java
// when that directory exists) are compiled by one javac run, shared by
// every test that needs them.
var javac struct {
	once    sync.Once
	dir     string // the class files
	sources []string
	skip    string // why the tests that need javac skip
	err     error
}

func TestMain(m *testing.M) {
	code := m.Run()
	if javac.dir != "" {
		os.RemoveAll(javac.dir)
	}
	os.Exit(code)
}

// exampleSources returns the repository's examples/java/*.java.
func exampleSources() []string {
	files, _ := filepath.Glob(filepath.Join("..", "..", "..", "..", "examples", "java", "*.java"))
	return files
}

// compiled returns the directory holding the class files of the package's
// Java programs, compiling them on first use; it skips t when javac is
// not installed.
func compiled(t *testing.T) string {
	t.Helper()
	javac.once.Do(func() {
		path, err := exec.LookPath("javac")
		if err != nil {
			javac.skip = "javac not on PATH"
			return
		}
		javac.sources, _ = filepath.Glob(filepath.Join("testdata", "*.java"))
		javac.dir, javac.err = os.MkdirTemp("", "classfile-test")
		if javac.err != nil {
			return
		}
		examples := exampleSources()
		args := append([]string{"-g", "-d", javac.dir}, javac.sources...)
		out, err := exec.Command(path, append(args, examples...)...).CombinedOutput()
		if err != nil && len(examples) > 0 {
			// The examples may not compile together with the test
			// programs (two classes of one name): each in a directory
			// of its own, then.
			out, err = exec.Command(path, args...).CombinedOutput()
			for i, ex := range examples {
				if err != nil {
					break
				}
				var o []byte
				o, err = exec.Command(path, "-g", "-d", filepath.Join(javac.dir, fmt.Sprintf("example%d", i)), ex).CombinedOutput()
				out = append(out, o...)
			}
		}
		if err != nil {
			javac.err = fmt.Errorf("javac: %v\n%s", err, out)
			return
		}
		javac.sources = append(javac.sources, examples...)
	})
	if javac.skip != "" {
		t.Skip(javac.skip)
	}
	if javac.err != nil {
		t.Fatal(javac.err)
	}
	return javac.dir
}

// classFiles returns every class file compiled, sorted.
func classFiles(t *testing.T) []string {
	dir := compiled(t)
	var files []string
	filepath.WalkDir(dir, func(path string, d os.DirEntry, err error) error {
		if err == nil && strings.HasSuffix(path, ".class") {
			files = append(files, path)
		}
		return nil
	})
	sort.Strings(files)
	if len(files) == 0 {
		t.Fatal("javac wrote no class files")
	}
	return files
}

// load parses the compiled class name ("Basic", "Shapes$Circle").
func load(t *testing.T, name string) *Class {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(compiled(t), name+".class"))
	if err != nil {
		t.Fatal(err)
	}
	c, err := Parse(data)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return c
}

func method(t *testing.T, c *Class, name, desc string) *Method {
	t.Helper()
	for _, m := range c.Methods {
		if m.Name == name && m.Descriptor == desc {
			return m
		}
	}
	t.Fatalf("%s has no method %s%s", c.Name, name, desc)
	return nil
}
