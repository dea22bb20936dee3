// Package search explores the state space of a compiled model: it holds
// the search engines, the set of visited states, the trails that lead to a
// violation and the statistics a run reports.
//
// It sits after internal/model in the pipeline: an engine asks the model
// for its initial states and the successors of each state, keeps every
// state it has seen, and reports a verdict, with a trail when a property
// fails.
//
// # The state store
//
// StateStore is the set of visited states. A state arrives as the byte
// string the model encodes it to (typically 5 to 60 bytes) and is copied
// into an arena of large chunks; the store hands back a StateID, which stays
// valid for the store's lifetime and gives the stored bytes back in O(1)
// through State. Each state may carry one auxiliary uint64 (a breadth-first
// search keeps the parent's StateID there, to rebuild trails).
//
// The store is built for 10^7 states and more: a state costs its bytes, a
// one-byte length for states under 128 bytes, its aux word, and one 8-byte
// slot of an open-addressing table kept between 3/8 and 3/4 full. At 10^6
// states of 20 bytes that is about 42 bytes a state, or 46 with an aux
// word. Insert and Lookup allocate nothing except when the arena takes a new
// 4 MiB chunk or the table doubles; up to some 10^8 states doubling reads
// only the table, not the arena. Bytes reports the memory held, for
// statistics and memory limits.
//
//	st := search.NewStateStore(1) // one aux word: the parent
//	id, isNew := st.Insert(encoded, uint64(parent))
//	if isNew {
//		// push id on the queue
//	}
//	bytes := st.State(id) // aliases the store; do not modify
package search
