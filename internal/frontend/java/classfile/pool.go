package classfile

import (
	"bytes"
	"strings"
	"unicode/utf8"
)

// Constant-pool tags (JVM spec 4.4).
const (
	TagUtf8               = 1
	TagInteger            = 3
	TagFloat              = 4
	TagLong               = 5
	TagDouble             = 6
	TagClass              = 7
	TagString             = 8
	TagFieldref           = 9
	TagMethodref          = 10
	TagInterfaceMethodref = 11
	TagNameAndType        = 12
	TagMethodHandle       = 15
	TagMethodType         = 16
	TagDynamic            = 17
	TagInvokeDynamic      = 18
	TagModule             = 19
	TagPackage            = 20
)

// Method handle kinds (JVM spec 5.4.3.5).
const (
	RefGetField         = 1
	RefGetStatic        = 2
	RefPutField         = 3
	RefPutStatic        = 4
	RefInvokeVirtual    = 5
	RefInvokeStatic     = 6
	RefInvokeSpecial    = 7
	RefNewInvokeSpecial = 8
	RefInvokeInterface  = 9
)

// Constant is a constant-pool entry: one of the types below.
type Constant interface{ Tag() uint8 }

// Utf8 is CONSTANT_Utf8; Value is the modified UTF-8 decoded (a lone
// surrogate becomes U+FFFD).
type Utf8 struct{ Value string }

// Integer is CONSTANT_Integer.
type Integer struct{ Value int32 }

// Float is CONSTANT_Float.
type Float struct{ Value float32 }

// Long is CONSTANT_Long.
type Long struct{ Value int64 }

// Double is CONSTANT_Double.
type Double struct{ Value float64 }

// ClassRef is CONSTANT_Class.
type ClassRef struct{ NameIndex int }

// String is CONSTANT_String.
type String struct{ StringIndex int }

// MemberRef is CONSTANT_Fieldref, CONSTANT_Methodref or
// CONSTANT_InterfaceMethodref, as Kind says.
type MemberRef struct {
	Kind                         uint8
	ClassIndex, NameAndTypeIndex int
}

// NameAndType is CONSTANT_NameAndType.
type NameAndType struct{ NameIndex, DescriptorIndex int }

// MethodHandle is CONSTANT_MethodHandle; RefKind is one of the Ref* kinds.
type MethodHandle struct {
	RefKind  uint8
	RefIndex int
}

// MethodType is CONSTANT_MethodType.
type MethodType struct{ DescriptorIndex int }

// Dynamic is CONSTANT_Dynamic or CONSTANT_InvokeDynamic, as Kind says;
// BootstrapIndex indexes the BootstrapMethods attribute.
type Dynamic struct {
	Kind                             uint8
	BootstrapIndex, NameAndTypeIndex int
}

// Module is CONSTANT_Module.
type Module struct{ NameIndex int }

// Package is CONSTANT_Package.
type Package struct{ NameIndex int }

func (Utf8) Tag() uint8         { return TagUtf8 }
func (Integer) Tag() uint8      { return TagInteger }
func (Float) Tag() uint8        { return TagFloat }
func (Long) Tag() uint8         { return TagLong }
func (Double) Tag() uint8       { return TagDouble }
func (ClassRef) Tag() uint8     { return TagClass }
func (String) Tag() uint8       { return TagString }
func (m MemberRef) Tag() uint8  { return m.Kind }
func (NameAndType) Tag() uint8  { return TagNameAndType }
func (MethodHandle) Tag() uint8 { return TagMethodHandle }
func (MethodType) Tag() uint8   { return TagMethodType }
func (d Dynamic) Tag() uint8    { return d.Kind }
func (Module) Tag() uint8       { return TagModule }
func (Package) Tag() uint8      { return TagPackage }

// At returns the constant at index i, nil when i is out of range or names
// no constant.
func (c *Class) At(i int) Constant {
	if i <= 0 || i >= len(c.Pool) {
		return nil
	}
	return c.Pool[i]
}

// Utf8At returns the Utf8 constant at i, "" when there is none.
func (c *Class) Utf8At(i int) string {
	if u, ok := c.At(i).(Utf8); ok {
		return u.Value
	}
	return ""
}

