package verify

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"birch/internal/frontend/java"
	"birch/internal/source"
	"birch/internal/testenv"
)

// writeFiles writes files (path -> text) under dir.
func writeFiles(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for name, text := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// TestCompileJavaSourceRootAndStubs: a program of package app.main in
// src/app/main is compiled with its source root src on the source path
// (its helper in another file of another package compiles along), birch's
// stub of Verify comes along because the program calls it, and the
// program's own Verifier (with a method birch's stub has not) shadows
// birch's.
func TestCompileJavaSourceRootAndStubs(t *testing.T) {
	testenv.SkipWithoutJavac(t)
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"src/app/main/Main.java": `/* a comment with package x; */
// package y;
package app . main;

import app.util.Helper;
import gov.nasa.jpf.vm.Verify;
import org.sosy_lab.sv_benchmarks.Verifier;

public class Main {
    public static void main(String[] args) {
        int x = Verify.getInt(0, 3) + Helper.one() + Verifier.ownNondet();
        assert x < 10;
    }
}
`,
		"src/app/util/Helper.java":                     "package app.util;\npublic class Helper { public static int one() { return 1; } }\n",
		"src/org/sosy_lab/sv_benchmarks/Verifier.java": "package org.sosy_lab.sv_benchmarks;\npublic class Verifier { public static int ownNondet() { return 2; } }\n",
	})
	name := filepath.Join(dir, "src/app/main/Main.java")
	src, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	c, err := compileJava(name, src, "")
	if err != nil {
		t.Fatal(err)
	}
	defer c.cleanup()
	if want := filepath.Join(dir, "src"); c.root != want {
		t.Errorf("source root %s, want %s", c.root, want)
	}
	for _, f := range []string{"app/main/Main.class", "app/util/Helper.class", "gov/nasa/jpf/vm/Verify.class", "org/sosy_lab/sv_benchmarks/Verifier.class"} {
		if _, err := os.Stat(filepath.Join(c.classDir, f)); err != nil {
			t.Errorf("%s not compiled: %v", f, err)
		}
	}
	b, err := os.ReadFile(filepath.Join(c.classDir, "org/sosy_lab/sv_benchmarks/Verifier.class"))
	if err != nil || !bytes.Contains(b, []byte("ownNondet")) || bytes.Contains(b, []byte("nondetInt")) {
		t.Errorf("the program's own Verifier was not the one compiled (err %v)", err)
	}
	c.cleanup()
	if _, err := os.Stat(c.tmp); !os.IsNotExist(err) {
		t.Errorf("the temporary directory %s is left after cleanup (%v)", c.tmp, err)
	}
}

// TestCompileJavaErrors: javac's errors are birch's diagnostics, at
// birch's columns (bytes; javac expands tabs), with the lines javac adds
// to a message (symbol, location) on its line.
func TestCompileJavaErrors(t *testing.T) {
	testenv.SkipWithoutJavac(t)
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"Bad.java": "public class Bad {\n\tpublic static void main(String[] args) {\n\t\tint x = y + 1;\n        String s = 3;\n\t}\n}\n",
	})
	name := filepath.Join(dir, "Bad.java")
	src, _ := os.ReadFile(name)
	_, err := compileJava(name, src, "")
	var list source.ErrorList
	if !errors.As(err, &list) {
		t.Fatalf("want a source.ErrorList, got %v", err)
	}
	got := ""
	for _, e := range list {
		got += e.Error() + "\n"
	}
	want := name + ":3:11: cannot find symbol; symbol: variable y; location: class Bad\n" +
		name + ":4:20: incompatible types: int cannot be converted to String\n"
	if got != want {
		t.Errorf("got\n%swant\n%s", got, want)
	}
}

// TestCompileJavaNoJavac: without javac, a .java program is an error that
// says so.
func TestCompileJavaNoJavac(t *testing.T) {
	_, err := compileJava("Main.java", []byte("class Main {}"), "birch-test-no-such-javac")
	if err == nil || !strings.Contains(err.Error(), "Main.java: cannot compile the Java program: birch-test-no-such-javac not found") {
		t.Errorf("got %v", err)
	}
}

