package model

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"testing"
)

// TestBinaryConstDifferential compares the closures specialized for a
// constant right operand with the general ones (the same operation with
// the constant in a variable) on extreme values: results, overflow and
// division errors and their messages must agree.
func TestBinaryConstDifferential(t *testing.T) {
	dir := t.TempDir()
	ks := []string{"0", "1", "2", "7", "(-1)", "(-2)", "(-7)", "9223372036854775807", "(-9223372036854775807)", "(-9223372036854775807 - 1)"}
	xs := []int64{0, 1, -1, 2, -2, 7, -7, math.MaxInt64, math.MinInt64, math.MaxInt64 - 1, math.MinInt64 + 1, 1 << 40}
	ops := []string{"+", "-", "/", "%", "==", "!=", "<", "<=", ">", ">="}
	for oi, op := range ops {
		for ki, k := range ks {
			if k == "0" && (op == "/" || op == "%") {
				continue
			}
			src := fmt.Sprintf(`system T ()
const K = %s;
x, c, y1, y2 : int;
b1, b2 : boolean;
main thread A ()
  loc a0:
    when true do { %s1 := %s; } goto a1;
  loc a1:
end A;
main thread B ()
  loc b0:
    when true do { %s2 := %s; } goto b1;
  loc b1:
end B;
end T;
`, k, tgt(op), "x "+op+" K", tgt(op), "x "+op+" c")
			path := filepath.Join(dir, fmt.Sprintf("t%d_%d.bir", oi, ki))
			os.WriteFile(path, []byte(src), 0o644)
			m := load(t, path)
			s0, _ := m.Initial(nil)
			base, _ := m.decodeState(nil, s0)
			// globals x, c, y1, y2, b1, b2 are slots 0..5
			for _, xv := range xs {
				s := append([]int64(nil), base...)
				s[0] = xv
				s[1] = kconst(k)
				st := m.appendState(nil, s)
				var res [2]string
				m.Next(st, func(o *Step) {
					if o.Outcome != OK {
						res[o.Thread] = fmt.Sprintf("%v %s", o.Kind, o.Msg)
						return
					}
					d, _ := m.decodeState(nil, o.State)
					res[o.Thread] = fmt.Sprint(d[2+o.Thread], d[4+o.Thread])
				})
				if res[0] != res[1] {
					t.Errorf("x=%d %s %s: const %q, general %q", xv, op, k, res[0], res[1])
				}
			}
		}
	}
}

func kconst(k string) int64 {
	switch k {
	case "(-1)":
		return -1
	case "(-2)":
		return -2
	case "(-7)":
		return -7
	case "9223372036854775807":
		return math.MaxInt64
	case "(-9223372036854775807)":
		return -math.MaxInt64
	case "(-9223372036854775807 - 1)":
		return math.MinInt64
	}
	var v int64
	fmt.Sscan(k, &v)
	return v
}

func wrap(e, op string) string {
	switch op {
	case "==", "!=", "<", "<=", ">", ">=":
		return "(if " + e + " then 1 else 0)"
	}
	return e
}

func tgt(op string) string {
	if wrap("", op) != "" {
		return "b"
	}
	return "y"
}
