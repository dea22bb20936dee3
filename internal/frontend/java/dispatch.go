package java

// Field and method resolution (JVM SE 17 §5.4.3.2–§5.4.3.4), method
// selection (§5.4.6), and the class-hierarchy analysis that gives every
// invokevirtual and invokeinterface its possible targets: the classes
// that can be instantiated are those with a new reachable from the roots
// (main, the static initializers), found together with the reachable
// methods (rapid type analysis); a call's targets are the methods those
// classes select, most derived first.

import (
	"sort"
	"strings"

	"birch/internal/frontend/java/classfile"
)

// declared returns c's own method of that name and descriptor.
func (c *jclass) declared(name, desc string) *jmethod {
	for _, m := range c.methods {
		if m.name == name && m.desc == desc {
			return m
		}
	}
	return nil
}

// resolveField is field resolution (§5.4.3.2): c's own field, then its
// superinterfaces', then its superclass's; nil when there is none.
func (t *classTable) resolveField(c *jclass, name, desc string) *jfield {
	for ; c != nil; c = c.super {
		for _, f := range c.fields {
			if f.name == name && f.desc == desc {
				return f
			}
		}
		for _, i := range c.ifaces {
			if f := t.resolveField(i, name, desc); f != nil {
				return f
			}
		}
	}
	return nil
}

// resolveMethod is method resolution (§5.4.3.3) of a Methodref of class
// c, or interface method resolution (§5.4.3.4) when c is an interface;
// nil when there is none.
func (t *classTable) resolveMethod(c *jclass, name, desc string) *jmethod {
	if c.isInterface() {
		if m := c.declared(name, desc); m != nil {
			return m
		}
		if o := t.classes[objectClass]; o != nil {
			if m := o.declared(name, desc); m != nil && m.access&classfile.AccPublic != 0 && !m.isStatic() {
				return m
			}
		}
		return maxSpecificOrAny(c, name, desc)
	}
	for s := c; s != nil; s = s.super {
		if m := s.declared(name, desc); m != nil {
			return m
		}
	}
	return maxSpecificOrAny(c, name, desc)
}

// maxSpecificOrAny is the last step of both resolutions: the one
// non-abstract maximally-specific superinterface method, else any
// superinterface method (non-private, non-static).
func maxSpecificOrAny(c *jclass, name, desc string) *jmethod {
	ms := maxSpecific(c, name, desc)
	var concrete []*jmethod
	for _, m := range ms {
		if !m.isAbstract() {
			concrete = append(concrete, m)
		}
	}
	if len(concrete) == 1 {
		return concrete[0]
	}
	if len(ms) > 0 {
		return ms[0]
	}
	return nil
}

// superInterfaces lists every superinterface of c (of its superclasses
// too), each once, in a fixed order.
func superInterfaces(c *jclass) []*jclass {
	var out []*jclass
	seen := map[*jclass]bool{}
	var walk func(i *jclass)
	walk = func(i *jclass) {
		if seen[i] {
			return
		}
		seen[i] = true
		out = append(out, i)
		for _, j := range i.ifaces {
			walk(j)
		}
	}
	for s := c; s != nil; s = s.super {
		for _, i := range s.ifaces {
			walk(i)
		}
	}
	if c.isInterface() {
		// c's own superinterfaces were walked above; c itself is not one
		delete(seen, c)
		for k, i := range out {
			if i == c {
				out = append(out[:k], out[k+1:]...)
				break
			}
		}
	}
	return out
}

