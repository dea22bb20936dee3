package c2bp

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"birch/internal/search"
)

var update = flag.Bool("update", false, "rewrite the .golden files of testdata")

var expectLine = regexp.MustCompile(`(?m)^// expect: (pass|fail) ?(\S*)`)

// TestGolden abstracts each testdata/*.bir with its .pred, compares the
// abstract model with the .golden file (go test -update rewrites it), and
// checks the abstract model with the explicit engine: the verdict and,
// for a failure, the kind of the concrete error the abstract step stands
// for are those of the model's `// expect:` line.
func TestGolden(t *testing.T) {
	files, _ := filepath.Glob("testdata/*.bir")
	if len(files) == 0 {
		t.Fatal("no testdata")
	}
	for _, path := range files {
		name := strings.TrimSuffix(path, ".bir")
		t.Run(filepath.Base(name), func(t *testing.T) {
			out, err := abstractFile(t, path, name+".pred")
			if err != nil {
				t.Fatal(err)
			}
			golden := name + ".golden"
			if *update {
				if err := os.WriteFile(golden, out.Source, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(out.Source, want) {
				t.Errorf("the abstract model differs from %s:\n%s", golden, out.Source)
			}
			src, _ := os.ReadFile(path)
			m := expectLine.FindSubmatch(src)
			if m == nil {
				t.Fatalf("%s: no // expect: line", path)
			}
			res := explore(t, out.Program)
			switch string(m[1]) {
			case "pass":
				if res.Verdict != search.Pass || !res.Complete {
					t.Fatalf("%v (%s), want pass", res.Verdict, res.Reason)
				}
			case "fail":
				if res.Verdict != search.Fail {
					t.Fatalf("%v (%s), want fail", res.Verdict, res.Reason)
				}
				if kind := string(m[2]); kind != "" {
					if got := concreteKind(t, out, res); got != kind {
						t.Errorf("the abstract violation stands for %s, want %s", got, kind)
					}
				}
			}
		})
	}
}

// concreteKind is the kind of the concrete error that the abstract
// violation stands for: Origin.Errors of the failing action.
func concreteKind(t *testing.T, out *Output, res *search.Result) string {
	t.Helper()
	v := res.Violation
	pos := out.Program.Fset.Position(v.Pos)
	for _, o := range out.Map.Origins {
		for i, act := range o.Abstract.Actions {
			if act.Pos() <= v.Pos && v.Pos < act.End() {
				if e, ok := o.Errors[i]; ok {
					return e.Kind.String()
				}
				t.Fatalf("the failing action at %s stands for no concrete error", pos)
			}
		}
	}
	t.Fatalf("no abstract transformation holds the failure at %s (%s)", pos, v.Msg)
	return ""
}

// TestEnforce: the abstract model of testdata/enforce.bir assumes, after
// choosing the predicates, that their values are consistent; without the
// assumption its search finds one state more (x < 3 && !(x < 5), which no
// concrete state has).
func TestEnforce(t *testing.T) {
	out, err := abstractFile(t, "testdata/enforce.bir", "testdata/enforce.pred")
	if err != nil {
		t.Fatal(err)
	}
	with := explore(t, out.Program)
	const assume = "assume(!(!p1_x_lt_5 && p2_x_lt_3));"
	if !bytes.Contains(out.Source, []byte(assume)) {
		t.Fatalf("no %s in\n%s", assume, out.Source)
	}
	without := explore(t, loadSource(t, "noenforce.bir", bytes.ReplaceAll(out.Source, []byte(assume), nil)))
	if with.Stats.States+1 != without.Stats.States {
		t.Fatalf("%d states with the assumption, %d without, want one less", with.Stats.States, without.Stats.States)
	}
}
