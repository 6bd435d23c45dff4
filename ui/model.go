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
	"github.com/charmbracelet/x/ansi"

	"tpsrace/config"
	"tpsrace/llamacpp"
	"tpsrace/probes"
	"tpsrace/tokens"
	"tpsrace/ui/format"
	"tpsrace/ui/lane"
	"tpsrace/ui/leaderboard"
	"tpsrace/ui/live"
	"tpsrace/ui/llamastats"
	"tpsrace/ui/speedchart"
)

// Options configure the dashboard.
type Options struct {
	Config      *config.Config    // prompt, max tokens, providers; Simulated labels the header
	Concurrency int               // streams per provider (default 1); `c` cycles 1→4→16→64
	Retries     int               // retries allowed before a stream's first byte
	SaveDir     string            // where `s` writes results ("." by default)
	Details     map[string]string // provider name → on-box hardware line (llama.cpp), shown in its lane
	Slots       map[string]int    // provider name → llama-server slots: more users than that queue, and the lane says so
	// Prepare, when set, readies local servers (llama.cpp) in the background
	// before the first race. It may call progress(i, msg) from its own
	// goroutine as often as it likes; provider i's lane shows the newest msg
	// ("loading model… 3.2s") until Prepare returns, the others wait. It
	// returns one error per provider, nil for ready: a provider with an
	// error shows it in a failed lane and races in no race. Prepare may set
	// Config.Providers[i].BaseURL and fill Details and Slots: the dashboard
	// reads them only after it has returned. Its ctx ends when the user quits.
	Prepare func(ctx context.Context, progress func(provider int, msg string)) []error
	// Save writes the finished races, races[run][provider][stream].
	Save func(w io.Writer, cfg *config.Config, concurrency int, races [][][]probes.Result, interrupted bool) error
}

// concurrencySteps are what `c` cycles through.
var concurrencySteps = []int{1, 4, 16, 64}

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
// the chart, and the help. All drawing happens in Update (on the frame tick,
// on resize and on mode changes) into a cached screen that View returns.
type Model struct {
	opts        Options
	ctx         context.Context // Run's: every race runs under it (Update takes none)
	keys        KeyMap
	editorKeys  EditorKeyMap
	styles      Styles
	help        help.Model
	width       int
	height      int
	layout      Layout
	prompt      string
	concurrency int // for the next race
	clients     *probes.Clients

	// Local servers being readied before the first race (Options.Prepare).
	prep      *preparation // nil without Prepare
	preparing bool         // Prepare has not returned yet
	notReady  []error      // provider index → why Prepare could not ready it

	// The race on screen.
	raceID      int
	race        *runner
	cancelled   []*runner // earlier races, stopped and maybe still winding down
	raceConc    int       // its concurrency
	racing      []int     // the race's providers, by provider index: those ready
	running     bool
	released    time.Time
	end         time.Duration // race time of the last stream's end, once finished
	providers   []*live.Provider
	lanes       []lane.Model
	board       leaderboard.Model
	chart       speedchart.Model
	tick        int // the live frame-tick chain; others are dropped
	paused      bool
	zoom, focus int              // lane index, -1 for none
	stats       llamastats.Model // the zoomed llama.cpp lane's /metrics line (serverstats.go)

	// Finished races since the prompt or concurrency last changed: what `s` saves.
	history       [][][]probes.Result
	historyPrompt string
	historyConc   int

	editing bool
	editor  textarea.Model
	message string // one line for the footer: where results were saved, errors
	failed  bool   // the message is an error

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
	ed := textarea.New()
	ed.ShowLineNumbers = false
	ed.Placeholder = "the prompt to race"
	ed.CharLimit = 0
	ed.KeyMap.InsertNewline = DefaultEditorKeyMap().Newline
	ed.Cursor.SetMode(cursor.CursorStatic) // a blinking cursor would need frames of its own
	styles := DefaultStyles()
	h := help.New()
	h.Styles = styles.Help
	m := Model{
		opts: opts, ctx: ctx, keys: DefaultKeyMap(), editorKeys: DefaultEditorKeyMap(), styles: styles, help: h,
		prompt: opts.Config.Prompt, concurrency: max(opts.Concurrency, 1), clients: &probes.Clients{},
		zoom: -1, focus: -1, editor: ed, stats: llamastats.New(llamastats.DefaultStyles()),
	}
	if opts.Prepare != nil {
		m.prep, m.preparing = newPreparation(ctx, len(opts.Config.Providers)), true
	}
	m.newRace() // empty lanes until Init's race starts
	return m
}