// maxSpecific lists the maximally-specific superinterface methods of c of
// that name and descriptor (§5.4.3.3): those declared (non-private,
// non-static) in a superinterface of c of which no other superinterface
// of c declaring such a method is a subinterface.
func maxSpecific(c *jclass, name, desc string) []*jmethod {
	var cands []*jmethod
	for _, i := range superInterfaces(c) {
		if m := i.declared(name, desc); m != nil && !m.isPrivate() && !m.isStatic() {
			cands = append(cands, m)
		}
	}
	var out []*jmethod
	for _, m := range cands {
		shadowed := false
		for _, o := range cands {
			if o != m && o.class != m.class && o.class.isSubclassOf(m.class) {
				shadowed = true
				break
			}
		}
		if !shadowed {
			out = append(out, m)
		}
	}
	return out
}

// overrides reports whether mc can override ma (§5.4.5), mc declared in a
// subclass of ma's class; a method overrides itself.
func overrides(mc, ma *jmethod) bool {
	if mc == ma {
		return true
	}
	if mc.name != ma.name || mc.desc != ma.desc || mc.isPrivate() || mc.isStatic() {
		return false
	}
	if ma.access&(classfile.AccPublic|classfile.AccProtected) != 0 {
		return true
	}
	return !ma.isPrivate() && mc.class.pkg() == ma.class.pkg()
}

// selectMethod is method selection (§5.4.6): the method an invokevirtual
// or invokeinterface of the resolved method mr runs on an object of class
// c; nil when there is none or it is abstract (AbstractMethodError).
func selectMethod(c *jclass, mr *jmethod) *jmethod {
	if mr.isPrivate() {
		return mr
	}
	for s := c; s != nil; s = s.super {
		if m := s.declared(mr.name, mr.desc); m != nil && !m.isStatic() && overrides(m, mr) {
			if m.isAbstract() {
				return nil
			}
			return m
		}
	}
	var concrete []*jmethod
	for _, m := range maxSpecific(c, mr.name, mr.desc) {
		if !m.isAbstract() {
			concrete = append(concrete, m)
		}
	}
	if len(concrete) == 1 {
		return concrete[0]
	}
	return nil
}

// resolveSpecial is the method an invokespecial in a method of class cur
// runs, whose symbolic reference names class ref (§6.5 invokespecial):
// a constructor or private method of ref itself, or a super call, whose
// lookup starts at cur's superclass.
func (t *classTable) resolveSpecial(cur, ref *jclass, name, desc string) *jmethod {
	mr := t.resolveMethod(ref, name, desc)
	if mr == nil {
		return nil
	}
	c := ref
	if name != "<init>" && !ref.isInterface() && cur != ref && cur.isSubclassOf(ref) &&
		(cur.cf == nil || cur.cf.Access&classfile.AccSuper != 0) {
		c = cur.super
	}
	if m := c.declared(name, desc); m != nil && !m.isStatic() {
		return m
	}
	if !c.isInterface() {
		for s := c.super; s != nil; s = s.super {
			if m := s.declared(name, desc); m != nil && !m.isStatic() {
				return m
			}
		}
	} else if o := t.classes[objectClass]; o != nil {
		if m := o.declared(name, desc); m != nil && m.access&classfile.AccPublic != 0 && !m.isStatic() {
			return m
		}
	}
	var concrete []*jmethod
	for _, m := range maxSpecific(c, name, desc) {
		if !m.isAbstract() {
			concrete = append(concrete, m)
		}
	}
	if len(concrete) == 1 {
		return concrete[0]
	}
	return nil
}

// A dispatchCase is one target of a virtual call: when the receiver is an
// instance of guard, method runs.
type dispatchCase struct {
	guard  *jclass
	method *jmethod
}

