package classfile

import (
	"encoding/binary"
	"fmt"
)

// Insn is one decoded instruction.
type Insn struct {
	PC   int
	Op   Opcode // for wide forms, the widened opcode (Iload, Iinc, ...) with Wide set
	Wide bool
	// Index is the local slot of loads, stores (also the slot of their
	// _<n> forms), iinc and ret, or the constant-pool index of ldc*,
	// field and method instructions, new, anewarray, checkcast,
	// instanceof, multianewarray and invokedynamic.
	Index int
	// Value is the operand of bipush and sipush, iinc's increment, the
	// value of iconst_<i>, lconst_<l>, fconst_<f> and dconst_<d>,
	// newarray's atype (TInt ...), multianewarray's dimensions.
	Value   int64
	Target  int     // branch target (absolute pc) of if*, goto*, jsr*
	Default int     // tableswitch, lookupswitch: the default target (absolute pc)
	Keys    []int32 // switch keys (tableswitch: low..high expanded)
	Targets []int   // switch targets (absolute pcs), parallel to Keys
	Count   int     // invokeinterface's count
}

// decode decodes a code array whose first byte is at offset base of the
// class file. Every branch and switch target must be the pc of an
// instruction.
func decode(code []byte, base int) ([]Insn, *FormatError) {
	var insns []Insn
	bad := func(pc int, format string, args ...any) *FormatError {
		return &FormatError{Offset: base + pc, Msg: fmt.Sprintf("pc %d: ", pc) + fmt.Sprintf(format, args...)}
	}
	for pc := 0; pc < len(code); {
		op := Opcode(code[pc])
		in := Insn{PC: pc, Op: op}
		if int(op) >= numOpcodes {
			return nil, bad(pc, "unknown opcode %d", op)
		}
		// need says whether n operand bytes follow the opcode.
		need := func(n int) bool { return pc+1+n <= len(code) }
		u1 := func(at int) int { return int(code[pc+at]) }
		s1 := func(at int) int { return int(int8(code[pc+at])) }
		u2 := func(at int) int { return int(binary.BigEndian.Uint16(code[pc+at:])) }
		s2 := func(at int) int { return int(int16(binary.BigEndian.Uint16(code[pc+at:]))) }
		s4 := func(at int) int { return int(int32(binary.BigEndian.Uint32(code[pc+at:]))) }
		n := 0 // operand bytes
		switch operandOf(op) {
		case opNone:
			if slot, v, isSlot, isValue := implicit(op); isSlot {
				in.Index = slot
			} else if isValue {
				in.Value = v
			}
		case opLocal, opPool1, opNewarray:
			n = 1
			if need(n) {
				in.Index = u1(1)
				if op == Newarray {
					in.Index, in.Value = 0, int64(u1(1))
					if in.Value < TBoolean || in.Value > TLong {
						return nil, bad(pc, "newarray with bad atype %d", in.Value)
					}
				}
			}
		case opByte:
			n = 1
			if need(n) {
				in.Value = int64(s1(1))
			}
		case opShort:
			n = 2
			if need(n) {
				in.Value = int64(s2(1))
			}
		case opPool2:
			n = 2
			if need(n) {
				in.Index = u2(1)
			}
		case opIinc:
			n = 2
			if need(n) {
				in.Index, in.Value = u1(1), int64(s1(2))
			}
		case opBranch2:
			n = 2
			if need(n) {
				in.Target = pc + s2(1)
			}
		case opBranch4:
			n = 4
			if need(n) {
				in.Target = pc + s4(1)
			}
		case opInterface, opDynamic:
			n = 4
			if need(n) {
				in.Index = u2(1)
				if op == Invokeinterface {
					in.Count = u1(3)
					if in.Count == 0 || code[pc+4] != 0 {
						return nil, bad(pc, "invokeinterface with count %d and fourth byte %d", in.Count, code[pc+4])
					}
				} else if code[pc+3] != 0 || code[pc+4] != 0 {
					return nil, bad(pc, "invokedynamic with nonzero bytes 3 and 4")
				}
			}
		case opMultianewarray:
			n = 3
			if need(n) {
				in.Index, in.Value = u2(1), int64(u1(3))
				if in.Value == 0 {
					return nil, bad(pc, "multianewarray with 0 dimensions")
				}
			}
		case opWide:
			if !need(1) {
				return nil, bad(pc, "truncated wide")
			}
			in.Op, in.Wide = Opcode(code[pc+1]), true
			switch operandOf(in.Op) {
			case opLocal:
				n = 3
				if need(n) {
					in.Index = u2(2)
				}
			case opIinc:
				n = 5
				if need(n) {
					in.Index, in.Value = u2(2), int64(s2(4))
				}
			default:
				return nil, bad(pc+1, "wide %s", in.Op)
			}
		case opTableswitch, opLookupswitch:
			var err *FormatError
			n, err = decodeSwitch(code, pc, &in, bad)
			if err != nil {
				return nil, err
			}
		}
		if !need(n) {
			return nil, bad(pc, "truncated %s: %d operand bytes, %d left", op, n, len(code)-pc-1)
		}
		insns = append(insns, in)
		pc += 1 + n
	}
	// Every jump must land on an instruction.
	isStart := make([]bool, len(code))
	for _, in := range insns {
		isStart[in.PC] = true
	}
	check := func(in *Insn, t int) *FormatError {
		if t < 0 || t >= len(code) || !isStart[t] {
			return bad(in.PC, "%s to %d, which is not an instruction", in.Op, t)
		}
		return nil
	}
	for i := range insns {
		in := &insns[i]
		switch operandOf(in.Op) {
		case opBranch2, opBranch4:
			if !in.Wide {
				if err := check(in, in.Target); err != nil {
					return nil, err
				}
			}
		case opTableswitch, opLookupswitch:
			if err := check(in, in.Default); err != nil {
				return nil, err
			}
			for _, t := range in.Targets {
				if err := check(in, t); err != nil {
					return nil, err
				}
			}
		}
	}
	return insns, nil
}

