package model

import (
	"fmt"
	"math"
	"math/rand"
	"strconv"
	"strings"
	"testing"
)

type fixedInt interface {
	~int8 | ~int16 | ~int32 | ~int64 | ~uint8 | ~uint16 | ~uint32 | ~uint64
}

// goOp computes a op b in Go's own arithmetic of T, which wraps as BIR's
// fixed-width stores do; the result is returned as the 64-bit value BIR
// holds.
func goOp[T fixedInt](op string, a, b int64) int64 {
	x, y := T(a), T(b)
	var r T
	switch op {
	case "+":
		r = x + y
	case "-":
		r = x - y
	case "*":
		r = x * y
	case "&":
		r = x & y
	case "|":
		r = x | y
	case "^":
		r = x ^ y
	case "<<":
		r = x << uint(b)
	case ">>":
		r = x >> uint(b)
	case "neg":
		r = -x
	case "~":
		r = ^x
	case "conv*": // T(a * b) with a, b int: the product wraps modulo 2^64
		r = T(a * b)
	case "conv+-":
		r = T(a + b - (a - b))
	case "store":
		r = x
	}
	return int64(r)
}

var goOps = map[string]func(op string, a, b int64) int64{
	"int8": goOp[int8], "int16": goOp[int16], "int32": goOp[int32], "int64": goOp[int64],
	"uint8": goOp[uint8], "uint16": goOp[uint16], "uint32": goOp[uint32], "uint64": goOp[uint64],
}

// randomOperand returns a value of varied magnitude, sometimes an extreme.
func randomOperand(rng *rand.Rand) int64 {
	switch rng.Intn(8) {
	case 0:
		return []int64{0, 1, -1, math.MaxInt64, math.MinInt64, 127, -128, 255, 65535, math.MaxInt32, math.MinInt32, math.MaxUint32}[rng.Intn(12)]
	case 1:
		return int64(rng.Intn(64))
	}
	return int64(rng.Uint64()) >> uint(rng.Intn(64))
}

// TestWrapAgainstGo runs random operations on variables of every
// fixed-width type and compares the values the model stores with Go's own
// arithmetic of that type: stores wrap, + - * and unary - of typed values
// wrap once stored, T(a * b) wraps the 64-bit product, and the bitwise
// operators compute on two's complement.
func TestWrapAgainstGo(t *testing.T) {
	rng := rand.New(rand.NewSource(20))
	names := []string{"int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64"}
	ops := []string{"+", "-", "*", "&", "|", "^", "<<", ">>", "neg", "~", "conv*", "conv+-", "store"}
	var decls, acts strings.Builder
	want := map[string]int64{}
	for i := 0; len(want) < 400; i++ {
		typ, op := names[rng.Intn(len(names))], ops[rng.Intn(len(ops))]
		a, b := randomOperand(rng), randomOperand(rng)
		if op == "<<" || op == ">>" {
			b = int64(rng.Intn(64))
		}
		ta, tb := goOps[typ]("store", a, 0), goOps[typ]("store", b, 0)
		expr := ""
		switch op {
		case "neg":
			expr = fmt.Sprintf("-x%d", i)
		case "~":
			expr = fmt.Sprintf("~x%d", i)
		case "conv*":
			expr = fmt.Sprintf("%s(a%d * b%d)", typ, i, i)
		case "conv+-":
			expr = fmt.Sprintf("%s(a%d + b%d - (a%d - b%d))", typ, i, i, i, i)
		case "store":
			expr = fmt.Sprintf("a%d", i)
		case "<<", ">>":
			expr = fmt.Sprintf("x%d %s b%d", i, op, i)
		default:
			expr = fmt.Sprintf("x%d %s y%d", i, op, i)
		}
		r := goOps[typ](op, a, b)
		if typ == "int64" || typ == "uint64" {
			// without a conversion, 64-bit + - * and -MinInt64 overflow
			// (an error, tested elsewhere), and a uint64 from 2^63 on is a
			// limit: keep the cases whose exact result birch holds
			exact, ok := exactOp(op, ta, tb)
			if !ok || typ == "uint64" && (r < 0 || ta < 0 || tb < 0) || op == "<<" && exact != r {
				continue
			}
		}
		if (typ == "uint64") && (a < 0 || b < 0) {
			continue
		}
		fmt.Fprintf(&decls, "a%d, b%d : int; x%d, y%d, r%d : %s;\n", i, i, i, i, i, typ)
		fmt.Fprintf(&acts, "a%d := %d; b%d := %d; x%d := a%d; y%d := b%d; r%d := %s;\n", i, a, i, b, i, i, i, i, i, expr)
		want["r"+strconv.Itoa(i)] = r
		want["x"+strconv.Itoa(i)] = ta
	}
	src := "system W ()\n" + decls.String() + "main thread M ()\n  loc s0:\n    when true do {\n" + acts.String() +
		"    } goto s1;\n  loc s1:\nend M;\nend W;\n"
	checkFinalValues(t, src, want)
}

