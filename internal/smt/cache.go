package smt

// Cache memoizes Valid and Implies queries, keyed by the simplified
// (canonical, hash-consed) formula, so that the many repeated questions of
// predicate abstraction — the same cube against the same weakest
// precondition, written in a different order — reach the solver once.
// (Predicate abstraction is planned, not built; the benchmarks of
// gen.PredAbs queries use the Cache.)
//
// A Cache assumes that the solver's assertions do not change between
// queries (usually it has none: the question is self-contained); call Reset
// when they do. Only decided answers are cached: an Unknown or a failure is
// asked again next time. A Cache is not safe for concurrent use.
type Cache struct {
	s     Solver
	tm    *TermManager
	valid map[*Term]bool
	stats CacheStats
}

// CacheStats counts the queries a Cache answered.
type CacheStats struct {
	Hits    int // answered from the cache
	Trivial int // answered by simplification alone (the formula became true)
	Misses  int // sent to the solver
}

// NewCache returns an empty cache in front of s.
func NewCache(s Solver) *Cache {
	return &Cache{s: s, tm: s.TermManager(), valid: map[*Term]bool{}}
}

// Solver returns the solver behind the cache.
func (c *Cache) Solver() Solver { return c.s }

// Stats returns the counts so far.
func (c *Cache) Stats() CacheStats { return c.stats }

// Reset forgets every answer (after the solver's assertions changed).
func (c *Cache) Reset() { clear(c.valid) }

// Valid is Valid(c.Solver(), t), memoized.
func (c *Cache) Valid(t *Term) (bool, error) {
	key := c.tm.Simplify(t)
	if key == c.tm.tru {
		c.stats.Trivial++
		return true, nil
	}
	if v, ok := c.valid[key]; ok {
		c.stats.Hits++
		return v, nil
	}
	c.stats.Misses++
	v, err := Valid(c.s, key)
	if err == nil {
		c.valid[key] = v
	}
	return v, err
}

// Implies is Implies(c.Solver(), a, b), memoized: it asks whether
// (=> a b) is valid.
func (c *Cache) Implies(a, b *Term) (bool, error) {
	return c.Valid(c.tm.Implies(a, b))
}
