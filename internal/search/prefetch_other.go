//go:build !amd64

package search

// prefetch does nothing on this architecture (see prefetch_amd64.go).
func prefetch(p *uint64) {}
