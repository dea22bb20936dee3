package verify

import (
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"birch/internal/testenv"
)

// javaProgs are the verify package's Java test programs, compiled once.
var javaProgs = testenv.JavaBuild{Patterns: []string{"testdata/java/*.java", "testdata/java/*/*.java"}}

func TestMain(m *testing.M) {
	code := m.Run()
	testenv.RemoveJavaBuilds()
	os.Exit(code)
}

func closureNames(t *testing.T, cp *classPath, main string) string {
	t.Helper()
	classes, err := cp.closure(main)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, c := range classes {
		names = append(names, c.Name)
	}
	if len(names) == 0 || names[0] != main {
		t.Errorf("closure %v does not start with the main class %s", names, main)
	}
	sort.Strings(names)
	return strings.Join(names, " ")
}

// TestClassPathDirectory: a directory's class files are read whole; the
// main class is --main's, and without it the only class with a main
// method (here two: an error naming both); the program is what the main
// class reaches, without the classes birch models by name.
func TestClassPathDirectory(t *testing.T) {
	dir := javaProgs.Dir(t)
	cp := &classPath{input: dir, root: dir}
	if err := cp.readTree(); err != nil {
		t.Fatal(err)
	}
	if _, ok := cp.classes["gov/nasa/jpf/vm/Verify"]; !ok {
		t.Fatalf("the stub of Verify was not compiled along: %v", cp.files)
	}
	_, err := cp.mainClass("", "")
	if err == nil || err.Error() != dir+": 2 classes have a main method (Other, app.Main): name the main class with --main" {
		t.Errorf("two mains: %v", err)
	}
	for _, c := range []struct{ main, err string }{
		{"app.Main", ""},
		{"lib.Lib", dir + ": --main lib.Lib: the class has no method public static void main(String[])"},
		{"app.Nope", dir + ": --main app.Nope: no such class in " + dir},
	} {
		main, err := cp.mainClass(c.main, "")
		if c.err == "" && (err != nil || main != "app/Main") || c.err != "" && (err == nil || err.Error() != c.err) {
			t.Errorf("--main %s: %q, %v; want error %q", c.main, main, err, c.err)
		}
	}
	if got, want := closureNames(t, cp, "app/Main"), "app/Circle app/Helper app/Main app/Shape"; got != want {
		t.Errorf("the program of app.Main is %s, want %s", got, want)
	}
	if got, want := closureNames(t, cp, "Other"), "Other lib/Lib"; got != want {
		t.Errorf("the program of Other is %s, want %s", got, want)
	}
}

