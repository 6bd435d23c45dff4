package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"syscall"

	"github.com/mattn/go-isatty"

	"tpsrace/safetext"
)

// errInterrupted: the user stopped the command (Ctrl-C, SIGTERM); what was
// measured has been written.
var errInterrupted = errors.New("interrupted")

// Main runs tpsrace with args (without the program name) and returns the
// process exit status: 0 ok, 1 failed, 2 bad flags or config, 130 interrupted.
func Main(args []string, stdout, stderr io.Writer) int {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	// Notices and errors quote what providers and files say: nothing in them
	// may act on the terminal.
	stderr = safetext.Writer{W: stderr}
	var err error
	switch {
	case len(args) > 0 && args[0] == "bench":
		err = (&benchCmd{}).run(ctx, args[1:], stdout, stderr)
	case len(args) > 0 && args[0] == "watch":
		err = (&watchCmd{}).run(ctx, args[1:], stdout, stderr)
	case len(args) > 0 && args[0] == "report":
		err = (&reportCmd{}).run(ctx, args[1:], stdout, stderr)
	case len(args) > 0 && args[0] == "check":
		err = (&checkCmd{}).run(ctx, args[1:], stdout, stderr)
	case len(args) > 0 && args[0] == "replay":
		err = (&replayCmd{}).run(ctx, args[1:], stdout, stderr)
	case len(args) > 0 && args[0] == "merge":
		err = (&mergeCmd{}).run(args[1:], stdout, stderr)
	case len(args) > 0 && args[0] == "sim":
		err = (&simCmd{}).run(ctx, args[1:], stdout, stderr)
	case len(args) > 0 && (args[0] == "version" || args[0] == "--version" || args[0] == "-version"):
		version(stdout)
		return 0
	case len(args) > 0 && args[0] == "help":
		err = help(strings.Join(args[1:], " "), stdout)
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
