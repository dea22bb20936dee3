package cli

import (
	"encoding/json"
	"fmt"
	"os"
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
}

const trailFormat = "birch-trail/1"

func saveTrail(path, modelName, searchName string, ords []int, v *jsonViolation, steps []trailStep) error {
	tf := trailFile{Format: trailFormat, Model: modelName, Search: searchName, Ordinals: ords, Violation: v, Trail: jsonTrail(steps)}
	if tf.Ordinals == nil {
		tf.Ordinals = []int{}
	}
	b, err := json.MarshalIndent(tf, "", "  ")
	if err != nil {
		return err
	}
	if err := os.WriteFile(path, append(b, '\n'), 0o644); err != nil {
		return fmt.Errorf("saving the trail: %v", err)
	}
	return nil
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
		return nil, fmt.Errorf("%s: not a birch trail (format %q, want %q)", path, tf.Format, trailFormat)
	}
	return &tf, nil
}
