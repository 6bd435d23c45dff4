package ui

import (
	"cmp"
	"context"
	"io"
	"slices"
	"strings"
	"time"

	"github.com/charmbracelet/bubbles/help"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"

	"tpsrace/config"
	"tpsrace/probes"
	"tpsrace/ui/lane"
	"tpsrace/ui/leaderboard"
	"tpsrace/ui/llamastats"
	"tpsrace/ui/speedchart"
	"tpsrace/ui/theme"
	"tpsrace/ui/workloadview"
)

// Options configure the dashboard. The dashboard never writes them.
type Options struct {
	Config      *config.Config // prompt, max tokens, providers; their sim: models label the header
	Concurrency int            // streams per provider (default 1); `c` cycles 1→4→16→64
	Retries     int            // retries allowed before a stream's first byte
	Warm        bool           // open every connection before each release (--warm, probes.Race.Warm)
	SaveDir     string         // where `s` writes results ("." by default)
	Theme       theme.Name     // the palette (--theme); Auto picks dark or light by the terminal's background
	// Present is presenter mode (--present): a 3-2-1 countdown before each
	// release, big tok/s per provider, a podium at the end; provider names
	// only (no model IDs, base URLs or error details); high contrast unless
	// Theme says otherwise.
	Present bool
	// FinishAt is the race track's finish line in per-user tokens; 0:
	// max_tokens (live.FinishLine). Set, the leaderboard ranks by the time
	// to FinishAt tokens (--finish-at).
	FinishAt int
	// Prepare, when set, readies local servers (llama.cpp) in the background
	// before the first race. It may call progress(i, msg) from its own
	// goroutine as often as it likes; provider i's lane shows the newest msg
	// ("loading model… 3.2s") until Prepare returns, the others wait. It
	// returns what it found, one Prepared per provider: the dashboard
	// applies it to its own copy of the providers. Its ctx ends when the
	// user quits.
	Prepare func(ctx context.Context, progress func(provider int, msg string)) []Prepared
	// Save writes the finished races, races[run][provider][stream].
	Save func(w io.Writer, cfg *config.Config, concurrency int, races [][][]probes.Result, interrupted bool) error
	// Record, when set, writes a recording of the same races to path: `s`
	// writes it beside the JSON (.tpsr), and RecordPath, when set, is
	// rewritten after every finished race (--record).
	Record     func(path string, cfg *config.Config, concurrency int, races [][][]probes.Result, interrupted bool) error
	RecordPath string
	// Source, when set, is where each race's events come from instead of a
	// live race over HTTP (a recording replayed): it gets the race the
	// dashboard would run (ready providers, prompt, concurrency).
	Source func(race probes.Race) Source
	// Replay, when set, shows a recorded race instead of racing: its Source,
	// its keys (pause, scrub, speed) and REPLAY in the header.
	Replay *Replay
	// Heats, above 1, races the first Heats races back to back (--heats N)
	// and says the verdict over them (the bench verdict) after each.
	Heats int
	// StartAt, when set, releases the first race at this wall-clock
	// instant (--start-at; probes.Race.StartAt); races after it start at once.
	StartAt time.Time
	// Note is one more part of the header, as the caller words it (the
	// release instant and the clock's discipline; a merged race's start skew).
	Note string
}

// Prepared is what Options.Prepare found for one provider.
type Prepared struct {
	BaseURL string // where its server listens; "" keeps the config's
	Detail  string // its on-box hardware line, shown in its lane
	Slots   int    // its server's slots (llama.cpp): more users than that queue, and the lane says so
	Err     error  // why it cannot race; nil when ready
	// Box is what its memory roofline rests on (llama.cpp on this machine); nil for none.
	Box *config.Box
}

