package cli

import (
	"bytes"
	"flag"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
)

var updateDocs = flag.Bool("update", false, "rewrite the sample outputs of README.md and docs/*.md from real runs")

// The sample outputs of the documentation are real runs. A fenced block
// preceded by a marker comment is checked by TestDocOutputs:
//
//	<!-- birch-output -->          the block is a transcript: lines starting
//	                               with "$ " are commands, the lines after one
//	                               are what it prints (stdout and stderr as a
//	                               terminal shows them)
//	<!-- birch-output: ARGS -->    the block is what "birch ARGS" prints
//	<!-- birch-file: NAME -->      the block is the file NAME, which later
//	                               commands of the same document use
//
// Commands: "birch ARGS" (run in-process), "cat FILE" (shows FILE; when the
// document has not created FILE yet, the lines after it create it), and
// "echo $?" (the exit status of the last birch). A "# comment" at the end of
// a command is ignored. A line "…" in the output stands for any number of
// lines. Times, rates and memory sizes are not compared. birch spin runs
// only with BIRCH_LONG=1 (and spin and gcc installed). The commands of a
// document run in order in one scratch directory, where examples/ is the
// repository's; `go test ./internal/cli -run TestDocOutputs -update`
// rewrites the outputs (keeping the lines around each "…").
//
// Every fenced block of the documents with a "$ birch" line must carry a
// marker, so that no sample escapes the test.

// docOutputFiles are the documents whose samples are checked.
func docOutputFiles(t *testing.T) []string {
	files, err := filepath.Glob("../../docs/*.md")
	if err != nil {
		t.Fatal(err)
	}
	return append([]string{"../../README.md"}, files...)
}

// sampleBlock is one marked fenced block.
type sampleBlock struct {
	kind   string // "output", "command" or "file"
	arg    string // ARGS of birch-output: ARGS, NAME of birch-file
	line   int    // line of the opening fence, counted from 1
	indent string // the fence's indentation, removed from the lines
	first  int    // index of the block's first line in the document
	lines  []string
}

var markerRE = regexp.MustCompile(`^\s*<!-- birch-(output|file)(?::\s*(.*?))?\s*-->\s*$`)

// sampleBlocks returns the marked blocks of a document and reports fenced
// blocks with a "$ birch" line that have no marker.
func sampleBlocks(t *testing.T, path string, doc []string) []sampleBlock {
	var blocks []sampleBlock
	pending := -1 // line of a marker waiting for its block
	var kind, arg string
	for i := 0; i < len(doc); i++ {
		if m := markerRE.FindStringSubmatch(doc[i]); m != nil {
			pending, kind, arg = i, m[1], m[2]
			if kind == "output" && arg != "" {
				kind = "command"
			}
			continue
		}
		trimmed := strings.TrimLeft(doc[i], " ")
		if !strings.HasPrefix(trimmed, "```") {
			if pending >= 0 && strings.TrimSpace(doc[i]) != "" {
				t.Errorf("%s:%d: a birch-%s marker must be followed by a fenced block", path, pending+1, kind)
				pending = -1
			}
			continue
		}
		b := sampleBlock{line: i + 1, indent: doc[i][:len(doc[i])-len(trimmed)], first: i + 1}
		j := i + 1
		for ; j < len(doc) && strings.TrimSpace(doc[j]) != "```"; j++ {
			b.lines = append(b.lines, strings.TrimPrefix(doc[j], b.indent))
		}
		if j == len(doc) {
			t.Fatalf("%s:%d: code block never closed", path, i+1)
		}
		i = j
		if pending < 0 {
			for _, l := range b.lines {
				if strings.HasPrefix(l, "$ birch ") {
					t.Errorf("%s:%d: a sample of birch's output without a <!-- birch-output --> marker", path, b.line)
					break
				}
			}
			continue
		}
		b.kind, b.arg = kind, arg
		blocks = append(blocks, b)
		pending = -1
	}
	return blocks
}

// Statistics that change from run to run.
var volatileRE = []*regexp.Regexp{
	regexp.MustCompile(`\b\d+(\.\d+)? s\b`),
	regexp.MustCompile(`\b\d+(\.\d+)? states/s\b`),
	regexp.MustCompile(`\b\d+(\.\d+)? (B|KiB|MiB|GiB)\b`),
	regexp.MustCompile(`\b\d+(\.\d+)? bytes/state\b`),
	regexp.MustCompile(`"(seconds|states_per_second|memory_bytes|bytes_per_state)": [0-9.e+-]+`),
}

