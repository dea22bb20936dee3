package verify

import (
	"fmt"
	"path/filepath"
	"strings"

	"birch/internal/bir/ast"
	"birch/internal/bir/parser"
	"birch/internal/bir/types"
	cfront "birch/internal/frontend/c"
	"birch/internal/frontend/java"
	"birch/internal/source"
)

// Input is a loaded input: a typed BIR program, whatever language the
// user wrote it in.
type Input struct {
	Name string // the input as the user named it ("-" for standard input)
	Fset *source.FileSet
	File *ast.File
	Prog *types.Program
	// Src is the BIR text the program was parsed from (for a .bir file,
	// the file): a formula given on the command line is checked by
	// parsing it again with the formula inserted.
	Src []byte
	// C is the lowered C program when the input is C (a .c or .i file):
	// Src is then the generated BIR, whose positions name the C source.
	C *cfront.Output
	// Java is the lowered Java program when the input is Java (a .java or
	// .class file, or a directory of class files): Src is then the
	// generated BIR, whose positions name the Java sources.
	Java *java.Output
}

// LoadOptions are the settings of the front ends that have any.
type LoadOptions struct {
	C    cfront.Config // C programs: data model, overflow, error functions
	Java JavaOptions   // Java programs: main class, heap bounds, javac
}

// A frontEnd turns the text of an input into BIR.
type frontEnd func(name, display string, src []byte, opts LoadOptions) (*Input, error)

// frontEnds maps a file name's extension to its front end; nothing else
// in the pipeline knows the language of an input (a directory, a Java
// class path, is LoadDir's).
var frontEnds = map[string]frontEnd{
	".bir":   loadBIR,
	".c":     loadC,
	".i":     loadC,
	".java":  loadJavaSource,
	".class": loadClassFile,
	".jar":   loadJar,
}

// Load loads an input by its file type (standard input, "-", is BIR):
// parsed, type-checked and ready for model construction. Its errors are
// positioned (a source.ErrorList) where the input has positions.
func Load(name string, src []byte) (*Input, error) {
	return LoadWith(name, src, LoadOptions{})
}

// LoadWith is Load with the front ends' settings.
func LoadWith(name string, src []byte, opts LoadOptions) (*Input, error) {
	display := name
	if name == "-" {
		display = "<stdin>"
	}
	ext := strings.ToLower(filepath.Ext(name))
	fe, ok := frontEnds[ext]
	if !ok {
		// BIR is the default: a model may have any name
		fe = loadBIR
	}
	return fe(name, display, src, opts)
}

// loadBIR parses and type-checks a BIR model.
func loadBIR(name, display string, src []byte, _ LoadOptions) (*Input, error) {
	fset := source.NewFileSet()
	f, err := parser.ParseFile(fset, display, src, parser.ParseComments)
	if err != nil {
		return nil, err
	}
	prog, err := types.Check(fset, f, nil)
	if err != nil {
		return nil, err
	}
	return &Input{Name: name, Fset: fset, File: f, Prog: prog, Src: src}, nil
}

// loadC lowers a C program to BIR and loads that. A construct the
// lowering does not handle is a *cfront.UnsupportedError (inconclusive).
func loadC(name, display string, src []byte, opts LoadOptions) (*Input, error) {
	out, err := cfront.Translate(display, src, opts.C)
	if err != nil {
		return nil, err
	}
	in, err := loadBIR(name, display+".bir", out.BIR, opts)
	if err != nil {
		return nil, err
	}
	in.C = out
	return in, nil
}

// errorf is a plain error of a run (no position).
func errorf(format string, args ...any) error { return fmt.Errorf(format, args...) }
