package c

import (
	"fmt"
	"math/big"
	"strconv"
	"strings"

	"modernc.org/cc/v4"
)

// This file lowers C's memory: pointers, arrays, structs, the address-of
// and dereference operators and the heap, on the model of memlayout.go.
// The integer lowering calls the hooks mem* where it meets a value, an
// lvalue or a declaration of such a type.

// tPtr is the BIR type of a pointer value: int64, i * ptrScale + offset.
var tPtr = intType{bits: 64, signed: true}

// fnMem is a function's memory: its local objects.
type fnMem struct {
	objs      map[*cc.Declarator]string // a local object -> the variable holding its number
	direct    map[*cc.Declarator]string // a local object held by a value array -> its name
	parent    map[cc.Node]cc.Node       // the function body's nodes' parents
	owned     []string                  // those freed when the function returns
	resultPtr cc.Type                   // the C result type, when a pointer
	poisoned  []string                  // pointer locals that start indeterminate
	// structParams are the struct parameters passed by value (memdirect.go)
	structParams []structParam
}

// memLoc is the place of a scalar (or a sub-object) in memory: the cell
// $mem[id][off + k], where id and off are computed from base, a pointer,
// when base is set.
type memLoc struct {
	arr   string // a local's value array holding the object (a direct object), or ""
	id    string // the object's number, "" when base is set
	base  string // a pointer expression (an atom), or ""
	rel   string // a cell offset expression added, or ""
	k     int64  // a constant cell offset added
	t     cc.Type
	whole bool // the loc is a whole object: BIR's bounds check is C's
}

func (m memLoc) objExpr() string {
	if m.base != "" {
		return fmt.Sprintf("%s / %d", m.base, ptrScale)
	}
	return m.id
}

func (m memLoc) offExpr() string {
	var parts []string
	if m.base != "" {
		parts = append(parts, fmt.Sprintf("%s %% %d", m.base, ptrScale))
	}
	if m.rel != "" {
		parts = append(parts, m.rel)
	}
	if m.k != 0 || len(parts) == 0 {
		parts = append(parts, strconv.FormatInt(m.k, 10))
	}
	return strings.Join(parts, " + ")
}

// cell is the BIR lvalue of the loc's cell.
func (m memLoc) cell() string {
	if m.arr != "" {
		return fmt.Sprintf("%s[%s]", m.arr, m.offExpr())
	}
	return fmt.Sprintf("$mem[%s][%s]", m.objExpr(), m.offExpr())
}

// cellVar is the variable of the loc's cell, of the scalar type st.
func (m memLoc) cellVar(st intType) *variable {
	return &variable{name: m.cell(), t: st, global: m.arr == "", cell: true}
}

// ptr is the pointer to the loc.
func (m memLoc) ptr() string {
	if m.base == "" {
		if n, err := strconv.ParseInt(m.id, 10, 64); err == nil && m.rel == "" {
			return strconv.FormatInt(n*ptrScale+m.k, 10)
		}
		parts := []string{fmt.Sprintf("%s * %d", paren(m.id), ptrScale)}
		if m.rel != "" {
			parts = append(parts, m.rel)
		}
		if m.k != 0 {
			parts = append(parts, strconv.FormatInt(m.k, 10))
		}
		return strings.Join(parts, " + ")
	}
	parts := []string{m.base}
	if m.rel != "" {
		parts = append(parts, m.rel)
	}
	if m.k != 0 {
		parts = append(parts, strconv.FormatInt(m.k, 10))
	}
	return strings.Join(parts, " + ")
}

func (m memLoc) addRel(e string) memLoc {
	if m.rel == "" {
		m.rel = e
	} else {
		m.rel = m.rel + " + " + e
	}
	return m
}

func isFuncPtr(t cc.Type) bool {
	e := elemOf(t)
	return isPtrType(t) && e != nil && e.Kind() == cc.Function
}

// exprType is the type of an expression before an array's decay into a
// pointer.
func exprType(n cc.ExpressionNode) cc.Type {
	t := n.Type()
	if p, ok := t.(*cc.PointerType); ok {
		if u := p.Undecay(); u != nil && u.Kind() == cc.Array {
			return u
		}
	}
	return t
}

func isPtrType(t cc.Type) bool { return t != nil && t.Kind() == cc.Ptr }

func isPtrOrArray(t cc.Type) bool {
	return t != nil && (t.Kind() == cc.Ptr || t.Kind() == cc.Array)
}

// elemOf is the type a pointer or array type points to.
func elemOf(t cc.Type) cc.Type {
	switch x := t.(type) {
	case *cc.PointerType:
		return x.Elem()
	case *cc.ArrayType:
		return x.Elem()
	}
	return nil
}

// memUnsupported reports a value, variable or parameter of a memory
// type that the lowering does not handle.
func (l *lowerer) memUnsupported(at cc.Node, t cc.Type, what string) {
	kind := "a pointer, array, struct or union"
	switch t.Kind() {
	case cc.Ptr:
		kind = "a pointer"
	case cc.Array:
		kind = "an array"
	case cc.Struct:
		kind = "a struct"
	case cc.Union:
		kind = "a union"
	}
	l.unsupported(at, "%s is %s (type %s) that birch does not lower", what, kind, t)
}

// needsObject tells whether a variable of type t lives in memory: an
// array, a struct, a mutex, or any variable whose address is taken.
func needsObject(t cc.Type, addrTaken bool) bool {
	if addrTaken || isMutexType(t) {
		return true
	}
	k := t.Kind()
	return k == cc.Array || k == cc.Struct || k == cc.Union
}

// scalarOf is the cell type of a scalar: an integer type or a pointer.
func (l *lowerer) scalarOf(t cc.Type) (intType, bool) {
	if isPtrType(t) {
		return tPtr, true
	}
	if class, it := l.classify(t); class == classInt {
		return it, true
	}
	return intType{}, false
}

// memGlobal is the BIR variable of a C file-scope variable of a memory
// type or whose address is taken: a pointer not in memory is an int64
// global, a scalar in memory the cell of its object; nil for an array or
// a struct (memLoc finds them) or when unsupported (reported).
func (l *lowerer) memGlobal(name string, fv *fileVar, at cc.Node) (*variable, bool) {
	dr := fv.decls[0]
	addr := false
	for _, d := range fv.decls {
		addr = addr || d.AddressTaken()
	}
	t := dr.Type()
	if !needsObject(t, addr) && !isPtrType(t) {
		return nil, false
	}
	if isFuncPtr(t) {
		l.unsupported(nameOf(dr), "the global %s is a function pointer", name)
		return nil, true
	}
	if !fv.defined {
		l.unsupported(at, "%s is declared extern and defined outside the program: its memory is unknown", name)
		return nil, true
	}
	if !needsObject(t, addr) {
		g := &globalVar{name: uniqueName(name, l.globalNames()), t: tPtr, pos: pos(nameOf(dr).Position())}
		l.globalBy[name] = g
		if fv.init != nil {
			g.init = l.constPtrInit(fv.init, t)
		}
		l.globals = append(l.globals, g)
		return &variable{name: g.name, t: g.t, global: true}, true
	}
	o := l.staticObject(name, dr, t, fv.init)
	if o == nil {
		return nil, true
	}
	if st, ok := l.scalarOf(t); ok && !isMutexType(t) {
		return &variable{name: fmt.Sprintf("$mem[%d][0]", o.id), t: st, global: true, cell: true, cname: name}, true
	}
	return nil, true
}

