package classfile

// The javap oracle: every class compiled from testdata/*.java and
// examples/java/*.java, and the hand-made class of build_test.go, is
// printed by ONE run of `javap -v -p -c -l`; the printout is parsed into
// a listing (listing below) and compared with the listing this package's
// decoding gives (javapListing, which prints what Parse decoded the way
// javap prints it). Everything is compared as javap's text, whitespace
// runs made one space: the constant pool (tag and resolved text), the
// class header, fields and methods (name, descriptor, flags, constant
// value, throws clause), every instruction (pc, mnemonic, operands with
// their resolved constant, branch targets, switch tables), exception
// tables, line number tables and local variable tables.

import (
	"bufio"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"
	"unicode"
)

// listing is a class as javap -v prints it, each item one normalized line.
type listing struct {
	header  []string // version, flags, this_class, super_class, counts
	pool    []string // "#N = Tag text"
	members []member
	source  string // the SourceFile attribute, "" when absent
	// bootstraps are the BootstrapMethods entries: "0: #202 #208 ..."
	// (the method handle's and the arguments' indices; the pool holds
	// their text)
	bootstraps []string
}

type member struct {
	name  string // as javap declares it: the class name for <init>, "<clinit>" for static {}
	attrs []string
	code  *codeListing
}

type codeListing struct {
	header   string   // "stack=1, locals=1, args_size=1"
	insns    []string // "PC: mnemonic operands // comment"
	handlers []string // "from to target type"
	lines    []string // "line L: PC", sorted by PC
	locals   []string // "start length slot name signature"
}

// normalize makes every run of white space one space and trims the ends;
// of a flags line it keeps the number ("flags: (0x0009)"), which says
// all the names do.
func normalize(s string) string {
	// Only ASCII white space: U+00A0 and U+2028 in a string constant
	// are the constant's.
	s = strings.Join(strings.FieldsFunc(s, func(r rune) bool { return r == ' ' || r == '\t' }), " ")
	if strings.HasPrefix(s, "flags: (") {
		s, _, _ = strings.Cut(s, ") ")
		s = strings.TrimSuffix(s, ")") + ")"
	}
	return s
}

// --- Parsing javap's printout.

var (
	reClassfile = regexp.MustCompile(`^Classfile (.*)$`)
	reInsn      = regexp.MustCompile(`^\s*(\d+): (\S.*)$`)
	rePool      = regexp.MustCompile(`^\s*#(\d+) = (.*)$`)
	reBootstrap = regexp.MustCompile(`^\d+: #\d+`)
)

