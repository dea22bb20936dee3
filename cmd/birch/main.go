// Command birch is a software model checker with abstraction. See
// `birch help` and docs/ for its commands.
package main

import (
	"os"

	"birch/internal/cli"
)

func main() {
	os.Exit(cli.Main(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}
