package java

import (
	"fmt"
	"strings"

	"birch/internal/frontend/java/classfile"
	"birch/internal/source"
)

// Config is how a Java program is lowered. Its zero value works.
type Config struct {
	// Main is the main class, a binary name ("pkg.Main"); "" is the one
	// class with public static void main(String[]).
	Main string
	// MaxObjects bounds the objects of each allocation site (the BIR
	// collection's bound); 0 is DefaultMaxObjects.
	MaxObjects int
	// MaxArrayLength is the longest array (the BIR array type's length);
	// 0 is DefaultMaxArrayLength.
	MaxArrayLength int
	// SourceDirs are where the File.java named by a class's SourceFile
	// attribute is looked up (in the package's directory under each, then
	// in each directly) for the //line directives of the model.
	SourceDirs []string
}

// The defaults of Config's bounds.
const (
	DefaultMaxObjects     = 4
	DefaultMaxArrayLength = 8
)

// Output is a lowered Java program.
type Output struct {
	// BIR is the model: BIR text whose //line directives name
	// File.java:LINE:1 for every transformation and action.
	BIR []byte
	// Messages say in Java terms what the failure of each of the
	// lowering's assertions means (Describe).
	Messages []Message
	// Names map the model's names back to Java's, for trails.
	Names Names
}

// A Message says in Java terms what the failure of one of the lowering's
// assertions means: "uncaught java.lang.AssertionError: assert failed",
// "uncaught java.lang.ArithmeticException: / by zero", ...
type Message struct {
	Pos  source.Position // the Java position of the assertion (File.java:LINE:1)
	Cond string          // its condition, as the lowering wrote it
	Text string          // what its failure means, in Java terms
}

// Names map the BIR names of a lowered program to the Java names they
// stand for.
type Names struct {
	Types     map[string]string // BIR record -> Java class binary name ("Account" -> "bank.Account")
	Functions map[string]string // BIR function -> "bank.Account.deposit(int)"
	Globals   map[string]string // BIR global -> "bank.Account.count" (static fields)
	Threads   map[string]string // BIR thread -> what it runs
}

// Describe is the Java message of a violation at pos (file:line:col)
// whose model message is msg ("assertion violated: COND", or a runtime
// error's), or "" when the lowering recorded none. Conditions are compared without spaces and
// parentheses, which the model's printer may set otherwise.
func (o *Output) Describe(pos, msg string) string {
	if o == nil {
		return ""
	}
	cond, ok := strings.CutPrefix(msg, "assertion violated: ")
	if !ok {
		if hooks.runtimeError != nil {
			return hooks.runtimeError(msg)
		}
		return ""
	}
	cond = condKey(cond)
	for _, m := range o.Messages {
		if m.Pos.String() == pos && condKey(m.Cond) == cond {
			return m.Text
		}
	}
	return ""
}

func condKey(s string) string {
	return strings.Map(func(r rune) rune {
		if r == ' ' || r == '(' || r == ')' {
			return -1
		}
		return r
	}, s)
}

// UnsupportedError lists the constructs of a program that the lowering
// does not handle, each with its Java position. A check of such a program
// is inconclusive (SV-COMP: unknown).
type UnsupportedError struct {
	List source.ErrorList
}

func (e *UnsupportedError) Error() string {
	if len(e.List) == 0 {
		return "unsupported Java construct"
	}
	return e.List.Error()
}

// Translate lowers the classes of a Java program to BIR. A program
// without a main method (or with several, and no Config.Main) is a
// source.ErrorList; a construct the lowering does not handle is an
// *UnsupportedError naming each such construct with its Java position.
func Translate(classes []*classfile.Class, cfg Config) (out *Output, err error) {
	defer func() {
		if r := recover(); r != nil {
			out = nil
			err = &UnsupportedError{List: source.ErrorList{{
				Pos: source.Position{Filename: firstSource(classes, cfg), Line: 1, Column: 1},
				Msg: fmt.Sprintf("%s: %v", internalErrorMsg, r)}}}
		}
	}()
	return lower(classes, cfg)
}

// internalErrorMsg starts the message of a panic of the lowering.
const internalErrorMsg = "internal error of the Java lowering"

// firstSource names the source of the program's first class, for errors
// that have no better position.
func firstSource(classes []*classfile.Class, cfg Config) string {
	for _, c := range classes {
		if c != nil {
			return sourcePath(c, cfg.SourceDirs)
		}
	}
	return "Main.java"
}
