package search

import "unsafe"

// chunkShift sets the size of a chunk of a chunkStack: 2^10 elements (32
// KiB of product edges).
const chunkShift = 10

// chunkStack is a stack held in chunks of a fixed number of elements.
// Growing it allocates one chunk and copies nothing, so that its memory
// grows smoothly, leaves no garbage behind and is known exactly (bytes),
// unlike a slice whose doubling holds three times the old array for a
// moment (the new array, twice as large, and the old one until the
// collector frees it). An element's address never changes while it is on
// the stack.
type chunkStack[T any] struct {
	chunks [][]T // each of 1<<chunkShift elements
	n      int
}

// len is the number of elements on the stack.
func (c *chunkStack[T]) len() int { return c.n }

// push puts v on top of the stack.
func (c *chunkStack[T]) push(v T) {
	k := c.n >> chunkShift
	if k == len(c.chunks) {
		c.chunks = append(c.chunks, make([]T, 1<<chunkShift))
	}
	c.chunks[k][c.n&(1<<chunkShift-1)] = v
	c.n++
}

// at returns the address of element i (0 is the bottom).
func (c *chunkStack[T]) at(i int) *T {
	return &c.chunks[i>>chunkShift][i&(1<<chunkShift-1)]
}

// top returns the address of the top element.
func (c *chunkStack[T]) top() *T { return c.at(c.n - 1) }

// pop removes the top element and returns it.
func (c *chunkStack[T]) pop() T {
	v := *c.top()
	c.truncate(c.n - 1)
	return v
}

// truncate removes the elements from n on. It releases the chunks above
// the one past the new top, so that a stack moving up and down across a
// chunk boundary does not allocate each time.
func (c *chunkStack[T]) truncate(n int) {
	c.n = n
	keep := n>>chunkShift + 2
	if keep < len(c.chunks) {
		clear(c.chunks[keep:])
		c.chunks = c.chunks[:keep]
	}
}

// bytes is the memory the stack holds: its chunks and their index.
func (c *chunkStack[T]) bytes() int64 {
	var zero T
	return int64(len(c.chunks))<<chunkShift*int64(unsafe.Sizeof(zero)) + int64(cap(c.chunks))*int64(unsafe.Sizeof(c.chunks))
}

// growth is the memory the next push may allocate: a chunk, and a larger
// index when the index is full.
func (c *chunkStack[T]) growth() int64 {
	var zero T
	g := int64(1<<chunkShift) * int64(unsafe.Sizeof(zero))
	if len(c.chunks) == cap(c.chunks) {
		g += 2 * int64(cap(c.chunks)+1) * int64(unsafe.Sizeof(c.chunks))
	}
	return g
}
