// Package stubs holds birch's own Java sources of the classes through
// which a program chooses its inputs: Java PathFinder's
// gov.nasa.jpf.vm.Verify (getInt(lo, hi), getBoolean(), ...) and SV-COMP's
// org.sosy_lab.sv_benchmarks.Verifier (nondetInt(), ..., assume(c)).
//
// birch check Main.java compiles a program with javac; these sources are on
// javac's source path after the program's own source root, so javac
// compiles one only when the program refers to its class and the program
// brings no class of that name itself. The lowering never runs their
// bodies: it models each call by its name (internal/frontend/java).
package stubs

import (
	"embed"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

//go:embed gov/nasa/jpf/vm/Verify.java org/sosy_lab/sv_benchmarks/Verifier.java
var files embed.FS

// Classes are the binary names of the classes the stubs declare.
var Classes = []string{"gov.nasa.jpf.vm.Verify", "org.sosy_lab.sv_benchmarks.Verifier"}

// Source is the text of the stub of the class named by its binary name
// ("gov.nasa.jpf.vm.Verify"), or nil.
func Source(class string) []byte {
	b, err := files.ReadFile(strings.ReplaceAll(class, ".", "/") + ".java")
	if err != nil {
		return nil
	}
	return b
}

// WriteTree writes the stub sources under dir in their package
// directories (dir/gov/nasa/jpf/vm/Verify.java, ...), a source root for
// javac's -sourcepath.
func WriteTree(dir string) error {
	return fs.WalkDir(files, ".", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := files.ReadFile(path)
		if err != nil {
			return err
		}
		dst := filepath.Join(dir, filepath.FromSlash(path))
		if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
			return err
		}
		return os.WriteFile(dst, b, 0o644)
	})
}
