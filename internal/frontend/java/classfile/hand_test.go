package classfile

import (
	"errors"
	"fmt"
	"strings"
	"testing"
)

func TestParseHandmade(t *testing.T) {
	c, err := Parse(handmade())
	if err != nil {
		t.Fatal(err)
	}
	if c.Name != "p/Hand" || c.Super != "java/lang/Object" || c.SourceFile != "Hand.java" {
		t.Errorf("class %q %q %q", c.Name, c.Super, c.SourceFile)
	}
	if len(c.Attributes) != 1 || c.Attributes[0].Name != "Custom" || fmt.Sprint(c.Attributes[0].Data) != "[1 2 3]" {
		t.Errorf("class attributes %+v", c.Attributes)
	}
	tags := map[uint8]int{}
	var values []string
	for _, k := range c.Pool {
		if k != nil {
			tags[k.Tag()]++
		}
		switch k := k.(type) {
		case Integer, Long, Float, Double:
			values = append(values, fmt.Sprint(k))
		case String:
			values = append(values, c.Utf8At(k.StringIndex))
		}
	}
	for _, tag := range []uint8{TagUtf8, TagInteger, TagFloat, TagLong, TagDouble, TagClass, TagString, TagFieldref,
		TagMethodref, TagInterfaceMethodref, TagNameAndType, TagMethodHandle, TagMethodType, TagDynamic,
		TagInvokeDynamic, TagModule, TagPackage} {
		if tags[tag] == 0 {
			t.Errorf("no %s constant", tagName(tag))
		}
	}
	if got, want := fmt.Sprint(values), "[{-7} {1.5} {4294967298} {2.5} h\u00e9llo \U0001F600 x=\u0001]"; got != want {
		t.Errorf("values %s, want %s", got, want)
	}
	bm, ok := c.Bootstrap(0)
	if !ok || len(c.BootstrapMethods) != 1 || len(bm.Args) != 2 {
		t.Fatalf("bootstrap methods %+v", c.BootstrapMethods)
	}
	mh, _ := c.At(bm.MethodRef).(MethodHandle)
	if cl, name, _, _, _ := c.MemberAt(mh.RefIndex); cl != "java/lang/invoke/StringConcatFactory" || name != "makeConcatWithConstants" {
		t.Errorf("bootstrap method %s.%s", cl, name)
	}
	if r, _ := c.StringAt(bm.Args[0]); r != "x=\u0001" || c.At(bm.Args[1]) != (Integer{-7}) {
		t.Errorf("bootstrap arguments %q %v", r, c.At(bm.Args[1]))
	}
	if _, ok := c.Bootstrap(1); ok {
		t.Errorf("Bootstrap(1) ok")
	}
	f := c.Fields[0]
	if f.ConstantValue != (Integer{-7}) || len(f.Attributes) != 1 || f.Attributes[0].Name != "Deprecated" {
		t.Errorf("field %+v", f)
	}
	if a := c.Methods[1]; a.Code != nil || a.Name != "a" {
		t.Errorf("abstract method %+v", a)
	}
	m := c.Methods[0]
	if fmt.Sprint(m.Exceptions) != "[java/lang/Exception]" {
		t.Errorf("exceptions %v", m.Exceptions)
	}
	code := m.Code
	if code.MaxStack != 4 || code.MaxLocals != 302 || len(code.Attributes) != 1 || code.Attributes[0].Name != "StackMapTable" {
		t.Errorf("code %d %d %+v", code.MaxStack, code.MaxLocals, code.Attributes)
	}
	var got []string
	for _, in := range code.Insns {
		s := fmt.Sprintf("%d:%s", in.PC, in.Op)
		if in.Wide {
			s += "(wide)"
		}
		switch in.Op {
		case Ldc:
			v, _ := c.StringAt(in.Index)
			s += " " + v
		case Ldc2W:
			s += fmt.Sprint(" ", c.At(in.Index))
		case Getstatic, Invokeinterface:
			cl, name, desc, _, _ := c.MemberAt(in.Index)
			s += fmt.Sprintf(" %s.%s:%s", cl, name, desc)
		case Invokedynamic:
			_, name, desc, _ := c.DynamicAt(in.Index)
			s += fmt.Sprintf(" %s:%s", name, desc)
		case Multianewarray:
			s += " " + c.ClassAt(in.Index)
		}
		switch operandOf(in.Op) {
		case opLocal:
			s += fmt.Sprint(" ", in.Index)
		case opIinc:
			s += fmt.Sprint(" ", in.Index, ",", in.Value)
		case opMultianewarray:
			s += fmt.Sprint(",", in.Value)
		case opByte, opShort, opNewarray:
			s += fmt.Sprint(" ", in.Value)
		case opInterface:
			s += fmt.Sprint(",", in.Count)
		case opBranch2, opBranch4:
			s += fmt.Sprint(" ->", in.Target)
		case opTableswitch, opLookupswitch:
			s += fmt.Sprint(" ", in.Keys, " ", in.Targets, " default ", in.Default)
		}
		got = append(got, s)
	}
	// The switches pad their operands to 4-byte boundaries.
	want := "[0:ldc h\u00e9llo \U0001F600 2:ldc2_w {4294967298} 5:pop2 6:pop 7:iload(wide) 300 11:iinc(wide) 300,-1000 " +
		"17:getstatic p/Hand.x:I 20:tableswitch [1 2] [72 45] default 72 44:iconst_1 45:lookupswitch [-5 9] [72 72] default 72 " +
		"72:iconst_2 73:invokeinterface p/I.g:()V,1 78:invokedynamic run:()Ljava/lang/Runnable; 83:newarray 10 " +
		"85:multianewarray [[I,2 89:sipush -300 92:bipush -128 94:goto_w ->72 99:return]"
	if s := fmt.Sprint(got); s != want {
		t.Errorf("code\n%s, want\n%s", s, want)
	}
	if code.LineAt(0) != 10 || code.LineAt(44) != 10 || code.LineAt(45) != 20 || code.LineAt(1000) != 20 {
		t.Errorf("lines %+v", code.Lines)
	}
	if v := code.LocalAt(300, 99); v == nil || v.Name != "big" {
		t.Errorf("local 300: %+v", v)
	}
	if code.LocalAt(300, 100) != nil || code.LocalAt(299, 0) != nil {
		t.Errorf("LocalAt outside the range")
	}
	// The resolution helpers never panic, whatever the index.
	for i := -2; i < len(c.Pool)+2; i++ {
		c.Utf8At(i)
		c.ClassAt(i)
		c.MemberAt(i)
		c.StringAt(i)
		c.DynamicAt(i)
		c.NameAndTypeAt(i)
	}
}