// normalize replaces what changes from run to run by #.
func normalize(line string) string {
	for _, re := range volatileRE {
		line = re.ReplaceAllStringFunc(line, func(s string) string {
			if strings.HasPrefix(s, `"`) {
				k, _, _ := strings.Cut(s, ":")
				return k + ": #"
			}
			if strings.HasSuffix(s, "B") && !strings.HasSuffix(s, "bytes/state") {
				return "# memory" // the unit changes with the size
			}
			i := strings.IndexAny(s, " ")
			return "#" + s[i:]
		})
	}
	return line
}

const elision = "…"

// matchLines reports whether got matches want, whose "…" lines stand for any
// number of lines.
func matchLines(want, got []string) bool {
	if len(want) == 0 {
		return len(got) == 0
	}
	if strings.TrimSpace(want[0]) == elision {
		for k := 0; k <= len(got); k++ {
			if matchLines(want[1:], got[k:]) {
				return true
			}
		}
		return false
	}
	return len(got) > 0 && normalize(want[0]) == normalize(got[0]) && matchLines(want[1:], got[1:])
}

// updated returns got laid out as want: the lines of got, with each "…" of
// want standing for the lines of got it stood for before (found by the line
// after it), or ok false when a "…" cannot be placed.
func updated(want, got []string) ([]string, bool) {
	var segs [][]string // the runs of lines between the "…" of want
	var elided []string // each "…" line as written (its indentation)
	cur := []string{}
	for _, l := range want {
		if strings.TrimSpace(l) == elision {
			segs = append(segs, cur)
			elided = append(elided, l)
			cur = []string{}
			continue
		}
		cur = append(cur, l)
	}
	segs = append(segs, cur)
	if len(elided) == 0 {
		return got, true
	}
	last := segs[len(segs)-1]
	if len(segs[0])+len(last) > len(got) {
		return nil, false
	}
	out := append([]string{}, got[:len(segs[0])]...)
	pos := len(segs[0])
	end := len(got) - len(last)
	for i := 1; i < len(segs)-1; i++ {
		seg := segs[i]
		if len(seg) == 0 {
			continue
		}
		k := pos
		for k < end && normalize(got[k]) != normalize(seg[0]) {
			k++
		}
		if k+len(seg) > end {
			return nil, false
		}
		out = append(out, elided[i-1])
		out = append(out, got[k:k+len(seg)]...)
		pos = k + len(seg)
	}
	out = append(out, elided[len(elided)-1])
	return append(out, got[end:]...), true
}

// docRunner runs the commands of one document.
type docRunner struct {
	t      *testing.T
	dir    string
	status int
}

// needs reports why a command cannot run here ("" when it can): birch spin
// needs spin and gcc and, since compiling pan takes seconds, BIRCH_LONG=1;
// --solver=z3 and cvc5 need their programs.
func needs(args []string) string {
	var progs []string
	if len(args) > 0 && args[0] == "spin" {
		if os.Getenv("BIRCH_LONG") == "" {
			return "birch spin compiles pan; set BIRCH_LONG=1 to run it"
		}
		progs = append(progs, "spin", "gcc")
	}
	for _, a := range args {
		if s, ok := strings.CutPrefix(a, "--solver="); ok && s != "embedded" {
			progs = append(progs, s)
		}
	}
	for _, p := range progs {
		if _, err := exec.LookPath(p); err != nil {
			return p + " is not installed"
		}
	}
	return ""
}

// run runs one command and returns its output, or skip with the reason it
// cannot run here.
func (r *docRunner) run(where string, words []string, body []string) (out []string, skip string) {
	switch {
	case len(words) >= 1 && words[0] == "birch":
		if why := needs(words[1:]); why != "" {
			return nil, why
		}
		var buf bytes.Buffer
		r.status = Main(words[1:], strings.NewReader(""), &buf, &buf)
		return splitOutput(buf.String()), ""
	case len(words) == 2 && words[0] == "cat":
		path := filepath.Join(r.dir, words[1])
		data, err := os.ReadFile(path)
		if os.IsNotExist(err) {
			text := strings.Join(body, "\n") + "\n"
			if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
				r.t.Fatal(err)
			}
			return body, ""
		}
		if err != nil {
			r.t.Fatalf("%s: %v", where, err)
		}
		return splitOutput(string(data)), ""
	case len(words) == 2 && words[0] == "echo" && words[1] == "$?":
		return []string{strconv.Itoa(r.status)}, ""
	}
	r.t.Fatalf("%s: unknown command %q (want birch, cat FILE or echo $?)", where, strings.Join(words, " "))
	return nil, ""
}

func splitOutput(s string) []string {
	if s == "" {
		return nil
	}
	return strings.Split(strings.TrimSuffix(s, "\n"), "\n")
}

