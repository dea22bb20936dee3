package cli

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"regexp"
	"runtime/debug"
	"sort"
	"strconv"
	"strings"

	"birch/internal/source"
)

// Exit statuses.
const (
	ExitPass         = 0
	ExitViolation    = 1
	ExitBadInput     = 2
	ExitInconclusive = 3
)

// Version is birch's release version.
const Version = "0.1.0-dev"

// env is what a command may touch.
type env struct {
	stdin          io.Reader
	stdout, stderr io.Writer
}

// command is one subcommand.
type command struct {
	name  string
	args  string // argument synopsis
	short string // one line for `birch help`
	long  string // paragraphs for `birch help CMD` and `birch CMD -h`
	flags func(fs *flag.FlagSet) any
	// passArgs: the command passes arguments after "--" on (birch spin);
	// for other commands "--" only ends the flags.
	passArgs bool
	run      func(e *env, fs *flag.FlagSet, opts any) int
}

var commands = map[string]*command{}

func register(c *command) { commands[c.name] = c }

// Main runs birch with the given arguments (without the program name) and
// returns the exit status.
func Main(args []string, stdin io.Reader, stdout, stderr io.Writer) (status int) {
	stderr = &lineCap{w: stderr}
	e := &env{stdin: stdin, stdout: stdout, stderr: stderr}
	defer func() {
		if r := recover(); r != nil {
			fmt.Fprintf(stderr, "birch: internal error: %v\n%s", r, debug.Stack())
			fmt.Fprintln(stderr, "birch: this is a bug in birch; please report it with the input that caused it")
			status = ExitBadInput
		}
	}()
	if len(args) == 0 {
		usage(stderr)
		return ExitBadInput
	}
	name := args[0]
	switch name {
	case "help", "-h", "-help", "--help":
		return help(e, args[1:])
	case "version", "-version", "--version":
		fmt.Fprintf(stdout, "birch %s\n", versionString())
		return ExitPass
	}
	c, ok := commands[name]
	if !ok {
		fmt.Fprintf(stderr, "birch: unknown command %s%s; run 'birch help' for the list of commands\n", quote(name), didYouMean(name, commandNames()))
		return ExitBadInput
	}
	fs := flag.NewFlagSet("birch "+c.name, flag.ContinueOnError)
	// the flag package's own messages (and its usage, on stderr) give way
	// to one line with a suggestion (usageError)
	fs.SetOutput(io.Discard)
	fs.Usage = func() {}
	var opts any
	if c.flags != nil {
		opts = c.flags(fs)
	}
	if err := parseInterspersed(fs, args[1:], c.passArgs); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			commandUsage(stdout, c, fs)
			return ExitPass
		}
		fmt.Fprintf(stderr, "birch %s: %s; %s\n", c.name, usageError(err, fs), helpPointer(c))
		return ExitBadInput
	}
	if name := emptyFlag(fs); name != "" {
		// an empty --ltl, --property or --trail would otherwise read as
		// "not given": a plain check that can pass
		fmt.Fprintf(stderr, "birch %s: --%s: empty value; %s\n", c.name, name, helpPointer(c))
		return ExitBadInput
	}
	return c.run(e, fs, opts)
}

// emptyFlag returns the name of a flag given an empty (or blank) value, or
// "". No flag of birch takes an empty value: those whose default is empty
// mean "not given" by it.
func emptyFlag(fs *flag.FlagSet) string {
	name := ""
	fs.Visit(func(f *flag.Flag) {
		if name == "" && strings.TrimSpace(f.Value.String()) == "" {
			name = f.Name
		}
	})
	return name
}

// helpPointer tells where a command's usage is.
func helpPointer(c *command) string {
	return fmt.Sprintf("run 'birch %s -h' for usage", c.name)
}

// usageLine is helpPointer for a command's flag set, which a command's
// own usage mistake (a missing model) ends with.
func usageLine(fs *flag.FlagSet) string {
	return fmt.Sprintf("run '%s -h' for usage", fs.Name())
}

func versionString() string {
	v := Version
	if bi, ok := debug.ReadBuildInfo(); ok {
		var rev, dirty string
		for _, s := range bi.Settings {
			switch s.Key {
			case "vcs.revision":
				rev = s.Value
			case "vcs.modified":
				if s.Value == "true" {
					dirty = "+dirty"
				}
			}
		}
		if len(rev) > 12 {
			rev = rev[:12]
		}
		if rev != "" {
			v += " (" + rev + dirty + ")"
		}
		v += " " + bi.GoVersion
	}
	return v
}