// TestClassPathOfClassFile: a class file's class path is its directory
// walked up by its package; the classes are read as the program reaches
// them (Unused and Other never are).
func TestClassPathOfClassFile(t *testing.T) {
	dir := javaProgs.Dir(t)
	name := filepath.Join(dir, "app", "Main.class")
	src, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	cp, main, err := classFilePath(name, src, JavaOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if cp.root != dir || main != "app/Main" {
		t.Errorf("class path %s, main %s; want %s, app/Main", cp.root, main, dir)
	}
	if got, want := closureNames(t, cp, main), "app/Circle app/Helper app/Main app/Shape"; got != want {
		t.Errorf("the program is %s, want %s", got, want)
	}
	if cp.count != 4 {
		t.Errorf("%d class files read, want 4", cp.count)
	}
	helper := filepath.Join(dir, "app", "Helper.class")
	src, _ = os.ReadFile(helper)
	if _, _, err := classFilePath(helper, src, JavaOptions{}); err == nil ||
		err.Error() != helper+": the class app.Helper has no method public static void main(String[]); name the main class with --main" {
		t.Errorf("a class without main: %v", err)
	}
	if _, main, err := classFilePath(helper, src, JavaOptions{Main: "app.Main"}); err != nil || main != "app/Main" {
		t.Errorf("--main app.Main with Helper.class: %s, %v", main, err)
	}
}

// TestClassPathBounds: a class path's reading is bounded, and a file
// that is no class file is an error naming it.
func TestClassPathBounds(t *testing.T) {
	dir := javaProgs.Dir(t)
	saved := maxClassFiles
	maxClassFiles = 3
	defer func() { maxClassFiles = saved }()
	cp := &classPath{input: dir, root: dir}
	if err := cp.readTree(); err == nil || err.Error() != dir+": more than 3 class files: birch reads at most 3" {
		t.Errorf("too many class files: %v", err)
	}
	maxClassFiles = saved

	bad := t.TempDir()
	file := filepath.Join(bad, "Bad.class")
	if err := os.WriteFile(file, []byte{0xca, 0xfe, 0xba, 0xbe, 0}, 0o644); err != nil {
		t.Fatal(err)
	}
	cp = &classPath{input: bad, root: bad}
	if err := cp.readTree(); err == nil || !strings.HasPrefix(err.Error(), file+": class file offset ") {
		t.Errorf("a malformed class file: %v", err)
	}
	cp = &classPath{input: bad, root: t.TempDir()}
	if err := cp.readTree(); err != nil {
		t.Fatal(err)
	}
	if _, err := cp.mainClass("", ""); err == nil || !strings.Contains(err.Error(), "no class in ") {
		t.Errorf("an empty directory: %v", err)
	}
	// a directory of sources, no class files
	src := t.TempDir()
	if err := os.WriteFile(filepath.Join(src, "Main.java"), []byte("class Main {}"), 0o644); err != nil {
		t.Fatal(err)
	}
	cp = &classPath{input: src, root: src}
	if err := cp.readTree(); err != nil {
		t.Fatal(err)
	}
	if _, err := cp.mainClass("", ""); err == nil || err.Error() != src+": no class files in "+src+", only Java sources: give the main class's .java file (such as "+filepath.Join(src, "Main.java")+"), which birch compiles" {
		t.Errorf("a directory of sources: %v", err)
	}
	// a .java program's classes (javac's output) without a main method
	cp = &classPath{input: "Lib.java", root: t.TempDir()}
	if _, err := cp.mainClass("", "Lib"); err == nil || err.Error() != "Lib.java: no class in the program has a method public static void main(String[])" {
		t.Errorf("a .java program without main: %v", err)
	}
}

// TestClassPathStaysBelowRoot: a class name read from a constant pool
// never names a file outside the class path (a crafted "../x" is no
// class of it).
func TestClassPathStaysBelowRoot(t *testing.T) {
	root := t.TempDir()
	outside := filepath.Join(filepath.Dir(root), "Escape.class")
	if err := os.WriteFile(outside, []byte("not read"), 0o644); err != nil {
		t.Fatal(err)
	}
	defer os.Remove(outside)
	cp := &classPath{input: "Main.class", root: root, lazy: true}
	for _, name := range []string{"../Escape", "/etc/passwd", "a//b", "a/./b", `a\b`} {
		if c, err := cp.get(name); c != nil || err != nil {
			t.Errorf("get(%q) = %v, %v", name, c, err)
		}
	}
	if cp.count != 0 {
		t.Errorf("%d files read", cp.count)
	}
}

// TestClassPathFlat: class files of a package in a directory that is not
// the package's (javac without -d writes them next to the sources) are
// one class path: the package's other classes are read from it.
func TestClassPathFlat(t *testing.T) {
	dir := javaProgs.Dir(t)
	flat := filepath.Join(t.TempDir(), "classes")
	if err := os.Mkdir(flat, 0o755); err != nil {
		t.Fatal(err)
	}
	files, _ := filepath.Glob(filepath.Join(dir, "app", "*.class"))
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err == nil {
			err = os.WriteFile(filepath.Join(flat, filepath.Base(f)), b, 0o644)
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	name := filepath.Join(flat, "Main.class")
	src, _ := os.ReadFile(name)
	cp, main, err := classFilePath(name, src, JavaOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := closureNames(t, cp, main), "app/Circle app/Helper app/Main app/Shape"; got != want {
		t.Errorf("the program is %s, want %s", got, want)
	}
}

// TestLoadJar: a jar is named as one, with what to do instead (unpack it,
// check the directory with --main); it was read as BIR ("expected system,
// found name PK", "illegal character NUL", ...).
func TestLoadJar(t *testing.T) {
	_, err := Load("app.jar", []byte("PK\x03\x04\x14\x00\x00\x00\x08\x00"))
	want := "app.jar: a jar (a zip archive of class files) is not read by birch: unpack it (unzip -d DIR app.jar) and check the directory: birch check DIR --main pkg.Main (docs/java.md)"
	if err == nil || err.Error() != want {
		t.Errorf("Load(app.jar) = %v, want %s", err, want)
	}
}
