package c_test

import (
	"bytes"
	"strings"
	"testing"

	"birch/internal/cli"
)

// TestMemViolations checks what the violations of testdata/verdict's
// programs on memory and threads are: the property (reach_error's
// assertion) where the program reaches it, undefined behaviour (an index
// out of bounds, a null dereference of a freed block) where it does that
// first, which SV-COMP answers unknown.
func TestMemViolations(t *testing.T) {
	if why := engineRunsFixedWidth(t); why != "" {
		t.Skip("the explicit engine does not run BIR's fixed-width types yet: " + why)
	}
	tests := []struct{ file, want string }{
		{"ptr-alias-unsafe.c", "fail: assertion: reach_error() called\n  thread $main[1] at main_."},
		{"race-unsafe.c", "fail: assertion: reach_error() called"},
		{"malloc-fails-unsafe.c", "fail: assertion: reach_error() called"},
		{"memset-overflow-unsafe.c", "fail: index-out-of-bounds: index 4 out of bounds [0, 4)"},
		{"pointer-to-int-unsafe.c", "fail: assertion: assertion violated: 1000000 >= 4611686018427387904 - 2305843009213693952"},
		{"atomic-race-unsafe.c", "fail: assertion: reach_error() called"},
		{"array-oob-unsafe.c", "fail: index-out-of-bounds: index 4 out of bounds [0, 4)"},
		{"use-after-free-unsafe.c", "fail: null-dereference: null dereference: $mem[p / 1000000] is null\n  thread $main[1] at main_.L12\n  at testdata/verdict/use-after-free-unsafe.c:9:3\n"},
		{"double-free-unsafe.c", "fail: null-dereference: null dereference: $mem[p / 1000000] is null\n  thread $main[1] at main_.L12\n  at testdata/verdict/double-free-unsafe.c:8:3\n"},
		{"uninit-pointer-unsafe.c", "fail: assertion: read of the uninitialized pointer p"},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			status := cli.Main([]string{"check", "testdata/verdict/" + tt.file}, nil, &stdout, &stderr)
			if status != 1 || !strings.HasPrefix(stdout.String(), tt.want) {
				t.Errorf("birch check %s: exit %d, want 1 with %q:\n%s%s", tt.file, status, tt.want, stdout.String(), stderr.String())
			}
		})
	}
}
