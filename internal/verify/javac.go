package verify

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"time"

	"birch/internal/frontend/java"
	"birch/internal/frontend/java/stubs"
	"birch/internal/procgroup"
	"birch/internal/source"
)

// javacTimeout bounds javac's run: no input makes birch hang.
var javacTimeout = 2 * time.Minute

// JavacJVMFlags start javac's JVM for a short run: about a third less
// CPU than its defaults, half the wall time on a loaded machine
// (docs/performance.md).
var JavacJVMFlags = []string{"-J-XX:TieredStopAtLevel=1", "-J-XX:+UseSerialGC"}

// javacLayout is the form of javac's diagnostics birch reads: the marker,
// then file, line, column, the kind ("error: ", "warning: ") and the
// message, whose further lines (symbol:, location:) follow (javac's
// -XDdiags.layout; -XDdiags.showSource=false leaves out the source line
// and the caret).
const javacLayout = "\x01birch\x01%f\x01%l\x01%c\x01%p%m"

// javacDiag matches one diagnostic of javacLayout.
var javacDiag = regexp.MustCompile("^\x01birch\x01(.*)\x01(-?\\d*)\x01(-?\\d*)\x01(.*)$")

// javacPlainDiag matches javac's usual form, `File.java:12: error: msg`,
// for a javac that ignores the layout option.
var javacPlainDiag = regexp.MustCompile(`^(.+\.java):(\d+): error: (.*)$`)

// compiledJava is a Java program javac compiled.
type compiledJava struct {
	classDir string // the class files (a class path root)
	root     string // the program's source root (its file's directory, walked up by its package)
	tmp      string // the temporary directory of both; removed by cleanup
}

func (c *compiledJava) cleanup() { os.RemoveAll(c.tmp) }

// compileJava compiles the Java source file name (whose text is src) with
// javac -g into a temporary directory. The program's source root is on
// javac's source path, so that the classes it uses from other files of
// its packages are compiled along; birch's stubs of Verify and Verifier
// come after it, compiled only when the program refers to them and has no
// class of their names. javac's errors are a source.ErrorList; a missing
// javac is one too.
func compileJava(name string, src []byte, javac string) (*compiledJava, error) {
	if javac == "" {
		javac = "javac"
	}
	if _, err := exec.LookPath(javac); err != nil {
		return nil, source.ErrorList{{Pos: source.Position{Filename: name},
			Msg: fmt.Sprintf("cannot compile the Java program: %s not found (install a JDK, such as Debian's openjdk-17-jdk-headless, or give birch the program's .class files)", javac)}}
	}
	pkg := javaPackage(src)
	root := sourceRoot(filepath.Dir(name), pkg)
	files := []string{name}
	if pkg != "" && root == filepath.Dir(name) {
		// the directory is not the package's, so the source path does
		// not find the package's other files: they are compiled along
		files = append(files, samePackage(name, pkg)...)
	}
	tmp, err := os.MkdirTemp("", "birch-javac-")
	if err != nil {
		return nil, err
	}
	c := &compiledJava{classDir: filepath.Join(tmp, "classes"), root: root, tmp: tmp}
	stubDir := filepath.Join(tmp, "stubs")
	if err := stubs.WriteTree(stubDir); err != nil {
		c.cleanup()
		return nil, err
	}
	args := append(append([]string{}, JavacJVMFlags...), "-g", "-encoding", "UTF-8", "-implicit:class", "-nowarn", "-Xlint:none",
		"-XDdiags.layout="+javacLayout, "-XDdiags.showSource=false",
		"-sourcepath", root+string(filepath.ListSeparator)+stubDir,
		"-classpath", root, "-d", c.classDir)
	args = append(args, files...)
	ctx, cancel := context.WithTimeout(context.Background(), javacTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, javac, args...)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	// javac's JVM and its threads stop with birch, and all of it at the
	// timeout
	cmd.SysProcAttr = procgroup.Attr()
	cmd.Cancel = func() error { return procgroup.Kill(cmd.Process.Pid, syscall.SIGKILL) }
	cmd.WaitDelay = time.Second
	err = cmd.Run()
	if ctx.Err() == context.DeadlineExceeded {
		// not the program's fault (a loaded machine, say): a limit, so
		// the verdict is inconclusive, not bad input (as gcc's for C)
		c.cleanup()
		return nil, &java.UnsupportedError{List: source.ErrorList{{Pos: source.Position{Filename: name},
			Msg: fmt.Sprintf("javac did not finish within %v", javacTimeout)}}}
	}
	if err != nil {
		c.cleanup()
		return nil, javacErrors(out.Bytes(), name, src)
	}
	return c, nil
}

// maxSiblings bounds the files of a directory read for their package.
const maxSiblings = 1000

// samePackage is the other .java files of name's directory that declare
// the package pkg.
func samePackage(name, pkg string) []string {
	entries, err := os.ReadDir(filepath.Dir(name))
	if err != nil {
		return nil
	}
	var out []string
	for i, d := range entries {
		p := filepath.Join(filepath.Dir(name), d.Name())
		if i >= maxSiblings {
			break
		}
		if d.IsDir() || filepath.Ext(p) != ".java" || p == filepath.Join(filepath.Dir(name), filepath.Base(name)) {
			continue
		}
		fi, err := d.Info()
		if err != nil || !fi.Mode().IsRegular() || fi.Size() > maxJavaSource {
			continue
		}
		if src, err := os.ReadFile(p); err == nil && javaPackage(src) == pkg {
			out = append(out, p)
		}
	}
	return out
}

