package verify

import (
	"os"
	"path/filepath"
	"testing"

	"birch/internal/model"
)

// examples is the directory of birch's example models.
const examples = "../../examples"

// load loads a model of testdata/ or examples/ (a path relative to this
// package).
func load(t *testing.T, path string) *Input {
	t.Helper()
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	in, err := Load(filepath.Base(path), src)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return in
}

// run runs task on the model at path and fails the test on an error.
func run(t *testing.T, path string, task Task) *Result {
	t.Helper()
	task.Input = load(t, path)
	res, err := Run(&task)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return res
}

// compile compiles in as the pipeline does.
func compile(t *testing.T, in *Input, mo model.Options) *model.Model {
	t.Helper()
	m, err := model.New(in.Prog, mo)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// titles lists the titles of ps.
func titles(ps []*Property) []string {
	var out []string
	for _, p := range ps {
		out = append(out, p.Title)
	}
	return out
}

// verdicts maps each property title of c to its verdict.
func verdicts(c *Check) map[string]Verdict {
	out := map[string]Verdict{}
	for _, p := range c.Properties {
		v, _ := c.PropertyVerdict(p)
		out[p.Title] = v
	}
	return out
}