// staticObject is the object of a variable of static duration, made on
// first use with its constant initial value.
func (l *lowerer) staticObject(key any, dr *cc.Declarator, t cc.Type, init *cc.Initializer) *staticObj {
	l.memInit()
	if o := l.mem.objBy[key]; o != nil {
		return o
	}
	n, ok := l.cellsOf(nameOf(dr), t)
	if !ok {
		return nil
	}
	l.mem.used = true
	o := &staticObj{id: len(l.mem.objects) + 1, name: dr.Name(), t: t, cells: n, pos: nameOf(dr)}
	l.mem.objects = append(l.mem.objects, o)
	l.mem.objBy[key] = o
	if n > l.mem.maxCells {
		l.mem.maxCells = n
	}
	if init != nil && !isMutexType(t) {
		l.constObjectInit(o, t, init)
	}
	return o
}

// constObjectInit sets the initial values of a static object: integer
// constants and null pointers (every other cell is 0, as C's static
// initialisation).
func (l *lowerer) constObjectInit(o *staticObj, t cc.Type, init *cc.Initializer) {
	l.initLeaves(init, t, 0, func(at cc.Node, cell int, lt cc.Type, e cc.ExpressionNode) {
		if isPtrType(lt) {
			if v, ok := l.constPtr(e, lt); ok && v != "0" {
				o.init = append(o.init, fmt.Sprintf("$mem[%d][%d] := %s;", o.id, cell, v))
			}
			return
		}
		it, ok := l.scalarOf(lt)
		if !ok {
			l.unsupported(at, "an initializer of type %s", lt)
			return
		}
		v, ok := constValue(e)
		if !ok {
			l.unsupported(at, "an initializer that is not an integer constant")
			return
		}
		if it.isBool {
			if v.Sign() != 0 {
				v = big.NewInt(1)
			}
		} else {
			v = wrapTo(v, it)
		}
		if v.Sign() != 0 {
			o.init = append(o.init, fmt.Sprintf("$mem[%d][%d] := %s;", o.id, cell, literal(v, it)))
		}
	})
}

// initLeaves calls f for each scalar initializer of an object of type t
// (an initializer list, or one expression for a scalar object), with
// its cell.
func (l *lowerer) initLeaves(init *cc.Initializer, t cc.Type, base int64, f func(at cc.Node, cell int, lt cc.Type, e cc.ExpressionNode)) {
	if init.Case == cc.InitializerExpr {
		e := init.AssignmentExpression
		if e != nil && (e.Type().Kind() == cc.Struct || e.Type().Kind() == cc.Array) {
			l.unsupported(init, "an initializer that copies a struct or an array")
			return
		}
		lt := init.Type()
		if lt == nil {
			lt = t
		}
		cell, ok := l.cellOfByte(init, t, init.Offset()-base)
		if !ok && t.Kind() != cc.Array && t.Kind() != cc.Struct {
			cell, ok = 0, true
		}
		if !ok {
			l.unsupported(init, "an initializer birch cannot place")
			return
		}
		if p, ok := stripParens(e).(*cc.PrimaryExpression); ok && (p.Case == cc.PrimaryExpressionString || p.Case == cc.PrimaryExpressionLString) {
			l.unsupported(init, "a string literal")
			return
		}
		f(init, cell, lt, e)
		return
	}
	for il := init.InitializerList; il != nil; il = il.InitializerList {
		if il.Initializer != nil {
			l.initLeaves(il.Initializer, t, base, f)
		}
	}
}

func isNullConst(e cc.ExpressionNode) bool {
	if e == nil {
		return false
	}
	v, ok := e.Value().(cc.Int64Value)
	if ok && v == 0 {
		return true
	}
	u, ok := e.Value().(cc.UInt64Value)
	if ok && u == 0 {
		return true
	}
	if pv, ok := e.Value().(*cc.UnknownValue); ok && pv == nil {
		return false
	}
	return false
}

// memDeclare declares a local of a memory type or whose address is
// taken.
func (fl *fnLowerer) memDeclare(dr *cc.Declarator, init *cc.Initializer, rest []*cc.BlockItem) {
	t := dr.Type()
	if isFuncPtr(t) {
		fl.l.unsupported(nameOf(dr), "the variable %s is a function pointer", dr.Name())
		return
	}
	if dr.IsStatic() {
		if !needsObject(t, dr.AddressTaken()) {
			if !isPtrType(t) {
				fl.l.memUnsupported(nameOf(dr), t, "the variable "+dr.Name())
				return
			}
			g := &globalVar{name: uniqueName(dr.Name(), fl.l.globalNames()), t: tPtr, pos: pos(nameOf(dr).Position())}
			if init != nil {
				g.init = fl.l.constPtrInit(init, t)
			}
			fl.l.globals = append(fl.l.globals, g)
			fl.vars[dr] = &variable{name: g.name, t: tPtr, global: true}
			fl.globalName[g.name] = true
			return
		}
		o := fl.l.staticObject(dr, dr, t, init)
		if o == nil {
			return
		}
		fl.globalName["$mem"] = true
		if st, ok := fl.l.scalarOf(t); ok && !isMutexType(t) {
			fl.vars[dr] = &variable{name: fmt.Sprintf("$mem[%d][0]", o.id), t: st, global: true, cell: true, cname: dr.Name()}
		}
		return
	}
	if !needsObject(t, dr.AddressTaken()) {
		if !isPtrType(t) {
			fl.l.memUnsupported(nameOf(dr), t, "the variable "+dr.Name())
			return
		}
		v := &variable{name: uniqueName(dr.Name(), fl.names), t: tPtr}
		fl.locals = append(fl.locals, v)
		fl.vars[dr] = v
		fl.stmtStart(dr)
		switch {
		case init == nil:
			if !assignedBeforeRead(dr, rest) {
				fl.b.act("%s := %s;", v.name, poison)
				fl.memState().poisoned = append(fl.memState().poisoned, v.name)
			}
		case init.Case == cc.InitializerExpr:
			fl.store(v, fl.ptrValue(init.AssignmentExpression, t))
		default:
			fl.l.unsupported(init, "an initializer list for a pointer")
		}
		return
	}
	n, ok := fl.l.cellsOf(nameOf(dr), t)
	if !ok {
		return
	}
	if fl.isDirect(dr) {
		fl.declareDirect(dr, init, n)
		return
	}
	id := fl.localObject(dr, uniqueName(dr.Name(), fl.names), n)
	if st, ok := fl.l.scalarOf(t); ok && !isMutexType(t) {
		fl.vars[dr] = &variable{name: fmt.Sprintf("$mem[%s][0]", id.name), t: st, global: true, cell: true, cname: dr.Name()}
	}
	fl.stmtStart(dr)
	if fl.inLoop(dr) {
		// the declaration runs again: its object is reused (as a compiler
		// reuses the stack slot), initialised anew
		fresh, again := fl.b.newLabel(), fl.b.newLabel()
		fl.b.branch(id.name+" == 0", fresh, again)
		fl.b.place(fresh, false)
		fl.alloc(id.name, strconv.Itoa(n), t, false)
		fl.b.place(again, false)
	} else {
		fl.alloc(id.name, strconv.Itoa(n), t, false)
	}
	loc := memLoc{id: id.name, t: t, whole: true}
	switch {
	case init == nil:
		if !isMutexType(t) {
			for i := 0; i < n; i++ {
				fl.b.act("$mem[%s][%d] := %s;", id.name, i, poison)
			}
		}
	case isMutexType(t):
	case init.Case == cc.InitializerExpr && t.Kind() == cc.Struct:
		fl.copyObject(loc, init.AssignmentExpression, n)
	default:
		fl.l.initLeaves(init, t, init.Offset(), func(at cc.Node, cell int, lt cc.Type, e cc.ExpressionNode) {
			c := loc
			c.k = int64(cell)
			fl.writeScalar(c, lt, e)
		})
	}
}

