package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"

	"github.com/mattn/go-isatty"
)

// errInterrupted: the user stopped the command (Ctrl-C, SIGTERM); what was
// measured has been written.
var errInterrupted = errors.New("interrupted")

const usage = `tpsrace races one prompt against LLM providers and shows who is fastest.

Usage:
  tpsrace [flags]          open the race dashboard
  tpsrace bench [flags]    race without the dashboard and print the leaderboard
  tpsrace sim [flags]      run the simulated OpenAI-compatible server alone
  tpsrace replay FILE      replay a recorded race (--record) with no network or keys

Run "tpsrace COMMAND -h" for a command's flags. Without providers.yaml (or
with no API key set) tpsrace races its built-in simulated providers.
`

// Main runs tpsrace with args (without the program name) and returns the
// process exit status: 0 ok, 1 failed, 2 bad flags or config, 130 interrupted.
func Main(args []string, stdout, stderr io.Writer) int {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	var err error
	switch {
	case len(args) > 0 && args[0] == "bench":
		err = (&benchCmd{}).run(ctx, args[1:], stdout, stderr)
	case len(args) > 0 && args[0] == "replay":
		err = (&replayCmd{}).run(ctx, args[1:], stdout, stderr)
	case len(args) > 0 && args[0] == "sim":
		err = (&simCmd{}).run(ctx, args[1:], stdout, stderr)
	case len(args) > 0 && (args[0] == "help" || args[0] == "-h" || args[0] == "--help"):
		fmt.Fprint(stdout, usage)
		return 0
	default:
		err = (&dashCmd{}).run(ctx, args, stdout, stderr)
	}
	if errors.Is(err, errInterrupted) {
		fmt.Fprintln(stderr, "tpsrace: interrupted")
		return 130
	}
	return exitCode(err, stderr)
}

func isTerminal(f *os.File) bool {
	return isatty.IsTerminal(f.Fd()) || isatty.IsCygwinTerminal(f.Fd())
}
