package format

import (
	"bytes"
	"errors"
	"fmt"
	"io"

	"birch/internal/bir/ast"
	"birch/internal/bir/parser"
	"birch/internal/source"
)

// File prints f in canonical layout to w. fset resolves positions; it is used
// to place comments and to keep one blank line where the source had one or
// more between items. A nil fset is allowed: comments then each go on a line
// of their own and no blank line is kept.
//
// Bad nodes (ast.Bad*), which only a tree with syntax errors contains, are
// printed as `/* bad */`; such output is not meant to parse.
func File(w io.Writer, fset *source.FileSet, f *ast.File) (err error) {
	if f == nil {
		return errors.New("format: nil file")
	}
	defer func() {
		// The printer checks every field it reads; this only keeps a bug
		// from crossing the package boundary as a panic.
		if r := recover(); r != nil {
			err = fmt.Errorf("format: internal error printing %s: %v", f.Name, r)
		}
	}()
	p := newPrinter(fset, f.Comments)
	p.file(f)
	_, err = w.Write(p.buf.Bytes())
	return err
}

// Source parses src (keeping comments) and returns its canonical form, or the
// parse errors (a source.ErrorList) when src does not parse.
func Source(filename string, src []byte) ([]byte, error) {
	fset := source.NewFileSet()
	f, err := parser.ParseFile(fset, filename, src, parser.ParseComments)
	if err != nil {
		return nil, err
	}
	if pos, ok := findBad(f); ok {
		var list source.ErrorList
		list.Add(fset.Position(pos), "cannot format a syntax tree with errors")
		return nil, list
	}
	var buf bytes.Buffer
	if err := File(&buf, fset, f); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// findBad returns the position of the first bad node of f.
func findBad(f *ast.File) (pos source.Pos, found bool) {
	ast.Inspect(f, func(n ast.Node) bool {
		if found {
			return false
		}
		switch n := n.(type) {
		case *ast.BadDecl:
			pos, found = n.From, true
		case *ast.BadType:
			pos, found = n.From, true
		case *ast.BadAction:
			pos, found = n.From, true
		case *ast.BadExpr:
			pos, found = n.From, true
		}
		return !found
	})
	return pos, found
}

// Expr returns the canonical text of an expression on one line, without
// comments (for diagnostics and trails). A nil x gives `/* bad */`.
func Expr(x ast.Expr) string {
	p := &printer{}
	p.expr(x)
	return p.buf.String()
}

// TypeExpr returns the canonical text of a type expression on one line,
// records and enums included. A nil t gives `/* bad */`.
func TypeExpr(t ast.TypeExpr) string {
	p := &printer{}
	p.typ(t)
	return p.buf.String()
}

// Transformation returns the canonical text of a transformation on one
// line, without comments (for trails, as SPIN's -p prints each statement):
// `when G do { a; } goto L;`. A nil t gives `/* bad */`.
func Transformation(t *ast.Transformation) string {
	if t == nil {
		return badText
	}
	p := &printer{}
	p.transformationForm(t, true)
	return p.buf.String()
}
