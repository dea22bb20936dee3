package cli

import (
	"strings"

	"birch/internal/verify"
)

// inCTerms words the violations of a C program's checks in C terms
// (cfront.Output.Describe: "reach_error() called" for "assertion
// violated: false"): the message, the reason and the trail's failing
// step; the model's message stays in ModelMessage.
func inCTerms(res *verify.Result, in *verify.Input) {
	if res == nil || in == nil || in.C == nil {
		return
	}
	inTerms(res, in.C.Describe)
}

// inTerms words the violations of res by describe (a front end's
// Output.Describe), as inCTerms.
func inTerms(res *verify.Result, describe func(pos, msg string) string) {
	for _, c := range res.Checks {
		v := c.Violation
		if v == nil || v.ModelMessage != "" {
			continue
		}
		text := describe(v.Pos, v.Message)
		if text == "" {
			continue
		}
		c.Reason = strings.Replace(c.Reason, v.Message, text, 1)
		for i := range v.Trail {
			if v.Trail[i].Msg == v.Kind+": "+v.Message {
				v.Trail[i].Msg = v.Kind + ": " + text
			}
		}
		v.ModelMessage, v.Message = v.Message, text
	}
}

// replayInCTerms words the violation a replay of a C program's trail
// ends in in C terms, as inCTerms does.
func replayInCTerms(r *verify.Replay, in *verify.Input) {
	if in == nil || in.C == nil {
		return
	}
	replayInTerms(r, in.C.Describe)
}

// replayInTerms words the violation a replay ends in by describe, as
// replayInCTerms.
func replayInTerms(r *verify.Replay, describe func(pos, msg string) string) {
	if r == nil || r.Violation == nil || len(r.Steps) == 0 {
		return
	}
	v := r.Violation
	last := &r.Steps[len(r.Steps)-1]
	pos := v.Pos
	if pos == "" {
		pos = last.Pos
	}
	text := describe(pos, v.Message)
	if text == "" {
		return
	}
	if last.Msg == v.Kind+": "+v.Message {
		last.Msg = v.Kind + ": " + text
	}
	v.ModelMessage, v.Message = v.Message, text
}
