package boolprog

import (
	"fmt"

	"birch/internal/source"
)

// replayTrail checks, on the tree and independently of the checker's
// control-flow graph, that a trail is an execution of the program: it starts
// at main's first statement, every step follows from the one before by the
// statement of that step (with a call stack for calls and returns), every
// state satisfies its procedure's enforce, and the last step is an assertion
// that can fail in its state. It returns nil or what is wrong.
func replayTrail(fset *source.FileSet, info *Info, res *Result) error {
	r := &replayer{fset: fset, info: info, at: map[source.Position]Stmt{}, next: map[Stmt]Stmt{}, ends: map[source.Position]*ProcInfo{}}
	for _, pi := range info.Procs {
		r.ends[fset.Position(pi.Proc.EndPos)] = pi
		r.walk(pi.Proc.Body, nil)
	}
	trail := res.Trail
	if len(trail) == 0 {
		return fmt.Errorf("empty trail")
	}
	type frame struct {
		call *CallStmt
		vals []bool
		proc *ProcInfo
	}
	var stack []frame
	proc := info.Main
	if first := r.at[trail[0].Pos]; first == nil || first != unlabel(r.first(proc.Proc.Body)) || trail[0].Proc != "main" {
		return fmt.Errorf("step 1 is not main's first statement")
	}
	ng := len(info.Globals)
	for i, st := range trail {
		if st.Proc != proc.Proc.Name.Name || len(st.Values) != ng+len(proc.Vars) {
			return fmt.Errorf("step %d: in %s with %d values, want %s", i+1, st.Proc, len(st.Values), proc.Proc.Name.Name)
		}
		vals := make([]bool, len(st.Values))
		for j, v := range st.Values {
			vals[j] = v.Value
		}
		env := replayEnv{r, proc, vals}
		if e := proc.Proc.Enforce; e != nil && !env.may(e, true) {
			return fmt.Errorf("step %d violates enforce", i+1)
		}
		s := r.at[st.Pos]
		if s == nil && r.ends[st.Pos] != proc {
			return fmt.Errorf("step %d: no statement at %s", i+1, st.Pos)
		}
		if i == len(trail)-1 {
			a, ok := s.(*AssertStmt)
			if !ok || !env.may(a.Cond, false) {
				return fmt.Errorf("the last step is not a failing assertion")
			}
			return nil
		}
		nx := trail[i+1]
		nvals := make([]bool, len(nx.Values))
		for j, v := range nx.Values {
			nvals[j] = v.Value
		}
		same := func(except map[int]bool) bool {
			if len(nvals) != len(vals) {
				return false
			}
			for j := range vals {
				if !except[j] && vals[j] != nvals[j] {
					return false
				}
			}
			return true
		}
		goesTo := func(target Stmt) bool { return r.at[nx.Pos] == unlabel(target) && nx.Proc == st.Proc }
		toNext := func() bool {
			if n := r.next[s]; n != nil {
				return goesTo(n)
			}
			return nx.Proc == st.Proc && r.ends[nx.Pos] == proc
		}
		ok := false
		switch s := s.(type) {
		case nil: // the procedure's end: return unconstrained values
			if len(stack) == 0 {
				return fmt.Errorf("step %d: main returns", i+1)
			}
			f := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			ok, proc = r.returnsTo(f.proc, f.call, f.vals, vals[:ng], nil, nx), f.proc
		case *SkipStmt, *AssumeStmt, *AssertStmt:
			ok = toNext() && same(nil)
			switch s := s.(type) {
			case *AssumeStmt:
				ok = ok && env.may(s.Cond, true)
			case *AssertStmt:
				ok = ok && env.may(s.Cond, true)
			}
		case *AssignStmt:
			changed := map[int]bool{}
			for j, x := range s.Lhs {
				k := env.slot(x)
				changed[k] = true
				ok2 := env.may(s.Rhs[j], nvals[k])
				if !ok2 {
					return fmt.Errorf("step %d: %s cannot become %v", i+1, x.Name, nvals[k])
				}
			}
			ok = toNext() && same(changed)
		case *GotoStmt:
			for _, x := range s.Targets {
				ok = ok || goesTo(info.Targets[x])
			}
			ok = ok && same(nil)
		case *IfStmt:
			ok = same(nil) && (env.may(s.Cond, true) && goesTo(r.first(s.Then)) ||
				env.may(s.Cond, false) && (len(s.Else) > 0 && goesTo(r.first(s.Else)) || len(s.Else) == 0 && toNext()))
		case *WhileStmt:
			ok = same(nil) && (env.may(s.Cond, true) && goesTo(r.first(s.Body)) || env.may(s.Cond, false) && toNext())
		case *CallStmt:
			callee := info.Callees[s]
			ok = nx.Proc == callee.Proc.Name.Name && r.at[nx.Pos] == unlabel(r.first(callee.Proc.Body)) && len(nvals) == ng+len(callee.Vars)
			for j := 0; ok && j < ng; j++ {
				ok = vals[j] == nvals[j]
			}
			for j, a := range s.Args {
				ok = ok && env.may(a, nvals[ng+j])
			}
			stack = append(stack, frame{s, vals, proc})
			proc = callee
		case *ReturnStmt:
			if len(stack) == 0 {
				return fmt.Errorf("step %d: main returns", i+1)
			}
			f := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			ok, proc = r.returnsTo(f.proc, f.call, f.vals, vals[:ng], func(j int, b bool) bool { return env.may(s.Results[j], b) }, nx), f.proc
		}
		if !ok {
			return fmt.Errorf("step %d (%s %s) does not lead to step %d (%s %s)", i+1, st.Pos, st.Stmt, i+2, nx.Pos, nx.Stmt)
		}
	}
	return nil
}

