// Command memlat measures what a random memory access costs on this machine, the cost that
// bounds the explicit-state store (docs/performance.md, "Where the time goes"):
//
//   - latency: a chain of dependent loads, one per cache line, in a random cyclic order over
//     buffers of 1 MiB to 1 GiB, with and without transparent huge pages;
//   - a search-like step: k independent random loads (k = 7, updown's successors per state)
//     whose addresses are known one by one while dependent work runs in between (as a
//     successor's table slot is known while the next successors are generated), then read
//     together, without touching memory, with the loads waiting to the end, and with each
//     address prefetched as soon as it is known.
//
// Usage: go run ./bench/memlat
package main

import (
	"fmt"
	"math/rand/v2"
	"syscall"
	"time"
	"unsafe"
)

var sink uint64

// words maps n bytes, advised to use huge pages when huge is set.
func words(n int, huge bool) ([]uint64, func()) {
	b, err := syscall.Mmap(-1, 0, n, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_PRIVATE|syscall.MAP_ANON)
	if err != nil {
		panic(err)
	}
	if huge {
		_ = syscall.Madvise(b, 14) // MADV_HUGEPAGE
	}
	return unsafe.Slice((*uint64)(unsafe.Pointer(&b[0])), n/8), func() { _ = syscall.Munmap(b) }
}

// latency returns the time of one load in a chain of dependent loads over mb MiB.
func latency(mb int, huge bool) float64 {
	w, free := words(mb<<20, huge)
	defer free()
	lines := len(w) / 8
	perm := rand.Perm(lines)
	for i := range lines {
		w[perm[i]*8] = uint64(perm[(i+1)%lines] * 8)
	}
	p := uint64(perm[0] * 8)
	const steps = 3_000_000
	t0 := time.Now()
	for range steps {
		p = w[p]
	}
	sink += p
	return float64(time.Since(t0).Nanoseconds()) / steps
}

// step returns the time per step of k random loads over mb MiB with work dependent
// multiplications after each address (mode "none": no memory; "wait": loads at the end only;
// "prefetch": each address prefetched when known).
func step(mb, k, work int, mode string) float64 {
	w, free := words(mb<<20, true)
	defer free()
	for i := range w {
		w[i] = uint64(i)
	}
	mask := uint64(len(w) - 1)
	idx := make([]uint64, k)
	x, s := uint64(12345), uint64(0)
	const steps = 500_000
	t0 := time.Now()
	for range steps {
		for j := range k {
			x = x*6364136223846793005 + 1442695040888963407
			idx[j] = (x >> 20) & mask
			if mode == "prefetch" {
				prefetch(&w[idx[j]])
			}
			for q := range work {
				s = s*31 + uint64(q)
			}
		}
		for j := range k {
			if mode == "none" {
				s += w[idx[j]&1023]
			} else {
				s += w[idx[j]]
			}
		}
	}
	sink += s
	return float64(time.Since(t0).Nanoseconds()) / steps
}

func main() {
	fmt.Println("dependent random loads, ns per load:")
	fmt.Println("   MiB   4 KiB pages   huge pages")
	for _, mb := range []int{1, 8, 32, 128, 512, 1024} {
		fmt.Printf("%6d %13.1f %12.1f\n", mb, latency(mb, false), latency(mb, true))
	}
	const k, work = 7, 30
	fmt.Printf("\n%d random loads per step, %d dependent multiplications after each address, ns per step:\n", k, work)
	fmt.Println("   MiB   no memory   loads wait   prefetched")
	for _, mb := range []int{8, 16, 64, 256} {
		fmt.Printf("%6d %11.0f %12.0f %12.0f\n", mb, step(mb, k, work, "none"), step(mb, k, work, "wait"), step(mb, k, work, "prefetch"))
	}
	if sink == 42 {
		fmt.Println()
	}
}
