package classfile

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// FuzzParse: no input makes Parse panic; an error is a *FormatError whose
// offset lies in the input; a class that parses satisfies the invariants
// the front end relies on. The default run only runs the seeds.
func FuzzParse(f *testing.F) {
	good := handmade()
	f.Add(good)
	f.Add(good[:len(good)/2])
	f.Add([]byte{0xCA, 0xFE, 0xBA, 0xBE, 0, 0, 0, 61, 0, 1})
	if _, err := exec.LookPath("javac"); err == nil {
		// javac's classes too, when the test programs can be compiled.
		for _, name := range []string{"Control", "Wide", "Shapes"} {
			if data, err := os.ReadFile(filepath.Join(progs.Dir(f), name+".class")); err == nil {
				f.Add(data)
			}
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		c, err := Parse(data)
		if err != nil {
			var fe *FormatError
			if !errors.As(err, &fe) || fe.Offset < 0 || fe.Offset > len(data) {
				t.Fatalf("error %v is no FormatError within the input", err)
			}
			return
		}
		checkInvariants(t, c)
	})
}

// checkInvariants checks what Parse promises of a class it returns.
func checkInvariants(t *testing.T, c *Class) {
	t.Helper()
	for i := -1; i <= len(c.Pool); i++ {
		c.Utf8At(i)
		c.ClassAt(i)
		c.MemberAt(i)
		c.StringAt(i)
		c.DynamicAt(i)
	}
	for i, k := range c.Pool {
		if d, ok := k.(Dynamic); ok {
			if _, ok := c.Bootstrap(d.BootstrapIndex); !ok {
				t.Errorf("constant #%d: no bootstrap method %d", i, d.BootstrapIndex)
			}
		}
	}
	for _, f := range c.Fields {
		if _, err := ParseFieldType(f.Descriptor); err != nil {
			t.Errorf("field %s: %v", f.Name, err)
		}
	}
	for _, m := range c.Methods {
		if _, _, err := ParseMethodType(m.Descriptor); err != nil {
			t.Errorf("method %s: %v", m.Name, err)
		}
		code := m.Code
		if code == nil {
			continue
		}
		at := func(pc int, endOK bool) bool { return code.InsnAt(pc) >= 0 || endOK && pc == len(code.Bytes) }
		for i, in := range code.Insns {
			if code.InsnAt(in.PC) != i {
				t.Fatalf("%s: InsnAt(%d) != %d", m.Name, in.PC, i)
			}
			if len(in.Keys) != len(in.Targets) {
				t.Errorf("%s pc %d: %d keys, %d targets", m.Name, in.PC, len(in.Keys), len(in.Targets))
			}
			targets := append([]int(nil), in.Targets...)
			switch operandOf(in.Op) {
			case opBranch2, opBranch4:
				targets = append(targets, in.Target)
			case opTableswitch, opLookupswitch:
				targets = append(targets, in.Default)
			}
			for _, tg := range targets {
				if !at(tg, false) {
					t.Errorf("%s pc %d: target %d is no instruction", m.Name, in.PC, tg)
				}
			}
		}
		for _, h := range code.Handlers {
			if !at(h.Start, false) || !at(h.End, true) || !at(h.PC, false) {
				t.Errorf("%s: handler %+v", m.Name, h)
			}
		}
		for i, l := range code.Lines {
			if l.PC < 0 || l.PC >= len(code.Bytes) || i > 0 && l.PC < code.Lines[i-1].PC {
				t.Errorf("%s: line entry %+v", m.Name, l)
			}
		}
	}
}
