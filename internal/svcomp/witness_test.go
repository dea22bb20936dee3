package svcomp

import (
	"bytes"
	"encoding/xml"
	"fmt"
	"io"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"birch/internal/model"
	"birch/internal/verify"
)

// The rules of SV-COMP's violation witnesses in GraphML, format 1.0, as
// sosy-lab's sv-witnesses (README-GraphML.md) states them, checked by
// checkWitness (written here from that text, not copied from its linter).

// xnode is an element of a parsed XML document.
type xnode struct {
	space, name string
	attrs       map[string]string // by local name; namespace declarations as xmlns and xmlns:PREFIX
	children    []*xnode
	text        string
	hasText     bool // character data (not only blanks) inside
	line        int
}

func parseXML(data []byte) (*xnode, error) {
	d := xml.NewDecoder(bytes.NewReader(data))
	var stack []*xnode
	var root *xnode
	for {
		tok, err := d.RawToken()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, err
		}
		switch t := tok.(type) {
		case xml.StartElement:
			line, _ := d.InputPos()
			n := &xnode{space: t.Name.Space, name: t.Name.Local, attrs: map[string]string{}, line: line}
			for _, a := range t.Attr {
				key := a.Name.Local
				if a.Name.Space != "" {
					key = a.Name.Space + ":" + a.Name.Local
				}
				n.attrs[key] = a.Value
			}
			if len(stack) > 0 {
				p := stack[len(stack)-1]
				p.children = append(p.children, n)
			} else if root == nil {
				root = n
			} else {
				return nil, fmt.Errorf("two root elements")
			}
			stack = append(stack, n)
		case xml.EndElement:
			stack = stack[:len(stack)-1]
		case xml.CharData:
			if len(stack) > 0 {
				n := stack[len(stack)-1]
				n.text += string(t)
				if strings.TrimSpace(string(t)) != "" {
					n.hasText = true
				}
			}
		}
	}
	if root == nil {
		return nil, fmt.Errorf("no root element")
	}
	return root, nil
}

var (
	creationTime = regexp.MustCompile(`^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(Z|[+-]\d{2}:\d{2})$`)
	sha256Hex    = regexp.MustCompile(`^[0-9a-f]{64}$`)
)

// The domain of each key the format defines (graph, node or edge data).
var keyDomains = map[string]string{
	"witness-format-version": "graph", "witness-type": "graph", "sourcecodelang": "graph", "producer": "graph",
	"specification": "graph", "programfile": "graph", "programhash": "graph", "architecture": "graph", "creationtime": "graph",
	"entry": "node", "sink": "node", "violation": "node", "invariant": "node", "invariant.scope": "node",
	"assumption": "edge", "assumption.scope": "edge", "assumption.resultfunction": "edge", "control": "edge",
	"startline": "edge", "endline": "edge", "startoffset": "edge", "endoffset": "edge", "enterLoopHead": "edge",
	"enterFunction": "edge", "returnFromFunction": "edge", "threadId": "edge", "createThread": "edge",
}

