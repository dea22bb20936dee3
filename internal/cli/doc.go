// Package cli implements the birch command line: one file per subcommand,
// and the only place where flags are parsed.
//
// Main dispatches `birch CMD [flags] args…` and returns the exit status that
// the whole project uses (ARCHITECTURE.md):
//
//	0  no violation and a complete search (for vet: the model is well formed)
//	1  a violation was found
//	2  bad input or usage (diagnostics on stderr as file:line:col: message)
//	3  inconclusive (a limit, a bound, or an unknown answer)
//
// Nothing in birch imports this package.
package cli