// dispatch lists the possible targets of an invokevirtual or
// invokeinterface of the resolved method mr on a receiver of static type
// static: one case per selected method and guard class, the most derived
// guard first, so that the first case whose guard holds is the method the
// JVM selects. The last case's guard may be taken as "any other non-null
// receiver". A receiver class that selects no method (abstract: the
// AbstractMethodError of a program compiled inconsistently) is returned
// in bad.
func (t *classTable) dispatch(static *jclass, mr *jmethod) (cases []dispatchCase, bad []*jclass) {
	if mr.isPrivate() || static.cf != nil && static.cf.Access&classfile.AccFinal != 0 && !static.isInterface() {
		if m := selectMethod(static, mr); m != nil {
			return []dispatchCase{{static, m}}, nil
		}
	}
	seen := map[dispatchCase]bool{}
	for _, c := range t.instantiatedClasses() {
		if !c.isSubclassOf(static) {
			continue
		}
		m := selectMethod(c, mr)
		if m == nil {
			bad = append(bad, c)
			continue
		}
		g := c
		if !m.class.isInterface() {
			// the declaring class covers every subclass that selects the
			// same method; those that select another come earlier
			g = m.class
		}
		dc := dispatchCase{g, m}
		if !seen[dc] {
			seen[dc] = true
			cases = append(cases, dc)
		}
	}
	sort.SliceStable(cases, func(i, j int) bool { return cases[i].guard.depth > cases[j].guard.depth })
	return cases, bad
}

// instantiatedClasses lists the classes that may have objects, program
// classes first, each group by name.
func (t *classTable) instantiatedClasses() []*jclass {
	var out []*jclass
	for _, c := range t.all() {
		if c.instantiated {
			out = append(out, c)
		}
	}
	return out
}

// rta is the state of the rapid type analysis.
type rta struct {
	reached map[*jmethod]bool
	order   []*jmethod // reached methods, in the order reached
	work    []*jmethod
	vcalls  []vcallKey // the virtual calls seen
	vseen   map[vcallKey]bool
	inited  map[*jclass]bool
}

type vcallKey struct {
	static *jclass
	m      *jmethod
}

// analyze finds the methods reachable from roots (with the static
// initializers of the classes they initialize) and the classes they
// instantiate. It may be called again with more roots.
func (t *classTable) analyze(roots ...*jmethod) {
	if t.rta == nil {
		t.rta = &rta{reached: map[*jmethod]bool{}, vseen: map[vcallKey]bool{}, inited: map[*jclass]bool{}}
	}
	for _, m := range roots {
		t.initClass(m.class)
		t.reach(m)
	}
	r := t.rta
	for len(r.work) > 0 {
		m := r.work[len(r.work)-1]
		r.work = r.work[:len(r.work)-1]
		t.scan(m)
	}
}

// reachable reports whether the analysis reached m.
func (t *classTable) reachable(m *jmethod) bool { return t.rta != nil && t.rta.reached[m] }

func (t *classTable) reach(m *jmethod) {
	r := t.rta
	if m == nil || r.reached[m] {
		return
	}
	r.reached[m] = true
	r.order = append(r.order, m)
	r.work = append(r.work, m)
	if m.isModel() {
		for _, mm := range modelMethodOf(m) {
			for _, c := range mm.instantiates {
				if cl := t.classes[c]; cl != nil {
					t.instantiate(cl)
				}
			}
			for _, call := range mm.calls {
				cls, sig, _ := strings.Cut(call, ".")
				name, desc := splitSig(sig)
				if cl := t.classes[cls]; cl != nil {
					if mr := t.resolveMethod(cl, name, desc); mr != nil {
						t.vcall(cl, mr)
					}
				}
			}
		}
	}
}

// initClass reaches the static initializers of c and its superclasses
// (§5.5: initializing a class initializes its superclass first).
func (t *classTable) initClass(c *jclass) {
	for ; c != nil && !t.rta.inited[c]; c = c.super {
		t.rta.inited[c] = true
		if m := c.declared("<clinit>", "()V"); m != nil {
			t.reach(m)
		}
	}
}

// instantiate records that objects of c may exist: every virtual call
// seen so far may now select c's methods.
func (t *classTable) instantiate(c *jclass) {
	if c.instantiated || c.isInterface() || c.isAbstract() {
		return
	}
	c.instantiated = true
	t.use(c)
	if t.rta == nil {
		return
	}
	for _, k := range t.rta.vcalls {
		if c.isSubclassOf(k.static) {
			t.reach(selectMethod(c, k.m))
		}
	}
}

