package svcomp

import (
	"io/fs"
	"testing"
)

func TestSourceLines(t *testing.T) {
	files := map[string]string{
		"prog.c": "int main() {\n  reach_error();\n}\n",
		"prog.i": "# 1 \"prog.i\"\n# 1 \"<built-in>\"\n# 1 \"orig.c\"\nint x;\n# 7 \"orig.c\"\n  if (x) reach_error();\n#line 20 \"lib.h\"\nERROR: ;\n#line 30\n  goto ERROR;\n#line 20\n  x = 1;\n",
	}
	read := func(name string) ([]byte, error) {
		if s, ok := files[name]; ok {
			return []byte(s), nil
		}
		return nil, fs.ErrNotExist
	}
	lines := SourceLines([]string{"prog.i"}, read)
	for _, tc := range []struct {
		file string
		line int
		want string
	}{
		{"prog.c", 2, "  reach_error();"},
		{"prog.c", 9, ""},
		{"orig.c", 1, "int x;"},
		{"orig.c", 7, "  if (x) reach_error();"},
		{"lib.h", 20, "ERROR: ;\n  x = 1;"},
		{"lib.h", 30, "  goto ERROR;"},
		{"lib.h", 21, ""},
		{"orig.c", 2, ""},
		{"gone.c", 1, ""},
	} {
		if got := lines(tc.file, tc.line); got != tc.want {
			t.Errorf("%s:%d: %q, want %q", tc.file, tc.line, got, tc.want)
		}
	}
}
