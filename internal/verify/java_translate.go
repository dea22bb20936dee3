package verify

import (
	"errors"
	"strings"

	"birch/internal/frontend/java"
	"birch/internal/frontend/java/classfile"
	"birch/internal/source"
)

// translateJava lowers the classes of a program (java.Translate), main
// its main class (a binary name) and srcDir where its sources are, and
// loads the model.
//
// The program compiled, so a model BIR's checker rejects is birch's
// limit, not the user's error: a *java.UnsupportedError (inconclusive),
// never bad input. The common case is a state beyond BIR's bound of 2^20
// slots, from --max-objects or --max-array-length; a position in the
// generated text, which has no file, names the program's input instead.
func translateJava(name, display string, classes []*classfile.Class, main, srcDir string, opts LoadOptions) (*Input, error) {
	out, err := java.Translate(classes, java.Config{
		Main: main, MaxObjects: opts.Java.MaxObjects, MaxArrayLength: opts.Java.MaxArrayLength,
		SourceDirs: []string{srcDir},
	})
	if err != nil {
		return nil, err
	}
	generated := display + ".bir"
	in, err := loadBIR(name, generated, out.BIR, opts)
	if err != nil {
		return nil, rejectedModel(err, generated, display)
	}
	in.Java = out
	return in, nil
}

// rejectedModel is the *java.UnsupportedError of the errors BIR's checker
// found in the model lowered from a Java program.
func rejectedModel(err error, generated, display string) error {
	var list source.ErrorList
	if !errors.As(err, &list) {
		list = source.ErrorList{{Pos: source.Position{Filename: display, Line: 1, Column: 1}, Msg: err.Error()}}
	}
	u := &java.UnsupportedError{}
	for _, e := range list {
		pos := e.Pos
		if pos.Filename == generated || pos.Filename == "" {
			pos = source.Position{Filename: display, Line: 1, Column: 1}
		}
		hint := " (a limit of birch's Java lowering)"
		if strings.Contains(e.Msg, "the bound of a state") {
			hint = " (a smaller --max-objects or --max-array-length keeps a state within it)"
		}
		u.List = append(u.List, &source.Error{Pos: pos,
			Msg: "the model lowered from the program is beyond what BIR allows: " + e.Msg + hint})
	}
	return u
}
