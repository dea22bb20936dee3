package c_test

import (
	"bytes"
	"fmt"
	"math/rand"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"birch/internal/cli"
	"birch/internal/testenv"
)

// ctype is a C integer type of the generated programs.
type ctype struct {
	name   string
	bits   int
	signed bool
	rank   int
}

// genTypes are the types of the generated programs under a data model:
// those whose width gcc gives as the data model does (ILP32 programs
// have a 32-bit long only where gcc -m32 links here, gccM32), and no
// unsigned 64-bit type (birch holds uint64 values below 2^63 only).
func genTypes(lp64 bool) []ctype {
	ts := []ctype{
		{"signed char", 8, true, 1}, {"unsigned char", 8, false, 1}, {"char", 8, true, 1},
		{"short", 16, true, 2}, {"unsigned short", 16, false, 2},
		{"int", 32, true, 3}, {"unsigned int", 32, false, 3},
		{"long long", 64, true, 5},
	}
	if lp64 {
		ts = append(ts, ctype{"long", 64, true, 4})
	} else if gccM32() {
		ts = append(ts, ctype{"long", 32, true, 4}, ctype{"unsigned long", 32, false, 4})
	}
	return ts
}

// gccM32 reports whether gcc -m32 compiles and links a program here
// (Debian's gcc-multilib, which .ci/run installs).
var gccM32 = sync.OnceValue(func() bool {
	dir, err := os.MkdirTemp("", "birch-m32")
	if err != nil {
		return false
	}
	defer os.RemoveAll(dir)
	src := filepath.Join(dir, "m.c")
	if os.WriteFile(src, []byte("#include <stdio.h>\nint main(void) { printf(\"%d\", (int)sizeof(long)); return 0; }\n"), 0o644) != nil {
		return false
	}
	exe := filepath.Join(dir, "m")
	if exec.Command("gcc", "-m32", "-o", exe, src).Run() != nil {
		return false
	}
	out, err := exec.Command(exe).Output()
	return err == nil && string(out) == "4"
})

// gen writes random integer computations whose results a CHECK(id,
// value) macro reports.
type gen struct {
	r     *rand.Rand
	types []ctype
	b     strings.Builder
	n     int // checks
	// arith: only casts, + - * and unary -, comparisons, && || and ?:
	// (what refinement's path formulas encode best)
	arith bool
}

var interesting = []string{"0", "1", "2", "3", "7", "-1", "-2", "100", "-100", "127", "-128", "255", "256",
	"32767", "-32768", "65535", "65536", "2147483647", "-2147483647 - 1", "4294967295", "1000000007", "-123456789",
	"9223372036854775807LL", "-9223372036854775807LL - 1", "4294967296LL", "305419896"}

// promoted is the type of an operand after the integer promotions.
func (g *gen) promoted(t ctype) ctype {
	if t.rank < 3 {
		return ctype{"int", 32, true, 3}
	}
	return t
}

// common is the usual arithmetic conversions' type.
func (g *gen) common(a, b ctype) ctype {
	a, b = g.promoted(a), g.promoted(b)
	if a.signed == b.signed {
		if a.rank >= b.rank {
			return a
		}
		return b
	}
	s, u := a, b
	if u.signed {
		s, u = b, a
	}
	if u.rank >= s.rank {
		return u
	}
	if s.bits > u.bits {
		return s
	}
	return ctype{"unsigned " + s.name, s.bits, false, s.rank}
}

// expr is a random expression over the variables v0.. (of types vars),
// with its type; it never has undefined behaviour but signed overflow
// (both gcc -fwrapv and birch wrap it).
func (g *gen) expr(vars []ctype, depth int) (string, ctype) {
	if depth == 0 || g.r.Intn(4) == 0 {
		if g.r.Intn(3) == 0 {
			c := interesting[g.r.Intn(len(interesting))]
			t := g.types[g.r.Intn(len(g.types))]
			return fmt.Sprintf("((%s)(%s))", t.name, c), t
		}
		i := g.r.Intn(len(vars))
		return fmt.Sprintf("v%d", i), vars[i]
	}
	a, at := g.expr(vars, depth-1)
	return g.compose(a, at, g.r.Intn(9), func() (string, ctype) { return g.expr(vars, depth-1) })
}