func (fl *fnLowerer) memState() *fnMem {
	if fl.mem == nil {
		fl.mem = &fnMem{objs: map[*cc.Declarator]string{}, direct: map[*cc.Declarator]string{}}
	}
	return fl.mem
}

// alloc allocates an object of n cells (a BIR expression) whose number
// goes into the variable v: heap tells whether free may free it.
func (fl *fnLowerer) alloc(v, n string, t cc.Type, heap bool) {
	fl.shared()
	fl.b.act("%s := $nobj + 1;", v)
	fl.b.act("$mem[%s] := new $heap[%s];", v, n)
	fl.l.mem.useTy = true
	code := fl.l.mem.typeCode(baseElem(t))
	if !heap {
		code = -code
	}
	fl.b.act("$ty[%s] := %d;", v, code)
	fl.b.act("$nobj := %s;", v)
}

// baseElem strips a type's arrays: the type whose code $ty records.
func baseElem(t cc.Type) cc.Type {
	for t != nil && t.Kind() == cc.Array {
		t = t.(*cc.ArrayType).Elem()
	}
	return t
}

// writeScalar stores the value of e, converted to the scalar type lt,
// into the cell of loc.
func (fl *fnLowerer) writeScalar(loc memLoc, lt cc.Type, e cc.ExpressionNode) {
	st, ok := fl.l.scalarOf(lt)
	if !ok {
		fl.l.unsupported(e, "a value of type %s in memory", lt)
		return
	}
	var o operand
	if isPtrType(lt) {
		o = fl.ptrValue(e, lt)
	} else {
		o = fl.rval(e)
	}
	fl.store(loc.cellVar(st), o)
}

// copyObject copies n cells of the object e designates (a struct
// lvalue), or of from when e is nil, into loc.
func (fl *fnLowerer) copyObject(loc memLoc, e cc.ExpressionNode, n int, from ...memLoc) {
	var src memLoc
	if e == nil {
		src = from[0]
	} else {
		var ok bool
		if src, ok = fl.memLoc(e); !ok {
			return
		}
	}
	src = fl.stableLoc(src)
	for i := 0; i < n; i++ {
		s, d := src, loc
		s.k += int64(i)
		d.k += int64(i)
		if fl.threaded() && (s.arr == "" || d.arr == "") {
			t := fl.temp(tPtr)
			fl.shared()
			fl.b.act("%s := %s;", t.name, s.cell())
			fl.shared()
			fl.b.act("%s := %s;", d.cell(), t.name)
			continue
		}
		fl.b.act("%s := %s;", d.cell(), s.cell())
	}
}

func (fl *fnLowerer) threaded() bool { return fl.l.mem != nil && fl.l.mem.threaded }

// shared starts a new step if the pending one already makes a shared
// access, when the program has threads: a step of the model makes at most
// one access to memory or globals, as C's interleaving semantics allows.
func (fl *fnLowerer) shared() {
	if !fl.threaded() {
		return
	}
	if fl.b.sharedPending && fl.b.cur != nil && len(fl.b.pending) > 0 {
		fl.b.split()
	}
	fl.b.ensure()
	fl.b.sharedPending = true
}

// readVar reads a variable: in a program with threads, a global or a
// cell is read into a temporary by a step of its own; a cell holding the
// poison value is an error.
func (fl *fnLowerer) readVar(v *variable) operand {
	if v.cell {
		fl.globalName["$mem"] = true // a call may change it
	}
	if !v.cell && !v.global && v.t == tPtr && fl.mem != nil {
		for _, n := range fl.mem.poisoned {
			if n == v.name {
				fl.check("read of the uninitialized pointer "+v.name, v.name+" != "+poison)
			}
		}
	}
	if !v.global || !fl.threaded() {
		if v.cell {
			fl.check(uninitRead(v), v.name+" != "+poison)
		}
		return varOp(v)
	}
	fl.shared()
	if v.cell {
		fl.check(uninitRead(v), v.name+" != "+poison)
	}
	t := fl.temp(v.t)
	fl.b.act("%s := %s;", t.name, v.name)
	return varOp(t)
}

// memLvalue lowers an lvalue that is not a variable: an element, a field,
// a dereference, as the cell variable it designates.
func (fl *fnLowerer) memLvalue(n cc.ExpressionNode) *variable {
	loc, ok := fl.memLoc(n)
	if !ok {
		return nil
	}
	st, ok := fl.l.scalarOf(n.Type())
	if !ok {
		fl.l.memUnsupported(n, n.Type(), "the lvalue "+exprText(n))
		return nil
	}
	return loc.cellVar(st)
}

// stableLoc keeps a loc's pointer in a temporary when it is not an atom.
func (fl *fnLowerer) stableLoc(m memLoc) memLoc {
	if m.base != "" && !isAtom(m.base) {
		t := fl.temp(tPtr)
		fl.b.act("%s := %s;", t.name, m.base)
		m.base = t.name
	}
	return m
}

// pointer lowers an expression of pointer or array type to a pointer
// value held by an atom.
func (fl *fnLowerer) pointer(n cc.ExpressionNode) (string, bool) {
	o := fl.memRval(n)
	if o.void {
		return "", false
	}
	if isAtom(o.e) {
		return o.e, true
	}
	t := fl.temp(tPtr)
	fl.b.act("%s := %s;", t.name, o.e)
	return t.name, true
}

// memLoc is the place an lvalue of memory designates.
func (fl *fnLowerer) memLoc(n cc.ExpressionNode) (memLoc, bool) {
	n = unwrap(n)
	switch x := n.(type) {
	case *cc.PrimaryExpression:
		if x.Case == cc.PrimaryExpressionIdent {
			return fl.objectOf(x)
		}
	case *cc.UnaryExpression:
		if x.Case == cc.UnaryExpressionDeref {
			p, ok := fl.pointer(x.CastExpression)
			if !ok {
				return memLoc{}, false
			}
			return memLoc{base: p, t: n.Type()}, true
		}
	case *cc.PostfixExpression:
		switch x.Case {
		case cc.PostfixExpressionIndex:
			arr, idx := x.PostfixExpression, x.ExpressionList
			if !isPtrOrArray(exprType(arr)) {
				arr, idx = idx, arr
			}
			return fl.indexLoc(x, arr, idx)
		case cc.PostfixExpressionSelect:
			base, ok := fl.memLoc(x.PostfixExpression)
			if !ok {
				return memLoc{}, false
			}
			return fl.fieldLoc(x, base, x.PostfixExpression.Type(), x.Token2.SrcStr())
		case cc.PostfixExpressionPSelect:
			p, ok := fl.pointer(x.PostfixExpression)
			if !ok {
				return memLoc{}, false
			}
			return fl.fieldLoc(x, memLoc{base: p}, elemOf(x.PostfixExpression.Type()), x.Token2.SrcStr())
		}
	}
	fl.l.unsupported(n, "the lvalue %s", exprText(n))
	return memLoc{}, false
}

func (fl *fnLowerer) fieldLoc(at cc.Node, base memLoc, st cc.Type, name string) (memLoc, bool) {
	s, ok := st.(*cc.StructType)
	if !ok {
		fl.l.memUnsupported(at, st, "the object of "+exprText(at))
		return memLoc{}, false
	}
	off, ft, ok := fl.l.fieldCell(at, s, name)
	if !ok {
		return memLoc{}, false
	}
	if isMutexType(ft) {
		fl.l.unsupported(at, "a mutex inside a struct")
		return memLoc{}, false
	}
	base.k += int64(off)
	base.t = ft
	base.whole = false
	return base, true
}

