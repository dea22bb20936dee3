package types_test

import (
	"flag"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"

	"birch/internal/bir/parser"
	"birch/internal/bir/scanner"
	"birch/internal/bir/token"
	"birch/internal/bir/types"
	"birch/internal/source"
)

var listErrors = flag.Bool("errlist", false, "list the errors found in each test file")

// expectation is an ERROR comment: the error must be reported on its line,
// at or after the token just before the comment and before the comment.
type expectation struct {
	line     int
	from, to int // column range
	rx       *regexp.Regexp
	text     string
	matched  bool
}

var errorComment = regexp.MustCompile(`^/\* ERROR (".*") \*/$`)

func expectations(t *testing.T, fset *source.FileSet, name string, src []byte) []*expectation {
	var out []*expectation
	file := fset.AddFile(name+"#scan", src)
	var s scanner.Scanner
	s.Init(file, src, nil)
	var prev source.Pos
	for {
		pos, tok, lit := s.Scan()
		if tok == token.EOF {
			break
		}
		if tok != token.COMMENT {
			prev = pos
			continue
		}
		m := errorComment.FindStringSubmatch(lit)
		if m == nil {
			continue
		}
		pattern, err := strconv.Unquote(m[1])
		if err != nil {
			t.Fatalf("%s: bad ERROR comment %s: %v", fset.Position(pos), lit, err)
		}
		rx, err := regexp.Compile(pattern)
		if err != nil {
			t.Fatalf("%s: bad ERROR pattern %q: %v", fset.Position(pos), pattern, err)
		}
		cp := fset.Position(pos)
		pp := fset.Position(prev)
		from := pp.Column
		if !prev.IsValid() || pp.Line != cp.Line {
			from = 1
		}
		out = append(out, &expectation{line: cp.Line, from: from, to: cp.Column, rx: rx, text: pattern})
	}
	return out
}

// checkFile parses and checks one file and compares the errors with its
// ERROR comments.
func checkFile(t *testing.T, path string) {
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	fset := source.NewFileSet()
	f, perr := parser.ParseFile(fset, path, src, parser.ParseComments|parser.AllErrors)
	var errs source.ErrorList
	if perr != nil {
		errs = append(errs, perr.(source.ErrorList)...)
	} else {
		_, cerr := types.Check(fset, f, nil)
		if cerr != nil {
			errs = append(errs, cerr.(source.ErrorList)...)
		}
	}
	if *listErrors {
		for _, e := range errs {
			t.Log(e)
		}
	}
	want := expectations(t, source.NewFileSet(), path, src)
	for _, e := range errs {
		found := false
		for _, w := range want {
			if w.line == e.Pos.Line && w.from <= e.Pos.Column && e.Pos.Column <= w.to && w.rx.MatchString(e.Msg) {
				w.matched = true
				found = true
				break
			}
		}
		if !found {
			t.Errorf("unexpected error: %s", e)
		}
	}
	for _, w := range want {
		if !w.matched {
			t.Errorf("%s:%d:%d: missing error matching %q", path, w.line, w.from, w.text)
		}
	}
}

func TestDiagnostics(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("testdata", "*.bir"))
	if err != nil {
		t.Fatal(err)
	}
	if len(files) == 0 {
		t.Fatal("no test files")
	}
	sort.Strings(files)
	for _, path := range files {
		t.Run(strings.TrimSuffix(filepath.Base(path), ".bir"), func(t *testing.T) { checkFile(t, path) })
	}
}
