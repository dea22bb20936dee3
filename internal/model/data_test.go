package model

import (
	"bytes"
	"fmt"
	"strings"
	"testing"
)

const dataSrc = `system D()
  T = range 0..7;
  x : int;
  b : boolean;
  a : array [2] of T;
  main thread M()
    n : int;
    loc s0: when true do { x := x + 1; n := 2; } goto s1;
    loc s1: when true do { n := call f(n); } goto s2;
    loc s2: when true do { b := true; a[1] := 5; } goto s3;
    loc s3: when true do { } goto s3;
  end M;
  function f(k : int) : int
    loc f0: when true do { } return k + x;
  end f;
end D;
`

// TestSplitData follows a run of dataSrc and checks each state's data
// (names, values) and that control parts differ exactly where a
// non-integer slot or the shape of the threads does.
func TestSplitData(t *testing.T) {
	m, err := compileSrc(t, dataSrc, Options{})
	if err != nil {
		t.Fatal(err)
	}
	s, fail := m.Initial(nil)
	if fail != nil {
		t.Fatal(fail.Msg)
	}
	describe := func(st []byte) (string, []byte) {
		ctrl, data := m.SplitData(st, nil, nil)
		var parts []string
		for _, d := range data {
			parts = append(parts, fmt.Sprintf("%s=%d", m.DataName(st, d.ID), d.Value))
		}
		return strings.Join(parts, " "), ctrl
	}
	want := []string{
		"x=0 a[0]=0 a[1]=0 M[1].n=0",
		"x=1 a[0]=0 a[1]=0 M[1].n=2",
		"x=1 a[0]=0 a[1]=0 M[1].n=2 M[1].f#1.k=2",
		"x=1 a[0]=0 a[1]=0 M[1].n=3",
		"x=1 a[0]=0 a[1]=5 M[1].n=3",
	}
	var ctrls [][]byte
	for i, w := range want {
		got, ctrl := describe(s)
		if got != w {
			t.Errorf("state %d: data %q, want %q", i, got, w)
		}
		ctrls = append(ctrls, ctrl)
		var next []byte
		m.Next(s, func(st *Step) {
			if st.Outcome == OK && next == nil {
				next = append([]byte(nil), st.State...)
			}
		})
		if next == nil {
			t.Fatalf("state %d has no successor", i)
		}
		s = next
	}
	// every state is at another location (or frame), so no two control
	// parts are equal; the last two differ only in b and a location.
	for i := range ctrls {
		for j := i + 1; j < len(ctrls); j++ {
			if bytes.Equal(ctrls[i], ctrls[j]) {
				t.Errorf("states %d and %d have the same control part", i, j)
			}
		}
	}
}

// SplitData allocates nothing once its buffers have grown: searches call
// it on every successor (internal/amcs).
func TestSplitDataAllocs(t *testing.T) {
	m, err := compileSrc(t, dataSrc, Options{})
	if err != nil {
		t.Fatal(err)
	}
	s, fail := m.Initial(nil)
	if fail != nil {
		t.Fatal(fail.Msg)
	}
	m.Next(s, func(st *Step) { s = append([]byte(nil), st.State...) })
	ctrl, data := m.SplitData(s, nil, nil)
	if n := testing.AllocsPerRun(100, func() { ctrl, data = m.SplitData(s, ctrl[:0], data[:0]) }); n != 0 {
		t.Errorf("SplitData: %v allocations a call", n)
	}
}