func TestJavacOutputForms(t *testing.T) {
	src := []byte("class A {\n\tint x = \"é\" + y;\n}\n")
	out := "A.java:2: error: cannot find symbol\n  symbol: variable y\n1 error\n" +
		"\x01birch\x01A.java\x012\x0122\x01error: bad\n" +
		"\x01birch\x01A.java\x012\x019\x01warning: ignored\n" +
		"\x01birch\x01\x01\x01\x01error: no position\n"
	var list source.ErrorList
	errors.As(javacErrors([]byte(out), "A.java", src), &list)
	var got []string
	for _, e := range list {
		got = append(got, e.Error())
	}
	want := []string{"A.java:2:1: cannot find symbol; symbol: variable y", "A.java:2:16: bad", "no position"}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("got %q, want %q", got, want)
	}
	if err := javacErrors([]byte("Usage: javac\n"), "A.java", src); err == nil || err.Error() != "A.java: javac: Usage: javac" {
		t.Errorf("unreadable output: %v", err)
	}
}

func TestJavaPackageAndRoot(t *testing.T) {
	for _, c := range []struct{ src, pkg string }{
		{"package a.b;", "a.b"},
		{"// package x;\n/* package y; */ package  a . b ;\nclass C {}", "a.b"},
		{"@Deprecated(since=\"1\") package p;", "p"},
		{"class C { package x; }", ""},
		{"packagex.y;", ""},
		{"import a.b;", ""},
	} {
		if got := javaPackage([]byte(c.src)); got != c.pkg {
			t.Errorf("javaPackage(%q) = %q, want %q", c.src, got, c.pkg)
		}
	}
	for _, c := range []struct{ dir, pkg, root string }{
		{"src/a/b", "a.b", "src"},
		{"a/b", "a.b", "."},
		{"src/x/b", "a.b", "src/x/b"},
		{"examples/java", "", "examples/java"},
	} {
		if got := sourceRoot(c.dir, c.pkg); got != c.root {
			t.Errorf("sourceRoot(%q, %q) = %q, want %q", c.dir, c.pkg, got, c.root)
		}
	}
}

// TestCompileJavaFlatPackage: a file of a package in a directory that is
// not the package's is compiled with the files of its directory that
// declare the same package (and not the others).
func TestCompileJavaFlatPackage(t *testing.T) {
	testenv.SkipWithoutJavac(t)
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"Main.java":  "package p;\npublic class Main { public static void main(String[] a) { Util.f(); } }\n",
		"Util.java":  "package p;\nclass Util { static void f() {} }\n",
		"Other.java": "package q;\nclass Other { int x = ; }\n",
	})
	name := filepath.Join(dir, "Main.java")
	src, _ := os.ReadFile(name)
	c, err := compileJava(name, src, "")
	if err != nil {
		t.Fatal(err)
	}
	defer c.cleanup()
	if _, err := os.Stat(filepath.Join(c.classDir, "p", "Util.class")); err != nil {
		t.Error(err)
	}
}

// TestCompileJavaTimeout: javac that does not finish in time is stopped,
// and the check is inconclusive (a limit of birch's, not bad input).
func TestCompileJavaTimeout(t *testing.T) {
	testenv.SkipWithoutJavac(t)
	saved := javacTimeout
	javacTimeout = time.Millisecond
	defer func() { javacTimeout = saved }()
	name := filepath.Join(t.TempDir(), "Main.java")
	src := []byte("class Main {}\n")
	os.WriteFile(name, src, 0o644)
	_, err := compileJava(name, src, "")
	var ue *java.UnsupportedError
	if !errors.As(err, &ue) || err.Error() != name+": javac did not finish within 1ms" {
		t.Errorf("got %v", err)
	}
}