// indexLoc is arr[idx]: an element of an array object (bounds checked
// against the array's length when it is part of an object), or the
// element a pointer plus idx designates (bounds checked against the
// object's by BIR).
func (fl *fnLowerer) indexLoc(at cc.Node, arr, idx cc.ExpressionNode) (memLoc, bool) {
	at2 := exprType(arr)
	et := elemOf(at2)
	if et == nil {
		fl.l.unsupported(at, "the index expression %s", exprText(at))
		return memLoc{}, false
	}
	c, ok := fl.l.cellsOf(at, et)
	if !ok {
		return memLoc{}, false
	}
	var base memLoc
	if at2.Kind() == cc.Array {
		if base, ok = fl.memLoc(arr); !ok {
			return memLoc{}, false
		}
	} else {
		p, ok := fl.pointer(arr)
		if !ok {
			return memLoc{}, false
		}
		base = memLoc{base: p}
	}
	i := fl.exact(fl.promote(fl.rval(idx)))
	if i.isConst() {
		k := i.lo.Int64()
		if at2.Kind() == cc.Array && !base.whole {
			if n := at2.(*cc.ArrayType).Len(); k < 0 || k >= n {
				// not assert(false), a property's assertion
				fl.check(fmt.Sprintf("index %d outside an array of %d elements", k, n), fmt.Sprintf("0 <= %d && %d < %d", k, k, n))
			}
		}
		base.k += k * int64(c)
	} else {
		ie := i.e
		if !isAtom(ie) {
			t := fl.temp(i.t)
			fl.b.act("%s := %s;", t.name, ie)
			ie = t.name
		}
		if at2.Kind() == cc.Array && !base.whole {
			n := at2.(*cc.ArrayType).Len()
			fl.check(fmt.Sprintf("index outside an array of %d elements", n), fmt.Sprintf("0 <= %s && %s < %d", ie, ie, n))
		}
		if c == 1 {
			base = base.addRel(ie)
		} else {
			base = base.addRel(fmt.Sprintf("%s * %d", ie, c))
		}
	}
	base.t = et
	base.whole = false
	return base, true
}

// objectOf is the object a variable of memory names.
func (fl *fnLowerer) objectOf(p *cc.PrimaryExpression) (memLoc, bool) {
	name := p.Token.SrcStr()
	dr, _ := p.ResolvedTo().(*cc.Declarator)
	if dr != nil {
		if arr, ok := fl.memState().direct[dr]; ok {
			return memLoc{arr: arr, t: dr.Type(), whole: true}, true
		}
		if id, ok := fl.memState().objs[dr]; ok {
			return memLoc{id: id, t: dr.Type(), whole: true}, true
		}
		if fl.l.mem != nil {
			if o := fl.l.mem.objBy[dr]; o != nil {
				return memLoc{id: strconv.Itoa(o.id), t: o.t, whole: true}, true
			}
		}
	}
	if fv := fl.l.fileVars[name]; fv != nil && (dr == nil || dr.IsExtern() || isFileScope(fl.l, dr)) {
		fl.l.global(name, p)
		if fl.l.mem != nil {
			if o := fl.l.mem.objBy[name]; o != nil {
				fl.globalName["$mem"] = true
				return memLoc{id: strconv.Itoa(o.id), t: o.t, whole: true}, true
			}
		}
		return memLoc{}, false
	}
	fl.l.unsupported(p, "the address of %s", name)
	return memLoc{}, false
}

// unwrap skips the parentheses and the single-operand levels of cc's
// expression tree.
func unwrap(n cc.ExpressionNode) cc.ExpressionNode {
	for {
		n = stripParens(n)
		switch x := n.(type) {
		case *cc.ConstantExpression:
			n = x.ConditionalExpression
			continue
		case *cc.AssignmentExpression:
			if x.Case == cc.AssignmentExpressionCond {
				n = x.ConditionalExpression
				continue
			}
		case *cc.ConditionalExpression:
			if x.Case == cc.ConditionalExpressionLOr {
				n = x.LogicalOrExpression
				continue
			}
		case *cc.LogicalOrExpression:
			if x.Case == cc.LogicalOrExpressionLAnd {
				n = x.LogicalAndExpression
				continue
			}
		case *cc.LogicalAndExpression:
			if x.Case == cc.LogicalAndExpressionOr {
				n = x.InclusiveOrExpression
				continue
			}
		case *cc.InclusiveOrExpression:
			if x.Case == cc.InclusiveOrExpressionXor {
				n = x.ExclusiveOrExpression
				continue
			}
		case *cc.ExclusiveOrExpression:
			if x.Case == cc.ExclusiveOrExpressionAnd {
				n = x.AndExpression
				continue
			}
		case *cc.AndExpression:
			if x.Case == cc.AndExpressionEq {
				n = x.EqualityExpression
				continue
			}
		case *cc.EqualityExpression:
			if x.Case == cc.EqualityExpressionRel {
				n = x.RelationalExpression
				continue
			}
		case *cc.RelationalExpression:
			if x.Case == cc.RelationalExpressionShift {
				n = x.ShiftExpression
				continue
			}
		case *cc.ShiftExpression:
			if x.Case == cc.ShiftExpressionAdd {
				n = x.AdditiveExpression
				continue
			}
		case *cc.AdditiveExpression:
			if x.Case == cc.AdditiveExpressionMul {
				n = x.MultiplicativeExpression
				continue
			}
		case *cc.MultiplicativeExpression:
			if x.Case == cc.MultiplicativeExpressionCast {
				n = x.CastExpression
				continue
			}
		case *cc.CastExpression:
			if x.Case == cc.CastExpressionUnary {
				n = x.UnaryExpression
				continue
			}
		case *cc.UnaryExpression:
			if x.Case == cc.UnaryExpressionPostfix {
				n = x.PostfixExpression
				continue
			}
		case *cc.PostfixExpression:
			if x.Case == cc.PostfixExpressionPrimary {
				n = x.PrimaryExpression
				continue
			}
		}
		return n
	}
}

// memRval lowers an expression whose value has a memory type, or that
// reads memory (an element, a field, a dereference, an address).
func (fl *fnLowerer) memRval(n cc.ExpressionNode) operand {
	n = unwrap(n)
	t := n.Type()
	switch x := n.(type) {
	case *cc.ExpressionList:
		for l := x; l != nil; l = l.ExpressionList {
			if l.ExpressionList == nil {
				return fl.memRval(l.AssignmentExpression)
			}
			fl.effect(l.AssignmentExpression)
		}
	case *cc.AssignmentExpression:
		return fl.memAssign(x)
	case *cc.ConditionalExpression:
		return fl.memConditional(x)
	case *cc.CastExpression:
		return fl.memCast(x)
	case *cc.UnaryExpression:
		switch x.Case {
		case cc.UnaryExpressionAddrof:
			if ft := x.CastExpression.Type(); ft != nil && ft.Kind() == cc.Function {
				fl.l.unsupported(x, "the address of a function (function pointers)")
				return fl.nullOp()
			}
			loc, ok := fl.memLoc(x.CastExpression)
			if !ok {
				return fl.nullOp()
			}
			return ptrOp(loc.ptr())
		case cc.UnaryExpressionDeref:
			return fl.access(x)
		case cc.UnaryExpressionInc:
			return fl.memIncDec(x.UnaryExpression, "+", false, true)
		case cc.UnaryExpressionDec:
			return fl.memIncDec(x.UnaryExpression, "-", false, true)
		}
	case *cc.PostfixExpression:
		switch x.Case {
		case cc.PostfixExpressionIndex, cc.PostfixExpressionSelect, cc.PostfixExpressionPSelect:
			return fl.access(x)
		case cc.PostfixExpressionCall:
			return fl.call(x, true)
		case cc.PostfixExpressionInc:
			return fl.memIncDec(x.PostfixExpression, "+", true, true)
		case cc.PostfixExpressionDec:
			return fl.memIncDec(x.PostfixExpression, "-", true, true)
		}
	case *cc.PrimaryExpression:
		switch x.Case {
		case cc.PrimaryExpressionIdent:
			if t != nil && t.Kind() == cc.Function {
				fl.l.unsupported(x, "the function %s used as a value (function pointers)", x.Token.SrcStr())
				return fl.nullOp()
			}
			if dr, ok := x.ResolvedTo().(*cc.Declarator); ok && dr.Type() != nil {
				if k := dr.Type().Kind(); k == cc.Array || k == cc.Struct || k == cc.Union {
					return fl.access(x)
				}
			}
			if t != nil && t.Kind() != cc.Ptr {
				return fl.access(x)
			}
			if v := fl.ident(x); v != nil {
				return fl.readVar(v)
			}
			return fl.nullOp()
		case cc.PrimaryExpressionString, cc.PrimaryExpressionLString:
			fl.l.unsupported(x, "a string literal")
			return fl.nullOp()
		}
	case *cc.AdditiveExpression:
		return fl.ptrArith(x)
	}
	fl.l.unsupported(n, "%s: this use of memory (type %s) is not lowered", exprText(n), t)
	return fl.nullOp()
}

