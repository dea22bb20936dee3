package cli

import (
	"flag"
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"birch/internal/source"
)

// quote quotes a user's input for a message, at most source.MaxExcerpt
// characters of it.
func quote(s string) string { return strconv.Quote(source.Excerpt(s)) }

// The messages of package flag, which usageError rewrites.
var (
	undefinedFlagRE = regexp.MustCompile(`^flag provided but not defined: -(.*)$`)
	needsValueRE    = regexp.MustCompile(`^flag needs an argument: -(.*)$`)
	badValueRE      = regexp.MustCompile(`(?s)^invalid (?:boolean )?value (".*") for (?:flag )?-([^:]*): (.*)$`)
	badSyntaxRE     = regexp.MustCompile(`(?s)^bad flag syntax: (.*)$`)
)

// usageError turns an error of package flag into a short message in
// birch's terms: the flag as --name, at most an excerpt of the value, and
// for an unknown flag the closest one the command has.
func usageError(err error, fs *flag.FlagSet) string {
	msg := err.Error()
	if m := undefinedFlagRE.FindStringSubmatch(msg); m != nil {
		var names []string
		fs.VisitAll(func(f *flag.Flag) { names = append(names, f.Name) })
		return "unknown flag " + quote("--"+m[1]) + didYouMean(m[1], names, "--")
	}
	if m := needsValueRE.FindStringSubmatch(msg); m != nil {
		return "--" + source.Excerpt(m[1]) + " needs a value"
	}
	if m := badValueRE.FindStringSubmatch(msg); m != nil {
		v, uerr := strconv.Unquote(m[1])
		if uerr != nil {
			v = m[1]
		}
		why := m[3]
		switch why {
		case "parse error":
			why = "not a number"
		case "value out of range":
			why = "out of range"
		}
		if f := fs.Lookup(m[2]); f != nil {
			if _, variant := f.Value.(*amcsFlag); !variant && isBoolFlag(f.Value) {
				// (--amcs is bare or names its variant: its own message)
				why = "want true or false"
			}
		}
		return fmt.Sprintf("--%s: invalid value %s: %s", m[2], quote(v), why)
	}
	if m := badSyntaxRE.FindStringSubmatch(msg); m != nil {
		return "bad flag syntax: " + quote(m[1])
	}
	return source.Excerpt(msg)
}

// didYouMean returns " (did you mean PREFIX+NAME?)" for the candidate
// closest to name, or "" when none is close: an edit distance of at most a
// third of the name's length (at least 1, at most 3), or else the only
// candidate that name is a prefix of.
func didYouMean(name string, candidates []string, prefix ...string) string {
	if len(name) > 100 {
		return ""
	}
	best, bestD := "", len(name)/3
	bestD = max(1, min(3, bestD))
	for _, c := range candidates {
		if d := editDistance(name, c); d <= bestD && (best == "" || d < editDistance(name, best)) {
			best = c
		}
	}
	if best == "" && name != "" {
		for _, c := range candidates {
			if strings.HasPrefix(c, name) {
				if best != "" {
					return "" // ambiguous
				}
				best = c
			}
		}
	}
	if best == "" {
		return ""
	}
	return " (did you mean " + strings.Join(prefix, "") + best + "?)"
}

// editDistance is the optimal string alignment distance of a and b: the
// insertions, deletions, substitutions and swaps of adjacent bytes that
// turn a into b.
func editDistance(a, b string) int {
	prev2 := make([]int, len(b)+1)
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && a[i-1] == b[j-2] && a[i-2] == b[j-1] {
				cur[j] = min(cur[j], prev2[j-2]+1)
			}
		}
		prev2, prev, cur = prev, cur, prev2
	}
	return prev[len(b)]
}

// isBoolFlag reports whether v is a boolean flag's value.
func isBoolFlag(v flag.Value) bool {
	b, ok := v.(interface{ IsBoolFlag() bool })
	return ok && b.IsBoolFlag()
}
