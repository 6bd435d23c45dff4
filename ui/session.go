package ui

import (
	"slices"
	"time"

	"tpsrace/config"
	"tpsrace/llamacpp"
	"tpsrace/metrics"
	"tpsrace/probes"
	"tpsrace/tokens"
	"tpsrace/ui/live"
	"tpsrace/workload"
)

// phase is where the session's race stands.
type phase int

const (
	phaseIdle      phase = iota // no race started yet
	phasePreparing              // Options.Prepare readies local servers; no race until it returns
	phaseCountdown              // --present: 3-2-1 on screen, no request sent yet
	phaseStarting               // the race's requests are built, not yet released
	phaseRacing                 // released: streams running
	phaseFinished               // every stream ended
	phaseStopped                // cancelled before its end
)

// running is whether the race has streams in flight (or about to be).
func (p phase) running() bool { return p == phaseStarting || p == phaseRacing }

// ended is whether the race on screen is over: finished, or stopped.
func (p phase) ended() bool { return p == phaseFinished || p == phaseStopped }

// session is the dashboard's race lifecycle and history, with no Bubble
// Tea in it: which providers race, the race on screen (its figures at any
// race time) and the finished races `s` saves. The model starts and stops
// the races; the session records what they report.
type session struct {
	providers   []config.Provider // the config's, with what Prepare found applied
	details     []string          // provider index → on-box hardware line, "" for none
	slots       []int             // provider index → llama-server slots, 0 for unknown
	notReady    []error           // provider index → why Prepare could not ready it
	maxTokens   int
	finishAt    int                 // --finish-at N: figures race to N tokens
	prompt      string              // for the next race
	tool        *workload.Function  // the tool-call workload's function; nil otherwise
	answer      *workload.Function  // the json workload's answer schema; nil otherwise
	schema      *workload.Schema    // tool, compiled: the lanes show whether calls are valid
	answerJSON  *workload.Schema    // answer, compiled: the lanes show whether answers are valid JSON
	workload    workload.Workload   // what the races ask for
	steps       *workload.Sequence  // the races of the workload's runs, one after the other
	run         *live.Run           // the workload's run of the race on screen: its steps so far
	conv        probes.Conversation // multi-turn: the answers of the turns so far
	concurrency int                 // for the next race

	// The race on screen.
	phase  phase
	id     int   // its number: messages of other races are dropped
	conc   int   // its concurrency
	racing []int // its providers, by provider index: those ready
	clock  Clock // its race time, nil until released
	end    time.Duration
	live   []*live.Lane // provider index → its streams and figures

	// referee is the flags of the history once the race on screen (its
	// last race) has finished.
	referee *metrics.Referee

	// Finished races since the prompt or concurrency last changed: what `s` saves.
	history       [][][]probes.Result
	historyPrompt string
	historyConc   int

	// unsaved: the race is a replay's race that a broken recording cut
	// (Replay.Cut): its lost streams never go to the history.
	unsaved bool
}

func newSession(cfg *config.Config, concurrency int, preparing bool) *session {
	s := &session{providers: slices.Clone(cfg.Providers), details: make([]string, len(cfg.Providers)),
		maxTokens: cfg.MaxTokens, prompt: cfg.Prompt, tool: cfg.Workload.Tool, answer: cfg.Workload.Answer, concurrency: max(concurrency, 1)}
	s.workload, s.steps = cfg.Workload, cfg.Workload.Sequence()
	s.run = live.NewRun(cfg.Workload)
	if s.tool != nil {
		s.schema, _ = s.tool.Compile() // config checked it; one that does not compile shows no verdict
	}
	if s.answer != nil {
		s.answerJSON, _ = s.answer.Compile()
	}
	if preparing {
		s.phase = phasePreparing
	}
	s.reset()
	return s
}

// prepared applies what Prepare found, one result per provider.
func (s *session) prepared(results []Prepared) {
	s.notReady = make([]error, len(s.providers))
	s.slots = make([]int, len(s.providers))
	for i, r := range results {
		if i >= len(s.providers) {
			break
		}
		if r.BaseURL != "" {
			s.providers[i].BaseURL = r.BaseURL
		}
		s.details[i], s.slots[i], s.notReady[i] = r.Detail, r.Slots, r.Err
		s.providers[i].Box = r.Box
	}
	s.phase = phaseIdle
}

// reset clears the screen's race for one at the current prompt and
// concurrency, in the given phase. A provider Prepare could not ready has
// failed already: its one stream is its error, and it stays out of the race.
func (s *session) reset() {
	s.conc, s.clock, s.end, s.racing, s.referee = s.concurrency, nil, 0, nil, nil
	promptTokens := tokens.Count(s.prompt)
	s.live = make([]*live.Lane, len(s.providers))
	for i, p := range s.providers {
		if err := s.notReadyErr(i); err != nil {
			s.live[i] = live.NewLane(i, p, 1, promptTokens)
			s.live[i].Record(probes.Update{Done: &probes.Result{Provider: p.Name, Model: p.Model, Err: err}})
		} else {
			s.live[i] = live.NewLane(i, p, s.conc, promptTokens)
			s.racing = append(s.racing, i)
		}
		s.live[i].Detail = s.details[i]
		s.live[i].SetWorkload(s.workload)
		if s.schema != nil {
			s.live[i].OfferTool(s.schema)
		}
		if s.answerJSON != nil {
			s.live[i].AskJSON(s.answerJSON)
		}
		if i < len(s.slots) {
			// The note first: a narrow lane cuts the end of the line.
			if note := llamacpp.QueueNote(s.conc, s.slots[i]); note != "" {
				s.live[i].Detail = note + " · " + s.live[i].Detail
			}
		}
	}
}

