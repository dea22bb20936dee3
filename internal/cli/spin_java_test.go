package cli

import (
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"birch/internal/testenv"
)

// jpromelaProgs are the Java programs of the Promela translation's tests
// (testdata/java/jpromela), compiled once for the test binary.
var jpromelaProgs = testenv.JavaBuild{Patterns: []string{"testdata/java/jpromela/*.java"}}

// TestJavaTranslatePromelaWrap: birch translate --to promela takes a Java
// program (issue 23, point 4): its int, short, byte and char arithmetic is
// translated with explicit wrapping (docs/promela.md, Fixed-width types),
// where the translation refused every fixed-width type before.
func TestJavaTranslatePromelaWrap(t *testing.T) {
	dir := jpromelaProgs.Dir(t)
	status, stdout, stderr := runMain("translate", "--to", "promela", filepath.Join(dir, "jpromela", "Wrap.class"))
	if status != ExitPass || stderr != "" {
		t.Fatalf("status %d, stderr %s", status, stderr)
	}
	for _, want := range []string{
		"Fixed-width arithmetic wraps: compile pan with gcc -fwrapv",
		"& 65535)",                  // h >>> 16: the logical shift of h's 32 bits
		"& 255) ^ 128) - 128",       // (byte)
		"& 65535) ^ 32768) - 32768", // (short)
	} {
		if !strings.Contains(stdout, want) {
			t.Errorf("the translation lacks %q:\n%s", want, stdout)
		}
	}
}

// TestJavaSpinWrap: birch spin on Java programs agrees with birch check: the
// same states for a passing program of wrapping arithmetic, and the
// violation that only the wrap causes, with its trail in Java terms
// replayed in birch. BIRCH_LONG=1 only (gcc -O2 of pan takes seconds).
func TestJavaSpinWrap(t *testing.T) {
	testenv.SkipUnlessLong(t)
	needSpin(t)
	dir := jpromelaProgs.Dir(t)
	states := regexp.MustCompile(`(?m)^stats: (?:SPIN: )?(\d+) states`)
	wrap := filepath.Join(dir, "jpromela", "Wrap.class")
	_, check, _ := runMain("check", wrap)
	status, spin, stderr := runMain("spin", wrap)
	c, s := states.FindStringSubmatch(check), states.FindStringSubmatch(spin)
	if status != ExitPass || c == nil || s == nil || c[1] != s[1] || !strings.Contains(spin, "-fwrapv") {
		t.Errorf("Wrap: status %d, stderr %s, birch check\n%s\nbirch spin\n%s", status, stderr, check, spin)
	}
	status, spin, stderr = runMain("spin", filepath.Join(dir, "jpromela", "WrapFail.class"))
	if status != ExitViolation || !strings.HasPrefix(spin, "fail: assertion: assert failed: wrapped\n  thread main at jpromela.WrapFail.main(WrapFail.java:12)\n") ||
		!strings.Contains(spin, "the trail is confirmed (found by SPIN; replayed in birch)") {
		t.Errorf("WrapFail: status %d, stderr %s, stdout\n%s", status, stderr, spin)
	}
}