// checkWitness lists the ways a document breaks the rules of a violation
// witness (none for a valid one).
func checkWitness(data []byte) []string {
	var bad []string
	fail := func(n *xnode, format string, args ...any) {
		bad = append(bad, fmt.Sprintf("line %d: ", n.line)+fmt.Sprintf(format, args...))
	}
	root, err := parseXML(data)
	if err != nil {
		return []string{"not XML: " + err.Error()}
	}
	if root.name != "graphml" || root.space != "" {
		return []string{"the root element is not graphml"}
	}
	if root.attrs["xmlns"] != "http://graphml.graphdrawing.org/xmlns" {
		fail(root, "the default namespace is not GraphML's")
	}
	if root.attrs["xmlns:xsi"] != "http://www.w3.org/2001/XMLSchema-instance" {
		fail(root, "no xsi namespace")
	}
	defined := map[string]string{} // key id -> domain
	var graphs []*xnode
	for _, c := range root.children {
		switch c.name {
		case "key":
			id, dom := c.attrs["id"], c.attrs["for"]
			if id == "" || dom == "" {
				fail(c, "a key without id or for")
				continue
			}
			if _, dup := defined[id]; dup {
				fail(c, "key %s defined twice", id)
			}
			if want, ok := keyDomains[id]; ok && want != dom {
				fail(c, "key %s is for %s elements, not %s", id, want, dom)
			}
			defined[id] = dom
			if len(c.children) > 1 {
				fail(c, "key %s has more than one child", id)
			}
			for _, d := range c.children {
				if d.name != "default" {
					fail(d, "key %s has a child %s", id, d.name)
				} else if (id == "entry" || id == "sink" || id == "violation" || id == "enterLoopHead") && strings.TrimSpace(d.text) != "false" {
					fail(d, "the default of %s is not false", id)
				}
			}
		case "graph":
			graphs = append(graphs, c)
		default:
			fail(c, "graphml has a child %s", c.name)
		}
	}
	if len(graphs) != 1 {
		return append(bad, fmt.Sprintf("%d graphs, want 1", len(graphs)))
	}
	g := graphs[0]
	if g.attrs["edgedefault"] != "directed" {
		fail(g, "edgedefault is not directed")
	}
	// data: one key attribute, text, no children; the key defined for the
	// parent's kind of element
	dataOf := func(parent *xnode, kind string) map[string][]string {
		out := map[string][]string{}
		for _, d := range parent.children {
			if d.name != "data" {
				continue
			}
			key, ok := d.attrs["key"]
			if !ok || len(d.attrs) != 1 {
				fail(d, "a data element needs exactly the attribute key")
				continue
			}
			if len(d.children) > 0 || !d.hasText {
				fail(d, "data %s: want text and no children", key)
			}
			if dom, ok := defined[key]; !ok {
				fail(d, "key %s used but not defined", key)
			} else if dom != kind && dom != "all" {
				fail(d, "key %s is defined for %s, used on %s", key, dom, kind)
			}
			out[key] = append(out[key], strings.TrimSpace(d.text))
		}
		return out
	}
	gd := dataOf(g, "graph")
	for _, k := range []string{"witness-type", "sourcecodelang", "producer", "specification", "programfile", "programhash", "architecture", "creationtime"} {
		if len(gd[k]) != 1 {
			fail(g, "graph data %s given %d times, want once", k, len(gd[k]))
		}
	}
	one := func(k string) string {
		if len(gd[k]) == 0 {
			return ""
		}
		return gd[k][0]
	}
	if v := one("witness-format-version"); v != "" && v != "1.0" {
		fail(g, "witness-format-version %s", v)
	}
	if one("witness-type") != "violation_witness" {
		fail(g, "witness-type %q is not violation_witness", one("witness-type"))
	}
	if v := one("sourcecodelang"); v != "C" && v != "Java" {
		fail(g, "sourcecodelang %q", v)
	}
	if v := one("architecture"); v != "32bit" && v != "64bit" {
		fail(g, "architecture %q", v)
	}
	if !creationTime.MatchString(one("creationtime")) {
		fail(g, "creationtime %q is not ISO 8601", one("creationtime"))
	}
	if !sha256Hex.MatchString(strings.ToLower(one("programhash"))) {
		fail(g, "programhash %q is not a SHA-256 hash", one("programhash"))
	}
	// nodes: unique ids, one entry, violation nodes, no invariants in a
	// violation witness
	nodes := map[string]bool{}
	entry, violations := "", map[string]bool{}
	succ := map[string][]string{}
	for _, n := range g.children {
		switch n.name {
		case "node":
			id := n.attrs["id"]
			if id == "" || nodes[id] {
				fail(n, "node id %q missing or repeated", id)
			}
			nodes[id] = true
			nd := dataOf(n, "node")
			if len(nd["invariant"]) > 0 || len(nd["invariant.scope"]) > 0 {
				fail(n, "an invariant in a violation witness")
			}
			if len(nd["entry"]) > 0 && nd["entry"][0] == "true" {
				if entry != "" {
					fail(n, "a second entry node")
				}
				entry = id
			}
			if len(nd["violation"]) > 0 && nd["violation"][0] == "true" {
				violations[id] = true
			}
		case "edge":
		case "data":
		default:
			fail(n, "graph has a child %s", n.name)
		}
	}
	for _, e := range g.children {
		if e.name != "edge" {
			continue
		}
		src, dst := e.attrs["source"], e.attrs["target"]
		if !nodes[src] || !nodes[dst] {
			fail(e, "edge %s -> %s names an undeclared node", src, dst)
		}
		succ[src] = append(succ[src], dst)
		ed := dataOf(e, "edge")
		for _, k := range []string{"startline", "endline", "startoffset", "endoffset"} {
			for _, v := range ed[k] {
				if n, err := strconv.Atoi(v); err != nil || n < 0 || (n == 0 && strings.HasSuffix(k, "line")) {
					fail(e, "%s %q is not a line number or offset", k, v)
				}
			}
		}
		for _, v := range ed["control"] {
			if v != "condition-true" && v != "condition-false" {
				fail(e, "control %q", v)
			}
		}
		for _, a := range ed["assumption"] {
			if strings.Contains(a, `\result`) && len(ed["assumption.resultfunction"]) == 0 {
				fail(e, "an assumption on \\result without assumption.resultfunction")
			}
		}
	}
	if entry == "" {
		bad = append(bad, "no entry node")
		return bad
	}
	if len(violations) == 0 {
		bad = append(bad, "no violation node")
	}
	// a violation node is reachable from the entry
	seen, todo := map[string]bool{entry: true}, []string{entry}
	reached := false
	for len(todo) > 0 {
		n := todo[0]
		todo = todo[1:]
		reached = reached || violations[n]
		for _, s := range succ[n] {
			if !seen[s] {
				seen[s] = true
				todo = append(todo, s)
			}
		}
	}
	if !reached && len(violations) > 0 {
		bad = append(bad, "no violation node is reachable from the entry")
	}
	return bad
}