func ptrOp(e string) operand {
	return operand{e: e, t: tPtr, lo: big.NewInt(0), hi: maxInt64}
}

func (fl *fnLowerer) nullOp() operand { return ptrOp("0") }

// access reads the scalar an lvalue of memory designates, or the pointer
// an array designates (its decay).
func (fl *fnLowerer) access(n cc.ExpressionNode) operand {
	t := exprType(n)
	if p, ok := n.(*cc.PrimaryExpression); ok {
		if dr, ok := p.ResolvedTo().(*cc.Declarator); ok && dr.Type() != nil {
			t = dr.Type()
		}
	}
	loc, ok := fl.memLoc(n)
	if !ok {
		if st, ok := fl.l.scalarOf(t); ok {
			return constOp(big.NewInt(0), st)
		}
		return fl.nullOp()
	}
	if t.Kind() == cc.Array {
		return ptrOp(loc.ptr())
	}
	st, ok := fl.l.scalarOf(t)
	if !ok || isMutexType(t) {
		fl.l.memUnsupported(n, t, "the value of "+exprText(n))
		return fl.nullOp()
	}
	cv := loc.cellVar(st)
	cv.cname = exprText(n)
	o := fl.readVar(cv)
	if st.isBool {
		o.lo, o.hi = big.NewInt(0), big.NewInt(1)
	}
	return o
}

// ptrArith lowers p + i, i + p, p - i and p - q.
func (fl *fnLowerer) ptrArith(x *cc.AdditiveExpression) operand {
	l, r := x.AdditiveExpression, x.MultiplicativeExpression
	if x.Case == cc.AdditiveExpressionSub && isPtrOrArray(l.Type()) && isPtrOrArray(r.Type()) {
		c, ok := fl.l.cellsOf(x, elemOf(l.Type()))
		if !ok {
			return constOp(big.NewInt(0), tInt)
		}
		p, ok1 := fl.pointer(l)
		q, ok2 := fl.pointer(r)
		if !ok1 || !ok2 {
			return constOp(big.NewInt(0), tInt)
		}
		fl.check("subtraction of pointers into different objects: "+exprText(x), fmt.Sprintf("%s / %d == %s / %d", p, ptrScale, q, ptrScale))
		_, rt := fl.l.classify(x.Type())
		d := fmt.Sprintf("(%s - %s) / %d", p, q, c)
		if c == 1 {
			d = fmt.Sprintf("%s - %s", p, q)
		}
		return operand{e: d, t: rt, lo: big.NewInt(-ptrScale), hi: big.NewInt(ptrScale)}
	}
	if !isPtrOrArray(l.Type()) {
		l, r = r, l
	}
	neg := x.Case == cc.AdditiveExpressionSub
	return fl.ptrAdd(x, l, fl.exact(fl.promote(fl.rval(r))), neg)
}

// ptrAdd is the pointer p plus (or minus) i elements: the result must
// point into p's object or just past it.
func (fl *fnLowerer) ptrAdd(at cc.Node, pe cc.ExpressionNode, i operand, neg bool) operand {
	c, ok := fl.l.cellsOf(at, elemOf(pe.Type()))
	if !ok {
		return fl.nullOp()
	}
	p, ok := fl.pointer(pe)
	if !ok {
		return fl.nullOp()
	}
	return fl.ptrAddOp(at, p, i, c, neg)
}

func (fl *fnLowerer) ptrAddOp(at cc.Node, p string, i operand, c int, neg bool) operand {
	op := "+"
	if neg {
		op = "-"
	}
	var delta string
	if i.isConst() {
		v := new(big.Int).Mul(i.lo, big.NewInt(int64(c)))
		if v.Sign() == 0 {
			return ptrOp(p)
		}
		delta = v.String()
		if v.Sign() < 0 {
			delta = "(" + delta + ")"
		}
	} else {
		delta = paren(i.e)
		if c != 1 {
			delta = fmt.Sprintf("%s * %d", delta, c)
		}
	}
	off := fmt.Sprintf("%s %% %d %s %s", p, ptrScale, op, delta)
	fl.check("pointer arithmetic leaves its object", fmt.Sprintf("0 <= %s && %s <= $mem[%s / %d].length", off, off, p, ptrScale))
	return ptrOp(fmt.Sprintf("%s %s %s", p, op, delta))
}

// memAssign lowers an assignment of a memory type (pointers, structs).
func (fl *fnLowerer) memAssign(n *cc.AssignmentExpression) operand {
	lt := n.UnaryExpression.Type()
	if lt.Kind() == cc.Struct {
		if n.Case != cc.AssignmentExpressionAssign {
			fl.l.unsupported(n, "a compound assignment of a struct")
			return fl.nullOp()
		}
		cells, ok := fl.l.cellsOf(n, lt)
		if !ok {
			return fl.nullOp()
		}
		dst, ok := fl.memLoc(n.UnaryExpression)
		if !ok {
			return fl.nullOp()
		}
		dst = fl.stableLoc(dst)
		fl.copyObject(dst, n.AssignmentExpression, cells)
		return voidOp
	}
	if !isPtrType(lt) {
		fl.l.memUnsupported(n, lt, "the assignment "+exprText(n))
		return fl.nullOp()
	}
	v := fl.ptrLvalue(n.UnaryExpression)
	if v == nil {
		return fl.nullOp()
	}
	var o operand
	switch n.Case {
	case cc.AssignmentExpressionAssign:
		o = fl.ptrValue(n.AssignmentExpression, lt)
	case cc.AssignmentExpressionAdd, cc.AssignmentExpressionSub:
		c, ok := fl.l.cellsOf(n, elemOf(lt))
		if !ok {
			return fl.nullOp()
		}
		i := fl.exact(fl.promote(fl.rval(n.AssignmentExpression)))
		i = fl.stable(i)
		cur := fl.readVar(v)
		p := cur.e
		if !isAtom(p) {
			t := fl.temp(tPtr)
			fl.b.act("%s := %s;", t.name, p)
			p = t.name
		}
		o = fl.ptrAddOp(n, p, i, c, n.Case == cc.AssignmentExpressionSub)
	default:
		fl.l.unsupported(n, "the assignment %s on a pointer", exprText(n))
		return fl.nullOp()
	}
	fl.store(v, o)
	return varOp(v)
}