// compose is expression a (of type at) under operator k (0..8) with
// operands from sub: a cast, a unary operator, a shift, a division, a
// comparison or logical operator, ?:, or a binary arithmetic one.
func (g *gen) compose(a string, at ctype, k int, sub func() (string, ctype)) (string, ctype) {
	if g.arith && (k == 2 || k == 3) {
		k = 8
	}
	switch k {
	case 0:
		t := g.types[g.r.Intn(len(g.types))]
		return fmt.Sprintf("((%s)%s)", t.name, a), t
	case 1:
		op := []string{"-", "!", "~"}[g.r.Intn(map[bool]int{false: 3, true: 2}[g.arith])]
		if op == "!" {
			return fmt.Sprintf("(!%s)", a), ctype{"int", 32, true, 3}
		}
		return fmt.Sprintf("(%s%s)", op, a), g.promoted(at)
	case 2:
		// a shift by a count within the width: << of a signed value
		// only of a small nonnegative one (no overflow), >> of any (gcc
		// and birch shift a negative one arithmetically)
		pt := g.promoted(at)
		b, _ := sub()
		left, op, count := a, []string{"<<", ">>"}[g.r.Intn(2)], pt.bits-1
		if pt.signed && op == "<<" {
			left = fmt.Sprintf("(%s & %s)", a, map[int]string{32: "0xffff", 64: "0xffffffffLL"}[pt.bits])
			count = pt.bits/2 - 1
		}
		return fmt.Sprintf("(%s %s (%s & %d))", left, op, b, count), pt
	case 3:
		b, bt := sub()
		ct := g.common(at, bt)
		op := []string{"/", "%"}[g.r.Intn(2)]
		// a divisor that is neither 0 nor -1
		return fmt.Sprintf("(%s %s ((%s)(%s) == 0 || (%s)(%s) == -1 ? (%s)7 : (%s)(%s)))", a, op, ct.name, b, ct.name, b, ct.name, ct.name, b), ct
	case 4:
		b, _ := sub()
		op := []string{"<", "<=", ">", ">=", "==", "!=", "&&", "||"}[g.r.Intn(8)]
		return fmt.Sprintf("(%s %s %s)", a, op, b), ctype{"int", 32, true, 3}
	case 5:
		b, bt := sub()
		c, ct := sub()
		return fmt.Sprintf("(%s ? %s : %s)", a, b, c), g.common(bt, ct)
	default:
		b, bt := sub()
		op := []string{"+", "-", "*", "&", "|", "^"}[g.r.Intn(map[bool]int{false: 6, true: 3}[g.arith])]
		return fmt.Sprintf("(%s %s %s)", a, op, b), g.common(at, bt)
	}
}

// block writes one computation: variables with initial values, a few
// assignments (compound ones, ++ and -- included) and checks of the
// variables.
func (g *gen) block() {
	nv := 2 + g.r.Intn(3)
	vars := make([]ctype, nv)
	g.b.WriteString("  {\n")
	for i := range vars {
		vars[i] = g.types[g.r.Intn(len(g.types))]
		fmt.Fprintf(&g.b, "    %s v%d = IN(%s, %s);\n", vars[i].name, i, vars[i].name, interesting[g.r.Intn(len(interesting))])
	}
	for k := 0; k < 3; k++ {
		i := g.r.Intn(nv)
		e, _ := g.expr(vars, 3)
		switch g.r.Intn(6) {
		case 0:
			op := []string{"+=", "-=", "*=", "&=", "|=", "^="}[g.r.Intn(map[bool]int{false: 6, true: 3}[g.arith])]
			fmt.Fprintf(&g.b, "    v%d %s %s;\n", i, op, e)
		case 1:
			fmt.Fprintf(&g.b, "    v%d%s;\n", i, []string{"++", "--"}[g.r.Intn(2)])
		default:
			fmt.Fprintf(&g.b, "    v%d = %s;\n", i, e)
		}
	}
	for i := range vars {
		fmt.Fprintf(&g.b, "    CHECK(%d, v%d);\n", g.n, i)
		g.n++
	}
	g.b.WriteString("  }\n")
}

