package smt_test

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"birch/internal/smt"
	"birch/internal/smt/gen"
	"birch/internal/smt/smtlib"
	"birch/internal/smt/solvers"
	"birch/internal/testenv"
)

var (
	diffN       = flag.Int("diff.n", 0, "formulas per fragment in TestDifferential (default 400 with BIRCH_LONG set, 200 without it, 60 with -short and for z3 against cvc5 unless BIRCH_LONG is set)")
	diffSeed    = flag.Uint64("diff.seed", 1, "seed of TestDifferential's generator")
	diffSolvers = flag.String("diff.solvers", "", "comma-separated pairs to compare, e.g. embedded:z3,z3:cvc5 (default: those two, when available)")
	diffUnknown = flag.String("diff.unknown", "", "directory in which TestDifferential saves, as SMT-LIB2 scripts, the problems a solver answers unknown")
)

// regressDir holds the formulas on which two solvers disagreed, or a sat
// model failed its check. TestRegressions replays them.
const regressDir = "testdata/regress"

// TestDifferential asks two solvers about hundreds of seeded random
// formulas in every fragment (package gen), twice as many with
// BIRCH_LONG=1, and fails when one says sat and the other unsat, or when a
// model of a sat answer does not satisfy the formula under evaluation. Unknown answers are counted, not failures. The
// formula of every failure is saved under testdata/regress.
//
// It compares the embedded solver with z3, and z3 with cvc5, as far as
// they are available; -diff.solvers chooses other pairs.
func TestDifferential(t *testing.T) {
	n := *diffN
	if n == 0 {
		// the embedded solver against z3: 200 problems a fragment by
		// default, 400 with BIRCH_LONG=1 (about 15 s of CPU, z3's included)
		n = 200
		if testenv.Long() {
			n = 400
		}
		if testing.Short() {
			n = 60
		}
	}
	pairs := [][2]string{{"embedded", "z3"}, {"z3", "cvc5"}}
	if *diffSolvers != "" {
		pairs = nil
		for _, p := range strings.Split(*diffSolvers, ",") {
			a, b, ok := strings.Cut(p, ":")
			if !ok {
				t.Fatalf("-diff.solvers: want a:b pairs, found %q", p)
			}
			pairs = append(pairs, [2]string{a, b})
		}
	}
	ran := false
	for _, p := range pairs {
		if !solvers.Available(p[0]) || !solvers.Available(p[1]) {
			t.Logf("skipping %s vs %s: not both available", p[0], p[1])
			continue
		}
		ran = true
		np := n
		if *diffN == 0 && p[0] != "embedded" && p[1] != "embedded" && !testenv.Long() {
			// two external solvers check each other's wrappers, not
			// birch's own solver: 400 problems a fragment take z3 and
			// cvc5 half a minute of CPU
			np = min(n, 60)
		}
		t.Run(p[0]+"-vs-"+p[1], func(t *testing.T) {
			for fi, fr := range gen.Fragments {
				t.Run(fr.Name, func(t *testing.T) {
					t.Parallel()
					differential(t, fr.Name, p[0], p[1], fr.F, *diffSeed*1000+uint64(fi), np)
				})
			}
		})
	}
	if !ran {
		t.Skip("no pair of solvers available")
	}
}

type tally struct {
	sat, unsat, unknown, checked, unchecked int
	total, slowest                          time.Duration
}

func (c tally) String() string {
	n := c.sat + c.unsat + c.unknown
	if n == 0 {
		n = 1
	}
	return fmt.Sprintf("%d sat (%d models checked, %d not checkable), %d unsat, %d unknown; %v per query, slowest %v",
		c.sat, c.checked, c.unchecked, c.unsat, c.unknown, (c.total / time.Duration(n)).Round(time.Microsecond), c.slowest.Round(time.Microsecond))
}