// TestParseTruncated parses every proper prefix of a class file: each is
// an error naming an offset within the prefix.
func TestParseTruncated(t *testing.T) {
	data := handmade()
	for n := 0; n < len(data); n++ {
		_, err := Parse(data[:n])
		var fe *FormatError
		if !errors.As(err, &fe) {
			t.Fatalf("prefix of %d bytes: %v", n, err)
		}
		if fe.Offset < 0 || fe.Offset > n {
			t.Errorf("prefix of %d bytes: error at offset %d: %v", n, fe.Offset, err)
		}
	}
	if _, err := Parse(append(handmade(), 0)); err == nil {
		t.Errorf("a trailing byte is no error")
	}
}

// TestParseMalformed corrupts single values and checks the error's offset
// and text.
func TestParseMalformed(t *testing.T) {
	good := handmade()
	find := func(pattern []byte) int {
		for i := range good {
			if string(good[i:min(len(good), i+len(pattern))]) == string(pattern) {
				return i
			}
		}
		t.Fatalf("pattern %v not found", pattern)
		return 0
	}
	tests := []struct {
		name string
		at   int
		b    []byte
		want string
	}{
		{"magic", 0, []byte{0xCA, 0xFF}, "bad magic"},
		{"pool count", 8, []byte{0xFF, 0xFF}, "constant_pool_count 65535 exceeds"},
		{"tag", 10, []byte{2}, "unknown tag 2"},
		{"utf8", find([]byte("h\u00e9")) + 1, []byte{0xF0}, "bad modified UTF-8"},
		{"nul", find([]byte("h\u00e9")) + 1, []byte{0}, "bad modified UTF-8"},
		{"opcode", find([]byte{byte(Pop2), byte(Pop)}), []byte{0xCA}, "unknown opcode 202"},
		{"wide", find([]byte{byte(Pop2), byte(Pop), byte(Wide)}) + 3, []byte{byte(Iadd)}, "wide iadd"},
		{"branch", find([]byte{byte(Bipush), 0x80, byte(GotoW)}) + 6, []byte{1}, "not an instruction"},
		{"table", find([]byte{byte(Iconst_1), byte(Lookupswitch)}) - 16, []byte{0x7f}, "tableswitch with low"},
		{"newarray", find([]byte{byte(Newarray), TInt}) + 1, []byte{3}, "bad atype 3"},
		{"bootstrap index", find([]byte{TagInvokeDynamic, 0, 0}) + 2, []byte{5}, "bootstrap method 5 of 1"},
		{"method handle kind", find([]byte{TagMethodHandle, RefInvokeStatic}) + 1, []byte{RefInvokeInterface}, "reference kind 9 with a Methodref"},
		{"line pc", find([]byte{0, 2, 0, 45, 0, 20}) + 2, []byte{0xFF}, "line number start_pc 65325 beyond"},
		{"constant kind", find([]byte{TagMethodHandle, RefInvokeStatic}) + 1, []byte{RefGetField}, "reference kind 1 with a Methodref"},
		{"code length", find([]byte{byte(Pop2), byte(Pop)}) - 9, []byte{0, 0, 0xFF, 0xFF}, "truncated code"},
	}
	for _, tt := range tests {
		data := append([]byte(nil), good...)
		copy(data[tt.at:], tt.b)
		_, err := Parse(data)
		var fe *FormatError
		if !errors.As(err, &fe) {
			t.Errorf("%s: err %v", tt.name, err)
			continue
		}
		if !strings.Contains(fe.Msg, tt.want) || fe.Offset < tt.at-16 || fe.Offset > tt.at+16 {
			t.Errorf("%s: corrupted at %d: %v, want %q near there", tt.name, tt.at, err, tt.want)
		}
	}
}