// exactOp is op on the int64 values a, b with overflow detection, for the
// cases where BIR's plain 64-bit arithmetic applies.
func exactOp(op string, a, b int64) (int64, bool) {
	switch op {
	case "+":
		s := a + b
		return s, (s > a) == (b > 0)
	case "-":
		s := a - b
		return s, (s < a) == (b > 0)
	case "*":
		if a == 0 || b == 0 {
			return 0, true
		}
		p := a * b
		return p, p/b == a && !(a == -1 && b == math.MinInt64) && !(b == -1 && a == math.MinInt64)
	case "neg":
		return -a, a != math.MinInt64
	case "<<":
		return a << uint(b), true
	}
	return 0, true
}

// checkFinalValues runs src's main thread to its end (one path: no
// choices) and compares the named globals with want.
func checkFinalValues(t *testing.T, src string, want map[string]int64) {
	t.Helper()
	m, err := compileSrc(t, src, Options{})
	if err != nil {
		t.Fatal(err)
	}
	s, fail := m.Initial(nil)
	if fail != nil {
		t.Fatal(fail)
	}
	for steps := 0; ; steps++ {
		var next []byte
		n := 0
		m.Next(s, func(st *Step) {
			n++
			if st.Outcome != OK {
				t.Fatalf("step %d: outcome %v %v: %s", steps, st.Outcome, st.Kind, st.Msg)
			}
			next = append([]byte(nil), st.State...)
		})
		if n == 0 {
			break
		}
		if n > 1 || steps > 100 {
			t.Fatalf("%d successors at step %d", n, steps)
		}
		s = next
	}
	got := map[string]string{}
	for _, v := range m.Describe(s) {
		got[v.Name] = v.Value
	}
	for name, w := range want {
		if got[name] != strconv.FormatInt(w, 10) {
			t.Errorf("%s = %s, want %d", name, got[name], w)
		}
	}
}

// TestWrapStores checks that every kind of store into a fixed-width type
// wraps: initial values, assignment (to a variable, an array element and a
// record field), choose, argument passing, a function's result and the
// store of a call's result; Go's conversions give the expected values.
func TestWrapStores(t *testing.T) {
	src := `system W ()
R = record { f : int16; };
C : collection [1] of R;
g0 : uint8 := 300;
g1 : int8 := -129;
g2 : int16; g3 : uint16; g4 : int32; g5 : uint32; g6 : int8; g7 : int8; g8 : uint8;
arr : array [2] of int8;
p : ref R;
main thread M ()
  k : int;
  loc s0:
    when true do { k := 70000; g2 := k * 2; arr[1] := k; p := new C; p.f := k + 1; g3 := externChoose(-1); } goto s1;
  loc s1:
    when true do { g4 := internChoose(4294967296 + 7 .. 4294967296 + 7); g6 := call f(k, k); } goto s2;
  loc s2:
    when true do { g7 := p.f; g8 := arr[1] + g1; } goto s3;
  loc s3:
end M;
function f (a : uint32, b : int16) : int8
  r : int;
  loc s0:
    when true do { g5 := a - 80000; r := b; } return r + a;
end f;
end W;
`
	k := int64(70000)
	want := map[string]int64{
		"g0": int64(uint8(300 & 0xff)), "g1": int64(int8(-129 & 0xff)), "g2": int64(int16(k * 2)),
		"arr[1]": int64(int8(k)), "C[0].f": int64(int16(k + 1)), "g3": int64(uint16(math.MaxUint16)),
		"g4": 7, "g5": int64(uint32(uint32(k) - 80000)), "g6": int64(int8(int64(int16(k)) + int64(uint32(k)))),
		"g7": int64(int8(int16(k + 1))), "g8": int64(uint8(int64(int8(k)) + int64(int8(-129&0xff)))),
	}
	checkFinalValues(t, src, want)
}

