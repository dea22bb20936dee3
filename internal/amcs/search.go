package amcs

import (
	"encoding/binary"
	"fmt"
	"sort"
	"time"
	"unsafe"

	"birch/internal/model"
	"birch/internal/search"
	"birch/internal/source"
)

// statKind is what a round's search records of the data of the concrete
// states matched into each abstract state.
type statKind int

const (
	statNone   statKind = iota // nothing: the refining variants
	statMinMax                 // minimum and maximum per datum (MaxOverlap, MinSet)
	statMin                    // minimum and the unique flag per datum (MinOnly)
)

// absState is one abstract state of a round: its representative (the first
// concrete state that reached it), how the search reached it, and where its
// statistics are.
type absState struct {
	rep      search.StateID // the representative in reps
	parent   int32          // -1 for the initial state
	ord      int32          // ordinal of the step from the parent
	depth    int32
	stat     int64 // index of its first datum in lo/hi/uniq
	nData    int32
	distinct bool // a concrete state other than the representative matched it
}

// datumPreds are the datum predicates `ID > C`, sorted by ID then C, kept as
// one sorted list of thresholds per ID.
type datumPreds struct {
	ids  []uint64  // sorted
	thr  [][]int64 // per ID: sorted, distinct thresholds
	text [][]string
	n    int
}

// has reports whether p is one of the predicates.
func (d *datumPreds) has(p datumPred) bool {
	i := sort.Search(len(d.ids), func(i int) bool { return d.ids[i] >= p.ID })
	if i == len(d.ids) || d.ids[i] != p.ID {
		return false
	}
	t := d.thr[i]
	k := sort.Search(len(t), func(k int) bool { return t[k] >= p.C })
	return k < len(t) && t[k] == p.C
}

// add adds p, named text; it returns false when p is there already.
func (d *datumPreds) add(p datumPred, text string) bool {
	i := sort.Search(len(d.ids), func(i int) bool { return d.ids[i] >= p.ID })
	if i == len(d.ids) || d.ids[i] != p.ID {
		d.ids = append(d.ids, 0)
		copy(d.ids[i+1:], d.ids[i:])
		d.ids[i] = p.ID
		d.thr = append(d.thr, nil)
		copy(d.thr[i+1:], d.thr[i:])
		d.thr[i] = nil
		d.text = append(d.text, nil)
		copy(d.text[i+1:], d.text[i:])
		d.text[i] = nil
	}
	t := d.thr[i]
	k := sort.Search(len(t), func(k int) bool { return t[k] >= p.C })
	if k < len(t) && t[k] == p.C {
		return false
	}
	t = append(t, 0)
	copy(t[k+1:], t[k:])
	t[k] = p.C
	d.thr[i] = t
	tx := append(d.text[i], "")
	copy(tx[k+1:], tx[k:])
	tx[k] = text
	d.text[i] = tx
	d.n++
	return true
}

// texts lists the predicates as text, by ID then threshold.
func (d *datumPreds) texts() []string {
	var out []string
	for _, tx := range d.text {
		out = append(out, tx...)
	}
	return out
}

// appendKey appends the valuation of the predicates on data: per datum
// whose ID has predicates, the number of its thresholds below the value
// (the thresholds are sorted, so this is the whole valuation: d > C holds
// exactly for the first k of them). Data normally come in increasing ID
// order (model.SplitData), which makes this a merge; an out-of-order ID
// searches.
func (d *datumPreds) appendKey(key []byte, data []model.Datum) []byte {
	if len(d.ids) == 0 {
		return key
	}
	k := 0
	var prev uint64
	for i, x := range data {
		if i > 0 && x.ID < prev {
			k = sort.Search(len(d.ids), func(j int) bool { return d.ids[j] >= x.ID })
		}
		prev = x.ID
		for k < len(d.ids) && d.ids[k] < x.ID {
			k++
		}
		if k == len(d.ids) || d.ids[k] != x.ID {
			continue
		}
		t := d.thr[k]
		n := 0
		if len(t) <= 8 {
			for n < len(t) && t[n] < x.Value {
				n++
			}
		} else {
			n = sort.Search(len(t), func(j int) bool { return t[j] >= x.Value })
		}
		key = binary.AppendUvarint(key, uint64(n))
	}
	return key
}

