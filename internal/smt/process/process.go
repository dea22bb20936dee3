// Package process runs SMT-LIB2 solvers — z3 and cvc5 — as child
// processes in incremental mode and presents each as an smt.Solver. It is
// the cross-checking back end: slower than the embedded solver (a round
// trip through a pipe per query) but independent of it.
//
// Commands that have no answer (declare-fun, assert, push, pop) are
// buffered and sent with the next query, so each Check costs one round
// trip. Symbols are declared on first use with :global-declarations, so
// that popping a scope never undeclares them, as smt.Solver requires.
package process

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"birch/internal/procgroup"
	"birch/internal/smt"
	"birch/internal/smt/smtlib"
)

// A Kind names a supported solver program.
type Kind string

const (
	Z3   Kind = "z3"
	CVC5 Kind = "cvc5"
)

// Solver is an SMT-LIB2 solver process.
type Solver struct {
	kind   Kind
	tm     *smt.TermManager
	cmd    *exec.Cmd
	stdin  io.WriteCloser
	stdout io.ReadCloser
	w      *bufio.Writer
	r      *bufio.Reader
	stderr *limitedBuffer

	elab     *smtlib.Elaborator
	declared map[*smt.Symbol]bool
	sorts    map[*smt.Sort]bool
	seen     map[*smt.Term]bool // terms whose symbols are declared

	level   int
	err     error // sticky: reported by the next query
	broken  error // the process is unusable
	limit   smt.Limit
	state   int // bumped by every change; a model is valid while it is unchanged
	satAt   int // state at the last Sat, or -1
	unsatAt int // state at the last CheckAssumptions Unsat, or -1

	ctx     context.Context // its end kills the process
	unwatch func() bool     // stops watching ctx

	// Non-literal assumptions are named by fresh Bool constants defined at
	// the scope level where they were introduced.
	names    map[*smt.Term]assumption
	nnames   int
	lastLits map[string]*smt.Term // printed literal -> assumption, for the last CheckAssumptions
}

type assumption struct {
	lit   string // the printed literal used in check-sat-assuming
	level int
}

// New starts the solver program kind. A missing program gives the error
// "smt: z3 not found on PATH; install it with apt-get install z3".
func New(tm *smt.TermManager, kind Kind) (*Solver, error) {
	return NewContext(context.Background(), tm, kind)
}

// NewContext is New with a context: when ctx is done, the solver's process
// and everything it started are killed, the query under way (if any)
// returns an error, and the solver is unusable.
//
// The program runs in a process group of its own, so that a time limit
// or ctx ends the helpers it started too, and no answer is awaited from a
// pipe that a surviving helper holds open.
func NewContext(ctx context.Context, tm *smt.TermManager, kind Kind) (*Solver, error) {
	var args []string
	switch kind {
	case Z3:
		args = []string{"-in", "-smt2"}
	case CVC5:
		args = []string{"--incremental", "--lang", "smt2"}
	default:
		return nil, fmt.Errorf("smt: unknown solver program %q", kind)
	}
	path, err := exec.LookPath(string(kind))
	if err != nil {
		return nil, fmt.Errorf("smt: %s not found on PATH; install it with apt-get install %s", kind, kind)
	}
	cmd := exec.Command(path, args...)
	cmd.SysProcAttr = procgroup.Attr()
	// Wait returns this long after the process ended even if a helper it
	// started still holds stderr open
	cmd.WaitDelay = time.Second
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	stderr := &limitedBuffer{max: 4096}
	cmd.Stderr = stderr
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("smt: starting %s: %v", kind, err)
	}
	s := &Solver{
		kind: kind, tm: tm, cmd: cmd, stdin: stdin, stdout: stdout, w: bufio.NewWriterSize(stdin, 1<<16),
		r: bufio.NewReaderSize(stdout, 1<<16), stderr: stderr,
		elab: smtlib.NewElaborator(tm), declared: map[*smt.Symbol]bool{}, sorts: map[*smt.Sort]bool{},
		seen: map[*smt.Term]bool{}, satAt: -1, unsatAt: -1, names: map[*smt.Term]assumption{},
	}
	s.ctx = ctx
	proc := cmd.Process
	s.unwatch = context.AfterFunc(ctx, func() { s.stop(proc) })
	s.w.WriteString("(set-option :print-success false)\n")
	s.w.WriteString("(set-option :produce-models true)\n")
	s.w.WriteString("(set-option :produce-unsat-assumptions true)\n")
	s.w.WriteString("(set-option :global-declarations true)\n")
	if kind == CVC5 {
		s.w.WriteString("(set-logic ALL)\n")
	}
	return s, nil
}

