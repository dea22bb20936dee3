package java_test

import (
	"fmt"
	"math/rand"
	"sort"
	"strings"
)

// jdiffgen generates the random programs of TestJDiff: small,
// terminating, deterministic Java programs over int, long, short, byte,
// char and boolean (overflow, casts, shifts, division), fields, arrays,
// objects with overriding and interfaces, recursion and exceptions. Each
// is package jd<seed>, class Jd<seed>, whose static run(int...) the JVM
// runs on every combination of its inputs; main chooses them with
// Verify.getInt.

// A jvar is a variable in scope: its name and Java type.
type jvar struct {
	name, typ string
	fixed     bool // a loop counter: read, never written
}

type jgen struct {
	r      *rand.Rand
	b      strings.Builder
	indent int
	vars   []jvar
	nvar   int
	loop   int  // loops around the statement
	inRun  bool // in run (news and throws allowed, not in helpers)
	budget int  // statements still to generate
	line   int
	ret    string // the return type of the method being generated
	noDiv  bool   // no division (a static initializer must not throw)
}

// jprog is a generated program.
type jprog struct {
	seed   int64
	pkg    string // jd<seed>
	class  string // Jd<seed>
	body   string // the classes and run, without main and expect
	inputs [][2]int
}

// combos are the input combinations of p, each as "a,b".
func (p *jprog) combos() []string {
	out := []string{""}
	for _, in := range p.inputs {
		var next []string
		for _, pre := range out {
			for v := in[0]; v <= in[1]; v++ {
				s := fmt.Sprint(v)
				if pre != "" {
					s = pre + "," + s
				}
				next = append(next, s)
			}
		}
		out = next
	}
	return out
}

func (g *jgen) pick(xs ...string) string { return xs[g.r.Intn(len(xs))] }

func (g *jgen) emit(format string, args ...any) {
	g.b.WriteString(strings.Repeat("    ", g.indent))
	fmt.Fprintf(&g.b, format, args...)
	g.b.WriteString("\n")
}

func (g *jgen) fresh() string {
	g.nvar++
	return fmt.Sprintf("x%d", g.nvar)
}

// varsOf are the variables of type t in scope (writable only, if w).
func (g *jgen) varsOf(t string, w bool) []jvar {
	var out []jvar
	for _, v := range g.vars {
		if v.typ == t && (!w || !v.fixed) {
			out = append(out, v)
		}
	}
	return out
}

var intLits = []string{"0", "1", "-1", "2", "3", "7", "-8", "100", "31", "32", "33", "-33", "255", "65535", "Integer.MAX_VALUE", "Integer.MIN_VALUE", "0x7fff", "-129"}
var longLits = []string{"0L", "1L", "-1L", "5L", "Long.MAX_VALUE", "Long.MIN_VALUE", "4294967295L", "(1L << 40)", "-3000000000L", "63L"}

// intVar is a readable int-like variable or static field (widening).
func (g *jgen) intVar() string {
	var cs []string
	for _, t := range []string{"int", "short", "byte", "char"} {
		for _, v := range g.varsOf(t, false) {
			cs = append(cs, v.name)
		}
	}
	cs = append(cs, "s0", "s2", "s3", "s4")
	return cs[g.r.Intn(len(cs))]
}

func (g *jgen) expr(t string, d int) string {
	switch t {
	case "int":
		return g.intExpr(d)
	case "long":
		return g.longExpr(d)
	case "boolean":
		return g.boolExpr(d)
	case "short", "byte", "char":
		if d > 0 && g.r.Intn(3) > 0 {
			return "(" + t + ") (" + g.intExpr(d-1) + ")"
		}
		if vs := g.varsOf(t, false); len(vs) > 0 && g.r.Intn(2) == 0 {
			return vs[g.r.Intn(len(vs))].name
		}
		return "(" + t + ") " + g.pick("0", "1", "-1", "300", "65535", "40000", "-129", "127")
	}
	panic(t)
}

