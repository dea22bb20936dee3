package cli

import (
	"fmt"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"

	"birch/internal/bir/ast"
	"birch/internal/frontend/java"
	"birch/internal/model"
	"birch/internal/source"
	"birch/internal/verify"
)

// Trails of Java programs in Java terms (docs/java.md, "Reading a
// trail"): the lowered model's names become the program's. Threads are
// `main` and `Thread-0`, `Thread-1`, ... in the order they start (Java
// numbers them as they are constructed: the same unless a program starts
// its threads in another order); each step names its Java frame,
// `pkg.Class.method(File.java:LINE)`; variables are named
// `THREAD.pkg.Class.method#DEPTH.local`, static fields
// `pkg.Class.field` and objects `pkg.Class@SITE[I]` (the I-th object of
// the allocation site SITE). The violation is worded by the lowering's
// messages (Output.Describe: "uncaught java.lang.NullPointerException"),
// with where the exception was created when it is found uncaught
// elsewhere (createdAt); a deadlocked thread is shown at its frame; the
// model's bounds name --max-objects and --max-array-length (limit).
// Trail files keep the model's names, which birch replay checks a trail
// against (checkOptions.modelTrails).

// javaNamer renames the names of a lowered Java program's model.
type javaNamer struct {
	out *java.Output
	// mainThread is the BIR thread type of Java's main thread.
	mainThread string
	threads    map[string]bool
	objects    map[string]string // BIR collection -> the Java class of its objects
	sites      map[string]string // BIR collection -> its allocation site, as shown
	maxArray   int               // the longest array (--max-array-length)
	// lines maps a Java line, "File.java:LINE" as the model's positions
	// name it, to the Java method whose code it is
	lines map[string]string
	// code holds "FUNCTION File.java:LINE" for each line a Java method's
	// function has code on (several methods may share a line)
	code map[string]bool
	// locPos is the position of each location of a method's function
	// ("Foo_run.L3"): its first transformation's
	locPos map[string]string
	// live is the live set of each location of a method's function that
	// has one ("Foo_run.L3" -> its live locals)
	live map[string]map[string]bool
	// sitePos is the Java position of each allocation site, by the name
	// its objects have in Java terms ("pkg.C@c3")
	sitePos map[string]string
	// siteFn is the function of each allocation site's new ("" outside
	// functions), by the same name
	siteFn map[string]string
}

// newJavaNamer is the namer of a loaded Java program (loaded with opts),
// or nil for an input of another language.
func newJavaNamer(in *verify.Input, opts verify.JavaOptions) *javaNamer {
	if in == nil || in.Java == nil || in.Prog == nil {
		return nil
	}
	n := &javaNamer{out: in.Java, threads: map[string]bool{}, objects: map[string]string{}, sites: map[string]string{},
		lines: map[string]string{}, code: map[string]bool{}, live: map[string]map[string]bool{}, locPos: map[string]string{}, sitePos: map[string]string{}, siteFn: map[string]string{}}
	if n.maxArray = opts.MaxArrayLength; n.maxArray == 0 {
		n.maxArray = java.DefaultMaxArrayLength
	}
	for _, t := range in.Prog.Threads {
		n.threads[t.Name()] = true
		if t.Main {
			n.mainThread = t.Name()
		}
	}
	for _, f := range in.Prog.Functions {
		m, ok := in.Java.Names.Functions[f.Name()]
		if !ok {
			continue
		}
		add := func(p source.Pos) {
			pos := in.Fset.Position(p)
			key := pos.Filename + ":" + strconv.Itoa(pos.Line)
			if _, ok := n.lines[key]; !ok && pos.IsValid() {
				n.lines[key] = m
			}
			n.code[f.Name()+" "+key] = true
		}
		for _, l := range f.Body().Locations {
			if l.Live != nil {
				set := map[string]bool{}
				for _, id := range l.Live.Names {
					set[id.Name] = true
				}
				n.live[f.Name()+"."+l.Name.Name] = set
			}
			if len(l.Transformations) > 0 {
				n.locPos[f.Name()+"."+l.Name.Name] = verify.PosString(in.Fset, l.Transformations[0].Pos())
			}
			for _, tr := range l.Transformations {
				add(tr.Pos())
				for _, a := range tr.Actions {
					add(a.Pos())
				}
			}
		}
	}
	for _, c := range in.Prog.Collections {
		if cls, site := collectionClass(c.Name(), in.Java.Names.Types); cls != "" {
			n.objects[c.Name()], n.sites[c.Name()] = cls, site
		}
	}
	if in.File != nil {
		fn := ""
		ast.Inspect(in.File, func(node ast.Node) bool {
			switch d := node.(type) {
			case *ast.FunctionDecl:
				fn = d.Name.Name
			case *ast.ThreadDecl:
				fn = ""
			}
			if a, ok := node.(*ast.NewAction); ok && n.objects[a.Collection.Name] != "" {
				key := n.objects[a.Collection.Name] + "@" + n.sites[a.Collection.Name]
				if _, ok := n.sitePos[key]; !ok {
					// (the lowering allocates from a site's collection
					// in one place)
					n.sitePos[key] = verify.PosString(in.Fset, a.Pos())
					n.siteFn[key] = fn
				}
			}
			return true
		})
	}
	return n
}

