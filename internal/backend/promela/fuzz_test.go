package promela

import (
	"errors"
	"io"
	"testing"

	"birch/internal/source"
	"birch/internal/testenv"
)

// FuzzTranslate feeds arbitrary text through the front end to the Promela
// translation. Nothing may panic; a model it refuses gets a positioned
// error. Seeds: the examples and the translation's test models.
//
//	go test ./internal/backend/promela -run='^$' -fuzz=FuzzTranslate -fuzztime=3m -fuzzminimizetime=2s
func FuzzTranslate(f *testing.F) {
	testenv.AddSeeds(f, "../../../examples/*.bir", "testdata/*.bir")
	f.Fuzz(func(t *testing.T, src []byte) {
		prog := testenv.CheckBIR(src)
		if prog == nil {
			return
		}
		if err := Translate(prog, io.Discard, Options{}); err != nil {
			var pe *source.Error
			if !errors.As(err, &pe) || !pe.Pos.IsValid() {
				t.Fatalf("the translation's error is not positioned: %v", err)
			}
		}
	})
}
