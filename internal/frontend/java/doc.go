// Package java is birch's Java front end: it lowers the class files of a
// Java program (read by the classfile package) to BIR text. Every
// transformation and action of that text is preceded by a
// `//line File.java:LINE:1` directive naming the Java line it comes from
// (docs/bir.md §2.1), so that errors, trails and witnesses found on the
// BIR model name the Java source. verify loads the text like any model;
// ISSUE23.md §3 is the contract of what a Java program becomes.
//
// The lowering keeps Java's meaning exactly or refuses: int, long,
// short, byte, char and boolean become int32, int64, int16, int8, uint16
// and jboolean (range 0..1); arithmetic wraps as the JVM computes it
// (arith.go); a construct the lowering does not handle (floating point, a
// call outside the program and birch's model of java.lang, lambdas, ...)
// is an *UnsupportedError naming each such construct with its Java
// position, and a check then says inconclusive (SV-COMP: unknown), never
// a guess.
//
// # API
//
//	out, err := java.Translate(classes, java.Config{Main: "pkg.Main"})
//	// out.BIR:      the model
//	// out.Messages: what each assert(false) of the lowering means in
//	//               Java terms (Describe): "assert failed: msg",
//	//               "uncaught java.lang.ArithmeticException: / by zero"
//	// out.Names:    the BIR names of functions, globals, records and
//	//               threads mapped to Java's, for trails
//
// # The lowering
//
// lower.go lowers the program: the main class's main(String[]) and,
// before it, the static initializers of the classes the program uses.
// The JVM runs an initializer lazily, at a class's first active use; the
// model runs the self-contained ones first (those that touch only their
// class's statics and what they allocate, which nobody can see run
// early), then the main class's superclasses' and its own (which the JVM
// too runs before main); any other initializer is unsupported (clinit.go).
// The main thread, main_, calls them and then main.
// main's String[] args is an empty array where main reads it (heap.go),
// as JPF gives one; a main that does not read it has no parameter.
//
// method.go lowers each method to one BIR function. The code is split
// into basic blocks (the targets of branches and switches and the
// instructions after them); each is lowered with a symbolic operand
// stack whose entries are BIR expressions over the method's parameters,
// locals and stack temporaries ($s<d>, the int entry at depth d, $s<d>_J
// a long one, $t<d>_<Type> a reference stored apart). A read of shared
// state (a static field, the heap) is stored in a temporary by a step of
// its own, so that stack expressions never read shared state; an entry
// that reads a variable about to be written is stored in its temporary
// first. At the end of a block every entry goes to its temporary, so
// every path into a block leaves the stack in the same variables; a
// reference entry where blocks meet is $s<d>_<Type>, typed by the join
// (least common superclass) of every reference that flows there
// (c ? new A() : new B() is the superclass's reference). Blocks are
// lowered in pc order, so every forward path into a block is known
// before it; a loop's back edge that would widen the type of a reference
// on the stack at the loop's head is unsupported.
//
// Locals keep their Java names and types from the LocalVariableTable:
// each entry is a variable of its own (javac reuses a slot for the
// variables of sibling scopes, of other names and types), found by the
// entry that covers a load (a store: the entry that starts after it).
// An access no entry covers (javac's hidden locals, code compiled
// without -g) is l<slot>, typed int32, int64 or by the join of the
// references stored. A boolean local is a jboolean. Parameters are named
// from the table too (p1, p2, ... without javac -g).
//
// emit.go lays the transformations out. A run of instructions that
// touches no shared state is one transformation; every access to shared
// state is a visible step of its own (a transformation holds at most
// one), so the interleavings are those of the JVM's sequentially
// consistent execution. A transformation that touches no shared state
// and goes forward in the code is invisible (docs/bir.md §12.3): the
// thread goes on without the others interleaving, as Java PathFinder
// runs a thread on until its next shared access; every loop has a
// backward step, which stays visible, so no invisible run goes round a
// loop. The locations where blocks start carry live sets: the
// parameters, the locals and the temporaries of the stack on entry.
//
// Nondeterminism (each choice a visible step of its own, so that a trail
// shows the value chosen): gov.nasa.jpf.vm.Verify.getInt(lo, hi) is
// externChoose(lo .. hi), getBoolean() externChoose(0, 1), random(n)
// externChoose(0 .. n); org.sosy_lab.sv_benchmarks.Verifier.nondetInt()
// is externChoose(int32) (2^32 values: only the abstraction modes check
// it), nondetLong, nondetShort, nondetByte, nondetChar and
// nondetBoolean likewise, and Verifier.assume(c) is assume(c != 0).
//
// Java's assert is enabled (java -ea): $assertionsDisabled reads as
// false and Class.desiredAssertionStatus() as true. A failed assert that
// nothing catches is assert(false), whose Message is "assert failed"
// (with ": msg" when the message is a string constant).
//
// System.out.println and print of ints, longs, booleans, chars, string
// constants and javac's string concatenation (invokedynamic
// makeConcatWithConstants) become BIR println (which always ends the
// line: print prints a line too). A boolean prints true or false (by a
// branch on its value); a char that is no constant prints its code.
// println never changes a verdict.
//
// The seams where the other files of the package hook in (objects and
// arrays, dispatch, java.lang, threads and monitors, exceptions) are the
// hooks of insn.go; ISSUE23.md's lane notes describe them.
//
// A lowered method, in BIR:
//
//	function Recursion_fact (n : int32) : int32
//	  r : int32;
//	  $s1 : int32;
//	  loc L15: live { n, r }
//	//line testdata/Recursion.java:20:1
//	    when true do invisible { $s1 := call Recursion_fact(int32(n - 1)); } goto L15_2;
//	  loc L15_2:
//	//line testdata/Recursion.java:20:1
//	    when true do invisible { r := int32(n * $s1); } goto L30;
//	  ...
//
// Stage: front end (Java class files -> BIR). It imports nothing of
// birch but source and classfile.
package java
