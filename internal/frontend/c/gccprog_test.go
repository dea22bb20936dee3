package c_test

import (
	"bytes"
	"fmt"
	"math/rand"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"birch/internal/cli"
	"birch/internal/testenv"
)

// lval is a place a generated program may read and write: a variable, an
// element, a field, a pointer's target. store names the object it lives
// in, so that one full expression never both writes an object and reads
// or writes it elsewhere (which C leaves unsequenced).
type lval struct {
	text  string
	t     ctype
	store string
	index bool // text has a %s for an index expression (masked to 0..3)
	ro    bool // a loop counter: read only
}

// pgen writes whole random programs: globals, arrays, a struct,
// pointers, a heap block, functions (recursion included) and statements
// (loops, switch with fall-through, goto, break, continue, && || ?: and
// the comma operator with side effects), which print their results.
type pgen struct {
	gen
	labels, counters int
	pureFuncs, procs int
	fx               struct{ read, written map[string]bool }
}

func (g *pgen) resetFx() {
	g.fx.read, g.fx.written = map[string]bool{}, map[string]bool{}
}

// leaf reads a place of the pool (or a constant) in the current full
// expression.
func (g *pgen) leaf(pool []lval, depth int) (string, ctype) {
	if g.r.Intn(4) != 0 {
		for try := 0; try < 4; try++ {
			l := pool[g.r.Intn(len(pool))]
			if g.fx.written[l.store] {
				continue
			}
			g.fx.read[l.store] = true
			if l.index {
				ix, _ := g.pure(pool, depth-1)
				return fmt.Sprintf(l.text, "("+ix+") & 3"), l.t
			}
			return l.text, l.t
		}
	}
	c := interesting[g.r.Intn(len(interesting))]
	t := g.types[g.r.Intn(len(g.types))]
	return fmt.Sprintf("((%s)(%s))", t.name, c), t
}

// pure is an expression without side effects (calls of pure functions
// aside).
func (g *pgen) pure(pool []lval, depth int) (string, ctype) {
	if depth <= 0 || g.r.Intn(3) == 0 {
		return g.leaf(pool, depth)
	}
	a, at := g.pure(pool, depth-1)
	sub := func() (string, ctype) { return g.pure(pool, depth-1) }
	if k := g.r.Intn(10); k < 9 || g.pureFuncs == 0 {
		return g.compose(a, at, k%9, sub)
	}
	b, _ := sub()
	return fmt.Sprintf("f%d(%s, %s)", g.r.Intn(g.pureFuncs), a, b), ctype{"int", 32, true, 3}
}

// side is an expression with side effects on places no other part of
// the full expression touches.
func (g *pgen) side(pool []lval, depth int) (string, ctype) {
	if depth <= 0 || g.r.Intn(3) == 0 {
		for try := 0; try < 4; try++ {
			l := pool[g.r.Intn(len(pool))]
			if l.ro || l.index || g.fx.read[l.store] || g.fx.written[l.store] {
				continue
			}
			g.fx.written[l.store] = true
			switch g.r.Intn(5) {
			case 0:
				return "(" + l.text + "++)", g.promoted(l.t)
			case 1:
				return "(--" + l.text + ")", g.promoted(l.t)
			case 2:
				e, _ := g.pure(pool, 1)
				op := []string{"+=", "-=", "*=", "^=", "|=", "&=", "="}[g.r.Intn(7)]
				return fmt.Sprintf("(%s %s %s)", l.text, op, e), l.t
			}
		}
		return g.pure(pool, 1)
	}
	a, _ := g.side(pool, depth-1)
	b, bt := g.side(pool, depth-1)
	switch g.r.Intn(4) {
	case 0:
		return fmt.Sprintf("(%s && %s)", a, b), ctype{"int", 32, true, 3}
	case 1:
		return fmt.Sprintf("(%s || %s)", a, b), ctype{"int", 32, true, 3}
	case 2:
		c, ct := g.side(pool, depth-1)
		return fmt.Sprintf("(%s ? %s : %s)", a, b, c), g.common(bt, ct)
	default:
		return fmt.Sprintf("(%s, %s)", a, b), bt
	}
}

