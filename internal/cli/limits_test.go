package cli

import (
	"strings"
	"testing"
)

// TestNonsenseLimits: a numeric limit with a nonsense value (NaN, Inf,
// 1e30, a fraction for a count, a negative or overflowing number) is a
// usage error (exit 2) that names the flag, never a limit silently turned
// off. The model files do not exist: a value taken for valid would fail
// on them instead, without naming the flag.
func TestNonsenseLimits(t *testing.T) {
	durations := []string{"NaN", "Inf", "+Inf", "-Inf", "infinity", "1e30", "1e400", "-1", "0", "0s", "-5s", "1e-12", "9999999999999h", "soon"}
	sizes := []string{"NaN", "Inf", "-Inf", "1e30", "1e30G", "1e19", "0.5", "0", "-1", "-1G", "0.0001K", "lots"}
	counts := []string{"NaN", "Inf", "1e30", "0.5", "1.5", "-1", "99999999999999999999", "ten"}
	type cmd struct {
		args []string // the command and its arguments, before the flag
		flag string
		vals []string
	}
	var cases []cmd
	check := []string{"check", "no-such-model.bir"}
	for _, f := range []string{"--time-limit"} {
		cases = append(cases,
			cmd{check, f, durations},
			cmd{[]string{"check", "--ltl", "[] p", "no-such-model.bir"}, f, durations},
			cmd{[]string{"smt", "no-such-script.smt2"}, f, durations},
			cmd{[]string{"spin", "no-such-model.bir"}, f, durations})
	}
	cases = append(cases, cmd{check, "--max-memory", sizes})
	for _, f := range []string{"--max-depth", "--max-states", "--max-threads", "--max-call-depth", "--max-replay", "--seed"} {
		cases = append(cases, cmd{check, f, counts})
	}
	cases = append(cases, cmd{check, "--max-threads", []string{"0", "65"}}, cmd{check, "--max-call-depth", []string{"0"}})
	for _, f := range []string{"--max-threads", "--max-call-depth"} {
		cases = append(cases,
			cmd{[]string{"replay", "no-such-model.bir", "no-such.trail"}, f, append(counts, "0")},
			cmd{[]string{"spin", "no-such-model.bir"}, f, append(counts, "0")})
	}
	cases = append(cases, cmd{[]string{"replay", "no-such-model.bir", "no-such.trail"}, "--max-threads", []string{"65"}})
	for _, f := range []string{"--steps", "--seed"} {
		cases = append(cases, cmd{[]string{"simulate", "no-such-model.bir"}, f, counts})
	}
	for _, c := range cases {
		for _, v := range c.vals {
			args := append([]string{c.args[0], c.flag + "=" + v}, c.args[1:]...)
			t.Run(strings.Join(args[:2], " "), func(t *testing.T) {
				status, _, stderr := runMain(args...)
				first, _, _ := strings.Cut(stderr, "\n")
				name := strings.TrimLeft(c.flag, "-")
				if status != ExitBadInput || !strings.Contains(first, name) {
					t.Errorf("birch %s: status %d, first line of stderr %q; want status 2 and a message about %s",
						strings.Join(args, " "), status, first, c.flag)
				}
				if (c.flag == "--time-limit" || c.flag == "--max-memory") && strings.Count(stderr, "\n") != 1 {
					t.Errorf("birch %s: stderr %q; want one line", strings.Join(args, " "), stderr)
				}
			})
		}
	}
}
