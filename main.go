// Command tpsrace races one prompt against several LLM providers at the same
// instant and shows, live, who is fastest. See README.md.
package main

import (
	"os"

	"tpsrace/cli"
)

func main() { os.Exit(cli.Main(os.Args[1:], os.Stdout, os.Stderr)) }
