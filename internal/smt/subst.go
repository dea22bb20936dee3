package smt

import "fmt"

// Substitute returns t with every occurrence of a key of sub replaced by its
// value, simultaneously (values are not themselves rewritten). Keys are
// usually variables, but any term may be replaced; each value must have its
// key's sort. The result is built with the plain constructors, not
// simplified: weakest preconditions are Substitute(post, {x: e}) followed
// by Simplify when wanted.
func (tm *TermManager) Substitute(t *Term, sub map[*Term]*Term) *Term {
	for k, v := range sub {
		if k.sort != v.sort {
			panic(fmt.Sprintf("smt: Substitute: %s has sort %s, its replacement %s", k, k.sort, v.sort))
		}
	}
	memo := make(map[*Term]*Term)
	var walk func(t *Term) *Term
	walk = func(t *Term) *Term {
		if v, ok := sub[t]; ok {
			return v
		}
		if len(t.args) == 0 {
			return t
		}
		if v, ok := memo[t]; ok {
			return v
		}
		args, changed := tm.mapArgs(t, walk)
		r := t
		if changed {
			r = tm.rebuild(t, args)
		}
		memo[t] = r
		return r
	}
	return walk(t)
}

// SubstituteBound returns t with each parameter tm.Bound(i, s) replaced by
// args[i]; this instantiates a function body (define-fun, a model's
// FuncValue.Body). Parameters beyond len(args) stay as they are.
func (tm *TermManager) SubstituteBound(t *Term, args []*Term) *Term {
	memo := make(map[*Term]*Term)
	var walk func(t *Term) *Term
	walk = func(t *Term) *Term {
		if t.op == OpBound {
			if int(t.small) < len(args) {
				a := args[t.small]
				if a.sort != t.sort {
					panic(fmt.Sprintf("smt: SubstituteBound: parameter %d has sort %s, argument %s", t.small, t.sort, a.sort))
				}
				return a
			}
			return t
		}
		if len(t.args) == 0 {
			return t
		}
		if v, ok := memo[t]; ok {
			return v
		}
		nargs, changed := tm.mapArgs(t, walk)
		r := t
		if changed {
			r = tm.rebuild(t, nargs)
		}
		memo[t] = r
		return r
	}
	return walk(t)
}

// mapArgs applies f to t's arguments; it allocates only when one changes.
func (tm *TermManager) mapArgs(t *Term, f func(*Term) *Term) ([]*Term, bool) {
	var out []*Term
	for i, a := range t.args {
		b := f(a)
		if b != a && out == nil {
			out = make([]*Term, len(t.args))
			copy(out, t.args[:i])
		}
		if out != nil {
			out[i] = b
		}
	}
	if out == nil {
		return t.args, false
	}
	return out, true
}

// HasBound reports whether t contains a parameter (OpBound).
func HasBound(t *Term) bool {
	seen := map[*Term]bool{}
	var walk func(t *Term) bool
	walk = func(t *Term) bool {
		if t.op == OpBound {
			return true
		}
		if seen[t] {
			return false
		}
		seen[t] = true
		for _, a := range t.args {
			if walk(a) {
				return true
			}
		}
		return false
	}
	return walk(t)
}

// IsLinear reports whether t stays within linear integer arithmetic:
// every product has at most one factor that is not a literal, and every
// div and mod has a non-zero literal divisor.
func IsLinear(t *Term) bool {
	seen := map[*Term]bool{}
	var walk func(t *Term) bool
	walk = func(t *Term) bool {
		if seen[t] {
			return true
		}
		seen[t] = true
		switch t.op {
		case OpMul:
			n := 0
			for _, a := range t.args {
				if a.op != OpInt {
					n++
				}
			}
			if n > 1 {
				return false
			}
		case OpDiv, OpMod:
			d := t.args[1]
			if d.op != OpInt || (d.big == nil && d.small == 0) {
				return false
			}
		}
		for _, a := range t.args {
			if !walk(a) {
				return false
			}
		}
		return true
	}
	return walk(t)
}
