package format

import (
	"fmt"
	"reflect"
	"strconv"
	"strings"

	"birch/internal/bir/ast"
	"birch/internal/bir/token"
	"birch/internal/source"
)

// DumpAST returns a deterministic, position-free dump of f: every node with
// its type name and the value of every field, one per line, indented by
// depth. It leaves out what is not part of the model: fields of type
// source.Pos, File.Name and File.Comments. Operators and keywords are shown
// by their spelling, names and literals quoted, flags as true/false, and
// nil and empty lists as nil and [].
//
// Two files that differ only in layout, comments and file name have the same
// dump, so tests compare dumps to check that the formatter changed nothing
// but layout, and golden files of dumps show what the parser built:
//
//	File
//	  System: System
//	    Process: false
//	    Name: Ident "M"
//	    Decls: [1]
//	      [0] ConstDecl
//	        Name: Ident "N"
//	        Value: BasicLit INT "3"
//	    …
func DumpAST(f *ast.File) string {
	d := &dumper{}
	d.node("", reflect.ValueOf(f), 0)
	return d.buf.String()
}

// DumpNode is DumpAST for any node: an expression, a type, a declaration.
func DumpNode(n ast.Node) string {
	d := &dumper{}
	d.node("", reflect.ValueOf(n), 0)
	return d.buf.String()
}

// Equal reports whether a and b describe the same model: their dumps
// (DumpAST) are equal except for StartAction.PaperForm, the one spelling
// choice that the formatter normalises (`start(T, x)` is printed as
// `start T(x)`). Formatting a file never changes it in Equal's sense.
func Equal(a, b *ast.File) bool {
	da := &dumper{ignorePaperForm: true}
	da.node("", reflect.ValueOf(a), 0)
	db := &dumper{ignorePaperForm: true}
	db.node("", reflect.ValueOf(b), 0)
	return da.buf.String() == db.buf.String()
}

var (
	posType      = reflect.TypeOf(source.NoPos)
	kindType     = reflect.TypeOf(token.Kind(0))
	fileType     = reflect.TypeOf(ast.File{})
	startType    = reflect.TypeOf(ast.StartAction{})
	chooseType   = reflect.TypeOf(ast.ChooseAction{})
	identType    = reflect.TypeOf(ast.Ident{})
	basicLitType = reflect.TypeOf(ast.BasicLit{})
)

type dumper struct {
	buf             strings.Builder
	ignorePaperForm bool
}

// node writes one line `label value` at depth and, for structs and lists,
// their fields or elements below it.
func (d *dumper) node(label string, v reflect.Value, depth int) {
	for i := 0; i < depth; i++ {
		d.buf.WriteString("  ")
	}
	d.buf.WriteString(label)
	for v.IsValid() && v.Kind() == reflect.Interface {
		if v.IsNil() {
			break
		}
		v = v.Elem()
	}
	switch {
	case !v.IsValid():
		d.buf.WriteString("nil\n")
		return
	case v.Kind() == reflect.Interface, v.Kind() == reflect.Pointer && v.IsNil():
		d.buf.WriteString("nil\n")
		return
	case v.Kind() == reflect.Pointer:
		v = v.Elem()
	}
	if v.Type() == chooseType {
		v = reflect.ValueOf(asParsed(v.Interface().(ast.ChooseAction)))
	}

	switch {
	case v.Type() == identType:
		fmt.Fprintf(&d.buf, "Ident %s\n", strconv.Quote(v.FieldByName("Name").String()))
		return
	case v.Type() == basicLitType:
		kind := token.Kind(v.FieldByName("Kind").Int())
		fmt.Fprintf(&d.buf, "BasicLit %s %s\n", kind, strconv.Quote(v.FieldByName("Value").String()))
		return
	case v.Type() == kindType:
		d.buf.WriteString(token.Kind(v.Int()).String() + "\n")
		return
	}

	switch v.Kind() {
	case reflect.Struct:
		t := v.Type()
		d.buf.WriteString(t.Name() + "\n")
		for i := 0; i < t.NumField(); i++ {
			f := t.Field(i)
			if f.Type == posType || !f.IsExported() {
				continue
			}
			if t == fileType && (f.Name == "Name" || f.Name == "Comments") {
				continue
			}
			if t == startType && f.Name == "PaperForm" && d.ignorePaperForm {
				continue
			}
			d.node(f.Name+": ", v.Field(i), depth+1)
		}
	case reflect.Slice:
		if v.Len() == 0 {
			d.buf.WriteString("[]\n")
			return
		}
		fmt.Fprintf(&d.buf, "[%d]\n", v.Len())
		for i := 0; i < v.Len(); i++ {
			d.node(fmt.Sprintf("[%d] ", i), v.Index(i), depth+1)
		}
	case reflect.String:
		d.buf.WriteString(strconv.Quote(v.String()) + "\n")
	case reflect.Bool:
		d.buf.WriteString(strconv.FormatBool(v.Bool()) + "\n")
	default:
		fmt.Fprintf(&d.buf, "%v\n", v.Interface())
	}
}

// asParsed is a choice as the parser built it: for the type form the type
// checker sets Lo and Hi and moves a lone name that names a type from
// Values to Type (ast.ChooseAction), which is not syntax, so that a
// checked tree dumps as the same text parsed again.
func asParsed(a ast.ChooseAction) ast.ChooseAction {
	if a.Type == nil {
		return a
	}
	a.Lo, a.Hi = nil, nil
	if id, ok := a.Type.(*ast.Ident); ok {
		a.Type, a.Values = nil, []ast.Expr{id}
	}
	return a
}
