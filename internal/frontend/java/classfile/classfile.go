package classfile

import (
	"fmt"
	"sort"
)

// Class is one parsed class file.
type Class struct {
	Minor, Major uint16
	Pool         []Constant // index 0 and the slot after a Long or Double are nil
	Access       uint16     // ACC_* flags
	Name, Super  string     // internal form "pkg/Foo"; Super is "" only for java/lang/Object (and module-info)
	Interfaces   []string
	Fields       []*Field
	Methods      []*Method
	SourceFile   string // "" when absent
	// BootstrapMethods is the BootstrapMethods attribute (JVM spec
	// 4.7.23), indexed by Dynamic.BootstrapIndex.
	BootstrapMethods []BootstrapMethod
	Attributes       []Attribute // the class's attributes not decoded above (raw)
}

// BootstrapMethod is an entry of the BootstrapMethods attribute: the
// bootstrap method of an invokedynamic or a dynamic constant and its
// static arguments. For javac's string concatenation, MethodRef is a
// MethodHandle of StringConcatFactory.makeConcatWithConstants and
// Args[0] the String constant of the recipe ("\u0001 is \u0001").
type BootstrapMethod struct {
	MethodRef int   // constant-pool index of a MethodHandle
	Args      []int // constant-pool indices of loadable constants
}

// Field is a field_info.
type Field struct {
	Access           uint16
	Name, Descriptor string
	ConstantValue    Constant // Integer, Long, Float, Double or String; nil when absent
	Attributes       []Attribute
}

// Method is a method_info.
type Method struct {
	Access           uint16
	Name, Descriptor string
	Code             *Code    // nil for abstract and native methods
	Exceptions       []string // the Exceptions attribute (internal names)
	Attributes       []Attribute
}

// Code is a Code attribute.
type Code struct {
	MaxStack, MaxLocals int
	Bytes               []byte
	Insns               []Insn      // decoded, in pc order
	Handlers            []Handler   // the exception table, in order
	Lines               []LineEntry // LineNumberTable (all tables concatenated, sorted by PC)
	Locals              []LocalVar  // LocalVariableTable (all tables concatenated, in order)
	Attributes          []Attribute // the Code's other attributes (StackMapTable raw, ...)
}

// Handler is an exception table entry: the handler at PC catches
// CatchType thrown by the instructions in [Start, End).
type Handler struct {
	Start, End, PC int
	CatchType      string // internal name; "" catches anything (finally)
}

// LineEntry says the instructions from PC on belong to source line Line.
type LineEntry struct{ PC, Line int }

// LocalVar says local slot Index holds the variable Name of type
// Descriptor in the pcs [Start, Start+Length).
type LocalVar struct {
	Start, Length, Index int
	Name, Descriptor     string
}

// Attribute is an attribute kept undecoded.
type Attribute struct {
	Name string
	Data []byte
}

// Access flags (JVM spec 4.1, 4.5, 4.6); some bits mean different things
// for classes, fields and methods.
const (
	AccPublic       = 0x0001
	AccPrivate      = 0x0002
	AccProtected    = 0x0004
	AccStatic       = 0x0008
	AccFinal        = 0x0010
	AccSuper        = 0x0020 // class
	AccSynchronized = 0x0020 // method
	AccVolatile     = 0x0040 // field
	AccBridge       = 0x0040 // method
	AccTransient    = 0x0080 // field
	AccVarargs      = 0x0080 // method
	AccNative       = 0x0100
	AccInterface    = 0x0200
	AccAbstract     = 0x0400
	AccStrict       = 0x0800
	AccSynthetic    = 0x1000
	AccAnnotation   = 0x2000
	AccEnum         = 0x4000
	AccModule       = 0x8000 // class
	AccMandated     = 0x8000 // parameter
)

// FormatError is what Parse returns for a malformed class file.
type FormatError struct {
	Offset int // byte offset in the class file
	Msg    string
}

func (e *FormatError) Error() string {
	return fmt.Sprintf("class file offset %d: %s", e.Offset, e.Msg)
}

// LineAt returns the source line of the instruction at pc: the line of the
// LineNumberTable entry with the greatest PC <= pc, 0 if there is none.
func (c *Code) LineAt(pc int) int {
	i := sort.Search(len(c.Lines), func(i int) bool { return c.Lines[i].PC > pc })
	if i == 0 {
		return 0
	}
	return c.Lines[i-1].Line
}

// InsnAt returns the index in c.Insns of the instruction at pc, -1 if no
// instruction starts there.
func (c *Code) InsnAt(pc int) int {
	i := sort.Search(len(c.Insns), func(i int) bool { return c.Insns[i].PC >= pc })
	if i < len(c.Insns) && c.Insns[i].PC == pc {
		return i
	}
	return -1
}

// LocalAt returns the LocalVariableTable entry for slot index live at pc
// (Start <= pc < Start+Length), or nil.
func (c *Code) LocalAt(index, pc int) *LocalVar {
	for i := range c.Locals {
		l := &c.Locals[i]
		if l.Index == index && l.Start <= pc && pc < l.Start+l.Length {
			return l
		}
	}
	return nil
}