// modelName matches a name of the model in a text: an identifier with
// an index (a thread instance T[k], an object C[i]) or an activation
// (f#d), and the character before it.
var modelName = regexp.MustCompile(`(^|[^\w$.]|\.)([A-Za-z_$][\w$]*(?:\[\d+\]|#\d+)?)`)

// collectionClass is the Java class of the objects of the collection
// named name (the lowering names a site's collection Record_cN, an array
// site's Elem_arr_cN) and the site's name ("cN"), or "" when it is not
// one.
func collectionClass(name string, types map[string]string) (class, site string) {
	m := siteName.FindStringSubmatch(name)
	if m == nil {
		return "", ""
	}
	if cls := javaType(m[1], types); cls != "" {
		return cls, m[2]
	}
	return "", ""
}

// siteName matches the name of an allocation site's collection: the
// type, the site's number (and the dimension of a multianewarray's inner
// arrays).
var siteName = regexp.MustCompile(`^(.+)_(c\d+(?:_\d+)?)$`)

// javaPrimitive maps the BIR types of Java's primitive types to them.
var javaPrimitive = map[string]string{
	"int32": "int", "int64": "long", "int16": "short", "int8": "byte", "uint16": "char", "jboolean": "boolean",
}

// javaType is the Java type of a BIR record or array type ("" if none).
func javaType(bir string, types map[string]string) string {
	if elem, ok := strings.CutSuffix(bir, "_arr"); ok {
		if t := javaPrimitive[elem]; t != "" {
			return t + "[]"
		}
		if t := javaType(elem, types); t != "" {
			return t + "[]"
		}
		return ""
	}
	return types[bir]
}

// fullSite matches the model's message of a full collection.
var fullSite = regexp.MustCompile(`collection ([\w$]+) is full \((\d+) objects\)`)

// arrayTooLong is the collection whose second allocation is the lowering's
// limit of an array longer than the bound.
const arrayTooLong = "$ArrayTooLong_c"

// limit words the model's bounds in a message in Java terms: a full
// collection is an allocation site that has created its --max-objects
// objects, or an array longer than --max-array-length.
func (n *javaNamer) limit(s string) string {
	s = fullSite.ReplaceAllStringFunc(s, func(m string) string {
		sub := fullSite.FindStringSubmatch(m)
		if sub[1] == arrayTooLong {
			return fmt.Sprintf("an array longer than %d elements, the bound of --max-array-length", n.maxArray)
		}
		cls, ok := n.objects[sub[1]]
		if !ok {
			return m
		}
		return fmt.Sprintf("new %s: its allocation site (%s) has created its %s objects, the bound of --max-objects", cls, n.sites[sub[1]], sub[2])
	})
	s = callDepth.ReplaceAllString(s, "call depth exceeds $1, the bound of --max-call-depth (a JVM throws StackOverflowError at a depth of its own, which birch does not model)")
	return n.text(s)
}

// callDepth is the model's limit of a thread's frames.
var callDepth = regexp.MustCompile(`call depth exceeds (\d+)`)

// text renames every name of the model in s: threads, objects and
// activations anywhere, globals where they are not a field or a local
// (after a dot).
func (n *javaNamer) text(s string) string {
	if n == nil || s == "" {
		return s
	}
	return modelName.ReplaceAllStringFunc(s, func(m string) string {
		sub := modelName.FindStringSubmatch(m)
		return sub[1] + n.name(sub[2], sub[1] == ".")
	})
}

