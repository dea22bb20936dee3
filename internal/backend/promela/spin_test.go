package promela

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"birch/internal/bir/parser"
	"birch/internal/bir/types"
	"birch/internal/model"
	"birch/internal/search"
	"birch/internal/source"
	"birch/internal/testenv"
)

const (
	examplesDir = "../../../examples"
	propsDir    = "../../search/testdata/props" // models with properties
)

func load(t *testing.T, path string) *types.Program {
	t.Helper()
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	fset := source.NewFileSet()
	f, err := parser.ParseFile(fset, path, src, parser.ParseComments)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	prog, err := types.Check(fset, f, nil)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return prog
}

func examples(t *testing.T) []string {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(examplesDir, "*.bir"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no examples: %v", err)
	}
	return files
}

// models returns the examples, this package's own test models (which
// exercise locks, wait/notify, exit, heap operations, start and functions)
// and the small instances of the benchmark models.
func models(t *testing.T) []string {
	t.Helper()
	own, err := filepath.Glob(filepath.Join("testdata", "*.bir"))
	if err != nil || len(own) == 0 {
		t.Fatalf("no test models: %v", err)
	}
	small, err := filepath.Glob(filepath.Join("..", "..", "..", "bench", "models", "small", "*.bir"))
	if err != nil {
		t.Fatal(err)
	}
	props, err := filepath.Glob(filepath.Join(propsDir, "*.bir"))
	if err != nil {
		t.Fatal(err)
	}
	return append(append(append(examples(t), own...), small...), props...)
}

// translate returns the translation of the example, or "" (with the error)
// when the example uses a construct the translation does not support.
func translate(t *testing.T, prog *types.Program) (string, error) {
	t.Helper()
	var buf bytes.Buffer
	err := Translate(prog, &buf, Options{})
	if err != nil {
		var se *source.Error
		if !errors.As(err, &se) || !se.Pos.IsValid() {
			t.Fatalf("unsupported constructs must be reported with a position, got %v", err)
		}
		if buf.Len() != 0 {
			t.Fatalf("Translate wrote output despite the error %v", err)
		}
		return "", err
	}
	return buf.String(), nil
}