// ptrLvalue is the variable (a BIR variable or a cell) of a pointer
// lvalue.
func (fl *fnLowerer) ptrLvalue(n cc.ExpressionNode) *variable {
	if p, ok := unwrap(n).(*cc.PrimaryExpression); ok && p.Case == cc.PrimaryExpressionIdent {
		return fl.ident(p)
	}
	return fl.memLvalue(n)
}

// memIncDec lowers ++ and -- on a pointer.
func (fl *fnLowerer) memIncDec(n cc.ExpressionNode, op string, post, want bool) operand {
	if !isPtrType(n.Type()) {
		fl.l.memUnsupported(n, n.Type(), "++ or -- on "+exprText(n))
		return fl.nullOp()
	}
	v := fl.ptrLvalue(n)
	if v == nil {
		return fl.nullOp()
	}
	c, ok := fl.l.cellsOf(n, elemOf(n.Type()))
	if !ok {
		return fl.nullOp()
	}
	cur := fl.readVar(v)
	old := fl.temp(tPtr)
	fl.b.act("%s := %s;", old.name, cur.e)
	res := fl.ptrAddOp(n, old.name, constOp(big.NewInt(1), tInt), c, op == "-")
	fl.store(v, res)
	if post {
		return varOp(old)
	}
	return varOp(v)
}

// memCompare lowers a comparison of pointers.
func (fl *fnLowerer) memCompare(n cc.ExpressionNode, op string, l, r cc.ExpressionNode) operand {
	a := fl.ptrOrNull(l)
	if !r.Pure() && !isAtom(a.e) {
		a = fl.stable(a)
	}
	b := fl.ptrOrNull(r)
	if op != "==" && op != "!=" {
		fl.check("comparison of pointers into different objects: "+exprText(n), fmt.Sprintf("%s / %d == %s / %d", paren(a.e), ptrScale, paren(b.e), ptrScale))
	}
	return boolOp(paren(a.e)+" "+op+" "+paren(b.e), tInt)
}

// ptrOrNull is a pointer operand, or null for an integer constant 0.
func (fl *fnLowerer) ptrOrNull(n cc.ExpressionNode) operand {
	if isPtrOrArray(n.Type()) {
		return fl.memRval(n)
	}
	if isNullConst(n) {
		return fl.nullOp()
	}
	fl.l.unsupported(n, "a comparison of a pointer with an integer")
	return fl.nullOp()
}

// memCast lowers a cast to or from a memory type.
func (fl *fnLowerer) memCast(n *cc.CastExpression) operand {
	if n.Case != cc.CastExpressionCast {
		return fl.memRval(n.UnaryExpression)
	}
	to := n.Type()
	if isPtrType(to) {
		return fl.ptrValue(n.CastExpression, to)
	}
	if class, it := fl.l.classify(to); class == classInt && isPtrOrArray(n.CastExpression.Type()) {
		if it.isBool {
			p := fl.memRval(n.CastExpression)
			return boolOp(paren(p.e)+" != 0", it)
		}
		return fl.ptrToInt(n.CastExpression, it)
	}
	fl.l.unsupported(n, "the cast %s: birch converts pointers only to pointers and to _Bool", exprText(n))
	return fl.nullOp()
}

// ptrValue lowers e converted to the pointer type to: null for a
// constant 0, a new block for malloc and calloc (of to's element type),
// else the pointer e's value, where converting a void * into any other
// pointer type checks that it points to an object of that type.
func (fl *fnLowerer) ptrValue(e cc.ExpressionNode, to cc.Type) operand {
	if isNullConst(e) {
		if e.Pure() {
			return fl.nullOp()
		}
	}
	u := unwrap(e)
	if c, ok := u.(*cc.PostfixExpression); ok && c.Case == cc.PostfixExpressionCall {
		if name := calleeName(c); (name == "malloc" || name == "calloc") && fl.l.funcDefs[name] == nil {
			return fl.mallocCall(c, name, elemOf(to))
		}
	}
	from := e.Type()
	if !isPtrOrArray(from) {
		if isNullConst(e) {
			return fl.nullOp()
		}
		if class, _ := fl.l.classify(from); class == classInt {
			return fl.intToPtr(e)
		}
		if from.Kind() == cc.Function {
			fl.l.unsupported(e, "a function pointer")
			return fl.nullOp()
		}
		return fl.memRval(e)
	}
	o := fl.memRval(e)
	fe, te := elemOf(from), elemOf(to)
	if fe == nil || te == nil || te.Kind() == cc.Void || sameObjectType(fe, te) {
		return o
	}
	if fe.Kind() != cc.Void {
		fl.l.unsupported(e, "a conversion from %s to %s: birch converts between pointer types only through void *", from, to)
		return o
	}
	c, ok := fl.l.cellsOf(e, te)
	if !ok {
		return o
	}
	p := o.e
	if !isAtom(p) {
		t := fl.temp(tPtr)
		fl.b.act("%s := %s;", t.name, p)
		p = t.name
	}
	fl.l.memInit()
	fl.l.mem.useTy = true
	fl.l.mem.used = true
	code := fl.l.mem.typeCode(baseElem(te))
	fl.check(fmt.Sprintf("a void * converted to %s does not point to an object of type %s", to, te),
		fmt.Sprintf("%s == 0 || ($ty[%s / %d] == %d || $ty[%s / %d] == -%d) && %s %% %d %% %d == 0",
			p, p, ptrScale, code, p, ptrScale, code, p, ptrScale, c))
	return ptrOp(p)
}

// sameObjectType tells whether two pointed-to types are the same for the
// memory model (qualifiers aside).
func sameObjectType(a, b cc.Type) bool {
	return a.IsCompatible(b) || a.String() == b.String()
}

func calleeName(c *cc.PostfixExpression) string {
	if p, ok := stripParens(c.PostfixExpression).(*cc.PrimaryExpression); ok && p.Case == cc.PrimaryExpressionIdent {
		return p.Token.SrcStr()
	}
	return ""
}

// memConditional lowers c ? p : q of a pointer type.
func (fl *fnLowerer) memConditional(n *cc.ConditionalExpression) operand {
	t := n.Type()
	if !isPtrType(t) || n.ExpressionList == nil {
		fl.l.memUnsupported(n, t, "the conditional "+exprText(n))
		return fl.nullOp()
	}
	v := fl.temp(tPtr)
	tl, fl2, end := fl.b.newLabel(), fl.b.newLabel(), fl.b.newLabel()
	fl.cond(n.LogicalOrExpression, tl, fl2)
	fl.b.place(tl, false)
	fl.store(v, fl.ptrValue(n.ExpressionList, t))
	fl.b.jump(end)
	fl.b.place(fl2, false)
	fl.store(v, fl.ptrValue(n.ConditionalExpression, t))
	fl.b.place(end, false)
	return varOp(v)
}