func (g *jgen) intExpr(d int) string {
	if d <= 0 {
		if g.r.Intn(3) == 0 {
			return g.pick(intLits...)
		}
		return g.intVar()
	}
	switch g.r.Intn(22) {
	case 0, 1, 2:
		op := g.pick("+", "-", "*", "&", "|", "^", "+", "-")
		return "(" + g.intExpr(d-1) + " " + op + " " + g.intExpr(d-1) + ")"
	case 3:
		// a divisor that may be zero or -1
		den := g.intExpr(d - 1)
		if g.r.Intn(3) > 0 {
			den = "(" + den + " | 1)"
		}
		return "(" + g.intExpr(d-1) + " " + g.pick("/", "%") + " " + den + ")"
	case 4:
		return "(" + g.intExpr(d-1) + " " + g.pick("<<", ">>", ">>>") + " " + g.pick(g.intExpr(d-1), g.pick("1", "31", "32", "-1", "33", "-31")) + ")"
	case 5:
		return g.pick("-", "~", "+") + "(" + g.intExpr(d-1) + ")"
	case 6:
		return "((int) " + g.longExpr(d-1) + ")"
	case 7:
		return "((" + g.pick("short", "byte", "char") + ") " + g.intExpr(d-1) + ")"
	case 8:
		return "(" + g.boolExpr(d-1) + " ? " + g.intExpr(d-1) + " : " + g.intExpr(d-1) + ")"
	case 9:
		if g.r.Intn(3) == 0 {
			return "Math.abs(" + g.intExpr(d-1) + ")"
		}
		return g.pick("Math.min(", "Math.max(") + g.intExpr(d-1) + ", " + g.intExpr(d-1) + ")"
	case 10:
		return "h0(" + g.intExpr(d-1) + ", " + g.longExpr(d-1) + ")"
	case 11:
		return "rec(" + g.intExpr(d-1) + " & 3, " + g.intExpr(d-1) + ")"
	case 12:
		if vs := g.varsOf("int", true); len(vs) > 0 {
			v := vs[g.r.Intn(len(vs))].name
			return "(" + g.pick(v+"++", v+"--", "++"+v, "--"+v, v+" += "+g.intExpr(d-1), v+" <<= 3") + ")"
		}
		return "(s0++)"
	case 13:
		if vs := g.varsOf("A", false); len(vs) > 0 {
			v := vs[g.r.Intn(len(vs))].name
			return g.pick(v+".v", v+".f("+g.intExpr(d-1)+")", v+".g()", "(int) "+v+".lv", "((I) "+v+").f("+g.intExpr(d-1)+")")
		}
		return "A.cnt"
	case 14:
		if vs := g.varsOf("I", false); len(vs) > 0 {
			return vs[g.r.Intn(len(vs))].name + ".f(" + g.intExpr(d-1) + ")"
		}
		return g.intVar()
	case 15:
		if vs := g.varsOf("int[]", false); len(vs) > 0 {
			v := vs[g.r.Intn(len(vs))].name
			return g.pick(v+"["+g.intExpr(d-1)+"]", v+".length", v+"[("+g.intExpr(d-1)+") & 1]")
		}
		return g.intVar()
	case 16:
		if vs := g.varsOf("Integer", false); len(vs) > 0 {
			v := vs[g.r.Intn(len(vs))].name
			return g.pick("((int) "+v+")", v+".intValue()", "("+v+" + "+g.intExpr(d-1)+")")
		}
		return g.intVar()
	case 17:
		if vs := g.varsOf("A[]", false); len(vs) > 0 {
			v := vs[g.r.Intn(len(vs))].name
			return g.pick(v+"["+g.intExpr(d-1)+" & 1].v", v+".length", v+"[0].f(1)")
		}
		return g.pick(intLits...)
	case 18:
		return "(" + g.pick("'a'", "'z'", "(char) 65535") + " " + g.pick("+", "-", "*") + " " + g.intExpr(d-1) + ")"
	default:
		if g.r.Intn(2) == 0 {
			return g.pick(intLits...)
		}
		return g.intVar()
	}
}

func (g *jgen) longExpr(d int) string {
	if d <= 0 {
		if vs := g.varsOf("long", false); len(vs) > 0 && g.r.Intn(2) == 0 {
			return vs[g.r.Intn(len(vs))].name
		}
		return g.pick(append(longLits, "s1")...)
	}
	switch g.r.Intn(12) {
	case 0, 1:
		return "(" + g.longExpr(d-1) + " " + g.pick("+", "-", "*", "&", "|", "^") + " " + g.longExpr(d-1) + ")"
	case 2:
		den := g.longExpr(d - 1)
		if g.r.Intn(3) > 0 {
			den = "(" + den + " | 1L)"
		}
		return "(" + g.longExpr(d-1) + " " + g.pick("/", "%") + " " + den + ")"
	case 3:
		return "(" + g.longExpr(d-1) + " " + g.pick("<<", ">>", ">>>") + " " + g.pick(g.intExpr(d-1), "63", "64", "-1", "65", "32") + ")"
	case 4:
		return "((long) " + g.intExpr(d-1) + ")"
	case 5:
		return g.intExpr(d - 1) // widening
	case 6:
		return g.pick("-", "~") + "(" + g.longExpr(d-1) + ")"
	case 7:
		return "(" + g.boolExpr(d-1) + " ? " + g.longExpr(d-1) + " : " + g.longExpr(d-1) + ")"
	case 8:
		if g.r.Intn(3) == 0 {
			return "Math.abs(" + g.longExpr(d-1) + ")"
		}
		return g.pick("Math.min(", "Math.max(") + g.longExpr(d-1) + ", " + g.longExpr(d-1) + ")"
	case 9:
		if vs := g.varsOf("long", true); len(vs) > 0 {
			v := vs[g.r.Intn(len(vs))].name
			return "(" + g.pick(v+"++", "--"+v, v+" *= "+g.longExpr(d-1), v+" >>>= "+g.intExpr(d-1)) + ")"
		}
		return "(s1 += " + g.intExpr(d-1) + ")"
	default:
		if vs := g.varsOf("long", false); len(vs) > 0 && g.r.Intn(2) == 0 {
			return vs[g.r.Intn(len(vs))].name
		}
		return g.pick(append(longLits, "s1")...)
	}
}

