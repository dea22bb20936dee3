package cli

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestNoCrash runs every command that reads a model or a script on the
// inputs that once ended in a Go stack dump or an out-of-memory crash
// (issue 16): each gets a positioned error and exit status 2 instead.
func TestNoCrash(t *testing.T) {
	dir := t.TempDir()
	model := func(decls, locals, action string) string {
		return "system S ()\n" + decls + "\nx : int;\nmain thread M ()\n" + locals + "\n  loc l0:\n    when true do { " + action + " } goto l1;\n  loc l1:\nend M;\nend S;\n"
	}
	chain := func(first, sep, operand string, n int) string {
		return first + strings.Repeat(sep+operand, n)
	}
	const rec = "R = record { next : Ref; v : int; };\nC : collection [2] of R;\nRef = ref R;\nh : Ref;"
	all := []string{"check", "vet", "translate --to promela", "simulate"}
	withFmt := append([]string{"fmt"}, all...)
	for _, c := range []struct {
		name, src string
		cmds      []string
		want      string // the position and the start of the message
	}{
		{"array 2^31", model("a : array [2147483648] of int;", "", "x := 1;"), all, `:2:5: array \[2147483648\] of int takes more than 1048576 slots`},
		{"array 2^62", model("a : array [4611686018427387904] of int;", "", "x := 1;"), all, `:2:5: array \[4611686018427387904\] of int takes more than`},
		{"rows overflow", model("a : array [4611686018427387904] of array [4] of int;", "", "x := 1;"), all, `:2:5: array \[4611686018427387904\] of array \[4\] of int takes more than`},
		{"collection 2^31", model("V = record { v : int; };\nC : collection [2147483648] of V;", "", "x := 1;"), all, `:3:1: with collection C the globals and collections take more than`},
		{"collection 2^62", model("V = record { v : int; };\nC : collection [4611686018427387904] of V;", "", "x := 1;"), all, `:3:1: with collection C the globals`},
		{"local 2^31", model("", "  a : array [2147483648] of int;", "x := 1;"), all, `:5:7: array \[2147483648\] of int takes more than`},
		{"sum of 10^6", model("", "", "x := "+chain("x", " + ", "x", 1000000)+";"), withFmt, `:7:\d+: expression or type nested too deeply`},
		{"selectors 10^6", model(rec, "", "x := h"+strings.Repeat(".next", 1000000)+".v;"), withFmt, `:10:\d+: expression or type nested too deeply`},
		{"parentheses 10^5", model("", "", "x := "+strings.Repeat("(", 100000)+"x"+strings.Repeat(")", 100000)+";"), withFmt, `:7:\d+: expression or type nested too deeply`},
	} {
		path := filepath.Join(dir, strings.ReplaceAll(c.name, " ", "-")+".bir")
		if err := os.WriteFile(path, []byte(c.src), 0o644); err != nil {
			t.Fatal(err)
		}
		want := regexp.MustCompile("^" + regexp.QuoteMeta(path) + c.want)
		for _, cmd := range c.cmds {
			t.Run(c.name+"/"+cmd, func(t *testing.T) {
				status, _, stderr := runMain(append(strings.Fields(cmd), path)...)
				if status != 2 || !want.MatchString(stderr) {
					t.Errorf("exit %d, stderr %.300q; want exit 2 and %s", status, stderr, want)
				}
			})
		}
	}
	for _, c := range []struct{ name, src, want string }{
		{"nested 5e6", "(assert " + strings.Repeat("(not ", 5000000) + "true" + strings.Repeat(")", 5000001), `:1:50004: lists nested more than 10000 deep`},
		{"push 1e8", "(push 100000000)\n(check-sat)\n", `:1:1: push 100000000: at most 100000 levels may be pushed`},
	} {
		path := filepath.Join(dir, strings.ReplaceAll(c.name, " ", "-")+".smt2")
		if err := os.WriteFile(path, []byte(c.src), 0o644); err != nil {
			t.Fatal(err)
		}
		t.Run(c.name+"/smt", func(t *testing.T) {
			status, _, stderr := runMain("smt", path)
			if want := regexp.MustCompile("^" + regexp.QuoteMeta(path) + c.want); status != 2 || !want.MatchString(stderr) {
				t.Errorf("exit %d, stderr %.300q; want exit 2 and %s", status, stderr, want)
			}
		})
	}
}