// parseJavap splits javap's printout of several classes into listings,
// keyed by class file path.
func parseJavap(out string) (map[string]*listing, error) {
	res := map[string]*listing{}
	var cur *listing
	var mem *member
	state := "" // "header", "pool", "members", "after"
	codeSub := ""
	inSwitch := false
	sc := bufio.NewScanner(strings.NewReader(out))
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		line := sc.Text()
		if m := reClassfile.FindStringSubmatch(line); m != nil {
			cur = &listing{}
			res[m[1]] = cur
			state, mem = "header", nil
			continue
		}
		if cur == nil {
			continue
		}
		trim := strings.TrimSpace(line)
		indent := len(line) - len(strings.TrimLeft(line, " "))
		switch state {
		case "header":
			switch {
			case trim == "Constant pool:":
				state = "pool"
			case strings.HasPrefix(trim, "minor version:"), strings.HasPrefix(trim, "major version:"),
				strings.HasPrefix(trim, "flags:"), strings.HasPrefix(trim, "this_class:"),
				strings.HasPrefix(trim, "super_class:"), strings.HasPrefix(trim, "interfaces:"):
				cur.header = append(cur.header, normalize(trim))
			}
		case "pool":
			if trim == "{" {
				state = "members"
				continue
			}
			m := rePool.FindStringSubmatch(line)
			if m == nil {
				return nil, fmt.Errorf("unexpected constant pool line %q", line)
			}
			cur.pool = append(cur.pool, "#"+m[1]+" = "+normalize(m[2]))
		case "members":
			switch {
			case trim == "}" && indent == 0:
				state, mem = "after", nil
			case trim == "":
				mem = nil
			case indent == 2:
				cur.members = append(cur.members, member{name: declaredName(trim)})
				mem = &cur.members[len(cur.members)-1]
			case mem == nil:
				return nil, fmt.Errorf("unexpected line %q outside a member", line)
			case indent == 4:
				codeSub = "other"
				for _, a := range []string{"descriptor:", "flags:", "ConstantValue:", "Code:", "Exceptions:"} {
					if strings.HasPrefix(trim, a) {
						mem.attrs = append(mem.attrs, normalize(trim))
						codeSub = ""
					}
				}
				if trim == "Code:" {
					mem.code = &codeListing{}
					codeSub, inSwitch = "insns", false
				}
			case codeSub == "other": // an attribute not compared: Signature, MethodParameters ...
			case codeSub == "" && len(mem.attrs) == 0:
				return nil, fmt.Errorf("unexpected line %q before a member's attributes", line)
			case codeSub == "":
				// the rest of a member attribute: the throws clause,
				// annotation values ...
				mem.attrs[len(mem.attrs)-1] += " " + normalize(trim)
			default:
				c := mem.code
				if inSwitch {
					c.insns[len(c.insns)-1] += " " + normalize(trim)
					inSwitch = trim != "}"
					continue
				}
				if codeSub == "insns" {
					if m := reInsn.FindStringSubmatch(line); m != nil {
						c.insns = append(c.insns, m[1]+": "+normalize(m[2]))
						inSwitch = strings.HasPrefix(m[2], "tableswitch") || strings.HasPrefix(m[2], "lookupswitch")
						continue
					}
				}
				if indent == 6 {
					switch {
					case strings.HasPrefix(trim, "stack="):
						c.header = normalize(trim)
						codeSub = "insns"
					case trim == "Exception table:":
						codeSub = "handlers"
					case trim == "LineNumberTable:":
						codeSub = "lines"
					case trim == "LocalVariableTable:":
						codeSub = "locals"
					default: // StackMapTable, LocalVariableTypeTable, ...
						codeSub = "other"
					}
					continue
				}
				switch codeSub {
				case "handlers":
					if !strings.HasPrefix(trim, "from") {
						c.handlers = append(c.handlers, normalize(trim))
					}
				case "lines":
					c.lines = append(c.lines, normalize(trim))
				case "locals":
					if !strings.HasPrefix(trim, "Start") {
						c.locals = append(c.locals, normalize(trim))
					}
				case "insns":
					return nil, fmt.Errorf("unexpected code line %q", line)
				}
			}
		case "after", "bootstrap":
			if indent == 0 {
				state = "after"
				if s, ok := strings.CutPrefix(trim, "SourceFile: "); ok {
					cur.source = s
				} else if trim == "BootstrapMethods:" {
					state = "bootstrap"
				}
				continue
			}
			if state != "bootstrap" {
				continue
			}
			f := strings.Fields(trim)
			switch {
			case indent == 2 && reBootstrap.MatchString(trim):
				cur.bootstraps = append(cur.bootstraps, f[0]+" "+f[1])
			case indent == 2: // an attribute javap does not know: "Custom: length = 0x3"
				state = "after"
			case strings.HasPrefix(trim, "#") && len(cur.bootstraps) > 0:
				cur.bootstraps[len(cur.bootstraps)-1] += " " + f[0]
			}
		}
	}
	for _, l := range res {
		for _, m := range l.members {
			if m.code != nil {
				sortLineRows(m.code.lines)
			}
		}
	}
	return res, sc.Err()
}

// sortLineRows sorts "line L: PC" rows by PC, stably: the API sorts the
// line number table by PC.
func sortLineRows(rows []string) {
	pc := func(s string) int {
		n, _ := strconv.Atoi(s[strings.LastIndexByte(s, ' ')+1:])
		return n
	}
	sort.SliceStable(rows, func(i, j int) bool { return pc(rows[i]) < pc(rows[j]) })
}

// declaredName returns the member name in javap's declaration line:
// "public static void main(java.lang.String[]);" -> "main",
// "static {};" -> "<clinit>", "private int count;" -> "count".
func declaredName(decl string) string {
	if decl == "static {};" {
		return "<clinit>"
	}
	if i := strings.IndexByte(decl, '('); i >= 0 {
		decl = decl[:i]
	} else {
		decl = strings.TrimSuffix(decl, ";")
	}
	return decl[strings.LastIndexByte(decl, ' ')+1:]
}

// --- Printing a parsed Class the way javap does.