// TestUnsupportedPositioned checks that every example translates, that the
// disabling conditions that read a value chosen in the same step by a
// choice without one option per value are translated with symbolic
// choices (an existential in embedded C), and that what is still refused
// is refused with a positioned error that says so.
func TestUnsupportedPositioned(t *testing.T) {
	for _, path := range models(t) {
		out, err := translate(t, load(t, path))
		if err != nil {
			t.Errorf("%s: %v", filepath.Base(path), err)
		}
		// once refused: ranges and initial values beyond 32 bits; no
		// translation has a constant that a Promela int cannot hold
		for _, lit := range intLiteral.FindAllString(out, -1) {
			if v, err := strconv.ParseInt(lit, 10, 64); err != nil || !fits32(v) {
				t.Errorf("%s: the translation has the constant %s, beyond 32 bits", filepath.Base(path), lit)
			}
		}
	}
	// a range type beyond 32 bits is an int; its checks keep the bounds
	// a 32-bit value can pass; an initial value beyond 32 bits is not
	// stored, and the steps from the initial state report an overflow
	// (SPIN runs testdata/range32*.bir, init32.bir, wide32-steps.bir)
	w32, err := translate(t, load(t, filepath.Join("testdata", "range32-error.bir")))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"int y;\n", "assert(((y + t) <= 5) || BIR_range);"} {
		if !strings.Contains(w32, want) {
			t.Errorf("range32-error: the translation lacks %q:\n%s", want, w32)
		}
	}
	w32, err = translate(t, load(t, filepath.Join("testdata", "init32.bir")))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"int big;\n", "int f;\n", "  int small;\n",
		"  :: atomic { true ->\n       assert(false || BIR_overflow);\n       assert((big >= -2147483647) || BIR_overflow);\n       big = big - 1;", // M's first
		"L_n0:\n  if\n  :: atomic { false ->\n       assert(false || BIR_overflow);\n       goto end_n1;\n     }\n" + // N's first: false in birch
			"  :: atomic { true ->\n       assert(false || BIR_overflow);\n       goto end_n1;", // N's second
	} {
		if !strings.Contains(w32, want) {
			t.Errorf("init32: the translation lacks %q:\n%s", want, w32)
		}
	}
	// once refused: each is now a symbolic choice, whose entry condition
	// calls the C function of its existential, and whose value is picked
	// at the start of the step by a walk (SPIN runs them in
	// TestSpinAgreement: testdata/symbolic-*.bir)
	symbolic := []struct{ name, src string }{
		{"a disabling condition after a range choice over int bounds", `system S ()
n : int;
x : int;
main thread M ()
  loc m0:
    when true do { x := internChoose(0 .. n); assume(x != 2); } goto m1;
  loc m1:
end M;
end S;
`},
		{"a disabling condition after a constant range choice of more values than options", `system S ()
x : int;
main thread M ()
  loc m0:
    when true do { x := externChoose(0 .. 1024); assume(x != 2); } goto m1;
  loc m1:
end M;
end S;
`},
		{"a disabling condition after reachable over a heap too large to unroll", `system S ()
N = record { a, b : ref N; v : range 0..3; };
C : collection [8] of N;
r : ref N;
main thread M ()
  loc m0:
    when true do { r := reachable(r, N); assume(r.v == 0); } goto m1;
  loc m1:
end M;
end S;
`},
		{"a disabling condition after choices with too many combinations", `system S ()
N = record { v : range 0..3; };
C : collection [40] of N;
r, s : ref N;
main thread M ()
  loc m0:
    when true do { r := forall(N); s := forall(N); assume(r.v == s.v); } goto m1;
  loc m1:
end M;
end S;
`},
	}
	parse := func(name, src string) *types.Program {
		t.Helper()
		fset := source.NewFileSet()
		f, err := parser.ParseFile(fset, "s.bir", []byte(src), parser.ParseComments)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		prog, err := types.Check(fset, f, nil)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		return prog
	}
	for _, u := range symbolic {
		out, err := translate(t, parse(u.name, u.src))
		if err != nil {
			t.Errorf("%s: %v", u.name, err)
			continue
		}
		for _, want := range []*regexp.Regexp{
			regexp.MustCompile(`(?m)^  :: atomic \{ .*c_expr \{ \(BIR_x\d+_0\(_this\)\) \}\)* ->$`),                              // the entry: some value is valid
			regexp.MustCompile(`BIR_cv0 = .*; BIR_cd = c_expr \{ \(BIR_n\d+_0\(_this, PM->BIR_cv0\)\) \}; do :: `),               // the walk
			regexp.MustCompile(`(?m)^       BIR_cv0 = 0;$`),                                                                      // back to 0 in the step
			regexp.MustCompile(`(?m)^c_code \{\n(static int BIR_\w+\(.*\);\n)*static int BIR_s\d+_0\(uchar \*_this, int v0\);$`), // the C functions
			regexp.MustCompile(`(?m)^  int BIR_cv0(, BIR_cv1)?; .*\n  int BIR_cd;`),                                              // the scratch locals
		} {
			if !want.MatchString(out) {
				t.Errorf("%s: the translation does not match %s:\n%s", u.name, want, out)
			}
		}
	}
	// the existential's C, for the two foralls: both are symbols, over the
	// objects allocated and 0 (none, when there is no object: r and s keep
	// their values), nested
	out, err := translate(t, parse("foralls", symbolic[3].src))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"  :: atomic { c_expr { (BIR_x0_0(_this)) } ->\n",
		"static int BIR_s0_1(uchar *_this, int v0, int v1) {\n  return (!(((v0 != 0 ? v0 : now.r)) != 0)) || ((!(((v1 != 0 ? v1 : now.s)) != 0)) || (now.C[((v0 != 0 ? v0 : now.r)) - 1].v == now.C[((v1 != 0 ? v1 : now.s)) - 1].v));\n}",
		"static int BIR_s0_0(uchar *_this, int v0) {\n  return BIR_x0_1(_this, v0);\n}",
		"    if (((v1 >= 1 && v1 <= 40 && (v1 - 1 < now.BIR_n_C + 0)) || (v1 == 0 && (now.BIR_n_C == 0))) && (BIR_s0_1(_this, v0, v1))) return 1;\n",
		"       if :: BIR_cv0 != 0 -> r = BIR_cv0 :: else -> skip fi;\n       BIR_cv0 = 0;\n       if :: BIR_cv1 != 0 -> s = BIR_cv1 :: else -> skip fi;\n       BIR_cv1 = 0;\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("foralls: the translation lacks %q:\n%s", want, out)
		}
	}
	// once refused: forall's choice is expanded into one option per
	// object, entered when the object is allocated and its v is 0
	out, err = translate(t, parse("forall then assume", `system S ()
N = record { v : range 0..3; };
C : collection [2] of N;
r : ref N;
main thread M ()
  loc m0:
    when true do { r := new C; r := new C; r := forall(N); assume(r.v == 0); } goto m1;
  loc m1:
end M;
end S;
`))
	if err != nil {
		t.Fatalf("forall then assume: %v", err)
	}
	for _, want := range []string{"(C[(1) - 1].v == 0)", "r = 1;", "(C[(2) - 1].v == 0)", "r = 2;"} {
		if !strings.Contains(out, want) {
			t.Errorf("forall then assume: the translation lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "c_expr") {
		t.Errorf("forall then assume: embedded C where one option per object does:\n%s", out)
	}
	// once refused: a condition whose C function exceeds what SPIN's
	// c_code takes (about 60 KB) is split into helper functions, each
	// holding consecutive terms of the chain, so that every c_code block
	// fits (SPIN runs testdata/symbolic-huge.bir in TestSpinAgreement)
	// (in parenthesized groups of 100, within BIR's nesting bound)
	var terms, group []string
	for k := 0; k < 3000; k++ {
		group = append(group, fmt.Sprintf("x != %d", 100000+k))
		if len(group) == 100 {
			terms, group = append(terms, "("+strings.Join(group, " && ")+")"), nil
		}
	}
	huge := `system S ()
n : int;
x : int;
main thread M ()
  loc m0:
    when true do { x := internChoose(0 .. n); assume(` + strings.Join(terms, " && ") + `); } goto m1;
  loc m1:
end M;
end S;
`
	out, err = translate(t, parse("huge", huge))
	if err != nil {
		t.Fatalf("a C function too long: %v", err)
	}
	blocks := regexp.MustCompile(`(?s)\nc_code \{\n(.*?)\n\}\n`).FindAllStringSubmatch(out, -1)
	if len(blocks) < 2 {
		t.Errorf("huge: %d c_code blocks, want the C split into several", len(blocks))
	}
	for _, b := range blocks {
		if len(b[1]) > maxCBlock {
			t.Errorf("huge: a c_code block of %d bytes, more than %d", len(b[1]), maxCBlock)
		}
	}
	for _, want := range []*regexp.Regexp{
		regexp.MustCompile(`static int BIR_s0_0\(uchar \*_this, int v0\) \{\n  return \(BIR_h0_0\(_this, v0\)( && BIR_h0_\d+\(_this, v0\))+\);\n\}`),
		regexp.MustCompile(`static int BIR_h0_0\(uchar \*_this, int v0\) \{\n  return \(\(v0\) != 100000\) && \(\(v0\) != 100001\) && `),
	} {
		if !want.MatchString(out) {
			t.Errorf("huge: the translation does not match %s", want)
		}
	}
	for k := 0; k < 3000; k++ {
		if !strings.Contains(out, fmt.Sprintf("((v0) != %d)", 100000+k)) {
			t.Fatalf("huge: comparison %d is missing from the C", k)
		}
	}
	// once refused: a remote reference to an array or a lock of a thread
	// (SPIN's P[pid]:a[1] does not parse) reads the process's local in
	// pan's process table with embedded C, under the instance's guards
	// (SPIN runs testdata/remote-array*.bir)
	out, err = translate(t, parse("remote", `system S ()
WL = lock wait;
w : tid;
thread W ()
  a : array [2] of range 0..3;
  l : WL;
  loc w0:
    when true do { lock(l); a[1] := 2; } goto w1;
  loc w1:
end W;
main thread M ()
  b : array [2] of boolean;
  loc m0:
    when true do { w := start W(); b[0] := true; } goto m1;
  loc m1:
end M;
properties
  invariant arr: M : b[0] -> W[w] : a[1] == 2 && W[w] : hasLock(l) && !(W[w] : wasNotified(l));
end S;
`))
	if err != nil {
		t.Fatalf("remote: %v", err)
	}
	for _, want := range []string{
		"c_expr { (((__typeof__(PM))Pptr(BASE + 0))->b[0]) }",
		"((w == 2) && (BIR_proc[0] == 1) -> c_expr { (((__typeof__(PW))Pptr(BASE + 2))->a[1]) } : ",
		"c_expr { (((__typeof__(PW))Pptr(BASE + 2))->l.owner == 2) }",
		"c_expr { ((((__typeof__(PW))Pptr(BASE + 2))->l.notified & (1 << (2 - 1))) != 0) }",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("remote: the translation lacks %q:\n%s", want, out)
		}
	}
	// once refused: arrays of arrays; each row is a typedef wrapping the
	// inner array (b[i][j] is b[i].e[j]), a started thread's parameter is
	// one scalar per innermost element, and a remote reference reads that
	// scalar (SPIN runs testdata/nested-*.bir)
	out, err = translate(t, parse("nested", `system S ()
Row = array [2] of range 1..3;
Grid = array [3] of Row;
g : Grid;
i : range 0..2;
w : tid;
thread W (v : Grid)
  loc w0:
    when true do { v[i][1] := 2; } goto w1;
  loc w1:
end W;
main thread M ()
  ls : array [2] of array [2] of lock;
  loc m0:
    when true do { g[i][1] := 3; g[0] := g[2]; w := start W(g); lock(ls[i % 2][1]); } goto m1;
  loc m1:
end M;
properties
  invariant el: w == null || W[w] : v[2][1] <= 3;
end S;
`))
	if err != nil {
		t.Fatalf("nested: %v", err)
	}
	for _, want := range []string{
		"typedef T_Row { byte e[2] = 1 };",
		"T_Row g[3];",
		"T_row1 ls[2];",
		"g[i].e[1] = 3",
		"g[0].e[0] = g[2].e[0]",
		"g[0].e[1] = g[2].e[1]",
		"proctype W(byte v_0_0; byte v_0_1; byte v_1_0; byte v_1_1; byte v_2_0; byte v_2_1)",
		"run W(g[0].e[0], g[0].e[1], g[1].e[0], g[1].e[1], g[2].e[0], g[2].e[1])",
		"if :: i == 0 -> v_0_1 = 2 :: i == 1 -> v_1_1 = 2 :: else -> v_2_1 = 2 fi",
		"ls[i % 2].e[1].owner",
		"c_expr { (((__typeof__(PW))Pptr(BASE + 2))->v_2_1) }",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("nested: the translation lacks %q:\n%s", want, out)
		}
	}
	// once refused: more than 31 threads; a set of threads is two ints
	// (SPIN runs testdata/many-threads*.bir with up to 64 threads)
	prog := load(t, filepath.Join("testdata", "many-threads.bir"))
	var buf bytes.Buffer
	if err := Translate(prog, &buf, Options{MaxThreads: 64}); err != nil {
		t.Fatalf("64 threads: %v", err)
	}
	for _, want := range []string{
		"typedef BIR_Lock { byte owner; byte count; int waiting; int notified; int waiting2; int notified2 };",
		"int BIR_term2 = 0;",
		" :: (L.waiting & (1 << 31)) != 0 -> L.waiting = L.waiting & ~(1 << 31); L.notified = L.notified | (1 << 31)",
		" :: (L.waiting2 & 1) != 0 -> L.waiting2 = L.waiting2 & ~1; L.notified2 = L.notified2 | 1",
		" :: (L.waiting2 & (1 << 31)) != 0 -> ",
	} {
		if !strings.Contains(buf.String(), want) {
			t.Errorf("64 threads: the translation lacks %q", want)
		}
	}
	const tooMany = `^promela: at most 64 threads are supported, not 65$`
	if err := Translate(prog, &bytes.Buffer{}, Options{MaxThreads: 65}); err == nil || !regexp.MustCompile(tooMany).MatchString(err.Error()) {
		t.Errorf("65 threads: got %v, want %s", err, tooMany)
	}
}