func sampleViolation() *verify.Violation {
	return &verify.Violation{Kind: "assertion", Pos: "prog.c:7:14", Location: "check.l3",
		Trail: []verify.Step{
			{Pos: "prog.c:3:3", Source: []string{"[when true do { $t1 := externChoose(int32); } goto l1]"}, Changes: []model.Var{{Name: "Main[1].main_#1.$t1", Value: "5"}}},
			{Pos: "prog.c:4:3", Source: []string{"[when true do { y := externChoose(int32); z := externChoose(int32); } goto l2]"}, Changes: []model.Var{{Name: "Main[1].y", Value: "1"}}},
			{Pos: "prog.c:7:14", Source: []string{"[when x > 3 do { assert(false); } goto l4]"}},
		}}
}

func sampleLines(file string, line int) string {
	return map[int]string{
		3: "  int x = __VERIFIER_nondet_int();",
		4: "  int y = __VERIFIER_nondet_int(), z = __VERIFIER_nondet_int();",
		7: "  if (x > 3) reach_error();",
	}[line]
}

func writeSample(t *testing.T) []byte {
	var b bytes.Buffer
	info := WitnessInfo{Producer: "birch test", Spec: "CHECK( init(main()), LTL(G ! call(reach_error())) )", ProgramFile: "prog.c",
		Program: []byte("int main() { a < b && c > d; }"), Architecture: "32bit", Created: time.Date(2026, 11, 27, 3, 0, 0, 0, time.UTC)}
	if err := WriteWitness(&b, info, Waypoints(sampleViolation(), sampleLines)); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func TestWitnessSchema(t *testing.T) {
	w := writeSample(t)
	if bad := checkWitness(w); len(bad) > 0 {
		t.Errorf("the witness breaks the format:\n%s\n%s", strings.Join(bad, "\n"), w)
	}
	s := string(w)
	// one assumption (line 4 reads two inputs: whose value is which is
	// not known), then the target at the violation's line
	for _, want := range []string{
		`<data key="startline">3</data>` + "\n" + `   <data key="assumption">\result == 5;</data>` + "\n" + `   <data key="assumption.resultfunction">__VERIFIER_nondet_int</data>`,
		"<edge source=\"N1\" target=\"N2\">\n   <data key=\"startline\">7</data>\n  </edge>",
		"<node id=\"N2\">\n   <data key=\"violation\">true</data>",
		`<data key="creationtime">2026-11-27T03:00:00Z</data>`,
	} {
		if !strings.Contains(s, want) {
			t.Errorf("the witness lacks %q:\n%s", want, s)
		}
	}
	if strings.Contains(s, "startline\">4<") {
		t.Errorf("an assumption on a line with two inputs:\n%s", s)
	}
}

func TestWitnessInputsFromSolver(t *testing.T) {
	v := sampleViolation()
	v.Inputs = []verify.InputValue{{Step: 1, Pos: "prog.c:3:11", Action: "x := externChoose(int32)", Value: -7}}
	wps := Waypoints(v, sampleLines)
	if len(wps) != 2 || wps[0].Assumption != `\result == -7;` || wps[0].Line != 3 || !wps[1].Target || wps[1].Line != 7 || wps[1].Function != "check" {
		t.Errorf("waypoints %+v", wps)
	}
}

// TestWitnessCheckerRejects makes sure checkWitness can fail: each broken
// variant of a valid witness is rejected for its fault.
func TestWitnessCheckerRejects(t *testing.T) {
	w := string(writeSample(t))
	for _, tc := range []struct{ old, new, want string }{
		{`<data key="witness-type">violation_witness</data>`, `<data key="witness-type">violation</data>`, "witness-type"},
		{`<data key="architecture">32bit</data>`, ``, "architecture given 0 times"},
		{`edgedefault="directed"`, `edgedefault="undirected"`, "edgedefault"},
		{`<data key="entry">true</data>`, `<data key="entry">false</data>`, "no entry node"},
		{`<data key="violation">true</data>`, ``, "no violation node"},
		{`target="N2"`, `target="N9"`, "undeclared node"},
		{`<data key="startline">7</data>`, `<data key="startline">seven</data>`, "not a line number"},
		{`<data key="assumption.resultfunction">__VERIFIER_nondet_int</data>`, ``, "without assumption.resultfunction"},
		{`<data key="creationtime">2026-11-27T03:00:00Z</data>`, `<data key="creationtime">27/11/2026</data>`, "ISO 8601"},
		{` <key attr.name="startline" attr.type="int" for="edge" id="startline"/>`, ``, "startline used but not defined"},
		{`for="node" id="violation"`, `for="edge" id="violation"`, "is for node elements"},
		{`xmlns:xsi=`, `xmlns:xs=`, "no xsi namespace"},
		{`<edge source="N0" target="N1">`, `<edge source="N1" target="N0">`, "reachable"},
	} {
		if !strings.Contains(w, tc.old) {
			t.Fatalf("the sample lacks %q", tc.old)
		}
		bad := checkWitness([]byte(strings.Replace(w, tc.old, tc.new, 1)))
		if !strings.Contains(strings.Join(bad, "\n"), tc.want) {
			t.Errorf("replacing %q: problems %q, want one with %q", tc.old, bad, tc.want)
		}
	}
}