// Init starts the first race, or Prepare, whose end starts it.
func (m Model) Init() tea.Cmd {
	if m.preparing {
		return tea.Batch(m.prep.run(m.opts.Prepare), m.nextFrame())
	}
	return func() tea.Msg { return raceAgainMsg{} }
}

// View is the screen drawn by the last Update.
func (m Model) View() string { return m.screen }

// Update handles the race's batches, the frame tick, keys, mouse and resizes.
func (m Model) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		m.width, m.height = msg.Width, msg.Height
		m.relayout()
		m.refresh()
	case raceAgainMsg:
		return m, m.startRace()
	case preparedMsg:
		m.preparing, m.notReady = false, msg.errs
		return m, tea.Batch(m.startRace(), m.watchServer())
	case llamastats.Msg:
		var cmd tea.Cmd
		m.stats, cmd = m.stats.Update(msg)
		if !m.paused {
			m.compose()
		}
		return m, cmd
	case batchMsg:
		if msg.race != m.raceID {
			return m, nil
		}
		m.record(msg.updates)
		return m, m.race.next()
	case raceDoneMsg:
		if msg.race != m.raceID {
			return m, nil
		}
		m.finish(msg.results)
		if !m.paused {
			m.refresh()
		}
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
		if m.zoom >= 0 {
			m.lanes[m.zoom], _ = m.lanes[m.zoom].Update(msg)
			m.compose()
		}
	}
	return m, nil
}

func (m Model) handleKey(msg tea.KeyMsg) (tea.Model, tea.Cmd) {
	if m.editing {
		return m.handleEditorKey(msg)
	}
	switch {
	case key.Matches(msg, m.keys.Quit):
		m.stop()
		return m, tea.Quit
	case key.Matches(msg, m.keys.Race):
		return m, m.startRace()
	case key.Matches(msg, m.keys.Edit):
		m.editing = true
		m.editor.SetValue(m.prompt)
		m.editor.Focus()
		m.relayout()
		m.compose()
		return m, nil
	case key.Matches(msg, m.keys.Zoom):
		if i := int(msg.Runes[0] - '1'); i < len(m.lanes) {
			m.setZoom(i)
		}
	case key.Matches(msg, m.keys.Back):
		switch {
		case m.zoom >= 0:
			m.setZoom(-1)
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
			if m.zoom >= 0 {
				m.setZoom(next)
			}
		}
	case key.Matches(msg, m.keys.Concurrency):
		m.concurrency = nextConcurrency(m.concurrency)
		when := " from the next race: press r to race"
		if m.preparing {
			when = " for the first race"
		}
		m.say(false, "concurrency "+itoa(m.concurrency)+when)
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
	case key.Matches(msg, m.keys.Save):
		return m, m.save()
	case key.Matches(msg, m.keys.Help):
		m.help.ShowAll = !m.help.ShowAll
		m.relayout()
		m.refresh()
	default:
		if m.zoom >= 0 {
			m.lanes[m.zoom], _ = m.lanes[m.zoom].Update(msg)
			m.compose()
		}
	}
	return m, m.watchServer()
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
			m.compose()
			return m, nil
		}
		m.prompt = prompt
		m.closeEditor()
		return m, m.startRace()
	}
	var cmd tea.Cmd
	m.editor, cmd = m.editor.Update(msg)
	m.compose()
	return m, cmd
}

func (m *Model) closeEditor() {
	m.editing = false
	m.editor.Blur()
	m.relayout()
	m.refresh()
}

// startRace cancels the race on screen, if any, and starts a new one with
// the current prompt and concurrency. While Prepare runs it starts nothing:
// the first race, at its end, takes the prompt and concurrency set meanwhile.
func (m *Model) startRace() tea.Cmd {
	if m.preparing {
		m.say(false, "the race starts once the local servers are ready")
		return nil
	}
	m.stop()
	m.retire()
	m.raceID++
	m.tick++
	m.message = "" // a note about the next race ("concurrency 4 from the next race") is now stale
	m.newRace()
	ready := make([]config.Provider, len(m.racing))
	for k, i := range m.racing {
		ready[k] = m.opts.Config.Providers[i]
	}
	m.race = startRace(m.ctx, m.raceID, probes.Race{
		Providers:   ready,
		Request:     probes.Request{Prompt: m.prompt, MaxTokens: m.opts.Config.MaxTokens},
		Concurrency: m.raceConc,
		Retries:     m.opts.Retries,
		Clients:     m.clients,
	})
	m.running = true
	m.relayout()
	m.refresh()
	return tea.Batch(m.race.next(), m.nextFrame())
}

