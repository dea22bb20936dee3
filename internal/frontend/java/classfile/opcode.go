package classfile

import "strconv"

// Opcode is a JVM instruction's opcode (JVM spec SE 17, chapter 6).
//
// The constants are named after javap's mnemonics: a mnemonic's shorthand
// suffix `_<n>` or `_m1` keeps its underscore (Iconst_m1, Iload_0,
// Astore_3), every other underscore starts a capital (AconstNull, LdcW,
// Ldc2W, DupX1, IfIcmpeq, GotoW, JsrW).
type Opcode uint8

const (
	Nop Opcode = iota
	AconstNull
	Iconst_m1
	Iconst_0
	Iconst_1
	Iconst_2
	Iconst_3
	Iconst_4
	Iconst_5
	Lconst_0
	Lconst_1
	Fconst_0
	Fconst_1
	Fconst_2
	Dconst_0
	Dconst_1
	Bipush
	Sipush
	Ldc
	LdcW
	Ldc2W
	Iload
	Lload
	Fload
	Dload
	Aload
	Iload_0
	Iload_1
	Iload_2
	Iload_3
	Lload_0
	Lload_1
	Lload_2
	Lload_3
	Fload_0
	Fload_1
	Fload_2
	Fload_3
	Dload_0
	Dload_1
	Dload_2
	Dload_3
	Aload_0
	Aload_1
	Aload_2
	Aload_3
	Iaload
	Laload
	Faload
	Daload
	Aaload
	Baload
	Caload
	Saload
	Istore
	Lstore
	Fstore
	Dstore
	Astore
	Istore_0
	Istore_1
	Istore_2
	Istore_3
	Lstore_0
	Lstore_1
	Lstore_2
	Lstore_3
	Fstore_0
	Fstore_1
	Fstore_2
	Fstore_3
	Dstore_0
	Dstore_1
	Dstore_2
	Dstore_3
	Astore_0
	Astore_1
	Astore_2
	Astore_3
	Iastore
	Lastore
	Fastore
	Dastore
	Aastore
	Bastore
	Castore
	Sastore
	Pop
	Pop2
	Dup
	DupX1
	DupX2
	Dup2
	Dup2X1
	Dup2X2
	Swap
	Iadd
	Ladd
	Fadd
	Dadd
	Isub
	Lsub
	Fsub
	Dsub
	Imul
	Lmul
	Fmul
	Dmul
	Idiv
	Ldiv
	Fdiv
	Ddiv
	Irem
	Lrem
	Frem
	Drem
	Ineg
	Lneg
	Fneg
	Dneg
	Ishl
	Lshl
	Ishr
	Lshr
	Iushr
	Lushr
	Iand
	Land
	Ior
	Lor
	Ixor
	Lxor
	Iinc
	I2l
	I2f
	I2d
	L2i
	L2f
	L2d
	F2i
	F2l
	F2d
	D2i
	D2l
	D2f
	I2b
	I2c
	I2s
	Lcmp
	Fcmpl
	Fcmpg
	Dcmpl
	Dcmpg
	Ifeq
	Ifne
	Iflt
	Ifge
	Ifgt
	Ifle
	IfIcmpeq
	IfIcmpne
	IfIcmplt
	IfIcmpge
	IfIcmpgt
	IfIcmple
	IfAcmpeq
	IfAcmpne
	Goto
	Jsr
	Ret
	Tableswitch
	Lookupswitch
	Ireturn
	Lreturn
	Freturn
	Dreturn
	Areturn
	Return
	Getstatic
	Putstatic
	Getfield
	Putfield
	Invokevirtual
	Invokespecial
	Invokestatic
	Invokeinterface
	Invokedynamic
	New
	Newarray
	Anewarray
	Arraylength
	Athrow
	Checkcast
	Instanceof
	Monitorenter
	Monitorexit
	Wide
	Multianewarray
	Ifnull
	Ifnonnull
	GotoW
	JsrW
)

// numOpcodes is one more than the greatest opcode a class file may hold
// (breakpoint, impdep1 and impdep2 are reserved for debuggers).
const numOpcodes = int(JsrW) + 1

