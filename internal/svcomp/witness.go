package svcomp

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/xml"
	"fmt"
	"io"
	"regexp"
	"strconv"
	"strings"
	"time"

	"birch/internal/verify"
)

// A violation witness in SV-COMP's GraphML format 1.0 (sosy-lab's
// sv-witnesses, README-GraphML.md): an automaton whose path from the entry
// node to the violation node guides a validator along the error path.
// birch writes one edge per input the trail reads (an assumption on the
// value the __VERIFIER_nondet_ function returns, `\result == 5;` with
// assumption.resultfunction) and a last edge at the line of the violation,
// in its function, into the violation node. Lines a witness does not name
// are matched by no edge, and a validator stays in the node it is in.

// WitnessInfo is the graph data of a witness.
type WitnessInfo struct {
	Producer     string // "birch 0.1.0"
	Spec         string // the property's specification text
	ProgramFile  string // the program as given
	Program      []byte // its text (hashed)
	Architecture string // "32bit" or "64bit"
	Created      time.Time
}

// Waypoint is one edge of the witness: at Line, an assumption on the
// value returned by ResultFunction, or (Target) the violation.
type Waypoint struct {
	Line           int
	Function       string // the function the edge is in ("" if unknown)
	Assumption     string // a C expression over \result, or ""
	ResultFunction string
	Target         bool
}

// witnessKeys are the keys a witness uses: id, domain, type, default.
var witnessKeys = [][4]string{
	{"witness-format-version", "graph", "string", ""},
	{"witness-type", "graph", "string", ""},
	{"sourcecodelang", "graph", "string", ""},
	{"producer", "graph", "string", ""},
	{"specification", "graph", "string", ""},
	{"programfile", "graph", "string", ""},
	{"programhash", "graph", "string", ""},
	{"architecture", "graph", "string", ""},
	{"creationtime", "graph", "string", ""},
	{"entry", "node", "boolean", "false"},
	{"violation", "node", "boolean", "false"},
	{"assumption", "edge", "string", ""},
	{"assumption.scope", "edge", "string", ""},
	{"assumption.resultfunction", "edge", "string", ""},
	{"startline", "edge", "int", ""},
}

// WriteWitness writes a violation witness with the waypoints wps (the
// last of which should be the Target).
func WriteWitness(w io.Writer, info WitnessInfo, wps []Waypoint) error {
	var b strings.Builder
	esc := func(s string) string {
		var e strings.Builder
		xml.EscapeText(&e, []byte(s))
		return e.String()
	}
	b.WriteString("<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"no\"?>\n")
	b.WriteString("<graphml xmlns=\"http://graphml.graphdrawing.org/xmlns\" xmlns:xsi=\"http://www.w3.org/2001/XMLSchema-instance\">\n")
	for _, k := range witnessKeys {
		name := k[0]
		fmt.Fprintf(&b, " <key attr.name=\"%s\" attr.type=\"%s\" for=\"%s\" id=\"%s\"", name, k[2], k[1], name)
		if k[3] != "" {
			fmt.Fprintf(&b, ">\n  <default>%s</default>\n </key>\n", k[3])
		} else {
			b.WriteString("/>\n")
		}
	}
	sum := sha256.Sum256(info.Program)
	b.WriteString(" <graph edgedefault=\"directed\">\n")
	for _, d := range [][2]string{
		{"witness-format-version", "1.0"},
		{"witness-type", "violation_witness"},
		{"sourcecodelang", "C"},
		{"producer", info.Producer},
		{"specification", info.Spec},
		{"programfile", info.ProgramFile},
		{"programhash", hex.EncodeToString(sum[:])},
		{"architecture", info.Architecture},
		{"creationtime", info.Created.Format("2006-01-02T15:04:05Z07:00")},
	} {
		fmt.Fprintf(&b, "  <data key=\"%s\">%s</data>\n", d[0], esc(d[1]))
	}
	b.WriteString("  <node id=\"N0\">\n   <data key=\"entry\">true</data>\n  </node>\n")
	for i, wp := range wps {
		if wp.Target {
			fmt.Fprintf(&b, "  <node id=\"N%d\">\n   <data key=\"violation\">true</data>\n  </node>\n", i+1)
		} else {
			fmt.Fprintf(&b, "  <node id=\"N%d\"/>\n", i+1)
		}
		fmt.Fprintf(&b, "  <edge source=\"N%d\" target=\"N%d\">\n", i, i+1)
		if wp.Line > 0 {
			fmt.Fprintf(&b, "   <data key=\"startline\">%d</data>\n", wp.Line)
		}
		if wp.Assumption != "" {
			fmt.Fprintf(&b, "   <data key=\"assumption\">%s</data>\n", esc(wp.Assumption))
			if wp.ResultFunction != "" {
				fmt.Fprintf(&b, "   <data key=\"assumption.resultfunction\">%s</data>\n", esc(wp.ResultFunction))
			}
			if wp.Function != "" {
				fmt.Fprintf(&b, "   <data key=\"assumption.scope\">%s</data>\n", esc(wp.Function))
			}
		}
		b.WriteString("  </edge>\n")
	}
	b.WriteString(" </graph>\n</graphml>\n")
	_, err := io.WriteString(w, b.String())
	return err
}

