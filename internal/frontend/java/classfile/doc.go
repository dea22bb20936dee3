// Package classfile reads Java class files, written here from the JVM
// specification (Java SE 17, chapter 4); javap -v -p -c -l is its test
// oracle. It is the first stage of birch's Java front end:
//
//	Main.java --javac -g--> Main.class --classfile.Parse--> *Class --java.Translate--> BIR
//
// Parse decodes the constant pool (every tag of SE 17, modified UTF-8
// strings), the class's name, superclass and interfaces, its fields (with
// ConstantValue), its methods (with Exceptions) and their Code: the
// bytecode decoded into Insn values (wide forms, switch padding, branch
// targets made absolute), the exception table, LineNumberTable and
// LocalVariableTable. SourceFile and BootstrapMethods (the recipe of
// javac's string concatenation is a bootstrap argument) are decoded too;
// every other attribute is kept raw (Attribute). Parse checks what it decodes: every length
// against the bytes left (so malformed input never makes it allocate
// without bound), every constant-pool reference against the kind of entry
// it must name, every branch, handler and local-variable pc against
// the instruction boundaries (a line number's pc need only lie in the
// code, as the specification says), every field and method descriptor. A fault
// gives a *FormatError naming its byte offset in the file; Parse never
// panics.
//
// The resolution helpers (Class.Utf8At, ClassAt, MemberAt, StringAt, ...)
// return "" or false for a bad index, never panic. ParseFieldType and
// ParseMethodType parse descriptors into Type values, whose String is the
// Java source form ("int[]", "java.lang.String").
//
// An instruction prints as javap prints it, for example
//
//	invokevirtual #7 // Method java/io/PrintStream.println:(I)V
//
// is Insn{Op: Invokevirtual, Index: 7}; `iload_2` is Insn{Op: Iload_2,
// Index: 2}; `wide iinc 300, 1000` is Insn{Op: Iinc, Wide: true, Index:
// 300, Value: 1000}; a tableswitch carries its keys low..high and their
// absolute targets.
package classfile
