package java

// Field and method resolution (JVM SE 17 §5.4.3.2–§5.4.3.4), method
// selection (§5.4.6), and the class-hierarchy analysis that gives every
// invokevirtual and invokeinterface its possible targets: the classes
// that can be instantiated are those with a new reachable from the roots
// (main, the static initializers), found together with the reachable
// methods (rapid type analysis); a call's targets are the methods those
// classes select, most derived first.

import (
	"fmt"
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
	return resolveFieldSeen(c, name, desc, map[*jclass]bool{})
}

// resolveFieldSeen is resolveField that looks at each interface once (a
// lattice of interfaces has exponentially many paths).
func resolveFieldSeen(c *jclass, name, desc string, seen map[*jclass]bool) *jfield {
	for ; c != nil; c = c.super {
		for _, f := range c.fields {
			if f.name == name && f.desc == desc {
				return f
			}
		}
		for _, i := range c.ifaces {
			if seen[i] {
				continue
			}
			seen[i] = true
			if f := resolveFieldSeen(i, name, desc, seen); f != nil {
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

// The lowering of calls on objects (constructors, super calls, virtual and
// interface calls by the cases of dispatch), of checkcast and of
// instanceof.

func init() {
	hooks.call = append(hooks.call, (*method).heapCall)
	hooks.insn[classfile.Checkcast] = (*method).checkcast
	hooks.insn[classfile.Instanceof] = (*method).instanceOf
}

// heapCall lowers a call of a method of the program or of the java.lang
// model through the class table: invokespecial (constructors, private
// methods, super calls), invokevirtual and invokeinterface (dispatch), and
// invokestatic of the model (Math, Integer.valueOf). It reports whether
// it took the call.
func (m *method) heapCall(c *callSite) bool {
	t := heapOf(m.l)
	ref := t.class(c.class)
	if ref == nil {
		return false
	}
	switch c.op {
	case classfile.Invokestatic:
		mr := t.resolveMethod(ref, c.name, c.desc)
		if mr == nil || !mr.isStatic() {
			return false
		}
		if !mr.isModel() {
			// the program's: its function, the reference arguments made
			// assignable to the parameters
			m.l.use(mr.class.name)
		}
		return m.callTarget(mr, c.args)
	case classfile.Invokespecial:
		cur := t.class(m.cls.Name)
		if cur == nil {
			return false
		}
		mt := t.resolveSpecial(cur, ref, c.name, c.desc)
		if mt == nil {
			return false
		}
		if c.name == "<init>" {
			m.l.use(mt.class.name)
		}
		return m.callTarget(mt, c.args)
	}
	mr := t.resolveMethod(ref, c.name, c.desc)
	if mr == nil {
		return false
	}
	if mr.isStatic() {
		m.unsupported("the call of the static method %s as an instance method (IncompatibleClassChangeError)", mr)
		return true
	}
	m.dispatchCall(ref, mr, c)
	return true
}

// callTarget calls the method mt (of the program: its function; of the
// model: its lowering) with the arguments, the receiver first for an
// instance method; the result, if any, is pushed.
func (m *method) callTarget(mt *jmethod, args []value) bool {
	if mt.isModel() {
		return m.callModel(mt, args)
	}
	if mt.cf.Code == nil {
		m.unsupported("the call of %s, which has no code (native or abstract)", mt)
		return true
	}
	args = m.stringArgs(args)
	if !mt.isStatic() && len(args) > 0 {
		t := heapOf(m.l)
		recv, ok := m.asRef(args[0], t.refType(mt.class))
		if !ok {
			return true
		}
		args = append([]value{recv}, args[1:]...)
	}
	params, _, _ := classfile.ParseMethodType(mt.desc)
	for i, p := range params {
		j := i
		if !mt.isStatic() {
			j++
		}
		if j >= len(args) || args[j].k != kRef {
			continue
		}
		typ, ok := hooks.refType(m.l, p)
		if !ok {
			continue
		}
		if args[j], ok = m.asRef(args[j], typ); !ok {
			return true
		}
	}
	m.emitCall(m.l.function(mt.class.cf, mt.cf), args)
	return true
}

// stringArgs makes the strings among the arguments of a call of the
// program's String objects (stringObject), each in a temporary of its
// own.
func (m *method) stringArgs(args []value) []value {
	var out []value
	for j, a := range args {
		if isString(a) {
			if out == nil {
				out = append([]value(nil), args...)
			}
			out[j], _ = m.stringObject(a, len(m.stack)+j)
		}
	}
	if out == nil {
		return args
	}
	return out
}

// callModel lowers a call of a method of the java.lang model by its
// lowering (jlang.go, or another lane's), reporting one that has none.
func (m *method) callModel(mt *jmethod, args []value) bool {
	low := modelLowering[mt.class.name+"."+mt.name+mt.desc]
	if low == nil {
		m.unsupported("the call of %s (outside birch's model of java.lang)", mt)
		return true
	}
	low(m, mt, args)
	return true
}

// modelLowering lowers the calls of the methods of the java.lang model,
// by "pkg/Class.name(desc)": args are the arguments (the receiver first
// for an instance method, non-null there: dispatch checked it); a result
// is pushed. The files of other lanes add theirs (Thread's in thread.go).
var modelLowering = map[string]func(m *method, mt *jmethod, args []value){}

// dispatchCall lowers invokevirtual and invokeinterface of the resolved
// method mr: NullPointerException for a null receiver, then one case per
// target, each guarded by instanceof of its class, the most derived first
// (the last one takes every other receiver); every case leaves the result
// in the same temporary.
func (m *method) dispatchCall(ref *jclass, mr *jmethod, c *callSite) {
	t := heapOf(m.l)
	recv := c.args[0]
	if !m.plain(recv) {
		return
	}
	if t.arrRefs[recv.t] != nil {
		m.unsupported("the call of %s on an array", mr)
		return
	}
	// dispatch on the receiver's own class when it is narrower than the
	// reference's, else on the reference's (the receiver converted to it
	// when their types are unrelated)
	static := ref
	if rc := t.classOf(recv.t); rc != nil && rc != ref && rc.isSubclassOf(ref) {
		static = rc
	} else if !ref.isInterface() {
		var ok bool
		if recv, ok = m.narrow(recv, ref); !ok {
			return
		}
	} else if rc != nil && rc.name != objectClass {
		// an interface the receiver's class does not implement (a
		// subclass's object behind a checkcast): the guards test classes
		// unrelated to it, which BIR allows on an Object reference only
		recv = m.convertRef(recv, t.refType(t.class(objectClass)))
	}
	cases, bad := t.dispatch(static, mr)
	if len(bad) > 0 {
		m.unsupported("the call of %s on a %s, which has no implementation of it (AbstractMethodError)", mr, bad[0].javaName())
		return
	}
	args := append([]value{recv}, c.args[1:]...)
	for _, dc := range cases {
		if !dc.method.isModel() {
			args = m.stringArgs(args) // once, before the cases
			break
		}
	}
	notNull := paren(recv.e) + " != null"
	if recv.t == "null" {
		notNull = "false"
	}
	if len(cases) == 0 {
		// no object the receiver can be: it is null, and the call throws
		// NullPointerException; past the check (which no execution
		// passes) the method ends in a failure that says so
		m.check(notNull, recv.reads, npeClass)
		if !m.dead {
			m.uncaught(fmt.Sprintf("internal error: a call of %s on an object of a class the class-hierarchy analysis did not find", mr))
		}
		return
	}
	m.check(notNull, recv.reads, npeClass)
	if m.dead {
		return
	}
	if len(cases) == 1 {
		m.callTarget(cases[0].method, args)
		return
	}
	// the case labels, their guards (each excludes the earlier ones)
	var conds, labels, earlier []string
	for i, dc := range cases {
		labels = append(labels, m.b.label(m.b.base()))
		if i == len(cases)-1 {
			// every other receiver; null too, which the check before
			// the branch stops
			conds = append(conds, joinConds(earlier, " && "))
			break
		}
		t.use(dc.guard)
		inst := paren(recv.e) + " instanceof " + dc.guard.bir
		conds = append(conds, joinConds(append([]string{inst}, earlier...), " && "))
		earlier = append(earlier, negate(inst))
	}
	join := m.b.label(m.b.base())
	m.b.branch(conds, labels, recv.reads, false)
	stack := append([]value(nil), m.stack...)
	_, ret, _ := classfile.ParseMethodType(mr.desc)
	var resK kind
	var resT string
	if ret.Kind != 'V' {
		resK, resT, _ = m.kindOf(ret, "")
	}
	var res *value
	for i, dc := range cases {
		m.b.place(labels[i])
		m.stack = append([]value(nil), stack...)
		m.callTarget(dc.method, args)
		if m.dead {
			return
		}
		if len(m.stack) > len(stack) {
			// every case leaves its result in the same temporary
			v := m.pop()
			tmp := m.temp(len(stack), stackType(value{k: resK, t: resT}))
			if v.e != tmp {
				m.b.act(false, tmp, "%s := %s;", tmp, v.e)
			}
			r := named(tmp, resK, stackType(value{k: resK, t: resT}))
			res = &r
		}
		m.b.jump(join)
	}
	m.b.place(join)
	m.stack = stack
	if res != nil {
		m.stack = append(m.stack, *res)
	}
}

// instCond is the BIR condition that v refers to an object of class k
// (of a subclass, or for an interface of a class implementing it):
// "false" when no object v may refer to can be one.
func (m *method) instCond(v value, k *jclass) string {
	t := heapOf(m.l)
	vc := t.classOf(v.t)
	switch {
	case vc == nil:
		return "false" // null, or an array
	case vc.isSubclassOf(k):
		return paren(v.e) + " != null"
	case !k.isInterface():
		if extends(k, vc) {
			t.use(k)
			return paren(v.e) + " instanceof " + k.bir
		}
		return "false"
	}
	// an interface: the most general classes below v's that implement it
	var cs []string
	for _, c := range t.all() {
		if c.isInterface() || !c.isSubclassOf(k) || !extends(c, vc) {
			continue
		}
		if c.super != nil && c.super.isSubclassOf(k) && extends(c.super, vc) {
			continue // its superclass's test covers it
		}
		t.use(c)
		cs = append(cs, paren(v.e)+" instanceof "+c.bir)
	}
	if len(cs) == 0 {
		return "false"
	}
	return joinConds(cs, " || ")
}

// typeOperand is the class or array type of checkcast's and
// instanceof's operand (exactly one is non-nil), reporting a class
// outside the model.
func (m *method) typeOperand(in *classfile.Insn) (*jclass, *arrayType) {
	t := heapOf(m.l)
	name := m.cls.ClassAt(in.Index)
	if len(name) > 0 && name[0] == '[' {
		ty, err := classfile.ParseFieldType(name)
		if err != nil || ty.Elem == nil {
			m.unsupported("%s of the malformed type %q", in.Op, name)
			return nil, nil
		}
		a, err := t.arrayOf(*ty.Elem)
		if err != nil {
			m.unsupported("%s %s: %v", in.Op, ty, err)
			return nil, nil
		}
		t.useType(a.ref)
		return nil, a
	}
	k := t.class(name)
	if k == nil {
		m.unsupported("%s %s (a class outside the program and birch's model of java.lang)", in.Op, binaryName(name))
	}
	return k, nil
}

// typeTest pops the reference of checkcast and instanceof and reads their
// type operand: a class or an array type (neither after a report).
func (m *method) typeTest(in *classfile.Insn) (value, *jclass, *arrayType) {
	v := m.pop()
	if !m.plain(v) {
		return v, nil, nil
	}
	k, a := m.typeOperand(in)
	return v, k, a
}

// instanceOf lowers instanceof: 1 or 0 by a branch on the BIR test.
func (m *method) instanceOf(in *classfile.Insn) {
	v, k, a := m.typeTest(in)
	t := heapOf(m.l)
	switch {
	case a != nil:
		cond := "false"
		if v.t == a.ref {
			cond = paren(v.e) + " != null"
		}
		m.pushCond(cond, v.reads)
	case k != nil:
		if t.arrRefs[v.t] != nil {
			// an array is an Object only (birch keeps arrays apart)
			cond := "false"
			if k.name == objectClass {
				cond = paren(v.e) + " != null"
			}
			m.pushCond(cond, v.reads)
			return
		}
		m.pushCond(m.instCond(v, k), v.reads)
	}
}

// checkcast lowers checkcast: ClassCastException unless the reference is
// null or refers to an object of the class; the value then has the
// class's reference type (a checked conversion that cannot fail).
func (m *method) checkcast(in *classfile.Insn) {
	v, k, a := m.typeTest(in)
	t := heapOf(m.l)
	switch {
	case a != nil:
		if v.t == a.ref || v.t == "null" {
			m.push(v)
			return
		}
		if t.arrRefs[v.t] != nil {
			m.check(paren(v.e)+" == null", v.reads, "java/lang/ClassCastException")
			if !m.dead {
				m.unsupported("a cast of an array of %s to an array of %s", t.typeName(t.arrRefs[v.t].elem), t.typeName(a.elem))
			}
			return
		}
		m.unsupported("an array held in a reference of type %s (birch keeps arrays and objects apart)", t.typeName(v.t))
	case k != nil:
		vc := t.classOf(v.t)
		if v.t == "null" || vc != nil && vc.isSubclassOf(k) || t.arrRefs[v.t] != nil && k.name == objectClass {
			m.push(v)
			return
		}
		if t.arrRefs[v.t] != nil {
			m.unsupported("a cast of an array to %s", k.javaName())
			return
		}
		m.check(paren(v.e)+" == null || "+paren(m.instCond(v, k)), v.reads, "java/lang/ClassCastException")
		if m.dead {
			return
		}
		if k.isInterface() {
			m.push(v)
			return
		}
		if v, ok := m.narrow(v, k); ok {
			m.push(v)
		}
	}
}

// pushCond pushes the int value of a BIR condition: 1 or 0, by a branch
// (BIR has no conversion from boolean to integer).
func (m *method) pushCond(cond string, reads []string) {
	switch cond {
	case "true":
		m.push(intValue(1))
		return
	case "false":
		m.push(intValue(0))
		return
	}
	m.selectValue(kInt, "int32", cond, "1", "0", reads)
}

// selectValue pushes a temporary that holds a where cond holds, else b.
func (m *method) selectValue(k kind, typ, cond, a, b string, reads []string) {
	tmp := m.temp(len(m.stack), stackType(value{k: k, t: typ}))
	m.protect(tmp, -1, map[int]bool{})
	yes, no, join := m.b.label(m.b.base()), m.b.label(m.b.base()), m.b.label(m.b.base())
	m.b.branch([]string{cond, negate(cond)}, []string{yes, no}, reads, false)
	m.b.place(yes)
	m.b.act(false, tmp, "%s := %s;", tmp, a)
	m.b.jump(join)
	m.b.place(no)
	m.b.act(false, tmp, "%s := %s;", tmp, b)
	m.b.jump(join)
	m.b.place(join)
	m.stack = append(m.stack, named(tmp, k, stackType(value{k: k, t: typ})))
}