// vcall records a virtual call of mr on a receiver of static type static.
func (t *classTable) vcall(static *jclass, mr *jmethod) {
	k := vcallKey{static, mr}
	if t.rta.vseen[k] {
		return
	}
	t.rta.vseen[k] = true
	t.rta.vcalls = append(t.rta.vcalls, k)
	for _, c := range t.instantiatedClasses() {
		if c.isSubclassOf(static) {
			t.reach(selectMethod(c, mr))
		}
	}
}

// implicitExceptions are the exceptions the JVM itself may throw at an
// instruction: objects of these classes may exist once it is reachable.
func implicitExceptions(op classfile.Opcode) []string {
	const (
		npe   = "java/lang/NullPointerException"
		aioob = "java/lang/ArrayIndexOutOfBoundsException"
		imse  = "java/lang/IllegalMonitorStateException"
	)
	switch op {
	case classfile.Getfield, classfile.Putfield, classfile.Invokevirtual, classfile.Invokeinterface,
		classfile.Arraylength, classfile.Athrow, classfile.Monitorenter:
		return []string{npe}
	case classfile.Monitorexit:
		return []string{npe, imse}
	case classfile.Iaload, classfile.Laload, classfile.Baload, classfile.Caload, classfile.Saload, classfile.Aaload,
		classfile.Iastore, classfile.Lastore, classfile.Bastore, classfile.Castore, classfile.Sastore, classfile.Aastore:
		return []string{npe, aioob}
	case classfile.Idiv, classfile.Irem, classfile.Ldiv, classfile.Lrem:
		return []string{"java/lang/ArithmeticException"}
	case classfile.Checkcast:
		return []string{"java/lang/ClassCastException"}
	case classfile.Newarray, classfile.Anewarray, classfile.Multianewarray:
		return []string{"java/lang/NegativeArraySizeException"}
	}
	return nil
}

// scan follows the instructions of a reached method.
func (t *classTable) scan(m *jmethod) {
	if m.cf == nil || m.cf.Code == nil {
		return
	}
	cf := m.class.cf
	for _, in := range m.cf.Code.Insns {
		for _, e := range implicitExceptions(in.Op) {
			if c := t.classes[e]; c != nil {
				t.instantiate(c)
			}
		}
		switch in.Op {
		case classfile.New:
			if c := t.classes[cf.ClassAt(in.Index)]; c != nil {
				t.initClass(c)
				t.instantiate(c)
			}
		case classfile.Getstatic, classfile.Putstatic:
			cls, name, desc, _, ok := cf.MemberAt(in.Index)
			if c := t.classes[cls]; ok && c != nil {
				if f := t.resolveField(c, name, desc); f != nil {
					t.initClass(f.class)
				}
			}
		case classfile.Invokestatic, classfile.Invokespecial, classfile.Invokevirtual, classfile.Invokeinterface:
			cls, name, desc, _, ok := cf.MemberAt(in.Index)
			c := t.classes[cls]
			if !ok || c == nil {
				continue
			}
			switch in.Op {
			case classfile.Invokestatic:
				if mr := t.resolveMethod(c, name, desc); mr != nil {
					t.initClass(mr.class)
					t.reach(mr)
				}
			case classfile.Invokespecial:
				t.reach(t.resolveSpecial(m.class, c, name, desc))
			default:
				if mr := t.resolveMethod(c, name, desc); mr != nil {
					t.vcall(c, mr)
				}
			}
		}
	}
}

// splitSig splits "name(desc)ret" into the name and the descriptor.
func splitSig(sig string) (name, desc string) {
	for i := 0; i < len(sig); i++ {
		if sig[i] == '(' {
			return sig[:i], sig[i:]
		}
	}
	return sig, ""
}
