package java_test

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"

	"birch/internal/cli"
	java "birch/internal/frontend/java"
	"birch/internal/frontend/java/classfile"
	"birch/internal/frontend/java/stubs"
	"birch/internal/testenv"
)

var jdiffWrite = flag.Bool("jdiff.write", false, "rewrite testdata/jdiff/Jd*.java from the seeds of TestJDiff (runs javac and java)")

// jdiffSeeds are the seeds of the default run's programs, kept in
// testdata/jdiff (with the JVM's results in their expect methods) so
// that the default run needs no javac of its own.
var jdiffSeeds = []int64{1, 2, 3, 4, 5, 6}

// TestJDiff is a random differential test of the lowering against the
// JVM: the programs jdiffgen_test.go generates (testdata/jdiff/Jd*.java)
// run on every combination of their inputs with java -ea (JDiffDriver,
// one JVM for all), and as birch's model with the inputs fixed (birch
// simulate): what each run prints and the exception that ends it must
// agree. Then birch check of the whole model (every input) must pass
// when no run throws (main asserts the JVM's result of each input) or
// fail with an exception some run throws, and birch check of the
// program's Wrong main, which expects a result off by one for one
// input, must fail at its assert. BIRCH_LONG=1 runs TestJDiffLong:
// hundreds of programs generated and compiled at test time.
func TestJDiff(t *testing.T) {
	javaBin := jdiffJava(t)
	if *jdiffWrite {
		var ps []*jprog
		for _, s := range jdiffSeeds {
			ps = append(ps, genProgram(s))
		}
		dir := t.TempDir()
		_, srcs := jdiffBuild(t, javaBin, dir, ps)
		old, _ := filepath.Glob("testdata/jdiff/Jd*.java")
		for _, f := range old {
			os.Remove(f)
		}
		for _, p := range ps {
			if src, ok := srcs[p.seed]; ok {
				if err := os.WriteFile(filepath.Join("testdata", "jdiff", p.class+".java"), []byte(src), 0o644); err != nil {
					t.Fatal(err)
				}
			}
		}
		return
	}
	files, _ := filepath.Glob("testdata/jdiff/Jd*.java")
	if len(files) == 0 {
		t.Fatal("no testdata/jdiff/Jd*.java (go test -run TestJDiff -jdiff.write writes them)")
	}
	var ps []*jprog
	for _, f := range files {
		seed, err := strconv.ParseInt(strings.TrimSuffix(strings.TrimPrefix(filepath.Base(f), "Jd"), ".java"), 10, 64)
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		p := genProgram(seed)
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.HasPrefix(string(src), p.body) {
			t.Fatalf("%s is not the program of seed %d (the generator changed: go test -run TestJDiff -jdiff.write rewrites it)", f, seed)
		}
		ps = append(ps, p)
	}
	dir := progs.Dir(t)
	res := jdiffJVM(t, javaBin, dir, ps)
	var st jdiffStats
	for _, p := range ps {
		t.Run(p.class, func(t *testing.T) { st.add(jdiffCheck(t, dir, "testdata/jdiff", p, res)) })
	}
	t.Logf("%s", st)
}

// TestJDiffLong generates and checks BIRCH_JDIFF programs (default 300)
// from the seed BIRCH_JDIFF_SEED (default 1000) on.
func TestJDiffLong(t *testing.T) {
	testenv.SkipUnlessLong(t)
	javaBin := jdiffJava(t)
	n, first := 300, int64(1000)
	if s := os.Getenv("BIRCH_JDIFF"); s != "" {
		n, _ = strconv.Atoi(s)
	}
	if s := os.Getenv("BIRCH_JDIFF_SEED"); s != "" {
		first, _ = strconv.ParseInt(s, 10, 64)
	}
	var ps []*jprog
	for i := 0; i < n; i++ {
		ps = append(ps, genProgram(first+int64(i)))
	}
	dir := t.TempDir()
	if d := os.Getenv("BIRCH_JDIFF_DIR"); d != "" {
		dir = d // kept, to minimise what differs
	}
	classes, srcs := jdiffBuild(t, javaBin, dir, ps)
	var compiled []*jprog
	for _, p := range ps {
		if _, ok := srcs[p.seed]; ok {
			compiled = append(compiled, p)
		}
	}
	res := jdiffJVM(t, javaBin, classes, compiled)
	var st jdiffStats
	for _, p := range ps {
		if _, ok := srcs[p.seed]; !ok {
			continue
		}
		t.Run(p.class, func(t *testing.T) { st.add(jdiffCheck(t, classes, filepath.Join(dir, "src"), p, res)) })
	}
	t.Logf("%d programs generated, %d compiled: %s", n, len(srcs), st)
}

