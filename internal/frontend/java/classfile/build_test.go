package classfile

import "encoding/binary"

// classBuilder assembles class files by hand, for the tests of what javac
// does not write (every constant tag, wide forms, malformed input).
type classBuilder struct {
	pool  [][]byte // entries from index 1; nil after a Long or Double
	utf8s map[string]int
}

func newClassBuilder() *classBuilder { return &classBuilder{utf8s: map[string]int{}} }

func u2(v int) []byte { return binary.BigEndian.AppendUint16(nil, uint16(v)) }
func u4(v int) []byte { return binary.BigEndian.AppendUint32(nil, uint32(v)) }

func cat(parts ...[]byte) []byte {
	var b []byte
	for _, p := range parts {
		b = append(b, p...)
	}
	return b
}

// add appends a raw constant and returns its index.
func (b *classBuilder) add(entry ...[]byte) int {
	b.pool = append(b.pool, cat(entry...))
	i := len(b.pool)
	if t := entry[0][0]; t == TagLong || t == TagDouble {
		b.pool = append(b.pool, nil)
	}
	return i
}

func (b *classBuilder) utf8(s string) int {
	if i, ok := b.utf8s[s]; ok {
		return i
	}
	m := modifiedUTF8(s)
	i := b.add([]byte{TagUtf8}, u2(len(m)), m)
	b.utf8s[s] = i
	return i
}

func (b *classBuilder) class(name string) int {
	return b.add([]byte{TagClass}, u2(b.utf8(name)))
}

func (b *classBuilder) nameAndType(name, desc string) int {
	return b.add([]byte{TagNameAndType}, u2(b.utf8(name)), u2(b.utf8(desc)))
}

func (b *classBuilder) member(tag byte, class, name, desc string) int {
	c := b.class(class)
	return b.add([]byte{tag}, u2(c), u2(b.nameAndType(name, desc)))
}

// attr encodes an attribute.
func (b *classBuilder) attr(name string, data []byte) []byte {
	return cat(u2(b.utf8(name)), u4(len(data)), data)
}

// code encodes a Code attribute with no handlers and the given attributes.
func (b *classBuilder) code(maxStack, maxLocals int, bytecode []byte, attrs ...[]byte) []byte {
	return b.attr("Code", cat(u2(maxStack), u2(maxLocals), u4(len(bytecode)), bytecode,
		u2(0), u2(len(attrs)), cat(attrs...)))
}

// member encodes a field_info or method_info.
func (b *classBuilder) info(access int, name, desc string, attrs ...[]byte) []byte {
	return cat(u2(access), u2(b.utf8(name)), u2(b.utf8(desc)), u2(len(attrs)), cat(attrs...))
}

// bytes assembles the class file; fields, methods and attrs are already
// encoded. Everything must be added to the pool before bytes is called.
func (b *classBuilder) bytes(this, super int, fields, methods, attrs [][]byte) []byte {
	var pool []byte
	for _, e := range b.pool {
		pool = append(pool, e...)
	}
	return cat(u4(0xCAFEBABE), u2(0), u2(61), u2(len(b.pool)+1), pool,
		u2(AccPublic|AccSuper), u2(this), u2(super), u2(0),
		u2(len(fields)), cat(fields...), u2(len(methods)), cat(methods...),
		u2(len(attrs)), cat(attrs...))
}