// commandNames lists the commands, help and version included.
func commandNames() []string {
	names := []string{"help", "version"}
	for n := range commands {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// quote quotes a user's input for a message, at most source.MaxExcerpt
// characters of it.
func quote(s string) string { return strconv.Quote(source.Excerpt(s)) }

// The messages of package flag, which usageError rewrites.
var (
	undefinedFlagRE = regexp.MustCompile(`^flag provided but not defined: -(.*)$`)
	needsValueRE    = regexp.MustCompile(`^flag needs an argument: -(.*)$`)
	badValueRE      = regexp.MustCompile(`(?s)^invalid (?:boolean )?value (".*") for (?:flag )?-([^:]*): (.*)$`)
	badSyntaxRE     = regexp.MustCompile(`(?s)^bad flag syntax: (.*)$`)
)

// usageError turns an error of package flag into a short message in
// birch's terms: the flag as --name, at most an excerpt of the value, and
// for an unknown flag the closest one the command has.
func usageError(err error, fs *flag.FlagSet) string {
	msg := err.Error()
	if m := undefinedFlagRE.FindStringSubmatch(msg); m != nil {
		var names []string
		fs.VisitAll(func(f *flag.Flag) { names = append(names, f.Name) })
		return "unknown flag " + quote("--"+m[1]) + didYouMean(m[1], names, "--")
	}
	if m := needsValueRE.FindStringSubmatch(msg); m != nil {
		return "--" + source.Excerpt(m[1]) + " needs a value"
	}
	if m := badValueRE.FindStringSubmatch(msg); m != nil {
		v, uerr := strconv.Unquote(m[1])
		if uerr != nil {
			v = m[1]
		}
		why := m[3]
		switch why {
		case "parse error":
			why = "not a number"
		case "value out of range":
			why = "out of range"
		}
		if f := fs.Lookup(m[2]); f != nil {
			if b, ok := f.Value.(interface{ IsBoolFlag() bool }); ok && b.IsBoolFlag() {
				why = "want true or false"
			}
		}
		return fmt.Sprintf("--%s: invalid value %s: %s", m[2], quote(v), why)
	}
	if m := badSyntaxRE.FindStringSubmatch(msg); m != nil {
		return "bad flag syntax: " + quote(m[1])
	}
	return source.Excerpt(msg)
}

// didYouMean returns " (did you mean PREFIX+NAME?)" for the candidate
// closest to name, or "" when none is close: an edit distance of at most a
// third of the name's length (at least 1, at most 3), or else the only
// candidate that name is a prefix of.
func didYouMean(name string, candidates []string, prefix ...string) string {
	if len(name) > 100 {
		return ""
	}
	best, bestD := "", len(name)/3
	bestD = max(1, min(3, bestD))
	for _, c := range candidates {
		if d := editDistance(name, c); d <= bestD && (best == "" || d < editDistance(name, best)) {
			best = c
		}
	}
	if best == "" && name != "" {
		for _, c := range candidates {
			if strings.HasPrefix(c, name) {
				if best != "" {
					return "" // ambiguous
				}
				best = c
			}
		}
	}
	if best == "" {
		return ""
	}
	return " (did you mean " + strings.Join(prefix, "") + best + "?)"
}

// editDistance is the optimal string alignment distance of a and b: the
// insertions, deletions, substitutions and swaps of adjacent bytes that
// turn a into b.
func editDistance(a, b string) int {
	prev2 := make([]int, len(b)+1)
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && a[i-1] == b[j-2] && a[i-2] == b[j-1] {
				cur[j] = min(cur[j], prev2[j-2]+1)
			}
		}
		prev2, prev, cur = prev, cur, prev2
	}
	return prev[len(b)]
}

func usage(w io.Writer) {
	fmt.Fprintln(w, "birch is a software model checker with abstraction.")
	fmt.Fprintln(w)
	fmt.Fprintln(w, "Usage:")
	fmt.Fprintln(w, "\tbirch <command> [flags] [arguments]")
	fmt.Fprintln(w)
	fmt.Fprintln(w, "The commands are:")
	fmt.Fprintln(w)
	var names []string
	for n := range commands {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		fmt.Fprintf(w, "\t%-10s %s\n", n, commands[n].short)
	}
	fmt.Fprintf(w, "\t%-10s %s\n", "help", "explain birch or one of its commands")
	fmt.Fprintf(w, "\t%-10s %s\n", "version", "print birch's version")
	fmt.Fprintln(w)
	fmt.Fprintln(w, "Use 'birch help <command>' or 'birch <command> -h' for more about a command.")
	fmt.Fprintln(w)
	fmt.Fprintln(w, "Exit status: 0 pass (or well formed), 1 violation, 2 bad input or usage, 3 inconclusive.")
}

func help(e *env, args []string) int {
	if len(args) == 0 {
		usage(e.stdout)
		return ExitPass
	}
	switch args[0] {
	case "help":
		fmt.Fprintln(e.stdout, "usage: birch help [command]\n\nHelp prints the list of commands, or the documentation of one command.")
		return ExitPass
	case "version":
		fmt.Fprintln(e.stdout, "usage: birch version\n\nVersion prints birch's version, the source revision it was built from (when known) and the Go version.")
		return ExitPass
	}
	c, ok := commands[args[0]]
	if !ok {
		fmt.Fprintf(e.stderr, "birch help: unknown command %s%s; run 'birch help' for the list of commands\n", quote(args[0]), didYouMean(args[0], commandNames()))
		return ExitBadInput
	}
	fs := flag.NewFlagSet("birch "+c.name, flag.ContinueOnError)
	if c.flags != nil {
		c.flags(fs)
	}
	commandUsage(e.stdout, c, fs)
	return ExitPass
}

func commandUsage(w io.Writer, c *command, fs *flag.FlagSet) {
	fmt.Fprintf(w, "usage: birch %s %s\n\n", c.name, c.args)
	fmt.Fprintln(w, strings.TrimSpace(c.long))
	hasFlags := false
	fs.VisitAll(func(*flag.Flag) { hasFlags = true })
	if hasFlags {
		fmt.Fprintln(w, "\nFlags:")
		fs.SetOutput(w)
		fs.PrintDefaults()
	}
}

// parseInterspersed parses flags that may come before or after the
// positional arguments (`birch check MODEL --json`). Everything after "--"
// is positional, and "--" itself is kept among them so that commands passing
// arguments on (birch spin MODEL -- PAN FLAGS) can find it.
func parseInterspersed(fs *flag.FlagSet, args []string, keepDashes bool) error {
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			return err
		}
		rest := fs.Args()
		if len(rest) == 0 {
			break
		}
		if consumed := len(args) - len(rest); consumed > 0 && args[consumed-1] == "--" {
			if keepDashes {
				pos = append(pos, "--")
			}
			pos = append(pos, rest...)
			break
		}
		pos = append(pos, rest[0])
		args = rest[1:]
	}
	return fs.Parse(append([]string{"--"}, pos...))
}