// TestIntegersAgainstGCC generates programs of integer computations,
// compiles each with gcc (-fwrapv: signed overflow wraps, as birch's
// lowering does) and runs it, then checks with birch the same program
// asserting the values gcc printed: it must pass, and fail once one
// expected value is off by one. ILP32 programs use the types whose width
// the host's gcc shares with ILP32. BIRCH_LONG=1 checks 60 programs per
// data model instead of 3.
func TestIntegersAgainstGCC(t *testing.T) {
	if _, err := exec.LookPath("gcc"); err != nil {
		t.Skip("no gcc")
	}
	if why := engineRunsFixedWidth(t); why != "" {
		t.Skip("the explicit engine does not run BIR's fixed-width types yet: " + why)
	}
	seeds := int64(3)
	if testenv.Long() {
		seeds = 60
	}
	for _, dm := range []string{"ILP32", "LP64"} {
		for seed := int64(1); seed <= seeds; seed++ {
			t.Run(fmt.Sprintf("%s/%d", dm, seed), func(t *testing.T) {
				g := &gen{r: rand.New(rand.NewSource(seed)), types: genTypes(dm == "LP64")}
				for i := 0; i < 12; i++ {
					g.block()
				}
				checkAgainstGCC(t, "int main(void) {\n"+g.b.String()+"  return 0;\n}\n", g.n, dm, seed, false)
			})
		}
	}
}

// TestIntegersAgainstGCCByRefinement checks programs of integer
// computations as TestIntegersAgainstGCC does, but each variable starts
// as an unbounded input (a long long converted to its type) that an
// assumption pins to gcc's initial value, and the operators are those
// refinement's path formulas encode exactly: birch checks them by
// refinement, which may end inconclusive, but must never pass the
// program with a wrong value nor fail it with gcc's values.
// BIRCH_LONG=1 checks 40 programs per data model instead of 1.
func TestIntegersAgainstGCCByRefinement(t *testing.T) {
	if _, err := exec.LookPath("gcc"); err != nil {
		t.Skip("no gcc")
	}
	seeds := int64(1)
	if testenv.Long() {
		seeds = 40
	}
	for _, dm := range []string{"ILP32", "LP64"} {
		for seed := int64(1); seed <= seeds; seed++ {
			t.Run(fmt.Sprintf("%s/%d", dm, seed), func(t *testing.T) {
				g := &gen{r: rand.New(rand.NewSource(seed)), types: genTypes(dm == "LP64"), arith: true}
				for i := 0; i < 2; i++ {
					g.block()
				}
				checkAgainstGCC(t, "int main(void) {\n"+g.b.String()+"  return 0;\n}\n", g.n, dm, seed, true)
			})
		}
	}
}

// probeModel uses what the lowering of the generated programs needs of the
// explicit engine: fixed-width types, wrapping stores, conversions and
// the bitwise operators.
const probeModel = `system Probe ()
u : uint32;
s : int8 := 127;
main thread M ()
  loc l0:
    when true do { u := u - 1; s := s + 1; u := (u & 255) | (u >> 28) ^ 3; u := uint32(~u) << 1; } goto l1;
  loc l1:
    when true do { assert(u == 4294966784 && int32(s * 3) == -384); } goto l2;
  loc l2:
end M;
end Probe;
`

// engineRunsFixedWidth checks the probe model: "" when the engine passes
// it, else why not.
func engineRunsFixedWidth(t *testing.T) string {
	file := filepath.Join(t.TempDir(), "probe.bir")
	if err := os.WriteFile(file, []byte(probeModel), 0o644); err != nil {
		t.Fatal(err)
	}
	var stdout, stderr bytes.Buffer
	if status := cli.Main([]string{"check", file}, nil, &stdout, &stderr); status != 0 {
		return strings.TrimSpace(stdout.String() + stderr.String())
	}
	return ""
}

func mustAtoi(t *testing.T, s string) int64 {
	var v int64
	if _, err := fmt.Sscan(s, &v); err != nil {
		t.Fatal(err)
	}
	return v
}
