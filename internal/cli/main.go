package cli

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"runtime/debug"
	"sort"
	"strings"

	"birch/internal/verify"
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
	// load: the front ends' settings (--data-model, --overflow-error);
	// unsupported: an input used a construct its front end does not
	// handle (the command's exit status 2 becomes 3, inconclusive).
	load        verify.LoadOptions
	unsupported bool
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
	cf, jf := addCFlags(fs, c.name), addJavaFlags(fs, c.name)
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
	if !cf.apply(e, c.name) || !jf.apply(e, c.name) {
		return ExitBadInput
	}
	status = c.run(e, fs, opts)
	if status == ExitBadInput && e.unsupported {
		status = ExitInconclusive
	}
	return status
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
	addCFlags(fs, c.name)
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