// name is the Java name of one name of the model; afterDot: it follows
// a dot (it is a field, a local or an activation).
func (n *javaNamer) name(s string, afterDot bool) string {
	if base, k, ok := indexed(s, "["); ok {
		if n.threads[base] {
			return n.threadName(base, k)
		}
		if cls, ok := n.objects[base]; ok {
			return cls + "@" + n.sites[base] + "[" + strconv.Itoa(k) + "]"
		}
		return s
	}
	if base, d, ok := indexed(s, "#"); ok {
		if f, ok := n.out.Names.Functions[base]; ok {
			return methodName(f) + "#" + strconv.Itoa(d)
		}
		return s
	}
	if g, ok := n.out.Names.Globals[s]; ok && !afterDot {
		return g
	}
	return s
}

// indexed splits "base[k]" (open "[") or "base#k" (open "#").
func indexed(s, open string) (string, int, bool) {
	i := strings.LastIndex(s, open)
	if i < 0 {
		return "", 0, false
	}
	num := strings.TrimSuffix(s[i+1:], "]")
	k, err := strconv.Atoi(num)
	return s[:i], k, err == nil
}

// threadName is the Java name of thread instance k (a tid: threads are
// numbered as they start) of the BIR thread type base.
func (n *javaNamer) threadName(base string, k int) string {
	if base == n.mainThread {
		return "main"
	}
	return "Thread-" + strconv.Itoa(k-2)
}

// methodName is a method's name without its parameter types
// ("pkg.C.m" of "pkg.C.m(int)").
func methodName(f string) string {
	if i := strings.IndexByte(f, '('); i >= 0 {
		return f[:i]
	}
	return f
}

// frame is the Java frame of a step at pos (file:line:col) of a thread
// at the BIR location loc ("Foo_deposit.L3"): "pkg.Foo.deposit(Foo.java:12)".
// The method is loc's when it has code on pos's line, else the one whose
// code is at pos's line (a step may run on into a method it calls), else
// loc's; "" when neither is a Java method's. (Several methods may have
// code on one line: `class A { static int x = 1; static void m() {..} }`.)
func (n *javaNamer) frame(loc, pos string) string {
	file, line, hasLine := fileLine(pos)
	fn, _, _ := strings.Cut(loc, ".")
	m, ok := n.out.Names.Functions[fn]
	if !ok || !n.code[fn+" "+file+":"+line] {
		m, ok = n.lines[file+":"+line]
	}
	if !ok || !hasLine {
		if m, ok = n.out.Names.Functions[fn]; !ok {
			m, ok = n.out.Names.Threads[fn]
		}
	}
	if !ok {
		return ""
	}
	where := ""
	if hasLine {
		where = filepath.Base(file) + ":" + line
	}
	return methodName(m) + "(" + where + ")"
}

// fileLine splits a position file:line:col.
func fileLine(pos string) (file, line string, ok bool) {
	i := strings.LastIndexByte(pos, ':')
	if i < 0 {
		return "", "", false
	}
	j := strings.LastIndexByte(pos[:i], ':')
	if j < 0 {
		return "", "", false
	}
	return pos[:j], pos[j+1 : i], true
}

// stepHead is the line of a step of a trail: the thread, its move and
// the position; for a Java program's step, the thread, the Java frame and
// the move.
func stepHead(s *verify.Step) string {
	if s.Frame != "" {
		return s.Thread + "  " + s.Frame + "  " + s.From + " -> " + s.To
	}
	return s.Thread + "  " + s.From + " -> " + s.To + "  " + s.Pos
}