// countdown puts a new race on screen that waits for its countdown: no
// request is built or sent until begin.
func (s *session) countdown() {
	s.id++
	s.reset()
	s.phase = phaseCountdown
}

// begin puts a new race on screen (unless countdown already did) and
// describes it: the ready providers, the prompt, the concurrency.
func (s *session) begin(retries int, clients *probes.Clients) probes.Race {
	if s.phase != phaseCountdown {
		s.id++
		s.reset()
	}
	s.phase = phaseStarting
	ready := make([]config.Provider, len(s.racing))
	for k, i := range s.racing {
		ready[k] = s.providers[i]
	}
	if !s.run.Continues(s.prompt, s.conc) {
		s.steps = s.workload.Sequence()
	}
	step, nonce := s.steps.Next(time.Now())
	s.run.Start(step, s.prompt, s.conc, s.providers, s.finishAt)
	return probes.Race{Providers: ready, Request: s.conv.Turn(probes.Request{Prompt: s.prompt, MaxTokens: s.maxTokens, Tool: s.tool, Answer: s.answer, InputTokens: step.InputTokens, Nonce: nonce}, step.FollowUps),
		Concurrency: s.conc, Retries: retries, Clients: clients}
}

// newRun starts the workload's steps again at the next race: the user's
// race again is a whole run, from its first step (a sweep's first size,
// the cold request, a new conversation); only a run's own next step
// continues it (afterStep).
func (s *session) newRun() { s.steps = s.workload.Sequence() }

// released starts the race's clock.
func (s *session) released(c Clock) {
	s.clock = c
	if s.phase == phaseStarting {
		s.phase = phaseRacing
	}
}

// record adds a batch of the race's updates; Provider is an index into the racing ones.
func (s *session) record(updates []probes.Update) {
	for _, u := range updates {
		if u.Provider >= 0 && u.Provider < len(s.racing) {
			s.live[s.racing[u.Provider]].Record(u)
		}
	}
}

// finish settles the race and keeps its results for `s`: by provider
// index, with the failures of those Prepare could not ready, so that the
// saved races line up with the config.
func (s *session) finish(raced [][]probes.Result) {
	s.phase = phaseFinished
	s.conv.Heard(raced)
	results := make([][]probes.Result, len(s.live))
	for k, streams := range raced {
		results[s.racing[k]] = streams
	}
	for i, p := range s.live {
		if s.notReadyErr(i) != nil {
			results[i], _ = p.Results()
		}
	}
	for _, streams := range results {
		for _, r := range streams {
			s.end = max(s.end, r.End)
		}
	}
	if s.unsaved {
		return
	}
	s.run.Finish(s.live, results)
	if s.historyPrompt != s.prompt || s.historyConc != s.conc {
		s.history, s.historyPrompt, s.historyConc = nil, s.prompt, s.conc
	}
	s.history = append(s.history, results)
	// Refereed over the history, as `s` saves it and bench referees its
	// runs: a token count off the provider's usual, or who answered
	// changing, needs the races before this one.
	ref := metrics.RefereeOf(s.providers, s.workload, s.history)
	s.referee = &ref
}

// stop marks a race that has not ended as stopped, its time frozen (the
// model cancels its streams).
func (s *session) stop() {
	if s.phase.running() || s.phase == phaseCountdown {
		s.end = s.now()
		s.phase = phaseStopped
	}
}

// now is the race time on screen: the race clock while running, the last
// stream's end once finished (the moment it stopped, if stopped), 0 before
// the release.
func (s *session) now() time.Duration {
	switch {
	case s.phase.ended():
		return s.end
	case s.clock == nil:
		return 0
	}
	return s.clock.Now()
}

// figures are every provider's figures at race time now.
func (s *session) figures(now time.Duration) []live.Snapshot {
	figs := make([]live.Snapshot, len(s.live))
	for i, p := range s.live {
		figs[i] = p.Snapshot(now)
		if s.phase == phaseFinished && s.referee != nil {
			figs[i].Referee(*s.referee, len(s.referee.Races)-1, i) // the race on screen: the history's last
		}
		if s.finishAt > 0 {
			p.RaceTo(&figs[i], s.finishAt)
		}
	}
	s.run.Apply(figs)
	return figs
}

// startSkew is how far apart the race's requests left, over the streams
// that have ended so far (metrics.StartSkewOf: on a merged race's replay,
// across its hosts, with their clocks' bound).
func (s *session) startSkew() (metrics.Skew, bool) {
	var ended []probes.Result
	for _, i := range s.racing {
		for _, st := range s.live[i].Streams {
			if st.Result != nil {
				ended = append(ended, *st.Result)
			}
		}
	}
	return metrics.StartSkewOf(ended)
}

// notReadyErr is why Prepare could not ready provider i, nil when it did.
func (s *session) notReadyErr(i int) error {
	if i < len(s.notReady) {
		return s.notReady[i]
	}
	return nil
}

// saveConfig is the config of the races `s` saves: the providers as they
// raced and the prompt of the history.
func (s *session) saveConfig(cfg *config.Config) *config.Config {
	c := *cfg
	c.Providers, c.Prompt = slices.Clone(s.providers), s.historyPrompt
	return &c
}
