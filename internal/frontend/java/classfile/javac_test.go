package classfile

import (
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"birch/internal/testenv"
)

// The package's Java programs, testdata/*.java and the repository's
// examples/java/*.java, are compiled by one javac run shared by every test
// that needs them.
var progs = testenv.JavaBuild{Patterns: []string{
	filepath.Join("testdata", "*.java"),
	filepath.Join("..", "..", "..", "..", "examples", "java", "*.java"),
}}

func TestMain(m *testing.M) {
	code := m.Run()
	progs.Remove()
	os.Exit(code)
}

// compiled returns the directory of the class files (a class path root).
func compiled(t *testing.T) string {
	t.Helper()
	return progs.Dir(t)
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

// load parses the compiled class name ("Basic", "Shapes$Square").
func load(t *testing.T, name string) *Class {
	t.Helper()
	return parseFile(t, filepath.Join(compiled(t), name+".class"))
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