func (g *jgen) boolExpr(d int) string {
	if d <= 0 {
		if vs := g.varsOf("boolean", false); len(vs) > 0 && g.r.Intn(2) == 0 {
			return vs[g.r.Intn(len(vs))].name
		}
		return g.pick("true", "false", "s5")
	}
	switch g.r.Intn(9) {
	case 0, 1, 2:
		return "(" + g.intExpr(d-1) + " " + g.pick("<", "<=", ">", ">=", "==", "!=") + " " + g.intExpr(d-1) + ")"
	case 3:
		return "(" + g.longExpr(d-1) + " " + g.pick("<", ">", "==", "!=") + " " + g.longExpr(d-1) + ")"
	case 4:
		return "!" + g.boolExpr(d-1)
	case 5:
		return "(" + g.boolExpr(d-1) + " " + g.pick("&&", "||", "^", "&", "|", "==") + " " + g.boolExpr(d-1) + ")"
	case 6:
		if vs := g.varsOf("A", false); len(vs) > 0 {
			v := vs[g.r.Intn(len(vs))].name
			return "(" + g.pick(v+" instanceof B", v+" == null", v+" != null", v+" instanceof I") + ")"
		}
		return "s5"
	case 7:
		if vs := g.varsOf("Integer", false); len(vs) > 0 && g.loop == 0 {
			v := vs[g.r.Intn(len(vs))].name
			return v + ".equals(" + g.pick("Integer.valueOf("+g.intExpr(d-1)+")", v) + ")"
		}
		return "s5"
	default:
		return g.boolExpr(0)
	}
}

// assignable are the writable variables and fields with their types.
func (g *jgen) assignable() [][2]string {
	var out [][2]string
	for _, v := range g.vars {
		switch v.typ {
		case "int", "long", "short", "byte", "char", "boolean":
			if !v.fixed {
				out = append(out, [2]string{v.name, v.typ})
			}
		case "A":
			out = append(out, [2]string{v.name + ".v", "int"}, [2]string{v.name + ".lv", "long"})
		case "int[]":
			out = append(out, [2]string{v.name + "[" + g.intExpr(1) + "]", "int"})
		}
	}
	out = append(out, [2]string{"s0", "int"}, [2]string{"s1", "long"}, [2]string{"s2", "short"},
		[2]string{"s3", "byte"}, [2]string{"s4", "char"}, [2]string{"s5", "boolean"})
	return out
}

func (g *jgen) decl(t, init string) string {
	v := g.fresh()
	g.emit("%s %s = %s;", t, v, init)
	g.vars = append(g.vars, jvar{name: v, typ: t})
	return v
}

// block generates n statements in a scope of their own.
func (g *jgen) block(n, d int) {
	saved := len(g.vars)
	g.indent++
	for i := 0; i < n && g.budget > 0; i++ {
		g.stmt(d)
	}
	g.indent--
	g.vars = g.vars[:saved]
}

