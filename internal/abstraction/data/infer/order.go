package infer

import (
	"fmt"
	"strings"

	"birch/internal/abstraction/data"
)

// DeclaredCoercion is a resolved CoercionDecl: From lies below To.
type DeclaredCoercion struct {
	From, To *data.Abstraction
	Decl     CoercionDecl
}

// ResolveCoercions looks up the abstractions of coercion declarations in
// lib. Declarations the default order already has (from concrete, to
// point) are accepted and dropped. Errors, each naming the declaration's
// position or flag: an unknown abstraction, a coercion from an abstraction
// to itself, to concrete (abstract values cannot be made concrete), from
// point (it is above every abstraction), and a declaration that closes a
// cycle.
func ResolveCoercions(lib Lookup, ds []CoercionDecl) ([]DeclaredCoercion, error) {
	if len(ds) == 0 {
		return nil, nil
	}
	point, err := lib.Lookup("point")
	if err != nil {
		return nil, err
	}
	var out []DeclaredCoercion
	var errs []string
	for _, d := range ds {
		from, err := lib.Lookup(d.From)
		if err != nil {
			errs = append(errs, fmt.Sprintf("%s: %v", d.at(d.FromPos), err))
			continue
		}
		to, err := lib.Lookup(d.To)
		if err != nil {
			errs = append(errs, fmt.Sprintf("%s: %v", d.at(d.ToPos), err))
			continue
		}
		c := DeclaredCoercion{From: from, To: to, Decl: d}
		if msg := c.check(point); msg != "" {
			errs = append(errs, fmt.Sprintf("%s: %s", d.at(d.FromPos), msg))
			continue
		}
		if redundant(c, point) {
			continue
		}
		if path := pathBetween(out, to, from); path != nil {
			errs = append(errs, fmt.Sprintf("%s: coercions form a cycle: %s -> %s -> %s (an abstraction cannot lie both below and above another)",
				d.at(d.FromPos), from.Name, to.Name, strings.Join(path, " -> ")))
			continue
		}
		out = append(out, c)
	}
	if len(errs) > 0 {
		return out, fmt.Errorf("%s", strings.Join(errs, "\n"))
	}
	return out, nil
}

// check returns what is wrong with a coercion in any order, or "".
func (c DeclaredCoercion) check(point *data.Abstraction) string {
	switch {
	case c.From == c.To:
		if !strings.EqualFold(c.Decl.From, c.Decl.To) {
			return fmt.Sprintf("a coercion from %s to itself (%s and %s are the same abstraction)", c.From.Name, c.Decl.From, c.Decl.To)
		}
		return fmt.Sprintf("a coercion from %s to itself", c.From.Name)
	case c.To.Identity:
		return fmt.Sprintf("no coercion from %s to %s: abstract values cannot be made concrete", c.From.Name, c.To.Name)
	case c.From == point:
		return fmt.Sprintf("no coercion from %s to %s: point is above every abstraction", c.From.Name, c.To.Name)
	}
	return ""
}

// redundant reports whether the default order already has c.
func redundant(c DeclaredCoercion, point *data.Abstraction) bool {
	return c.From.Identity || c.To == point
}

// pathBetween returns the names of a chain of declared coercions from a to
// b (a excluded, b included), or nil when b is not above a.
func pathBetween(cs []DeclaredCoercion, a, b *data.Abstraction) []string {
	prev := map[*data.Abstraction]*data.Abstraction{a: nil}
	queue := []*data.Abstraction{a}
	for len(queue) > 0 {
		x := queue[0]
		queue = queue[1:]
		if x == b {
			var names []string
			for y := b; y != a; y = prev[y] {
				names = append([]string{y.Name}, names...)
			}
			return names
		}
		for _, c := range cs {
			if c.From == x {
				if _, seen := prev[c.To]; !seen {
					prev[c.To] = x
					queue = append(queue, c.To)
				}
			}
		}
	}
	return nil
}

// order is the order of abstractions declared coercions give, transitively
// closed: above[a] holds the abstractions strictly above a (point, above
// all, is not listed).
type order struct {
	above map[*data.Abstraction]map[*data.Abstraction]bool
}

// newOrder closes the declared coercions transitively. It checks them
// again, since a Config may be built without ResolveCoercions.
func newOrder(cs []DeclaredCoercion, point *data.Abstraction) (*order, error) {
	o := &order{above: map[*data.Abstraction]map[*data.Abstraction]bool{}}
	var kept []DeclaredCoercion
	for _, c := range cs {
		if c.From == nil || c.To == nil {
			return nil, fmt.Errorf("%s: coercion without an abstraction", c.Decl.Where)
		}
		if msg := c.check(point); msg != "" {
			return nil, fmt.Errorf("%s: %s", c.Decl.at(c.Decl.FromPos), msg)
		}
		if redundant(c, point) {
			continue
		}
		if path := pathBetween(kept, c.To, c.From); path != nil {
			return nil, fmt.Errorf("%s: coercions form a cycle: %s -> %s -> %s", c.Decl.at(c.Decl.FromPos), c.From.Name, c.To.Name, strings.Join(path, " -> "))
		}
		kept = append(kept, c)
	}
	for _, c := range kept {
		if o.above[c.From] != nil {
			continue
		}
		set := map[*data.Abstraction]bool{}
		queue := []*data.Abstraction{c.From}
		for len(queue) > 0 {
			x := queue[0]
			queue = queue[1:]
			for _, d := range kept {
				if d.From == x && !set[d.To] {
					set[d.To] = true
					queue = append(queue, d.To)
				}
			}
		}
		o.above[c.From] = set
	}
	return o, nil
}

// below reports whether a lies strictly below b by declared coercions.
func (o *order) below(a, b *data.Abstraction) bool {
	return o != nil && o.above[a][b]
}

// join returns the least upper bound of two different abstractions (not
// concrete, not point) among the declared ones: b when a lies below b, a
// when b lies below a, otherwise the least of their common upper bounds
// when there is one, and nil when there is none (they meet at point).
func (o *order) join(a, b *data.Abstraction) *data.Abstraction {
	switch {
	case o == nil:
		return nil
	case o.below(a, b):
		return b
	case o.below(b, a):
		return a
	}
	var common []*data.Abstraction
	for c := range o.above[a] {
		if o.above[b][c] {
			common = append(common, c)
		}
	}
	for _, c := range common {
		least := true
		for _, d := range common {
			if d != c && !o.below(c, d) {
				least = false
				break
			}
		}
		if least {
			return c
		}
	}
	return nil
}