// newRace resets the screen for a race at the current prompt and
// concurrency. A provider Prepare could not ready has failed already: its
// one stream is its error, and it stays out of the race.
func (m *Model) newRace() {
	cfg := m.opts.Config
	m.raceConc = m.concurrency
	m.released, m.end = time.Time{}, 0
	promptTokens := tokens.Count(m.prompt)
	m.providers = make([]*live.Provider, len(cfg.Providers))
	m.lanes = make([]lane.Model, len(cfg.Providers))
	m.racing = nil
	names := make([]string, len(cfg.Providers))
	for i, p := range cfg.Providers {
		if err := m.notReadyErr(i); err != nil {
			m.providers[i] = live.NewProvider(i, p, 1, promptTokens)
			m.providers[i].Record(probes.Update{Done: &probes.Result{Provider: p.Name, Model: p.Model, Err: err}})
		} else {
			m.providers[i] = live.NewProvider(i, p, m.raceConc, promptTokens)
			m.racing = append(m.racing, i)
		}
		if !m.preparing { // Details and Slots are Prepare's to fill until it returns
			m.providers[i].Detail = m.opts.Details[p.Name]
			// The note first: a narrow lane cuts the end of the line.
			if note := llamacpp.QueueNote(m.raceConc, m.opts.Slots[p.Name]); note != "" {
				m.providers[i].Detail = note + " · " + m.providers[i].Detail
			}
		}
		m.lanes[i] = lane.New(m.providers[i], m.styles.Lane.WithAccent(m.styles.Palette.ProviderColor(i)))
		names[i] = p.Name
	}
	m.board = leaderboard.New(names, m.raceConc, m.styles.Leaderboard)
	m.chart = speedchart.New(names, m.styles.Chart)
	if m.raceConc > 1 {
		m.chart.Title = "live tok/s per user"
	}
	if m.zoom >= len(m.lanes) {
		m.zoom = -1
	}
	if m.focus >= len(m.lanes) {
		m.focus = -1
	}
	m.applyFocus()
}

// notReadyErr is why Prepare could not ready provider i, nil when it did.
func (m *Model) notReadyErr(i int) error {
	if i < len(m.notReady) {
		return m.notReady[i]
	}
	return nil
}