// javapListing prints c as javap -v -p -c -l would.
func javapListing(c *Class) *listing {
	p := printer{c}
	l := &listing{source: p.quoteString(c.SourceFile)}
	if c.SourceFile != "" {
		l.source = `"` + l.source + `"`
	}
	attrs := len(c.Attributes)
	if c.SourceFile != "" {
		attrs++
	}
	if c.BootstrapMethods != nil {
		attrs++
	}
	for i, bm := range c.BootstrapMethods {
		s := fmt.Sprintf("%d: #%d", i, bm.MethodRef)
		for _, a := range bm.Args {
			s += fmt.Sprintf(" #%d", a)
		}
		l.bootstraps = append(l.bootstraps, s)
	}
	l.header = []string{
		fmt.Sprintf("minor version: %d", c.Minor),
		fmt.Sprintf("major version: %d", c.Major),
		fmt.Sprintf("flags: (0x%04x)", c.Access),
		fmt.Sprintf("this_class: #%d // %s", p.classIndex(c.Name), p.name(c.Name)),
		fmt.Sprintf("super_class: #%d", p.classIndex(c.Super)),
		fmt.Sprintf("interfaces: %d, fields: %d, methods: %d, attributes: %d", len(c.Interfaces), len(c.Fields), len(c.Methods), attrs),
	}
	if c.Super != "" {
		l.header[4] += " // " + p.name(c.Super)
	}
	for i, k := range c.Pool {
		if k != nil {
			l.pool = append(l.pool, normalize(fmt.Sprintf("#%d = %s", i, p.constant(k))))
		}
	}
	for _, f := range c.Fields {
		m := member{name: f.Name, attrs: []string{"descriptor: " + f.Descriptor, fmt.Sprintf("flags: (0x%04x)", f.Access)}}
		if f.ConstantValue != nil {
			m.attrs = append(m.attrs, "ConstantValue: "+p.value(f.ConstantValue))
		}
		l.members = append(l.members, m)
	}
	for _, meth := range c.Methods {
		m := member{name: meth.Name, attrs: []string{"descriptor: " + meth.Descriptor, fmt.Sprintf("flags: (0x%04x)", meth.Access)}}
		if meth.Name == "<init>" {
			m.name = strings.ReplaceAll(c.Name, "/", ".")
		}
		if meth.Code != nil {
			m.attrs = append(m.attrs, "Code:")
			m.code = p.code(meth)
		}
		if len(meth.Exceptions) > 0 {
			var names []string
			for _, e := range meth.Exceptions {
				names = append(names, strings.ReplaceAll(e, "/", "."))
			}
			m.attrs = append(m.attrs, "Exceptions: throws "+strings.Join(names, ", "))
		}
		l.members = append(l.members, m)
	}
	return l
}

type printer struct{ c *Class }

func (p printer) classIndex(name string) int {
	for i, k := range p.c.Pool {
		if k, ok := k.(ClassRef); ok && p.c.Utf8At(k.NameIndex) == name {
			return i
		}
	}
	return 0
}

// name quotes a class or member name unless it is a sequence of Java
// identifiers separated by '/' (as javap does: "<init>", "[I").
func (p printer) name(s string) string {
	for _, part := range strings.Split(s, "/") {
		for i, r := range part {
			if !(unicode.IsLetter(r) || r == '_' || r == '$' || i > 0 && unicode.IsDigit(r)) {
				return `"` + p.quoteString(s) + `"`
			}
		}
		if part == "" {
			return `"` + p.quoteString(s) + `"`
		}
	}
	return s
}

// quoteString escapes a string constant as javap prints it.
func (printer) quoteString(s string) string {
	var b strings.Builder
	for _, r := range s {
		switch r {
		case '\t':
			b.WriteString(`\t`)
		case '\n':
			b.WriteString(`\n`)
		case '\r':
			b.WriteString(`\r`)
		case '\b':
			b.WriteString(`\b`)
		case '\f':
			b.WriteString(`\f`)
		case '"', '\'', '\\':
			b.WriteByte('\\')
			b.WriteRune(r)
		default:
			if r < 0x20 || r >= 0x7f && r <= 0x9f {
				fmt.Fprintf(&b, `\u%04x`, r)
			} else {
				b.WriteRune(r)
			}
		}
	}
	return b.String()
}