// TestFixedLimitsAndErrors: a negative value stored into uint64 is a limit
// (birch does not hold 2^64-1), never a wrong value; a shift count outside
// 0..63 is a shift error; + outside a conversion still overflows; and a
// range type without Wrap still fails on a store out of its range, also
// when a function returns the value.
func TestFixedLimitsAndErrors(t *testing.T) {
	for _, tc := range []struct {
		decl, act string
		outcome   Outcome
		kind      ErrorKind
		msg       string
	}{
		{"u : uint64; k : int;", "k := -1; u := k;", Limit, LimitReached, "value 18446744073709551615 of u (of type uint64) is not representable"},
		{"u : uint64; k : int;", "k := 5; u := uint64(0 - k);", Limit, LimitReached, "not representable"},
		{"u : int32; k : int;", "k := 64; u := 1 << k;", Error, ShiftCount, "shift count 64 out of range 0..63: 1 << 64"},
		{"u : int32; k : int;", "k := -1; u := k >> k;", Error, ShiftCount, "shift count -1"},
		{"u : int64; k : int;", "k := 9223372036854775807; u := k + 1;", Error, Overflow, "integer overflow"},
		{"u : int64; k : int;", "k := 9223372036854775807; u := int64(k + 1) + int64(k * k);", OK, NoError, ""},
		{"u : int64; k : int;", "k := 9223372036854775807; u := int64((k + 1) / 1);", Error, Overflow, "integer overflow"},
		{"s : range 0..3; k : int;", "k := 4; s := k;", Error, RangeError, "value 4 out of range 0..3 of s"},
		{"s : range 0..3; k : int;", "k := 4; s := int8(k);", Error, RangeError, "value 4 out of range 0..3 of s"},
		{"s : int; k : int;", "k := 4; s := call f(k);", Error, RangeError, "value 4 out of range 0..3 of the result of f"},
	} {
		src := fmt.Sprintf(`system E ()
%s
main thread M ()
  loc s0:
    when true do { %s } goto s1;
  loc s1:
end M;
function f (a : int) : range 0..3
  loc s0:
    when true do { } return a;
end f;
end E;
`, tc.decl, tc.act)
		m, err := compileSrc(t, src, Options{})
		if err != nil {
			t.Fatal(err)
		}
		s0, fail := m.Initial(nil)
		if fail != nil {
			t.Fatal(fail)
		}
		var got []*Step
		var walk func(s []byte, depth int)
		walk = func(s []byte, depth int) {
			var succ [][]byte
			m.Next(s, func(st *Step) {
				if st.Outcome != OK || depth > 3 {
					c := *st
					got = append(got, &c)
					return
				}
				succ = append(succ, append([]byte(nil), st.State...))
			})
			for _, n := range succ {
				walk(n, depth+1)
			}
		}
		walk(s0, 0)
		if tc.outcome == OK {
			if len(got) != 0 {
				t.Errorf("%s: %v %s", tc.act, got[0].Kind, got[0].Msg)
			}
			continue
		}
		if len(got) != 1 || got[0].Outcome != tc.outcome || got[0].Kind != tc.kind || !strings.Contains(got[0].Msg, tc.msg) {
			for _, g := range got {
				t.Logf("got %v %v %s", g.Outcome, g.Kind, g.Msg)
			}
			t.Errorf("%s: want %v %v %q", tc.act, tc.outcome, tc.kind, tc.msg)
		}
	}
}

// TestRuntimeErrorMappedPosition: a runtime error on a line that a //line
// directive maps is reported at the mapped position.
func TestRuntimeErrorMappedPosition(t *testing.T) {
	src := `system E ()
u : int32;
main thread M ()
  k : int;
  loc s0:
//line prog.c:7:3
    when true do { k := 64; u := 1 << k; } goto s1;
  loc s1:
end M;
end E;
`
	m, err := compileSrc(t, src, Options{})
	if err != nil {
		t.Fatal(err)
	}
	s0, fail := m.Initial(nil)
	if fail != nil {
		t.Fatal(fail)
	}
	got := ""
	m.Next(s0, func(st *Step) {
		if st.Outcome == Error {
			got = m.Program().Fset.Position(st.Pos).String() + ": " + st.Kind.String()
		}
	})
	if got != "prog.c:7:3: shift" {
		t.Errorf("got %q, want prog.c:7:3: shift", got)
	}
}
