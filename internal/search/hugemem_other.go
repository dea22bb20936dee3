//go:build !linux

package search

func allocBytes(n int) ([]byte, bool)   { return make([]byte, n), false }
func freeBytes([]byte)                  {}
func allocWords(n int) ([]uint64, bool) { return make([]uint64, n), false }
func freeWords([]uint64)                {}