// Available reports whether the program kind is on PATH.
func Available(kind Kind) bool {
	_, err := exec.LookPath(string(kind))
	return err == nil
}

// TermManager returns the solver's term manager.
func (s *Solver) TermManager() *smt.TermManager { return s.tm }

// Kind returns which program runs.
func (s *Solver) Kind() Kind { return s.kind }

// Assert adds t to the current scope.
func (s *Solver) Assert(t *smt.Term) {
	s.state++
	if !t.IsBool() {
		s.setErr(fmt.Errorf("smt: Assert: %s is not a formula", t))
		return
	}
	if err := s.declare(t); err != nil {
		s.setErr(err)
		return
	}
	s.w.WriteString("(assert ")
	smt.Fprint(s.w, t)
	s.w.WriteString(")\n")
}

// Push opens a scope.
func (s *Solver) Push() {
	s.state++
	s.level++
	s.w.WriteString("(push 1)\n")
}

// Pop closes n scopes.
func (s *Solver) Pop(n int) {
	s.state++
	if n <= 0 {
		return
	}
	if n > s.level {
		s.setErr(fmt.Errorf("smt: Pop(%d) with %d scopes open", n, s.level))
		n = s.level
		if n == 0 {
			return
		}
	}
	s.level -= n
	for t, a := range s.names {
		if a.level > s.level {
			delete(s.names, t)
		}
	}
	s.w.WriteString("(pop " + strconv.Itoa(n) + ")\n")
}

// SetLimit bounds each later query.
func (s *Solver) SetLimit(l smt.Limit) {
	s.limit = l
	ms := l.Timeout.Milliseconds()
	if l.Timeout > 0 && ms == 0 {
		ms = 1
	}
	switch s.kind {
	case Z3:
		if ms > 0 {
			fmt.Fprintf(s.w, "(set-option :timeout %d)\n", ms)
		} else {
			s.w.WriteString("(set-option :timeout 4294967295)\n")
		}
		fmt.Fprintf(s.w, "(set-option :rlimit %d)\n", l.Steps)
	case CVC5:
		fmt.Fprintf(s.w, "(set-option :tlimit-per %d)\n", ms)
		fmt.Fprintf(s.w, "(set-option :rlimit-per %d)\n", l.Steps)
	}
}

// Check decides the assertions.
func (s *Solver) Check() (smt.Result, error) {
	return s.check("(check-sat)\n", nil)
}

// CheckAssumptions decides the assertions together with lits.
func (s *Solver) CheckAssumptions(lits []*smt.Term) (smt.Result, error) {
	var b strings.Builder
	b.WriteString("(check-sat-assuming (")
	s.lastLits = map[string]*smt.Term{}
	for i, l := range lits {
		if !l.IsBool() {
			s.setErr(fmt.Errorf("smt: CheckAssumptions: %s is not a formula", l))
			break
		}
		lit, err := s.literal(l)
		if err != nil {
			s.setErr(err)
			break
		}
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(lit)
		if _, dup := s.lastLits[lit]; !dup {
			s.lastLits[lit] = l
		}
	}
	b.WriteString("))\n")
	return s.check(b.String(), lits)
}

// literal returns the printed literal standing for assumption l: l itself
// when it is a Bool constant or its negation, else a fresh constant
// defined equal to l.
func (s *Solver) literal(l *smt.Term) (string, error) {
	if l.Op() == smt.OpVar || l.Op() == smt.OpTrue || l.Op() == smt.OpFalse ||
		(l.Op() == smt.OpNot && l.Arg(0).Op() == smt.OpVar) {
		if err := s.declare(l); err != nil {
			return "", err
		}
		return l.String(), nil
	}
	if a, ok := s.names[l]; ok {
		return a.lit, nil
	}
	if err := s.declare(l); err != nil {
		return "", err
	}
	s.nnames++
	name := "|birch!a" + strconv.Itoa(s.nnames) + "|"
	s.w.WriteString("(declare-fun " + name + " () Bool)\n(assert (= " + name + " ")
	smt.Fprint(s.w, l)
	s.w.WriteString("))\n")
	s.names[l] = assumption{lit: name, level: s.level}
	return name, nil
}

