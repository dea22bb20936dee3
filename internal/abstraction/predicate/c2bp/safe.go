package c2bp

import (
	"fmt"
	"os"
	"strings"
	"time"

	"birch/internal/smt"
	"birch/internal/smt/solvers"
)

// safeSolver wraps a solver so that a panic inside a query (a bug of the
// solver) becomes an undecided answer, which the abstraction treats as
// "no" (sound), and the solver is replaced by a fresh one with as many
// open scopes, since its state after a panic cannot be trusted.
type safeSolver struct {
	name   string
	s      smt.Solver
	depth  int
	asked  []*smt.Term // the assertions of the open scopes, for the report
	panics int
	trace  []string // with C2BP_SOLVER_PANIC set: every operation, for a report
	all    []*smt.Term
}

func (s *safeSolver) log(op string) {
	if os.Getenv("C2BP_SOLVER_PANIC") != "" {
		s.trace = append(s.trace, op)
	}
}

// queryLimit bounds each query: a cube query is small, and one the
// solver cannot decide within it (nonlinear arithmetic, say) counts as
// "no". The step bound is deterministic; the time bound is a safety net.
var queryLimit = smt.Limit{Steps: 20000, Timeout: time.Second}

func newSafeSolver(name string, tm *smt.TermManager) (*safeSolver, error) {
	s, err := solvers.New(name, tm)
	if err != nil {
		return nil, err
	}
	s.SetLimit(queryLimit)
	return &safeSolver{name: name, s: s}, nil
}

func (s *safeSolver) TermManager() *smt.TermManager { return s.s.TermManager() }
func (s *safeSolver) Assert(t *smt.Term) {
	if os.Getenv("C2BP_SOLVER_PANIC") != "" {
		s.all = append(s.all, t)
	}
	s.log("(assert " + smt.Sprint(t) + ")")
	s.asked = append(s.asked, t)
	s.s.Assert(t)
}
func (s *safeSolver) Push() { s.log("(push 1)"); s.depth++; s.s.Push() }
func (s *safeSolver) Pop(n int) {
	s.log(fmt.Sprintf("(pop %d)", n))
	s.depth -= n
	if s.depth <= 0 {
		s.asked = nil
	}
	s.s.Pop(n)
}
func (s *safeSolver) Model() (*smt.Model, error)      { return s.s.Model() }
func (s *safeSolver) UnsatCore() ([]*smt.Term, error) { return s.s.UnsatCore() }
func (s *safeSolver) SetLimit(l smt.Limit)            { s.s.SetLimit(l) }
func (s *safeSolver) Close() error                    { return s.s.Close() }
func (s *safeSolver) Check() (smt.Result, error)      { return s.CheckAssumptions(nil) }
func (s *safeSolver) CheckAssumptions(lits []*smt.Term) (r smt.Result, err error) {
	defer func() {
		if p := recover(); p != nil {
			s.panics++
			if os.Getenv("C2BP_SOLVER_PANIC") != "" {
				var b strings.Builder
				for _, sym := range smt.Symbols(s.all...) {
					b.WriteString(smt.DeclString(sym) + "\n")
				}
				for _, op := range s.trace {
					b.WriteString(op + "\n")
				}
				b.WriteString("(check-sat)\n")
				os.WriteFile(os.Getenv("C2BP_SOLVER_PANIC"), []byte(b.String()), 0o644)
				fmt.Fprintf(os.Stderr, "solver panic: %v\n", p)
			}
			fresh, ferr := solvers.New(s.name, s.s.TermManager())
			if ferr != nil {
				r, err = smt.Unknown, ferr
				return
			}
			s.s.Close()
			s.s = fresh
			s.s.SetLimit(queryLimit)
			for i := 0; i < s.depth; i++ {
				s.s.Push()
			}
			r, err = smt.Unknown, nil
		}
	}()
	s.log("(check-sat)")
	if lits == nil {
		return s.s.Check()
	}
	return s.s.CheckAssumptions(lits)
}