// dropResets leaves out of a step of a trail (the model's names) the
// changes that are the model's resets of dead locals: a local of the
// function the step ends in, in its top activation there, that is not
// live where the step ends and that no transformation of the step
// assigns (the model resets a dead local to its default value where it
// arrives at a location: in Java terms nothing happened to it). A change
// it cannot tell from an assignment (a transformation's text cut short)
// stays.
// (A parameter the method never reads is such a local where the method
// starts: the model resets it to 0 on the call; it is left out rather
// than shown as a value the caller did not pass.) s is the step in the model's names, out the same step in Java terms
// (its changes in the same order, and maybe more after them).
func (n *javaNamer) dropResets(s *verify.Step, out *verify.Step) {
	fn, _, _ := strings.Cut(s.To, ".")
	live, ok := n.live[s.To]
	if !ok {
		return
	}
	for _, src := range s.Source {
		if strings.Contains(src, "…") {
			return
		}
	}
	prefix := s.Thread + "." + fn + "#"
	top := 0
	for _, c := range s.Changes {
		if rest, ok := strings.CutPrefix(c.Name, prefix); ok && c.Value != "-" {
			depth, _, _ := strings.Cut(rest, ".")
			if d, err := strconv.Atoi(depth); err == nil && d > top {
				top = d
			}
		}
	}
	top_ := prefix + strconv.Itoa(top) + "."
	kept := out.Changes[:0:0]
	for i, c := range out.Changes {
		if i < len(s.Changes) {
			m := s.Changes[i]
			if v, ok := strings.CutPrefix(m.Name, top_); ok && !live[v] && m.Value != "-" && !assigns(s.Source, v) {
				continue
			}
		}
		kept = append(kept, c)
	}
	out.Changes = kept
}

// assigns tells whether one of a step's transformations (their text)
// assigns the variable v.
func assigns(source []string, v string) bool {
	for _, src := range source {
		for i := 0; ; {
			j := strings.Index(src[i:], v+" := ")
			if j < 0 {
				break
			}
			if k := i + j; k == 0 || !isNameByte(src[k-1]) {
				return true
			}
			i += j + 1
		}
	}
	return false
}

// isNameByte: b may be part of a name of the model.
func isNameByte(b byte) bool {
	return b == '_' || b == '$' || b == '.' || b >= '0' && b <= '9' || b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z'
}

// step words one step of a trail in Java terms (nothing for a nil n).
func (n *javaNamer) step(s *verify.Step) {
	if n == nil {
		return
	}
	loc := s.From
	if !strings.Contains(loc, ".") {
		loc = s.To // a thread's first step, from "run"
	}
	s.Frame = n.frame(loc, s.Pos)
	s.Thread = n.text(s.Thread)
	s.Msg = n.text(s.Msg)
	s.Changes = n.vars(s.Changes)
}

// chooseInto matches a choice of the model's transformations: the
// variable it assigns.
var chooseInto = regexp.MustCompile(`(?:^|[{;] )([\w$]+) := (?:extern|intern)Choose\(`)

// showChoice shows the value the last step of a trail (in Java terms)
// chose when the step's changes do not (a choice of the value the
// variable had, such as Verify.getInt's 0 into a fresh local): the
// variable's last value in the trail, which the choice kept.
func showChoice(trail []verify.Step) {
	s := &trail[len(trail)-1]
	if s.Msg != "" || len(s.Source) == 0 {
		return
	}
	m := chooseInto.FindStringSubmatch(strings.TrimPrefix(s.Source[0], "["))
	if m == nil {
		return
	}
	suffix, prefix := "."+m[1], s.Thread+"."
	for _, c := range s.Changes {
		if strings.HasSuffix(c.Name, suffix) && strings.HasPrefix(c.Name, prefix) {
			return // shown
		}
	}
	for i := len(trail) - 2; i >= 0; i-- {
		for _, c := range trail[i].Changes {
			if strings.HasSuffix(c.Name, suffix) && strings.HasPrefix(c.Name, prefix) && c.Value != "-" {
				s.Changes = append(s.Changes, c)
				return
			}
		}
	}
}

// vars renames variables and their values.
func (n *javaNamer) vars(vs []model.Var) []model.Var {
	out := make([]model.Var, len(vs))
	for i, v := range vs {
		out[i] = model.Var{Name: n.text(v.Name), Value: n.text(v.Value)}
	}
	return out
}

