package cli

import (
	"os"
	"strconv"
	"strings"
	"testing"

	"birch/internal/bir/format"
	"birch/internal/bir/parser"
	"birch/internal/bir/types"
	"birch/internal/source"
)

// docPath is the language reference whose examples are checked.
const docPath = "../../docs/bir.md"

// docBlock is one fenced code block of a Markdown file.
type docBlock struct {
	info string // the fence's info string: "bir", "bir-error", …
	line int    // line of the opening fence, counted from 1
	text string // the contents, without the fences
}

// docBlocks returns the fenced code blocks of a Markdown text. A fence may be
// indented (inside a list item); that indentation is removed from the
// block's lines.
func docBlocks(t *testing.T, md string) []docBlock {
	t.Helper()
	var blocks []docBlock
	var cur *docBlock
	var indent string
	var body []string
	for i, line := range strings.Split(md, "\n") {
		trimmed := strings.TrimLeft(line, " ")
		if cur == nil {
			if strings.HasPrefix(trimmed, "```") {
				indent = line[:len(line)-len(trimmed)]
				cur = &docBlock{info: strings.TrimSpace(strings.TrimPrefix(trimmed, "```")), line: i + 1}
				body = nil
			}
			continue
		}
		if trimmed == "```" {
			cur.text = strings.Join(body, "\n") + "\n"
			blocks = append(blocks, *cur)
			cur = nil
			continue
		}
		body = append(body, strings.TrimPrefix(line, indent))
	}
	if cur != nil {
		t.Fatalf("%s:%d: code block never closed", docPath, cur.line)
	}
	return blocks
}

// checkDocModel parses and type-checks src as loadModel does and returns the
// diagnostics, or nil when the model is well formed.
func checkDocModel(name, src string) error {
	fset := source.NewFileSet()
	f, err := parser.ParseFile(fset, name, []byte(src), parser.ParseComments)
	if err != nil {
		return err
	}
	_, err = types.Check(fset, f, nil)
	return err
}

// readDocBlocks returns the blocks of docs/bir.md, rejecting unknown bir-…
// info strings (a misspelt fence would silently escape the checks).
func readDocBlocks(t *testing.T) []docBlock {
	t.Helper()
	md, err := os.ReadFile(docPath)
	if err != nil {
		t.Fatal(err)
	}
	blocks := docBlocks(t, string(md))
	for _, b := range blocks {
		switch b.info {
		case "bir", "bir-error", "bir-fragment":
		default:
			if strings.HasPrefix(strings.ToLower(b.info), "bir") {
				t.Errorf("%s:%d: unknown code block kind %q (want bir, bir-error or bir-fragment)", docPath, b.line, b.info)
			}
		}
	}
	return blocks
}

// TestDocExamples checks that every ```bir block of the language reference
// is a well-formed model and that every ```bir-error block is not (with the
// message its first line quotes after "// rejected: ", if it has one).
func TestDocExamples(t *testing.T) {
	good := 0
	for _, b := range readDocBlocks(t) {
		name := "bir.md-block-at-line-" + strconv.Itoa(b.line) + ".bir"
		switch b.info {
		case "bir":
			good++
			if err := checkDocModel(name, b.text); err != nil {
				t.Errorf("%s:%d: the example is not well formed:\n%v", docPath, b.line, err)
			}
		case "bir-error":
			err := checkDocModel(name, b.text)
			if err == nil {
				t.Errorf("%s:%d: the example marked bir-error checks cleanly", docPath, b.line)
				break
			}
			// A first line "// rejected: MESSAGE" names the error expected.
			first, _, _ := strings.Cut(b.text, "\n")
			if want, ok := strings.CutPrefix(first, "// rejected: "); ok && !strings.Contains(err.Error(), want) {
				t.Errorf("%s:%d: the example is rejected with\n%v\nnot with %q", docPath, b.line, err, want)
			}
		}
	}
	if good < 5 {
		t.Errorf("%s has %d ```bir blocks, want at least 5", docPath, good)
	}
}

// TestDocExamplesCanonical checks that the complete models of the language
// reference are printed in the layout birch fmt produces (a bir-error block
// with a syntax error has none and is left out).
func TestDocExamplesCanonical(t *testing.T) {
	for _, b := range readDocBlocks(t) {
		if b.info != "bir" && b.info != "bir-error" {
			continue
		}
		got, err := format.Source("bir.md", []byte(b.text))
		if err != nil && b.info == "bir-error" {
			continue // a syntax error, on purpose: nothing to lay out
		}
		if err != nil {
			t.Errorf("%s:%d: cannot format the example:\n%v", docPath, b.line, err)
			continue
		}
		if string(got) != b.text {
			t.Errorf("%s:%d: the example is not in canonical layout; birch fmt prints:\n%s", docPath, b.line, got)
		}
	}
}
