package cli

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// TestScripts runs the CLI scripts in testdata/script. Each script is a
// txtar-like archive: commands first, then files ("-- name --" lines start a
// file). Commands, one per line ('#' starts a comment):
//
//	birch ARGS…        run birch in-process in a scratch directory holding the files
//	stdin FILE         use FILE as standard input of the next birch command
//	status N           the last birch exited with status N
//	[!] stdout REGEXP  the last stdout matches (or, with !, does not match) REGEXP
//	[!] stderr REGEXP  the same for stderr
//	cmp stdout FILE    the last stdout equals FILE exactly (also: cmp FILE1 FILE2)
func TestScripts(t *testing.T) {
	scripts, err := filepath.Glob(filepath.Join("testdata", "script", "*.txt"))
	if err != nil || len(scripts) == 0 {
		t.Fatalf("no scripts: %v", err)
	}
	for _, path := range scripts {
		t.Run(strings.TrimSuffix(filepath.Base(path), ".txt"), func(t *testing.T) { runScript(t, path) })
	}
}

func runScript(t *testing.T, path string) {
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	script, files := splitArchive(string(data))
	dir := t.TempDir()
	for name, content := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	// Example models may be referenced as $EXAMPLES/name.bir.
	examples, _ := filepath.Abs(filepath.Join("..", "..", "examples"))
	t.Chdir(dir)
	var stdout, stderr bytes.Buffer
	var stdin []byte
	status := -1
	for i, line := range strings.Split(script, "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		where := filepath.Base(path) + ":" + strconv.Itoa(i+1)
		neg := false
		if strings.HasPrefix(line, "! ") {
			neg = true
			line = strings.TrimSpace(line[2:])
		}
		fields := strings.Fields(line)
		for j, f := range fields {
			fields[j] = strings.ReplaceAll(f, "$EXAMPLES", examples)
		}
		switch fields[0] {
		case "birch":
			stdout.Reset()
			stderr.Reset()
			status = Main(fields[1:], bytes.NewReader(stdin), &stdout, &stderr)
			stdin = nil
		case "stdin":
			b, err := os.ReadFile(fields[1])
			if err != nil {
				t.Fatalf("%s: %v", where, err)
			}
			stdin = b
		case "status":
			want, _ := strconv.Atoi(fields[1])
			if status != want {
				t.Errorf("%s: exit status %d, want %d\nstdout:\n%s\nstderr:\n%s", where, status, want, stdout.String(), stderr.String())
			}
		case "stdout", "stderr":
			text := stdout.String()
			if fields[0] == "stderr" {
				text = stderr.String()
			}
			pattern := strings.TrimSpace(strings.TrimPrefix(line, fields[0]))
			if uq, err := strconv.Unquote(pattern); err == nil {
				pattern = uq
			} else if len(pattern) >= 2 && pattern[0] == '\'' && pattern[len(pattern)-1] == '\'' {
				pattern = pattern[1 : len(pattern)-1]
			}
			rx, err := regexp.Compile("(?m)" + pattern)
			if err != nil {
				t.Fatalf("%s: %v", where, err)
			}
			if rx.MatchString(text) == neg {
				t.Errorf("%s: %s %s %q; it was:\n%s", where, fields[0], map[bool]string{false: "does not match", true: "matches"}[neg], pattern, text)
			}
		case "cmp":
			got := func(name string) string {
				switch name {
				case "stdout":
					return stdout.String()
				case "stderr":
					return stderr.String()
				}
				b, err := os.ReadFile(name)
				if err != nil {
					t.Fatalf("%s: %v", where, err)
				}
				return string(b)
			}
			a, b := got(fields[1]), got(fields[2])
			if a != b {
				t.Errorf("%s: %s and %s differ:\n--- %s\n%s\n--- %s\n%s", where, fields[1], fields[2], fields[1], a, fields[2], b)
			}
		default:
			t.Fatalf("%s: unknown command %q", where, fields[0])
		}
	}
}

// splitArchive separates the script from its "-- name --" files.
func splitArchive(s string) (script string, files map[string]string) {
	files = map[string]string{}
	marker := regexp.MustCompile(`(?m)^-- (\S+) --$\n?`)
	locs := marker.FindAllStringSubmatchIndex(s, -1)
	if len(locs) == 0 {
		return s, files
	}
	script = s[:locs[0][0]]
	for i, l := range locs {
		end := len(s)
		if i+1 < len(locs) {
			end = locs[i+1][0]
		}
		files[s[l[2]:l[3]]] = s[l[1]:end]
	}
	return script, files
}