func (g *jgen) stmt(d int) {
	g.budget--
	k := g.r.Intn(29)
	if d <= 0 && k >= 12 {
		k = g.r.Intn(12)
	}
	switch k {
	case 0, 1:
		t := g.pick("int", "int", "long", "short", "byte", "char", "boolean")
		g.decl(t, g.expr(t, 2))
	case 2, 3, 4:
		as := g.assignable()
		a := as[g.r.Intn(len(as))]
		switch a[1] {
		case "boolean":
			g.emit("%s %s %s;", a[0], g.pick("=", "&=", "|=", "^="), g.boolExpr(2))
		case "int", "long":
			g.emit("%s %s %s;", a[0], g.pick("=", "+=", "-=", "*=", "&=", "|=", "^=", "<<=", ">>=", ">>>=", "/=", "%="), g.expr(a[1], 2))
		default:
			if g.r.Intn(2) == 0 {
				g.emit("%s = (%s) (%s);", a[0], a[1], g.intExpr(2))
			} else {
				g.emit("%s %s %s;", a[0], g.pick("+=", "-=", "*=", ">>=", ">>>=", "<<=", "|="), g.intExpr(2))
			}
		}
	case 5:
		as := g.assignable()
		a := as[g.r.Intn(len(as))]
		if a[1] != "boolean" {
			g.emit("%s;", g.pick(a[0]+"++", a[0]+"--", "++"+a[0], "--"+a[0]))
		} else {
			g.emit("r += %s;", g.intExpr(2))
		}
	case 6:
		g.emit("r %s %s;", g.pick("+=", "^=", "-=", "="), g.intExpr(3))
	case 8:
		g.println()
	case 7, 9:
		if g.inRun && g.loop == 0 {
			g.objStmt()
		} else {
			g.emit("r += %s;", g.intExpr(2))
		}
	case 10:
		if g.loop > 0 {
			g.emit("if (%s) %s;", g.boolExpr(2), g.pick("break", "continue"))
		} else if g.ret != "" {
			g.emit("if (%s) return %s;", g.boolExpr(2), g.expr(g.ret, 1))
		} else {
			g.emit("r += %s;", g.intExpr(2))
		}
	case 11:
		if g.inRun && g.r.Intn(2) == 0 {
			g.emit("if (%s) throw new %s;", g.boolExpr(2), g.pick("E1("+g.intExpr(1)+")", "E2()", "IllegalStateException()", "RuntimeException()", "ArithmeticException()"))
		} else if g.r.Intn(3) == 0 {
			g.emit("assert %s : \"a%d\";", g.boolExpr(2), g.r.Intn(100))
		} else {
			// an assert that may hold for every input
			g.emit("assert %s || %s;", g.boolExpr(1), g.boolExpr(1))
		}
	case 12, 13:
		g.emit("if (%s) {", g.boolExpr(3))
		g.block(1+g.r.Intn(3), d-1)
		if g.r.Intn(2) == 0 {
			g.emit("} else {")
			g.block(1+g.r.Intn(2), d-1)
		}
		g.emit("}")
	case 14, 15:
		i := g.fresh()
		saved := len(g.vars)
		kind := g.r.Intn(3)
		switch kind {
		case 0:
			g.emit("for (int %s = %s; %s < %d; %s++) {", i, g.pick("0", "-1", "1"), i, g.r.Intn(4), i)
		case 1:
			g.emit("for (int %s = %d; %s > 0; %s -= %d) {", i, g.r.Intn(5), i, i, 1+g.r.Intn(2))
		default:
			g.emit("int %s = %d;", i, g.r.Intn(4))
			g.emit("while (%s-- > 0) {", i)
		}
		g.vars = append(g.vars, jvar{name: i, typ: "int", fixed: true})
		g.loop++
		g.block(1+g.r.Intn(3), d-1)
		g.loop--
		g.emit("}")
		if kind != 2 {
			g.vars = g.vars[:saved]
		}
	case 16, 17:
		g.emit("switch (%s) {", g.pick("(int) ("+g.intExpr(2)+")", "(int) "+g.intVar(), "(int) "+g.longExpr(1), g.intVar()+" & 7"))
		var keys []int
		if g.r.Intn(2) == 0 {
			base := g.r.Intn(5) - 2
			for i := 0; i < 2+g.r.Intn(3); i++ {
				keys = append(keys, base+i)
			}
		} else {
			seen := map[int]bool{}
			for i := 0; i < 2+g.r.Intn(3); i++ {
				k := []int{-100, -1, 0, 1, 7, 100, 1000, 65535}[g.r.Intn(8)]
				if !seen[k] {
					seen[k] = true
					keys = append(keys, k)
				}
			}
			sort.Ints(keys)
		}
		g.indent++
		for i, k := range keys {
			g.emit("case %d:", k)
			g.block(1+g.r.Intn(2), 0)
			if g.r.Intn(3) > 0 || i == len(keys)-1 {
				g.emit("    break;")
			}
		}
		if g.r.Intn(2) == 0 {
			g.emit("default:")
			g.block(1, 0)
		}
		g.indent--
		g.emit("}")
	case 18, 19, 20:
		if !g.inRun {
			g.emit("r += %s;", g.intExpr(2))
			return
		}
		g.emit("try {")
		g.block(1+g.r.Intn(3), d-1)
		catches := g.r.Intn(3)
		if catches == 0 && g.r.Intn(2) == 0 {
			catches = 1
		}
		used := map[string]bool{}
		for i := 0; i < catches; i++ {
			c := g.pick("ArithmeticException", "RuntimeException", "E1", "E2", "NullPointerException", "ArrayIndexOutOfBoundsException", "IndexOutOfBoundsException",
				"ClassCastException", "Exception", "IllegalStateException", "NegativeArraySizeException", "AssertionError", "Error", "Throwable")
			// javac rejects a catch after one of its superclass
			caughtBefore := false
			for x := c; x != ""; x = jexcSuper[x] {
				caughtBefore = caughtBefore || used[x]
			}
			if caughtBefore {
				continue
			}
			used[c] = true
			e := g.fresh()
			g.emit("} catch (%s %s) {", c, e)
			if c == "E1" || c == "E2" {
				g.emit("    r += %s.code;", e)
			}
			g.emit("    System.out.println(\"caught %s\");", c)
			g.block(g.r.Intn(2), 0)
			if g.r.Intn(5) == 0 {
				g.emit("    throw %s;", e)
			}
		}
		if len(used) == 0 || g.r.Intn(3) == 0 {
			g.emit("} finally {")
			g.emit("    r += 1000;")
			g.block(g.r.Intn(2), 0)
		}
		g.emit("}")
	case 24:
		// enhanced for over an array, labeled break
		if vs := g.varsOf("int[]", false); len(vs) > 0 {
			e := g.fresh()
			g.emit("for (int %s : %s) {", e, vs[g.r.Intn(len(vs))].name)
			g.vars = append(g.vars, jvar{name: e, typ: "int", fixed: true})
			g.loop++
			g.block(1+g.r.Intn(2), d-1)
			g.loop--
			g.vars = g.vars[:len(g.vars)-1]
			g.emit("}")
			return
		}
		i, j := g.fresh(), g.fresh()
		g.emit("%s:", "out"+i)
		g.emit("for (int %s = 0; %s < 3; %s++) {", i, i, i)
		g.emit("    for (int %s = 0; %s < 3; %s++) {", j, j, j)
		g.emit("        if (%s) break out%s;", g.boolExpr(1), i)
		g.emit("        if (%s) continue out%s;", g.boolExpr(1), i)
		g.emit("        r += %s * 3 + %s;", i, j)
		g.emit("    }")
		g.emit("}")
	case 25:
		// do-while
		i := g.fresh()
		g.emit("int %s = %d;", i, g.r.Intn(3))
		g.emit("do {")
		g.vars = append(g.vars, jvar{name: i, typ: "int", fixed: true})
		g.loop++
		g.block(1+g.r.Intn(2), d-1)
		g.loop--
		g.emit("} while (--%s > 0);", i)
	case 26:
		// a switch expression
		g.emit("r += switch (%s) {", g.intVar()+" & 3")
		g.emit("    case 0 -> %s;", g.intExpr(1))
		g.emit("    case 1, 2 -> %s;", g.intExpr(1))
		g.emit("    default -> {")
		g.emit("        int %s = %s;", g.fresh(), g.intExpr(1))
		g.emit("        yield %s;", g.intExpr(1))
		g.emit("    }")
		g.emit("};")
	case 27:
		// a default method, an instanceof pattern, int shifted by a long
		if vs := g.varsOf("I", false); len(vs) > 0 && g.inRun {
			g.emit("r += %s.d(%s);", vs[g.r.Intn(len(vs))].name, g.intExpr(1))
		} else if vs := g.varsOf("A", false); len(vs) > 0 {
			b := g.fresh()
			g.emit("if (%s instanceof B %s) {", vs[g.r.Intn(len(vs))].name, b)
			g.emit("    r += %s.w + %s.d(%s);", b, b, g.intExpr(1))
			g.emit("}")
		} else {
			g.emit("r += %s %s %s;", g.intExpr(1), g.pick("<<", ">>", ">>>"), g.longExpr(1))
		}
	case 28:
		if g.inRun && g.loop == 0 {
			m := g.fresh()
			g.emit("int[][] %s = new int[%s][%s];", m, g.pick("2", "1", g.intVar()+" & 1"), g.pick("2", "3", "0"))
			g.emit("%s[%s][%s] = %s;", m, g.pick("0", "1"), g.pick("0", "1", "2"), g.intExpr(1))
			g.emit("r += %s[%s].length + %s[0][%s];", m, g.pick("0", "1"), m, g.pick("0", "1"))
			return
		}
		g.emit("r += %s;", g.intExpr(3))
	default:
		g.emit("r += %s;", g.intExpr(3))
	}
}