// target is a place to assign, with its index expression filled in.
func (g *pgen) target(pool []lval) (lval, bool) {
	for try := 0; try < 6; try++ {
		l := pool[g.r.Intn(len(pool))]
		if l.ro {
			continue
		}
		if l.index {
			ix, _ := g.pure(pool, 1)
			l.text = fmt.Sprintf(l.text, "("+ix+") & 3")
		}
		return l, true
	}
	return lval{}, false
}

// stmt writes one statement at indentation ind.
func (g *pgen) stmt(b *strings.Builder, pool []lval, ind string, depth int, inLoop, inMain bool) {
	g.resetFx()
	k := g.r.Intn(14)
	if depth <= 0 && k >= 6 {
		k = g.r.Intn(6)
	}
	switch k {
	case 0, 1, 2:
		l, ok := g.target(pool)
		if !ok {
			return
		}
		e, _ := g.pure(pool, 3)
		op := []string{"=", "=", "+=", "-=", "*=", "&=", "|=", "^=", "<<="}[g.r.Intn(9)]
		if op == "<<=" {
			e = "(" + e + ") & 3"
			if l.t.signed {
				fmt.Fprintf(b, "%s%s &= 0xff;\n", ind, l.text)
			}
		}
		fmt.Fprintf(b, "%s%s %s %s;\n", ind, l.text, op, e)
	case 3:
		l, ok := g.target(pool)
		if !ok {
			return
		}
		g.fx.written[l.store] = true
		e, _ := g.side(pool, 2)
		fmt.Fprintf(b, "%s%s = %s;\n", ind, l.text, e)
	case 4:
		e, _ := g.side(pool, 3)
		fmt.Fprintf(b, "%s%s;\n", ind, e)
	case 5:
		if inMain && g.procs > 0 {
			// a procedure writes globals; its result goes to a local
			var locals []lval
			for _, l := range pool {
				if strings.HasPrefix(l.store, "m") && !l.index && !l.ro {
					locals = append(locals, l)
				}
			}
			a, _ := g.pure(pool, 2)
			if len(locals) > 0 {
				fmt.Fprintf(b, "%s%s = p%d(%s);\n", ind, locals[g.r.Intn(len(locals))].text, g.r.Intn(g.procs), a)
			} else {
				fmt.Fprintf(b, "%sp%d(%s);\n", ind, g.r.Intn(g.procs), a)
			}
			return
		}
		if inLoop {
			c, _ := g.pure(pool, 2)
			fmt.Fprintf(b, "%sif (%s) %s;\n", ind, c, []string{"break", "continue"}[g.r.Intn(2)])
			return
		}
		l, ok := g.target(pool)
		if ok {
			fmt.Fprintf(b, "%s%s%s;\n", ind, l.text, []string{"++", "--"}[g.r.Intn(2)])
		}
	case 6, 7:
		c, _ := g.side(pool, 2)
		fmt.Fprintf(b, "%sif (%s) {\n", ind, c)
		g.block(b, pool, ind+"  ", depth-1, inLoop, inMain)
		if g.r.Intn(2) == 0 {
			fmt.Fprintf(b, "%s} else {\n", ind)
			g.block(b, pool, ind+"  ", depth-1, inLoop, inMain)
		}
		fmt.Fprintf(b, "%s}\n", ind)
	case 8, 9:
		i := fmt.Sprintf("i%d", g.counters)
		g.counters++
		inner := append(append([]lval(nil), pool...), lval{text: i, t: ctype{"int", 32, true, 3}, store: "c" + i, ro: true})
		n := 1 + g.r.Intn(3)
		switch g.r.Intn(3) {
		case 0:
			fmt.Fprintf(b, "%sfor (int %s = 0; %s < %d; %s++) {\n", ind, i, i, n, i)
			g.block(b, inner, ind+"  ", depth-1, true, inMain)
			fmt.Fprintf(b, "%s}\n", ind)
		case 1:
			fmt.Fprintf(b, "%s{ int %s = %d; while (%s-- > 0) {\n", ind, i, n, i)
			g.block(b, inner, ind+"  ", depth-1, true, inMain)
			fmt.Fprintf(b, "%s} }\n", ind)
		default:
			fmt.Fprintf(b, "%s{ int %s = 0; do {\n", ind, i)
			g.block(b, inner, ind+"  ", depth-1, true, inMain)
			fmt.Fprintf(b, "%s} while (++%s < %d); }\n", ind, i, n)
		}
	case 10, 11:
		c, _ := g.pure(pool, 2)
		fmt.Fprintf(b, "%sswitch ((%s) & 3) {\n", ind, c)
		for _, lab := range []string{"case 0:", "case 1:", "case 2:", "default:"} {
			if lab != "default:" && g.r.Intn(4) == 0 {
				continue
			}
			fmt.Fprintf(b, "%s%s\n", ind, lab)
			g.block(b, pool, ind+"  ", depth-1, inLoop, inMain)
			if g.r.Intn(2) == 0 {
				fmt.Fprintf(b, "%s  break;\n", ind)
			}
		}
		fmt.Fprintf(b, "%s}\n", ind)
	default:
		lab := fmt.Sprintf("L%d", g.labels)
		g.labels++
		c, _ := g.side(pool, 2)
		fmt.Fprintf(b, "%sif (%s) goto %s;\n", ind, c, lab)
		g.block(b, pool, ind+"  ", depth-1, inLoop, inMain)
		fmt.Fprintf(b, "%s%s: ;\n", ind, lab)
	}
}

