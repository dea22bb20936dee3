package java_test

import (
	"os"
	"path/filepath"
	"testing"

	java "birch/internal/frontend/java"
	"birch/internal/frontend/java/classfile"
)

// FuzzTranslate lowers class files that parse: the lowering never
// panics (a panic would be an "internal error" UnsupportedError, which
// the fuzzer reports too) and never hangs. The seeds are the test
// programs' classes (when javac is installed).
func FuzzTranslate(f *testing.F) {
	if dir := progs.Dir(f); dir != "" {
		for _, name := range []string{"Arith", "Branches", "Recursion", "DiffMisc", "RefJoin"} {
			if data, err := os.ReadFile(filepath.Join(dir, name+".class")); err == nil {
				f.Add(data)
			}
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		c, err := classfile.Parse(data)
		if err != nil {
			return
		}
		_, err = java.Translate([]*classfile.Class{c}, java.Config{})
		if ue, ok := err.(*java.UnsupportedError); ok {
			for _, e := range ue.List {
				if len(e.Msg) >= 11 && e.Msg[:11] == "internal er" {
					t.Fatalf("the lowering panicked: %v", e)
				}
			}
		}
	})
}
