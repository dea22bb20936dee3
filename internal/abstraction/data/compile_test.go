package data

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"birch/internal/source"
)

// TestErrors compiles each file of testdata/errors and checks its errors
// against the `// ERROR "regexp"` comments: each comment expects one error
// on its line, and every error must be expected.
func TestErrors(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join("testdata", "errors", "*.basl"))
	if len(files) == 0 {
		t.Fatal("no test files")
	}
	marker := regexp.MustCompile(`// ERROR "((?:[^"\\]|\\.)*)"`)
	for _, path := range files {
		t.Run(filepath.Base(path), func(t *testing.T) {
			src, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			want := map[int]*regexp.Regexp{}
			for i, line := range strings.Split(string(src), "\n") {
				if m := marker.FindStringSubmatch(line); m != nil {
					want[i+1] = regexp.MustCompile(strings.ReplaceAll(m[1], `\"`, `"`))
				}
			}
			_, err = ParseFile(source.NewFileSet(), filepath.Base(path), src, Config{})
			list, _ := err.(source.ErrorList)
			if err != nil && list == nil {
				t.Fatalf("error of type %T: %v", err, err)
			}
			for _, e := range list {
				rx, ok := want[e.Pos.Line]
				switch {
				case !ok:
					t.Errorf("unexpected error %s", e)
				case !rx.MatchString(e.Msg):
					t.Errorf("%s: error %q does not match %q", e.Pos, e.Msg, rx)
				default:
					delete(want, e.Pos.Line)
				}
			}
			for line, rx := range want {
				t.Errorf("%s:%d: no error matching %q", filepath.Base(path), line, rx)
			}
		})
	}
}

// TestGivenTables checks that operators and tests written in BASL are used
// as given (Bandera's imprecise signs division) and the rest synthesized.
func TestGivenTables(t *testing.T) {
	as := compileFile(t, "testdata/signs.basl")
	a := as[0]
	neg, zero, pos := tok(t, a, "NEG"), tok(t, a, "ZERO"), tok(t, a, "POS")
	if !a.Ops[Div].Given || a.Ops[Mul].Given || !a.Tests[Eq].Given || a.Tests[Lt].Given {
		t.Error("wrong tables marked as given")
	}
	if got := a.SetString(a.Apply(Div, neg, neg).Tokens); got != "{NEG, ZERO, POS}" {
		t.Errorf("given NEG / NEG = %s", got)
	}
	if c := a.Apply(Div, pos, zero); c.Tokens != 0 || !c.Error {
		t.Errorf("given POS / ZERO = %s error=%v, want only the error", a.SetString(c.Tokens), c.Error)
	}
	if got := a.SetString(a.Apply(Mul, neg, neg).Tokens); got != "{POS}" {
		t.Errorf("synthesized NEG * NEG = %s", got)
	}
	if len(a.Warnings) != 0 {
		t.Errorf("warnings: %v", a.Warnings)
	}

	eo := compileFile(t, "testdata/evenodd.basl")[0]
	even, odd := tok(t, eo, "EVEN"), tok(t, eo, "ODD")
	if got := eo.SetString(eo.Apply(Mul, even, odd).Tokens); got != "{EVEN}" {
		t.Errorf("EvenOdd EVEN * ODD = %s", got)
	}
	if got := eo.Compare(Gt, odd, odd); got != Both {
		t.Errorf("EvenOdd ODD > ODD = %v", got)
	}
	if got := eo.SetString(eo.Apply(Rem, odd, even).Tokens); got != "{ODD}" {
		t.Errorf("EvenOdd ODD %% EVEN = %s", got)
	}
}

// TestUserAbstraction checks a user abstraction mixing intervals and
// parity, with the library's soundness and precision checks.
func TestUserAbstraction(t *testing.T) {
	a := compileFile(t, "testdata/small.basl")[0]
	small, bigEven, bigOdd := tok(t, a, "SMALL"), tok(t, a, "BIGEVEN"), tok(t, a, "BIGODD")
	if got := a.SetString(a.Apply(Mul, small, bigEven).Tokens); got != "{SMALL, BIGEVEN}" {
		t.Errorf("SMALL * BIGEVEN = %s", got)
	}
	if got := a.SetString(a.Apply(Add, bigOdd, bigOdd).Tokens); got != "{BIGEVEN}" {
		t.Errorf("BIGODD + BIGODD = %s", got)
	}
	if tk := a.Tokens[small]; tk.Lo.Int64() != 0 || tk.Hi.Int64() != 9 || len(tk.Values) != 10 {
		t.Errorf("SMALL: [%v, %v] %v", tk.Lo, tk.Hi, tk.Values)
	}
	if tk := a.Tokens[bigEven]; tk.Lo.Int64() != 10 || tk.Hi != nil {
		t.Errorf("BIGEVEN: [%v, %v]", tk.Lo, tk.Hi)
	}
	lib := &Library{}
	if err := lib.Add(a); err != nil {
		t.Fatal(err)
	}
	if got, err := lib.Lookup("Small"); err != nil || got != a {
		t.Errorf("Lookup(Small) = %v, %v", got, err)
	}
	if err := lib.Add(a); err == nil {
		t.Error("adding Small twice is not an error")
	}
	if err := lib.Add(&Abstraction{Name: "signs", Origin: "x.basl"}); err == nil {
		t.Error("a user abstraction called signs is not an error")
	}
}

func compileFile(t *testing.T, path string) []*Abstraction {
	t.Helper()
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	as, err := ParseFile(source.NewFileSet(), path, src, Config{})
	if err != nil {
		t.Fatal(err)
	}
	return as
}