func needSpin(t *testing.T) {
	t.Helper()
	for _, tool := range []string{"spin", "gcc"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("%s is not on PATH (apt-get install spin gcc)", tool)
		}
	}
}

func run(t *testing.T, dir string, timeout time.Duration, name string, args ...string) (string, error) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	return string(out), err
}

// TestSpinAccepts checks that spin -a accepts the translation of every
// example that translates (in parallel: spin -a alone takes a fraction of
// a second, which is why every model runs by default).
func TestSpinAccepts(t *testing.T) {
	needSpin(t)
	for _, path := range models(t) {
		name := strings.TrimSuffix(filepath.Base(path), ".bir")
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			pml, err := translate(t, load(t, path))
			if err != nil {
				t.Skipf("not translated: %v", err)
			}
			dir := t.TempDir()
			if err := os.WriteFile(filepath.Join(dir, "model.pml"), []byte(pml), 0o644); err != nil {
				t.Fatal(err)
			}
			if out, err := run(t, dir, time.Minute, "spin", "-a", "-o1", "-o2", "model.pml"); err != nil || strings.Contains(out, "Error") {
				t.Fatalf("spin -a: %v\n%s", err, out)
			}
		})
	}
}

// runSpin runs SPIN on the translation tr (in a fresh directory, which it
// returns for the trail), with pan compiled quickly (-O0): the tests' models
// are small.
func runSpin(t *testing.T, tr *Translation) (*PanReport, string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 4*time.Minute)
	defer cancel()
	dir := t.TempDir()
	r, err := RunSpin(ctx, tr.Promela, SpinConfig{Dir: dir, QuickBuild: true})
	if err != nil {
		t.Fatal(err)
	}
	if r.DepthLimited {
		t.Fatalf("pan: search depth too small:\n%s", r.Output)
	}
	if !panVectorRE.MatchString(r.Output) {
		t.Fatalf("cannot read pan's report:\n%s", r.Output)
	}
	return r, dir
}

