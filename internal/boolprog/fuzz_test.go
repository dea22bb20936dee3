package boolprog

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"birch/internal/source"
)

// FuzzRoundTrip: any input Parse accepts prints to a program that parses to
// the same tree; Resolve and, for resolved programs, CheckExplicit under a
// small bound never panic, and a failure's trail replays.
func FuzzRoundTrip(f *testing.F) {
	files, _ := filepath.Glob("testdata/*.bp")
	for _, name := range files {
		src, err := os.ReadFile(name)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(string(src))
	}
	f.Fuzz(func(t *testing.T, src string) {
		fset := source.NewFileSet()
		p1, err := Parse(fset, "f.bp", []byte(src))
		if err != nil {
			return
		}
		out := String(p1)
		p2, err := Parse(fset, "f2.bp", []byte(out))
		if err != nil {
			t.Fatalf("printed program does not parse: %v\n%s", err, out)
		}
		if info, err := Resolve(fset, p1); err == nil {
			res := CheckExplicit(fset, info, Limits{MaxStates: 5000})
			if res.Verdict == Fail && !res.TrailCut {
				if err := replayTrail(fset, info, res); err != nil {
					t.Fatalf("the trail does not replay: %v\n%s", err, out)
				}
			}
		}
		p2.Filename = p1.Filename
		stripPositions(reflect.ValueOf(p1))
		stripPositions(reflect.ValueOf(p2))
		if !reflect.DeepEqual(p1, p2) {
			t.Fatalf("parse(print(p)) differs from p:\n%s", out)
		}
	})
}
