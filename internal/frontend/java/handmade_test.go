package java_test

import (
	"encoding/binary"
	"errors"
	"strings"
	"testing"

	java "birch/internal/frontend/java"
	"birch/internal/frontend/java/classfile"
)

// handClass assembles a class H (source H.java) whose static method
// main(String[]) has the given bytecode, every instruction on line 1 but
// those from pc lineFrom on, on line 2. Its constant pool holds what the
// code below refers to: #20 Verify.getInt(II)I, #26
// AssertionError.<init>()V, #22 class AssertionError.
func handClass(t *testing.T, maxStack, maxLocals int, code []byte, lineFrom int) *classfile.Class {
	return handClassLVT(t, maxStack, maxLocals, code, lineFrom, nil)
}

// handClassLVT is handClass with a LocalVariableTable: each entry is
// start, length, name index (#13 "x", #14 "y"), descriptor index (#27
// "I", #28 "Z"), slot.
func handClassLVT(t *testing.T, maxStack, maxLocals int, code []byte, lineFrom int, lvt [][5]int) *classfile.Class {
	t.Helper()
	u2 := func(v int) []byte { return binary.BigEndian.AppendUint16(nil, uint16(v)) }
	u4 := func(v int) []byte { return binary.BigEndian.AppendUint32(nil, uint32(v)) }
	utf8 := func(s string) []byte { return append(append([]byte{1}, u2(len(s))...), s...) }
	ref := func(tag byte, a, b int) []byte {
		r := []byte{tag}
		r = append(r, u2(a)...)
		if b >= 0 {
			r = append(r, u2(b)...)
		}
		return r
	}
	pool := [][]byte{
		utf8("H"), ref(7, 1, -1), utf8("java/lang/Object"), ref(7, 3, -1), // 1-4
		utf8("main"), utf8("([Ljava/lang/String;)V"), utf8("Code"), utf8("unused"), utf8("()V"), // 5-9
		utf8("LineNumberTable"), utf8("SourceFile"), utf8("H.java"), utf8("x"), utf8("y"), // 10-14
		utf8("gov/nasa/jpf/vm/Verify"), ref(7, 15, -1), utf8("getInt"), utf8("(II)I"), // 15-18
		ref(12, 17, 18), ref(10, 16, 19), // 19 NameAndType, 20 Methodref Verify.getInt
		utf8("java/lang/AssertionError"), ref(7, 21, -1), utf8("<init>"), utf8("()V"), // 21-24
		ref(12, 23, 24), ref(10, 22, 25), // 25 NameAndType, 26 Methodref AssertionError.<init>
		utf8("I"), utf8("Z"), utf8("LocalVariableTable"), // 27-29
	}
	var b []byte
	b = append(b, 0xCA, 0xFE, 0xBA, 0xBE)
	b = append(b, u2(0)...)
	b = append(b, u2(52)...)
	b = append(b, u2(len(pool)+1)...)
	for _, p := range pool {
		b = append(b, p...)
	}
	b = append(b, u2(0x21)...) // public super
	b = append(b, u2(2)...)    // this
	b = append(b, u2(4)...)    // super
	b = append(b, u2(0)...)    // interfaces
	b = append(b, u2(0)...)    // fields
	b = append(b, u2(1)...)    // methods
	lines := append(u2(2), append(append(u2(0), u2(1)...), append(u2(lineFrom), u2(2)...)...)...)
	lnt := append(append(u2(10), u4(len(lines))...), lines...)
	var attr []byte
	attr = append(attr, u2(maxStack)...)
	attr = append(attr, u2(maxLocals)...)
	attr = append(attr, u4(len(code))...)
	attr = append(attr, code...)
	attr = append(attr, u2(0)...) // exception table
	if lvt == nil {
		attr = append(attr, u2(1)...)
		attr = append(attr, lnt...)
	} else {
		attr = append(attr, u2(2)...)
		attr = append(attr, lnt...)
		var tab []byte
		tab = append(tab, u2(len(lvt))...)
		for _, e := range lvt {
			for _, f := range e {
				tab = append(tab, u2(f)...)
			}
		}
		attr = append(attr, u2(29)...)
		attr = append(attr, u4(len(tab))...)
		attr = append(attr, tab...)
	}
	b = append(b, u2(0x9)...) // public static
	b = append(b, u2(5)...)
	b = append(b, u2(6)...)
	b = append(b, u2(1)...)
	b = append(b, u2(7)...)
	b = append(b, u4(len(attr))...)
	b = append(b, attr...)
	b = append(b, u2(1)...) // class attributes: SourceFile
	b = append(b, u2(11)...)
	b = append(b, u4(2)...)
	b = append(b, u2(12)...)
	c, err := classfile.Parse(b)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// Bytecode of the handmade tests.
const (
	iconst0, iconst1, bipush           = 0x03, 0x04, 0x10
	iload1, iload2, istore1, istore2   = 0x1b, 0x1c, 0x3c, 0x3d
	lconst0, i2l, lcmp, ineg, isub     = 0x09, 0x85, 0x94, 0x74, 0x64
	swap, ifeq, ifIcmpeq, jsr, return_ = 0x5f, 0x99, 0x9f, 0xa8, 0xb1
	invokestatic, invokespecial        = 0xb8, 0xb7
	new_, dup, athrow                  = 0xbb, 0x59, 0xbf
)

// fail is javac's throw of an AssertionError (new, dup, <init>, athrow).
var fail = []byte{new_, 0, 22, dup, invokespecial, 0, 26, athrow}

// getInt01 is x := Verify.getInt(0, 1) into local 1.
var getInt01 = []byte{iconst0, iconst1, invokestatic, 0, 20, istore1}

// TestHandmadeStackShuffle: a swap that makes the moves into the stack's
// temporaries at a branch exchange them ($s0 := $s1; $s1 := $s0 needs
// the values set aside) and lcmp whose result is kept rather than
// branched on; the asserts hold, as the JVM computes them.
func TestHandmadeStackShuffle(t *testing.T) {
	for _, tc := range []struct {
		name string
		code []byte
	}{
		// stack [x, 10] joined at pc 12 ($s0, $s1), swapped to [10, x],
		// joined at pc 17 (the moves exchange), 10 - x == 10 - x
		{"swap", cat(getInt01,
			[]byte{iload1, bipush, 10, iload1, ifeq, 0, 3},          // 6: ... 10: ifeq +3 -> 13
			[]byte{swap, iload1, ifeq, 0, 3},                        // 13: swap, 14 iload, 15: ifeq +3 -> 18
			[]byte{isub, bipush, 10, iload1, isub, ifIcmpeq, 0, 11}, // 18: ... 24: if_icmpeq +11 -> 35
			fail, []byte{return_})},
		// lcmp(0, x) kept in a local: -1 for x == 1, 0 for x == 0
		{"lcmp", cat(getInt01,
			[]byte{lconst0, iload1, i2l, lcmp, istore2},   // 6..10
			[]byte{iload2, iload1, ineg, ifIcmpeq, 0, 11}, // 11..14: if_icmpeq +11 -> 25
			fail, []byte{return_})},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := handClass(t, 6, 3, tc.code, len(tc.code)-1)
			out, err := java.Translate([]*classfile.Class{c}, java.Config{})
			if err != nil {
				t.Fatal(err)
			}
			if status, text := checkBIR(t, "H", out.BIR); status != 0 {
				t.Fatalf("birch check: exit %d:\n%s\n%s", status, text, out.BIR)
			}
			// the same code with the assert's condition reversed fails
			bad := append([]byte(nil), tc.code...)
			for i := len(bad) - len(fail) - 4; i >= 0; i-- {
				if bad[i] == ifIcmpeq {
					bad[i] = 0xa0 // if_icmpne
					break
				}
			}
			out, err = java.Translate([]*classfile.Class{handClass(t, 6, 3, bad, len(bad)-1)}, java.Config{})
			if err != nil {
				t.Fatal(err)
			}
			if status, text := checkBIR(t, "H", out.BIR); status != 1 {
				t.Fatalf("birch check of the reversed assert: exit %d, want 1:\n%s", status, text)
			}
		})
	}
}

