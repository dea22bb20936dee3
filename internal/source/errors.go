package source

import (
	"fmt"
	"io"
	"sort"
	"strings"
)

// Error is one diagnostic: a resolved position and a message.
type Error struct {
	Pos Position
	Msg string
}

// Error formats the diagnostic as file:line:col: message.
func (e *Error) Error() string {
	if e.Pos.Filename != "" || e.Pos.IsValid() {
		return e.Pos.String() + ": " + e.Msg
	}
	return e.Msg
}

// ErrorList is a list of diagnostics. Its zero value is an empty list.
type ErrorList []*Error

// Add appends a diagnostic.
func (l *ErrorList) Add(pos Position, msg string) { *l = append(*l, &Error{pos, msg}) }

// Addf appends a formatted diagnostic.
func (l *ErrorList) Addf(pos Position, format string, args ...any) {
	l.Add(pos, fmt.Sprintf(format, args...))
}

// Len, Less and Swap make the list sortable by file, line, column, message.
func (l ErrorList) Len() int      { return len(l) }
func (l ErrorList) Swap(i, j int) { l[i], l[j] = l[j], l[i] }
func (l ErrorList) Less(i, j int) bool {
	a, b := l[i].Pos, l[j].Pos
	if a.Filename != b.Filename {
		return a.Filename < b.Filename
	}
	if a.Line != b.Line {
		return a.Line < b.Line
	}
	if a.Column != b.Column {
		return a.Column < b.Column
	}
	return l[i].Msg < l[j].Msg
}

// Sort sorts the list by position.
func (l ErrorList) Sort() { sort.Stable(l) }

// RemoveMultiples sorts the list and keeps only the first error on each
// line, as go/scanner does: later errors on a line are usually consequences.
func (l *ErrorList) RemoveMultiples() {
	l.Sort()
	var last Position
	i := 0
	for _, e := range *l {
		if e.Pos.Filename != last.Filename || e.Pos.Line != last.Line || i == 0 {
			last = e.Pos
			(*l)[i] = e
			i++
		}
	}
	*l = (*l)[:i]
}

// Err returns nil for an empty list and the list itself otherwise.
func (l ErrorList) Err() error {
	if len(l) == 0 {
		return nil
	}
	return l
}

// Error summarizes the list: the first error and how many follow.
func (l ErrorList) Error() string {
	switch len(l) {
	case 0:
		return "no errors"
	case 1:
		return l[0].Error()
	}
	return fmt.Sprintf("%s (and %d more errors)", l[0], len(l)-1)
}

// Print writes every diagnostic on its own line; when max > 0 it stops after
// max of them and says how many were left out.
func Print(w io.Writer, err error, max int) {
	var list ErrorList
	switch e := err.(type) {
	case nil:
		return
	case ErrorList:
		list = e
	case *Error:
		list = ErrorList{e}
	default:
		fmt.Fprintln(w, strings.TrimRight(err.Error(), "\n"))
		return
	}
	for i, e := range list {
		if max > 0 && i == max {
			fmt.Fprintf(w, "%s: too many errors (%d more)\n", e.Pos, len(list)-max)
			return
		}
		fmt.Fprintln(w, e.Error())
	}
}
