package classfile

import (
	"encoding/binary"
	"fmt"
	"math"
	"sort"
)

// reader reads big-endian values from a class file; the first read past
// the end sets err, after which every read returns zero.
type reader struct {
	data []byte
	pos  int
	base int // offset of data[0] in the class file, for messages
	err  *FormatError
}

func (r *reader) fail(off int, format string, args ...any) {
	if r.err == nil {
		r.err = &FormatError{Offset: r.base + off, Msg: fmt.Sprintf(format, args...)}
	}
}

func (r *reader) remaining() int { return len(r.data) - r.pos }

// need reports whether n more bytes are there, failing with what they were
// for when not.
func (r *reader) need(n int, what string) bool {
	if r.err != nil {
		return false
	}
	if n < 0 || n > r.remaining() {
		r.fail(r.pos, "truncated %s: need %d bytes, have %d", what, n, r.remaining())
		return false
	}
	return true
}

func (r *reader) u1(what string) int {
	if !r.need(1, what) {
		return 0
	}
	r.pos++
	return int(r.data[r.pos-1])
}

func (r *reader) u2(what string) int {
	if !r.need(2, what) {
		return 0
	}
	r.pos += 2
	return int(binary.BigEndian.Uint16(r.data[r.pos-2:]))
}

func (r *reader) u4(what string) uint32 {
	if !r.need(4, what) {
		return 0
	}
	r.pos += 4
	return binary.BigEndian.Uint32(r.data[r.pos-4:])
}

func (r *reader) bytes(n int, what string) []byte {
	if !r.need(n, what) {
		return nil
	}
	r.pos += n
	return r.data[r.pos-n : r.pos : r.pos]
}

// count reads a u2 count of items at least min bytes each, failing when
// the rest of the input cannot hold them; the result bounds allocation.
func (r *reader) count(min int, what string) int {
	at := r.pos
	n := r.u2(what + " count")
	if r.err == nil && n*min > r.remaining() {
		r.fail(at, "%s count %d exceeds the %d bytes left", what, n, r.remaining())
		return 0
	}
	return n
}

// parser holds the class being built while its members are read.
type parser struct {
	reader
	c           *Class
	poolOffsets []int // the offset of each constant-pool entry
}

// Parse reads a class file (JVM spec SE 17, chapter 4). A malformed file
// gives a *FormatError naming the byte offset of the fault; Parse never
// panics and allocates no more than a small multiple of len(data).
func Parse(data []byte) (*Class, error) {
	p := &parser{reader: reader{data: data}, c: &Class{}}
	p.parse()
	if p.err != nil {
		return nil, p.err
	}
	return p.c, nil
}

func (p *parser) parse() {
	c := p.c
	if magic := p.u4("magic"); p.err == nil && magic != 0xCAFEBABE {
		p.fail(0, "bad magic %#x, want 0xcafebabe", magic)
	}
	c.Minor = uint16(p.u2("minor_version"))
	c.Major = uint16(p.u2("major_version"))
	p.pool()
	c.Access = uint16(p.u2("access_flags"))
	c.Name = p.classRef(p.u2("this_class"), false, "this_class")
	c.Super = p.classRef(p.u2("super_class"), true, "super_class")
	n := p.count(2, "interfaces")
	for i := 0; i < n && p.err == nil; i++ {
		c.Interfaces = append(c.Interfaces, p.classRef(p.u2("interface"), false, "interface"))
	}
	n = p.count(8, "fields")
	for i := 0; i < n && p.err == nil; i++ {
		p.field()
	}
	n = p.count(8, "methods")
	for i := 0; i < n && p.err == nil; i++ {
		p.method()
	}
	bootstraps := false
	p.attributes("class", func(name string, a *reader) bool {
		switch name {
		case "SourceFile":
			c.SourceFile = p.utf8Ref(a, "SourceFile")
			return true
		case "BootstrapMethods":
			if bootstraps {
				a.fail(0, "two BootstrapMethods attributes")
			}
			bootstraps = true
			p.bootstrapMethods(a)
			return true
		}
		return false
	}, &c.Attributes)
	if p.err == nil {
		p.checkBootstrapIndices()
	}
	if p.err == nil && p.remaining() > 0 {
		p.fail(p.pos, "%d bytes after the class file's end", p.remaining())
	}
}