func (g *pgen) block(b *strings.Builder, pool []lval, ind string, depth int, inLoop, inMain bool) {
	for n := 1 + g.r.Intn(3); n > 0; n-- {
		g.stmt(b, pool, ind, depth, inLoop, inMain)
	}
}

// decl declares a scalar initialized from a constant.
func (g *pgen) decl(b *strings.Builder, ind, name, store string) lval {
	t := g.types[g.r.Intn(len(g.types))]
	fmt.Fprintf(b, "%s%s %s = %s;\n", ind, t.name, name, interesting[g.r.Intn(len(interesting))])
	return lval{text: name, t: t, store: store}
}

// body writes a function's statements and its return of an expression
// of the given depth.
func (g *pgen) body(b *strings.Builder, pool []lval, depth int) {
	g.block(b, pool, "  ", 2, false, false)
	g.resetFx()
	e, _ := g.pure(pool, depth)
	fmt.Fprintf(b, "  return %s;\n}\n", e)
}

// program writes a program whose results CHECK(i, v) reports; it
// returns the program text and the number of checks.
func (g *pgen) program(mem bool) string {
	var b strings.Builder
	var globals []lval
	for i := 0; i < 3; i++ {
		globals = append(globals, g.decl(&b, "", fmt.Sprintf("g%d", i), fmt.Sprintf("g%d", i)))
	}
	if mem {
		at := g.types[g.r.Intn(len(g.types))]
		fmt.Fprintf(&b, "%s ga[4] = {1, -2, 3};\n", at.name)
		globals = append(globals, lval{text: "ga[%s]", t: at, store: "ga", index: true})
		ft := []ctype{g.types[g.r.Intn(len(g.types))], g.types[g.r.Intn(len(g.types))], g.types[g.r.Intn(len(g.types))]}
		fmt.Fprintf(&b, "struct S { %s a; %s b; %s c[4]; } gs = {5, 6, {7}}, *gp;\n", ft[0].name, ft[1].name, ft[2].name)
		globals = append(globals, lval{text: "gs.a", t: ft[0], store: "gs"}, lval{text: "gp->b", t: ft[1], store: "gs"},
			lval{text: "gs.c[%s]", t: ft[2], store: "gs", index: true}, lval{text: "gp->c[%s]", t: ft[2], store: "gs", index: true})
	}
	// pure functions: parameters and locals only
	for k := 0; k < 2; k++ {
		fmt.Fprintf(&b, "int f%d(int x, int y) {\n", k)
		pool := []lval{{text: "x", t: ctype{"int", 32, true, 3}, store: "x"}, {text: "y", t: ctype{"int", 32, true, 3}, store: "y"}}
		pool = append(pool, g.decl(&b, "  ", "l0", "l0"))
		g.body(&b, pool, 3)
		g.pureFuncs++
	}
	// a recursive function of small depth
	fmt.Fprintf(&b, "int f%d(int n, int x) {\n  if ((n & 3) == 0) return x;\n", g.pureFuncs)
	g.resetFx()
	e, _ := g.pure([]lval{{text: "x", t: ctype{"int", 32, true, 3}, store: "x"}, {text: "n", t: ctype{"int", 32, true, 3}, store: "n"}}, 2)
	fmt.Fprintf(&b, "  return f%d((n & 3) - 1, %s) + x;\n}\n", g.pureFuncs, e)
	g.pureFuncs++
	// procedures: they write globals
	for k := 0; k < 2; k++ {
		fmt.Fprintf(&b, "int p%d(int x) {\n", k)
		g.body(&b, append([]lval{{text: "x", t: ctype{"int", 32, true, 3}, store: "x"}}, globals...), 2)
		g.procs++
	}
	b.WriteString("int main(void) {\n")
	if mem {
		b.WriteString("  gp = &gs;\n")
	}
	pool := append([]lval(nil), globals...)
	var checks []string
	for i := 0; i < 4; i++ {
		pool = append(pool, g.decl(&b, "  ", fmt.Sprintf("m%d", i), fmt.Sprintf("m%d", i)))
	}
	if mem {
		at := g.types[g.r.Intn(len(g.types))]
		fmt.Fprintf(&b, "  %s ma[4] = {9, 8, 7, 6};\n", at.name)
		pool = append(pool, lval{text: "ma[%s]", t: at, store: "mma", index: true})
		// pointers to a local, a global, an element
		for i, l := range pool[:len(pool)-1] {
			if g.r.Intn(3) != 0 || strings.Contains(l.text, "->") {
				continue
			}
			target := l.text
			if l.index {
				target = fmt.Sprintf(l.text, fmt.Sprint(g.r.Intn(4)))
			}
			fmt.Fprintf(&b, "  %s *q%d = &%s;\n", l.t.name, i, target)
			pool = append(pool, lval{text: fmt.Sprintf("(*q%d)", i), t: l.t, store: l.store})
		}
		ht := g.types[g.r.Intn(len(g.types))]
		fmt.Fprintf(&b, "  %s *h = malloc(4 * sizeof(%s));\n  if (h == 0) return 0;\n", ht.name, ht.name)
		fmt.Fprintf(&b, "  for (int j = 0; j < 4; j++) h[j] = j * 3 - 5;\n")
		pool = append(pool, lval{text: "h[%s]", t: ht, store: "mh", index: true}, lval{text: "(*(h + 1 + ((%s) & 1)))", t: ht, store: "mh", index: true})
	}
	for s := 0; s < 8; s++ {
		g.stmt(&b, pool, "  ", 2, false, true)
	}
	for _, l := range pool {
		if l.index {
			if strings.Contains(l.text, "h + 1") {
				continue
			}
			for i := 0; i < 4; i++ {
				checks = append(checks, fmt.Sprintf(l.text, fmt.Sprint(i)))
			}
		} else if !strings.HasPrefix(l.text, "(*q") {
			checks = append(checks, l.text)
		}
	}
	if mem {
		checks = append(checks, "gs.b")
		b.WriteString("  struct S t = gs;\n  gs.a = 1;\n")
		checks = append(checks, "t.a", "t.b", "t.c[0]", "t.c[3]")
	}
	for _, c := range checks {
		fmt.Fprintf(&b, "  CHECK(%d, %s);\n", g.n, c)
		g.n++
	}
	if mem {
		b.WriteString("  free(h);\n")
	}
	b.WriteString("  return 0;\n}\n")
	return b.String()
}