// common is what the root model and its children share: the options and
// what New derived from them, the run's context, the window and its
// layout, the styles, keys and help. One per dashboard, behind a pointer:
// the children read the same window size the root sets.
type common struct {
	opts    Options
	config  *config.Config           // opts.Config, or an empty one
	source  func(probes.Race) Source // opts.Source, the replay's, or a live race
	ctx     context.Context          // Run's: every race runs under it (Update takes none)
	clients *probes.Clients          // every race's HTTP clients, closed at shutdown
	styles  Styles
	paint   paints // the styles the header draws with every frame
	keys    KeyMap
	help    help.Model
	width   int
	height  int
	layout  Layout
	cast    bool // drawn for a recording (WriteCast): no key can be pressed, so none is shown

	recorder    recorder // the writes of opts.RecordPath
	interrupted bool     // quit by ctrl+c: Run says ErrInterrupted, as for a signal
}

// saveDir is where `s` writes.
func (c *common) saveDir() string { return cmp.Or(c.opts.SaveDir, ".") }

// state is what the screen shows.
type state int

const (
	stateGrid   state = iota // every lane, the leaderboard and the chart (presenter mode: the stage)
	stateZoom                // one lane, the whole of its answer
	stateEditor              // the prompt editor
	stateHelp                // every key, over the state help was opened from
)

// Messages of the root model.
type (
	raceAgainMsg struct{}
	frameMsg     struct{ tick int }
	savedMsg     struct {
		path string
		err  error
	}
)

// Model is the dashboard, written as glow writes its root: shared context
// in common, what the screen shows in a state, and children in their own
// files for the modes that have their own keys or screen: the prompt
// editor (editor.go), a replay's clock and keys (replay.go) and presenter
// mode's stage (present.go). The session holds the races; the model starts
// them, turns their messages into the session's records and draws. All
// drawing happens in Update (on each of a race's batches, which come one a
// frame, on the frame tick while Prepare runs, on resize and on state
// changes) into a cached screen that View returns (view.go).
type Model struct {
	c *common

	state state
	back  state // the state help returns to

	s     *session
	races races        // the race on screen and the cancelled ones winding down
	prep  *preparation // Options.Prepare running; nil without it

	focus selection // the focused lane, if any
	zoom  int       // the zoomed lane in stateZoom
	lanes []lane.Model
	board leaderboard.Model
	chart speedchart.Model
	panel workloadview.Model // the workload's run: TTFT by size, cold vs warm, turns
	// The two large children, the editor's text area (12 kB) and the stats
	// line's styles (2 kB), are held by pointer: Bubble Tea copies the root
	// model to the heap after every message (Update returns it as a
	// tea.Model), 40 or more times a second mid-race.
	stats *llamastats.Model // the zoomed llama.cpp lane's /metrics line (serverstats.go)

	tick   int // the live frame-tick chain (while Prepare runs); others are dropped
	paused bool

	editor  *promptEditor
	replay  *replayer  // nil unless Options.Replay
	present *presenter // nil unless Options.Present

	footer footer // the message and the keys line
	drawn  drawn  // what resizes and state changes draw, and the screen
}

// drawn is what the model draws on resizes and state changes, and the screen.
type drawn struct {
	skipped string     // the skipped-providers line, "" for none
	strips  []int      // by lane: the lines it takes as a strip, 0 in the grid (relayout)
	pages   [][]string // the help pages, in stateHelp
	helpAt  int        // the help page shown
	rows    []string   // the screen, a row each; a frame makes a new slice, so one drawn stays as it was
}

// New is the dashboard for opts, for Run or for a test program.
func New(opts Options) Model { return newModel(context.Background(), opts) }

// Palette is the palette the dashboard draws with under these options, on
// lipgloss's background and colour profile: presenter mode's is high
// contrast unless a theme was asked for.
func (opts Options) Palette() theme.Palette {
	name := opts.Theme
	if opts.Present && name == theme.Auto {
		name = theme.HighContrast
	}
	return theme.New(name, lipgloss.HasDarkBackground(), lipgloss.ColorProfile())
}