// TestDocOutputs runs the marked samples of README.md and docs/*.md and
// compares their outputs with what birch prints.
func TestDocOutputs(t *testing.T) {
	examples, err := filepath.Abs("../../examples")
	if err != nil {
		t.Fatal(err)
	}
	cwd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	samples := 0
	for _, path := range docOutputFiles(t) {
		path = filepath.Join(cwd, path)
		name := filepath.Base(path)
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		doc := strings.Split(string(data), "\n")
		blocks := sampleBlocks(t, name, doc)
		if len(blocks) == 0 {
			continue
		}
		r := &docRunner{t: t, dir: t.TempDir()}
		if err := os.Symlink(examples, filepath.Join(r.dir, "examples")); err != nil {
			t.Fatal(err)
		}
		t.Chdir(r.dir)
		changed := false
		// Blocks are rewritten from the last, so that earlier line
		// indices stay valid.
		var edits []func()
		for _, b := range blocks {
			samples++
			newLines, ok := r.block(name, b)
			if !ok {
				continue
			}
			if !*updateDocs {
				continue
			}
			b := b
			changed = true
			edits = append(edits, func() {
				var indented []string
				for _, l := range newLines {
					if l != "" {
						l = b.indent + l
					}
					indented = append(indented, l)
				}
				doc = append(doc[:b.first], append(indented, doc[b.first+len(b.lines):]...)...)
			})
		}
		if changed {
			for i := len(edits) - 1; i >= 0; i-- {
				edits[i]()
			}
			if err := os.WriteFile(path, []byte(strings.Join(doc, "\n")), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	if samples < 10 {
		t.Errorf("found %d marked samples in the documents, want at least 10", samples)
	}
}

// block runs one block. It returns the block's lines as they should be
// and true when they differ from the document's (under -update; without
// it, a difference is an error).
func (r *docRunner) block(doc string, b sampleBlock) ([]string, bool) {
	where := doc + ":" + strconv.Itoa(b.line)
	switch b.kind {
	case "file":
		text := strings.Join(b.lines, "\n") + "\n"
		if err := os.WriteFile(filepath.Join(r.dir, b.arg), []byte(text), 0o644); err != nil {
			r.t.Fatal(err)
		}
		return nil, false
	case "command":
		words := shellWords(b.arg)
		got, skip := r.run(where, append([]string{"birch"}, words...), nil)
		if skip != "" {
			r.t.Logf("%s: not run: %s", where, skip)
			return nil, false
		}
		return r.compare(where, "birch "+b.arg, b.lines, got)
	}
	// A transcript: the commands and their outputs.
	var out []string
	differs := false
	for i := 0; i < len(b.lines); {
		cmd, ok := strings.CutPrefix(b.lines[i], "$ ")
		if !ok {
			r.t.Fatalf("%s: line %d of the transcript should be a command ($ …): %q", where, i+1, b.lines[i])
		}
		j := i + 1
		for j < len(b.lines) && !strings.HasPrefix(b.lines[j], "$ ") {
			j++
		}
		want := b.lines[i+1 : j]
		out = append(out, b.lines[i])
		if k := strings.Index(cmd, " # "); k >= 0 {
			cmd = cmd[:k] // a comment
		}
		words := shellWords(cmd)
		if len(words) == 0 {
			r.t.Fatalf("%s: an empty command", where)
		}
		got, skip := r.run(where, words, want)
		if skip != "" {
			r.t.Logf("%s: %q not run: %s", where, cmd, skip)
			out = append(out, want...)
		} else {
			lines, d := r.compare(where, cmd, want, got)
			if d {
				differs = true
				out = append(out, lines...)
			} else {
				out = append(out, want...)
			}
		}
		i = j
	}
	return out, differs
}

// compare compares one command's output with the document's; it returns
// the lines to write under -update (the real output, with the document's
// "…" kept) and whether they differ from the document's.
func (r *docRunner) compare(where, cmd string, want, got []string) ([]string, bool) {
	matches := matchLines(want, got)
	if !*updateDocs {
		if !matches {
			r.t.Errorf("%s: %s prints\n%s\nnot what the document shows:\n%s\n(go test ./internal/cli -run TestDocOutputs -update rewrites the documents)", where, cmd, strings.Join(got, "\n"), strings.Join(want, "\n"))
		}
		return nil, false
	}
	lines, ok := updated(want, got)
	if !ok {
		if !matches {
			r.t.Errorf("%s: %s: cannot place the … of the document in the new output; edit it by hand:\n%s", where, cmd, strings.Join(got, "\n"))
		}
		return nil, false
	}
	return lines, !slices.Equal(lines, want)
}
