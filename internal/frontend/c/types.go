package c

import (
	"fmt"
	"math/big"

	"modernc.org/cc/v4"
)

// intType is a C integer type under the data model: its width and
// signedness, which name the BIR fixed-width type that holds it.
type intType struct {
	bits   int  // 8, 16, 32 or 64
	signed bool // two's complement; else unsigned
	isBool bool // _Bool: uint8 holding 0 or 1
}

var (
	tInt   = intType{bits: 32, signed: true}
	tUChar = intType{bits: 8}
	tBool  = intType{bits: 8, isBool: true}
)

// bir is the BIR type that holds the C type's values.
func (t intType) bir() string {
	if t.signed {
		return fmt.Sprintf("int%d", t.bits)
	}
	return fmt.Sprintf("uint%d", t.bits)
}

func (t intType) min() *big.Int {
	if t.isBool || !t.signed {
		return big.NewInt(0)
	}
	return new(big.Int).Neg(new(big.Int).Lsh(big.NewInt(1), uint(t.bits-1)))
}

func (t intType) max() *big.Int {
	if t.isBool {
		return big.NewInt(1)
	}
	n := t.bits
	if t.signed {
		n--
	}
	return new(big.Int).Sub(new(big.Int).Lsh(big.NewInt(1), uint(n)), big.NewInt(1))
}

// contains tells whether lo..hi lies within the type's values.
func (t intType) contains(lo, hi *big.Int) bool {
	return lo.Cmp(t.min()) >= 0 && hi.Cmp(t.max()) <= 0
}

var (
	minInt64 = big.NewInt(-1 << 63)
	maxInt64 = big.NewInt(1<<63 - 1)
)

// fits64 tells whether BIR's 64-bit arithmetic holds every value of lo..hi.
func fits64(lo, hi *big.Int) bool { return lo.Cmp(minInt64) >= 0 && hi.Cmp(maxInt64) <= 0 }

// typeClass sorts the C types for the lowering.
type typeClass int

const (
	classInt     typeClass = iota // an integer type (intType)
	classVoid                     // void
	classFloat                    // floating point or complex: unsupported
	classMemory                   // pointer, array, struct, union: mem.go
	classFunc                     // a function type
	classUnknown                  // anything else: unsupported
)

// classify tells what a C type is and, for an integer type, its width.
func (l *lowerer) classify(t cc.Type) (typeClass, intType) {
	if t == nil {
		return classUnknown, intType{}
	}
	k := t.Kind()
	switch k {
	case cc.Bool:
		return classInt, tBool
	case cc.Enum:
		if et, ok := t.(*cc.EnumType); ok && et.UnderlyingType() != nil && et.UnderlyingType().Kind() != cc.Enum {
			return l.classify(et.UnderlyingType())
		}
		return classInt, tInt
	case cc.Char, cc.SChar, cc.UChar, cc.Short, cc.UShort, cc.Int, cc.UInt,
		cc.Long, cc.ULong, cc.LongLong, cc.ULongLong:
		size := t.Size()
		if size != 1 && size != 2 && size != 4 && size != 8 {
			return classUnknown, intType{}
		}
		signed := cc.IsSignedInteger(t)
		if k == cc.Char {
			signed = l.ast.ABI.SignedChar
		}
		return classInt, intType{bits: int(size) * 8, signed: signed}
	case cc.Void:
		return classVoid, intType{}
	case cc.Ptr, cc.Array, cc.Struct, cc.Union:
		return classMemory, intType{}
	case cc.Function:
		return classFunc, intType{}
	}
	if cc.IsFloatingPointType(t) || cc.IsComplexType(t) || k == cc.Float || k == cc.Double || k == cc.LongDouble {
		return classFloat, intType{}
	}
	return classUnknown, intType{}
}