func newModel(ctx context.Context, opts Options) Model {
	c := &common{opts: opts, config: opts.Config, source: opts.Source, ctx: ctx, clients: &probes.Clients{}, keys: DefaultKeyMap()}
	if c.config == nil {
		c.config = &config.Config{}
	}
	c.styles = DefaultStyles(opts.Palette())
	c.paint = newPaints(c.styles)
	c.help = help.New()
	c.help.Styles = c.styles.Help
	m := Model{c: c, s: newSession(c.config, opts.Concurrency, opts.Prepare != nil), editor: newPromptEditor(c),
		stats: new(llamastats.New(c.styles.Stats))}
	m.s.finishAt, m.s.unsaved = opts.FinishAt, opts.Replay != nil && opts.Replay.Cut
	if opts.Replay != nil {
		m.replay = newReplayer(c, opts.Replay)
		m.s.history, m.s.historyPrompt, m.s.historyConc = slices.Clone(opts.Replay.Before), m.s.prompt, m.s.concurrency
		if c.source == nil {
			c.source = m.replay.source
		}
	}
	if c.source == nil {
		c.source = func(r probes.Race) Source { return liveRace{r} }
	}
	if opts.Present {
		m.present = newPresenter(c)
	}
	if opts.Prepare != nil {
		m.prep = newPreparation(ctx, len(c.config.Providers))
	}
	m.newPanes() // empty lanes until Init's race starts
	return m
}

// Init starts the first race, or Prepare, whose end starts it.
func (m Model) Init() tea.Cmd {
	if m.s.phase == phasePreparing {
		return tea.Batch(m.prep.run(m.c.opts.Prepare), m.nextFrame())
	}
	return func() tea.Msg { return raceAgainMsg{} }
}

// View is the screen drawn by the last Update. The dashboard's own
// terminal takes its rows instead (onTerminal), unjoined.
func (m Model) View() string { return strings.Join(m.drawn.rows, "\n") }

// Update handles the race's messages, the frame tick, keys, mouse and resizes.
func (m Model) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		m.c.width, m.c.height = msg.Width, msg.Height
		m.relayout()
		m.refresh()
	case raceAgainMsg:
		return m, m.startRace()
	case countdownMsg:
		if m.present == nil || msg.race != m.s.id || m.s.phase != phaseCountdown {
			return m, nil
		}
		if msg.left == 0 {
			return m, m.release()
		}
		cmd := m.present.Update(msg)
		m.refresh()
		return m, cmd
	case preparedMsg:
		m.s.prepared(msg.results)
		return m, tea.Batch(m.startRace(), m.watchServer())
	case llamastats.Msg:
		var cmd tea.Cmd
		*m.stats, cmd = m.stats.Update(msg)
		if !m.paused {
			m.compose()
		}
		return m, cmd
	case releasedMsg:
		if msg.race != m.s.id {
			return m, nil
		}
		m.s.released(msg.clock)
		return m, m.races.next()
	case batchMsg:
		return m, m.batch(msg)
	case raceDoneMsg:
		return m, m.raceDone(msg)
	case nextHeatMsg:
		if msg.race != m.s.id || m.s.phase != phaseFinished {
			return m, nil // the user started another race meanwhile
		}
		return m, m.startRace()
	case frameMsg:
		if msg.tick != m.tick || m.paused {
			return m, nil
		}
		m.refresh()
		if m.ticking() {
			return m, m.nextFrame()
		}
	case savedMsg:
		if msg.err != nil {
			m.say(true, "could not save: "+msg.err.Error())
		} else {
			m.say(false, "saved "+msg.path)
		}
	case tea.KeyMsg:
		return m.handleKey(msg)
	case tea.MouseMsg:
		if m.zoomed() {
			m.lanes[m.zoom], _ = m.lanes[m.zoom].Update(msg)
			m.compose()
		}
	}
	return m, nil
}