// decodeSwitch decodes the tableswitch or lookupswitch at pc into in and
// returns its number of operand bytes (padding included).
func decodeSwitch(code []byte, pc int, in *Insn, bad func(int, string, ...any) *FormatError) (int, *FormatError) {
	at := pc + 1 + (3-pc%4)%4 // 0-3 bytes of padding align the operands
	left := len(code) - at
	rd := func(i int) int32 { return int32(binary.BigEndian.Uint32(code[at+4*i:])) }
	if min := map[bool]int{true: 12, false: 8}[in.Op == Tableswitch]; left < min {
		return 0, bad(pc, "truncated %s", in.Op)
	}
	in.Default = pc + int(rd(0))
	var n int64 // entries
	if in.Op == Tableswitch {
		low, high := rd(1), rd(2)
		if low > high {
			return 0, bad(pc, "tableswitch with low %d > high %d", low, high)
		}
		n = int64(high) - int64(low) + 1
		if n*4 > int64(left-12) {
			return 0, bad(pc, "tableswitch of %d entries exceeds the %d bytes left", n, left-12)
		}
		in.Keys = make([]int32, n)
		in.Targets = make([]int, n)
		for i := range in.Keys {
			in.Keys[i] = low + int32(i)
			in.Targets[i] = pc + int(rd(3+i))
		}
		return at - pc - 1 + 12 + int(n)*4, nil
	}
	n = int64(rd(1))
	if n < 0 || n*8 > int64(left-8) {
		return 0, bad(pc, "lookupswitch of %d pairs exceeds the %d bytes left", n, left-8)
	}
	in.Keys = make([]int32, n)
	in.Targets = make([]int, n)
	for i := range in.Keys {
		in.Keys[i] = rd(2 + 2*i)
		in.Targets[i] = pc + int(rd(3+2*i))
		if i > 0 && in.Keys[i] <= in.Keys[i-1] {
			return 0, bad(pc, "lookupswitch keys not increasing: %d after %d", in.Keys[i], in.Keys[i-1])
		}
	}
	return at - pc - 1 + 8 + int(n)*8, nil
}