// roundSearch is one round's breadth-first search with abstract matching
// (Algorithm 4; Algorithm 2 with a refiner).
type roundSearch struct {
	r     *runner
	m     *model.Model
	sm    search.Model
	preds *datumPreds
	ref   refiner // nil for GeneralSplitting without expression predicates
	kind  statKind

	index  *search.StateStore // abstract keys, aux: the abstract state's index
	reps   *search.StateStore // representatives, aux: the abstract state's index
	states []absState
	lo, hi []int64
	uniq   []bool

	ctrl    []byte
	data    []model.Datum
	key     []byte
	cur     int32
	curSt   []byte
	visitFn func(*model.Step)

	generated, transitions int64
	eligible               int
	found                  bool
	failOrd                int
	violation              *search.Violation
	trail                  []int
	limits                 map[limitKey]*search.LimitHit
	limitOrder             []limitKey
	stopped                string
	nextCheck              int
}

type limitKey struct {
	msg string
	pos source.Pos
}

// newRoundSearch prepares a round; it reuses the buffers of prev, the
// round before, if there is one (a round is usually larger than the last).
func newRoundSearch(r *runner, preds *datumPreds, ref refiner, kind statKind, prev *roundSearch) *roundSearch {
	s := &roundSearch{r: r, m: r.m, sm: r.sm, preds: preds, ref: ref, kind: kind,
		index: search.NewStateStore(1), reps: search.NewStateStore(1), limits: map[limitKey]*search.LimitHit{}}
	if prev != nil {
		s.states, s.lo, s.hi, s.uniq = prev.states[:0], prev.lo[:0], prev.hi[:0], prev.uniq[:0]
		s.ctrl, s.data, s.key = prev.ctrl, prev.data, prev.key
	}
	s.visitFn = s.visit
	return s
}

// abstractKey computes the key of state into s.key, leaving its data in
// s.data: the control part (length first), the datum predicates' valuation,
// then the refiner's bits.
func (s *roundSearch) abstractKey(state []byte) []byte {
	s.ctrl, s.data = s.m.SplitData(state, s.ctrl[:0], s.data[:0])
	k := binary.AppendUvarint(s.key[:0], uint64(len(s.ctrl)))
	k = append(k, s.ctrl...)
	k = s.preds.appendKey(k, s.data)
	if s.ref != nil {
		k = s.ref.appendKey(k, state)
	}
	s.key = k
	return k
}

// stateBytes returns the representative of abstract state i.
func (s *roundSearch) stateBytes(i int32) []byte {
	return s.reps.State(s.states[i].rep)
}

// release returns the memory of the round's stores.
func (s *roundSearch) release() {
	s.index.Release()
	s.reps.Release()
}

// insert adds a new abstract state whose data are s.data, represented by
// state (its key is in the index already).
func (s *roundSearch) insert(state []byte, parent int32, ord int, depth int32) int32 {
	id := int32(len(s.states))
	rep, _ := s.reps.Insert(state, uint64(id))
	a := absState{rep: rep, parent: parent, ord: int32(ord), depth: depth,
		stat: int64(len(s.lo)), nData: int32(len(s.data))}
	n := len(s.data)
	switch s.kind {
	case statMinMax:
		s.lo, s.hi = grow(s.lo, n), grow(s.hi, n)
		for _, d := range s.data {
			s.lo = append(s.lo, d.Value)
			s.hi = append(s.hi, d.Value)
		}
	case statMin:
		s.lo, s.uniq = grow(s.lo, n), grow(s.uniq, n)
		for _, d := range s.data {
			s.lo = append(s.lo, d.Value)
			s.uniq = append(s.uniq, true)
		}
	}
	s.states = append(grow(s.states, 1), a)
	return id
}