// bootstrapMethods decodes the BootstrapMethods attribute (4.7.23).
func (p *parser) bootstrapMethods(a *reader) {
	n := a.count(4, "bootstrap_methods")
	for i := 0; i < n && a.err == nil; i++ {
		at := a.pos
		bm := BootstrapMethod{MethodRef: a.u2("bootstrap_method_ref")}
		if _, ok := p.c.At(bm.MethodRef).(MethodHandle); !ok && a.err == nil {
			a.fail(at, "bootstrap method %d: bootstrap_method_ref %d is not a MethodHandle constant", i, bm.MethodRef)
		}
		m := a.count(2, "bootstrap_arguments")
		for j := 0; j < m && a.err == nil; j++ {
			at := a.pos
			k := a.u2("bootstrap argument")
			switch p.c.At(k).(type) {
			case Integer, Float, Long, Double, ClassRef, String, MethodHandle, MethodType, Dynamic:
				if d, ok := p.c.At(k).(Dynamic); ok && d.Kind != TagDynamic {
					a.fail(at, "bootstrap argument %d is an InvokeDynamic constant", k)
				}
			default:
				if a.err == nil {
					a.fail(at, "bootstrap argument %d is not a loadable constant", k)
				}
			}
			bm.Args = append(bm.Args, k)
		}
		p.c.BootstrapMethods = append(p.c.BootstrapMethods, bm)
	}
}

// checkBootstrapIndices checks that every Dynamic and InvokeDynamic
// constant names an entry of the BootstrapMethods attribute.
func (p *parser) checkBootstrapIndices() {
	for i, k := range p.c.Pool {
		if d, ok := k.(Dynamic); ok && d.BootstrapIndex >= len(p.c.BootstrapMethods) {
			p.fail(p.poolOffsets[i], "constant #%d: bootstrap method %d of %d", i, d.BootstrapIndex, len(p.c.BootstrapMethods))
			return
		}
	}
}

// pool reads the constant pool and checks the references between its
// entries.
func (p *parser) pool() {
	at := p.pos
	n := p.u2("constant_pool_count")
	if p.err != nil {
		return
	}
	if n == 0 {
		p.fail(at, "constant_pool_count is 0")
		return
	}
	if (n-1)*3 > p.remaining() { // the shortest entry takes 3 bytes
		p.fail(at, "constant_pool_count %d exceeds the %d bytes left", n, p.remaining())
		return
	}
	pool := make([]Constant, n)
	offsets := make([]int, n)
	p.poolOffsets = offsets
	for i := 1; i < n && p.err == nil; i++ {
		offsets[i] = p.pos
		tag := p.u1("constant tag")
		var k Constant
		switch tag {
		case TagUtf8:
			l := p.u2("Utf8 length")
			b := p.bytes(l, "Utf8 bytes")
			if p.err != nil {
				return
			}
			s, bad := decodeModifiedUTF8(b)
			if bad >= 0 {
				p.fail(p.pos-l+bad, "constant #%d: bad modified UTF-8 byte %#x", i, b[bad])
				return
			}
			k = Utf8{s}
		case TagInteger:
			k = Integer{int32(p.u4("Integer"))}
		case TagFloat:
			k = Float{math.Float32frombits(p.u4("Float"))}
		case TagLong, TagDouble:
			hi := uint64(p.u4("Long/Double"))
			bits := hi<<32 | uint64(p.u4("Long/Double"))
			if tag == TagLong {
				k = Long{int64(bits)}
			} else {
				k = Double{math.Float64frombits(bits)}
			}
			if i+1 >= n {
				p.fail(offsets[i], "constant #%d: an 8-byte constant in the pool's last slot", i)
				return
			}
			pool[i] = k
			i++ // the next slot is unusable (JVM spec 4.4.5)
			continue
		case TagClass:
			k = ClassRef{p.u2("Class")}
		case TagString:
			k = String{p.u2("String")}
		case TagFieldref, TagMethodref, TagInterfaceMethodref:
			ci := p.u2("member class")
			k = MemberRef{uint8(tag), ci, p.u2("member name_and_type")}
		case TagNameAndType:
			ni := p.u2("NameAndType name")
			k = NameAndType{ni, p.u2("NameAndType descriptor")}
		case TagMethodHandle:
			kind := p.u1("MethodHandle kind")
			k = MethodHandle{uint8(kind), p.u2("MethodHandle reference")}
		case TagMethodType:
			k = MethodType{p.u2("MethodType")}
		case TagDynamic, TagInvokeDynamic:
			bi := p.u2("bootstrap_method_attr_index")
			k = Dynamic{uint8(tag), bi, p.u2("dynamic name_and_type")}
		case TagModule:
			k = Module{p.u2("Module")}
		case TagPackage:
			k = Package{p.u2("Package")}
		default:
			p.fail(offsets[i], "constant #%d: unknown tag %d", i, tag)
			return
		}
		pool[i] = k
	}
	if p.err != nil {
		return
	}
	p.c.Pool = pool
	for i, k := range pool {
		if k != nil {
			if msg := p.checkConstant(k); msg != "" {
				p.fail(offsets[i], "constant #%d: %s", i, msg)
				return
			}
		}
	}
}

