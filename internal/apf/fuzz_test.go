package apf

import (
	"os"
	"testing"

	"birch/internal/bir/types"
	"birch/internal/source"
)

// FuzzInstrument: no predicate file makes Instrument panic, and every
// predicate it accepts has its hidden variable in P′, never abstracted.
func FuzzInstrument(f *testing.F) {
	src, err := os.ReadFile("testdata/live.bir")
	if err != nil {
		f.Fatal(err)
	}
	for _, s := range []string{
		livePreds,
		"[record S] this.w > 0\n[record R] this.v < g\n[record S] this.a\n",
		"[thread W] g == 0\n[function inc] k > r\n[thread M] p.v > h[0]\n",
		"[record R] this == null", "[record", "[record Q] g > 0", "",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, preds string) {
		p, err := Instrument(source.NewFileSet(), "live.bir", src, "f.pred", []byte(preds))
		if err != nil {
			if _, ok := err.(source.ErrorList); !ok {
				t.Fatalf("%v (%T), want a source.ErrorList", err, err)
			}
			return
		}
		for i, s := range p.Slots {
			if s.Var == nil || p.Abstracted[s.Var] {
				t.Fatalf("slot %d: %v", i, s.Var)
			}
			switch s.Context {
			case Global:
				if p.Prog.Lookup(s.Var.Name()) != s.Var {
					t.Fatalf("slot %d: %s is not a global of P′", i, s.Var.Name())
				}
			case Record:
				r := s.Record.Underlying().(*types.Record)
				if r.Fields[s.Var.Index] != s.Var {
					t.Fatalf("slot %d: %s is not a field of %s", i, s.Var.Name(), s.Record)
				}
			default:
				if s.Var.Owner != s.Proc {
					t.Fatalf("slot %d: %s is not a local of %s", i, s.Var.Name(), s.Proc.Name())
				}
			}
		}
	})
}