func jdiffJava(t *testing.T) string {
	testenv.SkipWithoutJavac(t)
	javaBin, err := exec.LookPath("java")
	if err != nil {
		t.Skip("java is not installed")
	}
	return javaBin
}

// jdiffStats counts what TestJDiff ran.
type jdiffStats struct {
	programs, unsupported, runs, checks, inconclusive, disagreements int
	reasons                                                          map[string]int
}

func (s *jdiffStats) add(o jdiffStats) {
	s.programs += o.programs
	s.unsupported += o.unsupported
	s.runs += o.runs
	s.checks += o.checks
	s.inconclusive += o.inconclusive
	s.disagreements += o.disagreements
	for k, v := range o.reasons {
		if s.reasons == nil {
			s.reasons = map[string]int{}
		}
		s.reasons[k] += v
	}
}

func (s jdiffStats) String() string {
	var rs []string
	for k, v := range s.reasons {
		rs = append(rs, fmt.Sprintf("%d× %s", v, k))
	}
	sort.Strings(rs)
	return fmt.Sprintf("%d programs (%d unsupported), %d runs simulated, %d checks (%d inconclusive), %d disagreements with the JVM\n%s",
		s.programs, s.unsupported, s.runs, s.checks, s.inconclusive, s.disagreements, strings.Join(rs, "\n"))
}

// jdiffJavac compiles the files (javac -g, birch's stubs on the source
// path, as testenv.JavaBuild) into classes; a file javac rejects is
// left out (a bug of the generator, logged) and the rest compiled again.
func jdiffJavac(t *testing.T, stubDir, classes string, files []string) []string {
	t.Helper()
	for len(files) > 0 {
		args := append([]string{"-J-XX:TieredStopAtLevel=1", "-J-XX:+UseSerialGC", "-g", "-implicit:class", "-nowarn",
			"-Xmaxerrs", "10000", "-sourcepath", stubDir, "-d", classes}, files...)
		out, err := exec.Command("javac", args...).CombinedOutput()
		if err == nil {
			return files
		}
		bad := map[string]bool{}
		for _, m := range regexp.MustCompile(`(?m)^(\S+\.java):\d+: error`).FindAllStringSubmatch(string(out), -1) {
			bad[m[1]] = true
		}
		if len(bad) == 0 {
			t.Fatalf("javac: %v\n%s", err, out)
		}
		t.Logf("javac rejects %d generated programs (a generator bug):\n%.3000s", len(bad), out)
		var keep []string
		for _, f := range files {
			if !bad[f] {
				keep = append(keep, f)
			}
		}
		if len(keep) == len(files) {
			t.Fatalf("javac: %v\n%s", err, out)
		}
		files = keep
	}
	return files
}

