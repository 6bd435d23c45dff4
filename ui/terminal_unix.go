//go:build unix

package ui

import (
	"context"
	"os"
	"os/signal"
	"syscall"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/term"
)

// ownTerminal is the terminal the dashboard draws on itself: stdout, with
// keys read from stdin, or from /dev/tty when stdin is not a terminal (as
// Bubble Tea would). ok is false when stdout is not a terminal.
func ownTerminal() (t *terminal, ok bool) {
	if !term.IsTerminal(os.Stdout.Fd()) {
		return nil, false
	}
	in := os.Stdin
	if !term.IsTerminal(in.Fd()) {
		tty, err := os.Open("/dev/tty")
		if err != nil {
			return nil, false
		}
		in = tty
	}
	return &terminal{in: in, out: os.Stdout}, true
}

// watchSize sends p the terminal's size each time the window is resized
// (SIGWINCH), until ctx ends.
func (t *terminal) watchSize(ctx context.Context, p *tea.Program) {
	resized := make(chan os.Signal, 1)
	signal.Notify(resized, syscall.SIGWINCH)
	go func() {
		defer signal.Stop(resized)
		for {
			select {
			case <-ctx.Done():
				return
			case <-resized:
				if size, err := t.size(); err == nil {
					p.Send(size)
				}
			}
		}
	}()
}
