package cli

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// trailFile is the format of saved trails (--trail, birch replay).
type trailFile struct {
	Format    string         `json:"format"` // "birch-trail/1"
	Model     string         `json:"model"`
	Search    string         `json:"search,omitempty"`
	Ordinals  []int          `json:"ordinals"`
	Violation *jsonViolation `json:"violation"`
	Trail     []jsonStep     `json:"trail"`
	// For an LTL violation (a lasso): the number of ordinals before the
	// cycle, and whether the execution ends by repeating its last state.
	CycleStart *int `json:"cycle_start,omitempty"`
	Stutter    bool `json:"stutter,omitempty"`
	// The model's invisible runs were exposed (each transformation a
	// step), as for a property with X; replay does the same.
	ExposeInvisible bool `json:"expose_invisible,omitempty"`
	// The values the model's unbounded choices take on the trail
	// (model.Options.ChoiceValues): a trail confirmed by solving for its
	// inputs (birch check --predicates); replay gives them to the model.
	ChoiceValues []int64 `json:"choice_values,omitempty"`
}

// lassoTrailFile is the trail file of an LTL violation: a trail file
// (birch-trail/1) with the lasso's shape.
type lassoTrailFile struct {
	trailFile
}

const trailFormat = "birch-trail/1"

// newTrailFile is the trail file of a violation.
func newTrailFile(modelName, searchName string, ords []int, v *jsonViolation, steps []trailStep) trailFile {
	tf := trailFile{Format: trailFormat, Model: modelName, Search: searchName, Ordinals: ords, Violation: v, Trail: jsonTrail(steps)}
	if tf.Ordinals == nil {
		tf.Ordinals = []int{}
	}
	return tf
}

// saveTrail writes a trail file (a trailFile, or a lassoTrailFile) to
// path. A violation found by a long search is never lost to a file that
// cannot be written: a failure is a warning on stderr, and the caller
// still reports the violation (and exits 1). It reports whether the trail
// was saved.
func saveTrail(e *env, cmd, path string, tf any) bool {
	if err := writeJSONFile(path, tf); err != nil {
		fmt.Fprintf(e.stderr, "birch %s: warning: the trail was not saved: %v\n", cmd, err)
		return false
	}
	return true
}

// writeJSONFile writes v, indented, to path.
func writeJSONFile(path string, v any) error {
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return err
	}
	return os.WriteFile(path, append(b, '\n'), 0o644)
}

// checkOutputPath tells, before a search or a synthesis that may take
// long, whether a file can be written at path later: an existing path must
// not be a directory (a regular file must open for writing; it is not
// truncated yet), and a new file's directory must exist and take a new
// file. It prints a usage error naming the flag and returns false when not.
func checkOutputPath(e *env, cmd, flagName, path string) bool {
	if path == "" {
		return true
	}
	err := writable(path)
	if err != nil {
		fmt.Fprintf(e.stderr, "birch %s: %s %s: cannot write there: %v\n", cmd, flagName, path, err)
		return false
	}
	return true
}

func writable(path string) error {
	fi, err := os.Stat(path)
	switch {
	case err == nil && fi.IsDir():
		return errors.New("it is a directory")
	case err == nil && fi.Mode().IsRegular():
		f, err := os.OpenFile(path, os.O_WRONLY, 0)
		if err != nil {
			return unwrapPath(err)
		}
		return f.Close()
	case err == nil:
		return nil // a device such as /dev/stdout: written when there is something to write
	case !errors.Is(err, fs.ErrNotExist):
		return unwrapPath(err)
	}
	dir := filepath.Dir(path)
	di, err := os.Stat(dir)
	if err != nil {
		return fmt.Errorf("directory %s: %v", dir, unwrapPath(err))
	}
	if !di.IsDir() {
		return fmt.Errorf("%s is not a directory", dir)
	}
	// a file of our own shows whether the directory takes new files
	f, err := os.CreateTemp(dir, ".birch-probe-*")
	if err != nil {
		return fmt.Errorf("directory %s: %v", dir, unwrapPath(err))
	}
	f.Close()
	os.Remove(f.Name())
	return nil
}

// unwrapPath drops the operation and path of a *fs.PathError, which the
// message names already.
func unwrapPath(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

func readTrail(path string) (*trailFile, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var tf trailFile
	if err := json.Unmarshal(b, &tf); err != nil {
		return nil, fmt.Errorf("%s: not a birch trail: %v", path, err)
	}
	if tf.Format != trailFormat {
		return nil, fmt.Errorf("%s: not a birch trail (format %s, want %q)", path, quote(tf.Format), trailFormat)
	}
	return &tf, nil
}