// javaTerms words the checks of a Java program's result in Java terms
// (the trails as they were go to o.modelTrails, for the trail files).
func (o *checkOptions) javaTerms(e *env, res *verify.Result, in *verify.Input) {
	n := newJavaNamer(in, e.load.Java)
	if res == nil || n == nil {
		return
	}
	inTerms(res, in.Java.Describe)
	for _, c := range res.Checks {
		c.Reason = n.limit(c.Reason)
		for i := range c.LimitsHit {
			c.LimitsHit[i].Message = n.limit(c.LimitsHit[i].Message)
		}
		for i := range c.RestsOn {
			c.RestsOn[i].What = n.limit(c.RestsOn[i].What)
		}
		if a := c.Abstraction; a != nil {
			// the abstract trail of a check with abstraction (the
			// model's positions and names, the abstraction's tokens)
			for i := range a.AbstractTrail {
				n.step(&a.AbstractTrail[i])
			}
			if d := a.ValuesDiverge; d != nil {
				d.Thread = n.text(d.Thread)
			}
			if av := a.AbstractViolation; av != nil && abstractViolationInJavaTerms(av, in.Java.Describe) {
				for i := range a.AbstractTrail {
					if st := &a.AbstractTrail[i]; st.Msg == av.Kind+": "+av.ModelMessage {
						st.Msg = av.Kind + ": " + av.Message
					}
				}
			}
		}
		if v := c.Violation; v != nil && v.Confirmation.Diverges != nil {
			v.Confirmation.Diverges.Thread = n.text(v.Confirmation.Diverges.Thread)
		}
		v := c.Violation
		if v == nil {
			continue
		}
		if o.modelTrails == nil {
			o.modelTrails = map[*verify.Violation][]verify.Step{}
		}
		o.modelTrails[v] = v.Trail
		trail := make([]verify.Step, len(v.Trail))
		for i := range v.Trail {
			trail[i] = v.Trail[i]
			n.step(&trail[i])
			showChoice(trail[:i+1])
		}
		for i := range trail {
			// (after showChoice, which reads the values the resets set)
			n.dropResets(&v.Trail[i], &trail[i])
		}
		if v.Trail != nil {
			v.Trail = trail
		}
		n.violation(v, o.modelTrails[v])
		if at := n.createdAt(v.Message, trail); v.Kind == "assertion" && at != "" && at != v.Location {
			// the exception is found uncaught elsewhere than where it
			// was made (a rethrow, a finally): say where, as Java's
			// stack trace would
			text := v.Message + " (created at " + at + ")"
			c.Reason = strings.Replace(c.Reason, v.Message, text, 1)
			if k := len(trail) - 1; k >= 0 && trail[k].Msg == v.Kind+": "+v.Message {
				trail[k].Msg = v.Kind + ": " + text
			}
			v.Message = text
		}
	}
}

// javaObject matches an object in Java terms, pkg.C@cN[I]: the class
// and the site.
var javaObject = regexp.MustCompile(`([\w$.]+)@(c\d+(?:_\d+)?)\[\d+\]`)

// createdAt is the frame where the exception a trail (in Java terms)
// ends uncaught in ("uncaught pkg.C...") was created, which is where a
// Java stack trace says it was thrown: the allocation site of the object
// of its class that the trail shows created last (an exception the
// program throws is a new object; a caught one made earlier was created
// before it); "" when the trail shows none.
func (n *javaNamer) createdAt(msg string, trail []verify.Step) string {
	rest, ok := strings.CutPrefix(msg, "uncaught ")
	if !ok {
		return ""
	}
	cls, _, _ := strings.Cut(rest, ":")
	seen := map[string]bool{}
	last := ""
	for _, s := range trail {
		for _, c := range s.Changes {
			for _, o := range javaObject.FindAllStringSubmatch(c.Name+" "+c.Value, -1) {
				if !seen[o[0]] {
					seen[o[0]] = true
					if o[1] == cls {
						last = o[1] + "@" + o[2]
					}
				}
			}
		}
	}
	if pos, ok := n.sitePos[last]; ok {
		return n.frame(n.siteFn[last], pos)
	}
	return ""
}

// monitorWait matches the monitor a deadlocked thread waits for in the
// model's words: the lock of a variable's object (`lock $t0_JObject.$mon`,
// `this.$mon`) or a class's monitor (a global, `Foo_class$mon`).
var monitorWait = regexp.MustCompile(`(^|[^\w$.])(?:lock )?([A-Za-z_$][\w$]*)(\.\$mon)?\b( is held by|, which is held by)`)

// monitors words the monitors in the waits of thread (model names) at
// loc ("Foo_run.L3") in Java terms: a variable's monitor is the monitor
// of the object it holds in the thread's top frame at the end of trail
// (the trail in the model's names), "the monitor of pkg.C@c1[0]"; a
// class's monitor "the monitor of pkg.C.class". A wait it cannot word
// (no trail) is left as it is.
func (n *javaNamer) monitors(w, thread, loc string, trail []verify.Step) string {
	fn, _, _ := strings.Cut(loc, ".")
	return monitorWait.ReplaceAllStringFunc(w, func(m string) string {
		sub := monitorWait.FindStringSubmatch(m)
		obj := ""
		if sub[3] != "" {
			if val := frameValue(trail, thread, fn, sub[2]); val != "" && val != "null" {
				obj = n.text(val)
			}
		} else if g, ok := n.out.Names.Globals[sub[2]]; ok && strings.HasSuffix(g, ".class") {
			obj = g
		}
		if obj == "" {
			return m
		}
		return sub[1] + "the monitor of " + obj + sub[4]
	})
}