// nondetCall finds the calls of the SV-COMP input functions in a line of C.
var nondetCall = regexp.MustCompile(`\b(__VERIFIER_nondet_[A-Za-z0-9_]+)\s*\(`)

// externChoice finds the choice of an input in a step's text.
var externChoice = regexp.MustCompile(`([A-Za-z_$][A-Za-z0-9_$]*)\s*:=\s*externChoose\(`)

// Waypoints are the witness's edges for violation v of a C program whose
// source lines are given by lineOf (file, line; "" when unknown): one
// assumption per input value of the trail whose line calls exactly one
// __VERIFIER_nondet_ function (the values a solver found for a trail
// confirmed by refinement, or the values chosen in the steps of the
// explicit search), then the target at the violation's line.
func Waypoints(v *verify.Violation, lineOf func(file string, line int) string) []Waypoint {
	var wps []Waypoint
	assume := func(pos string, value string) {
		file, line, ok := splitPos(pos)
		if !ok {
			return
		}
		calls := nondetCall.FindAllStringSubmatch(lineOf(file, line), -1)
		if len(calls) != 1 {
			return // none, or several on the line: which value is whose is not known
		}
		wps = append(wps, Waypoint{Line: line, Assumption: fmt.Sprintf("\\result == %s;", value), ResultFunction: calls[0][1]})
	}
	if len(v.Inputs) > 0 {
		for _, in := range v.Inputs {
			assume(in.Pos, strconv.FormatInt(in.Value, 10))
		}
	} else {
		for _, st := range v.Trail {
			if len(st.Source) != 1 {
				continue // an invisible run: the position is its first transformation's
			}
			m := externChoice.FindAllStringSubmatch(st.Source[0], -1)
			if len(m) != 1 {
				continue
			}
			for _, c := range st.Changes {
				if c.Name == m[0][1] || strings.HasSuffix(c.Name, "."+m[0][1]) {
					if _, err := strconv.ParseInt(c.Value, 10, 64); err == nil {
						assume(st.Pos, c.Value)
					}
					break
				}
			}
		}
	}
	target := Waypoint{Target: true, Function: functionOf(v.Location)}
	if _, line, ok := splitPos(v.Pos); ok {
		target.Line = line
	}
	return append(wps, target)
}

// functionOf is the function of a thread location ("f.loc" is in f; a
// location of the main thread's body is in main).
func functionOf(loc string) string {
	if i := strings.Index(loc, "."); i > 0 {
		return loc[:i]
	}
	return "main"
}

// splitPos splits "file:line:col" (or "file:line").
func splitPos(pos string) (file string, line int, ok bool) {
	file, line, _, ok = splitPosCol(pos)
	return file, line, ok
}

// splitPosCol splits "file:line:col" (or "file:line", column 0).
func splitPosCol(pos string) (file string, line, col int, ok bool) {
	parts := strings.Split(pos, ":")
	if len(parts) < 2 {
		return "", 0, 0, false
	}
	// file names may hold colons: line and column are the last fields
	n := len(parts)
	if l, err := strconv.Atoi(parts[n-2]); err == nil && n >= 3 {
		if c, err := strconv.Atoi(parts[n-1]); err == nil {
			return strings.Join(parts[:n-2], ":"), l, c, l > 0
		}
	}
	if l, err := strconv.Atoi(parts[n-1]); err == nil {
		return strings.Join(parts[:n-1], ":"), l, 0, l > 0
	}
	return "", 0, 0, false
}
