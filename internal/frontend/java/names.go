package java

import (
	"fmt"
	"os"
	"path"
	"path/filepath"
	"strings"

	"birch/internal/frontend/java/classfile"
)

// birKeywords are BIR's reserved words and predeclared names, which Java
// names are not given unchanged (ISSUE 23 §3: a trailing _).
var birKeywords = map[string]bool{}

func init() {
	for _, k := range strings.Fields(`system process end const extends collection of record enum range int
		boolean tid lock wait reentrant ref array main thread function loc live when do invisible goto
		return new internChoose externChoose forall reachable unlock unwait notify notifyAll start exit
		println assert assume call lockAvailable hasLock wasNotified threadTerminated instanceof length
		true false null predicates properties invariant ltl Object int8 int16 int32 int64 uint8 uint16
		uint32 uint64 X U R W`) {
		birKeywords[k] = true
	}
}

// uniqueName gives name, or name_2, name_3, … if it is taken (a BIR
// keyword gets a _ appended first), and takes it.
func uniqueName(name string, used map[string]bool) string {
	name = birName(name)
	n := name
	for k := 2; birKeywords[n] || used[n]; k++ {
		n = fmt.Sprintf("%s_%d", name, k)
	}
	used[n] = true
	return n
}

// birName makes a Java identifier a BIR one: characters BIR names do not
// hold become _, and a keyword gets a trailing _.
func birName(name string) string {
	var b strings.Builder
	for i, r := range name {
		switch {
		case r == '_' || r == '$' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || i > 0 && r >= '0' && r <= '9':
			b.WriteRune(r)
		default:
			b.WriteByte('_')
		}
	}
	s := b.String()
	if s == "" {
		s = "_"
	}
	if birKeywords[s] {
		s += "_"
	}
	return s
}

// simpleName is a class's name without its package ("bank/Account" ->
// "Account"; a nested class keeps its $: "Outer$Inner").
func simpleName(internal string) string {
	return internal[strings.LastIndexByte(internal, '/')+1:]
}

// binaryName is a class's binary name ("bank/Account" -> "bank.Account").
func binaryName(internal string) string { return strings.ReplaceAll(internal, "/", ".") }

// methodDisplay is a method as trails show it: "bank.Account.deposit(int)".
func methodDisplay(class, name, desc string) string {
	params, _, err := classfile.ParseMethodType(desc)
	var ps []string
	if err == nil {
		for _, p := range params {
			ps = append(ps, p.String())
		}
	}
	return binaryName(class) + "." + name + "(" + strings.Join(ps, ",") + ")"
}

// sourcePath is the path a class's source file is named by in the
// model's //line directives: the first of DIR/pkg/File.java and
// DIR/File.java that exists under a source directory, else pkg/File.java.
func sourcePath(c *classfile.Class, dirs []string) string {
	file := c.SourceFile
	if file == "" {
		outer, _, _ := strings.Cut(simpleName(c.Name), "$")
		file = outer + ".java"
	}
	pkg := path.Dir(c.Name)
	if pkg == "." {
		pkg = ""
	}
	for _, d := range dirs {
		for _, p := range []string{filepath.Join(d, filepath.FromSlash(pkg), file), filepath.Join(d, file)} {
			if st, err := os.Stat(p); err == nil && !st.IsDir() {
				return p
			}
		}
	}
	return filepath.Join(filepath.FromSlash(pkg), file)
}
