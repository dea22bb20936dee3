package model

import (
	"os"
	"path/filepath"
	"testing"

	"birch/internal/bir/parser"
	"birch/internal/bir/types"
	"birch/internal/source"
)

func load(t testing.TB, path string) *Model {
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
	m, err := New(prog, Options{})
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
	files, _ := filepath.Glob("../../examples/*.bir")
	for _, f := range files {
		m := load(t, f)
		r := bfs(m, 200000)
		t.Logf("%s: states=%d transitions=%d errors=%v deadlocks=%d limits=%d", filepath.Base(f), r.states, r.transitions, r.errors, r.deadlocks, r.limits)
	}
}
