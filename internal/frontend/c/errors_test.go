package c

import (
	"errors"
	"os/exec"
	"strings"
	"testing"
	"time"

	"birch/internal/source"
)

// TestUnsupported: constructs the lowering does not handle are each an
// error of an *UnsupportedError at their C position.
func TestUnsupported(t *testing.T) {
	tests := []struct {
		name, src string
		dm        DataModel
		want      []string // "line:col: message fragment"
	}{
		{"double", "int main() {\n  double d = 1.5;\n  return 0;\n}\n", ILP32,
			[]string{"2:10: the variable d has the floating-point type double"}},
		{"float param", "float h(float x) { return x; }\nint main() { return (int)h(2); }\n", ILP32,
			[]string{"2:26: floating-point value (type float)"}},
		{"float constant", "int main() { int x = 1; return x < 2.5; }\n", ILP32,
			[]string{"1:32: arithmetic has the floating-point type double"}},
		{"union", "union u { int i; char c; };\nint main() {\n  union u x;\n  return 0;\n}\n", ILP32,
			[]string{"3:11: a union (type union u"}},
		{"pointer cast", "int main() {\n  int x = 1;\n  char *p = (char *)&x;\n  return *p;\n}\n", ILP32,
			[]string{"3:21: a conversion from pointer to int to pointer to char"}},
		{"mutex array", "#include <pthread.h>\npthread_mutex_t ms[2];\nint main() { return pthread_mutex_lock(&ms[1]); }\n", ILP32,
			[]string{"2:17: an array of mutexes"}},
		{"undefined call", "int f(int);\nint main() { return f(1); }\n", ILP32,
			[]string{"2:21: a call of f, which the program does not define"}},
		{"function pointer", "int f(int x) { return x; }\nint main() { int (*p)(int) = f; return p(1); }\n", ILP32,
			[]string{"2:20: the variable p is a function pointer"}},
		{"uint64 constant", "unsigned long u;\nint main() {\n  u = -1;\n  return 0;\n}\n", LP64,
			[]string{"3:3: the unsigned 64-bit value 18446744073709551615"}},
		{"local labels", "int main() {\n  { __label__ l; l: ; }\n  { __label__ l; l: ; }\n  return 0;\n}\n", ILP32,
			[]string{"1:1: the C type checker does not handle"}},
		// a jump past a declaration into its scope: the value there is
		// indeterminate, not the declaration's (x read 0: a wrong pass)
		{"goto into a scope", "int main(int c) {\n  if (c) goto L;\n  {\n    int x = 5;\n  L:\n    return x;\n  }\n}\n", ILP32,
			[]string{"5:3: a jump into the scope of x past its declaration"}},
		{"case into a scope", "int main(int c) {\n  switch (c) {\n    int x;\n    x = 5;\n  case 1:\n    return x;\n  }\n  return 0;\n}\n", ILP32,
			[]string{"5:3: a jump into the scope of x past its declaration"}},
		{"atomic global", "_Atomic int c;\nint main() {\n  c += 1;\n  return c;\n}\n", ILP32,
			[]string{"1:13: the _Atomic variable c"}},
		{"atomic in a condition", "_Atomic int c;\nint main() {\n  if (c != 2 && c != 3)\n    return 1;\n  return 0;\n}\n", ILP32,
			[]string{"1:13: the _Atomic variable c"}},
		{"string initializer read in a condition", "char name[8] = \"rx\";\nint main() {\n  if (name[0] != 'r')\n    return 1;\n  return 0;\n}\n", ILP32,
			[]string{"1:16: a string literal"}},
		{"atomic typedef local", "typedef _Atomic unsigned au;\nint main() {\n  au n = 0;\n  n++;\n  return 0;\n}\n", ILP32,
			[]string{"3:6: the _Atomic variable n"}},
		{"constant too large for any type", "unsigned long long u;\nint main() {\n  u = -18446744073709551618ULL;\n  return 0;\n}\n", ILP32,
			[]string{"3:8: an integer constant too large for its type"}},
		{"constant too large for long long", "long long l;\nint main() {\n  l = 9223372036854775810LL;\n  return 0;\n}\n", LP64,
			[]string{"3:7: an integer constant too large for its type"}},
		{"argv used", "int main(int argc, char **argv) {\n  return argv != 0;\n}\n", ILP32,
			[]string{"1:27: main's parameter argv (the command line) is used"}},
		{"several", "int main() {\n  double d;\n  union { int a; } p;\n  return 0;\n}\n", ILP32,
			[]string{"2:10: the variable d has the floating-point type double", "3:20: a union"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Translate("u.c", []byte(tt.src), Config{DataModel: tt.dm})
			var ue *UnsupportedError
			if !errors.As(err, &ue) {
				t.Fatalf("got %v, want an UnsupportedError", err)
			}
			if len(ue.List) != len(tt.want) {
				t.Errorf("got %d errors, want %d:\n%v", len(ue.List), len(tt.want), ue.List)
			}
			for _, w := range tt.want {
				if !strings.Contains(ue.Error()+"\n"+listText(ue.List), "u.c:"+w) {
					t.Errorf("no error u.c:%s in\n%s", w, listText(ue.List))
				}
			}
		})
	}
}

