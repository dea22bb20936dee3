package verify

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"

	"birch/internal/frontend/java/classfile"
	"birch/internal/source"
)

// JavaOptions are the settings of a Java program's loading (docs/java.md).
type JavaOptions struct {
	// Main is the main class's binary name ("pkg.Main", --main); "" is the
	// one class with a method public static void main(String[]) (for a
	// .java file, the class named after the file first).
	Main string
	// MaxObjects bounds the objects of each allocation site and
	// MaxArrayLength the length of arrays (0: the front end's defaults).
	MaxObjects, MaxArrayLength int
	// Javac is the Java compiler for .java files; "" is "javac" on PATH.
	Javac string
}

// Bounds of what birch reads of a class path: no input makes it read
// without end (variables for the tests).
var (
	maxClassFiles          = 4096      // class files read
	maxClassFileSize int64 = 16 << 20  // bytes of one class file
	maxClassBytes    int64 = 256 << 20 // bytes of all class files
	maxDirEntries          = 100000    // entries of a directory tree walked
)

// The classes whose calls the lowering models by their names: their
// bodies (a stub's) are never lowered, whoever wrote the stub.
var modelledClasses = map[string]bool{
	"gov/nasa/jpf/vm/Verify":              true,
	"org/sosy_lab/sv_benchmarks/Verifier": true,
}

// IsJavaInput reports whether an input is a Java program: a .java or
// .class file, or a directory (a class path).
func IsJavaInput(name string) bool {
	switch strings.ToLower(filepath.Ext(name)) {
	case ".java", ".class":
		return true
	}
	return IsDir(name)
}

// IsDir reports whether name is a directory.
func IsDir(name string) bool {
	fi, err := os.Stat(name)
	return err == nil && fi.IsDir()
}

// loadJavaSource compiles a .java program with javac (compileJava) and
// loads its classes.
func loadJavaSource(name, display string, src []byte, opts LoadOptions) (*Input, error) {
	c, err := compileJava(name, src, opts.Java.Javac)
	if err != nil {
		return nil, err
	}
	defer c.cleanup()
	cp := &classPath{input: name, root: c.classDir}
	if err := cp.readTree(); err != nil {
		return nil, err
	}
	main, err := cp.mainClass(opts.Java.Main, strings.TrimSuffix(filepath.Base(name), filepath.Ext(name)))
	if err != nil {
		return nil, err
	}
	return loadJavaClasses(name, display, cp, main, c.root, opts)
}

// loadClassFile loads the program whose main class is the class file
// name (classFilePath).
func loadClassFile(name, display string, src []byte, opts LoadOptions) (*Input, error) {
	cp, main, err := classFilePath(name, src, opts.Java)
	if err != nil {
		return nil, err
	}
	return loadJavaClasses(name, display, cp, main, cp.root, opts)
}

// loadJar says what to do with a jar: birch reads class files, a
// directory of them or a .java file, not archives (a jar read as BIR gave
// a screen of "illegal character NUL").
func loadJar(name, display string, _ []byte, _ LoadOptions) (*Input, error) {
	return nil, fmt.Errorf("%s: a jar (a zip archive of class files) is not read by birch: unpack it (unzip -d DIR %s) and check the directory: birch check DIR --main pkg.Main (docs/java.md)", display, name)
}

// classFilePath is the class path of the class file name (whose bytes
// are src): its directory, walked up by the class's package, whose classes
// are read as the program uses them; and the main class, the class of the
// file unless opts names another.
func classFilePath(name string, src []byte, opts JavaOptions) (*classPath, string, error) {
	c, err := classfile.Parse(src)
	if err != nil {
		return nil, "", source.ErrorList{{Pos: source.Position{Filename: name}, Msg: err.Error()}}
	}
	dir := filepath.Dir(name)
	pkg := packageOf(c.Name)
	root := sourceRoot(dir, binaryName(pkg))
	cp := &classPath{input: name, root: root, lazy: true, bytes: int64(len(src)), count: 1}
	if pkg != "" && root == dir {
		// the directory is not the package's (javac without -d puts the
		// class files next to the sources): the package's other classes
		// are looked for in it too
		cp.flatPkg, cp.flatDir = pkg, dir
	}
	if err := cp.add(c, name); err != nil {
		return nil, "", err
	}
	main, err := cp.mainClass(opts.Main, binaryName(c.Name))
	return cp, main, err
}

// LoadDir loads the Java program of a directory: every class file below
// it is read (it is the class path root), the main class is
// opts.Java.Main or the only class with a main method.
func LoadDir(name string, opts LoadOptions) (*Input, error) {
	cp := &classPath{input: name, root: name}
	if err := cp.readTree(); err != nil {
		return nil, err
	}
	main, err := cp.mainClass(opts.Java.Main, "")
	if err != nil {
		return nil, err
	}
	return loadJavaClasses(name, name, cp, main, name, opts)
}

