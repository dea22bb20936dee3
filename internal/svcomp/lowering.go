package svcomp

import (
	"strings"

	cfront "birch/internal/frontend/c"
)

// ConfigureLowering sets the lowering's property positions for p: the
// error function's calls (unreach-call), the label (unreach-label), or
// the signed-overflow checks (no-overflow). src is the program's text.
func ConfigureLowering(cfg *cfront.Config, p *Property, src []byte) {
	switch p.Kind {
	case UnreachCall:
		cfg.ErrorFunctions, cfg.ErrorLabels = []string{p.Function}, []string{}
		if src != nil && !Mentions(src, p.Function) {
			// a program that never names the error function: its ERROR
			// label and the old error function __VERIFIER_error, which
			// CPAchecker's tests take for the property, are checked too,
			// and reaching one makes the answer unknown (Decide)
			cfg.ErrorFunctions = append([]string{p.Function}, cfront.DefaultErrorFunctions...)
			cfg.ErrorLabels = nil
		}
	case UnreachLabel:
		// with the default error functions, which a task of labels may
		// call: their calls are not the property, Decide tells them apart
		cfg.ErrorLabels = []string{p.Label}
	case NoOverflow:
		cfg.OverflowError, cfg.ErrorLabels = true, []string{}
	}
}

// SameModel reports whether two lowerings of a program are the same model
// (the same text but for the comment naming the data model): then its
// answer does not depend on the data model.
func SameModel(a, b []byte) bool {
	strip := func(t []byte) string {
		var keep []string
		for _, l := range strings.Split(string(t), "\n") {
			if !strings.HasPrefix(l, "// ") || !strings.Contains(l, "lowered from C by birch") {
				keep = append(keep, l)
			}
		}
		return strings.Join(keep, "\n")
	}
	return strip(a) == strip(b)
}