func (g *jgen) println() {
	var parts []string
	parts = append(parts, fmt.Sprintf("\"p%d \"", g.r.Intn(100)))
	for i := 0; i < 1+g.r.Intn(3); i++ {
		switch g.r.Intn(5) {
		case 0:
			parts = append(parts, "((long) "+g.longExpr(1)+")")
		case 1:
			parts = append(parts, g.boolExpr(1))
		case 2:
			parts = append(parts, "(int) "+g.expr(g.pick("char", "short", "byte"), 1))
		default:
			// a char that is no constant prints its code in birch
			// (docs/java.md): print ints only
			parts = append(parts, "((int) "+g.intExpr(2)+")")
		}
		if g.r.Intn(2) == 0 {
			parts = append(parts, "\" \"")
		}
	}
	if g.r.Intn(4) == 0 {
		g.emit("System.out.println(%s);", g.pick("(int) "+g.intExpr(2), g.boolExpr(1), "\"plain\""))
		return
	}
	g.emit("System.out.println(%s);", strings.Join(parts, " + "))
}

// objStmt creates or uses objects and arrays (never in a loop: the
// allocation sites' bound).
func (g *jgen) objStmt() {
	switch g.r.Intn(12) {
	case 0:
		g.decl("A", g.pick("new A("+g.intExpr(1)+")", "new B("+g.intExpr(1)+")", "null"))
	case 1:
		if vs := g.varsOf("A", false); len(vs) > 0 {
			v := vs[g.r.Intn(len(vs))].name
			g.decl("I", g.pick("new C()", v, g.boolExpr(1)+" ? new C() : "+v))
		} else {
			g.decl("A", g.boolExpr(1)+" ? new B(1) : null")
		}
	case 2:
		g.decl("int[]", "new int["+g.pick("2", "3", "0", g.intVar()+" & 3", g.intVar()+" + 1", g.intVar())+"]")
	case 3:
		g.decl("A[]", "new A["+g.pick("2", "3", "1")+"]")
	case 4:
		if vs := g.varsOf("A[]", false); len(vs) > 0 {
			v := vs[g.r.Intn(len(vs))].name
			g.emit("%s[%s] = %s;", v, g.pick("0", "1", g.intVar()), g.pick("new A("+g.intExpr(1)+")", "new B(2)", "null"))
		} else {
			g.decl("Integer", g.pick("Integer.valueOf("+g.intExpr(1)+")", "(int) ("+g.intExpr(1)+")"))
		}
	case 5:
		if vs := g.varsOf("A", false); len(vs) > 0 {
			v := vs[g.r.Intn(len(vs))].name
			g.emit("r += ((B) %s).%s;", v, g.pick("w", "g()", "f(3)"))
		} else {
			g.decl("Integer", g.pick("Integer.valueOf("+g.intExpr(1)+")", "(int) ("+g.intExpr(1)+")"))
		}
	case 6:
		g.decl("Integer", g.pick("Integer.valueOf("+g.intExpr(1)+")", "(int) ("+g.intExpr(1)+")", "null"))
	case 7:
		if vs := g.varsOf("int[]", false); len(vs) > 0 {
			v := vs[g.r.Intn(len(vs))].name
			g.emit("%s[%s] %s %s;", v, g.intExpr(1), g.pick("=", "+=", "^="), g.intExpr(1))
		} else {
			g.decl("A", "new A("+g.intExpr(1)+")")
		}
	case 8:
		t := g.pick("long", "char", "byte", "boolean", "short")
		v := g.decl(t+"[]", "new "+t+"["+g.pick("2", "3", g.intVar()+" & 3")+"]")
		i := g.pick("0", "1", g.intVar())
		switch t {
		case "boolean":
			g.emit("%s[%s] ^= %s;", v, i, g.boolExpr(1))
			g.emit("r += %s[%s] ? 1 : 2;", v, g.pick("0", "1", g.intVar()))
		case "long":
			g.emit("%s[%s] += %s;", v, i, g.longExpr(1))
			g.emit("r += (int) (%s[%s] >>> %s);", v, g.pick("0", "1", g.intVar()), g.pick("3", "40", g.intVar()))
		default:
			g.emit("%s[%s] %s %s;", v, i, g.pick("+=", "-=", "=", "|="), "("+t+") "+g.intExpr(1))
			g.emit("%s[%s]++;", v, i)
			g.emit("r += %s[%s] + %s.length;", v, g.pick("0", "1", g.intVar()), v)
		}
	case 9:
		g.emit("r += t0(%s, %s);", g.intExpr(1), g.intExpr(1))
	case 10:
		if vs := g.varsOf("A", false); len(vs) > 0 {
			v := vs[g.r.Intn(len(vs))].name
			g.emit("r += %s.m(%s);", v, g.intExpr(1))
		} else {
			g.emit("r += A.sm(%s);", g.intExpr(1))
		}
	default:
		g.emit("r += new B(%s).f(%s);", g.intExpr(1), g.intExpr(1))
	}
}