func (s *Solver) check(cmd string, lits []*smt.Term) (smt.Result, error) {
	s.state++
	s.satAt, s.unsatAt = -1, -1
	if err := s.takeErr(); err != nil {
		return smt.Unknown, err
	}
	s.w.WriteString(cmd)
	text, err := s.roundTrip(s.queryDeadline())
	if err != nil {
		return smt.Unknown, err
	}
	switch strings.TrimSpace(text) {
	case "sat":
		s.satAt = s.state
		return smt.Sat, nil
	case "unsat":
		if lits != nil {
			s.unsatAt = s.state
		}
		return smt.Unsat, nil
	case "unknown", "timeout":
		return smt.Unknown, nil
	}
	return smt.Unknown, fmt.Errorf("smt: %s answered %q to check-sat", s.kind, text)
}

// queryDeadline is how long to wait for an answer before killing the
// process: the solver enforces the limit itself and answers unknown; this
// is the backstop for one that does not, a little past the limit.
func (s *Solver) queryDeadline() time.Duration {
	if s.limit.Timeout > 0 {
		return s.limit.Timeout + deadlineGrace
	}
	return 0
}

// deadlineGrace is how long past its time limit a query may take to answer
// before its process is killed.
const deadlineGrace = 500 * time.Millisecond

// stop kills the process group of proc and closes the end of the pipe the
// answers come from, which ends a read under way even when a process
// outside the group still holds the pipe open. It may run concurrently
// with a query.
func (s *Solver) stop(proc *os.Process) {
	procgroup.Kill(proc.Pid, syscall.SIGKILL)
	proc.Kill()
	s.stdout.Close()
}

// roundTrip flushes the buffered commands (the last of which has an
// answer) and reads the answer. Error answers become errors.
func (s *Solver) roundTrip(deadline time.Duration) (string, error) {
	if s.broken != nil {
		return "", s.broken
	}
	if err := s.w.Flush(); err != nil {
		return "", s.fail(fmt.Errorf("smt: writing to %s: %v", s.kind, err))
	}
	// The solver enforces the limit itself; past the deadline the process
	// is killed, which ends the read below.
	var expired atomic.Bool
	if deadline > 0 {
		proc := s.cmd.Process
		t := time.AfterFunc(deadline, func() {
			expired.Store(true)
			s.stop(proc)
		})
		defer t.Stop()
	}
	var errs []string
	for {
		text, err := smtlib.ReadResponse(s.r)
		if err != nil {
			if expired.Load() {
				return "", s.fail(fmt.Errorf("smt: %s did not answer within %v; stopped it", s.kind, deadline))
			}
			if s.ctx.Err() != nil {
				return "", s.fail(fmt.Errorf("smt: %s was stopped: %v", s.kind, context.Cause(s.ctx)))
			}
			return "", s.fail(fmt.Errorf("smt: %s stopped: %s", s.kind, s.diagnosis(err)))
		}
		text = strings.TrimSpace(text)
		if strings.HasPrefix(text, "(error") {
			errs = append(errs, errorMessage(text))
			continue
		}
		if text == "unsupported" || text == "success" {
			continue
		}
		if len(errs) > 0 {
			return "", fmt.Errorf("smt: %s: %s", s.kind, strings.Join(errs, "; "))
		}
		return text, nil
	}
}

func errorMessage(text string) string {
	if nodes, err := smtlib.Parse(text); err == nil && len(nodes) == 1 && len(nodes[0].Kids) == 2 && nodes[0].Kids[1].Kind == smtlib.String {
		return strings.TrimSpace(nodes[0].Kids[1].Text)
	}
	return text
}

func (s *Solver) diagnosis(err error) string {
	msg := strings.TrimSpace(s.stderr.String())
	if msg == "" && err != nil {
		msg = err.Error()
	}
	if i := strings.IndexByte(msg, '\n'); i >= 0 {
		msg = msg[:i]
	}
	return msg
}

// fail marks the process unusable and stops it.
func (s *Solver) fail(err error) error {
	if s.broken == nil {
		s.broken = err
		s.kill()
	}
	return err
}

func (s *Solver) setErr(err error) {
	if s.err == nil {
		s.err = err
	}
}

func (s *Solver) takeErr() error {
	err := s.err
	s.err = nil
	if err == nil {
		err = s.broken
	}
	return err
}