// jdiffBuild compiles the programs, runs them with the JVM, and compiles
// them again with main's expectations; it returns the class directory
// and the final source of each program that compiled.
func jdiffBuild(t *testing.T, javaBin, dir string, ps []*jprog) (string, map[int64]string) {
	stubDir, src := filepath.Join(dir, "stubs"), filepath.Join(dir, "src")
	if err := stubs.WriteTree(stubDir); err != nil {
		t.Fatal(err)
	}
	os.MkdirAll(src, 0o755)
	driver, err := os.ReadFile("testdata/jdiff/JDiffDriver.java")
	if err != nil {
		t.Fatal(err)
	}
	files := []string{filepath.Join(src, "JDiffDriver.java")}
	os.WriteFile(files[0], driver, 0o644)
	byFile := map[string]*jprog{}
	for _, p := range ps {
		f := filepath.Join(src, p.class+".java")
		byFile[f] = p
		files = append(files, f)
		if err := os.WriteFile(f, []byte(p.source(nil, "")), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	first := filepath.Join(dir, "classes0")
	files = jdiffJavac(t, stubDir, first, files)
	var ok []*jprog
	for _, f := range files {
		if p := byFile[f]; p != nil {
			ok = append(ok, p)
		}
	}
	res := jdiffJVM(t, javaBin, first, ok)
	srcs := map[int64]string{}
	for _, p := range ok {
		want := map[string]string{}
		bad := ""
		for _, c := range p.combos() {
			if r := res[p.pkg+"."+p.class+":"+c]; r.exc == "" {
				want[c] = r.result
				if bad == "" || len(want)%2 == 0 {
					bad = c
				}
			}
		}
		srcs[p.seed] = p.source(want, bad)
		os.WriteFile(filepath.Join(src, p.class+".java"), []byte(srcs[p.seed]), 0o644)
	}
	classes := filepath.Join(dir, "classes")
	kept := map[string]bool{}
	for _, f := range jdiffJavac(t, stubDir, classes, files) {
		kept[f] = true
	}
	for f, p := range byFile {
		if !kept[f] {
			delete(srcs, p.seed)
		}
	}
	return classes, srcs
}

// jdiffResult is what one run of run() does on the JVM.
type jdiffResult struct {
	out    string // what it prints, then "!! Exception" if one ends it
	result string // run's result ("" when an exception ends it)
	exc    string // the exception's simple class name
	line   string // the line of its top frame
}

// jdiffJVM runs every program on every combination of its inputs in one
// JVM; the results are keyed "pkg.Class:a,b".
func jdiffJVM(t *testing.T, javaBin, classes string, ps []*jprog) map[string]jdiffResult {
	t.Helper()
	var in strings.Builder
	for _, p := range ps {
		for _, c := range p.combos() {
			fmt.Fprintf(&in, "%s.%s:%s\n", p.pkg, p.class, c)
		}
	}
	cmd := exec.Command(javaBin, "-ea", "-Xshare:auto", "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-cp", classes, "jdiffdriver.JDiffDriver", classes)
	cmd.Stdin = strings.NewReader(in.String())
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("java: %v\n%s%s", err, out, stderr.Bytes())
	}
	res := map[string]jdiffResult{}
	var cur string
	var r jdiffResult
	flush := func() {
		if cur != "" {
			res[cur] = r
		}
	}
	for _, line := range strings.Split(string(out), "\n") {
		if key, ok := strings.CutPrefix(line, "== "); ok {
			flush()
			cur, r = key, jdiffResult{}
			continue
		}
		if v, ok := strings.CutPrefix(line, "=> "); ok {
			r.result = v
			continue
		}
		if v, ok := strings.CutPrefix(line, "!! "); ok {
			r.exc, r.line, _ = strings.Cut(v, " at line ")
			r.out += "!! " + r.exc + "\n"
			continue
		}
		if line != "" {
			r.out += line + "\n"
		}
	}
	flush()
	return res
}

// jdiffClasses parses the classes of package pkg in the class directory.
func jdiffClasses(t *testing.T, classes, pkg string) []*classfile.Class {
	t.Helper()
	files, _ := filepath.Glob(filepath.Join(classes, pkg, "*.class"))
	var cfs []*classfile.Class
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		cf, err := classfile.Parse(data)
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		cfs = append(cfs, cf)
	}
	return cfs
}

