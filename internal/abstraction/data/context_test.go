package data

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"birch/internal/source"
)

// TestConfigContext: under a context that is done the solver answers no
// question of the compilation and synthesis (each is undecided), where
// without it every question is decided; birch check stops the abstraction
// synthesis phase that way at a limit or Ctrl-C.
func TestConfigContext(t *testing.T) {
	path := filepath.Join("testdata", "signs.basl")
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := ParseFile(source.NewFileSet(), path, src, Config{}); err != nil {
		t.Fatalf("without a context: %v", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err = ParseFile(source.NewFileSet(), path, src, Config{Context: ctx})
	if err == nil || !strings.Contains(err.Error(), "the solver answered unknown") {
		t.Fatalf("with a cancelled context: %v; want undecided questions", err)
	}
}
