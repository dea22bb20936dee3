package classfile

import (
	"fmt"
	"strings"
)

// Type is a field type or a method's return type parsed from a descriptor
// (JVM spec 4.3).
type Type struct {
	Kind  byte   // 'B','C','D','F','I','J','S','Z','V','L','['
	Class string // 'L': the internal name "java/lang/String"
	Elem  *Type  // '[': the element type
}

// maxDims is the most array dimensions a descriptor may have (4.3.2).
const maxDims = 255

// ParseFieldType parses a field descriptor ("I", "[J", "Ljava/lang/String;").
func ParseFieldType(desc string) (Type, error) {
	t, n, err := parseType(desc, 0, false)
	if err == nil && n != len(desc) {
		err = fmt.Errorf("descriptor %q: unexpected %q after the type", desc, desc[n:])
	}
	return t, err
}

// ParseMethodType parses a method descriptor ("(I[J)V").
func ParseMethodType(desc string) (params []Type, ret Type, err error) {
	if !strings.HasPrefix(desc, "(") {
		return nil, Type{}, fmt.Errorf("method descriptor %q does not start with '('", desc)
	}
	i := 1
	for i < len(desc) && desc[i] != ')' {
		var t Type
		t, i, err = parseType(desc, i, false)
		if err != nil {
			return nil, Type{}, err
		}
		params = append(params, t)
	}
	if i >= len(desc) {
		return nil, Type{}, fmt.Errorf("method descriptor %q has no ')'", desc)
	}
	ret, i, err = parseType(desc, i+1, true)
	if err == nil && i != len(desc) {
		err = fmt.Errorf("method descriptor %q: unexpected %q after the return type", desc, desc[i:])
	}
	if err != nil {
		return nil, Type{}, err
	}
	return params, ret, nil
}

// parseType parses the type at desc[i:] and returns it and the index after
// it; void says whether V is allowed.
func parseType(desc string, i int, void bool) (Type, int, error) {
	dims := 0
	for i < len(desc) && desc[i] == '[' {
		dims++
		i++
	}
	if dims > maxDims {
		return Type{}, 0, fmt.Errorf("descriptor %q: %d array dimensions, at most %d allowed", desc, dims, maxDims)
	}
	if i >= len(desc) {
		return Type{}, 0, fmt.Errorf("descriptor %q: missing type", desc)
	}
	var t Type
	switch k := desc[i]; k {
	case 'B', 'C', 'D', 'F', 'I', 'J', 'S', 'Z':
		t = Type{Kind: k}
		i++
	case 'V':
		if !void || dims > 0 {
			return Type{}, 0, fmt.Errorf("descriptor %q: void where a field type is expected", desc)
		}
		t = Type{Kind: k}
		i++
	case 'L':
		end := strings.IndexByte(desc[i:], ';')
		if end < 0 {
			return Type{}, 0, fmt.Errorf("descriptor %q: class name without ';'", desc)
		}
		name := desc[i+1 : i+end]
		if !validClassName(name) {
			return Type{}, 0, fmt.Errorf("descriptor %q: bad class name %q", desc, name)
		}
		t = Type{Kind: 'L', Class: name}
		i += end + 1
	default:
		return Type{}, 0, fmt.Errorf("descriptor %q: unexpected %q", desc, desc[i])
	}
	for ; dims > 0; dims-- {
		elem := t
		t = Type{Kind: '[', Elem: &elem}
	}
	return t, i, nil
}

// validClassName reports whether name is a binary name in internal form:
// unqualified names (no '.', ';', '[', '/') separated by '/' (4.2.1).
func validClassName(name string) bool {
	if name == "" {
		return false
	}
	for _, part := range strings.Split(name, "/") {
		if part == "" || strings.ContainsAny(part, ".;[") {
			return false
		}
	}
	return true
}

// String returns the type as Java source writes it: "int",
// "java.lang.String", "int[]", "void".
func (t Type) String() string {
	switch t.Kind {
	case 'B':
		return "byte"
	case 'C':
		return "char"
	case 'D':
		return "double"
	case 'F':
		return "float"
	case 'I':
		return "int"
	case 'J':
		return "long"
	case 'S':
		return "short"
	case 'Z':
		return "boolean"
	case 'V':
		return "void"
	case 'L':
		return strings.ReplaceAll(t.Class, "/", ".")
	case '[':
		if t.Elem == nil {
			return "?[]"
		}
		return t.Elem.String() + "[]"
	}
	return "?"
}

// Size returns the number of local slots (and operand-stack words) a
// value of type t takes: 2 for long and double, 0 for void, else 1.
func (t Type) Size() int {
	switch t.Kind {
	case 'J', 'D':
		return 2
	case 'V':
		return 0
	}
	return 1
}
