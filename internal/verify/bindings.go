package verify

import (
	"fmt"
	"os"
	"path/filepath"

	"birch/internal/abstraction/data"
	"birch/internal/abstraction/data/infer"
	"birch/internal/source"
)

// The bindings of a data abstraction (docs/abstraction.md, "Bindings"):
// --abstract NAME=ABSTRACTION, a bindings file, the BASL files of --use and
// the coercions of --coerce. birch abstract and birch abstraction infer
// read them as a check with abstraction does.

// ReadFunc reads a named file ("-": standard input, where the caller has
// one).
type ReadFunc func(name string) ([]byte, error)

// WarnFunc receives a positioned warning.
type WarnFunc func(pos, msg string)

// Bindings are the bindings of a data abstraction, read and resolved: the
// library with the abstractions of the BASL files added, the bindings and
// the declared coercions.
type Bindings struct {
	Library   *data.Library
	Bindings  []infer.Binding
	Coercions []infer.DeclaredCoercion
}

// ReadBindings reads the bindings of da (Bindings, File, Use, Coerce),
// with the abstractions of the --use files and of the bindings file's use
// lines added to lib (a new library of cfg when nil), and resolves the
// coercions in it. read reads the files (nil: os.ReadFile); warn, when not
// nil, receives the warnings of the BASL files. An error is bad input: a
// *UsageError, a positioned source.ErrorList, or an error to print as it
// is.
func ReadBindings(da *DataAbstraction, lib *data.Library, cfg data.Config, read ReadFunc, warn WarnFunc) (*Bindings, error) {
	if lib == nil {
		lib = &data.Library{Config: cfg}
	}
	for _, file := range da.Use {
		as, err := LoadBASL(file, cfg, read, warn)
		if err != nil {
			return nil, err
		}
		if err := lib.Add(as...); err != nil {
			return nil, &UsageError{err.Error()}
		}
	}
	b := &Bindings{Library: lib}
	for _, arg := range da.Bindings {
		bd, err := infer.ParseBinding(arg)
		if err != nil {
			return nil, &UsageError{err.Error()}
		}
		b.Bindings = append(b.Bindings, bd)
	}
	var decls []infer.CoercionDecl
	for _, arg := range da.Coerce {
		d, err := infer.ParseCoercion(arg)
		if err != nil {
			return nil, &UsageError{err.Error()}
		}
		decls = append(decls, d)
	}
	if da.File != "" {
		src, err := readWith(read, da.File)
		if err != nil {
			return nil, err
		}
		f, err := infer.ParseBindings(da.File, src)
		if err != nil {
			return nil, err
		}
		for _, u := range f.Uses {
			path := u.Path
			if !filepath.IsAbs(path) {
				path = filepath.Join(filepath.Dir(da.File), path)
			}
			as, err := LoadBASL(path, cfg, read, warn)
			if err != nil {
				return nil, err
			}
			if err := lib.Add(as...); err != nil {
				return nil, fmt.Errorf("%s: %v", u.Pos, err)
			}
		}
		b.Bindings = append(b.Bindings, f.Bindings...)
		decls = append(decls, f.Coercions...)
	}
	if len(b.Bindings) == 0 {
		return nil, usagef("no bindings (use --abstract NAME=ABSTRACTION or --abstractions FILE)")
	}
	cs, err := infer.ResolveCoercions(lib, decls)
	if err != nil {
		return nil, plainError(err)
	}
	b.Coercions = cs
	return b, nil
}

// LoadBASL reads and compiles a BASL file; warn, when not nil, receives
// its warnings.
func LoadBASL(name string, cfg data.Config, read ReadFunc, warn WarnFunc) ([]*data.Abstraction, error) {
	src, err := readWith(read, name)
	if err != nil {
		return nil, err
	}
	as, err := data.ParseFile(source.NewFileSet(), name, src, cfg)
	if err != nil {
		return nil, err
	}
	if warn != nil {
		for _, a := range as {
			for _, w := range a.Warnings {
				warn(w.Pos.String(), w.Msg)
			}
		}
	}
	return as, nil
}

// readWith reads a file with read (nil: os.ReadFile); its error is
// printed as it is.
func readWith(read ReadFunc, name string) ([]byte, error) {
	if read == nil {
		read = os.ReadFile
	}
	src, err := read(name)
	if err != nil {
		return nil, fmt.Errorf("birch: %v", err)
	}
	return src, nil
}

// plainError is err as an error printed as it is (a list of errors that
// is not positioned as source.Print expects, say).
func plainError(err error) error { return fmt.Errorf("%v", err) }
