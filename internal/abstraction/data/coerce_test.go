package data

import (
	"math/big"
	"strings"
	"testing"
)

func TestCoerce(t *testing.T) {
	for _, c := range []struct {
		from, to string
		want     string // the image of each token, in order
	}{
		{"signs", "evenodd", "NEG:{EVEN, ODD} ZERO:{EVEN} POS:{EVEN, ODD}"},
		{"range(0,2)", "signs", "BELOW:{NEG} V0:{ZERO} V1:{POS} V2:{POS} ABOVE:{POS}"},
		{"signs", "range(0,2)", "NEG:{BELOW} ZERO:{V0} POS:{V1, V2, ABOVE}"},
		{"modulo(6)", "evenodd", "R0:{EVEN} R1:{ODD} R2:{EVEN} R3:{ODD} R4:{EVEN} R5:{ODD}"},
		{"modulo(3)", "evenodd", "R0:{EVEN, ODD} R1:{EVEN, ODD} R2:{EVEN, ODD}"},
		{"set(0,1)", "signs", "V0:{ZERO} V1:{POS} OTHER:{NEG, POS}"},
		{"evenodd", "set(0,1)", "EVEN:{V0, OTHER} ODD:{V1, OTHER}"},
		{"range(0,2)", "point", "BELOW:{UNKNOWN} V0:{UNKNOWN} V1:{UNKNOWN} V2:{UNKNOWN} ABOVE:{UNKNOWN}"},
	} {
		from, to := lookup(t, c.from), lookup(t, c.to)
		co, err := Coerce(from, to, Config{})
		if err != nil {
			t.Fatal(err)
		}
		var parts []string
		for a, s := range co.Map {
			parts = append(parts, from.Tokens[a].Name+":"+to.SetString(s))
			if co.Undecided[a] != 0 {
				t.Errorf("%s -> %s: %s undecided", c.from, c.to, to.SetString(co.Undecided[a]))
			}
		}
		if got := strings.Join(parts, " "); got != c.want {
			t.Errorf("%s -> %s:\n got %s\nwant %s", c.from, c.to, got, c.want)
		}
		for v := int64(-300); v <= 300; v++ {
			b := big.NewInt(v)
			if !co.Map[from.Abstract(b)].Has(to.Abstract(b)) {
				t.Errorf("%s -> %s unsound at %d", c.from, c.to, v)
			}
		}
	}
	if _, err := Coerce(lookup(t, "signs"), lookup(t, "concrete"), Config{}); err == nil {
		t.Error("coercion to concrete is not an error")
	}
	if _, err := Coerce(lookup(t, "concrete"), lookup(t, "signs"), Config{}); err == nil {
		t.Error("coercion from concrete is not an error")
	}
}

func TestDecide(t *testing.T) {
	var lib Library
	eo, err := lib.Lookup("evenodd")
	if err != nil {
		t.Fatal(err)
	}
	signs, err := lib.Lookup("signs")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		a    *Abstraction
		tok  string
		cond string
		want Outcomes
	}{
		{eo, "ODD", "n % 2 == 1 || n % 2 == -1", True},
		{eo, "ODD", "n % 2 == 1", Both}, // -1 % 2 is -1
		{eo, "EVEN", "n % 2 == 0", True},
		{eo, "EVEN", "n % 2 == 1", False},
		{eo, "EVEN", "n == 0", Both},
		{eo, "ODD", "2 * n + 1 == 4", False},
		{signs, "POS", "n >= 1", True},
		{signs, "POS", "n > 5", Both},
		{signs, "NEG", "n - 3 < 0", True},
		{signs, "ZERO", "n * 7 == 0", True},
	} {
		got, err := c.a.Decide(c.a.TokenIndex(c.tok), c.cond, Config{})
		if err != nil || got != c.want {
			t.Errorf("%s %s: %s: %v, %v; want %v", c.a.Name, c.tok, c.cond, got, err, c.want)
		}
	}
	if _, err := eo.Decide(0, "n * n == 4", Config{}); err == nil {
		t.Errorf("a nonlinear condition was accepted")
	}
}
