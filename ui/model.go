package ui

import (
	"context"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/charmbracelet/bubbles/cursor"
	"github.com/charmbracelet/bubbles/help"
	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/bubbles/textarea"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"

	"tpsrace/config"
	"tpsrace/probes"
	"tpsrace/ui/lane"
	"tpsrace/ui/leaderboard"
	"tpsrace/ui/llamastats"
	"tpsrace/ui/speedchart"
	"tpsrace/ui/theme"
)

// Options configure the dashboard.
type Options struct {
	Config      *config.Config // prompt, max tokens, providers; Simulated labels the header. Never written.
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
}

// concurrencySteps are what `c` cycles through.
var concurrencySteps = []int{1, 4, 16, 64}

// mode is what the screen shows.
type mode int

const (
	modeGrid   mode = iota // every lane, the leaderboard and the chart
	modeZoom               // one lane, the whole of its answer
	modeEditor             // the prompt editor
	modeHelp               // every key, over the mode help was opened from
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

// Model is the dashboard: a header, a lane per provider, the leaderboard and
// the chart, and the help. The session holds the races; the model starts
// them, turns their messages into the session's records and draws. All
// drawing happens in Update (on the frame tick, on resize and on mode
// changes) into a cached screen that View returns (view.go).
type Model struct {
	opts       Options
	ctx        context.Context // Run's: every race runs under it (Update takes none)
	keys       KeyMap
	replayKeys ReplayKeyMap
	editorKeys EditorKeyMap
	styles     Styles
	paint      paints // the styles the header and the presenter draw with every frame
	help       help.Model
	width      int
	height     int
	layout     Layout
	clients    *probes.Clients

	prep      *preparation // Options.Prepare running; nil without it
	s         *session
	race      *runner   // the race on screen, nil before the first
	cancelled []*runner // earlier races, stopped and maybe still winding down

	mode        mode
	back        mode // the mode help returns to
	zoom, focus int  // zoom: the zoomed lane in modeZoom; focus: -1 for none
	lanes       []lane.Model
	board       leaderboard.Model
	chart       speedchart.Model
	stats       llamastats.Model // the zoomed llama.cpp lane's /metrics line (serverstats.go)
	tick        int              // the live frame-tick chain; others are dropped
	count       int              // the countdown's number on screen (presenter mode)
	paused      bool
	editor      textarea.Model
	message     string // one line for the footer: where results were saved, errors
	failed      bool   // the message is an error

	// Drawn on resize and mode changes, reused by every frame.
	skipped string   // the skipped-providers line, "" for none
	page    []string // the help page, in modeHelp
	stage   []string // the presenter's body, drawn by refresh
	footer  struct {
		key  footerKey
		line string
	}
	screen string
}

// New is the dashboard for opts, for Run or for a test program.
func New(opts Options) Model { return newModel(context.Background(), opts) }

func newModel(ctx context.Context, opts Options) Model {
	if opts.SaveDir == "" {
		opts.SaveDir = "."
	}
	if opts.Config == nil {
		opts.Config = &config.Config{}
	}
	if opts.Replay != nil {
		opts.Replay.clock = newReplayClock()
		if opts.Source == nil {
			opts.Source = opts.Replay.source
		}
	}
	if opts.Source == nil {
		opts.Source = func(r probes.Race) Source { return liveRace{r} }
	}
	ed := textarea.New()
	ed.ShowLineNumbers = false
	ed.Placeholder = "the prompt to race"
	ed.CharLimit = 0
	ed.KeyMap.InsertNewline = DefaultEditorKeyMap().Newline
	ed.Cursor.SetMode(cursor.CursorStatic) // a blinking cursor would need frames of its own
	if opts.Present && opts.Theme == theme.Auto {
		opts.Theme = theme.HighContrast
	}
	styles := DefaultStyles(theme.New(opts.Theme, lipgloss.HasDarkBackground(), lipgloss.ColorProfile()))
	h := help.New()
	h.Styles = styles.Help
	m := Model{
		opts: opts, ctx: ctx, keys: DefaultKeyMap(), replayKeys: DefaultReplayKeyMap(), editorKeys: DefaultEditorKeyMap(), styles: styles, paint: newPaints(styles), help: h,
		clients: &probes.Clients{}, s: newSession(opts.Config, opts.Concurrency, opts.Prepare != nil),
		focus: -1, editor: ed, stats: llamastats.New(styles.Stats),
	}
	m.s.finishAt, m.s.unsaved = opts.FinishAt, opts.Replay != nil && opts.Replay.Cut
	if opts.Prepare != nil {
		m.prep = newPreparation(ctx, len(opts.Config.Providers))
	}
	m.newPanes() // empty lanes until Init's race starts
	return m
}

// Init starts the first race, or Prepare, whose end starts it.
func (m Model) Init() tea.Cmd {
	if m.s.phase == phasePreparing {
		return tea.Batch(m.prep.run(m.opts.Prepare), m.nextFrame())
	}
	return func() tea.Msg { return raceAgainMsg{} }
}

// View is the screen drawn by the last Update.
func (m Model) View() string { return m.screen }

// Update handles the race's messages, the frame tick, keys, mouse and resizes.
func (m Model) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		m.width, m.height = msg.Width, msg.Height
		m.relayout()
		m.refresh()
	case raceAgainMsg:
		return m, m.startRace()
	case countdownMsg:
		if msg.race != m.s.id || m.s.phase != phaseCountdown {
			return m, nil
		}
		if msg.left == 0 {
			return m, m.release()
		}
		m.count = msg.left
		m.refresh()
		return m, countdownTick(msg.race, msg.left-1)
	case preparedMsg:
		m.s.prepared(msg.results)
		return m, tea.Batch(m.startRace(), m.watchServer())
	case llamastats.Msg:
		var cmd tea.Cmd
		m.stats, cmd = m.stats.Update(msg)
		if !m.paused {
			m.compose()
		}
		return m, cmd
	case releasedMsg:
		if msg.race != m.s.id {
			return m, nil
		}
		m.s.released(msg.clock)
		return m, m.race.next()
	case batchMsg:
		if msg.race != m.s.id {
			return m, nil
		}
		m.s.record(msg.updates)
		return m, m.race.next()
	case raceDoneMsg:
		if msg.race != m.s.id {
			return m, nil
		}
		m.s.finish(msg.results)
		if !m.paused {
			m.refresh()
		}
		return m, tea.Batch(m.recordHistory(), m.afterHeat())
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

func (m Model) handleKey(msg tea.KeyMsg) (tea.Model, tea.Cmd) {
	next, cmd := m.handleKeyOf(msg)
	if m, ok := next.(Model); ok && cmd == nil {
		return m, m.watchServer() // a key may have zoomed a llama.cpp lane, or left it
	}
	return next, cmd
}

func (m Model) handleKeyOf(msg tea.KeyMsg) (tea.Model, tea.Cmd) {
	if m.mode == modeEditor {
		return m.handleEditorKey(msg)
	}
	if m.opts.Replay != nil {
		if cmd, ok := m.replayKey(msg); ok {
			return m, cmd
		}
	}
	switch {
	case key.Matches(msg, m.keys.Quit):
		m.stop()
		return m, tea.Quit
	case key.Matches(msg, m.keys.Race):
		return m, m.startRace()
	case key.Matches(msg, m.keys.Edit):
		m.setMode(modeEditor)
		m.editor.SetValue(m.s.prompt)
		m.editor.Focus()
		return m, nil
	case m.opts.Present && key.Matches(msg, m.keys.Zoom, m.keys.Focus, m.keys.FocusBack):
		// One screen for the room: no lane shows a model ID or an error's detail.
	case key.Matches(msg, m.keys.Zoom):
		if i := int(msg.Runes[0] - '1'); i < len(m.lanes) {
			m.setZoom(i)
		}
	case key.Matches(msg, m.keys.Back):
		switch {
		case m.mode == modeHelp:
			m.setMode(m.back)
		case m.mode == modeZoom:
			m.setMode(modeGrid)
		case m.focus >= 0:
			m.setFocus(-1)
		}
	case key.Matches(msg, m.keys.Focus, m.keys.FocusBack):
		if n := len(m.lanes); n > 0 {
			next := (m.focus + 1) % n
			if key.Matches(msg, m.keys.FocusBack) {
				next = (max(m.focus, 0) + n - 1) % n
			}
			m.setFocus(next)
			if m.zoomed() {
				m.setZoom(next)
			}
		}
	case key.Matches(msg, m.keys.Concurrency):
		m.s.concurrency = nextConcurrency(m.s.concurrency)
		when := " from the next race: press r to race"
		if m.s.phase == phasePreparing {
			when = " for the first race"
		}
		m.say(false, "concurrency "+itoa(m.s.concurrency)+when)
	case key.Matches(msg, m.keys.Pause):
		m.paused = !m.paused
		if m.paused {
			m.compose()
			return m, nil
		}
		m.refresh()
		if m.ticking() {
			m.tick++
			return m, m.nextFrame()
		}
	case key.Matches(msg, m.keys.Chart):
		m.chart.Toggle()
		m.compose()
	case key.Matches(msg, m.keys.Save):
		return m, m.save()
	case key.Matches(msg, m.keys.Help):
		if m.mode == modeHelp {
			m.setMode(m.back)
		} else {
			m.back = m.mode
			m.setMode(modeHelp)
		}
	default:
		if m.zoomed() {
			m.lanes[m.zoom], _ = m.lanes[m.zoom].Update(msg)
			m.compose()
		}
	}
	return m, nil
}

func (m Model) handleEditorKey(msg tea.KeyMsg) (tea.Model, tea.Cmd) {
	switch {
	case msg.Type == tea.KeyCtrlC:
		m.stop()
		return m, tea.Quit
	case key.Matches(msg, m.editorKeys.Cancel):
		m.closeEditor()
		return m, nil
	case key.Matches(msg, m.editorKeys.Confirm):
		prompt := strings.TrimSpace(m.editor.Value())
		if prompt == "" {
			m.say(true, "the prompt is empty")
			return m, nil
		}
		m.s.prompt = prompt
		m.closeEditor()
		return m, m.startRace()
	}
	var cmd tea.Cmd
	m.editor, cmd = m.editor.Update(msg)
	m.compose()
	return m, cmd
}

func (m *Model) closeEditor() {
	m.editor.Blur()
	m.setMode(modeGrid)
}

// setMode switches the screen to mode md.
func (m *Model) setMode(md mode) {
	m.mode = md
	for i := range m.lanes {
		m.lanes[i].SetZoomed(m.zoomed() && i == m.zoom)
	}
	m.relayout()
	m.refresh()
}

// zoomed is whether one lane fills the screen: zoomed, or help over a zoom.
func (m *Model) zoomed() bool {
	return m.mode == modeZoom || m.mode == modeHelp && m.back == modeZoom
}

// setZoom zooms lane i.
func (m *Model) setZoom(i int) {
	m.zoom, m.focus = i, i
	m.applyFocus()
	m.setMode(modeZoom)
}

func (m *Model) setFocus(i int) {
	m.focus = i
	m.applyFocus()
	m.compose()
}

func (m *Model) applyFocus() {
	for i := range m.lanes {
		m.lanes[i].SetFocused(i == m.focus)
	}
	m.board.SetFocus(m.focus)
}

// startRace cancels the race on screen, if any, and starts a new one with
// the current prompt and concurrency. While Prepare runs it starts nothing:
// the first race, at its end, takes the prompt and concurrency set meanwhile.
func (m *Model) startRace() tea.Cmd {
	if m.s.phase == phasePreparing {
		m.say(false, "the race starts once the local servers are ready")
		return nil
	}
	m.stop()
	m.retire()
	m.message = "" // a note about the next race ("concurrency 4 from the next race") is now stale
	if m.opts.Present {
		m.s.countdown()
		m.count = countdownFrom
		m.newPanes()
		m.relayout()
		m.refresh()
		return countdownTick(m.s.id, countdownFrom-1)
	}
	return m.release()
}

// release starts the race: no request is sent before it.
func (m *Model) release() tea.Cmd {
	m.tick++
	race := m.s.begin(m.opts.Retries, m.clients)
	race.Warm = m.opts.Warm
	if m.s.id == 1 {
		race.StartAt = m.opts.StartAt
	}
	m.newPanes()
	m.race = startRace(m.ctx, m.s.id, m.opts.Source(race))
	m.relayout()
	m.refresh()
	return tea.Batch(m.race.next(), m.nextFrame())
}

// countdownTick is the countdown reaching left in a second.
func countdownTick(race, left int) tea.Cmd {
	return tea.Tick(time.Second, func(time.Time) tea.Msg { return countdownMsg{race: race, left: left} })
}

// newPanes makes the lanes, the leaderboard and the chart for the
// session's race on screen.
func (m *Model) newPanes() {
	names := make([]string, len(m.s.live))
	m.lanes = make([]lane.Model, len(m.s.live))
	for i, p := range m.s.live {
		m.lanes[i] = lane.New(p, m.styles.Lane.WithAccent(m.styles.Palette.ProviderColor(i)))
		names[i] = p.Name
	}
	m.board = leaderboard.New(names, m.s.conc, m.styles.Leaderboard)
	m.showHeats(m.heatsReport()) // the standing over the heats stays beside the next heat
	plot := m.chart.Plot
	m.chart = speedchart.New(names, m.styles.Chart)
	m.chart.Plot, m.chart.PerUser = plot, m.s.conc > 1
	if m.zoom >= len(m.lanes) {
		m.zoom, m.mode, m.back = 0, modeGrid, modeGrid
	}
	if m.zoomed() {
		m.lanes[m.zoom].SetZoomed(true)
	}
	if m.focus >= len(m.lanes) {
		m.focus = -1
	}
	m.applyFocus()
}

// stop cancels the race in flight; its streams end in the background.
func (m *Model) stop() {
	if m.race != nil && m.s.phase.running() {
		m.race.stop()
	}
	m.s.stop()
}

// retire keeps the race on screen among the cancelled ones until it has
// wound down, so shutdown can wait for it; those already ended are dropped.
func (m *Model) retire() {
	if m.race == nil {
		return
	}
	var running []*runner
	for _, r := range append(m.cancelled, m.race) {
		select {
		case <-r.done:
		default:
			running = append(running, r)
		}
	}
	m.cancelled = running
}

// shutdown cancels Prepare and the race and waits for them and every
// stream of every race to end, then drops idle connections: nothing of the
// dashboard runs after it.
func (m *Model) shutdown() {
	if m.prep != nil {
		m.prep.stop()
	}
	m.stats.Stop()
	m.stop()
	m.retire()
	for _, r := range m.cancelled {
		r.wait()
	}
	m.clients.Close()
}

// ticking is whether frames are due: a race runs, or Prepare's progress comes.
func (m *Model) ticking() bool { return m.s.phase.running() || m.s.phase == phasePreparing }

func (m *Model) nextFrame() tea.Cmd {
	tick := m.tick
	return tea.Tick(FrameInterval, func(time.Time) tea.Msg { return frameMsg{tick: tick} })
}

func (m *Model) say(failed bool, message string) {
	m.message, m.failed = message, failed
	m.compose()
}

// save writes the finished races to SaveDir/tpsrace-YYYYMMDD-HHMMSS.json.
func (m *Model) save() tea.Cmd {
	switch {
	case m.opts.Save == nil:
		m.say(true, "saving is not available here")
		return nil
	case len(m.s.history) == 0:
		m.say(true, "nothing to save yet: no race has finished")
		return nil
	}
	cfg := m.s.saveConfig(m.opts.Config)
	races, conc, dir, write, record := slices.Clone(m.s.history), m.s.historyConc, m.opts.SaveDir, m.opts.Save, m.opts.Record
	return func() tea.Msg {
		stem := filepath.Join(dir, "tpsrace-"+time.Now().Format("20060102-150405"))
		path := stem + ".json"
		f, err := os.Create(path)
		if err != nil {
			return savedMsg{err: err}
		}
		err = write(f, cfg, conc, races, false)
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		if err == nil && record != nil {
			err = record(stem+".tpsr", cfg, conc, races, false)
			path += " and " + stem + ".tpsr"
		}
		return savedMsg{path: path, err: err}
	}
}

// recordHistory rewrites Options.RecordPath with the races `s` would save.
func (m *Model) recordHistory() tea.Cmd {
	if m.opts.RecordPath == "" || m.opts.Record == nil || len(m.s.history) == 0 {
		return nil
	}
	cfg := m.s.saveConfig(m.opts.Config)
	races, conc, path, record := slices.Clone(m.s.history), m.s.historyConc, m.opts.RecordPath, m.opts.Record
	return func() tea.Msg {
		if err := record(path, cfg, conc, races, false); err != nil {
			return savedMsg{err: err}
		}
		return nil
	}
}

func nextConcurrency(c int) int {
	for _, s := range concurrencySteps {
		if s > c {
			return s
		}
	}
	return concurrencySteps[0]
}
