package java_test

import (
	"testing"

	java "birch/internal/frontend/java"
	"birch/internal/verify"
)

// TestLargeMethod lowers a method of 5,265 bytecode instructions
// (testdata/LargeMethod.java: loops, branches, switches, static fields)
// and checks the model: it loads, and the search runs its one path per
// input to the end.
func TestLargeMethod(t *testing.T) {
	out, err := translate(t, "LargeMethod")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := verify.Load("LargeMethod.bir", out.BIR); err != nil {
		t.Fatalf("the lowered model does not load: %v", err)
	}
	if status, text := checkBIR(t, "LargeMethod", out.BIR); status != 0 {
		t.Fatalf("birch check: exit %d:\n%s", status, text)
	}
}

// BenchmarkLowerLarge measures the lowering of LargeMethod (docs/performance.md).
func BenchmarkLowerLarge(b *testing.B) {
	classes := testClasses(b)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := java.Translate(classes, java.Config{Main: "LargeMethod", SourceDirs: []string{"testdata"}}); err != nil {
			b.Fatal(err)
		}
	}
}
