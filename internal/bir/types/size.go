package types

import (
	"birch/internal/bir/ast"
)

// MaxSlots bounds the size of a model's state, a rule of the language
// (docs/bir.md §17): the globals together with the objects of every
// collection, and the variables of each thread or function (one frame of
// it), take at most MaxSlots slots each. The checker enforces it before
// anything is built, so that every size computed from a checked program
// fits in an int and no command allocates a state it cannot hold.
const MaxSlots = 1 << 20

// LockSlots is the slots one lock takes: its owner, its count, its wait set
// and its notified set.
const LockSlots = 4

// Slots returns the slots a value of type t takes in place: one for a
// scalar (boolean, integer, range, enum, tid, reference), LockSlots for a
// lock, the length times the element's slots for an array, the sum of the
// fields' for a record. A result above MaxSlots is MaxSlots+1: the
// arithmetic saturates instead of overflowing.
func Slots(t Type) int64 {
	switch u := t.Underlying().(type) {
	case *Lock:
		return LockSlots
	case *Array:
		return mulSlots(u.Len, Slots(u.Elem))
	case *Record:
		var n int64
		for _, f := range u.Fields {
			n = addSlots(n, Slots(f.Type()))
		}
		return n
	}
	return 1
}

// ObjectSlots returns the slots one object of a collection of t takes, at
// least one: an array object holds its length before its elements.
func ObjectSlots(t Type) int64 {
	n := Slots(t)
	if _, ok := t.Underlying().(*Array); ok {
		n = addSlots(n, 1)
	}
	return max(n, 1)
}

// CollectionSlots returns the slots a collection takes: a count of the
// objects handed out, then the objects. Saturates as Slots does.
func CollectionSlots(c *Collection) int64 {
	if c.Elem == nil {
		return addSlots(1, c.Size)
	}
	return addSlots(1, mulSlots(c.Size, ObjectSlots(c.Elem)))
}

// addSlots and mulSlots saturate at MaxSlots+1; their operands are sizes
// (never negative), at most MaxSlots+1 except for an array's length or a
// collection's size.
func addSlots(a, b int64) int64 { return min(min(a, MaxSlots+1)+min(b, MaxSlots+1), MaxSlots+1) }

func mulSlots(a, b int64) int64 {
	if a == 0 || b == 0 {
		return 0
	}
	if a > MaxSlots || b > MaxSlots {
		return MaxSlots + 1
	}
	return min(a*b, MaxSlots+1)
}

// checkStateSize reports the first global variable or collection, in the
// order of the source, with which the globals and the collections take more
// than MaxSlots slots.
func (c *checker) checkStateSize(sys *ast.System) {
	var n int64
	for _, d := range sys.Decls {
		switch d := d.(type) {
		case *ast.VarDecl:
			for _, id := range d.Names {
				if v, ok := c.info.Defs[id].(*Var); ok && v.typ != nil {
					if n = addSlots(n, Slots(v.typ)); n > MaxSlots {
						c.errorf(id.Pos(), "with %s the globals and collections take more than %d slots, the bound of a state (docs/bir.md §17)", id.Name, MaxSlots)
						return
					}
				}
			}
		case *ast.CollectionDecl:
			if col, ok := c.info.Defs[d.Name].(*Collection); ok {
				if n = addSlots(n, CollectionSlots(col)); n > MaxSlots {
					c.errorf(d.Name.Pos(), "with collection %s the globals and collections take more than %d slots, the bound of a state (docs/bir.md §17)", d.Name.Name, MaxSlots)
					return
				}
			}
		}
	}
}

// checkFrameSize reports the first variable of p with which its parameters
// and locals take more than MaxSlots slots.
func (c *checker) checkFrameSize(p *Proc) {
	var n int64
	for _, vs := range [][]*Var{p.Params, p.Locals} {
		for _, v := range vs {
			if v.typ == nil {
				continue
			}
			if n = addSlots(n, Slots(v.typ)); n > MaxSlots {
				c.errorf(v.pos, "with %s the variables of %s take more than %d slots, the bound of a frame (docs/bir.md §17)", v.name, p.name, MaxSlots)
				return
			}
		}
	}
}
