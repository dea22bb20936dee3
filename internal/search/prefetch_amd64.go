package search

// prefetch asks the processor to bring the cache line of *p in, without
// waiting for it (PREFETCHT0): the store's table slot of a successor is
// fetched while the model generates the next successors.
//
//go:noescape
func prefetch(p *uint64)