type replayer struct {
	fset *source.FileSet
	info *Info
	at   map[source.Position]Stmt      // statements (labels removed) by position
	next map[Stmt]Stmt                 // the statement after each; nil: the procedure's end
	ends map[source.Position]*ProcInfo // procedures by the position of their end
}

func (r *replayer) first(list []Stmt) Stmt {
	if len(list) == 0 {
		return nil
	}
	return list[0]
}

// walk records positions and successors; follow is the statement after the
// list (nil: the procedure's end).
func (r *replayer) walk(list []Stmt, follow Stmt) {
	for i, s := range list {
		after := follow
		if i+1 < len(list) {
			after = unlabel(list[i+1])
		}
		s = unlabel(s)
		r.at[r.fset.Position(s.Pos())] = s
		r.next[s] = after
		switch s := s.(type) {
		case *IfStmt:
			r.walk(s.Then, after)
			r.walk(s.Else, after)
		case *WhileStmt:
			r.walk(s.Body, s)
		}
	}
}

// returnsTo checks that step nx continues the caller after call, with the
// callee's globals g and results allowed by result (nil: any).
func (r *replayer) returnsTo(caller *ProcInfo, call *CallStmt, callerVals, g []bool, result func(int, bool) bool, nx Step) bool {
	if nx.Proc != caller.Proc.Name.Name || len(nx.Values) != len(callerVals) {
		return false
	}
	if n := r.next[call]; n != nil {
		if r.at[nx.Pos] != n {
			return false
		}
	} else if r.ends[nx.Pos] != caller {
		return false
	}
	want := append(append([]bool(nil), g...), callerVals[len(g):]...)
	env := replayEnv{r, caller, want}
	assigned := map[int]int{}
	for j, x := range call.Lhs {
		assigned[env.slot(x)] = j
	}
	for k, v := range nx.Values {
		if j, ok := assigned[k]; ok {
			if result != nil && !result(j, v.Value) {
				return false
			}
		} else if v.Value != want[k] {
			return false
		}
	}
	return true
}

type replayEnv struct {
	r    *replayer
	proc *ProcInfo
	vals []bool // globals, then the procedure's variables
}

func (e replayEnv) slot(x *Ident) int {
	v := e.r.info.Uses[x]
	if v.Global() {
		return v.Index
	}
	return len(e.r.info.Globals) + v.Index
}

func (e replayEnv) may(x Expr, want bool) bool {
	o := &oracle{info: e.r.info}
	var g, l uint64
	ng := len(e.r.info.Globals)
	for i, b := range e.vals {
		if !b {
			continue
		}
		if i < ng {
			g |= 1 << i
		} else {
			l |= 1 << (i - ng)
		}
	}
	return o.may(x, ostate{g, l}, want)
}