// mallocCall allocates a block for malloc(n) or calloc(n, size) used as
// an array of elem: its length in cells is the number of whole elements
// it holds. malloc's block is indeterminate (poison), calloc's zero.
// Allocation may fail, as C's may (the result is then null): a program
// that reaches an error only when malloc fails reaches it in the model
// too, and one that dereferences the result unchecked meets a null
// dereference.
func (fl *fnLowerer) mallocCall(n *cc.PostfixExpression, name string, elem cc.Type) operand {
	var args []cc.ExpressionNode
	for a := n.ArgumentExpressionList; a != nil; a = a.ArgumentExpressionList {
		args = append(args, a.AssignmentExpression)
	}
	if name == "malloc" && len(args) != 1 || name == "calloc" && len(args) != 2 {
		fl.l.unsupported(n, "a call of %s with %d arguments", name, len(args))
		return fl.nullOp()
	}
	if elem == nil || elem.Kind() == cc.Void {
		elem = fl.l.ast.UChar
	}
	c, ok := fl.l.cellsOf(n, elem)
	if !ok {
		return fl.nullOp()
	}
	if isMutexType(elem) {
		fl.l.unsupported(n, "a mutex on the heap")
		return fl.nullOp()
	}
	size := elem.Size()
	if size <= 0 {
		fl.l.unsupported(n, "a block of %s, whose size is unknown", elem)
		return fl.nullOp()
	}
	bytes := fl.exact(fl.promote(fl.rval(args[0])))
	if name == "calloc" {
		bytes = fl.stable(bytes)
		b2 := fl.exact(fl.promote(fl.rval(args[1])))
		bytes = fl.exact(fl.binop("*", bytes, b2, bytes.t))
	}
	fl.l.memInit()
	fl.l.mem.used = true
	fl.globalName["$mem"] = true
	// the allocation may fail, as C's may: the result is then null
	// (unless Config.MallocNeverFails)
	r := fl.temp(tPtr)
	cond := "true"
	if !fl.l.cfg.MallocNeverFails {
		succeeds := fl.temp(tBool)
		fl.b.act("%s := externChoose(0 .. 1);", succeeds.name)
		cond = succeeds.name + " != 0"
	}
	failed, alloc, end := fl.b.newLabel(), fl.b.newLabel(), fl.b.newLabel()
	fl.b.branch(cond, alloc, failed)
	fl.b.place(failed, false)
	fl.b.act("%s := 0;", r.name)
	fl.b.jump(end)
	fl.b.place(alloc, false)
	id := fl.temp(tPtr)
	var length string
	if bytes.isConst() {
		cells := new(big.Int).Quo(bytes.lo, big.NewInt(size))
		cells.Mul(cells, big.NewInt(int64(c)))
		if !cells.IsInt64() || cells.Int64() > maxObjectCells {
			fl.l.unsupported(n, "a block of %s cells", cells)
			return fl.nullOp()
		}
		k := int(cells.Int64())
		if k > fl.l.mem.maxCells {
			fl.l.mem.maxCells = k
		}
		length = strconv.Itoa(k)
		fl.alloc(id.name, length, elem, true)
		if name == "malloc" {
			for i := 0; i < k; i++ {
				fl.b.act("$mem[%s][%d] := %s;", id.name, i, poison)
			}
		}
	} else {
		lt := fl.temp(tPtr)
		fl.b.act("%s := %s / %d * %d;", lt.name, paren(bytes.e), size, c)
		fl.l.mem.tooLarge = true
		ok, big := fl.b.newLabel(), fl.b.newLabel()
		fl.b.branch(fmt.Sprintf("%s <= $CELLS", lt.name), ok, big)
		fl.b.place(big, false)
		fl.b.act("$tooLarge := new $objectTooLarge[0];")
		fl.b.jump(ok)
		fl.b.place(ok, false)
		fl.alloc(id.name, lt.name, elem, true)
		if name == "malloc" {
			i := fl.temp(tPtr)
			loop, done := fl.b.newLabel(), fl.b.newLabel()
			fl.b.act("%s := 0;", i.name)
			fl.b.place(loop, false)
			body := fl.b.newLabel()
			fl.b.branch(fmt.Sprintf("%s < %s", i.name, lt.name), body, done)
			fl.b.place(body, false)
			fl.b.act("$mem[%s][%s] := %s;", id.name, i.name, poison)
			fl.b.act("%s := %s + 1;", i.name, i.name)
			fl.b.jump(loop)
			fl.b.place(done, false)
		}
	}
	fl.b.act("%s := %s * %d;", r.name, id.name, ptrScale)
	fl.b.place(end, false)
	return varOp(r)
}

// freeCall lowers free(p): nothing for null; else p must be the start of
// a live block of the heap: a freed one is null in $mem, so freeing it
// again is BIR's null-dereference error.
func (fl *fnLowerer) freeCall(n *cc.PostfixExpression, args []cc.ExpressionNode) operand {
	if len(args) != 1 {
		fl.l.unsupported(n, "a call of free with %d arguments", len(args))
		return voidOp
	}
	p, ok := fl.pointer(args[0])
	if !ok {
		return voidOp
	}
	fl.l.memInit()
	fl.l.mem.used = true
	fl.l.mem.useTy = true
	t := fl.temp(tPtr)
	then, end := fl.b.newLabel(), fl.b.newLabel()
	fl.b.branch(p+" != 0", then, end)
	fl.b.place(then, false)
	fl.shared()
	fl.b.act("%s := $mem[%s / %d].length;", t.name, p, ptrScale)
	fl.check("free of a pointer that is not the start of a block of the heap", fmt.Sprintf("%s %% %d == 0 && $ty[%s / %d] > 0", p, ptrScale, p, ptrScale))
	fl.b.act("$mem[%s / %d] := null;", p, ptrScale)
	fl.b.place(end, false)
	return voidOp
}

// memCall lowers the calls of the C library's memory and thread
// functions; ok is false for any other function.
func (fl *fnLowerer) memCall(n *cc.PostfixExpression, name string, args []cc.ExpressionNode, want bool) (operand, bool) {
	switch name {
	case "malloc", "calloc":
		return fl.mallocCall(n, name, nil), true
	case "free":
		return fl.freeCall(n, args), true
	case "memset", "__builtin_memset":
		return fl.memsetCall(n, args), true
	case "memcpy", "__builtin_memcpy":
		return fl.memcpyCall(n, args), true
	}
	return fl.threadCall(n, name, args, want)
}

// memExitActs are the actions of a function's return: its local objects
// die.
func (fl *fnLowerer) memExitActs() []string {
	var acts []string
	if fl.mem != nil {
		for _, id := range fl.mem.owned {
			acts = append(acts, fmt.Sprintf("$mem[%s] := null;", id))
		}
	}
	if strings.HasPrefix(fl.fn.cname, atomicPrefix) {
		acts = append(acts, "unlock($atomic);")
	}
	return acts
}

// memParam gives a parameter of pointer type its BIR type; ok is false
// for other memory types (reported).
func (l *lowerer) memParam(p *cc.Parameter, fn string) (intType, bool) {
	t := p.Type()
	if isFuncPtr(t) {
		l.unsupported(p, "the parameter %s of %s is a function pointer", p.Name(), fn)
		return tInt, false
	}
	if isPtrOrArray(t) {
		return tPtr, true
	}
	l.memUnsupported(p, t, "the parameter "+p.Name()+" of "+fn)
	return tInt, false
}

// memParams moves the parameters whose address is taken into objects, at
// the function's start.
func (fl *fnLowerer) memParams(ps []*cc.Parameter) {
	fl.structParamsIn()
	for _, p := range ps {
		dr := p.Declarator
		if dr == nil || !dr.AddressTaken() {
			continue
		}
		v := fl.vars[dr]
		if v == nil {
			continue
		}
		st, ok := fl.l.scalarOf(dr.Type())
		if !ok {
			continue
		}
		fl.l.memInit()
		fl.l.mem.used = true
		fl.globalName["$mem"] = true
		id := &variable{name: uniqueName(v.name+"$obj", fl.names), t: tPtr}
		fl.locals = append(fl.locals, id)
		fl.memState().objs[dr] = id.name
		if !fl.isMain {
			fl.memState().owned = append(fl.memState().owned, id.name)
		}
		fl.alloc(id.name, "1", dr.Type(), false)
		fl.b.act("$mem[%s][0] := %s;", id.name, v.name)
		fl.vars[dr] = &variable{name: fmt.Sprintf("$mem[%s][0]", id.name), t: st, global: true, cell: true, cname: dr.Name()}
	}
}

