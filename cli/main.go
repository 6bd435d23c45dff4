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
	"tpsrace/ui"
)

// errInterrupted: the user stopped the command (Ctrl-C, SIGTERM); what was
// measured has been written. The dashboard's is the same error.
var errInterrupted = ui.ErrInterrupted

// Main runs tpsrace with args (without the program name) and returns the
// process exit status: 0 ok, 1 failed, 2 bad flags or config, 130 interrupted.
func Main(args []string, stdout, stderr io.Writer) int {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	// Notices and errors quote what providers and files say: nothing in them
	// may act on the terminal.
	stderr = safetext.Writer{W: stderr}
	var err error
	name := ""
	if len(args) > 0 {
		name = args[0]
	}
	switch cmd, ok := findCommand(name); {
	case ok:
		err = cmd.run(ctx, args[1:], stdout, stderr)
	case name == "--version" || name == "-version":
		version(stdout)
		return 0
	case name == "" || strings.HasPrefix(name, "-"):
		err = (&dashCmd{}).run(ctx, args, stdout, stderr)
	default:
		err = unknownCommand(name)
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