// frameValue is the last value of the variable v of thread's top
// activation of fn in a trail (the model's names: THREAD.FN#D.V), ""
// when the trail does not show it. The top activation is the deepest
// one whose variables are not gone ("-") at the end.
func frameValue(trail []verify.Step, thread, fn, v string) string {
	prefix, suffix := thread+"."+fn+"#", "."+v
	last := map[int]string{}
	for _, s := range trail {
		for _, c := range s.Changes {
			rest, ok := strings.CutPrefix(c.Name, prefix)
			if !ok {
				continue
			}
			depth, ok := strings.CutSuffix(rest, suffix)
			if d, err := strconv.Atoi(depth); ok && err == nil {
				last[d] = c.Value
			}
		}
	}
	top, val := 0, ""
	for d, x := range last {
		if x != "-" && d > top {
			top, val = d, x
		}
	}
	return val
}

// violation words a violation's thread, location and threads; trail is
// its trail in the model's names (nil when there is none).
func (n *javaNamer) violation(v *verify.Violation, trail []verify.Step) {
	if f := n.frame(v.Location, v.Pos); f != "" {
		v.Location = f
	}
	v.Thread = n.text(v.Thread)
	for i := range v.Threads {
		t := &v.Threads[i]
		for j, w := range t.Waits {
			t.Waits[j] = n.monitors(w, t.Thread, t.Location, trail)
		}
		t.Thread = n.text(t.Thread)
		if f := n.frame(t.Location, n.locPos[t.Location]); f != "" && n.locPos[t.Location] != "" {
			t.Location = f // where a deadlocked thread waits
		}
		waits := make([]string, len(t.Waits))
		for j, w := range t.Waits {
			waits[j] = n.text(w)
		}
		t.Waits = waits
	}
}

// simulation words the end of a simulation of a Java program in Java
// terms (nothing for a nil n).
func (n *javaNamer) simulation(sim *verify.Simulation) {
	if n == nil {
		return
	}
	if v := sim.Violation; v != nil {
		if text := n.out.Describe(v.Pos, v.Message); text != "" {
			v.ModelMessage, v.Message = v.Message, text
		}
		n.violation(v, nil)
	}
	if sim.Bound != nil {
		sim.Bound.Message = n.limit(sim.Bound.Message)
	}
}

// replayInJavaTerms words a replay of a Java program's trail in Java
// terms, as javaTerms does a check's.
func replayInJavaTerms(e *env, r *verify.Replay, in *verify.Input) {
	n := newJavaNamer(in, e.load.Java)
	if r == nil || n == nil {
		return
	}
	replayInTerms(r, in.Java.Describe)
	trail := make([]verify.Step, len(r.Steps))
	for i := range r.Steps {
		trail[i] = r.Steps[i].Step
	}
	for i := range r.Steps {
		n.step(&r.Steps[i].Step)
		n.dropResets(&trail[i], &r.Steps[i].Step)
		r.Steps[i].State = n.vars(r.Steps[i].State)
	}
	r.Initial = n.vars(r.Initial)
	if r.Violation != nil {
		n.violation(r.Violation, trail)
	}
}

// abstractViolationInJavaTerms words the abstract violation's message in
// Java terms ("assert failed: MSG" for the model's "assertion violated:
// false"), keeping what the abstraction adds to it in parentheses ("(may
// be false in the abstract state)"); false when it has no Java terms.
func abstractViolationInJavaTerms(av *verify.Violation, describe func(pos, msg string) string) bool {
	msg, how := av.Message, ""
	if i := strings.LastIndex(msg, " ("); i >= 0 && strings.HasSuffix(msg, ")") && strings.Contains(msg[i:], " abstract state") {
		msg, how = msg[:i], msg[i:]
	}
	if text := describe(av.Pos, msg); text != "" {
		av.ModelMessage, av.Message = av.Message, text+how
		return true
	}
	return false
}
