package cli

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"birch/internal/testenv"
)

// javaProgs are the cli package's Java test programs (testdata/java),
// compiled once for the test binary; every test that checks a class file
// or a directory uses them. Only the tests of .java inputs run javac
// again (birch check Main.java compiles).
var javaProgs = testenv.JavaBuild{Patterns: []string{"testdata/java/jcli/*.java"}}

func TestMain(m *testing.M) {
	code := m.Run()
	testenv.RemoveJavaBuilds()
	os.Exit(code)
}

// writeJava writes a Java source file into a new directory.
func writeJava(t *testing.T, name, src string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// TestJavaCompileErrors: javac's errors are birch's, file:line:col:
// message, exit status 2.
func TestJavaCompileErrors(t *testing.T) {
	testenv.SkipWithoutJavac(t)
	p := writeJava(t, "Bad.java", "public class Bad {\n    public static void main(String[] args) {\n        int x = y;\n        undefined();\n    }\n}\n")
	status, stdout, stderr := runMain("check", p)
	want := p + ":3:17: cannot find symbol; symbol: variable y; location: class Bad\n" +
		p + ":4:9: cannot find symbol; symbol: method undefined(); location: class Bad\n"
	if status != ExitBadInput || stdout != "" || stderr != want {
		t.Errorf("status %d, stdout %q, stderr\n%s\nwant\n%s", status, stdout, stderr, want)
	}
}

// TestJavaWithoutJavac: a .java program without javac on PATH is bad
// input that says what is missing; its class files are checked without.
func TestJavaWithoutJavac(t *testing.T) {
	p := writeJava(t, "Main.java", "public class Main { public static void main(String[] a) {} }\n")
	t.Setenv("PATH", t.TempDir())
	status, _, stderr := runMain("check", p)
	if status != ExitBadInput || !strings.Contains(stderr, p+": cannot compile the Java program: javac not found (install a JDK, such as Debian's openjdk-17-jdk-headless") {
		t.Errorf("status %d, stderr %q", status, stderr)
	}
}

// TestJavaUnboundedInput: a program that reads an unbounded input
// (Verifier.nondetInt()) is checked by refinement, as a C program is: the
// one failing value of 2^32 is found and confirmed.
func TestJavaUnboundedInput(t *testing.T) {
	dir := javaProgs.Dir(t)
	status, stdout, stderr := runMain("check", filepath.Join(dir, "jcli", "Input.class"))
	if status != ExitViolation || !strings.HasPrefix(stdout, "fail: assertion: assert failed: found it\n  thread main at jcli.Input.main(Input.java:10)\n") ||
		!strings.Contains(stdout, "refinement: 1 round") || !strings.Contains(stdout, " = 123456") {
		t.Errorf("status %d, stderr %s, stdout\n%s", status, stderr, stdout)
	}
}

// TestJavaMainClass: the main class of a directory is --main's, or the
// only class with a main method; a class without one is bad input.
func TestJavaMainClass(t *testing.T) {
	dir := javaProgs.Dir(t)
	for _, c := range []struct {
		args []string
		err  string
	}{
		{[]string{dir}, dir + ": 11 classes have a main method (jcli.Dead, jcli.Fine, jcli.Input, jcli.Many, jcli.Nul, jcli.Pick, jcli.Race, jcli.Real, jcli.Rethrow, jcli.Wide, jcli.Zero): name the main class with --main\n"},
		{[]string{dir, "--main", "jcli.NoMain"}, dir + ": --main jcli.NoMain: the class has no method public static void main(String[])\n"},
		{[]string{"--main", "jcli.Nope", dir}, dir + ": --main jcli.Nope: no such class in " + dir + "\n"},
		{[]string{filepath.Join(dir, "jcli", "NoMain.class")}, filepath.Join(dir, "jcli", "NoMain.class") + ": the class jcli.NoMain has no method public static void main(String[]); name the main class with --main\n"},
		{[]string{"--max-objects", "-1", dir}, "birch check: --max-objects: -1 is not in 0..1048576\n"},
	} {
		status, stdout, stderr := runMain(append([]string{"check"}, c.args...)...)
		if status != ExitBadInput || stdout != "" || stderr != c.err {
			t.Errorf("check %v: status %d, stdout %q, stderr %q; want %q", c.args, status, stdout, stderr, c.err)
		}
	}
}

// pickHead is how the check of jcli.Pick begins, whatever the form of
// the input: the failed assertion in Java terms and its Java frame.
const pickHead = "fail: assertion: assert failed: too big\n  thread main at jcli.Twice.check(Pick.java:24)\n"

// TestJavaInputForms: a program is checked from its source (javac), its
// main class's file or its class path directory with --main, with the
// same verdict; a correct program passes.
func TestJavaInputForms(t *testing.T) {
	dir := javaProgs.Dir(t)
	src := filepath.Join("testdata", "java", "jcli", "Pick.java")
	for _, args := range [][]string{
		{src},
		{filepath.Join(dir, "jcli", "Pick.class")},
		{dir, "--main", "jcli.Pick"},
	} {
		status, stdout, stderr := runMain(append([]string{"check"}, args...)...)
		if status != ExitViolation || !strings.HasPrefix(stdout, pickHead) {
			t.Errorf("check %v: status %d, stdout\n%s\nstderr %s", args, status, stdout, stderr)
		}
		// a .java file's positions name it as given
		if args[0] == src && !strings.Contains(stdout, "  at "+src+":24:1\n") {
			t.Errorf("check %s: the violation's position is not in %s:\n%s", src, src, stdout)
		}
	}
	status, stdout, stderr := runMain("check", filepath.Join(dir, "jcli", "Fine.class"))
	if status != ExitPass || !strings.HasPrefix(stdout, "pass: ") {
		t.Errorf("check Fine.class: status %d, stdout\n%s\nstderr %s", status, stdout, stderr)
	}
	// SV-COMP's violation witnesses are C's: none for a Java program, and
	// it says so
	w := filepath.Join(t.TempDir(), "w.graphml")
	status, _, stderr = runMain("check", "--witness", w, filepath.Join(dir, "jcli", "Pick.class"))
	if _, err := os.Stat(w); status != ExitViolation || err == nil ||
		stderr != "birch check: --witness: no witness written: birch writes violation witnesses of C programs only\n" {
		t.Errorf("--witness: status %d, stderr %q, file %v", status, stderr, err)
	}
}

// TestJavaTrail: the trail of a Java program names its thread, each
// step's Java frame, locals and static fields by their Java names, in the
// text and in the JSON output; the trail file keeps the model's names, and
// birch replay replays it and words it in Java terms.
func TestJavaTrail(t *testing.T) {
	dir := javaProgs.Dir(t)
	class := filepath.Join(dir, "jcli", "Pick.class")
	trail := filepath.Join(t.TempDir(), "pick.trail")
	status, stdout, stderr := runMain("check", "--trail", trail, class)
	for _, want := range []string{
		pickHead,
		". main  jcli.Pick.main(Pick.java:9)  Pick_main.L0 -> ",
		"        main.jcli.Pick.main#1.x = 3\n",
		"        main.jcli.Twice.of#2.v = 3\n",
		"        jcli.Twice.calls = 1\n",
	} {
		if !strings.Contains(stdout, want) {
			t.Errorf("the trail has no %q:\n%s", want, stdout)
		}
	}
	// the last step, the assertion in Twice.check that main calls
	if !regexp.MustCompile(`\n +\d+\. main  jcli\.Twice\.check\(Pick\.java:24\)  Pick_main\.\S+ -> error\n`).MatchString(stdout) {
		t.Errorf("the trail does not end in Twice.check:\n%s", stdout)
	}
	if status != ExitViolation || strings.Contains(stdout, "main_[1]") || strings.Contains(stdout, "Twice_calls =") {
		t.Errorf("status %d (stderr %s); model names in the trail:\n%s", status, stderr, stdout)
	}

	var doc struct {
		Violation struct{ Message, ModelMessage, Thread, Location, Pos string }
		Trail     []struct {
			Thread, From, Frame string
			Changes             map[string]string
		}
	}
	status, stdout, _ = runMain("check", "--json", class)
	if err := json.Unmarshal([]byte(stdout), &doc); err != nil || status != ExitViolation {
		t.Fatalf("status %d, %v:\n%s", status, err, stdout)
	}
	v, n := doc.Violation, len(doc.Trail)
	input := false // the step of the input, Verify.getInt(0, 3) = 3
	for _, s := range doc.Trail {
		input = input || s.Frame == "jcli.Pick.main(Pick.java:9)" && s.Changes["main.jcli.Pick.main#1.x"] == "3"
	}
	if v.Message != "assert failed: too big" || v.Thread != "main" || v.Location != "jcli.Twice.check(Pick.java:24)" || n < 2 || !input ||
		doc.Trail[n-1].Thread != "main" || doc.Trail[n-1].Frame != "jcli.Twice.check(Pick.java:24)" {
		t.Errorf("the JSON violation and trail are not in Java terms: %+v", doc)
	}

	b, err := os.ReadFile(trail)
	if err != nil || !strings.Contains(string(b), `"thread": "main_[1]"`) {
		t.Errorf("the trail file does not keep the model's names (%v):\n%s", err, b)
	}
	status, stdout, stderr = runMain("replay", class, trail)
	if status != ExitViolation || !regexp.MustCompile(`\nstep \d+: main  jcli\.Twice\.check\(Pick\.java:24\)  Pick_main\.`).MatchString(stdout) ||
		!strings.HasSuffix(stdout, "fail: assertion: assert failed: too big\n") {
		t.Errorf("replay: status %d, stderr %s, stdout\n%s", status, stderr, stdout)
	}
}

// TestJavaTranslate: birch translate --to bir prints the model a Java
// program is lowered to, its positions in the Java source.
func TestJavaTranslate(t *testing.T) {
	dir := javaProgs.Dir(t)
	status, stdout, stderr := runMain("translate", "--to", "bir", filepath.Join(dir, "jcli", "Fine.class"))
	if status != ExitPass || !strings.Contains(stdout, "system Fine ()") || !strings.Contains(stdout, "//line jcli/Fine.java:9:1\n") {
		t.Errorf("status %d, stderr %s, stdout\n%s", status, stderr, stdout)
	}
	status, stdout, stderr = runMain("translate", "--to", "promela", dir, "--main", "jcli.Pick")
	if status != ExitPass || !strings.Contains(stdout, "Promela translation of the BIR system Pick") || !strings.Contains(stdout, "proctype") {
		t.Errorf("promela: status %d, stderr %s, stdout\n%s", status, stderr, stdout)
	}
}

// TestJavaSpin: birch spin checks a Java program with SPIN and shows
// SPIN's trail in Java terms (a SPIN run: BIRCH_LONG=1).
func TestJavaSpin(t *testing.T) {
	testenv.SkipUnlessLong(t)
	needSpin(t)
	dir := javaProgs.Dir(t)
	status, stdout, stderr := runMain("spin", filepath.Join(dir, "jcli", "Pick.class"))
	if status != ExitViolation || !strings.HasPrefix(stdout, pickHead) || !strings.Contains(stdout, ". main  jcli.Pick.main(Pick.java:9)  ") {
		t.Errorf("status %d, stderr %s, stdout\n%s", status, stderr, stdout)
	}
}

// TestJavaSimulate: birch simulate words a Java program's run in Java
// terms, its steps (-v) and the violation a run ends in.
func TestJavaSimulate(t *testing.T) {
	class := filepath.Join(javaProgs.Dir(t), "jcli", "Pick.class")
	failed := false
	for seed := 1; seed <= 100 && !failed; seed++ {
		status, stdout, stderr := runMain("simulate", "-v", "--seed", strconv.Itoa(seed), class)
		if !strings.Contains(stdout, "step 1: main  jcli.Twice.<clinit>(Pick.java:15)  ") {
			t.Fatalf("seed %d: the steps are not in Java terms (status %d, stderr %s):\n%s", seed, status, stderr, stdout)
		}
		if status == ExitViolation {
			failed = true
			if !regexp.MustCompile(`\nfail: assertion: assert failed: too big at jcli/Pick\.java:24:1 \(after \d+ steps\)\n$`).MatchString(stdout) {
				t.Errorf("seed %d:\n%s", seed, stdout)
			}
		}
	}
	if !failed {
		t.Error("no run of 100 failed (one input of four fails)")
	}
}

// TestJavaUnsupported: a construct the lowering does not handle makes the
// check inconclusive (exit status 3), naming it with its Java position;
// birch translate says so too.
func TestJavaUnsupported(t *testing.T) {
	class := filepath.Join(javaProgs.Dir(t), "jcli", "Real.class")
	status, stdout, stderr := runMain("check", class)
	if status != ExitInconclusive || !strings.HasPrefix(stdout, "inconclusive: the Java program uses constructs birch does not handle: jcli/Real.java:11:1: ") ||
		!strings.Contains(stdout, "floating-point") {
		t.Errorf("check: status %d, stderr %s, stdout\n%s", status, stderr, stdout)
	}
	status, stdout, stderr = runMain("translate", "--to", "bir", class)
	if status != ExitInconclusive || stdout != "" || !strings.Contains(stderr, "inconclusive: the Java program uses constructs birch does not handle:\njcli/Real.java:11:1: ") {
		t.Errorf("translate: status %d, stdout %q, stderr\n%s", status, stdout, stderr)
	}
}

// TestJavaBounds: an allocation site that creates more objects than
// --max-objects (4 by default), or an array longer than
// --max-array-length (8), cuts the path there, and the check is
// inconclusive, saying so in Java terms; with bounds that suffice, the
// programs pass.
func TestJavaBounds(t *testing.T) {
	dir := javaProgs.Dir(t)
	for _, c := range []struct {
		class  string
		flags  []string
		status int
		want   string
	}{
		{"Many", nil, ExitInconclusive, "bound hit 1 times: jcli/Many.java:13:1: new jcli.Many$Cell: its allocation site (c1) has created its 4 objects, the bound of --max-objects\n"},
		{"Many", []string{"--max-objects", "5"}, ExitInconclusive, "rests on: bounded (a bound of the model cut paths: new jcli.Many$Cell: its allocation site (c1) has created its 5 objects, the bound of --max-objects)\n"},
		{"Many", []string{"--max-objects", "6"}, ExitPass, "pass: no violation: every reachable state was explored\n"},
		{"Wide", nil, ExitInconclusive, "inconclusive: no violation within the bounds; paths were cut where a bound was hit: an array longer than 8 elements, the bound of --max-array-length\n"},
		{"Wide", []string{"--max-array-length", "9"}, ExitInconclusive, "bound hit 1 times: jcli/Wide.java:10:1: an array longer than 9 elements, the bound of --max-array-length\n"},
		{"Wide", []string{"--max-array-length", "10"}, ExitPass, "pass: no violation: every reachable state was explored\n"},
		// a model beyond BIR's 2^20 slots a state is birch's limit, not
		// bad input (it was exit 2 at a position in the generated text)
		{"Wide", []string{"--max-array-length", "1000000"}, ExitInconclusive, "Wide.class:1:1: the model lowered from the program is beyond what BIR allows: with collection "},
	} {
		class := filepath.Join(dir, "jcli", c.class+".class")
		status, stdout, stderr := runMain(append(append([]string{"check"}, c.flags...), class)...)
		if status != c.status || !strings.Contains(stdout, c.want) {
			t.Errorf("check %v: status %d, want %d and %q; stderr %s, stdout\n%s", c.flags, status, c.status, c.want, stderr, stdout)
		}
	}
}

// TestJavaThreads: the threads of a Java program's trail are main and
// Thread-0, Thread-1 in the order they start; their steps name the run
// method, the objects and the static field by their Java names.
func TestJavaThreads(t *testing.T) {
	class := filepath.Join(javaProgs.Dir(t), "jcli", "Race.class")
	trail := filepath.Join(t.TempDir(), "race.trail")
	status, stdout, stderr := runMain("check", "--trail", trail, class)
	for _, want := range []string{
		"fail: assertion: assert failed\n  thread main at jcli.Race.main(Race.java:21)\n",
		"        jcli.Race$Bump@c1[0].$tid = Thread-0\n",
		"        jcli.Race$Bump@c2[0].$tid = Thread-1\n",
		". Thread-0  jcli.Race$Bump.run(Race.java:10)  ",
		". Thread-1  jcli.Race$Bump.run(Race.java:10)  ",
		"        jcli.Race.count = 1\n",
	} {
		if !strings.Contains(stdout, want) {
			t.Errorf("the trail lacks %q", want)
		}
	}
	if status != ExitViolation || strings.Contains(stdout, "JThread[") || strings.Contains(stdout, "main_[") || strings.Contains(stdout, "        Race_count = ") {
		t.Errorf("status %d, stderr %s, stdout\n%s", status, stderr, stdout)
	}
	// the trail file names the model's threads, which the replay checks
	// its steps against, and the replay tells them as Java's
	status, stdout, stderr = runMain("replay", class, trail)
	if status != ExitViolation || !strings.Contains(stdout, ": Thread-1  jcli.Race$Bump.run(Race.java:10)  ") || strings.Contains(stdout, "JThread[") {
		t.Errorf("replay: status %d, stderr %s, stdout\n%s", status, stderr, stdout)
	}
}

// TestJavaDeadlock: the threads of a Java program's deadlock are shown at
// the Java frames where they wait, each wait naming the thread that holds
// the lock, in the text and the JSON output. The lock is the monitor of
// the object the thread locks (not the model's operand-stack temporary
// that holds it, $t0_JObject), also in the replay.
func TestJavaDeadlock(t *testing.T) {
	class := filepath.Join(javaProgs.Dir(t), "jcli", "Dead.class")
	trail := filepath.Join(t.TempDir(), "dead.trail")
	status, stdout, stderr := runMain("check", "--trail", trail, class)
	for _, want := range []string{
		"fail: deadlock: no thread can move\n",
		"threads at the deadlock:\n  main @ m2: terminated\n" +
			"  Thread-0 @ jcli.Dead$First.run(Dead.java:12):\n      jcli/Dead.java:12:1: the monitor of java.lang.Object@c4[0] is held by Thread-1\n" +
			"  Thread-1 @ jcli.Dead$Second.run(Dead.java:21):\n      jcli/Dead.java:21:1: the monitor of java.lang.Object@c3[0] is held by Thread-0\n",
	} {
		if !strings.Contains(stdout, want) {
			t.Errorf("the report lacks %q", want)
		}
	}
	_, replay, _ := runMain("replay", class, trail)
	if !strings.Contains(replay, "Dead.java:21:1: the monitor of java.lang.Object@c3[0] is held by Thread-0\n") {
		t.Errorf("replay:\n%s", replay)
	}
	if status != ExitViolation {
		t.Errorf("status %d, stderr %s, stdout\n%s", status, stderr, stdout)
	}
	var doc struct {
		Violation struct {
			Threads []struct {
				Thread, Location string
				Waits            []string
			}
		}
	}
	_, stdout, _ = runMain("check", "--json", class)
	if err := json.Unmarshal([]byte(stdout), &doc); err != nil || fmt.Sprint(doc.Violation.Threads) != "[{main m2 []} {Thread-0 jcli.Dead$First.run(Dead.java:12) [jcli/Dead.java:12:1: the monitor of java.lang.Object@c4[0] is held by Thread-1]} {Thread-1 jcli.Dead$Second.run(Dead.java:21) [jcli/Dead.java:21:1: the monitor of java.lang.Object@c3[0] is held by Thread-0]}]" {
		t.Errorf("JSON threads %v (%v)", doc.Violation.Threads, err)
	}
}

// TestJavaExceptions: an uncaught exception is a violation named by its
// class and shown where it is thrown: a null dereference in the method
// where it happens; an exception caught and thrown on, where it is found
// uncaught and where it was created (as Java's stack trace says), in the
// text and the JSON output.
func TestJavaExceptions(t *testing.T) {
	dir := javaProgs.Dir(t)
	for _, c := range []struct{ class, head string }{
		{"Nul", "fail: null-dereference: uncaught java.lang.NullPointerException\n  thread main at jcli.Nul.put(Nul.java:20)\n  at jcli/Nul.java:20:1\n"},
		{"Rethrow", "fail: assertion: uncaught java.lang.IllegalStateException (created at jcli.Rethrow.parse(Rethrow.java:11))\n" +
			"  thread main at jcli.Rethrow.safe(Rethrow.java:21)\n  at jcli/Rethrow.java:21:1\n"},
	} {
		status, stdout, stderr := runMain("check", filepath.Join(dir, "jcli", c.class+".class"))
		if status != ExitViolation || !strings.HasPrefix(stdout, c.head) {
			t.Errorf("%s: status %d, stderr %s, stdout\n%s\nwant the head\n%s", c.class, status, stderr, stdout, c.head)
		}
	}
	var doc struct {
		Reason    string
		Violation struct {
			Message, Location string
			ModelMessage      string `json:"model_message"`
		}
	}
	_, stdout, _ := runMain("check", "--json", filepath.Join(dir, "jcli", "Rethrow.class"))
	want := "uncaught java.lang.IllegalStateException (created at jcli.Rethrow.parse(Rethrow.java:11))"
	if err := json.Unmarshal([]byte(stdout), &doc); err != nil || doc.Violation.Message != want || doc.Reason != "assertion: "+want ||
		doc.Violation.Location != "jcli.Rethrow.safe(Rethrow.java:21)" || doc.Violation.ModelMessage == "" {
		t.Errorf("JSON %+v (%v)", doc, err)
	}
}

// TestJavaChoiceShown: the step of an input shows the value chosen also
// when it is the value the variable had (0 into a fresh local, which is
// no change); the replay prints every state, the value with it.
func TestJavaChoiceShown(t *testing.T) {
	class := filepath.Join(javaProgs.Dir(t), "jcli", "Zero.class")
	trail := filepath.Join(t.TempDir(), "zero.trail")
	status, stdout, stderr := runMain("check", "--trail", trail, class)
	shown := regexp.MustCompile(`x := externChoose\(0 \.\. 2\); \} goto \S+\]\n +main\.jcli\.Zero\.main#1\.x = 0\n`)
	if status != ExitViolation || !strings.HasPrefix(stdout, "fail: division-by-zero: uncaught java.lang.ArithmeticException: / by zero\n") || !shown.MatchString(stdout) {
		t.Errorf("check: status %d, stderr %s, stdout\n%s", status, stderr, stdout)
	}
	status, stdout, stderr = runMain("replay", class, trail)
	if status != ExitViolation || !regexp.MustCompile(`x := externChoose\(0 \.\. 2\); \} goto \S+\]\n  main @ \S+\n  main\.jcli\.Zero\.main#1\.x = 0\n`).MatchString(stdout) {
		t.Errorf("replay: status %d, stderr %s, stdout\n%s", status, stderr, stdout)
	}
}

// TestJavaFrameOfSharedLine: where several methods have code on one line
// (one-line classes), a step and the violation are in the method whose
// function the thread is in, not the first with code on the line
// (<clinit>).
func TestJavaFrameOfSharedLine(t *testing.T) {
	p := filepath.Join(jframeProgs.Dir(t), "TwoM.class") // testdata/java/jframe/TwoM.java
	status, stdout, stderr := runMain("check", p)
	if status != ExitViolation || !strings.HasPrefix(stdout, "fail: assertion: assert failed: bumped\n  thread main at Other.main(TwoM.java:2)\n") ||
		!regexp.MustCompile(`\. main  Other\.bump\(TwoM\.java:2\)  Other_bump\.`).MatchString(stdout) ||
		!regexp.MustCompile(`\. main  Other\.main\(TwoM\.java:2\)  Other_main\.\S+ -> error\n`).MatchString(stdout) ||
		!regexp.MustCompile(`\. main  Other\.<clinit>\(TwoM\.java:2\)  Other_clinit\.`).MatchString(stdout) {
		t.Errorf("status %d, stderr %s, stdout\n%s", status, stderr, stdout)
	}
	// where an exception rethrown was created: the method of its new
	p = filepath.Join(jframeProgs.Dir(t), "OneEx.class") // testdata/java/jframe/OneEx.java
	status, stdout, stderr = runMain("check", p)
	if status != ExitViolation || !strings.HasPrefix(stdout, "fail: assertion: uncaught java.lang.IllegalStateException (created at Thrower.go(OneEx.java:2))\n  thread main at OneEx.main(OneEx.java:1)\n") {
		t.Errorf("status %d, stderr %s, stdout\n%s", status, stderr, stdout)
	}
}

// TestJavaResetsLeftOut: the model's resets of dead locals (x once
// `count += x` has read it, a parameter the method never reads) are no
// changes of a Java trail: `x = 0` read as an assignment the program
// never makes; what the program assigns stays.
func TestJavaResetsLeftOut(t *testing.T) {
	p := filepath.Join(jframeProgs.Dir(t), "Reset.class") // testdata/java/jframe/Reset.java
	status, stdout, stderr := runMain("check", p)
	if status != ExitViolation || strings.Contains(stdout, "main.Reset.main#1.x = 0\n") || strings.Contains(stdout, "main.Reset.add#2.unused = 0\n") ||
		!strings.Contains(stdout, "main.Reset.main#1.x = 3\n") || !strings.Contains(stdout, "main.Reset.add#2.a = 2\n") || !strings.Contains(stdout, "Reset.count = 5\n") {
		t.Errorf("status %d, stderr %s, stdout\n%s", status, stderr, stdout)
	}
}
