package bp

import (
	"fmt"

	"birch/internal/bir/ast"
	"birch/internal/bir/types"
)

// bounds says why BIR's bounds may cut paths of prog that its boolean
// program follows, or "": a cycle of calls (BIR stops a thread at 64
// active calls, model.Options.MaxCallDepth), a chain of more calls than
// that, or a cycle of invisible transformations (BIR stops an invisible
// run after 10000, model.Options.MaxInvisible). A boolean program has
// neither bound, so where one of these can be reached its verdict may
// differ from birch check's on the BIR model: a failure beyond the bound
// (the trail does not replay), or a pass where birch check is
// inconclusive because the bound cut a path.
func bounds(prog *types.Program) string {
	calls := map[*types.Proc][]*types.Proc{}
	procs := append(append([]*types.Proc(nil), prog.Threads...), prog.Functions...)
	for _, p := range procs {
		for _, l := range p.Locations {
			for _, t := range l.Decl.Transformations {
				for _, a := range t.Actions {
					if c, ok := a.(*ast.CallAction); ok {
						if f, ok := prog.Info.Uses[c.Func].(*types.Proc); ok {
							calls[p] = append(calls[p], f)
						}
					}
				}
			}
		}
	}
	// the longest chain of calls from each procedure, or a cycle
	const onPath = -1
	depth := map[*types.Proc]int{}
	var cycle *types.Proc
	var visit func(p *types.Proc) int
	visit = func(p *types.Proc) int {
		if d, ok := depth[p]; ok {
			if d == onPath && cycle == nil {
				cycle = p
			}
			return d
		}
		depth[p] = onPath
		d := 0
		for _, f := range calls[p] {
			if e := visit(f); e >= 0 && e+1 > d {
				d = e + 1
			}
		}
		depth[p] = d
		return d
	}
	for _, p := range procs {
		if d := visit(p); cycle == nil && p.Thread && d >= 64 {
			return fmt.Sprintf("%s makes chains of %d calls: BIR stops a thread at 64 active calls, a boolean program does not", p.Name(), d)
		}
	}
	if cycle != nil {
		return fmt.Sprintf("%s is recursive: BIR stops a thread at 64 active calls, a boolean program does not", cycle.Name())
	}
	for _, p := range procs {
		if l := invisibleCycle(p); l != nil {
			return fmt.Sprintf("the invisible transformations of %s go round through %s: BIR stops an invisible run after 10000 transformations, a boolean program does not", p.Name(), l.Name())
		}
	}
	return ""
}

// invisibleCycle returns a location of p on a cycle of invisible
// transformations, or nil.
func invisibleCycle(p *types.Proc) *types.Location {
	state := map[*types.Location]int{} // 1 on the path, 2 done
	var found *types.Location
	var visit func(l *types.Location)
	visit = func(l *types.Location) {
		state[l] = 1
		for _, t := range l.Decl.Transformations {
			if !t.Invisible || t.Return || found != nil {
				continue
			}
			to := p.Location(t.Target.Name)
			switch {
			case to == nil:
			case state[to] == 1:
				found = to
			case state[to] == 0:
				visit(to)
			}
		}
		state[l] = 2
	}
	for _, l := range p.Locations {
		if state[l] == 0 && found == nil {
			visit(l)
		}
	}
	return found
}