// loadJavaClasses lowers the program of the class path whose main class
// is main (an internal name) and loads the model. The program is the
// classes reachable from the main class through the names its class files
// refer to (as the JVM loads them), found on the class path; a class not
// there (java.lang's) is the lowering's to model or report.
func loadJavaClasses(name, display string, cp *classPath, main, srcDir string, opts LoadOptions) (*Input, error) {
	classes, err := cp.closure(main)
	if err != nil {
		return nil, err
	}
	return translateJava(name, display, classes, binaryName(main), srcDir, opts)
}

// classPath is the class files of a Java program: a directory tree read
// whole (readTree), or read as classes are asked for (lazy).
type classPath struct {
	input   string // the input as the user named it, for messages
	root    string
	lazy    bool
	classes map[string]*classfile.Class // by internal name
	files   map[string]string           // the file each class was read from
	missing map[string]bool             // names looked up and not found (lazy)
	// flatPkg: the package whose classes are in flatDir, a directory that
	// is not the package's (lazy)
	flatPkg, flatDir string
	aSource          string // a .java file of the tree (readTree), for messages
	count            int    // class files read
	bytes            int64  // their bytes
}

func (cp *classPath) errorf(format string, args ...any) error {
	return source.ErrorList{{Pos: source.Position{Filename: cp.input}, Msg: fmt.Sprintf(format, args...)}}
}

func (cp *classPath) add(c *classfile.Class, file string) error {
	if cp.classes == nil {
		cp.classes, cp.files = map[string]*classfile.Class{}, map[string]string{}
	}
	if prev, ok := cp.files[c.Name]; ok {
		return cp.errorf("two class files declare the class %s: %s and %s", binaryName(c.Name), prev, file)
	}
	cp.classes[c.Name], cp.files[c.Name] = c, file
	return nil
}

// readFile reads and parses one class file within the bounds.
func (cp *classPath) readFile(file string, size int64) (*classfile.Class, error) {
	cp.count++
	cp.bytes += size
	switch {
	case cp.count > maxClassFiles:
		return nil, cp.errorf("more than %d class files: birch reads at most %d", maxClassFiles, maxClassFiles)
	case size > maxClassFileSize:
		return nil, cp.errorf("%s: a class file of %d bytes: birch reads class files of at most %d", file, size, maxClassFileSize)
	case cp.bytes > maxClassBytes:
		return nil, cp.errorf("more than %d bytes of class files: birch reads at most that", maxClassBytes)
	}
	data, err := os.ReadFile(file)
	if err != nil {
		return nil, err
	}
	c, err := classfile.Parse(data)
	if err != nil {
		return nil, source.ErrorList{{Pos: source.Position{Filename: file}, Msg: err.Error()}}
	}
	return c, nil
}

// readTree reads every class file below the root.
func (cp *classPath) readTree() error {
	entries := 0
	err := filepath.WalkDir(cp.root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if entries++; entries > maxDirEntries {
			return cp.errorf("more than %d files and directories: birch walks at most %d", maxDirEntries, maxDirEntries)
		}
		if !d.IsDir() && cp.aSource == "" && strings.EqualFold(filepath.Ext(path), ".java") {
			cp.aSource = path
		}
		if d.IsDir() || !strings.EqualFold(filepath.Ext(path), ".class") {
			return nil
		}
		fi, err := d.Info()
		if err != nil {
			return err
		}
		if !fi.Mode().IsRegular() {
			return nil
		}
		c, err := cp.readFile(path, fi.Size())
		if err != nil {
			return err
		}
		if c.Access&classfile.AccModule != 0 {
			return nil // module-info.class
		}
		return cp.add(c, path)
	})
	if err != nil {
		var list source.ErrorList
		if !errors.As(err, &list) {
			return cp.errorf("%v", err)
		}
		return err
	}
	return nil
}

// get is the class of internal name name, or nil when the class path
// has none.
func (cp *classPath) get(name string) (*classfile.Class, error) {
	if c := cp.classes[name]; c != nil || !cp.lazy || cp.missing[name] || !fileName(name) {
		return c, nil
	}
	file := filepath.Join(cp.root, filepath.FromSlash(name)+".class")
	if cp.flatPkg != "" && packageOf(name) == cp.flatPkg {
		file = filepath.Join(cp.flatDir, name[len(cp.flatPkg)+1:]+".class")
	}
	fi, err := os.Stat(file)
	if err != nil || !fi.Mode().IsRegular() {
		if cp.missing == nil {
			cp.missing = map[string]bool{}
		}
		cp.missing[name] = true
		return nil, nil
	}
	c, err := cp.readFile(file, fi.Size())
	if err != nil {
		return nil, err
	}
	if c.Name != name {
		return nil, cp.errorf("%s declares the class %s, not %s", file, binaryName(c.Name), binaryName(name))
	}
	return c, cp.add(c, file)
}