// declare sends declarations for the sorts and symbols of t not yet
// declared.
func (s *Solver) declare(t *smt.Term) error {
	var err error
	var walk func(t *smt.Term)
	walk = func(t *smt.Term) {
		if s.seen[t] || err != nil {
			return
		}
		switch t.Op() {
		case smt.OpBound:
			err = fmt.Errorf("smt: %s cannot take a term with parameters: %s", s.kind, t)
			return
		case smt.OpValue:
			err = fmt.Errorf("smt: %s cannot take abstract values: %s", s.kind, t)
			return
		}
		for _, a := range t.Args() {
			walk(a)
		}
		if err != nil {
			return
		}
		if sym := t.Symbol(); sym != nil && !s.declared[sym] {
			for _, so := range append(append([]*smt.Sort(nil), sym.Params()...), sym.Result()) {
				s.declareSort(so)
			}
			s.declared[sym] = true
			s.elab.Symbols[sym.Name()] = sym
			s.w.WriteString(smt.DeclString(sym) + "\n")
		}
		s.declareSort(t.Sort())
		s.seen[t] = true
	}
	walk(t)
	return err
}

func (s *Solver) declareSort(so *smt.Sort) {
	switch so.Kind() {
	case smt.KindArray:
		s.declareSort(so.Index())
		s.declareSort(so.Elem())
	case smt.KindUninterpreted:
		if !s.sorts[so] {
			s.sorts[so] = true
			s.elab.Sorts[so.Name()] = so
			s.w.WriteString("(declare-sort " + so.String() + " 0)\n")
		}
	}
}

// Model returns the model after Sat.
func (s *Solver) Model() (*smt.Model, error) {
	if s.satAt != s.state {
		return nil, errors.New("smt: no model: the last query was not sat, or the assertions changed since")
	}
	s.w.WriteString("(get-model)\n")
	text, err := s.roundTrip(s.queryDeadline())
	if err != nil {
		return nil, err
	}
	m, err := smtlib.ReadModel(s.elab, text)
	if err != nil {
		return nil, fmt.Errorf("smt: reading %s's model: %v", s.kind, err)
	}
	return m, nil
}

// UnsatCore returns the assumptions in the core after an Unsat
// CheckAssumptions.
func (s *Solver) UnsatCore() ([]*smt.Term, error) {
	if s.unsatAt != s.state {
		return nil, errors.New("smt: no unsat core: the last query was not an unsat CheckAssumptions")
	}
	s.w.WriteString("(get-unsat-assumptions)\n")
	text, err := s.roundTrip(s.queryDeadline())
	if err != nil {
		return nil, err
	}
	nodes, err := smtlib.Parse(text)
	if err != nil || len(nodes) != 1 || nodes[0].Kind != smtlib.List {
		return nil, fmt.Errorf("smt: malformed unsat core from %s: %.80s", s.kind, text)
	}
	var core []*smt.Term
	for _, n := range nodes[0].Kids {
		key := n.String()
		if n.Kind == smtlib.Symbol && n.Quoted {
			key = "|" + n.Text + "|"
		}
		t, ok := s.lastLits[key]
		if !ok {
			// The solver may quote differently: compare by name.
			for lit, u := range s.lastLits {
				if strings.Trim(lit, "|") == strings.Trim(key, "|") {
					t, ok = u, true
					break
				}
			}
		}
		if !ok {
			return nil, fmt.Errorf("smt: %s's unsat core names %s, which is not an assumption", s.kind, key)
		}
		core = append(core, t)
	}
	return core, nil
}

// Close stops the process.
func (s *Solver) Close() error {
	if s.cmd == nil {
		return nil
	}
	if s.broken == nil {
		s.w.WriteString("(exit)\n")
		s.w.Flush()
		s.stdin.Close()
		done := make(chan struct{})
		go func() {
			s.cmd.Wait()
			close(done)
		}()
		select {
		case <-done:
			// helpers the solver left behind go with it
			procgroup.Kill(s.cmd.Process.Pid, syscall.SIGKILL)
		case <-time.After(time.Second):
			s.stop(s.cmd.Process)
			<-done
		}
	} else {
		s.kill()
	}
	s.unwatch()
	s.cmd = nil
	if s.broken == nil {
		s.broken = errors.New("smt: solver closed")
	}
	return nil
}

func (s *Solver) kill() {
	if s.cmd != nil && s.cmd.Process != nil {
		s.stdin.Close()
		s.stop(s.cmd.Process)
		s.cmd.Wait()
		s.unwatch()
		s.cmd = nil
	}
}

// limitedBuffer keeps the first max bytes written to it.
type limitedBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
	max int
}

func (b *limitedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if room := b.max - b.buf.Len(); room > 0 {
		if len(p) > room {
			b.buf.Write(p[:room])
		} else {
			b.buf.Write(p)
		}
	}
	return len(p), nil
}

func (b *limitedBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

var _ smt.Solver = (*Solver)(nil)