// inLoop tells whether a local's declaration may run again in one call
// of the function: it stands in a loop's body, or after a label (a goto
// may come back).
func (fl *fnLowerer) inLoop(dr *cc.Declarator) bool {
	body := fl.fn.def.CompoundStatement
	found := false
	var visit func(n cc.Node, loop bool) bool
	visit = func(n cc.Node, loop bool) bool {
		if found {
			return false
		}
		if d, ok := n.(*cc.Declarator); ok && d == dr {
			found = loop
			return false
		}
		switch x := n.(type) {
		case *cc.IterationStatement:
			walkUntil(x, func(m cc.Node) bool {
				if m == cc.Node(x) {
					return true
				}
				visit(m, true)
				return false
			})
			return false
		case *cc.LabeledStatement:
			if x.Case == cc.LabeledStatementLabel {
				loop = true
			}
		}
		walkUntil(n, func(m cc.Node) bool {
			if m == n {
				return true
			}
			visit(m, loop)
			return false
		})
		return false
	}
	visit(body, len(fl.labels) > 0)
	return found
}

// constPtrInit is the initial value of a pointer of static duration ("" for
// null).
func (l *lowerer) constPtrInit(init *cc.Initializer, t cc.Type) string {
	if init.Case != cc.InitializerExpr {
		l.unsupported(init, "an initializer list for a pointer")
		return ""
	}
	v, ok := l.constPtr(init.AssignmentExpression, t)
	if !ok || v == "0" {
		return ""
	}
	return v
}

// constPtr is the value of an address constant converted to the pointer
// type to: null, the address of a variable of static duration or of an
// element or field of one, an array's name (reported otherwise).
func (l *lowerer) constPtr(e cc.ExpressionNode, to cc.Type) (string, bool) {
	if isNullConst(e) && e.Pure() {
		return "0", true
	}
	u := unwrap(e)
	if c, ok := u.(*cc.CastExpression); ok && c.Case == cc.CastExpressionCast {
		u = unwrap(c.CastExpression)
	}
	var loc memLoc
	ok := false
	if a, isU := u.(*cc.UnaryExpression); isU && a.Case == cc.UnaryExpressionAddrof {
		loc, ok = l.constLoc(a.CastExpression)
	} else if exprType(u) != nil && exprType(u).Kind() == cc.Array {
		loc, ok = l.constLoc(u)
	}
	if !ok {
		l.unsupported(e, "a pointer initializer that is not null or the address of a variable of static duration")
		return "0", false
	}
	if fe, te := elemOf(exprType(u)), elemOf(to); isPtrOrArray(exprType(u)) && fe != nil && te != nil && te.Kind() != cc.Void && !sameObjectType(fe, te) {
		l.unsupported(e, "a conversion from %s to %s in an initializer", exprType(u), to)
		return "0", false
	}
	return loc.ptr(), true
}

// constLoc is the place of an lvalue of static duration with constant
// indices.
func (l *lowerer) constLoc(n cc.ExpressionNode) (memLoc, bool) {
	n = unwrap(n)
	switch x := n.(type) {
	case *cc.PrimaryExpression:
		if x.Case != cc.PrimaryExpressionIdent {
			return memLoc{}, false
		}
		name := x.Token.SrcStr()
		if fv := l.fileVars[name]; fv == nil {
			return memLoc{}, false
		}
		l.global(name, x)
		if l.mem == nil || l.mem.objBy[name] == nil {
			return memLoc{}, false
		}
		o := l.mem.objBy[name]
		return memLoc{id: strconv.Itoa(o.id), t: o.t, whole: true}, true
	case *cc.PostfixExpression:
		switch x.Case {
		case cc.PostfixExpressionIndex:
			at := exprType(x.PostfixExpression)
			if at == nil || at.Kind() != cc.Array {
				return memLoc{}, false
			}
			base, ok := l.constLoc(x.PostfixExpression)
			i, ok2 := constValue(x.ExpressionList)
			if !ok || !ok2 || !i.IsInt64() {
				return memLoc{}, false
			}
			arr := at.(*cc.ArrayType)
			if i.Int64() < 0 || i.Int64() > arr.Len() {
				return memLoc{}, false
			}
			c, ok := l.cellsOf(x, arr.Elem())
			if !ok {
				return memLoc{}, false
			}
			base.k += i.Int64() * int64(c)
			base.t, base.whole = arr.Elem(), false
			return base, true
		case cc.PostfixExpressionSelect:
			base, ok := l.constLoc(x.PostfixExpression)
			st, isS := exprType(x.PostfixExpression).(*cc.StructType)
			if !ok || !isS {
				return memLoc{}, false
			}
			off, ft, ok := l.fieldCell(x, st, x.Token2.SrcStr())
			if !ok {
				return memLoc{}, false
			}
			base.k += int64(off)
			base.t, base.whole = ft, false
			return base, true
		}
	}
	return memLoc{}, false
}

// An integer converted to a pointer ((void *)i, as programs pass an int to
// a thread) is the pointer intPtrBase + i, which points to no object (a
// dereference is an index error) and equals no pointer to an object; 0
// is null. Converted back to an integer type it gives i again, as gcc's
// code does; a pointer to an object converted to an integer is an error
// of the model (its address is not modelled).
const (
	intPtrBase  = "4611686018427387904" // 2^62
	intPtrBound = "2305843009213693952" // 2^61: |i| beyond is an error
)

func (fl *fnLowerer) intToPtr(e cc.ExpressionNode) operand {
	i := fl.exact(fl.promote(fl.rval(e)))
	if !isAtom(i.e) {
		t := fl.temp(i.t)
		fl.b.act("%s := %s;", t.name, i.e)
		i = varOp(t)
	}
	v := fl.temp(tPtr)
	next := fl.b.newLabel()
	fl.b.branchActs(i.e+" == 0", []string{v.name + " := 0;"}, []string{
		fmt.Sprintf("assert(-%s <= %s && %s <= %s);", intPtrBound, i.e, i.e, intPtrBound),
		fmt.Sprintf("%s := %s + %s;", v.name, i.e, intPtrBase)}, next)
	fl.b.place(next, false)
	return varOp(v)
}

func (fl *fnLowerer) ptrToInt(e cc.ExpressionNode, it intType) operand {
	p, ok := fl.pointer(e)
	if !ok {
		return constOp(big.NewInt(0), it)
	}
	r := fl.temp(it)
	next := fl.b.newLabel()
	fl.b.branchActs(p+" == 0", []string{r.name + " := 0;"}, []string{
		fmt.Sprintf("assert(%s >= %s - %s);", p, intPtrBase, intPtrBound),
		fmt.Sprintf("%s := %s(%s - %s);", r.name, it.bir(), p, intPtrBase)}, next)
	fl.b.place(next, false)
	return varOp(r)
}

// localObject declares the variable name that holds the number of a local
// object of n cells (removed when the function returns, but for main's).
func (fl *fnLowerer) localObject(dr *cc.Declarator, name string, n int) *variable {
	fl.l.memInit()
	fl.l.mem.used = true
	fl.globalName["$mem"] = true
	if n > fl.l.mem.maxCells {
		fl.l.mem.maxCells = n
	}
	id := &variable{name: name, t: tPtr}
	fl.locals = append(fl.locals, id)
	fl.memState().objs[dr] = id.name
	if !fl.isMain {
		fl.memState().owned = append(fl.memState().owned, id.name)
	}
	return id
}
