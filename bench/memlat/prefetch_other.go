//go:build !amd64

package main

func prefetch(p *uint64) {}
