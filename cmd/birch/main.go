// Command birch is a software model checker with abstraction. See
// `birch help` and docs/ for its commands.
//
// For profiling birch itself, BIRCH_CPUPROFILE=FILE writes a CPU profile of
// the whole run to FILE (read it with `go tool pprof`).
package main

import (
	"fmt"
	"os"
	"runtime/pprof"

	"birch/internal/cli"
)

func main() {
	if path := os.Getenv("BIRCH_CPUPROFILE"); path != "" {
		f, err := os.Create(path)
		if err != nil {
			fmt.Fprintf(os.Stderr, "birch: BIRCH_CPUPROFILE: %v\n", err)
			os.Exit(2)
		}
		if err := pprof.StartCPUProfile(f); err != nil {
			fmt.Fprintf(os.Stderr, "birch: BIRCH_CPUPROFILE: %v\n", err)
			os.Exit(2)
		}
		code := cli.Main(os.Args[1:], os.Stdin, os.Stdout, os.Stderr)
		pprof.StopCPUProfile()
		f.Close()
		os.Exit(code)
	}
	os.Exit(cli.Main(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}
