// Package sweepview is the dashboard's concurrency sweep (tpsrace --sweep
// 1,4,16,64, or a file's sweep:): each level raced in turn, every provider
// at once, and the trade-off it measures drawn as it climbs. Per provider,
// in its colour, per-user tok/s against aggregate tok/s, a point per level
// labelled C=n (the knee ◆, a level tpsrace may have bent ○); beside it
// TTFT p50 against the level (the queueing); under them the levels'
// figures with the SLO's goodput when one is set, the knees, and the sweep
// verdict (metrics.Sweep.Verdict). Presenter mode draws the trade-off
// alone, large, with each provider's knee. A recorded sweep replays here.
//
// Every figure is metrics.SweepPoint's, through benchdoc.CurvesOf, the
// same the bench table, JSON, CSV and report of the sweep show.
//
//	end, err := sweepview.Run(ctx, sweepview.Options{Config: cfg, Levels: []int{1, 4, 16, 64}, Race: race})
package sweepview

import (
	"context"

	tea "github.com/charmbracelet/bubbletea"

	"tpsrace/benchdoc"
	"tpsrace/config"
	"tpsrace/metrics"
	"tpsrace/probes"
	"tpsrace/ui/theme"
)

// Options of a sweep on the dashboard.
type Options struct {
	Config  *config.Config
	Levels  []int       // the levels asked for, rising
	Race    probes.Race // every level's race; Climb sets its Concurrency and warms it
	Runs    int         // races per level (--heats; 0: 1)
	Record  func(results [][]probes.Result)
	Present bool
	Palette theme.Palette
	// Raced, for a replay: the recorded levels, shown as the sweep ended
	// (Stopped: why it stopped climbing, benchdoc.Stop); nothing is raced.
	Raced   []benchdoc.Level
	Stopped string
}

// Model is the sweep view.
type Model struct {
	opts        Options
	styles      Styles
	raced       []benchdoc.Level
	sweep       metrics.Sweep
	level       levelStartMsg // the level in flight; streams 0 before the first
	done        int           // of its streams, those that ended
	finished    bool
	interrupted bool // by ctrl+c
	width       int
	height      int
	charts      string // drawn once per level and size: a chart restyles every cell
	in          <-chan tea.Msg
	cancel      context.CancelFunc
}

// New is the sweep view of opts; the sweep starts with Init (a replay's
// is already over).
func New(ctx context.Context, opts Options) Model {
	m := Model{opts: opts, styles: DefaultStyles(opts.Palette), cancel: func() {}}
	if opts.Raced != nil {
		m.raced, m.finished = opts.Raced, true
		m.sweep = benchdoc.CurvesOf(opts.Config, opts.Raced, opts.Stopped)
		return m
	}
	m.sweep = benchdoc.CurvesOf(opts.Config, nil, "")
	ctx, m.cancel = context.WithCancel(ctx)
	in := make(chan tea.Msg, 64)
	m.in = in
	go climb(ctx, opts, in)
	return m
}

// Init waits for the climb's first message.
func (m Model) Init() tea.Cmd {
	if m.in == nil {
		return nil
	}
	return listen(m.in)
}

// Update takes the climb's messages, the window's size and the keys.
func (m Model) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		m.width, m.height = msg.Width, msg.Height
		m.draw()
		return m, nil
	case tea.KeyMsg:
		switch msg.String() {
		case "q", "ctrl+c", "esc":
			m.interrupted = msg.String() == "ctrl+c"
			m.cancel()
			return m, tea.Quit
		}
		return m, nil
	case levelStartMsg:
		m.level, m.done = msg, 0
	case progressMsg:
		m.done = max(m.done, msg.done)
	case levelDoneMsg:
		m.raced = append(m.raced, msg.level)
		m.sweep = benchdoc.CurvesOf(m.opts.Config, m.raced, "")
		m.draw()
	case sweepDoneMsg:
		m.finished = true
		m.sweep = benchdoc.CurvesOf(m.opts.Config, m.raced, msg.stopped)
		m.draw()
		return m, nil
	default:
		return m, nil
	}
	return m, listen(m.in)
}

// Finished is whether every level asked for was raced, or the sweep
// stopped climbing where tpsrace saturated: not cut short by a quit.
func (m Model) Finished() bool { return m.finished }

// Sweep is the sweep's figures so far.
func (m Model) Sweep() metrics.Sweep { return m.sweep }

// stop ends the climb, if it still runs, and waits for its goroutine.
func (m Model) stop() {
	m.cancel()
	if m.in != nil {
		for range m.in {
		}
	}
}