// grow makes room for n more elements in s, doubling its capacity: append
// grows a large slice by a quarter, which copies a round's abstract states
// and statistics about five times over as they grow.
func grow[T any](s []T, n int) []T {
	if len(s)+n <= cap(s) {
		return s
	}
	g := make([]T, len(s), max(2*cap(s), len(s)+n, 256))
	copy(g, s)
	return g
}

// match records that a concrete state other than j's representative,
// whose data are s.data, reached abstract state j.
func (s *roundSearch) match(j int32) {
	a := &s.states[j]
	if !a.distinct {
		a.distinct = true
		s.eligible++
	}
	switch s.kind {
	case statMinMax:
		lo, hi := s.lo[a.stat:a.stat+int64(a.nData)], s.hi[a.stat:a.stat+int64(a.nData)]
		for i, d := range s.data[:len(lo)] {
			if d.Value < lo[i] {
				lo[i] = d.Value
			}
			if d.Value > hi[i] {
				hi[i] = d.Value
			}
		}
	case statMin:
		lo, un := s.lo[a.stat:a.stat+int64(a.nData)], s.uniq[a.stat:a.stat+int64(a.nData)]
		for i, d := range s.data[:len(lo)] {
			un[i], lo[i] = minOnlyUpdate(lo[i], un[i], d.Value)
		}
	}
}

// minOnlyUpdate is MinOnly's statistic of one datum: the minimum of the
// values seen and whether they were all equal (unique), after v is seen.
func minOnlyUpdate(min int64, unique bool, v int64) (bool, int64) {
	switch {
	case v < min:
		return false, v
	case v > min:
		return false, min
	}
	return unique, min
}

// memory is the bytes the round holds: the representatives, the abstract
// states and their statistics, and the index (each store's table may
// double), and the model's transition cache (as --max-memory counts it for
// the explicit search), and the refiner's, if it says.
func (s *roundSearch) memory() int64 {
	b := s.reps.Bytes() + s.reps.TableBytes()
	if c, ok := s.sm.(interface{ CacheBytes() int64 }); ok {
		b += c.CacheBytes()
	}
	if r, ok := s.ref.(memoryReporter); ok {
		b += r.memory()
	}
	b += int64(cap(s.states)) * int64(unsafe.Sizeof(absState{}))
	b += int64(cap(s.lo)+cap(s.hi))*8 + int64(cap(s.uniq))
	b += s.index.Bytes() + s.index.TableBytes() // the table doubles
	return b
}

// run searches from the initial state; it returns when the queue is
// empty, a violation is found or a limit stops it.
func (s *roundSearch) run() {
	init, fail := s.sm.Initial(nil)
	if fail != nil {
		if fail.Outcome == model.Limit && !s.r.cfg.LimitError {
			s.limit(fail)
		} else {
			s.fail(fail, -1)
			s.trail = []int{}
		}
		return
	}
	s.generated++
	s.r.visit(init, 0, s)
	s.index.Insert(s.abstractKey(init), 0)
	s.insert(init, -1, 0, 0)
	for i := int32(0); int(i) < len(s.states); i++ {
		if !s.check() {
			return
		}
		s.cur = i
		s.curSt = s.stateBytes(i)
		if s.ref != nil {
			s.ref.expand(s.curSt)
		}
		n, allDone := s.sm.Next(s.curSt, s.visitFn)
		if s.found {
			s.trail = s.path(i, s.failOrd)
			return
		}
		if s.stopped != "" {
			return
		}
		if n == 0 && !allDone && !s.r.cfg.NoDeadlock {
			s.fail(&model.Step{Kind: model.Deadlock, Msg: "no thread can move", Thread: -1}, -1)
			s.trail = s.path(i, -1)
			return
		}
	}
}