// TestHandmadeOverlappingLocals: a LocalVariableTable whose entries of
// one slot overlap (x int and y boolean over the same range, which javac
// never writes) names nothing: the slot is l1, an int32, and storing 2 in
// it is no range error of a jboolean y.
func TestHandmadeOverlappingLocals(t *testing.T) {
	code := cat([]byte{iconst0, iconst1, invokestatic, 0, 20, iconst1, 0x60 /* iadd */, istore1}, // 0..7
		[]byte{iload1, iconst1, 0xa2 /* if_icmpge */, 0, 11}, // 8..12: -> 21
		fail, []byte{return_})
	lvt := [][5]int{{8, len(code) - 8, 13, 27, 1}, {8, len(code) - 8, 14, 28, 1}}
	out, err := java.Translate([]*classfile.Class{handClassLVT(t, 4, 2, code, len(code)-1, lvt)}, java.Config{})
	if err != nil {
		t.Fatal(err)
	}
	if status, text := checkBIR(t, "H", out.BIR); status != 0 {
		t.Fatalf("birch check: exit %d:\n%s\n%s", status, text, out.BIR)
	}
	if !strings.Contains(string(out.BIR), "l1 : int32;") {
		t.Errorf("slot 1 is not l1 : int32:\n%s", out.BIR)
	}
}

// TestHandmadeUnsupported: jsr (class files before Java 7) is
// unsupported at its line.
func TestHandmadeUnsupported(t *testing.T) {
	code := cat(getInt01, []byte{jsr, 0, 4, return_, return_})
	_, err := java.Translate([]*classfile.Class{handClass(t, 4, 3, code, 6)}, java.Config{})
	var ue *java.UnsupportedError
	if !errors.As(err, &ue) || !strings.Contains(err.Error(), "H.java:2:1: the subroutine instruction jsr") {
		t.Fatalf("Translate: %v, want jsr unsupported at H.java:2:1", err)
	}
}

func cat(parts ...[]byte) []byte {
	var b []byte
	for _, p := range parts {
		b = append(b, p...)
	}
	return b
}