// jdiffExc is the simple name of the Java exception a violation of the
// lowered model stands for ("AssertionError(result)" for main's assert
// of the JVM's result).
func jdiffExc(out *java.Output, kind, msg, pos string) string {
	if kind == "assertion" {
		text := out.Describe(pos, msg)
		if text == "assert failed: result" {
			return "AssertionError(result)"
		}
		if strings.HasPrefix(text, "assert failed") {
			return "AssertionError"
		}
		if cls, ok := strings.CutPrefix(text, "uncaught "); ok {
			cls, _, _ = strings.Cut(cls, ":")
			return cls[strings.LastIndexAny(cls, ".$")+1:]
		}
		return "?" + text
	}
	return javaException(out, kind, msg, pos)
}

// jdiffCheck checks program p against the JVM's results.
func jdiffCheck(t *testing.T, classes, srcDir string, p *jprog, res map[string]jdiffResult) (st jdiffStats) {
	st.programs = 1
	cfs := jdiffClasses(t, classes, p.pkg)
	cfg := java.Config{Main: p.pkg + "." + p.class, SourceDirs: []string{srcDir}}
	out, err := java.Translate(cfs, cfg)
	var ue *java.UnsupportedError
	if errors.As(err, &ue) {
		st.unsupported = 1
		st.reasons = map[string]int{}
		for _, e := range ue.List {
			st.reasons["unsupported: "+regexp.MustCompile(`\d+`).ReplaceAllString(e.Msg, "N")]++
		}
		t.Logf("unsupported: %v", err)
		return st
	}
	if err != nil {
		t.Fatalf("Translate: %v", err)
	}
	excs, throws := map[string]bool{}, 0
	for _, c := range p.combos() {
		key := p.pkg + "." + p.class + ":" + c
		want, ok := res[key]
		if !ok {
			t.Fatalf("no JVM run of %s", key)
		}
		if want.exc != "" {
			excs[want.exc] = true
			throws++
		}
		if want.exc == "" {
			st.reason("java: normal end")
		} else {
			st.reason("java: " + want.exc)
		}
		st.runs++
		got, status, text := jdiffSimulate(t, p.class, out, fixChoices(t, out.BIR, strings.Split(c, ",")))
		if status == 3 {
			st.inconclusive++
			st.reason("simulate: " + regexp.MustCompile(`(?m)^simulation: .*`).FindString(text))
			continue
		}
		if got != want.out {
			st.disagreements++
			t.Errorf("%s: birch simulate and java differ (java: line %s):\nbirch:\n%sjava:\n%s", key, want.line, got, want.out)
		}
	}
	st.checks++
	status, text := checkBIR(t, p.class, out.BIR)
	m := violation.FindStringSubmatch(text)
	switch {
	case status == 3:
		st.inconclusive++
		st.reason("check: " + firstLine(text))
	case len(excs) == 0 && status != 0:
		st.disagreements++
		t.Errorf("birch check %s: exit %d, want 0 (no input throws on the JVM):\n%s", cfg.Main, status, text)
	case len(excs) > 0 && (status != 1 || m == nil):
		st.disagreements++
		t.Errorf("birch check %s: exit %d, want a violation naming one of %v:\n%s", cfg.Main, status, excs, text)
	case len(excs) > 0 && !excs[jdiffExc(out, m[1], m[2], m[3])]:
		st.disagreements++
		t.Errorf("birch check %s: violation %s, want one of %v:\n%s", cfg.Main, jdiffExc(out, m[1], m[2], m[3]), excs, text)
	}
	if throws == len(p.combos()) {
		return st // no input ends normally: Wrong runs nothing
	}
	cfg.Main = p.pkg + ".Wrong"
	wout, err := java.Translate(cfs, cfg)
	if errors.As(err, &ue) {
		st.reason("unsupported Wrong: " + regexp.MustCompile(`\d+`).ReplaceAllString(ue.List[0].Msg, "N"))
		t.Logf("unsupported: %v", err)
		return st
	}
	if err != nil {
		t.Fatalf("Translate %s: %v", cfg.Main, err)
	}
	st.checks++
	status, text = checkBIR(t, "Wrong", wout.BIR)
	m = violation.FindStringSubmatch(text)
	switch {
	case status == 3:
		st.inconclusive++
		st.reason("check Wrong: " + firstLine(text))
	case status != 1 || m == nil || jdiffExc(wout, m[1], m[2], m[3]) != "AssertionError(result)":
		st.disagreements++
		t.Errorf("birch check %s: exit %d, want the violation of its assert of a wrong result:\n%s", cfg.Main, status, text)
	}
	return st
}