// ClassAt returns the internal name of the Class constant at i ("pkg/Foo",
// or an array descriptor "[I"), "" when there is none.
func (c *Class) ClassAt(i int) string {
	if k, ok := c.At(i).(ClassRef); ok {
		return c.Utf8At(k.NameIndex)
	}
	return ""
}

// NameAndTypeAt returns the name and descriptor of the NameAndType
// constant at i.
func (c *Class) NameAndTypeAt(i int) (name, desc string, ok bool) {
	nt, ok := c.At(i).(NameAndType)
	if !ok {
		return "", "", false
	}
	return c.Utf8At(nt.NameIndex), c.Utf8At(nt.DescriptorIndex), true
}

// MemberAt resolves the Fieldref, Methodref or InterfaceMethodref at i.
func (c *Class) MemberAt(i int) (class, name, desc string, kind uint8, ok bool) {
	m, ok := c.At(i).(MemberRef)
	if !ok {
		return "", "", "", 0, false
	}
	name, desc, ok = c.NameAndTypeAt(m.NameAndTypeIndex)
	class = c.ClassAt(m.ClassIndex)
	if !ok || class == "" {
		return "", "", "", 0, false
	}
	return class, name, desc, m.Kind, true
}

// StringAt returns the value of the String constant at i.
func (c *Class) StringAt(i int) (string, bool) {
	s, ok := c.At(i).(String)
	if !ok {
		return "", false
	}
	u, ok := c.At(s.StringIndex).(Utf8)
	return u.Value, ok
}

// DynamicAt resolves the Dynamic or InvokeDynamic constant at i: its
// bootstrap method index, name and descriptor.
func (c *Class) DynamicAt(i int) (bootstrap int, name, desc string, ok bool) {
	d, ok := c.At(i).(Dynamic)
	if !ok {
		return 0, "", "", false
	}
	name, desc, ok = c.NameAndTypeAt(d.NameAndTypeIndex)
	return d.BootstrapIndex, name, desc, ok
}

// Bootstrap returns the entry i of the BootstrapMethods attribute.
func (c *Class) Bootstrap(i int) (BootstrapMethod, bool) {
	if i < 0 || i >= len(c.BootstrapMethods) {
		return BootstrapMethod{}, false
	}
	return c.BootstrapMethods[i], true
}

// decodeModifiedUTF8 decodes the JVM's modified UTF-8 (JVM spec 4.4.7): no
// zero byte and no 4-byte form; NUL is C0 80 and a supplementary
// character is a surrogate pair of two 3-byte forms. It returns the index
// of the first bad byte, or -1.
func decodeModifiedUTF8(b []byte) (string, int) {
	ascii := true
	for _, x := range b {
		if x == 0 {
			return "", bytes.IndexByte(b, 0)
		}
		if x >= 0x80 {
			ascii = false
			break
		}
	}
	if ascii {
		return string(b), -1
	}
	var sb strings.Builder
	sb.Grow(len(b))
	pending := rune(-1) // a high surrogate waiting for its low half
	flush := func() {
		if pending >= 0 {
			sb.WriteRune(utf8.RuneError)
			pending = -1
		}
	}
	for i := 0; i < len(b); {
		x := b[i]
		var r rune
		switch {
		case x == 0:
			return "", i
		case x < 0x80:
			r = rune(x)
			i++
		case x&0xE0 == 0xC0:
			if i+1 >= len(b) || b[i+1]&0xC0 != 0x80 {
				return "", i
			}
			r = rune(x&0x1F)<<6 | rune(b[i+1]&0x3F)
			i += 2
		case x&0xF0 == 0xE0:
			if i+2 >= len(b) || b[i+1]&0xC0 != 0x80 || b[i+2]&0xC0 != 0x80 {
				return "", i
			}
			r = rune(x&0x0F)<<12 | rune(b[i+1]&0x3F)<<6 | rune(b[i+2]&0x3F)
			i += 3
		default:
			return "", i
		}
		switch {
		case r >= 0xD800 && r < 0xDC00:
			flush()
			pending = r
			continue
		case r >= 0xDC00 && r < 0xE000:
			if pending >= 0 {
				sb.WriteRune(0x10000 + (pending-0xD800)<<10 + (r - 0xDC00))
				pending = -1
			} else {
				sb.WriteRune(utf8.RuneError)
			}
			continue
		}
		flush()
		sb.WriteRune(r)
	}
	flush()
	return sb.String(), -1
}