// stop cancels the race in flight; its streams end in the background.
func (m *Model) stop() {
	if m.race != nil && m.running {
		m.race.stop()
	}
	m.running = false
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

func (m *Model) record(updates []probes.Update) {
	for _, u := range updates {
		switch {
		case !u.Released.IsZero():
			m.released = u.Released
		case u.Provider >= 0 && u.Provider < len(m.racing):
			m.providers[m.racing[u.Provider]].Record(u)
		}
	}
}

// finish settles the race and keeps its results for `s`: by provider
// index, with the failures of those Prepare could not ready, so that the
// saved races line up with the config.
func (m *Model) finish(raced [][]probes.Result) {
	m.running = false
	results := make([][]probes.Result, len(m.providers))
	for k, streams := range raced {
		results[m.racing[k]] = streams
	}
	for i, p := range m.providers {
		if m.notReadyErr(i) != nil {
			results[i], _ = p.Results()
		}
	}
	for _, streams := range results {
		for _, r := range streams {
			m.end = max(m.end, r.End)
		}
	}
	if m.historyPrompt != m.prompt || m.historyConc != m.raceConc {
		m.history, m.historyPrompt, m.historyConc = nil, m.prompt, m.raceConc
	}
	m.history = append(m.history, results)
}

// now is the race time on screen: since the release while running, the
// last stream's end once finished.
func (m *Model) now() time.Duration {
	switch {
	case !m.running:
		return m.end
	case m.released.IsZero():
		return 0
	}
	return time.Since(m.released)
}

// ticking is whether frames are due: a race runs, or Prepare's progress comes.
func (m *Model) ticking() bool { return m.running || m.preparing }

func (m *Model) nextFrame() tea.Cmd {
	tick := m.tick
	return tea.Tick(FrameInterval, func(time.Time) tea.Msg { return frameMsg{tick: tick} })
}

// relayout recomputes the layout and sizes every pane.
func (m *Model) relayout() {
	footer := 1
	if m.help.ShowAll {
		footer = len(splitLines(m.help.View(m.helpKeys())))
	}
	m.layout = ComputeLayout(m.width, m.height, len(m.lanes), m.zoom >= 0, footer)
	l := m.layout
	m.help.Width = m.width
	for i := range m.lanes {
		w, h := 0, 0
		switch {
		case l.Zoomed:
			if i == m.zoom {
				w, h = l.Widths[0], l.Rows[0]-m.statsRows()
			}
		case l.List:
			w, h = l.Widths[0], l.Rows[i]
		case l.Cols > 0:
			w, h = l.Widths[i%l.Cols], l.Rows[i/l.Cols]
		}
		m.lanes[i].SetSize(w, h)
	}
	m.board.SetSize(l.Board.Width, l.Board.Height)
	m.chart.SetSize(l.Chart.Width, l.Chart.Height)
	m.editor.SetWidth(max(m.width-4, 10))
	m.editor.SetHeight(max(l.Body-5, 1))
}

// refresh draws a frame: every provider's figures at the race time on
// screen, pushed to the lanes, the leaderboard and the chart.
func (m *Model) refresh() {
	now := m.now()
	figs := make([]live.Figures, len(m.providers))
	until := now
	for i, p := range m.providers {
		figs[i] = p.Figures(now)
	}
	places := leaderboard.Places(figs)
	var loading []string
	if m.preparing {
		loading = m.prep.progress()
	}
	for i := range m.lanes {
		frame := lane.FrameMsg{Now: now, Figures: figs[i], Place: places[i], Preparing: m.preparing}
		if i < len(loading) {
			frame.Loading = loading[i]
		}
		m.lanes[i], _ = m.lanes[i].Update(frame)
	}
	m.board, _ = m.board.Update(leaderboard.FrameMsg{Figures: figs})
	if m.layout.Chart.Show {
		series := make([][]float64, len(m.providers))
		for i, p := range m.providers {
			series[i] = p.Series(until)
		}
		m.chart, _ = m.chart.Update(speedchart.FrameMsg{Until: until, Series: series})
	}
	m.compose()
}

func (m *Model) setZoom(i int) {
	if m.zoom >= 0 {
		m.lanes[m.zoom].SetZoomed(false)
	}
	m.zoom = i
	if i >= 0 {
		m.lanes[i].SetZoomed(true)
		m.focus = i
	}
	m.applyFocus()
	m.relayout()
	m.refresh()
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
	case len(m.history) == 0:
		m.say(true, "nothing to save yet: no race has finished")
		return nil
	}
	cfg := *m.opts.Config
	cfg.Prompt = m.historyPrompt
	races, conc, dir, write := slices.Clone(m.history), m.historyConc, m.opts.SaveDir, m.opts.Save
	return func() tea.Msg {
		path := filepath.Join(dir, "tpsrace-"+time.Now().Format("20060102-150405")+".json")
		f, err := os.Create(path)
		if err != nil {
			return savedMsg{err: err}
		}
		err = write(f, &cfg, conc, races, false)
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		return savedMsg{path: path, err: err}
	}
}

func (m *Model) helpKeys() help.KeyMap {
	switch {
	case m.editing:
		return m.editorKeys
	case m.zoom >= 0:
		return zoomedKeys{KeyMap: m.keys, lane: m.lanes[m.zoom].KeyMap}
	}
	return m.keys
}

// compose joins the cached panes into the screen.
func (m *Model) compose() {
	l := m.layout
	if l.Width <= 0 || l.Height <= 0 {
		m.screen = ""
		return
	}
	var lines []string
	lines = append(lines, m.header()...)
	switch {
	case m.editing:
		lines = append(lines, m.editorLines()...)
	case l.Zoomed:
		lines = append(lines, splitLines(m.lanes[m.zoom].View())...)
		if m.statsRows() > 0 {
			lines = append(lines, " "+m.stats.View())
		}
	default:
		lines = append(lines, m.laneLines()...)
		lines = append(lines, m.bottomLines()...)
	}
	lines = append(lines, m.footer()...)
	for len(lines) < l.Height {
		lines = append(lines, "")
	}
	lines = lines[:l.Height]
	for i, line := range lines {
		lines[i] = ansi.Truncate(line, l.Width, "")
	}
	m.screen = strings.Join(lines, "\n")
}