// handmade returns a class using every constant tag, wide forms and both
// switches, as the tests and the fuzz seeds use it.
func handmade() []byte {
	b := newClassBuilder()
	this := b.class("p/Hand")
	super := b.class("java/lang/Object")
	integer := b.add([]byte{TagInteger}, u4(-7&0xffffffff))
	b.add([]byte{TagFloat}, u4(0x3fc00000)) // 1.5
	long := b.add([]byte{TagLong}, u4(1), u4(2))
	b.add([]byte{TagDouble}, u4(0x40040000), u4(0)) // 2.5
	str := b.add([]byte{TagString}, u2(b.utf8("h\u00e9llo \U0001F600")))
	field := b.member(TagFieldref, "p/Hand", "x", "I")
	meth := b.member(TagMethodref, "p/Hand", "f", "(I)V")
	imeth := b.member(TagInterfaceMethodref, "p/I", "g", "()V")
	b.add([]byte{TagMethodHandle, RefInvokeStatic}, u2(meth))
	b.add([]byte{TagMethodType}, u2(b.utf8("(I)V")))
	b.add([]byte{TagDynamic}, u2(0), u2(b.nameAndType("d", "I")))
	indy := b.add([]byte{TagInvokeDynamic}, u2(0), u2(b.nameAndType("run", "()Ljava/lang/Runnable;")))
	b.add([]byte{TagModule}, u2(b.utf8("m")))
	b.add([]byte{TagPackage}, u2(b.utf8("p")))
	arr := b.class("[[I")
	var c []byte
	emit := func(p ...[]byte) int { pc := len(c); c = append(c, cat(p...)...); return pc }
	emit([]byte{byte(Ldc), byte(str)})
	emit([]byte{byte(Ldc2W)}, u2(long))
	emit([]byte{byte(Pop2)}, []byte{byte(Pop)})
	emit([]byte{byte(Wide), byte(Iload)}, u2(300))
	emit([]byte{byte(Wide), byte(Iinc)}, u2(300), u2(-1000&0xffff))
	emit([]byte{byte(Getstatic)}, u2(field))
	ts := emit([]byte{byte(Tableswitch)})
	for len(c)%4 != 0 {
		c = append(c, 0)
	}
	tsOps := len(c)
	c = append(c, make([]byte, 20)...) // default, low 1, high 2, two targets: patched below
	ls := emit([]byte{byte(Iconst_1), byte(Lookupswitch)}) + 1
	for len(c)%4 != 0 {
		c = append(c, 0)
	}
	lsOps := len(c)
	c = append(c, make([]byte, 24)...) // default, npairs 2, two pairs
	end := emit([]byte{byte(Iconst_2)})
	emit([]byte{byte(Invokeinterface)}, u2(imeth), []byte{1, 0})
	emit([]byte{byte(Invokedynamic)}, u2(indy), []byte{0, 0})
	emit([]byte{byte(Newarray), TInt})
	emit([]byte{byte(Multianewarray)}, u2(arr), []byte{2})
	emit([]byte{byte(Sipush)}, u2(-300&0xffff))
	emit([]byte{byte(Bipush), 0x80})
	g := emit([]byte{byte(GotoW)}, u4(0))
	copy(c[g+1:], u4(end-g))
	emit([]byte{byte(Return)})
	copy(c[tsOps:], cat(u4(end-ts), u4(1), u4(2), u4(end-ts), u4(ls-ts)))
	copy(c[lsOps:], cat(u4(end-ls), u4(2), u4(-5&0xffffffff), u4(end-ls), u4(9), u4(end-ls)))
	lines := b.attr("LineNumberTable", cat(u2(2), u2(ls), u2(20), u2(0), u2(10)))
	locals := b.attr("LocalVariableTable", cat(u2(1), u2(0), u2(len(c)), u2(b.utf8("big")), u2(b.utf8("J")), u2(300)))
	other := b.attr("StackMapTable", []byte{0, 0})
	method := b.info(AccStatic|AccSynchronized, "h", "()V", b.code(4, 302, c, lines, locals, other),
		b.attr("Exceptions", cat(u2(1), u2(b.class("java/lang/Exception")))))
	abstract := b.info(AccAbstract, "a", "(J[Ljava/lang/String;)[[I")
	fieldInfo := b.info(AccStatic|AccFinal, "x", "I", b.attr("ConstantValue", u2(integer)), b.attr("Deprecated", nil))
	recipe := b.add([]byte{TagString}, u2(b.utf8("x=\u0001")))
	concat := b.add([]byte{TagMethodHandle, RefInvokeStatic}, u2(b.member(TagMethodref,
		"java/lang/invoke/StringConcatFactory", "makeConcatWithConstants", "()V")))
	bootstraps := b.attr("BootstrapMethods", cat(u2(1), u2(concat), u2(2), u2(recipe), u2(integer)))
	attrs := [][]byte{b.attr("SourceFile", u2(b.utf8("Hand.java"))), bootstraps, b.attr("Custom", []byte{1, 2, 3})}
	return b.bytes(this, super, [][]byte{fieldInfo}, [][]byte{method, abstract}, attrs)
}

// modifiedUTF8 encodes s as the JVM does (JVM spec 4.4.7).
func modifiedUTF8(s string) []byte {
	var b []byte
	for _, r := range s {
		switch {
		case r != 0 && r < 0x80:
			b = append(b, byte(r))
		case r < 0x800:
			b = append(b, 0xC0|byte(r>>6), 0x80|byte(r&0x3F))
		case r < 0x10000:
			b = append(b, 0xE0|byte(r>>12), 0x80|byte(r>>6&0x3F), 0x80|byte(r&0x3F))
		default:
			r -= 0x10000
			for _, h := range []rune{0xD800 + r>>10, 0xDC00 + r&0x3FF} {
				b = append(b, 0xE0|byte(h>>12), 0x80|byte(h>>6&0x3F), 0x80|byte(h&0x3F))
			}
		}
	}
	return b
}
