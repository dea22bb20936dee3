// Package procgroup starts birch's external tools — spin, gcc and pan for
// birch spin, z3 and cvc5 as solvers — each in a process group of its own,
// so that a limit or Ctrl-C can stop a tool together with everything it
// started (gcc's cc1, as and ld; a solver's helpers) by signalling the
// group, without signalling birch itself.
//
// A process outside birch's group no longer receives the terminal's
// Ctrl-C. So that a tool never outlives birch when birch is killed before
// it could stop the tool (Ctrl-C in a command that does not catch it,
// SIGKILL), Attr also asks Linux to kill the tool when birch dies
// (Pdeathsig). Linux sends that signal when the thread that started the
// tool exits; the Go runtime ends a thread only when a goroutine locked to
// it (runtime.LockOSThread) returns, which birch's code that starts tools
// never does.
package procgroup