// genProgram generates the program of seed.
func genProgram(seed int64) *jprog {
	g := &jgen{r: rand.New(rand.NewSource(seed))}
	p := &jprog{seed: seed, pkg: fmt.Sprintf("jd%d", seed), class: fmt.Sprintf("Jd%d", seed)}
	n := 1 + g.r.Intn(3)
	ranges := [][2]int{{0, 1}, {-1, 1}, {-2, 0}, {1, 3}, {2147483646, 2147483647}, {-2147483648, -2147483647}, {30, 32}, {-1, 0}, {127, 128}}
	for i := 0; i < n; i++ {
		p.inputs = append(p.inputs, ranges[g.r.Intn(len(ranges))])
	}
	g.emit("package %s;", p.pkg)
	g.emit("")
	g.emit("import gov.nasa.jpf.vm.Verify;")
	g.emit("")
	g.emit("// generated by jdiffgen_test.go (seed %d): see TestJDiff", seed)
	g.emit("public class %s {", p.class)
	g.indent++
	g.emit("static int s0 = %s;", g.pick(intLits...))
	g.emit("static long s1 = %s;", g.pick(longLits...))
	g.emit("static short s2 = (short) %d;", g.r.Intn(70000)-35000)
	g.emit("static byte s3 = (byte) %d;", g.r.Intn(300)-150)
	g.emit("static char s4 = '%c';", 'a'+g.r.Intn(26))
	g.emit("static boolean s5 = %s;", g.pick("true", "false"))
	g.emit("static {")
	g.indent++
	g.budget, g.noDiv = 2, true
	for g.budget > 0 {
		g.stmtNoCall(1)
	}
	g.indent--
	g.noDiv = false
	if g.r.Intn(2) == 0 {
		g.emit("    System.out.println(\"init \" + s0);")
	}
	g.emit("}")
	g.emit("")
	g.emit("interface I {")
	g.emit("    int f(int x);")
	g.emit("    default int d(int x) {")
	g.emit("        return f(x + 1) %s;", g.pick("+ 1", "* 2", "^ x"))
	g.emit("    }")
	g.emit("}")
	g.emit("")
	g.emit("static class E1 extends RuntimeException {")
	g.emit("    int code;")
	g.emit("    E1(int code) {")
	g.emit("        this.code = code;")
	g.emit("    }")
	g.emit("}")
	g.emit("")
	g.emit("static class E2 extends E1 {")
	g.emit("    E2() {")
	g.emit("        super(%d);", g.r.Intn(10))
	g.emit("    }")
	g.emit("}")
	g.emit("")
	// A, B, C over their fields only
	g.vars = []jvar{{name: "v", typ: "int"}, {name: "lv", typ: "long"}, {name: "x", typ: "int"}}
	g.emit("static class A implements I {")
	g.emit("    static int cnt = %d;", g.r.Intn(5))
	g.emit("    int v;")
	g.emit("    long lv = %s;", g.pick(longLits...))
	g.emit("    A(int x) {")
	g.emit("        v = %s;", g.intExpr(2))
	g.emit("        cnt++;")
	g.emit("        s0 += %s;", g.pick("1", "x", "v"))
	if g.r.Intn(2) == 0 {
		// a virtual call in the constructor: B's g sees w before B's
		// field initializer
		g.emit("        v += g();")
	}
	g.emit("    }")
	if g.r.Intn(2) == 0 {
		g.emit("    static {")
		g.emit("        cnt = cnt * %d + %d;", 2+g.r.Intn(3), g.r.Intn(5))
		g.emit("    }")
	}
	g.emit("    public int f(int x) {")
	g.emit("        return %s;", g.intExpr(2))
	g.emit("    }")
	g.emit("    int m(int x) {")
	g.emit("        if (%s) throw new E1(x);", g.boolExpr(2))
	g.emit("        return f(x) / (%s);", g.pick("x", "v", "x | 1", "cnt"))
	g.emit("    }")
	g.emit("    static int sm(int x) {")
	g.emit("        cnt += x;")
	g.emit("        return cnt %% %s;", g.pick("x", "3", "(x - 1)"))
	g.emit("    }")
	g.vars = g.vars[:2]
	g.emit("    int g() {")
	g.emit("        return %s;", g.intExpr(2))
	g.emit("    }")
	g.emit("}")
	g.emit("")
	g.vars = []jvar{{name: "v", typ: "int"}, {name: "lv", typ: "long"}, {name: "w", typ: "int"}, {name: "x", typ: "int"}}
	g.emit("static class B extends A {")
	g.emit("    int w = %s;", g.pick(intLits...))
	g.emit("    B(int x) {")
	g.vars = []jvar{{name: "x", typ: "int"}}
	g.emit("        super(%s);", g.intExpr(1))
	g.vars = []jvar{{name: "v", typ: "int"}, {name: "lv", typ: "long"}, {name: "w", typ: "int"}, {name: "x", typ: "int"}}
	g.emit("        w += %s;", g.intExpr(1))
	g.emit("    }")
	g.emit("    @Override")
	g.emit("    public int f(int x) {")
	g.emit("        return %s;", g.pick("super.f(x) + w", "super.f(x ^ w) - v", g.intExpr(2), "w * x + super.g()"))
	g.emit("    }")
	g.vars = g.vars[:3]
	if g.r.Intn(2) == 0 {
		g.emit("    @Override")
		g.emit("    int g() {")
		g.emit("        return %s;", g.pick("super.g() + 1", g.intExpr(2), "w + 1", "super.g() * w"))
		g.emit("    }")
	}
	g.emit("}")
	g.emit("")
	g.vars = []jvar{{name: "x", typ: "int"}}
	g.emit("static class C implements I {")
	g.emit("    public int f(int x) {")
	g.emit("        return %s;", g.intExpr(2))
	g.emit("    }")
	g.emit("}")
	g.emit("")
	// helpers: h0 (straight code), rec (bounded recursion)
	g.vars = []jvar{{name: "p", typ: "int"}, {name: "q", typ: "long"}, {name: "r", typ: "int"}}
	g.emit("static int h0(int p, long q) {")
	g.indent++
	g.emit("int r = %s;", g.pick("p", "(int) q", "0"))
	g.budget, g.ret = 3, "int"
	for g.budget > 0 {
		g.stmtNoCall(1)
	}
	g.emit("return r;")
	g.indent--
	g.emit("}")
	g.emit("")
	g.emit("static int t0(int p, int q) {")
	g.emit("    int r = -1;")
	g.emit("    try {")
	g.emit("        if (p %s q) throw new %s;", g.pick("<", ">", "==", "!="), g.pick("E1(p)", "E2()", "IllegalStateException()", "RuntimeException()"))
	g.emit("        r = p %s q;", g.pick("/", "%", "+", "*"))
	g.emit("    } %s {", g.pick("finally", "catch (E2 e)", "catch (ArithmeticException e)"))
	g.emit("        s0 += %s;", g.pick("1", "p", "q", "r"))
	g.emit("    }")
	g.emit("    %s", g.pick("return r;", "return q + r;", "if (r < 0) throw new E1(q);\n        return r;"))
	g.emit("}")
	g.emit("")
	g.vars = []jvar{{name: "n", typ: "int", fixed: true}, {name: "k", typ: "int"}}
	g.emit("static int rec(int n, int k) {")
	g.emit("    if (n <= 0) {")
	g.emit("        return %s;", g.pick("k", "k * 3", "1", "k ^ 5"))
	g.emit("    }")
	g.emit("    return %s;", g.pick("k + rec(n - 1, k * 2)", "rec(n - 1, k) * 2 + n", "rec(n - 1, k + n) - k", "n * rec(n - 1, k - 1)"))
	g.emit("}")
	g.emit("")
	var params []string
	g.vars = nil
	for i := range p.inputs {
		name := string(rune('a' + i))
		params = append(params, "int "+name)
		g.vars = append(g.vars, jvar{name: name, typ: "int"})
	}
	g.emit("static int run(%s) {", strings.Join(params, ", "))
	g.indent++
	g.emit("int r = 0;")
	g.vars = append(g.vars, jvar{name: "r", typ: "int", fixed: true})
	g.budget, g.ret, g.inRun = 10+g.r.Intn(14), "int", true
	for g.budget > 0 {
		g.stmt(2)
	}
	g.emit("System.out.println(\"end \" + s0 + \" \" + s1 + \" \" + s2 + \" \" + s3 + \" \" + (int) s4 + \" \" + s5 + \" \" + A.cnt);")
	g.emit("return r;")
	g.indent--
	g.emit("}")
	p.body = g.b.String()
	return p
}