func differential(t *testing.T, name, a, b string, fr gen.Fragment, seed uint64, n int) {
	tm := smt.NewTermManager()
	g := gen.New(tm, seed, gen.Config{Fragment: fr})
	names := [2]string{a, b}
	var ss [2]smt.Solver
	for i, name := range names {
		s, err := solvers.New(name, tm)
		if err != nil {
			t.Fatal(err)
		}
		s.SetLimit(smt.Limit{Timeout: time.Second})
		defer func() { ss[i].Close() }()
		ss[i] = s
	}
	var counts [2]tally
	failures := 0
	for q := 0; q < n && failures < 5; q++ {
		problem := g.Problem(4 + q%9)
		var res [2]smt.Result
		for i, s := range ss {
			s.Push()
			for _, f := range problem {
				s.Assert(f)
			}
			start := time.Now()
			r, err := s.Check()
			d := time.Since(start)
			counts[i].total += d
			counts[i].slowest = max(counts[i].slowest, d)
			if err != nil {
				if names[i] == "embedded" {
					t.Errorf("%s: query %d: %v", names[i], q, err)
					failures++
				} else {
					// an external solver that crashes (cvc5 1.0.3 does on
					// some array queries) is not birch's failure: count
					// the query as unknown
					t.Logf("%s: query %d: %v (counted as unknown)", names[i], q, err)
					counts[i].unknown++
				}
				// A failed process is not usable any more: start another.
				s.Close()
				if ss[i], err = solvers.New(names[i], tm); err != nil {
					t.Fatal(err)
				}
				continue
			}
			res[i] = r
			switch r {
			case smt.Sat:
				counts[i].sat++
				if msg := checkModel(s, problem); msg == "" {
					counts[i].checked++
				} else if strings.HasPrefix(msg, "unchecked") {
					counts[i].unchecked++
				} else if strings.HasPrefix(msg, modelFailed) && names[i] != "embedded" {
					// an external solver that crashes printing its
					// model (cvc5 1.0.3 did on an alia problem, once
					// in a BIRCH_LONG run) is not birch's failure
					// either: the answer stays unchecked
					t.Logf("%s: query %d: %s (unchecked)", names[i], q, msg)
					counts[i].unchecked++
					s.Close()
					if ss[i], err = solvers.New(names[i], tm); err != nil {
						t.Fatal(err)
					}
					continue
				} else {
					failures++
					path := saveRegression(t, fr, problem, fmt.Sprintf("%s: %s", names[i], msg))
					t.Errorf("%s: query %d: %s\n%s", names[i], q, msg, path)
				}
			case smt.Unsat:
				counts[i].unsat++
			default:
				counts[i].unknown++
				if *diffUnknown != "" {
					path := saveScript(t, *diffUnknown, fr, problem,
						fmt.Sprintf("%s: unknown; differential test, fragment %s, generator seed %d, query %d", names[i], name, seed, q))
					t.Logf("%s: query %d: unknown, saved as %s", names[i], q, path)
				}
			}
			s.Pop(1)
		}
		if res[0] != smt.Unknown && res[1] != smt.Unknown && res[0] != res[1] {
			failures++
			path := saveRegression(t, fr, problem, fmt.Sprintf("%s says %s, %s says %s", a, res[0], b, res[1]))
			t.Errorf("query %d: %s says %s, %s says %s; saved as %s", q, a, res[0], b, res[1], path)
		}
	}
	t.Logf("%s: %s: %s", name, a, counts[0])
	t.Logf("%s: %s: %s", name, b, counts[1])
}

// modelFailed starts checkModel's message when the solver gave no model.
const modelFailed = "Model after sat: "

// checkModel returns "" when s's model satisfies every formula, a message
// starting "unchecked" when the model cannot be checked (it is not
// readable, or the formula divides by zero), and the failure otherwise.
func checkModel(s smt.Solver, problem []*smt.Term) string {
	m, err := s.Model()
	if err != nil {
		return modelFailed + err.Error()
	}
	for _, f := range problem {
		ok, err := m.Holds(f)
		if errors.Is(err, smt.ErrUndefined) {
			return "unchecked: " + err.Error()
		}
		if err != nil {
			return "evaluating the model: " + err.Error()
		}
		if !ok {
			return fmt.Sprintf("the model does not satisfy %s\nmodel: %s", f, m)
		}
	}
	return ""
}

// saveRegression writes the problem as an SMT-LIB2 script under
// testdata/regress, named by its content, and returns the path.
func saveRegression(t *testing.T, fr gen.Fragment, problem []*smt.Term, why string) string {
	return saveScript(t, regressDir, fr, problem, why)
}

// saveScript writes the problem as an SMT-LIB2 script under dir, named by
// its content, with why as its first comment, and returns the path.
func saveScript(t *testing.T, dir string, fr gen.Fragment, problem []*smt.Term, why string) string {
	var b bytes.Buffer
	fmt.Fprintf(&b, "; %s\n", strings.ReplaceAll(why, "\n", "\n; "))
	b.WriteString("(set-info :status unknown)\n")
	smt.WriteScript(&b, fr.Logic(), problem...)
	sum := sha256.Sum256(b.Bytes())
	path := filepath.Join(dir, hex.EncodeToString(sum[:6])+".smt2")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

var statusRE = regexp.MustCompile(`\(set-info :status (sat|unsat|unknown)\)`)

// TestRegressions replays testdata/regress/*.smt2 on every available
// solver: decided answers must agree with each other and with the
// script's :status when it is not unknown.
func TestRegressions(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join(regressDir, "*.smt2"))
	if len(files) == 0 {
		t.Skip("no regression files")
	}
	for _, path := range files {
		src, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		want := "unknown"
		if m := statusRE.FindSubmatch(src); m != nil {
			want = string(m[1])
		}
		answers := map[string]string{}
		for _, name := range solvers.Names {
			if !solvers.Available(name) {
				continue
			}
			tm := smt.NewTermManager()
			s, err := solvers.New(name, tm)
			if err != nil {
				t.Fatal(err)
			}
			var out bytes.Buffer
			in := &smtlib.Interpreter{TM: tm, Solver: s, Out: &out}
			err = in.Run(path, src)
			s.Close()
			if err != nil {
				t.Errorf("%s: %s: %v", path, name, err)
				continue
			}
			got := strings.TrimSpace(out.String())
			if got == "unknown" {
				continue
			}
			answers[name] = got
			if want != "unknown" && got != want {
				t.Errorf("%s: %s answers %s, the status is %s", path, name, got, want)
			}
		}
		var first, firstName string
		for name, got := range answers {
			if first == "" {
				first, firstName = got, name
			} else if got != first {
				t.Errorf("%s: %s answers %s, %s answers %s", path, firstName, first, name, got)
			}
		}
	}
}
