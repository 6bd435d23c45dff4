package ui

import (
	"context"
	"slices"
	"sync"

	tea "github.com/charmbracelet/bubbletea"
)

// preparedMsg says Options.Prepare has returned with what it found, one
// result per provider, for the model to apply.
type preparedMsg struct{ results []Prepared }

// preparation is Options.Prepare running in the background. Its progress
// can come many times a second: only the newest message of each provider
// is kept, and the frame tick reads it.
type preparation struct {
	ctx    context.Context
	cancel context.CancelFunc
	done   chan struct{} // closed once Prepare has returned

	mu     sync.Mutex
	began  bool     // Prepare was called: stop must wait for it
	latest []string // provider index → newest progress message, "" for none
}

func newPreparation(ctx context.Context, providers int) *preparation {
	ctx, cancel := context.WithCancel(ctx)
	return &preparation{ctx: ctx, cancel: cancel, done: make(chan struct{}), latest: make([]string, providers)}
}

// run calls prepare; it is the command Init returns. A preparation stopped
// before its command ran never calls prepare.
func (p *preparation) run(prepare func(ctx context.Context, progress func(provider int, msg string)) []Prepared) tea.Cmd {
	return func() tea.Msg {
		p.mu.Lock()
		if p.ctx.Err() != nil {
			p.mu.Unlock()
			return nil
		}
		p.began = true
		p.mu.Unlock()
		defer close(p.done)
		defer p.cancel()
		return preparedMsg{results: prepare(p.ctx, p.report)}
	}
}

// report keeps msg as provider i's newest progress.
func (p *preparation) report(i int, msg string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if i >= 0 && i < len(p.latest) {
		p.latest[i] = msg
	}
}

// progress is every provider's newest message.
func (p *preparation) progress() []string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return slices.Clone(p.latest)
}

// stop cancels Prepare and waits until it has returned, so that nothing it
// starts outlives the dashboard unnoticed.
func (p *preparation) stop() {
	p.cancel()
	p.mu.Lock()
	began := p.began
	p.mu.Unlock()
	if began {
		<-p.done
	}
}
