package verify

import (
	"birch/internal/backend/promela"
	"birch/internal/bir/types"
	"birch/internal/model"
)

// PromelaProperties chooses what a translation to Promela (birch
// translate --to promela) checks, with the selection birch check and birch
// spin read: the invariants chosen (a monitor process), and the ltl
// properties named by the selection (--property, --ltl, --pattern) as ltl
// blocks. Without a selection the translation has every invariant and no
// ltl block (pan checks one claim at a time; birch spin makes one
// translation per ltl property). It returns the program to translate,
// which has a formula of the command line inserted.
//
// A model with a choice among more values than explicit search enumerates
// (model.UnboundedChoices) is not translated: its error is a
// *model.UnboundedChoiceError, an inconclusive outcome rather than bad
// input (SPIN would enumerate the values as birch does).
func PromelaProperties(in *Input, sel Selection) (*types.Program, promela.Options, error) {
	if cs := model.UnboundedChoices(in.Prog, 0); cs != nil {
		return nil, promela.Options{}, &model.UnboundedChoiceError{Choices: cs, Max: 1 << 20}
	}
	pl, err := makePlan(&Task{Input: in, Select: sel})
	if err != nil {
		return nil, promela.Options{}, err
	}
	var opts promela.Options
	if len(pl.invariants) == 0 {
		opts.NoInvariants = true
	} else {
		opts.Invariants = pl.invariants
	}
	selected := len(sel.Names) > 0 || sel.LTL != "" || sel.Pattern != ""
	prog := in.Prog
	if selected {
		for _, p := range pl.ltl {
			opts.Formulas = append(opts.Formulas, promela.Formula{Name: p.Name, Spec: p.spec})
			prog = p.in.Prog
		}
	}
	return prog, opts, nil
}
