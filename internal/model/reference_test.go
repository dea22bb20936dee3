package model

import (
	"bytes"
	"errors"
	osexec "os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"birch/internal/testenv"
)

// pythonKinds maps the error kinds printed by the reference interpreter
// tools/birsim/bir.py to the model's.
var pythonKinds = map[string]ErrorKind{
	"assert":   Assertion,
	"null":     NullDereference,
	"index":    IndexOutOfBounds,
	"divzero":  DivisionByZero,
	"range":    RangeError,
	"overflow": Overflow,
	"monitor":  IllegalMonitorState,
	"cast":     TypeError,
	"shift":    ShiftCount,
}

// refLine is the summary line of bir.py:
// PATH: states=N transitions=M errors=[...] deadlocks=D limits=L cyclic=...
var refLine = regexp.MustCompile(`^(\S+): states=(\d+) transitions=(\d+) errors=\[(.*)\] deadlocks=(\d+) limits=(\d+) cyclic=(True|False)$`)

// TestReferenceInterpreter compares a full exploration of every example
// (and of testdata/fixed-*.bir) by Next with one by the independent Python
// reference interpreter: the
// numbers of states, transitions, deadlocked states and limit outcomes, and
// the set of error kinds. Both explore past violations.
// refLong are the models TestReferenceInterpreter leaves to BIRCH_LONG=1:
// those that take the reference interpreter longest (msgqueue.bir 40 s of
// CPU, the bounded buffers 2 s each). The interpreter's counts for each are
// pinned in internal/search (exhaustiveCounts, and TestLimits's
// no-deadlock case), where birch's search must match them.
var refLong = map[string]bool{"msgqueue.bir": true, "bounded-buffer-notify.bir": true, "bounded-buffer-notifyall.bir": true}

func TestReferenceInterpreter(t *testing.T) {
	python, err := osexec.LookPath("python3")
	if err != nil {
		t.Skip("python3 is not on PATH; skipping the comparison with tools/birsim/bir.py")
	}
	files, err := filepath.Glob("../../examples/*.bir")
	if err != nil {
		t.Fatal(err)
	}
	if len(files) < 20 {
		t.Fatalf("found only %d examples", len(files))
	}
	amcs, _ := filepath.Glob("../../examples/amcs/*.bir") // Kudra's model families, small
	files = append(files, amcs...)
	more, _ := filepath.Glob("../search/testdata/*.bir")
	fixed, _ := filepath.Glob("testdata/fixed-*.bir") // fixed-width types, conversions, bitwise operators
	if len(fixed) < 2 {
		t.Fatalf("found %d fixed-width test models", len(fixed))
	}
	files = append(append(files, more...), fixed...)
	for _, f := range files {
		name := filepath.Base(f)
		t.Run(name, func(t *testing.T) {
			if refLong[name] && (testing.Short() || !testenv.Long()) {
				testenv.SkipUnlessLong(t)
				t.Skipf("%s takes the reference interpreter seconds of CPU; skipped in -short mode", name)
			}
			t.Parallel()
			var stderr bytes.Buffer
			cmd := osexec.Command(python, "../../tools/birsim/bir.py", f)
			cmd.Stderr = &stderr
			out, err := cmd.Output()
			if err != nil {
				var ee *osexec.ExitError
				if !errors.As(err, &ee) {
					t.Fatalf("running bir.py: %v", err)
				}
				t.Fatalf("bir.py %s: %v\n%s%s", f, err, out, stderr.Bytes())
			}
			first, _, _ := strings.Cut(string(out), "\n")
			sm := refLine.FindStringSubmatch(strings.TrimSpace(first))
			if sm == nil {
				t.Fatalf("bir.py printed an unexpected line: %q\n%s", first, stderr.Bytes())
			}
			num := func(i int) int {
				n, err := strconv.Atoi(sm[i])
				if err != nil {
					t.Fatal(err)
				}
				return n
			}
			var pyKinds []string
			for _, k := range strings.Split(sm[4], ",") {
				k = strings.Trim(strings.TrimSpace(k), `'"`)
				// invariants are checked by the search (search.WithStateCheck), not by Next
				if k != "" && !strings.HasPrefix(k, "invariant ") {
					pyKinds = append(pyKinds, k)
				}
			}
			slices.Sort(pyKinds)

			m := load(t, f)
			r := bfs(m, 1<<30)
			var goKinds []string
			for k := range r.errors {
				kn := k.String()
				for pn, pk := range pythonKinds {
					if pk == k {
						kn = pn
					}
				}
				goKinds = append(goKinds, kn)
			}
			slices.Sort(goKinds)

			if r.states != num(2) || r.transitions != num(3) || r.deadlocks != num(5) || r.limits != num(6) || !slices.Equal(goKinds, pyKinds) {
				t.Errorf("model: states=%d transitions=%d errors=%v deadlocks=%d limits=%d\nbir.py: states=%s transitions=%s errors=%v deadlocks=%s limits=%s",
					r.states, r.transitions, goKinds, r.deadlocks, r.limits, sm[2], sm[3], pyKinds, sm[5], sm[6])
			}
		})
	}
}

// TestNextAllocs checks that Next allocates nothing per call once its
// buffers have grown (with the default options: no verification of the
// encodings).
func TestNextAllocs(t *testing.T) {
	// Models whose outcomes are all successor states: an Error or Limit
	// outcome formats its message, which may allocate.
	for _, name := range []string{"peterson.bir", "msgqueue.bir", "choose.bir", "factorial.bir", "dynamic-threads.bir", "bounded-buffer-notifyall.bir", "heap-list.bir", "reentrant.bir", "invisible.bir"} {
		t.Run(name, func(t *testing.T) {
			// not load: the tests' load turns on the verification of
			// every encoding, which decodes into a fresh slice
			m := loadDefault(t, "../../examples/"+name)
			states := firstStates(t, m, 300)
			calls := 0
			yield := func(st *Step) { calls++ }
			for range 3 { // warm-up
				for _, s := range states {
					m.Next(s, yield)
				}
			}
			allocs := testing.AllocsPerRun(50, func() {
				for _, s := range states {
					m.Next(s, yield)
				}
			})
			if calls == 0 {
				t.Fatal("no outcomes")
			}
			if allocs != 0 {
				t.Errorf("Next allocates: %.2f allocations per pass over %d states (%.3f per call)", allocs, len(states), allocs/float64(len(states)))
			}
			// one state at a time too
			for i, s := range states[:min(len(states), 20)] {
				if a := testing.AllocsPerRun(20, func() { m.Next(s, yield) }); a != 0 {
					t.Errorf("Next on state %d (breadth-first order) allocates %.2f times per call", i, a)
				}
			}
		})
	}
}

// loadDefault compiles a BIR file with the default options, as birch
// check does.
func loadDefault(t *testing.T, path string) *Model {
	t.Helper()
	m := loadOpts(t, path, Options{})
	m.checkEncoding = false
	return m
}

// firstStates returns up to n states of m in breadth-first order.
func firstStates(t *testing.T, m *Model, n int) [][]byte {
	t.Helper()
	s0, fail := m.Initial(nil)
	if fail != nil {
		t.Fatalf("initial state: %s", fail.Msg)
	}
	seen := map[string]bool{string(s0): true}
	states := [][]byte{s0}
	for i := 0; i < len(states) && len(states) < n; i++ {
		m.Next(states[i], func(st *Step) {
			if st.Outcome == OK && !seen[string(st.State)] && len(states) < n {
				seen[string(st.State)] = true
				states = append(states, bytes.Clone(st.State))
			}
		})
	}
	return states
}
