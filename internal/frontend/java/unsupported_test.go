package java_test

import (
	"errors"
	"strings"
	"testing"

	java "birch/internal/frontend/java"
)

// TestUnsupported: each construct the lowering does not handle is an
// *UnsupportedError naming it at its Java position (testdata/
// Unsupported.java, one program per class).
func TestUnsupported(t *testing.T) {
	for _, tc := range []struct{ main, pos, msg string }{
		{"U1", "testdata/Unsupported.java:6:1", "floating-point"},
		{"U2", "testdata/Unsupported.java:12:1", "floating-point type double"},
		{"U3", "testdata/Unsupported.java:23:1", "the call of java.lang.System.currentTimeMillis()"},
		{"U4", "testdata/Unsupported.java:29:1", "invokedynamic"},
		// U5 reads main's args, now an empty String[] (heap.go's mainArgs)
		{"U6", "testdata/Unsupported.java:41:1", "a string used as a value"},
		{"U7", "testdata/Unsupported.java:49:1", "java.lang.Integer.numberOfLeadingZeros(int)"},
		// an array in a local of type Object (a direct store of newarray's
		// result into the local was an ill-typed model)
		{"U9", "testdata/Unsupported.java:71:1", "an array held in a reference of type java.lang.Object"},
	} {
		t.Run(tc.main, func(t *testing.T) {
			_, err := translate(t, tc.main)
			var ue *java.UnsupportedError
			if !errors.As(err, &ue) {
				t.Fatalf("Translate: %v, want an *UnsupportedError", err)
			}
			for _, e := range ue.List {
				if e.Pos.String() == tc.pos && strings.Contains(e.Msg, tc.msg) {
					return
				}
			}
			t.Errorf("no error at %s containing %q: %v", tc.pos, tc.msg, err)
		})
	}
}