// javaFloat formats v as Java's Float.toString (bits 32) or
// Double.toString (bits 64) does.
func javaFloat(v float64, bits int) string {
	switch {
	case math.IsNaN(v):
		return "NaN"
	case math.IsInf(v, 1):
		return "Infinity"
	case math.IsInf(v, -1):
		return "-Infinity"
	case v == 0:
		if math.Signbit(v) {
			return "-0.0"
		}
		return "0.0"
	}
	a := math.Abs(v)
	sign := ""
	if v < 0 {
		sign = "-"
	}
	if a >= 1e-3 && a < 1e7 {
		s := strconv.FormatFloat(a, 'f', -1, bits)
		if !strings.Contains(s, ".") {
			s += ".0"
		}
		return sign + s
	}
	e := strconv.FormatFloat(a, 'e', -1, bits) // d.ddde±XX
	mant, exp, _ := strings.Cut(e, "e")
	if !strings.Contains(mant, ".") {
		mant += ".0"
	}
	n, _ := strconv.Atoi(exp)
	return sign + mant + "E" + strconv.Itoa(n)
}

// constant prints a pool entry as javap's "Constant pool:" section does.
func (p printer) constant(k Constant) string {
	c := p.c
	switch k := k.(type) {
	case Utf8:
		return "Utf8 " + p.quoteString(k.Value)
	case Integer, Float, Long, Double:
		_, v, _ := strings.Cut(p.value(k), " ") // "int 5" -> "Integer 5"
		return tagName(k.Tag()) + " " + v
	case ClassRef:
		return fmt.Sprintf("Class #%d // %s", k.NameIndex, p.name(c.Utf8At(k.NameIndex)))
	case String:
		return fmt.Sprintf("String #%d // %s", k.StringIndex, p.quoteString(c.Utf8At(k.StringIndex)))
	case MemberRef:
		return fmt.Sprintf("%s #%d.#%d // %s", tagName(k.Kind), k.ClassIndex, k.NameAndTypeIndex, p.member(k, 0))
	case NameAndType:
		return fmt.Sprintf("NameAndType #%d:#%d // %s:%s", k.NameIndex, k.DescriptorIndex, p.name(c.Utf8At(k.NameIndex)), c.Utf8At(k.DescriptorIndex))
	case MethodHandle:
		ref, _ := c.At(k.RefIndex).(MemberRef)
		return fmt.Sprintf("MethodHandle %d:#%d // %s %s", k.RefKind, k.RefIndex, refKindName(k.RefKind), p.member(ref, 0))
	case MethodType:
		return fmt.Sprintf("MethodType #%d // %s", k.DescriptorIndex, c.Utf8At(k.DescriptorIndex))
	case Dynamic:
		name, desc, _ := c.NameAndTypeAt(k.NameAndTypeIndex)
		return fmt.Sprintf("%s #%d:#%d // #%d:%s:%s", tagName(k.Kind), k.BootstrapIndex, k.NameAndTypeIndex, k.BootstrapIndex, p.name(name), desc)
	case Module:
		return fmt.Sprintf("Module #%d // %s", k.NameIndex, p.name(c.Utf8At(k.NameIndex)))
	case Package:
		return fmt.Sprintf("Package #%d // %s", k.NameIndex, p.name(c.Utf8At(k.NameIndex)))
	}
	return fmt.Sprintf("?%T", k)
}

func refKindName(k uint8) string {
	names := []string{"", "REF_getField", "REF_getStatic", "REF_putField", "REF_putStatic", "REF_invokeVirtual",
		"REF_invokeStatic", "REF_invokeSpecial", "REF_newInvokeSpecial", "REF_invokeInterface"}
	if int(k) < len(names) {
		return names[k]
	}
	return "?"
}

// member prints a member reference "class.name:desc", leaving the class
// out when its index is omit (javap's code listing omits the class when
// it is the this_class entry).
func (p printer) member(m MemberRef, omit int) string {
	name, desc, _ := p.c.NameAndTypeAt(m.NameAndTypeIndex)
	s := p.name(name) + ":" + desc
	if m.ClassIndex != omit {
		s = p.name(p.c.ClassAt(m.ClassIndex)) + "." + s
	}
	return s
}

// value prints a loadable constant as javap's ConstantValue and ldc
// comments do.
func (p printer) value(k Constant) string {
	switch k := k.(type) {
	case Integer:
		return fmt.Sprintf("int %d", k.Value)
	case Float:
		return "float " + javaFloat(float64(k.Value), 32) + "f"
	case Long:
		return fmt.Sprintf("long %dl", k.Value)
	case Double:
		return "double " + javaFloat(k.Value, 64) + "d"
	case String:
		return "String " + p.quoteString(p.c.Utf8At(k.StringIndex))
	}
	return fmt.Sprintf("?%T", k)
}

