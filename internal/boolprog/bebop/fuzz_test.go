package bebop

import (
	"testing"

	"birch/internal/boolprog"
	"birch/internal/source"
	"birch/internal/testenv"
)

// FuzzAgree: on any input that parses and resolves, the symbolic checker
// does not panic, and when both checkers decide, they agree (a small node
// bound and state bound keep each input fast).
func FuzzAgree(f *testing.F) {
	testenv.AddSeeds(f, "testdata/*.bp", "../testdata/*.bp")
	f.Fuzz(func(t *testing.T, src []byte) {
		fset := source.NewFileSet()
		prog, err := boolprog.Parse(fset, "fuzz.bp", src)
		if err != nil {
			return
		}
		info, err := boolprog.Resolve(fset, prog)
		if err != nil {
			return
		}
		res := Check(info, Config{MaxNodes: 1 << 16})
		ex := boolprog.CheckExplicit(fset, info, boolprog.Limits{MaxStates: 1 << 14})
		if res.Outcome == Inconclusive || ex.Verdict == boolprog.Inconclusive {
			return
		}
		if (res.Outcome == Unsafe) != (ex.Verdict == boolprog.Fail) {
			t.Fatalf("bdd %v, explicit %v", res.Outcome, ex.Verdict)
		}
		if res.Outcome == Unsafe && res.Trail == nil && !res.TrailCut {
			t.Fatalf("unsafe without a trail: %s", res.NoTrail)
		}
	})
}