// quickAgreement are the models TestSpinAgreement compares in the default
// run, a few seconds of gcc in all: together they cover choices (one option
// per value, and symbolic ones in embedded C), locks with wait and notify,
// the heap, functions and their call-depth bound, started threads,
// invariants and a remote reference, a passing model and each kind of
// violation: an assertion, a deadlock, a runtime error, an invariant and
// SPIN's 32-bit overflow. With BIRCH_LONG set it compares every model.
var quickAgreement = []string{
	"choose",                // choices, pass (216 states)
	"symbolic-range",        // symbolic range choices in embedded C
	"bounded-buffer-notify", // wait and notify: a deadlock
	"monitor-all",           // notifyAll, pass
	"heap-list",             // the heap, pass
	"null-deref",            // the heap: a runtime error
	"fn-result-range",       // a result outside the function's range type: a range error
	"fn-arrays",             // functions with arrays and locks in their frames
	"dynamic-threads",       // started threads
	"peterson-broken",       // an assertion
	"invariant-unsafe",      // an invariant violated
	"remote-array",          // invariants over a started thread's locals
	"int-overflow",          // SPIN's 32-bit overflow, mapped back
	"wide32-steps",          // birch's 64-bit int passes where SPIN overflows
	"collection-limit",      // a bound hit: inconclusive in both
	"fixed-wrap",            // fixed-width stores, conversions, bitwise operators at the edges
	"fixed-stores",          // wrapping stores of choices, arguments, results, fields, elements
	"fixed-shift",           // a shift count outside 0..63
	"min32",                 // the smallest int as a constant
	"div32",                 // MIN / -1: SPIN's 32-bit overflow, its trail replayed without a trap
}

