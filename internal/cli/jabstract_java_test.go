package cli

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestJavaAbstractViolationInJavaTerms: the abstract violation of a check
// with abstraction of a Java program is told in Java terms, as a confirmed
// one is: Account's `assert balance >= 0` under --abstract
// Account.balance=signs reads "assert failed (false in every concrete
// state ...)", in the abstract violation line and the abstract trail's
// last step; it read the model's "assertion violated: false".
func TestJavaAbstractViolationInJavaTerms(t *testing.T) {
	account := filepath.Join(javaExamples.Dir(t), "Account.class")
	status, out, errs := runMain("check", account, "--abstract", "Account.balance=signs")
	if status != ExitInconclusive {
		t.Fatalf("status %d, want inconclusive\n%s%s", status, out, errs)
	}
	for _, want := range []string{
		"abstract violation: assertion: assert failed (false in every concrete state the abstract state stands for) at ",
		"        assertion: assert failed (false in every concrete state the abstract state stands for)\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "assertion violated: false") {
		t.Errorf("output has the model's message:\n%s", out)
	}
}

// TestJavaCallDepthBound: a path cut by the frames' bound names the flag
// that raises it and Java's own limit, as the other bounds of a Java
// program do; it read the model's "call depth exceeds 3".
func TestJavaCallDepthBound(t *testing.T) {
	power := filepath.Join(javaExamples.Dir(t), "RecursivePower.class")
	status, out, errs := runMain("check", power, "--max-call-depth", "3")
	want := "paths were cut where a bound was hit: call depth exceeds 3, the bound of --max-call-depth (a JVM throws StackOverflowError at a depth of its own, which birch does not model)\n"
	if status != ExitInconclusive || !strings.Contains(out, want) {
		t.Errorf("status %d, want inconclusive with %q\n%s%s", status, want, out, errs)
	}
}
