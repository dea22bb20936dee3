package java

// birch's model of java.lang: the classes a program may use without
// their class files, with the fields their BIR records hold and the
// methods a call may resolve to. A call of a method of the library that is
// not listed here is reported unsupported with its position.

import (
	"strings"

	"birch/internal/frontend/java/classfile"
)

// A modelClass is a class of the java.lang model.
type modelClass struct {
	name    string // internal name
	super   string // "" is java.lang.Object (none for Object itself)
	ifaces  []string
	access  uint16 // AccInterface, AccAbstract, AccFinal (AccPublic is implied)
	fields  []modelField
	methods []modelMethod
}

// A modelField is a field of a model class's record: a Java field (desc
// set) or one of the model's own (bir, its BIR type).
type modelField struct {
	name, desc, bir string
	access          uint16
}

// A modelMethod is a method of a model class.
type modelMethod struct {
	sig    string // name and descriptor, "equals(Ljava/lang/Object;)Z"
	access uint16 // AccStatic, AccAbstract (AccPublic is implied)
	// instantiates lists the classes whose objects the method creates.
	instantiates []string
	// calls lists the methods, "pkg/C.name(desc)", the model invokes
	// virtually on objects of the program (Thread.start runs run()).
	calls []string
}

// throwableMethods are the constructors and methods of every exception
// class of the model.
var throwableCtors = []modelMethod{{sig: "<init>()V"}, {sig: "<init>(Ljava/lang/String;)V"}}

// exception is a model exception class.
func exception(name, super string) modelClass {
	return modelClass{name: "java/lang/" + name, super: "java/lang/" + super, methods: throwableCtors}
}

// javaLang is the model, superclasses before subclasses.
var javaLang = []modelClass{
	{name: objectClass, methods: []modelMethod{
		{sig: "<init>()V"},
		{sig: "equals(Ljava/lang/Object;)Z"},
		{sig: "hashCode()I"},
		{sig: "wait()V"}, {sig: "wait(J)V"}, {sig: "notify()V"}, {sig: "notifyAll()V"},
	}},
	{name: "java/lang/Runnable", access: classfile.AccInterface | classfile.AccAbstract,
		methods: []modelMethod{{sig: "run()V", access: classfile.AccAbstract}}},
	{name: "java/lang/Thread", ifaces: []string{"java/lang/Runnable"},
		fields: []modelField{{name: "$tid", bir: "tid"}, {name: "target", desc: "Ljava/lang/Runnable;"}},
		methods: []modelMethod{
			{sig: "<init>()V"}, {sig: "<init>(Ljava/lang/Runnable;)V"},
			{sig: "start()V", calls: []string{"java/lang/Thread.run()V", "java/lang/Runnable.run()V"}},
			{sig: "run()V", calls: []string{"java/lang/Runnable.run()V"}},
			{sig: "join()V"}, {sig: "isAlive()Z"},
		}},
	{name: "java/lang/Number", access: classfile.AccAbstract, methods: []modelMethod{
		{sig: "<init>()V"}, {sig: "intValue()I", access: classfile.AccAbstract},
	}},
	{name: "java/lang/Integer", super: "java/lang/Number", access: classfile.AccFinal,
		fields: []modelField{{name: "value", desc: "I", access: classfile.AccFinal}},
		methods: []modelMethod{
			{sig: "<init>(I)V"},
			{sig: "valueOf(I)Ljava/lang/Integer;", access: classfile.AccStatic, instantiates: []string{"java/lang/Integer"}},
			{sig: "intValue()I"},
		}},
	{name: "java/lang/Math", access: classfile.AccFinal, methods: []modelMethod{
		{sig: "abs(I)I", access: classfile.AccStatic}, {sig: "abs(J)J", access: classfile.AccStatic},
		{sig: "min(II)I", access: classfile.AccStatic}, {sig: "min(JJ)J", access: classfile.AccStatic},
		{sig: "max(II)I", access: classfile.AccStatic}, {sig: "max(JJ)J", access: classfile.AccStatic},
	}},
	{name: "java/lang/Throwable", methods: append([]modelMethod{{sig: "getMessage()Ljava/lang/String;"}}, throwableCtors...)},
	exception("Exception", "Throwable"),
	exception("Error", "Throwable"),
	exception("RuntimeException", "Exception"),
	exception("InterruptedException", "Exception"),
	{name: "java/lang/AssertionError", super: "java/lang/Error", methods: []modelMethod{
		{sig: "<init>()V"}, {sig: "<init>(Ljava/lang/Object;)V"}, {sig: "<init>(Z)V"}, {sig: "<init>(C)V"},
		{sig: "<init>(I)V"}, {sig: "<init>(J)V"}, {sig: "<init>(Ljava/lang/String;Ljava/lang/Throwable;)V"},
	}},
	exception("ArithmeticException", "RuntimeException"),
	exception("ArrayStoreException", "RuntimeException"),
	exception("ClassCastException", "RuntimeException"),
	exception("IllegalArgumentException", "RuntimeException"),
	exception("IllegalMonitorStateException", "RuntimeException"),
	exception("IllegalStateException", "RuntimeException"),
	exception("IndexOutOfBoundsException", "RuntimeException"),
	exception("ArrayIndexOutOfBoundsException", "IndexOutOfBoundsException"),
	exception("NegativeArraySizeException", "RuntimeException"),
	exception("NullPointerException", "RuntimeException"),
	exception("UnsupportedOperationException", "RuntimeException"),
}

// modelMethodOf is the model's entry of a model method (nil or empty for
// a program method).
func modelMethodOf(m *jmethod) []modelMethod {
	for _, mc := range javaLang {
		if mc.name != m.class.name {
			continue
		}
		for _, mm := range mc.methods {
			if name, desc := splitSig(mm.sig); name == m.name && desc == m.desc {
				return []modelMethod{mm}
			}
		}
	}
	return nil
}

// isModelClass reports whether an internal name is a class of the model.
func isModelClass(name string) bool {
	if !strings.HasPrefix(name, "java/lang/") {
		return false
	}
	for _, mc := range javaLang {
		if mc.name == name {
			return true
		}
	}
	return false
}