// agreementModels returns the models TestSpinAgreement compares: every
// model with BIRCH_LONG set, the quickAgreement ones otherwise.
func agreementModels(t *testing.T) []string {
	t.Helper()
	all := models(t)
	if testenv.Long() {
		return all
	}
	byName := map[string]string{}
	for _, path := range all {
		byName[strings.TrimSuffix(filepath.Base(path), ".bir")] = path
	}
	var quick []string
	for _, name := range quickAgreement {
		path, ok := byName[name]
		if !ok {
			t.Fatalf("quickAgreement names %s, which is not a model", name)
		}
		quick = append(quick, path)
	}
	return quick
}

// TestSpinAgreement runs birch and SPIN on every model (docs/promela.md):
// the verdicts must agree (pass or inconclusive within the bounds against no
// error; the same violation kind); for complete searches SPIN's stored
// state count must equal birch's state count, and pan must report hitting
// a bound exactly when birch's search was cut at one; for violations,
// SPIN's trail must map back to a birch trail that ends in the same one.
// The default run compares the quickAgreement models, BIRCH_LONG=1 all of
// them; the models run in parallel.
func TestSpinAgreement(t *testing.T) {
	needSpin(t)
	for _, path := range agreementModels(t) {
		name := strings.TrimSuffix(filepath.Base(path), ".bir")
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			prog := load(t, path)
			if _, err := translate(t, prog); err != nil {
				t.Fatalf("not translated: %v", err)
			}
			tr, err := TranslateFull(prog, Options{ReportLimits: true})
			if err != nil {
				t.Fatal(err)
			}
			src, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			if strings.Contains(string(src), "// spin: overflow (32-bit)") {
				wide32(t, name, prog, tr)
				return
			}
			sp := agree(t, name, prog, tr, model.Options{})
			if fixed := strings.Contains(tr.Promela, wrapvMarker); fixed != slices.Contains(sp.CFlags, "-fwrapv") {
				t.Errorf("%s: fixed-width arithmetic %v, pan compiled with %v", name, fixed, sp.CFlags)
			}
		})
	}
}