func (s *jdiffStats) reason(r string) {
	if s.reasons == nil {
		s.reasons = map[string]int{}
	}
	s.reasons[regexp.MustCompile(`\d+`).ReplaceAllString(r, "N")]++
}

func firstLine(s string) string {
	l, _, _ := strings.Cut(strings.TrimSpace(s), "\n")
	return l
}

// jdiffSimulate runs the deterministic model with birch simulate and
// renders what it prints as the driver does.
func jdiffSimulate(t *testing.T, name string, out *java.Output, bir []byte) (string, int, string) {
	t.Helper()
	path := filepath.Join(t.TempDir(), name+".bir")
	if err := os.WriteFile(path, bir, 0o644); err != nil {
		t.Fatal(err)
	}
	var stdout, stderr bytes.Buffer
	status := cli.Main([]string{"simulate", "--steps", "1000000", path}, nil, &stdout, &stderr)
	var b strings.Builder
	for _, line := range strings.Split(stdout.String(), "\n") {
		if m := violation.FindStringSubmatch(line); m != nil {
			fmt.Fprintf(&b, "!! %s\n", jdiffExc(out, m[1], m[2], m[3]))
			continue
		}
		if line != "" && !strings.HasPrefix(line, "simulation: ") {
			b.WriteString(line + "\n")
		}
	}
	if status != 0 && status != 1 && status != 3 || stderr.Len() > 0 {
		t.Errorf("birch simulate %s: exit %d\n%s%s", name, status, stdout.String(), stderr.String())
	}
	return b.String(), status, stdout.String() + stderr.String()
}

// TestJDiffRegressions checks the programs TestJDiffLong found wrong,
// minimised (testdata/jdiff, a package each): each fails with its
// exception at the line it marks "fails here", or passes.
func TestJDiffRegressions(t *testing.T) {
	for _, tc := range []struct {
		main, exc string
		line      int
	}{
		{main: "mathconst.MathConst", exc: "ArithmeticException", line: 9},
		{main: "assertfinally.AssertFinally"},
		{main: "assertleaves.AssertLeaves", exc: "AssertionError", line: 16},
		{main: "printdiv.PrintDiv", exc: "ArithmeticException", line: 13},
		{main: "slotreuse.SlotReuse"},
	} {
		t.Run(tc.main, func(t *testing.T) {
			pkg, cls, _ := strings.Cut(tc.main, ".")
			out, err := java.Translate(jdiffClasses(t, progs.Dir(t), pkg), java.Config{Main: tc.main, SourceDirs: []string{"testdata/jdiff"}})
			if err != nil {
				t.Fatal(err)
			}
			status, text := checkBIR(t, cls, out.BIR)
			want := 0
			if tc.exc != "" {
				want = 1
			}
			if status != want {
				t.Fatalf("birch check: exit %d, want %d:\n%s", status, want, text)
			}
			if want == 0 {
				return
			}
			m := violation.FindStringSubmatch(text)
			if m == nil {
				t.Fatalf("no violation in:\n%s", text)
			}
			if pos := fmt.Sprintf("testdata/jdiff/%s.java:%d:1", cls, tc.line); m[3] != pos {
				t.Errorf("violation at %s, want %s:\n%s", m[3], pos, text)
			}
			if got := jdiffExc(out, m[1], m[2], m[3]); got != tc.exc {
				t.Errorf("violation %s, want %s:\n%s", got, tc.exc, text)
			}
		})
	}
}
