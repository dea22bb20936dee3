package model

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"birch/internal/source"
)

// compileSrc compiles a BIR source with opts.
func compileSrc(t *testing.T, src string, opts Options) (*Model, error) {
	t.Helper()
	return New(checkProg(t, "choose.bir", src), opts)
}

// chooseTypeSrc is a model whose first step is `x := <kw>(<typ>);`.
func chooseTypeSrc(kw, typ string) string {
	return fmt.Sprintf(`system S()
  T = range -2..4;
  Big = range -2000000..2000000;
  x : int;
  main thread M()
    loc s0: when true do { x := %s(%s); } goto s1;
    loc s1: when true do { } goto s1;
  end M;
end S;
`, kw, typ)
}

// The type form enumerates every value of a small T, once each: the
// initial state has one successor per value, with x set to it.
func TestChooseTypeEnumerates(t *testing.T) {
	for _, tc := range []struct {
		kw, typ string
		lo, hi  int64
	}{
		{"externChoose", "T", -2, 4},
		{"internChoose", "range 0..1000", 0, 1000},
		{"externChoose", "range 7..7", 7, 7},
		{"externChoose", "uint8", 0, 255},
		{"internChoose", "int8", -128, 127},
		{"externChoose", "uint16", 0, 65535},
	} {
		m, err := compileSrc(t, chooseTypeSrc(tc.kw, tc.typ), Options{})
		if err != nil {
			t.Fatalf("%s(%s): %v", tc.kw, tc.typ, err)
		}
		s0, fail := m.Initial(nil)
		if fail != nil {
			t.Fatal(fail)
		}
		var succs [][]byte
		intern := 0
		m.Next(s0, func(st *Step) {
			if st.Outcome != OK {
				t.Errorf("%s(%s): outcome %v", tc.kw, tc.typ, st.Outcome)
				return
			}
			if st.Intern {
				intern++
			}
			succs = append(succs, append([]byte(nil), st.State...))
		})
		seen := map[int64]int{}
		for _, s := range succs {
			for _, v := range m.Describe(s) {
				if v.Name == "x" {
					var x int64
					if _, err := fmt.Sscan(v.Value, &x); err != nil {
						t.Fatalf("x = %q: %v", v.Value, err)
					}
					seen[x]++
				}
			}
		}
		if want := int(tc.hi - tc.lo + 1); len(seen) != want {
			t.Errorf("%s(%s): %d distinct values, want %d", tc.kw, tc.typ, len(seen), want)
		}
		for v, n := range seen {
			if v < tc.lo || v > tc.hi || n != 1 {
				t.Errorf("%s(%s): value %d seen %d times", tc.kw, tc.typ, v, n)
			}
		}
		wantIntern := 0
		if tc.kw == "internChoose" {
			wantIntern = int(tc.hi - tc.lo + 1)
		}
		if intern != wantIntern {
			t.Errorf("%s(%s): %d steps marked intern, want %d", tc.kw, tc.typ, intern, wantIntern)
		}
	}
}

// A T with more than 2^20 values (or MaxChoiceRange) is refused by New
// with an UnboundedChoiceError naming the choice and its position; 2^20
// values are enumerable.
func TestChooseTypeUnbounded(t *testing.T) {
	for _, tc := range []struct {
		typ     string
		opts    Options
		values  string
		refused bool
	}{
		{"int", Options{}, "2^64", true},
		{"Big", Options{}, "4000001", true},
		{"range 0..1048576", Options{}, "1048577", true},
		{"range 1..1048576", Options{}, "", false},
		{"range -9223372036854775807..9223372036854775807", Options{}, "18446744073709551615", true},
		{"T", Options{MaxChoiceRange: 6}, "7", true},
		{"int32", Options{}, "2^32", true},
		{"uint32", Options{}, "2^32", true},
		{"int64", Options{}, "2^64", true},
		{"uint16", Options{}, "", false},
		{"T", Options{MaxChoiceRange: 7}, "", false},
	} {
		_, err := compileSrc(t, chooseTypeSrc("externChoose", tc.typ), tc.opts)
		var ue *UnboundedChoiceError
		if !tc.refused {
			if err != nil {
				t.Errorf("%s: %v", tc.typ, err)
			}
			continue
		}
		if !errors.As(err, &ue) {
			t.Fatalf("%s: got %v, want an UnboundedChoiceError", tc.typ, err)
		}
		var pe *source.Error
		if !errors.As(err, &pe) || pe.Pos.String() != "choose.bir:6:33" {
			t.Errorf("%s: %v is not positioned at the choice", tc.typ, err)
		}
		c := ue.Choices[0]
		if len(ue.Choices) != 1 || c.Pos.String() != "choose.bir:6:33" || c.Values != tc.values ||
			c.Action != "x := externChoose("+tc.typ+")" {
			t.Errorf("%s: got %+v", tc.typ, ue.Choices)
		}
		msg := err.Error()
		for _, want := range []string{"choose.bir:6:33: x := externChoose(" + tc.typ + ") chooses among " + tc.values + " values", "--predicates FILE", "birch check --cegar finds the predicates", "--on-the-fly --predicates FILE"} {
			if !strings.Contains(msg, want) {
				t.Errorf("%s: message %q lacks %q", tc.typ, msg, want)
			}
		}
	}
}