// ref prints the comment javap gives an instruction's constant operand.
func (p printer) ref(i int) string {
	switch k := p.c.At(i).(type) {
	case ClassRef:
		return "class " + p.name(p.c.Utf8At(k.NameIndex))
	case MemberRef:
		kind := map[uint8]string{TagFieldref: "Field", TagMethodref: "Method", TagInterfaceMethodref: "InterfaceMethod"}[k.Kind]
		return kind + " " + p.member(k, p.classIndex(p.c.Name))
	case Dynamic:
		name, desc, _ := p.c.NameAndTypeAt(k.NameAndTypeIndex)
		return fmt.Sprintf("%s #%d:%s:%s", tagName(k.Kind), k.BootstrapIndex, p.name(name), desc)
	case nil:
		return "?"
	default:
		return p.value(k)
	}
}

var atypes = map[int64]string{TBoolean: "boolean", TChar: "char", TFloat: "float", TDouble: "double",
	TByte: "byte", TShort: "short", TInt: "int", TLong: "long"}

func (p printer) code(m *Method) *codeListing {
	code := m.Code
	params, _, _ := ParseMethodType(m.Descriptor)
	args := len(params) // javap's args_size counts a long or double once
	if m.Access&AccStatic == 0 {
		args++
	}
	l := &codeListing{header: fmt.Sprintf("stack=%d, locals=%d, args_size=%d", code.MaxStack, code.MaxLocals, args)}
	for _, in := range code.Insns {
		l.insns = append(l.insns, normalize(fmt.Sprintf("%d: %s", in.PC, p.insn(in))))
	}
	for _, h := range code.Handlers {
		t := "any"
		if h.CatchType != "" {
			t = "Class " + p.name(h.CatchType)
		}
		l.handlers = append(l.handlers, fmt.Sprintf("%d %d %d %s", h.Start, h.End, h.PC, t))
	}
	for _, e := range code.Lines {
		l.lines = append(l.lines, fmt.Sprintf("line %d: %d", e.Line, e.PC))
	}
	for _, v := range code.Locals {
		l.locals = append(l.locals, fmt.Sprintf("%d %d %d %s %s", v.Start, v.Length, v.Index, v.Name, v.Descriptor))
	}
	return l
}

// insn prints an instruction's mnemonic and operands as javap does.
func (p printer) insn(in Insn) string {
	s := in.Op.String()
	if in.Wide {
		s += "_w"
	}
	switch operandOf(in.Op) {
	case opLocal:
		return fmt.Sprintf("%s %d", s, in.Index)
	case opIinc:
		return fmt.Sprintf("%s %d, %d", s, in.Index, in.Value)
	case opByte, opShort:
		return fmt.Sprintf("%s %d", s, in.Value)
	case opNewarray:
		return s + " " + atypes[in.Value]
	case opPool1, opPool2:
		return fmt.Sprintf("%s #%d // %s", s, in.Index, p.ref(in.Index))
	case opInterface:
		return fmt.Sprintf("%s #%d, %d // %s", s, in.Index, in.Count, p.ref(in.Index))
	case opDynamic:
		return fmt.Sprintf("%s #%d, 0 // %s", s, in.Index, p.ref(in.Index))
	case opMultianewarray:
		return fmt.Sprintf("%s #%d, %d // %s", s, in.Index, in.Value, p.ref(in.Index))
	case opBranch2, opBranch4:
		return fmt.Sprintf("%s %d", s, in.Target)
	case opTableswitch, opLookupswitch:
		if in.Op == Tableswitch {
			s += fmt.Sprintf(" { // %d to %d", in.Keys[0], in.Keys[len(in.Keys)-1])
		} else {
			s += fmt.Sprintf(" { // %d", len(in.Keys))
		}
		for i, k := range in.Keys {
			s += fmt.Sprintf(" %d: %d", k, in.Targets[i])
		}
		return s + fmt.Sprintf(" default: %d }", in.Default)
	}
	return s
}

// --- Comparing.