var mnemonics = [numOpcodes]string{
	"nop", "aconst_null", "iconst_m1", "iconst_0", "iconst_1", "iconst_2", "iconst_3", "iconst_4", "iconst_5",
	"lconst_0", "lconst_1", "fconst_0", "fconst_1", "fconst_2", "dconst_0", "dconst_1",
	"bipush", "sipush", "ldc", "ldc_w", "ldc2_w",
	"iload", "lload", "fload", "dload", "aload",
	"iload_0", "iload_1", "iload_2", "iload_3", "lload_0", "lload_1", "lload_2", "lload_3",
	"fload_0", "fload_1", "fload_2", "fload_3", "dload_0", "dload_1", "dload_2", "dload_3",
	"aload_0", "aload_1", "aload_2", "aload_3",
	"iaload", "laload", "faload", "daload", "aaload", "baload", "caload", "saload",
	"istore", "lstore", "fstore", "dstore", "astore",
	"istore_0", "istore_1", "istore_2", "istore_3", "lstore_0", "lstore_1", "lstore_2", "lstore_3",
	"fstore_0", "fstore_1", "fstore_2", "fstore_3", "dstore_0", "dstore_1", "dstore_2", "dstore_3",
	"astore_0", "astore_1", "astore_2", "astore_3",
	"iastore", "lastore", "fastore", "dastore", "aastore", "bastore", "castore", "sastore",
	"pop", "pop2", "dup", "dup_x1", "dup_x2", "dup2", "dup2_x1", "dup2_x2", "swap",
	"iadd", "ladd", "fadd", "dadd", "isub", "lsub", "fsub", "dsub",
	"imul", "lmul", "fmul", "dmul", "idiv", "ldiv", "fdiv", "ddiv",
	"irem", "lrem", "frem", "drem", "ineg", "lneg", "fneg", "dneg",
	"ishl", "lshl", "ishr", "lshr", "iushr", "lushr", "iand", "land", "ior", "lor", "ixor", "lxor",
	"iinc", "i2l", "i2f", "i2d", "l2i", "l2f", "l2d", "f2i", "f2l", "f2d", "d2i", "d2l", "d2f",
	"i2b", "i2c", "i2s", "lcmp", "fcmpl", "fcmpg", "dcmpl", "dcmpg",
	"ifeq", "ifne", "iflt", "ifge", "ifgt", "ifle",
	"if_icmpeq", "if_icmpne", "if_icmplt", "if_icmpge", "if_icmpgt", "if_icmple", "if_acmpeq", "if_acmpne",
	"goto", "jsr", "ret", "tableswitch", "lookupswitch",
	"ireturn", "lreturn", "freturn", "dreturn", "areturn", "return",
	"getstatic", "putstatic", "getfield", "putfield",
	"invokevirtual", "invokespecial", "invokestatic", "invokeinterface", "invokedynamic",
	"new", "newarray", "anewarray", "arraylength", "athrow", "checkcast", "instanceof",
	"monitorenter", "monitorexit", "wide", "multianewarray", "ifnull", "ifnonnull", "goto_w", "jsr_w",
}

// String returns javap's mnemonic of o ("iconst_0", "invokevirtual"), or
// "opcode(N)" for a byte that is no instruction.
func (o Opcode) String() string {
	if int(o) < numOpcodes {
		return mnemonics[o]
	}
	return "opcode(" + strconv.Itoa(int(o)) + ")"
}

// Newarray's atype operand (JVM spec, newarray).
const (
	TBoolean = 4
	TChar    = 5
	TFloat   = 6
	TDouble  = 7
	TByte    = 8
	TShort   = 9
	TInt     = 10
	TLong    = 11
)

// operand says how an opcode's operands are laid out in the code array.
type operand uint8

const (
	opNone           operand = iota
	opLocal                  // u1 local slot (u2 under wide)
	opByte                   // s1 (bipush)
	opShort                  // s2 (sipush)
	opPool1                  // u1 constant-pool index (ldc)
	opPool2                  // u2 constant-pool index
	opIinc                   // u1 slot, s1 increment (u2, s2 under wide)
	opBranch2                // s2 offset
	opBranch4                // s4 offset
	opInterface              // u2 index, u1 count, u1 0
	opDynamic                // u2 index, u1 0, u1 0
	opNewarray               // u1 atype
	opMultianewarray         // u2 index, u1 dimensions
	opTableswitch
	opLookupswitch
	opWide
)

func operandOf(o Opcode) operand {
	switch {
	case o == Bipush:
		return opByte
	case o == Sipush:
		return opShort
	case o == Ldc:
		return opPool1
	case o == LdcW || o == Ldc2W:
		return opPool2
	case o >= Iload && o <= Aload, o >= Istore && o <= Astore, o == Ret:
		return opLocal
	case o == Iinc:
		return opIinc
	case o >= Ifeq && o <= Jsr, o == Ifnull, o == Ifnonnull:
		return opBranch2
	case o == GotoW || o == JsrW:
		return opBranch4
	case o == Tableswitch:
		return opTableswitch
	case o == Lookupswitch:
		return opLookupswitch
	case o >= Getstatic && o <= Invokestatic, o == New, o == Anewarray, o == Checkcast, o == Instanceof:
		return opPool2
	case o == Invokeinterface:
		return opInterface
	case o == Invokedynamic:
		return opDynamic
	case o == Newarray:
		return opNewarray
	case o == Multianewarray:
		return opMultianewarray
	case o == Wide:
		return opWide
	}
	return opNone
}

// implicit gives the operand an opcode's shorthand form carries in its
// name: the slot of iload_<n> ... astore_<n>, the value of iconst_<i>,
// lconst_<l>, fconst_<f> and dconst_<d>.
func implicit(o Opcode) (slot int, value int64, isSlot, isValue bool) {
	switch {
	case o >= Iload_0 && o <= Aload_3:
		return int(o-Iload_0) % 4, 0, true, false
	case o >= Istore_0 && o <= Astore_3:
		return int(o-Istore_0) % 4, 0, true, false
	case o >= Iconst_m1 && o <= Iconst_5:
		return 0, int64(o) - int64(Iconst_0), false, true
	case o >= Lconst_0 && o <= Lconst_1:
		return 0, int64(o - Lconst_0), false, true
	case o >= Fconst_0 && o <= Fconst_2:
		return 0, int64(o - Fconst_0), false, true
	case o >= Dconst_0 && o <= Dconst_1:
		return 0, int64(o - Dconst_0), false, true
	}
	return 0, 0, false, false
}
