package svcomp

import (
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"regexp"
	"strings"

	cfront "birch/internal/frontend/c"
)

// Task is an SV-COMP verification task: a task definition file (.yml,
// format_version 1.0 or 2.0) naming the program's input files, the
// properties with their expected verdicts, and the language and data
// model.
type Task struct {
	File          string // the task file as given
	FormatVersion string
	// InputFiles are the program's files, resolved against the task
	// file's directory.
	InputFiles []string
	Properties []Property
	// DataModel is options.data_model (ILP32 when the task gives none,
	// as in SV-COMP); Language is options.language ("C" when not given).
	DataModel cfront.DataModel
	Language  string
	// DataModelGiven: the task gives options.data_model (a task of
	// format 1.0 has no options: its data model is open).
	DataModelGiven bool
}

// PropertyKind is the kind of an SV-COMP property.
type PropertyKind int

const (
	// UnreachCall: no call of the error function is reachable
	// (unreach-call.prp: CHECK( init(main()), LTL(G ! call(reach_error())) )).
	UnreachCall PropertyKind = iota
	// UnreachLabel: no label of that name is reachable (unreach-label.prp,
	// the ERROR label of older tasks).
	UnreachLabel
	// NoOverflow: no signed integer overflow (no-overflow.prp).
	NoOverflow
	// Unsupported: any other property (memory safety, termination, data
	// races, CPAchecker's automata); birch answers unknown.
	Unsupported
)

// Property is one property of a task.
type Property struct {
	// File is the property file as resolved against the task's directory;
	// Name is its base name without extension (unreach-call).
	File, Name string
	Kind       PropertyKind
	// Function is the error function of UnreachCall (reach_error);
	// Label the label of UnreachLabel (ERROR).
	Function, Label string
	// Spec is the specification's text: the property file's, or the
	// standard text of its kind when the file is not on disk.
	Spec string
	// Expected is the expected_verdict ("true", "false"), "" when the
	// task gives none; ExpectedSub is expected_subproperty.
	Expected, ExpectedSub string
	// Why says why an Unsupported property is not checked.
	Why string
}

// Title names the property in reports: "unreach-call (reach_error)".
func (p *Property) Title() string {
	switch p.Kind {
	case UnreachCall:
		return fmt.Sprintf("unreach-call (%s)", p.Function)
	case UnreachLabel:
		return fmt.Sprintf("unreach-label (%s)", p.Label)
	}
	return p.Name
}

// ReadTask reads the task file name with read (os.ReadFile; the property
// files are read with it too, and a property file that is not there is
// known by its base name). Its errors name the file and the line.
func ReadTask(name string, read func(string) ([]byte, error)) (*Task, error) {
	src, err := read(name)
	if err != nil {
		return nil, err
	}
	doc, err := yamlParse(src)
	if ye, ok := err.(*yamlError); ok {
		return nil, fmt.Errorf("%s:%d: %s", name, ye.Line, ye.Msg)
	}
	bad := func(format string, args ...any) (*Task, error) {
		return nil, fmt.Errorf("%s: "+format, append([]any{name}, args...)...)
	}
	top, ok := doc.(map[string]any)
	if !ok {
		return bad("a task file is a mapping (format_version, input_files, properties, options)")
	}
	t := &Task{File: name, Language: "C"}
	dir := filepath.Dir(name)
	t.FormatVersion, _ = top["format_version"].(string)
	switch {
	case t.FormatVersion == "":
		return bad("no format_version")
	case t.FormatVersion != "1.0" && !strings.HasPrefix(t.FormatVersion, "2."):
		return bad("format_version %q (want 1.0 or 2.x)", t.FormatVersion)
	}
	switch in := top["input_files"].(type) {
	case string:
		if in != "" {
			t.InputFiles = []string{in}
		}
	case []any:
		for _, f := range in {
			s, ok := f.(string)
			if !ok || s == "" {
				return bad("input_files: each entry is a file name")
			}
			t.InputFiles = append(t.InputFiles, s)
		}
	}
	if len(t.InputFiles) == 0 {
		return bad("no input_files")
	}
	for i, f := range t.InputFiles {
		if strings.ContainsAny(f, "*?[") {
			return bad("input_files: %q: file name patterns are not supported", f)
		}
		if !filepath.IsAbs(f) {
			t.InputFiles[i] = filepath.Join(dir, f)
		}
	}
	props, ok := top["properties"].([]any)
	if !ok || len(props) == 0 {
		return bad("no properties (a list of property_file and expected_verdict)")
	}
	for _, pv := range props {
		pm, ok := pv.(map[string]any)
		if !ok {
			return bad("properties: each entry is a mapping with property_file")
		}
		file, _ := pm["property_file"].(string)
		if file == "" {
			return bad("properties: an entry without property_file")
		}
		if !filepath.IsAbs(file) {
			file = filepath.Join(dir, file)
		}
		p := readProperty(file, read)
		p.Expected, _ = pm["expected_verdict"].(string)
		p.ExpectedSub, _ = pm["expected_subproperty"].(string)
		switch p.Expected {
		case "", "true", "false":
		default:
			return bad("expected_verdict %q of %s (want true or false)", p.Expected, p.Name)
		}
		t.Properties = append(t.Properties, p)
	}
	if opts, ok := top["options"].(map[string]any); ok {
		if l, ok := opts["language"].(string); ok && l != "" {
			t.Language = l
		}
		if dm, ok := opts["data_model"].(string); ok && dm != "" {
			m, err := cfront.ParseDataModel(dm)
			if err != nil {
				return bad("options: data_model: %v", err)
			}
			t.DataModel, t.DataModelGiven = m, true
		}
	}
	return t, nil
}

