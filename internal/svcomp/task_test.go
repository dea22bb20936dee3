package svcomp

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	cfront "birch/internal/frontend/c"
)

func TestYAMLSubset(t *testing.T) {
	src := `# comment
a: 'it''s'   # trailing comment
b: "x#y \"q\""
c:
  d: plain text
  e: [1, 'two, three', "4"]
f:
- g
- h: 1
  i: 2
-
  - nested
j: {}
k:
`
	got, err := yamlParse([]byte(src))
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]any{
		"a": "it's",
		"b": `x#y "q"`,
		"c": map[string]any{"d": "plain text", "e": []any{"1", "two, three", "4"}},
		"f": []any{"g", map[string]any{"h": "1", "i": "2"}, []any{"nested"}},
		"j": map[string]any{},
		"k": "",
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got  %#v\nwant %#v", got, want)
	}
}

func TestYAMLErrors(t *testing.T) {
	for src, want := range map[string]string{
		"a: 1\n  b: 2\n":          "line 2: unexpected indentation",
		"a: 1\na: 2\n":            `line 2: key "a" given twice`,
		"a: |\n  text\n":          "line 1: block scalars",
		"a: {b: 1}\n":             "line 1: flow mappings",
		"a: 'open\n":              "line 1: unterminated",
		"a:\n\t- b\n":             "line 2: a tab in the indentation",
		"just text\n":             `line 1: expected key: value, found "just text"`,
		"a: &anchor 1\n":          "line 1: anchors",
		"l:\n  - a\n    - b\n":    "line 3: unexpected indentation",
		"a: [1, 2\n":              "line 1: a flow sequence must end on its line",
		"a: \"bad \\q escape\"\n": `line 1: unsupported escape \q`,
	} {
		_, err := yamlParse([]byte(src))
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: got %v, want %q", src, err, want)
		}
	}
}

func TestReadTask(t *testing.T) {
	task, err := ReadTask(filepath.Join("testdata", "tasks", "list.yml"), os.ReadFile)
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{filepath.Join("testdata", "tasks", "sub", "prog.i")}; !reflect.DeepEqual(task.InputFiles, want) {
		t.Errorf("input files %v, want %v", task.InputFiles, want)
	}
	if task.DataModel != cfront.LP64 || !task.DataModelGiven || task.Language != "C" || task.FormatVersion != "2.0" {
		t.Errorf("options: %v %q %q", task.DataModel, task.Language, task.FormatVersion)
	}
	if len(task.Properties) != 2 {
		t.Fatalf("%d properties", len(task.Properties))
	}
	mem, call := task.Properties[0], task.Properties[1]
	if mem.Kind != Unsupported || !strings.Contains(mem.Why, "memsafety") || mem.Expected != "true" {
		t.Errorf("memsafety: %+v", mem)
	}
	if call.Kind != UnreachCall || call.Function != "my_error" || call.Expected != "false" || call.ExpectedSub != "ignored" {
		t.Errorf("my-error: %+v", call)
	}
	// the default property is the first birch checks
	p, err := task.Property("")
	if err != nil || p.Name != "my-error" {
		t.Errorf("default property: %v, %v", p, err)
	}
	if p, err := task.Property("memsafety"); err != nil || p.Kind != Unsupported {
		t.Errorf("named property: %v, %v", p, err)
	}
	if _, err := task.Property("termination"); err == nil || !strings.Contains(err.Error(), "no property termination (the task has memsafety, my-error)") {
		t.Errorf("unknown property: %v", err)
	}
}

func TestReadTaskMissingPropertyFiles(t *testing.T) {
	task, err := ReadTask(filepath.Join("testdata", "tasks", "missing-prp.yml"), os.ReadFile)
	if err != nil {
		t.Fatal(err)
	}
	if task.DataModel != cfront.ILP32 || task.DataModelGiven {
		t.Errorf("default data model %v (given: %v)", task.DataModel, task.DataModelGiven)
	}
	got := []string{}
	for _, p := range task.Properties {
		got = append(got, p.Title()+"/"+p.Expected)
	}
	if want := []string{"unreach-call (reach_error)/true", "no-overflow/", "termination/false"}; !reflect.DeepEqual(got, want) {
		t.Errorf("properties %v, want %v", got, want)
	}
	if p := task.Properties[2]; p.Kind != Unsupported || !strings.Contains(p.Why, "knows only") {
		t.Errorf("termination: %+v", p)
	}
	if task.Properties[1].Kind != NoOverflow {
		t.Errorf("no-overflow: %+v", task.Properties[1])
	}
}

func TestReadTaskErrors(t *testing.T) {
	for file, want := range map[string]string{
		"bad-model.yml":  `bad-model.yml: options: data_model: unknown data model "LP32"`,
		"bad-yaml.yml":   "bad-yaml.yml:4: block scalars",
		"no-version.yml": "no-version.yml: no format_version",
		"absent.yml":     "no such file",
	} {
		_, err := ReadTask(filepath.Join("testdata", "tasks", file), os.ReadFile)
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: got %v, want %q", file, err, want)
		}
	}
}

// TestReadRealTasks reads every task file of CPAchecker's test programs
// when they are on this machine (outside the repository): each is read, or
// is not a task (a witness, a task without properties).
func TestReadRealTasks(t *testing.T) {
	root := "/work/suites/cpachecker/test/programs"
	if _, err := os.Stat(root); err != nil {
		t.Skip("no CPAchecker test programs here")
	}
	n := 0
	err := filepath.Walk(root, func(path string, info os.FileInfo, err error) error {
		if err != nil || filepath.Ext(path) != ".yml" {
			return err
		}
		if _, err := ReadTask(path, os.ReadFile); err != nil {
			// (LP32 is no data model of SV-COMP's)
			if msg := err.Error(); !strings.Contains(msg, "no properties") && !strings.Contains(msg, "a task file is a mapping") && !strings.Contains(msg, `"LP32"`) {
				t.Errorf("%v", err)
			}
			return nil
		}
		n++
		return nil
	})
	if err != nil || n < 500 {
		t.Errorf("%d tasks read, %v", n, err)
	}
}