// checkConstant checks that k's references name constants of the right
// kinds (JVM spec 4.4), returning what is wrong or "".
func (p *parser) checkConstant(k Constant) string {
	c := p.c
	want := func(i int, tag uint8, what string) string {
		if got := c.At(i); got == nil || got.Tag() != tag {
			return fmt.Sprintf("%s index %d is not a %s constant", what, i, tagName(tag))
		}
		return ""
	}
	both := func(a, b string) string {
		if a != "" {
			return a
		}
		return b
	}
	switch k := k.(type) {
	case ClassRef:
		return want(k.NameIndex, TagUtf8, "name")
	case String:
		return want(k.StringIndex, TagUtf8, "string")
	case MemberRef:
		return both(want(k.ClassIndex, TagClass, "class"), want(k.NameAndTypeIndex, TagNameAndType, "name_and_type"))
	case NameAndType:
		return both(want(k.NameIndex, TagUtf8, "name"), want(k.DescriptorIndex, TagUtf8, "descriptor"))
	case MethodHandle:
		ref := c.At(k.RefIndex)
		switch {
		case k.RefKind < RefGetField || k.RefKind > RefInvokeInterface:
			return fmt.Sprintf("bad reference kind %d", k.RefKind)
		case ref == nil:
			return fmt.Sprintf("reference index %d names no constant", k.RefIndex)
		case !refKindAllows(k.RefKind, ref.Tag(), p.c.Major):
			return fmt.Sprintf("reference kind %d with a %s constant", k.RefKind, tagName(ref.Tag()))
		}
	case MethodType:
		return want(k.DescriptorIndex, TagUtf8, "descriptor")
	case Dynamic:
		return want(k.NameAndTypeIndex, TagNameAndType, "name_and_type")
	case Module:
		return want(k.NameIndex, TagUtf8, "name")
	case Package:
		return want(k.NameIndex, TagUtf8, "name")
	}
	return ""
}

// refKindAllows reports whether a method handle of kind may refer to a
// constant of tag in a class file of major version major (4.4.8).
func refKindAllows(kind, tag uint8, major uint16) bool {
	switch kind {
	case RefGetField, RefGetStatic, RefPutField, RefPutStatic:
		return tag == TagFieldref
	case RefInvokeVirtual, RefNewInvokeSpecial:
		return tag == TagMethodref
	case RefInvokeStatic, RefInvokeSpecial:
		return tag == TagMethodref || tag == TagInterfaceMethodref && major >= 52
	case RefInvokeInterface:
		return tag == TagInterfaceMethodref
	}
	return false
}

func tagName(tag uint8) string {
	switch tag {
	case TagUtf8:
		return "Utf8"
	case TagInteger:
		return "Integer"
	case TagFloat:
		return "Float"
	case TagLong:
		return "Long"
	case TagDouble:
		return "Double"
	case TagClass:
		return "Class"
	case TagString:
		return "String"
	case TagFieldref:
		return "Fieldref"
	case TagMethodref:
		return "Methodref"
	case TagInterfaceMethodref:
		return "InterfaceMethodref"
	case TagNameAndType:
		return "NameAndType"
	case TagMethodHandle:
		return "MethodHandle"
	case TagMethodType:
		return "MethodType"
	case TagDynamic:
		return "Dynamic"
	case TagInvokeDynamic:
		return "InvokeDynamic"
	case TagModule:
		return "Module"
	case TagPackage:
		return "Package"
	}
	return fmt.Sprintf("tag(%d)", tag)
}