// compareListings returns the differences between javap's listing of a
// class and ours, at most limit of them.
func compareListings(want, got *listing, limit int) []string {
	var diffs []string
	add := func(format string, args ...any) {
		if len(diffs) < limit {
			diffs = append(diffs, fmt.Sprintf(format, args...))
		}
	}
	lists := func(what string, w, g []string) {
		for i := 0; i < len(w) || i < len(g); i++ {
			var ws, gs string
			if i < len(w) {
				ws = w[i]
			}
			if i < len(g) {
				gs = g[i]
			}
			if ws != gs {
				add("%s, item %d:\n\tjavap:     %q\n\tclassfile: %q", what, i, ws, gs)
			}
		}
	}
	lists("header", want.header, got.header)
	lists("constant pool", want.pool, got.pool)
	lists("bootstrap methods", want.bootstraps, got.bootstraps)
	if want.source != got.source {
		add("SourceFile: javap %q, classfile %q", want.source, got.source)
	}
	if len(want.members) != len(got.members) {
		add("javap lists %d members, classfile %d", len(want.members), len(got.members))
		return diffs
	}
	for i, w := range want.members {
		g := got.members[i]
		what := fmt.Sprintf("member %d (%s)", i, w.name)
		if w.name != g.name {
			add("%s: name: javap %q, classfile %q", what, w.name, g.name)
		}
		lists(what+" attributes", w.attrs, normalizeAll(g.attrs))
		if (w.code == nil) != (g.code == nil) {
			add("%s: javap code %v, classfile code %v", what, w.code != nil, g.code != nil)
			continue
		}
		if w.code == nil {
			continue
		}
		lists(what+" code header", []string{w.code.header}, []string{g.code.header})
		lists(what+" instructions", w.code.insns, g.code.insns)
		lists(what+" exception table", w.code.handlers, g.code.handlers)
		lists(what+" line numbers", w.code.lines, g.code.lines)
		lists(what+" local variables", w.code.locals, g.code.locals)
	}
	return diffs
}

func normalizeAll(l []string) []string {
	var n []string
	for _, s := range l {
		n = append(n, normalize(s))
	}
	return n
}

// --- The javap run.

var javap struct {
	once     sync.Once
	listings map[string]*listing // by class file path
	files    []string
	err      error
}

// javapListings runs javap once on every compiled class and the hand-made
// class, returning the parsed printouts by path.
func javapListings(t *testing.T) (map[string]*listing, []string) {
	t.Helper()
	files := classFiles(t)
	path, err := exec.LookPath("javap")
	if err != nil {
		t.Skip("javap not on PATH")
	}
	javap.once.Do(func() {
		hand := filepath.Join(compiled(t), "handmade", "Hand.class")
		if javap.err = os.MkdirAll(filepath.Dir(hand), 0o755); javap.err != nil {
			return
		}
		if javap.err = os.WriteFile(hand, handmade(), 0o644); javap.err != nil {
			return
		}
		javap.files = append(files, hand)
		out, err := exec.Command(path, append([]string{
			// C1 only and the serial collector: a third of the CPU time
			// of a short JVM run.
			"-J-XX:TieredStopAtLevel=1", "-J-XX:+UseSerialGC",
			"-v", "-p", "-c", "-l"}, javap.files...)...).CombinedOutput()
		if err != nil {
			javap.err = fmt.Errorf("javap: %v\n%s", err, out)
			return
		}
		javap.listings, javap.err = parseJavap(string(out))
	})
	if javap.err != nil {
		t.Fatal(javap.err)
	}
	return javap.listings, javap.files
}

func parseFile(t *testing.T, path string) *Class {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	c, err := Parse(data)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return c
}