// mainClass picks the main class (an internal name): the one named (a
// binary name, --main), or else prefer (a binary name, the class named
// after a .java file or the class file given) if it has a main method, or
// else the only class with one.
func (cp *classPath) mainClass(named, prefer string) (string, error) {
	if named != "" {
		in := internalName(named)
		c, err := cp.get(in)
		if err != nil {
			return "", err
		}
		if c == nil {
			return "", cp.errorf("--main %s: no such class in %s", named, cp.where())
		}
		if !hasMain(c) {
			return "", cp.errorf("--main %s: the class has no method public static void main(String[])", named)
		}
		return in, nil
	}
	if prefer != "" {
		if c, _ := cp.get(internalName(prefer)); c != nil && hasMain(c) {
			return c.Name, nil
		}
	}
	if cp.lazy {
		return "", cp.errorf("the class %s has no method public static void main(String[]); name the main class with --main", prefer)
	}
	var mains []string
	for name, c := range cp.classes {
		if hasMain(c) && !modelledClasses[name] {
			mains = append(mains, name)
		}
	}
	sort.Strings(mains)
	switch len(mains) {
	case 0:
		if len(cp.classes) == 0 && cp.aSource != "" {
			// a directory of sources: birch compiles a program given by
			// its main class's file
			return "", cp.errorf("no class files in %s, only Java sources: give the main class's .java file (such as %s), which birch compiles", cp.root, cp.aSource)
		}
		return "", cp.errorf("no class in %s has a method public static void main(String[])", cp.where())
	case 1:
		return mains[0], nil
	}
	for i := range mains {
		mains[i] = binaryName(mains[i])
	}
	return "", cp.errorf("%d classes have a main method (%s): name the main class with --main", len(mains), strings.Join(mains, ", "))
}

// where names the class path in messages.
func (cp *classPath) where() string {
	if cp.input != cp.root && strings.EqualFold(filepath.Ext(cp.input), ".java") {
		return "the program"
	}
	return cp.root
}

// closure is the classes reachable from main through the classes their
// class files name (superclass, interfaces, constant pool, descriptors),
// main first, then in the order they are found; names not on the class
// path and the classes the lowering models by name are left out.
func (cp *classPath) closure(main string) ([]*classfile.Class, error) {
	var out []*classfile.Class
	seen := map[string]bool{main: true}
	queue := []string{main}
	for len(queue) > 0 {
		name := queue[0]
		queue = queue[1:]
		c, err := cp.get(name)
		if err != nil {
			return nil, err
		}
		if c == nil {
			continue
		}
		out = append(out, c)
		for _, r := range classRefs(c) {
			if !seen[r] && !modelledClasses[r] {
				seen[r] = true
				queue = append(queue, r)
			}
		}
	}
	return out, nil
}

// descClass matches the class names of a descriptor ("Lpkg/Foo;"): in a
// descriptor an L starts a class name, since no primitive type's letter
// is L.
var descClass = regexp.MustCompile(`L([^;]+);`)

// classRefs is the internal names of the classes c names, in order.
func classRefs(c *classfile.Class) []string {
	var refs []string
	addDesc := func(desc string) {
		for _, m := range descClass.FindAllStringSubmatch(desc, -1) {
			refs = append(refs, m[1])
		}
	}
	add := func(name string) {
		if strings.HasPrefix(name, "[") {
			addDesc(name)
		} else if name != "" {
			refs = append(refs, name)
		}
	}
	add(c.Super)
	for _, i := range c.Interfaces {
		add(i)
	}
	for i, k := range c.Pool {
		switch k.(type) {
		case classfile.ClassRef:
			add(c.ClassAt(i))
		case classfile.NameAndType:
			if _, desc, ok := c.NameAndTypeAt(i); ok {
				addDesc(desc)
			}
		}
	}
	for _, f := range c.Fields {
		addDesc(f.Descriptor)
	}
	for _, m := range c.Methods {
		addDesc(m.Descriptor)
	}
	return refs
}

// hasMain reports whether c has a method public static void
// main(String[]).
func hasMain(c *classfile.Class) bool {
	for _, m := range c.Methods {
		if m.Name == "main" && m.Descriptor == "([Ljava/lang/String;)V" &&
			m.Access&(classfile.AccPublic|classfile.AccStatic) == classfile.AccPublic|classfile.AccStatic {
			return true
		}
	}
	return false
}

// fileName reports whether an internal class name names a file below the
// class path's root: a class file's names are read from its constant pool,
// whose text is the file's to choose.
func fileName(name string) bool {
	for _, part := range strings.Split(name, "/") {
		if part == "" || part == "." || part == ".." || strings.ContainsAny(part, "\\\x00") {
			return false
		}
	}
	return true
}

// packageOf is the package part of an internal name ("pkg/sub" of
// "pkg/sub/Foo").
func packageOf(internal string) string {
	if i := strings.LastIndexByte(internal, '/'); i >= 0 {
		return internal[:i]
	}
	return ""
}

func internalName(binary string) string { return strings.ReplaceAll(binary, ".", "/") }
func binaryName(internal string) string { return strings.ReplaceAll(internal, "/", ".") }