// TestProgramsAgainstGCC generates whole programs (globals, functions and
// recursion, loops, switch with fall-through, goto, break, continue,
// side effects in && || ?: and the comma operator, and with memory:
// arrays, a struct and a pointer to it, pointers to locals, globals and
// elements, a malloc'd block, a struct copy), runs them compiled by gcc
// (-fwrapv) and checks with birch that the values gcc printed hold (a
// pass) and that one value off by one is found (a violation). ILP32
// programs use only the types whose width the host shares with ILP32.
// BIRCH_LONG=1 checks 100 programs per data model and kind instead of 1.
func TestProgramsAgainstGCC(t *testing.T) {
	if _, err := exec.LookPath("gcc"); err != nil {
		t.Skip("no gcc")
	}
	seeds := int64(1)
	if testenv.Long() {
		seeds = 100
	}
	if s := os.Getenv("BIRCH_GCC_SEEDS"); s != "" {
		fmt.Sscan(s, &seeds)
	}
	first := int64(1)
	if s := os.Getenv("BIRCH_GCC_FIRST"); s != "" {
		fmt.Sscan(s, &first)
	}
	for _, dm := range []string{"ILP32", "LP64"} {
		for _, mem := range []bool{false, true} {
			for seed := first; seed < first+seeds; seed++ {
				name := fmt.Sprintf("%s/int/%d", dm, seed)
				if mem {
					name = fmt.Sprintf("%s/mem/%d", dm, seed)
				}
				t.Run(name, func(t *testing.T) {
					g := &pgen{gen: gen{r: rand.New(rand.NewSource(seed)), types: genTypes(dm == "LP64")}}
					body := g.program(mem)
					checkAgainstGCC(t, body, g.n, dm, seed, false)
				})
			}
		}
	}
}