// TestJavap compares every class with javap's printout of it.
func TestJavap(t *testing.T) {
	listings, files := javapListings(t)
	insns := 0
	for _, f := range files {
		want := listings[f]
		if want == nil {
			t.Errorf("javap printed nothing for %s", f)
			continue
		}
		c := parseFile(t, f)
		for _, d := range compareListings(want, javapListing(c), 10) {
			t.Errorf("%s: %s", filepath.Base(f), d)
		}
		for _, m := range want.members {
			if m.code != nil {
				insns += len(m.code.insns)
			}
		}
	}
	if insns < 1000 {
		t.Errorf("javap listed only %d instructions in %d classes", insns, len(files))
	}
	// The programs must go on exercising every kind of operand.
	seen := map[string]bool{}
	for _, l := range listings {
		for _, m := range l.members {
			if m.code != nil {
				for _, in := range m.code.insns {
					seen[strings.Fields(in)[1]] = true
				}
			}
		}
	}
	for _, op := range strings.Fields(`aconst_null iconst_m1 iconst_5 lconst_1 fconst_1 dconst_0 bipush sipush
		ldc ldc_w ldc2_w iload lload fload dload aload iload_3 aload_0 iaload laload baload caload saload
		aaload faload daload istore lstore astore istore_0 astore_3 iastore lastore bastore castore
		sastore aastore fastore dastore pop pop2 dup dup_x1 dup_x2 dup2 dup2_x1 iadd ladd fadd dadd isub lsub
		imul lmul idiv ldiv ddiv irem lrem drem ineg lneg dneg ishl lshl ishr lshr iushr lushr iand land ior
		lor ixor lxor iinc i2l i2f i2d l2i i2b i2c i2s f2d d2l d2i lcmp fcmpg dcmpl dcmpg ifeq ifne iflt ifge
		ifgt ifle if_icmpeq if_icmpne if_icmplt if_icmpge if_icmpgt if_icmple if_acmpeq if_acmpne goto
		tableswitch lookupswitch ireturn lreturn dreturn areturn return getstatic putstatic getfield
		putfield invokevirtual invokespecial invokestatic invokeinterface invokedynamic new newarray
		anewarray arraylength athrow checkcast instanceof monitorenter monitorexit multianewarray ifnull
		ifnonnull goto_w iload_w lstore_w dstore_w astore_w iinc_w`) {
		if !seen[op] {
			t.Errorf("no %s in the programs javap printed", op)
		}
	}
}

