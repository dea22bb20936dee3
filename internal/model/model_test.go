package model

import (
	"os"
	"path/filepath"
	"testing"

	"birch/internal/bir/parser"
	"birch/internal/bir/types"
	"birch/internal/source"
)

func load(t testing.TB, path string) *Model { return loadOpts(t, path, Options{}) }

// loadOpts compiles a BIR file with opts and turns on the verification of
// every encoded state.
func loadOpts(t testing.TB, path string, opts Options) *Model {
	t.Helper()
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	fset := source.NewFileSet()
	f, err := parser.ParseFile(fset, path, src, 0)
	if err != nil {
		t.Fatal(err)
	}
	prog, err := types.Check(fset, f, nil)
	if err != nil {
		t.Fatal(err)
	}
	m, err := New(prog, opts)
	if err != nil {
		t.Fatal(err)
	}
	m.checkEncoding = true
	return m
}

type bfsResult struct {
	states, transitions int
	errors              map[ErrorKind]int
	deadlocks, limits   int
}

// bfs is a plain breadth-first search over Next with a Go map, for tests.
func bfs(m *Model, max int) bfsResult {
	r := bfsResult{errors: map[ErrorKind]int{}}
	s0, fail := m.Initial(nil)
	if fail != nil {
		r.errors[fail.Kind]++
		return r
	}
	seen := map[string]bool{string(s0): true}
	queue := [][]byte{s0}
	for len(queue) > 0 && len(seen) < max {
		s := queue[0]
		queue = queue[1:]
		n, done := m.Next(s, func(st *Step) {
			r.transitions++
			switch st.Outcome {
			case OK:
				if !seen[string(st.State)] {
					seen[string(st.State)] = true
					queue = append(queue, append([]byte(nil), st.State...))
				}
			case Error:
				r.errors[st.Kind]++
			case Limit:
				r.limits++
			}
		})
		if n == 0 && !done {
			r.deadlocks++
		}
	}
	r.states = len(seen)
	return r
}

func TestExamplesSmoke(t *testing.T) {
	t.Parallel() // CPU-bound, shares nothing
	files, _ := filepath.Glob("../../examples/*.bir")
	for _, f := range files {
		m := load(t, f)
		r := bfs(m, 200000)
		t.Logf("%s: states=%d transitions=%d errors=%v deadlocks=%d limits=%d", filepath.Base(f), r.states, r.transitions, r.errors, r.deadlocks, r.limits)
	}
}

// TestLabels evaluates peterson.bir's predicates on every reachable state
// and checks them against what they mean, read off Describe.
func TestLabels(t *testing.T) {
	m := load(t, "../../examples/peterson.bir")
	idx := map[string]int{}
	for i, l := range m.Labels() {
		idx[l.Name] = i
	}
	for _, name := range []string{"p0cs", "p1cs", "p0crit", "bothWant"} {
		if _, ok := idx[name]; !ok {
			t.Fatalf("no label %s among %v", name, m.Labels())
		}
	}
	s0, _ := m.Initial(nil)
	seen := map[string]bool{string(s0): true}
	queue := [][]byte{s0}
	counts := map[string]int{}
	for len(queue) > 0 {
		s := queue[0]
		queue = queue[1:]
		vars := map[string]string{}
		for _, v := range m.Describe(s) {
			vars[v.Name] = v.Value
		}
		want := map[string]bool{
			"p0cs":     vars["P0[1] @"] == "cs",
			"p1cs":     vars["P1[2] @"] == "cs",
			"p0crit":   vars["P0[1].critical"] == "true",
			"bothWant": vars["flag[0]"] == "true" && vars["flag[1]"] == "true",
		}
		for name, w := range want {
			got, err := m.EvalLabel(s, idx[name])
			if err != nil {
				t.Fatal(err)
			}
			if got != w {
				t.Errorf("label %s = %v, want %v in state %v", name, got, w, vars)
			}
			if got {
				counts[name]++
			}
		}
		m.Next(s, func(st *Step) {
			if st.Outcome == OK && !seen[string(st.State)] {
				seen[string(st.State)] = true
				queue = append(queue, append([]byte(nil), st.State...))
			}
		})
	}
	for _, name := range []string{"p0cs", "p1cs", "p0crit", "bothWant"} {
		if counts[name] == 0 {
			t.Errorf("label %s never holds", name)
		}
	}
}

// TestAccess checks the read/write summaries of a few transformations.
func TestAccess(t *testing.T) {
	m := load(t, "../../examples/peterson.bir")
	globals := map[string]int{}
	for i, g := range m.Program().Globals {
		globals[g.Name()] = i
	}
	found := 0
	for _, g := range m.Groups() {
		if g.Proc.Name() == "P0" && g.From.Name() == "trying" {
			found++
			has := func(list []int, name string) bool {
				for _, i := range list {
					if i == globals[name] {
						return true
					}
				}
				return false
			}
			if !has(g.Access.ReadGlobals, "flag") || !has(g.Access.ReadGlobals, "turn") || !has(g.Access.WriteGlobals, "incs") || has(g.Access.WriteGlobals, "turn") {
				t.Errorf("P0 trying: access %+v", g.Access)
			}
		}
	}
	if found != 1 {
		t.Fatalf("found %d transformations of P0 at trying", found)
	}
}
