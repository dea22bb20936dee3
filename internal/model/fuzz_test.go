package model

import (
	"errors"
	"testing"

	"birch/internal/source"
	"birch/internal/testenv"
)

// FuzzModel feeds arbitrary text through the front end to the model
// compiler and explores a few hundred states of every model that compiles,
// verifying each encoded state (checkEncoding), describing it and
// evaluating its labels. Nothing may panic; a model the compiler refuses
// gets a positioned error. The bounds are small so that one input costs
// little: a model beyond them is refused or cut, which is the behaviour
// under test too. Seeds: the examples and the test models of model and
// search.
//
//	go test ./internal/model -run='^$' -fuzz=FuzzModel -fuzztime=3m -fuzzminimizetime=2s
func FuzzModel(f *testing.F) {
	testenv.AddSeeds(f, "../../examples/*.bir", "testdata/*.bir", "../search/testdata/*.bir")
	for _, typ := range []string{"int", "T", "Big", "range 0..999", "range 0..1000"} {
		// the type form of a choice, enumerated or refused
		f.Add([]byte(chooseTypeSrc("internChoose", typ)))
	}
	// fixed-width stores, conversions and bitwise operators
	f.Add([]byte(`system W ()
a : uint8 := 300;
b : int8;
c : array [2] of int16;
u : uint64;
main thread M ()
  k : int;
  loc s0:
    when true do { k := externChoose(-3, 64, 200); b := a + k; c[1] := int16(k * 40000); } goto s1;
  loc s1:
    when k < 64 do { u := uint64(k * k) ^ ~k; a := k << 2 | k >> 1 & 7; } goto s0;
    when k >= 64 do { u := k; k := 1 << k; } goto s0;
end M;
end W;
`))
	f.Fuzz(func(t *testing.T, src []byte) {
		prog := testenv.CheckBIR(src)
		if prog == nil {
			return
		}
		m, err := New(prog, Options{MaxStateSlots: 1 << 12, MaxCallDepth: 8, MaxInvisible: 1000, MaxChoiceRange: 1000})
		if err != nil {
			var pe *source.Error
			if !errors.As(err, &pe) || !pe.Pos.IsValid() {
				t.Fatalf("the model compiler's error is not positioned: %v", err)
			}
			return
		}
		m.checkEncoding = true
		s0, fail := m.Initial(nil)
		if fail != nil {
			return
		}
		seen := map[string]bool{string(s0): true}
		queue := [][]byte{s0}
		for len(queue) > 0 && len(seen) < 300 {
			s := queue[0]
			queue = queue[1:]
			m.Describe(s)
			for i := range m.Labels() {
				m.EvalLabel(s, i)
			}
			m.Next(s, func(st *Step) {
				if st.Outcome == OK && !seen[string(st.State)] && len(seen) < 300 {
					seen[string(st.State)] = true
					queue = append(queue, append([]byte(nil), st.State...))
				}
			})
		}
	})
}