// TestJavapDetectsWrongDecoding shows the comparison can fail: each
// perturbation of one decoded value is reported in the section it
// belongs to.
func TestJavapDetectsWrongDecoding(t *testing.T) {
	listings, _ := javapListings(t)
	dir := compiled(t)
	// insn returns the first instruction of any method that satisfies ok.
	insn := func(c *Class, ok func(*Insn) bool) *Insn {
		for _, m := range c.Methods {
			if m.Code != nil {
				for i := range m.Code.Insns {
					if ok(&m.Code.Insns[i]) {
						return &m.Code.Insns[i]
					}
				}
			}
		}
		return nil
	}
	// code returns the Code of the first method that satisfies ok.
	code := func(c *Class, ok func(*Code) bool) *Code {
		for _, m := range c.Methods {
			if m.Code != nil && ok(m.Code) {
				return m.Code
			}
		}
		return nil
	}
	op := func(o Opcode) func(*Insn) bool { return func(in *Insn) bool { return in.Op == o } }
	tests := []struct {
		class, name, section string
		perturb              func(c *Class) bool
	}{
		{"Control", "branch target", "instructions", func(c *Class) bool {
			in := insn(c, func(in *Insn) bool { return operandOf(in.Op) == opBranch2 })
			in.Target += 3
			return true
		}},
		{"Control", "tableswitch key", "instructions", func(c *Class) bool {
			insn(c, op(Tableswitch)).Keys[1]++
			return true
		}},
		{"Control", "lookupswitch target", "instructions", func(c *Class) bool {
			insn(c, op(Lookupswitch)).Targets[0]++
			return true
		}},
		{"Control", "switch default", "instructions", func(c *Class) bool {
			insn(c, op(Tableswitch)).Default--
			return true
		}},
		{"Wide", "wide iinc increment", "instructions", func(c *Class) bool {
			insn(c, func(in *Insn) bool { return in.Op == Iinc && in.Wide }).Value++
			return true
		}},
		{"Wide", "wide store slot", "instructions", func(c *Class) bool {
			insn(c, func(in *Insn) bool { return in.Op == Lstore && in.Wide }).Index--
			return true
		}},
		{"Wide", "wide flag", "instructions", func(c *Class) bool {
			insn(c, func(in *Insn) bool { return in.Op == Iinc && in.Wide }).Wide = false
			return true
		}},
		{"Prims", "opcode", "instructions", func(c *Class) bool {
			insn(c, op(Iload_1)).Op = Iload_2
			return true
		}},
		{"Prims", "sipush value", "instructions", func(c *Class) bool {
			insn(c, op(Sipush)).Value = -insn(c, op(Sipush)).Value
			return true
		}},
		{"Prims", "ldc index", "instructions", func(c *Class) bool {
			insn(c, op(Ldc)).Index++
			return true
		}},
		{"Shapes", "newarray type", "instructions", func(c *Class) bool {
			insn(c, op(Newarray)).Value = TShort
			return true
		}},
		{"Shapes", "multianewarray dimensions", "instructions", func(c *Class) bool {
			insn(c, op(Multianewarray)).Value--
			return true
		}},
		{"Shapes", "invokeinterface count", "instructions", func(c *Class) bool {
			insn(c, op(Invokeinterface)).Count++
			return true
		}},
		{"Prims", "Integer constant", "constant pool", func(c *Class) bool {
			for i, k := range c.Pool {
				if k, ok := k.(Integer); ok {
					c.Pool[i] = Integer{k.Value + 1}
					return true
				}
			}
			return false
		}},
		{"Prims", "modified UTF-8", "constant pool", func(c *Class) bool {
			for i, k := range c.Pool {
				if k, ok := k.(Utf8); ok && strings.Contains(k.Value, "\u20ac") {
					c.Pool[i] = Utf8{strings.Replace(k.Value, "\U0001F600", "\uFFFD", 1)}
					return true
				}
			}
			return false
		}},
		{"Prims", "Double constant", "constant pool", func(c *Class) bool {
			for i, k := range c.Pool {
				if k, ok := k.(Double); ok {
					c.Pool[i] = Double{math.Nextafter(k.Value, 0)}
					return true
				}
			}
			return false
		}},
		{"Prims", "constant value", "attributes", func(c *Class) bool {
			for _, f := range c.Fields {
				if k, ok := f.ConstantValue.(Long); ok {
					f.ConstantValue = Long{-k.Value}
					return true
				}
			}
			return false
		}},
		{"Control", "line number", "line numbers", func(c *Class) bool {
			code(c, func(cd *Code) bool { return len(cd.Lines) > 2 }).Lines[1].Line++
			return true
		}},
		{"Control", "handler catch type", "exception table", func(c *Class) bool {
			code(c, func(cd *Code) bool { return len(cd.Handlers) > 0 }).Handlers[0].CatchType = "java/lang/Error"
			return true
		}},
		{"Control", "handler range", "exception table", func(c *Class) bool {
			code(c, func(cd *Code) bool { return len(cd.Handlers) > 0 }).Handlers[0].End--
			return true
		}},
		{"Control", "local variable", "local variables", func(c *Class) bool {
			code(c, func(cd *Code) bool { return len(cd.Locals) > 1 }).Locals[1].Length++
			return true
		}},
		{"Control", "max locals", "code header", func(c *Class) bool {
			code(c, func(cd *Code) bool { return true }).MaxLocals++
			return true
		}},
		{"Control", "throws clause", "attributes", func(c *Class) bool {
			for _, m := range c.Methods {
				if len(m.Exceptions) > 1 {
					m.Exceptions = m.Exceptions[1:]
					return true
				}
			}
			return false
		}},
		{"Control", "method flags", "attributes", func(c *Class) bool {
			c.Methods[1].Access ^= AccSynchronized
			return true
		}},
		{"Prims", "field descriptor", "attributes", func(c *Class) bool {
			c.Fields[2].Descriptor = "S"
			return true
		}},
		{"Prims", "method name", "name", func(c *Class) bool {
			c.Methods[1].Name += "2"
			return true
		}},
		{"Control", "source file", "SourceFile", func(c *Class) bool {
			c.SourceFile = "Other.java"
			return true
		}},
		{"Shapes", "bootstrap argument", "bootstrap methods", func(c *Class) bool {
			c.BootstrapMethods[1].Args[0]++
			return true
		}},
		{"Control", "super class", "header", func(c *Class) bool {
			c.Super = "java/lang/Thread"
			return true
		}},
	}
	for _, tt := range tests {
		path := filepath.Join(dir, tt.class+".class")
		want := listings[path]
		if want == nil {
			t.Fatalf("no javap listing of %s", path)
		}
		c := parseFile(t, path)
		if d := compareListings(want, javapListing(c), 1); len(d) > 0 {
			t.Fatalf("%s: differs before the perturbation: %s", tt.class, d[0])
		}
		if !tt.perturb(c) {
			t.Fatalf("%s: %s: nothing to perturb", tt.class, tt.name)
		}
		d := compareListings(want, javapListing(c), 5)
		if len(d) == 0 || !strings.Contains(d[0], tt.section) {
			t.Errorf("%s: %s perturbed: differences %q, want one in %s", tt.class, tt.name, d, tt.section)
		}
	}
}