// TestSpinAgreementBounds checks the thread bound and the call depth with
// bounds other than the defaults: the same limits cut the same paths. The
// default run checks one bound of each kind (a bound of 33 threads puts
// the last in the second word of a set of threads); BIRCH_LONG=1 checks
// them all. The cases run in parallel.
func TestSpinAgreementBounds(t *testing.T) {
	needSpin(t)
	long := testenv.Long()
	bounds := func(name string, quick bool, check func(t *testing.T)) {
		t.Helper()
		if !quick && !long {
			return
		}
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			check(t)
		})
	}
	for _, n := range []int{2, 3, 5} {
		name := fmt.Sprintf("start, %d threads", n)
		bounds(name, n == 3, func(t *testing.T) {
			agreeFile(t, name, "start.bir", Options{MaxThreads: n}, model.Options{MaxThreads: n})
		})
	}
	// more than 31 threads: sets of threads in two words (32 cuts the
	// path at the second waiter; 33 is the tid in the second word)
	for _, file := range []string{"many-threads.bir", "many-threads-deadlock.bir"} {
		for _, n := range []int{32, 33, 40, 64} {
			name := fmt.Sprintf("%s, %d threads", file, n)
			bounds(name, n == 33 && file == "many-threads-deadlock.bir", func(t *testing.T) {
				tr := agreeFile(t, name, file, Options{MaxThreads: n}, model.Options{MaxThreads: n})
				if !strings.Contains(tr.Promela, "int BIR_term2 = 0;") {
					t.Errorf("%s: no second word of BIR_term", name)
				}
			})
		}
	}
	// more main threads than the bound: birch hits the bound before it
	// has a state and stores none; the translation reports the same bound
	// (message and position) from the one state pan stores
	bounds("main-threads, 3 threads", false, func(t *testing.T) {
		agreeFile(t, "main-threads, 3 threads", "main-threads.bir", Options{MaxThreads: 3}, model.Options{MaxThreads: 3})
	})
	bounds("main-threads, 2 threads", true, func(t *testing.T) {
		prog := load(t, filepath.Join("testdata", "main-threads.bir"))
		tr, err := TranslateFull(prog, Options{MaxThreads: 2, ReportLimits: true})
		if err != nil {
			t.Fatal(err)
		}
		m, err := model.New(prog, model.Options{MaxThreads: 2})
		if err != nil {
			t.Fatal(err)
		}
		res := search.Run(m, search.Config{})
		if res.Verdict != search.Inconclusive || res.Stats.States != 0 || len(res.LimitsHit) != 1 {
			t.Fatalf("main-threads, 2 threads: birch %s, %d states, %d bounds hit; want inconclusive, no state, one bound", res.Verdict, res.Stats.States, len(res.LimitsHit))
		}
		sp, _ := runSpin(t, tr)
		hits := panLimitLines.FindAllString(sp.Output, -1)
		if sp.Errors != 0 || sp.States != 1 || len(hits) == 0 || len(tr.Limits) != 1 {
			t.Fatalf("main-threads, 2 threads: SPIN %d errors, %d states, %d bound reports (%d bounds translated); want none, 1, some, 1:\n%s", sp.Errors, sp.States, len(hits), len(tr.Limits), sp.Output)
		}
		if l, h := tr.Limits[0], res.LimitsHit[0]; l.Msg != h.Msg || l.Pos != h.Pos {
			t.Errorf("main-threads, 2 threads: SPIN's bound %q at %v, birch's %q at %v", l.Msg, l.Pos, h.Msg, h.Pos)
		}
	})
	for _, n := range []int{1, 2, 3, 5} {
		name := fmt.Sprintf("functions, call depth %d", n)
		bounds(name, n == 2, func(t *testing.T) {
			agreeFile(t, name, "functions.bir", Options{MaxCallDepth: n}, model.Options{MaxCallDepth: n})
		})
	}
}