// With ChoiceValues, a model with an unbounded choice compiles, and the
// choice takes the given values its type holds, once each and in order;
// without a value it is a limit, never a silent block.
func TestChooseTypeGivenValues(t *testing.T) {
	if _, err := compileSrc(t, chooseTypeSrc("externChoose", "int"), Options{}); err == nil {
		t.Fatal("an unbounded choice compiled without ChoiceValues")
	}
	for _, tc := range []struct {
		typ    string
		values []int64
		want   string
	}{
		{"int", []int64{5, -3, 5, 1 << 62}, "-3 5 4611686018427387904"},
		{"Big", []int64{5, -3000000, 2000000}, "5 2000000"},
		{"int", []int64{}, "limit"},
		{"T", []int64{100}, "-2 -1 0 1 2 3 4"}, // a small T is enumerated as ever
	} {
		m, err := compileSrc(t, chooseTypeSrc("externChoose", tc.typ), Options{ChoiceValues: tc.values})
		if err != nil {
			t.Fatalf("%s %v: %v", tc.typ, tc.values, err)
		}
		s0, _ := m.Initial(nil)
		var got []string
		m.Next(s0, func(st *Step) {
			if st.Outcome != OK {
				got = append(got, "limit")
				return
			}
			for _, v := range m.Describe(st.State) {
				if v.Name == "x" {
					got = append(got, v.Value)
				}
			}
		})
		if s := strings.Join(got, " "); s != tc.want {
			t.Errorf("%s with %v: x takes %q, want %q", tc.typ, tc.values, s, tc.want)
		}
	}
}

// GivenChoices names the values the unbounded choices of one outcome took,
// in the order they ran: two in one step, and one more in the invisible
// run that follows; the other outcomes' choices are not mixed in.
func TestGivenChoices(t *testing.T) {
	src := `system S()
  main thread M()
    x, y, z : int;
    loc s0: when true do invisible { x := externChoose(int); y := externChoose(int); } goto s1;
    loc s1: when x > 5 do invisible { z := externChoose(int); } goto s2;
            when x <= 5 do invisible { } goto s3;
    loc s2: when true do { } goto s2;
    loc s3: when true do { } goto s3;
  end M;
end S;
`
	m, err := compileSrc(t, src, Options{ChoiceValues: []int64{7, 3}})
	if err != nil {
		t.Fatal(err)
	}
	init, _ := m.Initial(nil)
	var got []string
	for ord := 0; ; ord++ {
		cs, st := m.GivenChoices(init, ord)
		if st == nil {
			break
		}
		s := ""
		for _, c := range cs {
			s += fmt.Sprintf("%d:%d ", m.Program().Fset.Position(c.Pos).Column, c.Value)
		}
		got = append(got, s)
	}
	want := []string{"43:3 67:3 ", "43:3 67:7 ", "43:7 67:3 44:3 ", "43:7 67:3 44:7 ", "43:7 67:7 44:3 ", "43:7 67:7 44:7 "}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("got %q, want %q", got, want)
	}
	if cs, st := m.GivenChoices(init, len(want)); cs != nil || st != nil {
		t.Errorf("no such outcome: got %v, %v", cs, st)
	}
}
