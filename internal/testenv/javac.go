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

	once  sync.Once
	group *javaGroup // set by Together
	files int        // the number of source files (javac's last arguments)
	dir   string
	err   error
}

// Dir compiles the programs on its first call and returns the directory
// of their class files (a class path root). It skips t when javac is
// missing and fails it when javac does. The directory is the test
// binary's; Remove or RemoveJavaBuilds deletes it (from TestMain).
func (b *JavaBuild) Dir(t testing.TB) string {
	t.Helper()
	SkipWithoutJavac(t)
	if b.group != nil {
		b.group.once.Do(b.group.compile)
	} else {
		b.once.Do(b.compile)
	}
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
	args := b.prepare()
	if b.err != nil {
		return
	}
	if out, err := exec.Command("javac", append(javacJVMFlags(), args...)...).CombinedOutput(); err != nil {
		b.err = fmt.Errorf("javac %v: %v\n%s", args[len(args)-b.files:], err, out)
	}
}

// javacJVMFlags start javac's JVM for a short run (as
// verify.JavacJVMFlags): the client compiler only and one GC thread.
func javacJVMFlags() []string {
	return []string{"-J-XX:TieredStopAtLevel=1", "-J-XX:+UseSerialGC"}
}

// prepare makes the build's directory and returns javac's arguments (the
// source files last); it sets b.err when it fails.
func (b *JavaBuild) prepare() []string {
	var files []string
	for _, p := range b.Patterns {
		m, err := filepath.Glob(p)
		if err != nil {
			b.err = err
			return nil
		}
		files = append(files, m...)
	}
	sort.Strings(files)
	if len(files) == 0 {
		b.err = fmt.Errorf("testenv.JavaBuild: no file matches %v", b.Patterns)
		return nil
	}
	dir, err := os.MkdirTemp("", "birch-javatest-")
	if err != nil {
		b.err = err
		return nil
	}
	b.dir = filepath.Join(dir, "classes")
	buildsMu.Lock()
	builds = append(builds, b)
	buildsMu.Unlock()
	stubDir := filepath.Join(dir, "stubs")
	if err := stubs.WriteTree(stubDir); err != nil {
		b.err = err
		return nil
	}
	b.files = len(files)
	return append([]string{"-g", "-implicit:class", "-sourcepath", stubDir, "-d", b.dir}, files...)
}

// Together makes the builds compile on the first Dir of any of them, in
// one JVM that runs javac once per build (javac's start, most of a second
// of CPU, paid once), each build into its own directory with the
// arguments of its own javac run. Without the java launcher on PATH they
// compile one javac run each. Call it from an init function:
//
//	func init() { testenv.Together(&progsA, &progsB) }
func Together(bs ...*JavaBuild) {
	g := &javaGroup{builds: bs}
	for _, b := range bs {
		b.group = g
	}
}

// javaGroup is builds compiled together.
type javaGroup struct {
	once   sync.Once
	builds []*JavaBuild
}

// javacBatch is the program the group's JVM runs (java's source-file
// mode): its arguments are, for each build, the file that gets javac's
// output, javac's arguments and "--end"; javac's exit status goes to
// that file's name plus ".rc".
const javacBatch = `import java.io.*;
import java.nio.file.*;
import java.util.*;
import javax.tools.*;

public class JavacBatch {
    public static void main(String[] args) throws Exception {
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        List<String> cur = new ArrayList<>();
        String out = null;
        for (String a : args) {
            if (out == null) { out = a; continue; }
            if (!a.equals("--end")) { cur.add(a); continue; }
            try (OutputStream o = new FileOutputStream(out)) {
                int rc = javac.run(null, o, o, cur.toArray(new String[0]));
                Files.writeString(Paths.get(out + ".rc"), Integer.toString(rc));
            }
            cur.clear();
            out = null;
        }
    }
}
`

func (g *javaGroup) compile() {
	java, err := exec.LookPath("java")
	if err != nil {
		for _, b := range g.builds {
			b.compile()
		}
		return
	}
	var args []string
	var todo []*JavaBuild
	for _, b := range g.builds {
		a := b.prepare()
		if b.err != nil {
			continue
		}
		todo = append(todo, b)
		args = append(append(append(args, b.javacOut()), a...), "--end")
	}
	if len(todo) == 0 {
		return
	}
	dir, err := os.MkdirTemp("", "birch-javacbatch-")
	if err == nil {
		defer os.RemoveAll(dir)
		src := filepath.Join(dir, "JavacBatch.java")
		if err = os.WriteFile(src, []byte(javacBatch), 0o644); err == nil {
			var out []byte
			out, err = exec.Command(java, append([]string{"-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", src}, args...)...).CombinedOutput()
			if err != nil {
				err = fmt.Errorf("java %s: %v\n%s", src, err, out)
			}
		}
	}
	for _, b := range todo {
		if err != nil {
			b.err = err
			continue
		}
		rc, rerr := os.ReadFile(b.javacOut() + ".rc")
		out, _ := os.ReadFile(b.javacOut())
		if rerr != nil || string(rc) != "0" {
			b.err = fmt.Errorf("javac %v: exit status %s\n%s", b.Patterns, rc, out)
		}
	}
}

// javacOut is the file of javac's output in a group's run.
func (b *JavaBuild) javacOut() string {
	return filepath.Join(filepath.Dir(b.dir), "javac.out")
}

// Remove deletes the class files of Dir, if any.
func (b *JavaBuild) Remove() {
	if b.dir != "" {
		os.RemoveAll(filepath.Dir(b.dir))
	}
}