// javacErrors turns javac's output into positioned errors (warnings and
// notes left out); output without a diagnostic birch can read is one
// error at the file.
func javacErrors(out []byte, name string, src []byte) error {
	var list source.ErrorList
	lines := strings.Split(string(out), "\n")
	texts := map[string][]byte{name: src}
	for i := 0; i < len(lines); i++ {
		file, ln, col, msg, ok := javacDiagAt(lines[i])
		if !ok {
			continue
		}
		isErr := strings.HasPrefix(msg, "error: ")
		msg = strings.TrimPrefix(msg, "error: ")
		// the message's further lines: symbol:, location:, required: ...
		for i+1 < len(lines) && strings.HasPrefix(lines[i+1], " ") {
			i++
			if s := strings.Join(strings.Fields(lines[i]), " "); s != "" {
				msg += "; " + s
			}
		}
		if !isErr {
			continue
		}
		pos := source.Position{Filename: file}
		if ln > 0 {
			pos.Line, pos.Column = ln, 1
			if col > 0 {
				pos.Column = byteColumn(fileLine(texts, file, ln), col)
			}
		}
		list.Add(pos, source.ExcerptN(msg, 500))
	}
	if len(list) == 0 {
		msg := strings.TrimSpace(string(out))
		if msg == "" {
			msg = "javac failed"
		}
		list.Add(source.Position{Filename: name}, "javac: "+source.ExcerptN(msg, 500))
	}
	return list
}

// javacDiagAt reads one line of javac's output as the start of a
// diagnostic: javacLayout's form, or javac's usual one.
func javacDiagAt(line string) (file string, ln, col int, msg string, ok bool) {
	if m := javacDiag.FindStringSubmatch(line); m != nil {
		ln, _ = strconv.Atoi(m[2])
		col, _ = strconv.Atoi(m[3])
		return m[1], ln, col, m[4], true
	}
	if m := javacPlainDiag.FindStringSubmatch(line); m != nil {
		ln, _ = strconv.Atoi(m[2])
		return m[1], ln, 0, "error: " + m[3], true
	}
	return "", 0, 0, "", false
}

// maxJavaSource bounds what is read of a source file to place an error.
const maxJavaSource = 16 << 20

// fileLine is line ln (1-based) of file, read once into texts; "" when
// the file cannot be read.
func fileLine(texts map[string][]byte, file string, ln int) string {
	text, ok := texts[file]
	if !ok {
		if fi, err := os.Stat(file); err == nil && fi.Mode().IsRegular() && fi.Size() <= maxJavaSource {
			text, _ = os.ReadFile(file)
		}
		texts[file] = text
	}
	for i := 1; i < ln; i++ {
		j := bytes.IndexByte(text, '\n')
		if j < 0 {
			return ""
		}
		text = text[j+1:]
	}
	if j := bytes.IndexByte(text, '\n'); j >= 0 {
		text = text[:j]
	}
	return string(text)
}

// byteColumn turns javac's column on a line (tabs expanded to multiples
// of 8, a character counted as its UTF-16 units) into birch's (bytes).
func byteColumn(line string, col int) int {
	c := 1
	for off, r := range line {
		if c >= col {
			return off + 1
		}
		switch {
		case r == '\t':
			c += 8 - (c-1)%8
		case r >= 0x10000:
			c += 2
		default:
			c++
		}
	}
	return len(line) + 1 + (col - c)
}

// javaPackage is the package a Java source file declares ("" for the
// unnamed package): the first tokens after comments and annotations.
func javaPackage(src []byte) string {
	s := stripJavaComments(src)
	for {
		s = strings.TrimSpace(s)
		if !strings.HasPrefix(s, "@") {
			break
		}
		// an annotation of the package (package-info.java): skip its
		// name and arguments
		s = strings.TrimLeftFunc(s[1:], isJavaNamePart)
		s = strings.TrimSpace(s)
		if strings.HasPrefix(s, "(") {
			if j := strings.IndexByte(s, ')'); j >= 0 {
				s = s[j+1:]
			}
		}
	}
	rest, ok := strings.CutPrefix(s, "package")
	if !ok || rest == "" || isJavaNamePart(rune(rest[0])) {
		return ""
	}
	end := strings.IndexByte(rest, ';')
	if end < 0 {
		return ""
	}
	return strings.Join(strings.Fields(rest[:end]), "")
}

// stripJavaComments is the start of src (up to its first '{', enough for
// the package declaration) without comments.
func stripJavaComments(src []byte) string {
	if i := bytes.IndexByte(src, '{'); i >= 0 {
		src = src[:i]
	}
	var b strings.Builder
	for i := 0; i < len(src); i++ {
		switch {
		case src[i] == '/' && i+1 < len(src) && src[i+1] == '/':
			for i < len(src) && src[i] != '\n' {
				i++
			}
			b.WriteByte('\n')
		case src[i] == '/' && i+1 < len(src) && src[i+1] == '*':
			j := bytes.Index(src[i+2:], []byte("*/"))
			if j < 0 {
				return b.String()
			}
			i += j + 3
			b.WriteByte(' ')
		default:
			b.WriteByte(src[i])
		}
	}
	return b.String()
}

func isJavaNamePart(r rune) bool {
	return r == '_' || r == '$' || r == '.' || r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= 0x80
}

// sourceRoot is the source root of a file of package pkg in dir: dir
// walked up by the package's names when dir ends in them, dir otherwise.
func sourceRoot(dir, pkg string) string {
	if pkg == "" {
		return dir
	}
	parts := strings.Split(pkg, ".")
	d := filepath.Clean(dir)
	for i := len(parts) - 1; i >= 0; i-- {
		if filepath.Base(d) != parts[i] {
			return dir
		}
		d = filepath.Dir(d)
	}
	return d
}