func (m *Model) header() []string {
	s := m.styles
	sep := s.Label.Render(" · ")
	var parts []string
	status := ""
	switch {
	case m.preparing:
		status = "starting local servers"
	case m.running && m.released.IsZero():
		status = "starting"
	case m.running:
		status = "racing " + format.Duration(m.now())
	case m.end > 0:
		status = "finished in " + format.Duration(m.end)
	case m.raceID > 0:
		status = "stopped"
	}
	if status != "" {
		parts = append(parts, s.Status.Render(status))
	}
	conc := "C=" + itoa(m.raceConc)
	if m.concurrency != m.raceConc {
		conc += s.Paused.Render(" (next " + itoa(m.concurrency) + ")")
	}
	parts = append(parts, s.Label.Render(itoa(len(m.lanes))+" providers ")+s.Status.Render(conc))
	if m.paused {
		parts = append(parts, s.Paused.Render("⏸ PAUSED"))
	}
	rest := strings.Join(parts, sep)
	title := s.Title.Render("tpsrace")
	if m.opts.Config.Simulated {
		// The banner must never be cut: shorter words before a cut.
		var banner string
		for _, words := range []string{" SIMULATED providers — no API keys found ", " SIMULATED — no API keys ", " SIMULATED "} {
			banner = s.Simulated.Render(words)
			if ansi.StringWidth(banner)+ansi.StringWidth(rest)+13 <= m.width {
				break
			}
		}
		title += sep + banner
	}
	title += sep + rest
	prompt := s.Label.Render("prompt ") + s.Prompt.Render(oneLine(m.prompt)) + s.Label.Render(" · max "+itoa(m.opts.Config.MaxTokens)+" tokens")
	if m.layout.Header < 2 {
		return []string{title + sep + prompt}
	}
	return []string{title, prompt}
}

// laneLines lays the lanes out in the layout's grid (or list).
func (m *Model) laneLines() []string {
	l := m.layout
	if l.List {
		var lines []string
		for i := range m.lanes {
			if l.Rows[i] > 0 {
				lines = append(lines, splitLines(m.lanes[i].View())...)
			}
		}
		return lines
	}
	var lines []string
	for row := 0; row*l.Cols < len(m.lanes); row++ {
		var views [][]string
		for i := row * l.Cols; i < min((row+1)*l.Cols, len(m.lanes)); i++ {
			views = append(views, splitLines(m.lanes[i].View()))
		}
		for k := range l.Rows[row] {
			var sb strings.Builder
			for _, v := range views {
				if k < len(v) {
					sb.WriteString(v[k])
				}
			}
			lines = append(lines, sb.String())
		}
	}
	return lines
}

// bottomLines is the leaderboard, with the chart beside or above it.
func (m *Model) bottomLines() []string {
	l := m.layout
	if !l.Board.Show {
		return nil
	}
	board := splitLines(m.board.View())
	if !l.Chart.Show {
		return board
	}
	chart := splitLines(m.chart.View())
	if !l.SideBySide {
		return append(chart, board...)
	}
	lines := make([]string, max(len(board), len(chart)))
	for k := range lines {
		b, c := "", ""
		if k < len(board) {
			b = board[k]
		}
		if k < len(chart) {
			c = chart[k]
		}
		lines[k] = format.PadRight(b, l.Board.Width) + c
	}
	return lines
}

func (m *Model) editorLines() []string {
	title := m.styles.Title.Render("Edit the prompt") + m.styles.Label.Render(" — every provider gets it at the same instant")
	box := m.styles.Editor.Width(max(m.width-2, 10)).Render(title + "\n\n" + m.editor.View())
	return splitLines(box)
}

func (m *Model) footer() []string {
	helpView := m.help.View(m.helpKeys())
	if m.message == "" {
		return splitLines(helpView)
	}
	style := m.styles.Message
	if m.failed {
		style = m.styles.Error
	}
	lines := splitLines(helpView)
	msg := style.Render(m.message)
	lines[len(lines)-1] = msg + m.styles.Label.Render("  ") + ansi.Truncate(lines[len(lines)-1], max(m.width-ansi.StringWidth(msg)-2, 0), "…")
	return lines
}

func nextConcurrency(c int) int {
	for _, s := range concurrencySteps {
		if s > c {
			return s
		}
	}
	return concurrencySteps[0]
}

// oneLine shows a multi-line prompt on one line.
func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

func splitLines(s string) []string { return strings.Split(s, "\n") }

func itoa(n int) string { return format.Count(n) }
