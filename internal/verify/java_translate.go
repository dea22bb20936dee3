package verify

import (
	"birch/internal/frontend/java"
	"birch/internal/frontend/java/classfile"
)

// translateJava lowers the classes of a program (java.Translate), main
// its main class (a binary name) and srcDir where its sources are, and
// loads the model.
func translateJava(name, display string, classes []*classfile.Class, main, srcDir string, opts LoadOptions) (*Input, error) {
	out, err := java.Translate(classes, java.Config{
		Main: main, MaxObjects: opts.Java.MaxObjects, MaxArrayLength: opts.Java.MaxArrayLength,
		SourceDirs: []string{srcDir},
	})
	if err != nil {
		return nil, err
	}
	in, err := loadBIR(name, display+".bir", out.BIR, opts)
	if err != nil {
		return nil, err
	}
	in.Java = out
	return in, nil
}
