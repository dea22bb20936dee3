package cli

import "fmt"

// modelBoundsError checks the bounds of the model a command compiles
// (--max-threads, --max-call-depth); it returns "" when they are valid.
func modelBoundsError(maxThreads, maxCalls int) string {
	if maxThreads < 1 || maxThreads > 64 {
		return fmt.Sprintf("--max-threads must be between 1 and 64 (not %d)", maxThreads)
	}
	if maxCalls < 1 {
		return fmt.Sprintf("--max-call-depth must be at least 1 (not %d)", maxCalls)
	}
	return ""
}