func listText(l source.ErrorList) string {
	var b strings.Builder
	for _, e := range l {
		b.WriteString(e.Error() + "\n")
	}
	return b.String()
}

// TestBadC: a C syntax or type error, or a missing gcc, is a
// source.ErrorList with the C position.
func TestBadC(t *testing.T) {
	tests := []struct {
		name, file, src, gcc, want string
	}{
		{"syntax", "bad.c", "int main() {\n  int x = ;\n  return 0;\n}\n", "", "bad.c:2:11: "},
		{"undeclared", "bad.c", "int main() {\n  return y;\n}\n", "", "bad.c:2:10: "},
		{"preprocessed syntax", "bad.i", "int main() { return 1 +; }\n", "", "bad.i:1:24: "},
		{"missing include", "bad.c", "#include \"nowhere.h\"\nint main() { return 0; }\n", "", "bad.c:1:10: "},
		{"no gcc", "ok.c", "int main() { return 0; }\n", "/nonexistent/gcc", "ok.c:1:1: cannot preprocess the C program: /nonexistent/gcc not found"},
		{"no main", "nomain.i", "int f() { return 0; }\n", "", "nomain.i:1:1: the C program has no function main"},
		// cc/v4's scanner looped at the end of the text inside a literal
		// (without gcc, which rejects them first)
		{"string at the end", "s.i", "int main() { char *s = \"a\\", "/nonexistent/gcc", "s.i:1:24: string literal not terminated"},
		{"continued string at the end", "s.i", "int main() { char *s = \"a\\\n", "/nonexistent/gcc", "s.i:1:24: string literal not terminated"},
		{"char at the end", "s.i", "int main() { char c = '\\", "/nonexistent/gcc", "s.i:1:23: character constant not terminated"},
		// cc/v4's parser looped at the end of a declarator's pointer
		{"pointer at the end", "p.i", "0()*", "", "p.i:1:1: expected identifier"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Translate(tt.file, []byte(tt.src), Config{GCC: tt.gcc})
			var list source.ErrorList
			if !errors.As(err, &list) {
				t.Fatalf("got %v (%T), want a source.ErrorList", err, err)
			}
			if !strings.HasPrefix(list[0].Error(), tt.want) {
				t.Errorf("got %q, want it to start with %q", list[0].Error(), tt.want)
			}
		})
	}
}

// TestDeepLogical: && and || nested to the right, with effects inside,
// lower in time linear in the nesting (the dry runs that decide whether an
// operand has effects are kept).
func TestDeepLogical(t *testing.T) {
	var b strings.Builder
	b.WriteString("int g;\nint f(void) { return ++g; }\nint main() {\n  int x = 0;\n  if (")
	const depth = 40
	for i := 0; i < depth; i++ {
		b.WriteString("x == 1 && (f() || ")
	}
	b.WriteString("x")
	for i := 0; i < depth; i++ {
		b.WriteString(")")
	}
	b.WriteString(")\n    x = 2;\n  return x;\n}\n")
	done := make(chan error, 1)
	go func() {
		_, err := Translate("deep.c", []byte(b.String()), Config{})
		done <- err
	}()
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("the lowering did not end within 20 s")
	}
}

// TestGCCTimeoutIsALimit: gcc stopped by its timeout is not bad input
// (exit 2) but a limit: an UnsupportedError (inconclusive, exit 3) naming
// the program's file.
func TestGCCTimeoutIsALimit(t *testing.T) {
	if _, err := exec.LookPath("gcc"); err != nil {
		t.Skip("no gcc")
	}
	saved := gccTimeout
	gccTimeout = time.Nanosecond
	defer func() { gccTimeout = saved }()
	_, err := Translate("prog.c", []byte("int main(void) { return 0; }\n"), Config{})
	u, ok := err.(*UnsupportedError)
	if !ok {
		t.Fatalf("Translate: %v (%T), want an UnsupportedError", err, err)
	}
	if len(u.List) != 1 || u.List[0].Pos.Filename != "prog.c" || !strings.Contains(u.List[0].Msg, "did not finish") {
		t.Errorf("error %q, want one at prog.c saying gcc did not finish", u.Error())
	}
}
