package cli

import (
	"bytes"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"birch/internal/bir/format"
	"birch/internal/source"
)

type fmtOptions struct {
	write bool
	list  bool
}

func init() {
	register(&command{
		name:  "fmt",
		args:  "[-w | -l] [FILE | DIRECTORY | -]...",
		short: "print BIR models in the canonical layout",
		long: `
Fmt prints each BIR model in birch's one canonical layout, keeping every
comment. With no FILE, or with "-", it reads standard input. Formatting never
changes a model's meaning and formatting twice changes nothing more.

A DIRECTORY stands for every .bir file under it, as with gofmt.

With -w, each FILE is rewritten in place when its layout differs (nothing is
printed); with -l, the names of the files whose layout differs are printed.
A file with syntax errors is left alone and its errors are reported as
file:line:col: message.

Exit status: 0 on success, 2 when a file could not be read or parsed.`,
		flags: func(fs *flag.FlagSet) any {
			o := &fmtOptions{}
			fs.BoolVar(&o.write, "w", false, "write the result to each file instead of standard output")
			fs.BoolVar(&o.list, "l", false, "list files whose layout differs from the canonical one")
			return o
		},
		run: runFmt,
	})
}

func runFmt(e *env, fs *flag.FlagSet, opts any) int {
	o := opts.(*fmtOptions)
	files := fs.Args()
	if len(files) == 0 {
		files = []string{"-"}
	}
	files, status := expandDirs(e, files)
	for _, name := range files {
		if name == "-" && o.write {
			fmt.Fprintln(e.stderr, "birch fmt: cannot use -w with standard input")
			return ExitBadInput
		}
		src, err := readSource(e, name)
		if err != nil {
			fmt.Fprintf(e.stderr, "birch: %v\n", err)
			status = ExitBadInput
			continue
		}
		display := name
		if name == "-" {
			display = "<stdin>"
		}
		out, err := format.Source(display, src)
		if err != nil {
			source.Print(e.stderr, err, maxShownErrors)
			status = ExitBadInput
			continue
		}
		switch {
		case o.list:
			if !bytes.Equal(src, out) {
				fmt.Fprintln(e.stdout, name)
			}
		case o.write:
			if bytes.Equal(src, out) {
				continue
			}
			info, err := os.Stat(name)
			if err != nil {
				fmt.Fprintf(e.stderr, "birch: %v\n", err)
				status = ExitBadInput
				continue
			}
			if err := os.WriteFile(name, out, info.Mode().Perm()); err != nil {
				fmt.Fprintf(e.stderr, "birch: %v\n", err)
				status = ExitBadInput
			}
		default:
			e.stdout.Write(out)
		}
	}
	return status
}

// expandDirs replaces each directory of names by the .bir files under it, in
// lexical order, as gofmt does with .go files.
func expandDirs(e *env, names []string) ([]string, int) {
	status := ExitPass
	var files []string
	for _, name := range names {
		info, err := os.Stat(name)
		if name == "-" || err != nil || !info.IsDir() {
			files = append(files, name) // reading it reports the error
			continue
		}
		err = filepath.WalkDir(name, func(path string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if !d.IsDir() && strings.HasSuffix(path, ".bir") {
				files = append(files, path)
			}
			return nil
		})
		if err != nil {
			fmt.Fprintf(e.stderr, "birch: %v\n", err)
			status = ExitBadInput
		}
	}
	return files, status
}