var (
	callSpec     = regexp.MustCompile(`^CHECK\(\s*init\(\s*main\(\s*\)\s*\)\s*,\s*LTL\(\s*G\s*!\s*call\(\s*([A-Za-z_][A-Za-z0-9_]*)\s*\(\s*\)\s*\)\s*\)\s*\)$`)
	labelSpec    = regexp.MustCompile(`^CHECK\(\s*init\(\s*main\(\s*\)\s*\)\s*,\s*LTL\(\s*G\s*!\s*label\(\s*([A-Za-z_][A-Za-z0-9_]*)\s*\)\s*\)\s*\)$`)
	overflowSpec = regexp.MustCompile(`^CHECK\(\s*init\(\s*main\(\s*\)\s*\)\s*,\s*LTL\(\s*G\s*!\s*overflow\s*\)\s*\)$`)
)

// readProperty reads a property file. A file that is not on disk is known
// by its base name: unreach-call.prp is reach_error's, unreach-label.prp
// the ERROR label's, no-overflow.prp no overflow.
func readProperty(file string, read func(string) ([]byte, error)) Property {
	base := filepath.Base(file)
	p := Property{File: file, Name: strings.TrimSuffix(base, filepath.Ext(base)), Kind: Unsupported}
	src, err := read(file)
	if err != nil {
		if !errors.Is(err, fs.ErrNotExist) {
			p.Why = fmt.Sprintf("the property file cannot be read: %v", err)
			return p
		}
		switch base {
		case "unreach-call.prp":
			p.Spec = "CHECK( init(main()), LTL(G ! call(reach_error())) )"
		case "unreach-label.prp":
			p.Spec = "CHECK( init(main()), LTL(G ! label(ERROR)) )"
		case "no-overflow.prp":
			p.Spec = "CHECK( init(main()), LTL(G ! overflow) )"
		default:
			p.Why = fmt.Sprintf("property %s: the file is not there, and birch knows only unreach-call.prp, unreach-label.prp and no-overflow.prp by name", p.Name)
			return p
		}
	} else {
		var lines []string
		for _, l := range strings.Split(string(src), "\n") {
			if l = strings.TrimSpace(l); l != "" && !strings.HasPrefix(l, "//") && !strings.HasPrefix(l, "#") {
				lines = append(lines, l)
			}
		}
		if len(lines) != 1 {
			p.Why = fmt.Sprintf("property %s: not a single CHECK of unreach-call, unreach-label or no-overflow", p.Name)
			return p
		}
		p.Spec = lines[0]
	}
	if m := callSpec.FindStringSubmatch(p.Spec); m != nil {
		p.Kind, p.Function = UnreachCall, m[1]
	} else if m := labelSpec.FindStringSubmatch(p.Spec); m != nil {
		p.Kind, p.Label = UnreachLabel, m[1]
	} else if overflowSpec.MatchString(p.Spec) {
		p.Kind = NoOverflow
	} else {
		p.Why = fmt.Sprintf("property %s (%s): birch checks unreach-call, unreach-label and no-overflow only", p.Name, p.Spec)
	}
	return p
}

// Property returns the property of the task to check: the one named (the
// base name of its file, "unreach-call"), or, for "", the first the task
// lists of the kinds birch checks (else the first). The second result
// says why a named property is not in the task.
func (t *Task) Property(name string) (*Property, error) {
	if name != "" {
		for i := range t.Properties {
			if t.Properties[i].Name == name {
				return &t.Properties[i], nil
			}
		}
		var names []string
		for _, p := range t.Properties {
			names = append(names, p.Name)
		}
		return nil, fmt.Errorf("%s: no property %s (the task has %s)", t.File, name, strings.Join(names, ", "))
	}
	for i := range t.Properties {
		if t.Properties[i].Kind != Unsupported {
			return &t.Properties[i], nil
		}
	}
	return &t.Properties[0], nil
}
