package cli

import (
	"fmt"
	"io"
	"strings"

	"birch/internal/verify"
)

// Rendering of birch spin's result: birch check's report (render.go,
// render_check.go), with SPIN's details in each check run by SPIN: the
// assertion pan found violated, the notes on its trail, where its files
// were kept, the times of its phases, and the JSON "spin" object.

// renderSpin prints the result of birch spin and returns the exit status.
func renderSpin(e *env, o *checkOptions, res *verify.Result) int {
	if c := res.Deciding(); c != nil && c.Violation != nil && c.Violation.Ordinals == nil {
		// SPIN's trail is not one of birch's: nothing to save, which
		// the check's note says
		co := *o
		co.trail = ""
		o = &co
	}
	return renderResult(e, o, res)
}

// jsonSpin is the "spin" object of a check run by SPIN.
type jsonSpin struct {
	StatesMatched    int64    `json:"states_matched"`
	VectorBytes      int      `json:"vector_bytes"`
	TranslateSeconds float64  `json:"translate_seconds"`
	SpinSeconds      float64  `json:"spin_seconds"`
	CompileSeconds   float64  `json:"compile_seconds"`
	PanSeconds       float64  `json:"pan_seconds"`
	CFlags           []string `json:"cflags"`
	PanArgs          []string `json:"pan_args"`
	Assertion        string   `json:"assertion,omitempty"`
	Note             string   `json:"note,omitempty"`
}

// spinDoc is the "spin" object of a check, nil for a check SPIN did not
// run.
func spinDoc(s *verify.SpinInfo) *jsonSpin {
	if s == nil {
		return nil
	}
	return &jsonSpin{
		StatesMatched: s.StatesMatched, VectorBytes: s.VectorBytes,
		TranslateSeconds: round(s.TranslateSeconds, 6), SpinSeconds: round(s.SpinSeconds, 6),
		CompileSeconds: round(s.CompileSeconds, 6), PanSeconds: round(s.PanSeconds, 6),
		CFlags: s.CFlags, PanArgs: s.PanArgs, Assertion: s.Assertion, Note: s.Note,
	}
}

// printSpinTail ends the text report of a check run by SPIN: where its
// files were kept, and the times line: each phase's time and the flags of
// gcc and pan ("not run" for a tool a limit stopped birch spin before).
func printSpinTail(w io.Writer, s *verify.SpinInfo) {
	if s.Kept != "" {
		fmt.Fprintf(w, "SPIN's files are in %s\n", s.Kept)
	}
	flags := func(fs []string) string {
		if len(fs) == 0 {
			return "not run"
		}
		return strings.Join(fs, " ")
	}
	fmt.Fprintf(w, "times: translation %.3f s, spin -a %.3f s, gcc %.3f s, pan %.3f s (gcc %s; pan %s)\n",
		s.TranslateSeconds, s.SpinSeconds, s.CompileSeconds, s.PanSeconds, flags(s.CFlags), flags(s.PanArgs))
}
