package bp

import (
	"testing"

	"birch/internal/boolprog"
	"birch/internal/testenv"
)

// FuzzTranslate: any well-typed model translates or is refused with
// positioned errors, never a panic; a translation resolves (Translate
// reads it back) and the explicit checker's trail of a failing one maps
// back to a schedule.
func FuzzTranslate(f *testing.F) {
	testenv.AddSeeds(f, "testdata/*.bir", "../../../examples/*.bir")
	f.Fuzz(func(t *testing.T, src []byte) {
		prog := testenv.CheckBIR(src)
		if prog == nil {
			return
		}
		out, err := Translate(prog, Config{})
		if err != nil {
			return
		}
		res := boolprog.CheckExplicit(out.Fset, out.Info, boolprog.Limits{MaxStates: 1 << 14})
		if res.Verdict == boolprog.Fail && !res.TrailCut {
			if _, err := out.Map.Schedule(res.Trail, true); err != nil {
				t.Fatalf("schedule: %v\n%s", err, out.Source)
			}
		}
	})
}