// checkAgainstGCC runs body (a program that reports n values by CHECK,
// IN(T, C) is an initial value C of type T) compiled by gcc, then checks
// with birch that the values hold and that one off by one fails. With
// inputs, IN is an unbounded input assumed equal to C, and birch may
// also answer inconclusive.
func checkAgainstGCC(t *testing.T, body string, n int, dm string, seed int64, inputs bool) {
	dir := t.TempDir()
	run := filepath.Join(dir, "run.c")
	prog := "#include <stdio.h>\n#include <stdlib.h>\n#define CHECK(i, v) printf(\"%lld\\n\", (long long)(v))\n#define IN(T, C) (C)\n" + body
	if err := os.WriteFile(run, []byte(prog), 0o644); err != nil {
		t.Fatal(err)
	}
	exe := filepath.Join(dir, "run")
	args := []string{"-O0", "-fwrapv", "-w", "-o", exe, run}
	if dm == "ILP32" && gccM32() {
		args = append([]string{"-m32"}, args...) // ILP32's 32-bit long
	}
	if out, err := exec.Command("gcc", args...).CombinedOutput(); err != nil {
		t.Fatalf("gcc: %v\n%s\n%s", err, out, prog)
	}
	out, err := exec.Command(exe).Output()
	if err != nil {
		t.Fatal(err)
	}
	want := strings.Fields(string(out))
	if len(want) != n {
		t.Fatalf("gcc's program printed %d values, want %d", len(want), n)
	}
	check := func(vals []string) (int, string, string) {
		var defs strings.Builder
		defs.WriteString("#include <stdlib.h>\nextern void reach_error(void);\n#define CHECK(i, v) if ((long long)(v) != E##i) reach_error()\n")
		if inputs {
			defs.WriteString("extern long long __VERIFIER_nondet_longlong(void);\nextern void __VERIFIER_assume(int);\n" +
				"#define IN(T, C) ({ T in_ = __VERIFIER_nondet_longlong(); __VERIFIER_assume(in_ == (T)(C)); in_; })\n")
		} else {
			defs.WriteString("#define IN(T, C) (C)\n")
		}
		for i, v := range vals {
			if v == "-9223372036854775808" {
				v = "-9223372036854775807LL - 1"
			}
			fmt.Fprintf(&defs, "#define E%d (%sLL)\n", i, v)
		}
		src := defs.String() + body
		file := filepath.Join(dir, "prog.c")
		if err := os.WriteFile(file, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
		var stdout, stderr bytes.Buffer
		status := cli.Main([]string{"check", "--data-model", dm, file}, nil, &stdout, &stderr)
		return status, stdout.String() + stderr.String(), src
	}
	status, text, src := check(want)
	if inputs && status == 3 {
		t.Logf("inconclusive: %s", text)
	} else if status != 0 {
		t.Fatalf("birch check of the values gcc computed: exit %d, want 0 (pass):\n%s\n%s", status, text, src)
	}
	k := int(seed*7) % len(want)
	wrong := append([]string(nil), want...)
	wrong[k] = fmt.Sprint(mustAtoi(t, want[k]) - 1)
	if status, text, src := check(wrong); status != 1 && !(inputs && status == 3) {
		t.Fatalf("birch check with value %d off by one: exit %d, want 1 (violation):\n%s\n%s", k, status, text, src)
	}
}