// classRef resolves a Class constant index just read (two bytes back).
func (p *parser) classRef(i int, zeroOK bool, what string) string {
	if p.err != nil {
		return ""
	}
	if i == 0 && zeroOK {
		return ""
	}
	if _, ok := p.c.At(i).(ClassRef); !ok {
		p.fail(p.pos-2, "%s index %d is not a Class constant", what, i)
		return ""
	}
	return p.c.ClassAt(i)
}

// utf8Ref reads a u2 index of a Utf8 constant from r.
func (p *parser) utf8Ref(r *reader, what string) string {
	i := r.u2(what)
	if r.err != nil {
		return ""
	}
	if _, ok := p.c.At(i).(Utf8); !ok {
		r.fail(r.pos-2, "%s index %d is not a Utf8 constant", what, i)
		return ""
	}
	return p.c.Utf8At(i)
}

// attributes reads an attribute table. decode is offered each attribute
// (its name and a reader of exactly its bytes) and says whether it decoded
// it; the others are appended to raw.
func (p *parser) attributes(owner string, decode func(name string, a *reader) bool, raw *[]Attribute) {
	p.table(&p.reader, owner, decode, raw)
}

func (p *parser) table(r *reader, owner string, decode func(name string, a *reader) bool, raw *[]Attribute) {
	n := r.count(6, owner+" attributes")
	for i := 0; i < n && r.err == nil && p.err == nil; i++ {
		name := p.utf8Ref(r, owner+" attribute_name_index")
		at := r.pos
		l := r.u4(name + " attribute_length")
		if r.err != nil {
			break
		}
		if uint64(l) > uint64(r.remaining()) {
			r.fail(at, "%s attribute length %d exceeds the %d bytes left", name, l, r.remaining())
			break
		}
		data := r.bytes(int(l), name+" attribute")
		a := &reader{data: data, base: r.base + r.pos - int(l)}
		if decode != nil && decode(name, a) {
			if a.err == nil && p.err == nil && a.remaining() != 0 {
				a.fail(a.pos, "%d bytes after the end of the %s attribute", a.remaining(), name)
			}
			if a.err != nil {
				r.err = a.err
			}
			continue
		}
		*raw = append(*raw, Attribute{Name: name, Data: data})
	}
	if r.err != nil && p.err == nil {
		p.err = r.err
	}
}

func (p *parser) field() {
	f := &Field{Access: uint16(p.u2("field access_flags"))}
	at := p.pos
	f.Name = p.utf8Ref(&p.reader, "field name_index")
	f.Descriptor = p.utf8Ref(&p.reader, "field descriptor_index")
	if p.err != nil {
		return
	}
	if _, err := ParseFieldType(f.Descriptor); err != nil {
		p.fail(at+2, "field %s: %v", f.Name, err)
		return
	}
	p.attributes("field", func(name string, a *reader) bool {
		if name != "ConstantValue" {
			return false
		}
		i := a.u2("ConstantValue index")
		k := p.c.At(i)
		switch k.(type) {
		case Integer, Long, Float, Double, String:
			f.ConstantValue = k
		default:
			if a.err == nil {
				a.fail(0, "ConstantValue index %d is not a constant value", i)
			}
		}
		return true
	}, &f.Attributes)
	p.c.Fields = append(p.c.Fields, f)
}

func (p *parser) method() {
	m := &Method{Access: uint16(p.u2("method access_flags"))}
	at := p.pos
	m.Name = p.utf8Ref(&p.reader, "method name_index")
	m.Descriptor = p.utf8Ref(&p.reader, "method descriptor_index")
	if p.err != nil {
		return
	}
	if _, _, err := ParseMethodType(m.Descriptor); err != nil {
		p.fail(at+2, "method %s: %v", m.Name, err)
		return
	}
	p.attributes("method", func(name string, a *reader) bool {
		switch name {
		case "Code":
			if m.Code != nil {
				a.fail(0, "method %s has two Code attributes", m.Name)
				return true
			}
			m.Code = p.code(a)
			return true
		case "Exceptions":
			n := a.count(2, "Exceptions")
			for i := 0; i < n && a.err == nil; i++ {
				at := a.pos
				j := a.u2("exception index")
				if _, ok := p.c.At(j).(ClassRef); !ok && a.err == nil {
					a.fail(at, "exception index %d is not a Class constant", j)
				}
				m.Exceptions = append(m.Exceptions, p.c.ClassAt(j))
			}
			return true
		}
		return false
	}, &m.Attributes)
	p.c.Methods = append(p.c.Methods, m)
}

