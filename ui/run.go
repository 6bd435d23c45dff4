// Package ui is the race dashboard: `tpsrace` with no subcommand. One
// prompt races every provider at the same instant; each gets a lane with
// its answer streaming in and its live figures, a leaderboard ranks them
// live and settles with a verdict, and a chart compares their speeds.
//
//	err := ui.Run(ctx, ui.Options{Config: cfg, Concurrency: 1, SaveDir: ".", Save: saveJSON(0)})
//
// Probes never wait on the dashboard: a race writes its updates to a large
// buffered channel, a relay drains it continuously and hands the program
// one batch per frame (20 a second). Every figure comes from package
// metrics, through package live.
package ui

import (
	"context"
	"errors"
	"fmt"
	"os"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/muesli/termenv"
)

// ErrInterrupted is Run's error when ctrl+c or the end of ctx (a signal)
// stopped the dashboard; q is a plain quit. Either way the race in flight
// is kept, marked interrupted, in Options.RecordPath.
var ErrInterrupted = errors.New("interrupted")

// SetUpTerminal decides the colours before a program takes the terminal:
// none under NO_COLOR, and the background asked of the terminal now, since
// once a program reads the input its answer would arrive as keys. Run
// calls it; so does a program of its own (ui/sweepview) before its palette.
func SetUpTerminal() {
	if os.Getenv("NO_COLOR") != "" {
		lipgloss.SetColorProfile(termenv.Ascii)
	}
	lipgloss.SetHasDarkBackground(lipgloss.HasDarkBackground())
}

// Run shows the dashboard in the alternate screen until q or ctrl+c (or
// until ctx ends), then cancels every stream, waits for them to end,
// restores the terminal and writes Options.RecordPath a last time.
func Run(ctx context.Context, opts Options) error {
	SetUpTerminal()

	// Signals are the caller's: ctx ends on SIGINT/SIGTERM and quits the
	// program. Bubble Tea's own handler would race it, and having lost, block
	// for ever sending its QuitMsg to a program that has stopped reading
	// (bubbletea v1.3.10, tea.go handleSignals), so that Run never returns.
	p, leave, err := newProgram(ctx, newModel(ctx, opts), tea.WithoutSignalHandler())
	if err != nil {
		return err
	}
	defer leave()
	stop := context.AfterFunc(ctx, p.Quit)
	defer stop()
	final, err := p.Run()
	leave() // before the streams are waited for, as Bubble Tea's renderer left
	if o, ok := final.(onTerminal); ok {
		final = o.Model
	}
	m, ok := final.(Model)
	if !ok {
		return err
	}
	if rerr := m.shutdown(); rerr != nil && err == nil {
		err = fmt.Errorf("recording %s: %w", opts.RecordPath, rerr)
	}
	if err == nil && (ctx.Err() != nil || m.c.interrupted) {
		err = ErrInterrupted
	}
	return err
}

// newProgram is the program that shows m: drawn on the terminal by the
// dashboard itself where it can be (terminal.go), by Bubble Tea's renderer
// otherwise. leave gives the terminal back, once however often it is
// called; Run defers it too, for the way out of a panic in Update or View,
// and the commands are guarded (terminal.guard): Bubble Tea is told not to
// catch panics, since it would print its report inside the alternate
// screen, where leaving erases it.
func newProgram(ctx context.Context, m Model, opts ...tea.ProgramOption) (p *tea.Program, leave func(), err error) {
	t, ok := ownTerminal()
	if !ok {
		// The renderer flushes on its own ticker, and the first frame waits
		// for its first tick: at 60 ticks a second (Bubble Tea's default;
		// the model still draws 20 frames a second, FrameInterval) it shows
		// about 30 ms sooner than at 20.
		opts = append(opts, tea.WithAltScreen(), tea.WithMouseCellMotion(), tea.WithFPS(60))
		return tea.NewProgram(m, opts...), func() {}, nil
	}
	size, err := t.size()
	if err != nil {
		return nil, nil, fmt.Errorf("the terminal's size: %w", err)
	}
	if err := t.enter(); err != nil {
		return nil, nil, fmt.Errorf("the terminal: %w", err)
	}
	// The first frame is composed before the program starts, its size
	// known, and drawn by the program's first View.
	m = apply(m, size)
	opts = append(opts, tea.WithoutRenderer(), tea.WithoutCatchPanics(), tea.WithInput(t.in))
	p = tea.NewProgram(onTerminal{Model: m, t: t}, opts...)
	watching, stop := context.WithCancel(ctx)
	t.watchSize(watching, p)
	return p, func() { stop(); t.leave() }, nil
}