// agreeFile checks that birch (with mopts) and SPIN (on the translation
// with opts, reporting bounds hit) agree on testdata/file, and returns the
// translation.
func agreeFile(t *testing.T, name, file string, opts Options, mopts model.Options) *Translation {
	t.Helper()
	prog := load(t, filepath.Join("testdata", file))
	opts.ReportLimits = true
	tr, err := TranslateFull(prog, opts)
	if err != nil {
		t.Fatal(err)
	}
	agree(t, name, prog, tr, mopts)
	return tr
}

// wide32 checks the documented relation for a model whose int values leave
// 32 bits without overflowing 64: birch passes, SPIN reports an overflow,
// and every step of SPIN's trail but the last fits birch, where the last
// one completes.
func wide32(t *testing.T, name string, prog *types.Program, tr *Translation) {
	m, err := model.New(prog, model.Options{})
	if err != nil {
		t.Fatal(err)
	}
	res := search.Run(m, search.Config{Strategy: search.DFS, TimeLimit: 2 * time.Minute})
	if res.Verdict != search.Pass {
		t.Fatalf("%s: birch: %s, want pass", name, res.Verdict)
	}
	sp, dir := runSpin(t, tr)
	if sp.Kind != "overflow" {
		t.Fatalf("%s: SPIN: %d errors (%q), want a 32-bit overflow:\n%s", name, sp.Errors, sp.Kind, sp.Output)
	}
	checkTrail(t, name, m, tr, sp, dir, true)
	t.Logf("%s: birch pass; SPIN overflow (32-bit int)", name)
}

// agree checks that birch (with mopts) and SPIN (on tr) agree on prog, and
// returns SPIN's report.
func agree(t *testing.T, name string, prog *types.Program, tr *Translation, mopts model.Options) *PanReport {
	t.Helper()
	m, err := model.New(prog, mopts)
	if err != nil {
		t.Fatal(err)
	}
	sm := withInvariants(t, m)
	res := search.Run(sm, search.Config{Strategy: search.DFS, TimeLimit: 2 * time.Minute})
	sp, dir := runSpin(t, tr)
	limits := len(panLimitLines.FindAllString(sp.Output, -1))
	switch res.Verdict {
	case search.Pass, search.Inconclusive:
		if !res.Complete && res.Verdict == search.Pass {
			t.Fatalf("birch's search is not complete: %s", res.Reason)
		}
		if sp.Errors != 0 {
			t.Fatalf("%s: birch: %s (%s), SPIN found %d errors (%s):\n%s", name, res.Verdict, res.Reason, sp.Errors, sp.Kind, sp.Output)
		}
		if int(sp.States) != res.Stats.States {
			t.Errorf("%s: states: birch %d, SPIN %d", name, res.Stats.States, sp.States)
		}
		if (limits > 0) != (len(res.LimitsHit) > 0) {
			t.Errorf("%s: birch hit %d bounds, pan reported %d", name, len(res.LimitsHit), limits)
		}
		t.Logf("%s: birch %s, %d states; SPIN no errors, %d states, %d bounds hit", name, res.Verdict, res.Stats.States, sp.States, limits)
	case search.Fail:
		want := res.Violation.Kind.String()
		if sp.Errors == 0 {
			t.Fatalf("%s: birch: fail (%s), SPIN found no error (%d states)", name, want, sp.States)
		}
		if sp.Kind != want {
			t.Fatalf("%s: violation kind: birch %s, SPIN %s:\n%s", name, want, sp.Kind, sp.Output)
		}
		// SPIN's overflow is a 32-bit one (int-overflow.bir: at 13!,
		// where birch's 64-bit int overflows at 21!)
		checkTrailIn(t, name, m, sm, tr, sp, dir, want == "overflow")
		t.Logf("%s: birch fail %s; SPIN %s", name, want, sp.Kind)
	}
	return sp
}