// code decodes a Code attribute (JVM spec 4.7.3).
func (p *parser) code(a *reader) *Code {
	c := &Code{MaxStack: a.u2("max_stack"), MaxLocals: a.u2("max_locals")}
	at := a.pos
	n := a.u4("code_length")
	if a.err != nil {
		return c
	}
	if n == 0 || n >= 65536 {
		a.fail(at, "code_length %d not in 1..65535", n)
		return c
	}
	base := a.base + a.pos
	c.Bytes = a.bytes(int(n), "code")
	if a.err != nil {
		return c
	}
	c.Insns, a.err = decode(c.Bytes, base)
	if a.err != nil {
		return c
	}
	boundary := func(pc int, endOK bool) bool {
		return pc == len(c.Bytes) && endOK || c.InsnAt(pc) >= 0
	}
	nh := a.count(8, "exception_table")
	for i := 0; i < nh && a.err == nil; i++ {
		at := a.pos
		h := Handler{Start: a.u2("start_pc"), End: a.u2("end_pc"), PC: a.u2("handler_pc")}
		ct := a.u2("catch_type")
		if a.err != nil {
			break
		}
		switch {
		case !boundary(h.Start, false) || !boundary(h.End, true) || h.Start >= h.End:
			a.fail(at, "exception table entry [%d, %d) is no instruction range", h.Start, h.End)
		case !boundary(h.PC, false):
			a.fail(at+4, "handler_pc %d is not an instruction", h.PC)
		case ct != 0:
			if _, ok := p.c.At(ct).(ClassRef); !ok {
				a.fail(at+6, "catch_type %d is not a Class constant", ct)
			}
			h.CatchType = p.c.ClassAt(ct)
		}
		c.Handlers = append(c.Handlers, h)
	}
	if a.err != nil {
		return c
	}
	p.table(a, "Code", func(name string, b *reader) bool {
		switch name {
		case "LineNumberTable":
			n := b.count(4, "line_number_table")
			for i := 0; i < n && b.err == nil; i++ {
				at := b.pos
				e := LineEntry{PC: b.u2("start_pc"), Line: b.u2("line_number")}
				// 4.7.12 asks only for an index into the code array
				// (4.7.3 and 4.7.13 ask the other pcs for an opcode's).
				if b.err == nil && e.PC >= len(c.Bytes) {
					b.fail(at, "line number start_pc %d beyond the code's %d bytes", e.PC, len(c.Bytes))
				}
				c.Lines = append(c.Lines, e)
			}
			return true
		case "LocalVariableTable":
			n := b.count(10, "local_variable_table")
			for i := 0; i < n && b.err == nil; i++ {
				at := b.pos
				v := LocalVar{Start: b.u2("start_pc"), Length: b.u2("length")}
				v.Name = p.utf8Ref(b, "local variable name_index")
				dat := b.pos
				v.Descriptor = p.utf8Ref(b, "local variable descriptor_index")
				v.Index = b.u2("local variable index")
				if b.err != nil {
					break
				}
				if !boundary(v.Start, false) || !boundary(v.Start+v.Length, true) {
					b.fail(at, "local variable %s range [%d, %d) is no instruction range", v.Name, v.Start, v.Start+v.Length)
				} else if _, err := ParseFieldType(v.Descriptor); err != nil {
					b.fail(dat, "local variable %s: %v", v.Name, err)
				}
				c.Locals = append(c.Locals, v)
			}
			return true
		}
		return false
	}, &c.Attributes)
	sortLines(c.Lines)
	return c
}

func sortLines(l []LineEntry) {
	sort.SliceStable(l, func(i, j int) bool { return l[i].PC < l[j].PC })
}
