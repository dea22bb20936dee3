package cli

import (
	"errors"
	"flag"
	"fmt"
	"strings"

	cfront "birch/internal/frontend/c"
	"birch/internal/frontend/java"
	"birch/internal/source"
	"birch/internal/verify"
)

// Java programs (docs/java.md): the Java front end's flags of every command
// that loads inputs, and the loading of a directory (a class path).

// javaFlags are the Java front end's flags of a command.
type javaFlags struct {
	main           string
	maxObjects     int
	maxArrayLength int
}

// maxJavaBound bounds --max-objects and --max-array-length: a model's
// state has at most 2^20 slots (docs/bir.md, "Limits and bounds").
const maxJavaBound = 1 << 20

// addJavaFlags registers the Java front end's flags on the flag set of a
// command that loads inputs (nil for the others).
func addJavaFlags(fs *flag.FlagSet, cmd string) *javaFlags {
	if !cInputCommands[cmd] {
		return nil
	}
	f := &javaFlags{}
	fs.StringVar(&f.main, "main", "", "Java programs: the main class `pkg.Main` (default: the one class with a main method)")
	fs.IntVar(&f.maxObjects, "max-objects", 0, "Java programs: the objects each allocation site (new) may create; more cuts the path (inconclusive) (0: 4)")
	fs.IntVar(&f.maxArrayLength, "max-array-length", 0, "Java programs: the longest array; a longer one cuts the path (inconclusive) (0: 8)")
	return f
}

// apply puts the flags into the loading settings; false after a usage
// error (printed).
func (f *javaFlags) apply(e *env, cmd string) bool {
	if f == nil {
		return true
	}
	for _, b := range []struct {
		name string
		v    int
	}{{"max-objects", f.maxObjects}, {"max-array-length", f.maxArrayLength}} {
		if b.v < 0 || b.v > maxJavaBound {
			fmt.Fprintf(e.stderr, "birch %s: --%s: %d is not in 0..%d\n", cmd, b.name, b.v, maxJavaBound)
			return false
		}
	}
	e.load.Java.Main, e.load.Java.MaxObjects, e.load.Java.MaxArrayLength = f.main, f.maxObjects, f.maxArrayLength
	return true
}

// loadDirInput loads a directory input, a Java class path (verify.LoadDir);
// ok is false for any other input.
func loadDirInput(e *env, name string) (in *verify.Input, ok bool, err error) {
	if name == "-" || !verify.IsDir(name) {
		return nil, false, nil
	}
	in, err = verify.LoadDir(name, e.load)
	return in, true, err
}

// unsupportedOf is the constructs of a C or Java program its front end
// does not handle, and the program's language, when err says so.
func unsupportedOf(err error) (lang string, list source.ErrorList, ok bool) {
	var ce *cfront.UnsupportedError
	if errors.As(err, &ce) {
		return "C", ce.List, true
	}
	var je *java.UnsupportedError
	if errors.As(err, &je) {
		return "Java", je.List, true
	}
	return "", nil, false
}

// phaseJavaFrontEnd is the phase of a check that the Java front end ended.
const phaseJavaFrontEnd = "Java front end"

// javaUnsupportedResult is the inconclusive check of a Java program with
// constructs the lowering does not handle: no search, each construct
// named with its position (as unsupportedResult for C).
func javaUnsupportedResult(name, search string, list source.ErrorList) *verify.Result {
	parts := make([]string, len(list))
	for i, e := range list {
		parts[i] = e.Error()
	}
	reason := "the Java program uses constructs birch does not handle: " + strings.Join(parts, "; ")
	return noSearch(name, search, phaseJavaFrontEnd, reason, "the Java program is not lowered to a model")
}
