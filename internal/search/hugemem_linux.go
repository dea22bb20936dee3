package search

import (
	"syscall"
	"unsafe"
)

// hugeThreshold is the size from which the store maps memory itself and
// asks the kernel for transparent huge pages: the table and the arena are
// read at random, and with 4 KiB pages nearly every probe of a large store
// also misses the TLB.
const hugeThreshold = 4 << 20

// allocBytes returns n zeroed bytes, from an anonymous mapping advised to
// use huge pages when n is large (mapped true), or else from the Go heap.
func allocBytes(n int) (b []byte, mapped bool) {
	if n < hugeThreshold {
		return make([]byte, n), false
	}
	b, err := syscall.Mmap(-1, 0, n, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_PRIVATE|syscall.MAP_ANON)
	if err != nil {
		return make([]byte, n), false
	}
	_ = syscall.Madvise(b, 14) // MADV_HUGEPAGE; an error only means no huge pages
	return b, true
}

// freeBytes unmaps memory that allocBytes mapped.
func freeBytes(b []byte) { _ = syscall.Munmap(b) }

// allocWords returns n zeroed words (see allocBytes).
func allocWords(n int) ([]uint64, bool) {
	b, mapped := allocBytes(n * 8)
	return unsafe.Slice((*uint64)(unsafe.Pointer(unsafe.SliceData(b))), n), mapped
}

// freeWords unmaps words that allocWords mapped.
func freeWords(w []uint64) {
	freeBytes(unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(w))), len(w)*8))
}
