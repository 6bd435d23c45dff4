package sweepview

import (
	"context"

	tea "github.com/charmbracelet/bubbletea"
)

// Run shows the sweep in the alternate screen until q or ctrl+c (or until
// ctx ends), then stops the climb and waits for its streams to end.
func Run(ctx context.Context, opts Options) (End, error) {
	m := New(ctx, opts)
	p := tea.NewProgram(m, tea.WithAltScreen(), tea.WithoutSignalHandler())
	stop := context.AfterFunc(ctx, p.Quit)
	defer stop()
	final, err := p.Run()
	if fm, ok := final.(Model); ok {
		m = fm
	}
	m.stop()
	return End{Finished: m.finished, Interrupted: m.interrupted || ctx.Err() != nil}, err
}

// End is how a sweep on the dashboard ended: Finished when every level
// was raced or the sweep stopped where tpsrace saturated (a replay always
// is), Interrupted by ctrl+c or the end of ctx (q is a plain quit).
type End struct {
	Finished, Interrupted bool
}
