package embedded

import (
	"testing"
	"time"

	"birch/internal/smt"
	"birch/internal/smt/gen"
)

// TestLongLivedModels asks one solver per fragment for generated problems
// (package gen), each in its own scope, and checks every sat model by
// evaluation: what earlier scopes leave behind (encodings, lemmas, array
// elements) must not spoil later models. A model once gave an array an
// entry at an index that is a function application before the function
// had its table.
func TestLongLivedModels(t *testing.T) {
	n := 60
	if testing.Short() {
		n = 20
	}
	for fi, fr := range gen.Fragments {
		t.Run(fr.Name, func(t *testing.T) {
			tm := smt.NewTermManager()
			g := gen.New(tm, uint64(7000+fi), gen.Config{Fragment: fr.F})
			s := New(tm)
			s.SetLimit(smt.Limit{Timeout: 2 * time.Second})
			counts := map[smt.Result]int{}
			for q := range n {
				p := g.Problem(4 + q%9)
				s.Push()
				for _, f := range p {
					s.Assert(f)
				}
				r, err := s.Check()
				if err != nil {
					t.Fatal(err)
				}
				counts[r]++
				if r == smt.Sat {
					checkModel(t, q, s, p)
				}
				s.Pop(1)
			}
			t.Logf("%v", counts)
		})
	}
}