// visit handles one outcome of the state being expanded.
func (s *roundSearch) visit(st *model.Step) {
	if s.found || s.stopped != "" {
		return
	}
	s.transitions++
	switch st.Outcome {
	case model.OK:
		s.generated++
		depth := s.states[s.cur].depth + 1
		s.r.visit(st.State, int(depth), s)
		if s.ref != nil {
			s.ref.step(s.curSt, st)
		}
		if _, ok := s.reps.Lookup(st.State); ok {
			// a representative again: its abstract state is known and
			// nothing about it changes
			return
		}
		key := s.abstractKey(st.State)
		id, isNew := s.index.Insert(key, uint64(len(s.states)))
		if !isNew {
			s.match(int32(s.index.Aux(id)))
			return
		}
		if max := s.r.cfg.MaxStates; max > 0 && len(s.states) >= max {
			// the key stays in the index, without a state: the round ends
			s.stopped = fmt.Sprintf("state limit reached (--max-states=%d)", max)
			return
		}
		s.insert(st.State, s.cur, st.Ordinal, depth)
	case model.Error:
		s.fail(st, st.Ordinal)
	case model.Limit:
		s.limit(st)
		if s.r.cfg.LimitError {
			s.fail(st, st.Ordinal)
		}
	}
}

// limit records a Limit outcome.
func (s *roundSearch) limit(st *model.Step) {
	k := limitKey{st.Msg, st.Pos}
	h := s.limits[k]
	if h == nil {
		h = &search.LimitHit{Msg: st.Msg, Pos: st.Pos}
		s.limits[k] = h
		s.limitOrder = append(s.limitOrder, k)
	}
	h.Count++
}

// limitsHit lists the limits hit, in the order first hit.
func (s *roundSearch) limitsHit() []search.LimitHit {
	var out []search.LimitHit
	for _, k := range s.limitOrder {
		out = append(out, *s.limits[k])
	}
	return out
}

// fail records the first violation; ord is the failing step's ordinal (-1
// for a deadlock or the initial state).
func (s *roundSearch) fail(st *model.Step, ord int) {
	if s.found {
		return
	}
	s.found = true
	s.violation = search.StepViolation(st)
	s.failOrd = ord
}

// path is the trail to abstract state i's representative, then ord when
// it is not negative.
func (s *roundSearch) path(i int32, ord int) []int {
	var rev []int
	if ord >= 0 {
		rev = append(rev, ord)
	}
	for ; s.states[i].parent >= 0; i = s.states[i].parent {
		rev = append(rev, int(s.states[i].ord))
	}
	out := make([]int, len(rev))
	for k, o := range rev {
		out[len(rev)-1-k] = o
	}
	return out
}

// check looks at the limits of the run before an expansion; it returns
// false when the round must stop.
func (s *roundSearch) check() bool {
	cfg := s.r.cfg
	if cfg.Stop != nil && cfg.Stop.Load() {
		s.stopped = "interrupted"
		return false
	}
	s.nextCheck--
	if s.nextCheck > 0 {
		return true
	}
	// an expansion costs a few microseconds, or solver queries with a
	// refiner: the time and memory are looked at every 16 expansions, or
	// every one with a refiner, so that a bound ends a round soon after it
	s.nextCheck = 16
	if s.ref != nil {
		s.nextCheck = 1
	}
	if cfg.MaxMemory > 0 && s.memory() >= cfg.MaxMemory {
		s.stopped = fmt.Sprintf("memory limit reached (--max-memory=%s)", search.FormatBytes(cfg.MaxMemory))
		return false
	}
	if cfg.TimeLimit > 0 && time.Since(s.r.start) >= cfg.TimeLimit {
		s.stopped = fmt.Sprintf("time limit reached (--time-limit=%s)", cfg.TimeLimit)
		return false
	}
	return true
}