// intLiteral matches the decimal integer constants of a translation (not
// parts of names).
var intLiteral = regexp.MustCompile(`\b[0-9]+\b`)

var panLimitLines = regexp.MustCompile(`(?m)^BIR-limit \d+$`)

// checkTrail maps SPIN's trail back to birch (MapTrail) and replays the
// ordinals with birch's engine: they must end in SPIN's violation, or,
// with wide32, in a step that completes in birch (a 32-bit overflow).
func checkTrail(t *testing.T, name string, m *model.Model, tr *Translation, sp *PanReport, dir string, wide32 bool) {
	t.Helper()
	checkTrailIn(t, name, m, m, tr, sp, dir, wide32)
}

// withInvariants returns m with its invariants checked in every state, as
// the translation's monitor checks them.
func withInvariants(t *testing.T, m *model.Model) search.Model {
	t.Helper()
	var invs []*types.Property
	for _, p := range m.Program().Properties {
		if !p.LTL {
			invs = append(invs, p)
		}
	}
	if len(invs) == 0 {
		return m
	}
	inv, err := search.NewInvariants(m, invs)
	if err != nil {
		t.Fatal(err)
	}
	return search.WithStateCheck(m, inv)
}

func checkTrailIn(t *testing.T, name string, m *model.Model, sm search.Model, tr *Translation, sp *PanReport, dir string, wide32 bool) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	steps, err := ReadTrail(ctx, dir, tr)
	if err != nil {
		t.Fatal(err)
	}
	ords, err := MapTrailIn(m, sm, steps, sp.Kind)
	if wide32 {
		if !errors.Is(err, ErrNotInBirch) || len(ords) != len(steps) {
			t.Fatalf("%s: want the 32-bit overflow not to be in birch, got %v (%d of %d steps)", name, err, len(ords), len(steps))
		}
		if _, _, err := search.Replay(m, ords); err != nil {
			t.Fatal(err)
		}
		return
	}
	if err != nil {
		t.Fatalf("%s: mapping SPIN's trail: %v", name, err)
	}
	if len(ords) == 0 && sp.Kind != "deadlock" {
		// a violation in the initial state (an invariant)
		if _, fail := sm.Initial(nil); fail == nil || fail.Kind.String() != sp.Kind {
			t.Fatalf("%s: SPIN's trail has no step, but birch's initial state has no %s", name, sp.Kind)
		}
		return
	}
	_, ts, err := search.Replay(sm, ords)
	if err != nil {
		t.Fatal(err)
	}
	if sp.Kind == "deadlock" {
		final := search.Final(nil, ts)
		if n, allDone := m.Next(final, func(*model.Step) {}); n != 0 || allDone {
			t.Fatalf("%s: the mapped trail does not end in a deadlock", name)
		}
	} else if last := ts[len(ts)-1].Step; last.Outcome != model.Error || last.Kind.String() != sp.Kind {
		t.Fatalf("%s: the mapped trail ends in %v %v, SPIN found %s", name, last.Outcome, last.Kind, sp.Kind)
	}
}
