// Package source holds positions, files and diagnostics shared by every
// stage of birch.
//
// A Pos is a small integer into a FileSet, as in go/token: it is cheap to
// store on every AST node, IR instruction and trail step, and it is turned
// into file:line:col only when printed. Diagnostics are collected into an
// ErrorList rather than thrown; the list sorts by position, removes
// duplicates and prints each error as "file:line:col: message".
package source
