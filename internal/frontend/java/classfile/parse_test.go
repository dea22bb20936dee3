package classfile

import (
	"fmt"
	"os"
	"testing"
)

func TestParseBasic(t *testing.T) {
	c := load(t, "Basic")
	if c.Name != "Basic" || c.Super != "java/lang/Object" || c.SourceFile != "Basic.java" {
		t.Errorf("class %q super %q source %q", c.Name, c.Super, c.SourceFile)
	}
	if c.Major < 61 {
		t.Errorf("major version %d, want >= 61 (Java 17)", c.Major)
	}
	var fields []string
	for _, f := range c.Fields {
		fields = append(fields, f.Name+" "+f.Descriptor)
	}
	if got, want := fmt.Sprint(fields), "[count I total J name Ljava/lang/String;]"; got != want {
		t.Errorf("fields %s, want %s", got, want)
	}
	if c.Fields[0].Access != AccStatic {
		t.Errorf("count's flags %#x", c.Fields[0].Access)
	}

	sum := method(t, c, "sum", "(I)I")
	code := sum.Code
	if code == nil || code.MaxLocals != 4 {
		t.Fatalf("sum's code %+v", code)
	}
	// int s = 0; for (int i = 0; i < n; i++) s += i; return s;
	var ops []string
	for _, in := range code.Insns {
		ops = append(ops, in.Op.String())
	}
	want := "[iconst_0 istore_2 iconst_0 istore_3 iload_3 iload_1 if_icmpge iload_2 iload_3 iadd istore_2 iinc goto iload_2 ireturn]"
	if got := fmt.Sprint(ops); got != want {
		t.Errorf("sum's code\n%s, want\n%s", got, want)
	}
	jump := code.Insns[6]
	if back := code.Insns[12]; back.Target != code.Insns[4].PC || jump.Target != code.Insns[13].PC {
		t.Errorf("loop targets: goto -> %d, if_icmpge -> %d", back.Target, jump.Target)
	}
	if inc := code.Insns[11]; inc.Index != 3 || inc.Value != 1 {
		t.Errorf("iinc %d %d", inc.Index, inc.Value)
	}
	if st := code.Insns[1]; st.Index != 2 {
		t.Errorf("istore_2's Index %d", st.Index)
	}
	if l := code.LineAt(code.Insns[0].PC); l != 12 {
		t.Errorf("line of pc 0: %d, want 12", l)
	}
	if l := code.LineAt(code.Insns[len(code.Insns)-1].PC); l != 16 {
		t.Errorf("line of ireturn: %d, want 16", l)
	}
	if v := code.LocalAt(3, code.Insns[4].PC); v == nil || v.Name != "i" || v.Descriptor != "I" {
		t.Errorf("slot 3 at the loop head: %+v", v)
	}
	if v := code.LocalAt(3, code.Insns[13].PC); v != nil {
		t.Errorf("slot 3 after the loop: %+v, want nil", v)
	}
	if code.InsnAt(1) != 1 || code.InsnAt(-1) != -1 || code.InsnAt(len(code.Bytes)) != -1 {
		t.Errorf("InsnAt")
	}

	main := method(t, c, "main", "([Ljava/lang/String;)V")
	if main.Access != AccPublic|AccStatic {
		t.Errorf("main's flags %#x", main.Access)
	}
	var calls []string
	for _, in := range main.Code.Insns {
		switch in.Op {
		case Invokevirtual, Invokespecial, Getstatic, Putfield, Getfield:
			cl, name, desc, _, ok := c.MemberAt(in.Index)
			if !ok {
				t.Fatalf("%s #%d does not resolve", in.Op, in.Index)
			}
			calls = append(calls, in.Op.String()+" "+cl+"."+name+":"+desc)
		case New:
			calls = append(calls, "new "+c.ClassAt(in.Index))
		case Ldc:
			s, ok := c.StringAt(in.Index)
			if !ok {
				t.Fatalf("ldc #%d is no string", in.Index)
			}
			calls = append(calls, "ldc "+s)
		case Ldc2W:
			calls = append(calls, fmt.Sprintf("ldc2_w %v", c.At(in.Index)))
		}
	}
	wantCalls := "[new Basic ldc b invokespecial Basic.<init>:(Ljava/lang/String;)V getstatic Basic.count:I invokevirtual Basic.sum:(I)I ldc2_w {1000000} putfield Basic.total:J getstatic java/lang/System.out:Ljava/io/PrintStream; getfield Basic.total:J invokevirtual java/io/PrintStream.println:(J)V]"
	if got := fmt.Sprint(calls); got != wantCalls {
		t.Errorf("main's references\n%s, want\n%s", got, wantCalls)
	}
}

func TestParseAllCompiled(t *testing.T) {
	for _, f := range classFiles(t) {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := Parse(data); err != nil {
			t.Errorf("%s: %v", f, err)
		}
	}
}
