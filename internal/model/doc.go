// Package model compiles a type-checked BIR program into the form the search
// engines explore: a state layout, compiled guards and actions, and a
// successor function that delivers outcomes through a callback.
//
// It sits between the language (internal/bir) and the engines
// (internal/search): every engine sees a model only through Initial, Next and
// the descriptive methods (Groups, Describe, Threads), in the spirit of
// LTSmin's PINS interface.
//
// # States
//
// While a state is worked on it is a vector of int64 slots:
//
//	globals | heap: per collection, its count and its objects | thread pool
//
// Globals and the heap have a fixed layout (every object a collection may
// ever hold has its slots; unallocated objects keep default values). The
// thread pool is variable: a count, then per thread a header (thread,
// status, saved wait count, call depth) and its frames (proc, location,
// call site, variables). Booleans are 0/1, enums their ordinals, a
// reference is 0 (null) or 1 + the number of the object among all objects of
// all collections, a tid is 0 (null) or 1 + the thread's index. A lock is
// four slots: owner tid, count, and bit sets of waiting and notified threads.
//
// A stored state is that vector encoded with zig-zag varints: the layout is
// canonical (threads in creation order, objects in allocation order, dead
// variables reset to defaults), so two states that mean the same encode the
// same.
//
// # Semantics
//
// Next follows BIR.md §5–§6: each transformation runs atomically; a
// nondeterministic action (internChoose, externChoose, forall, reachable,
// notify) yields one outcome per choice; an invisible run continues the same
// thread until it takes a visible transformation or blocks, and its inner
// states are never delivered; runtime errors and bounds are outcomes of kind
// Error and Limit. docs/semantics.md records the choices BIR.md leaves open.
//
// # Native code
//
// Options.Native lets Go code take part in the steps, as Java PathFinder's
// native peers do (native.go): while it compiles, the model asks it which
// guards, actions, arguments, results and call targets it replaces; while
// it runs, it calls it for those, calls its Begin and End around every run
// of a transformation (End may write any slot, choose, fail or block), and
// its Initial on the initial state. Native code that takes a guard or an
// assumption it cannot decide, or an alternative that holds in some of the
// states only, says so (NativeContext.Unsure): an invisible
// run then also rests before it, since the thread may be unable to move in
// some of the states the state stands for. On-the-fly predicate abstraction
// (internal/apf) keeps abstracted integer data out of the slots this way and
// the predicates over them in hidden variables.
package model
