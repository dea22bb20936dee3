package testenv

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"sync"
	"testing"

	"birch/internal/frontend/java/stubs"
)

// SkipWithoutJavac skips t when javac is not on PATH (.ci/run installs
// Debian's openjdk-17-jdk-headless, which has it).
func SkipWithoutJavac(t testing.TB) {
	t.Helper()
	if _, err := exec.LookPath("javac"); err != nil {
		t.Skip("javac not found on PATH")
	}
}

// JavaBuild compiles a test package's Java programs with one javac run
// for the whole test binary (javac takes most of a second to start):
// declare one at package level,
//
//	var progs = testenv.JavaBuild{Patterns: []string{"testdata/java/*.java"}}
//
// and call progs.Dir(t) in each test that needs the class files.
type JavaBuild struct {
	// Patterns are glob patterns of the .java files to compile (javac -g,
	// birch's stubs of Verify and Verifier on the source path).
	Patterns []string

	once sync.Once
	dir  string
	err  error
}

// Dir compiles the programs on its first call and returns the directory
// of their class files (a class path root). It skips t when javac is
// missing and fails it when javac does. The directory is the test
// binary's; Remove or RemoveJavaBuilds deletes it (from TestMain).
func (b *JavaBuild) Dir(t testing.TB) string {
	t.Helper()
	SkipWithoutJavac(t)
	b.once.Do(b.compile)
	if b.err != nil {
		t.Fatal(b.err)
	}
	return b.dir
}

// builds are the JavaBuilds that compiled, for RemoveJavaBuilds.
var (
	buildsMu sync.Mutex
	builds   []*JavaBuild
)

// RemoveJavaBuilds deletes the class files of every JavaBuild of the
// test binary (call it from TestMain after m.Run).
func RemoveJavaBuilds() {
	buildsMu.Lock()
	defer buildsMu.Unlock()
	for _, b := range builds {
		b.Remove()
	}
	builds = nil
}

func (b *JavaBuild) compile() {
	var files []string
	for _, p := range b.Patterns {
		m, err := filepath.Glob(p)
		if err != nil {
			b.err = err
			return
		}
		files = append(files, m...)
	}
	sort.Strings(files)
	if len(files) == 0 {
		b.err = fmt.Errorf("testenv.JavaBuild: no file matches %v", b.Patterns)
		return
	}
	dir, err := os.MkdirTemp("", "birch-javatest-")
	if err != nil {
		b.err = err
		return
	}
	b.dir = filepath.Join(dir, "classes")
	buildsMu.Lock()
	builds = append(builds, b)
	buildsMu.Unlock()
	stubDir := filepath.Join(dir, "stubs")
	if err := stubs.WriteTree(stubDir); err != nil {
		b.err = err
		return
	}
	// javac's JVM started for a short run (as verify.JavacJVMFlags)
	args := append([]string{"-J-XX:TieredStopAtLevel=1", "-J-XX:+UseSerialGC", "-g", "-implicit:class", "-sourcepath", stubDir, "-d", b.dir}, files...)
	if out, err := exec.Command("javac", args...).CombinedOutput(); err != nil {
		b.err = fmt.Errorf("javac %v: %v\n%s", files, err, out)
	}
}

// Remove deletes the class files of Dir, if any.
func (b *JavaBuild) Remove() {
	if b.dir != "" {
		os.RemoveAll(filepath.Dir(b.dir))
	}
}