func TestModifiedUTF8(t *testing.T) {
	tests := []struct {
		in   []byte
		want string
		bad  int
	}{
		{[]byte("abc"), "abc", -1},
		{[]byte{0xC0, 0x80}, "\x00", -1},
		{[]byte{0xC3, 0xA9}, "\u00e9", -1},
		{[]byte{0xED, 0xA0, 0xBD, 0xED, 0xB8, 0x80}, "\U0001F600", -1},
		{[]byte{'a', 0xED, 0xA0, 0xBD, 'b'}, "a\uFFFDb", -1},
		{[]byte{0xED, 0xB8, 0x80}, "\uFFFD", -1},
		{[]byte{'a', 0}, "", 1},
		{[]byte{'a', 0xC3}, "", 1},
		{[]byte{0xF0, 0x9F, 0x98, 0x80}, "", 0},
		{[]byte{0xE2, 0x82}, "", 0},
	}
	for _, tt := range tests {
		got, bad := decodeModifiedUTF8(tt.in)
		if got != tt.want || bad != tt.bad {
			t.Errorf("%x: %q %d, want %q %d", tt.in, got, bad, tt.want, tt.bad)
		}
	}
}

func TestDescriptors(t *testing.T) {
	for _, tt := range []struct{ desc, want string }{
		{"I", "int"}, {"Z", "boolean"}, {"B", "byte"}, {"C", "char"}, {"S", "short"}, {"J", "long"},
		{"F", "float"}, {"D", "double"}, {"Ljava/lang/String;", "java.lang.String"},
		{"[[I", "int[][]"}, {"[La/B$C;", "a.B$C[]"},
	} {
		ty, err := ParseFieldType(tt.desc)
		if err != nil || ty.String() != tt.want {
			t.Errorf("%s: %v %v, want %s", tt.desc, ty, err, tt.want)
		}
	}
	for _, bad := range []string{"", "V", "[V", "L;", "Ljava/lang/String", "II", "X", "La//b;", "La.b;", "[", strings255()} {
		if _, err := ParseFieldType(bad); err == nil {
			t.Errorf("field descriptor %q accepted", bad)
		}
	}
	params, ret, err := ParseMethodType("(IJ[Ljava/lang/Object;)V")
	if err != nil || fmt.Sprint(params) != "[int long java.lang.Object[]]" || ret.String() != "void" {
		t.Errorf("method type: %v %v %v", params, ret, err)
	}
	if params[1].Size() != 2 || ret.Size() != 0 || params[2].Size() != 1 {
		t.Errorf("sizes")
	}
	for _, bad := range []string{"", "I", "(I", "()", "(V)V", "()VV", "()[V", "(I)J;"} {
		if _, _, err := ParseMethodType(bad); err == nil {
			t.Errorf("method descriptor %q accepted", bad)
		}
	}
	if ty, _ := ParseFieldType(strings255()[1:]); ty.Kind != '[' {
		t.Errorf("255 dimensions refused")
	}
}

// strings255 returns a descriptor of 256 array dimensions.
func strings255() string {
	s := make([]byte, 256, 257)
	for i := range s {
		s[i] = '['
	}
	return string(append(s, 'I'))
}

func TestOpcodeNames(t *testing.T) {
	if Iconst_m1.String() != "iconst_m1" || IfAcmpne.String() != "if_acmpne" || JsrW.String() != "jsr_w" ||
		Dup2X2.String() != "dup2_x2" || Opcode(202).String() != "opcode(202)" || Tableswitch != 170 || JsrW != 201 {
		t.Errorf("opcode names")
	}
}
