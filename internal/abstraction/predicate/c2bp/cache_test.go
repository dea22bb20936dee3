package c2bp

import (
	"os"
	"testing"

	"birch/internal/abstraction/predicate"
)

// TestSharedCache: a second abstraction of the same model with more
// predicates (a refinement round) that shares the first one's
// Config.Cache answers the cube queries the first asked from it (cache
// hits, fewer solver queries) and builds the same abstract model as
// without the cache.
func TestSharedCache(t *testing.T) {
	const file = "../../../../examples/predicates/countbound.bir"
	src, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	prog := loadSource(t, file, src)
	first := "[thread Main] n < 0\n[thread Main] i < n\n[thread Main] i == n\n"
	second := first + "[thread Main] i <= n\n"
	abstract := func(text string, cache *predicate.QueryCache) *Output {
		t.Helper()
		pf, err := predicate.ParseFile(prog, "round.pred", []byte(text))
		if err != nil {
			t.Fatal(err)
		}
		out, err := Abstract(prog, pf, Config{Cache: cache})
		if err != nil {
			t.Fatal(err)
		}
		return out
	}
	cache := predicate.NewQueryCache()
	abstract(first, cache)
	if cache.Len() == 0 {
		t.Fatal("the first abstraction left nothing in the shared cache")
	}
	shared := abstract(second, cache)
	alone := abstract(second, nil)
	if string(shared.Source) != string(alone.Source) {
		t.Errorf("the abstraction with the shared cache differs:\n%s\nwithout:\n%s", shared.Source, alone.Source)
	}
	if shared.Stats.CacheHits <= alone.Stats.CacheHits || shared.Stats.Queries >= alone.Stats.Queries {
		t.Errorf("shared cache: %d queries, %d hits; alone: %d queries, %d hits", shared.Stats.Queries, shared.Stats.CacheHits, alone.Stats.Queries, alone.Stats.CacheHits)
	}
	t.Logf("shared cache: %d queries, %d hits; alone: %d queries, %d hits", shared.Stats.Queries, shared.Stats.CacheHits, alone.Stats.Queries, alone.Stats.CacheHits)
}
