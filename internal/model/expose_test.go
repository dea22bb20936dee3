package model

import "testing"

// TestExposeInvisible checks the counts derived by hand in the test
// models' headers, with invisible runs coarsened (the default) and exposed.
func TestExposeInvisible(t *testing.T) {
	for _, c := range []struct {
		path                string
		expose              bool
		states, transitions int
	}{
		{"testdata/expose.bir", false, 4, 4},
		{"testdata/expose.bir", true, 6, 6},
		{"testdata/expose-blocked.bir", false, 5, 5},
		{"testdata/expose-blocked.bir", true, 6, 6},
		{"testdata/expose-final.bir", false, 4, 4},
		{"testdata/expose-final.bir", true, 4, 4},
	} {
		m := loadOpts(t, c.path, Options{ExposeInvisible: c.expose})
		r := bfs(m, 1000)
		if r.states != c.states || r.transitions != c.transitions || r.deadlocks != 0 || len(r.errors) != 0 {
			t.Errorf("%s (expose %v): %d states, %d transitions, %d deadlocks, errors %v; want %d states, %d transitions, none",
				c.path, c.expose, r.states, r.transitions, r.deadlocks, r.errors, c.states, c.transitions)
		}
	}
}

// TestExposeInvisibleExamples checks on the examples that exposing
// invisible runs keeps every violation kind and adds states only where a
// model has invisible transformations.
func TestExposeInvisibleExamples(t *testing.T) {
	for _, f := range []string{"../../examples/invisible.bir", "../../examples/peterson.bir", "../../examples/factorial.bir"} {
		coarse := bfs(loadOpts(t, f, Options{}), 200000)
		fine := bfs(loadOpts(t, f, Options{ExposeInvisible: true}), 200000)
		hasInvisible := false
		for _, g := range loadOpts(t, f, Options{}).Groups() {
			hasInvisible = hasInvisible || g.Invisible
		}
		if hasInvisible && fine.states <= coarse.states || !hasInvisible && fine.states != coarse.states {
			t.Errorf("%s: %d states exposed, %d coarse (invisible transformations: %v)", f, fine.states, coarse.states, hasInvisible)
		}
		for k := range coarse.errors {
			if fine.errors[k] == 0 {
				t.Errorf("%s: exposed runs lose the %s violations", f, k)
			}
		}
		if (coarse.deadlocks > 0) != (fine.deadlocks > 0) {
			t.Errorf("%s: deadlocks coarse %d, exposed %d", f, coarse.deadlocks, fine.deadlocks)
		}
	}
}
