package source

import "unicode/utf8"

// MaxExcerpt is how many characters of a user's input a message quotes at
// most (a name, a token, a flag value, a formula).
const MaxExcerpt = 60

// Excerpt returns s, or its first MaxExcerpt characters followed by "…"
// when it is longer, so that a message about a megabyte-long name stays
// one readable line. Invalid UTF-8 is kept as it is.
func Excerpt(s string) string { return ExcerptN(s, MaxExcerpt) }

// ExcerptN is Excerpt with at most max characters.
func ExcerptN(s string, max int) string {
	if len(s) <= max || utf8.RuneCountInString(s) <= max {
		return s
	}
	n := 0
	for i := range s {
		if n == max {
			return s[:i] + "…"
		}
		n++
	}
	return s
}
