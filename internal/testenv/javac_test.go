package testenv

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestTogether: builds compiled together get each its own directory with
// the class files of its own sources (a class of one build is not in
// another's), the stubs of Verify compiled along where a source uses
// them; a build that javac rejects fails with javac's message, and the
// others still compile.
func TestTogether(t *testing.T) {
	SkipWithoutJavac(t)
	src := t.TempDir()
	write := func(name, text string) string {
		p := filepath.Join(src, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	write("a/A.java", "package a;\nimport gov.nasa.jpf.vm.Verify;\npublic class A { public static void main(String[] s) { int x = Verify.getInt(0, 1); } }\n")
	write("b/B.java", "package b;\npublic class B { static class In {} }\n")
	write("c/C.java", "package c;\npublic class C { int x = y; }\n")
	a := JavaBuild{Patterns: []string{filepath.Join(src, "a", "*.java")}}
	b := JavaBuild{Patterns: []string{filepath.Join(src, "b", "*.java")}}
	c := JavaBuild{Patterns: []string{filepath.Join(src, "c", "*.java")}}
	Together(&a, &b, &c)
	defer RemoveJavaBuilds()
	exists := func(dir, rel string) bool {
		_, err := os.Stat(filepath.Join(dir, rel))
		return err == nil
	}
	da, db := a.Dir(t), b.Dir(t)
	if da == db || !exists(da, "a/A.class") || !exists(da, "gov/nasa/jpf/vm/Verify.class") || exists(da, "b/B.class") {
		t.Errorf("a's directory %s: want a/A.class and Verify.class only", da)
	}
	if !exists(db, "b/B.class") || !exists(db, "b/B$In.class") || exists(db, "a/A.class") || exists(db, "gov/nasa/jpf/vm/Verify.class") {
		t.Errorf("b's directory %s: want b's classes only", db)
	}
	c.once.Do(func() {}) // the group compiled c: Dir does not compile it again
	if c.err == nil || !strings.Contains(c.err.Error(), "C.java:2: error: cannot find symbol") {
		t.Errorf("c's error: %v", c.err)
	}
	if _, err := exec.LookPath("java"); err != nil {
		t.Log("no java launcher: the builds compiled one javac run each")
	}
}