// stmtNoCall is a statement of h0, which calls no method (no recursion
// through h0) and creates nothing.
func (g *jgen) stmtNoCall(d int) {
	g.budget--
	as := g.assignable()
	a := as[g.r.Intn(len(as))]
	e := g.expr(a[1], 2)
	for strings.Contains(e, "h0(") || strings.Contains(e, "rec(") || strings.Contains(e, ".f(") || strings.Contains(e, ".g()") ||
		g.noDiv && (strings.Contains(e, "/") || strings.Contains(e, "%") || strings.Contains(e, "A.")) {
		e = g.expr(a[1], 1)
	}
	switch a[1] {
	case "short", "byte", "char":
		g.emit("%s += %s;", a[0], e)
	case "boolean":
		g.emit("%s ^= %s;", a[0], e)
	default:
		g.emit("%s %s %s;", a[0], g.pick("=", "+=", "*=", "-="), e)
	}
}

// source is p's Java source: its body, then main (pass, which asserts
// the JVM's results want of every input) and Wrong's main (which runs
// only the inputs ok and expects wrong for the input bad), both
// choosing the inputs with Verify.getInt. want nil: no expectations (the
// JVM's run does not call main).
func (p *jprog) source(want map[string]string, bad string) string {
	var b strings.Builder
	b.WriteString(p.body)
	var names, choose []string
	for i, in := range p.inputs {
		n := string(rune('a' + i))
		names = append(names, n)
		choose = append(choose, fmt.Sprintf("        int %s = Verify.getInt(%d, %d);\n", n, in[0], in[1]))
	}
	args := strings.Join(names, ", ")
	params := "int " + strings.Join(names, ", int ")
	fmt.Fprintf(&b, "\n    public static void main(String[] args) {\n%s", strings.Join(choose, ""))
	fmt.Fprintf(&b, "        int r = run(%s);\n", args)
	fmt.Fprintf(&b, "        assert r == expect(%s, false) : \"result\";\n    }\n", args)
	fmt.Fprintf(&b, "\n    // the JVM's results; wrong: one of them off by one (%s)\n", bad)
	fmt.Fprintf(&b, "    static int expect(%s, boolean wrong) {\n", params)
	for _, c := range p.combos() {
		r, ok := want[c]
		if !ok {
			continue
		}
		if c == bad {
			r = fmt.Sprintf("wrong ? %s + 1 : %s", r, r)
		}
		fmt.Fprintf(&b, "        if (%s) return %s;\n", p.cond(c), r)
	}
	b.WriteString("        return 0;\n    }\n\n")
	fmt.Fprintf(&b, "    // the inputs for which run ends normally on the JVM\n    static boolean ok(%s) {\n", params)
	for _, c := range p.combos() {
		if _, ok := want[c]; ok {
			fmt.Fprintf(&b, "        if (%s) return true;\n", p.cond(c))
		}
	}
	b.WriteString("        return false;\n    }\n}\n\n")
	fmt.Fprintf(&b, "class Wrong {\n    public static void main(String[] args) {\n%s", strings.Join(choose, ""))
	fmt.Fprintf(&b, "        if (%s.ok(%s)) {\n            int r = %s.run(%s);\n", p.class, args, p.class, args)
	fmt.Fprintf(&b, "            assert r == %s.expect(%s, true) : \"result\";\n        }\n    }\n}\n", p.class, args)
	return b.String()
}

// cond is the Java condition that the inputs are those of the combination c.
func (p *jprog) cond(c string) string {
	var cs []string
	for i, v := range strings.Split(c, ",") {
		cs = append(cs, fmt.Sprintf("%c == %s", 'a'+i, v))
	}
	return strings.Join(cs, " && ")
}

// jexcSuper are the superclasses of the exceptions the programs catch.
var jexcSuper = map[string]string{
	"ArithmeticException": "RuntimeException", "E1": "RuntimeException", "E2": "E1", "NullPointerException": "RuntimeException",
	"ArrayIndexOutOfBoundsException": "IndexOutOfBoundsException", "IndexOutOfBoundsException": "RuntimeException",
	"ClassCastException": "RuntimeException", "IllegalStateException": "RuntimeException", "NegativeArraySizeException": "RuntimeException",
	"RuntimeException": "Exception", "Exception": "Throwable", "AssertionError": "Error", "Error": "Throwable",
}
