package main

// prefetch issues PREFETCHT0 for *p (as the state store does).
//
//go:noescape
func prefetch(p *uint64)
