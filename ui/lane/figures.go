package lane

import (
	"strings"
	"time"

	"tpsrace/format"
	"tpsrace/metrics"
	"tpsrace/probes"
	"tpsrace/ui/internal/draw"
	"tpsrace/ui/live"
)

// trackLine is the lane's race track: its per-user tokens so far as a bar
// toward the finish line (┃), on the scale every lane shares, and past
// the line the finish time once the provider is done: with --finish-at N,
// its time to N (the bottom border keeps the whole answer's).
func (m *Model) trackLine(width int) string {
	// suffixW holds "10,100 tok" and "✓ 1m05.2s"; past the track come the
	// finish line ┃, a space and the suffix.
	const suffixW = 10
	trackW := width - suffixW - 2
	if m.trackW > 0 {
		trackW = min(trackW, m.trackW-suffixW-2)
	}
	if trackW < 4 {
		return ""
	}
	f := m.figures
	filled := draw.Bar(live.Progress(f, m.finish), trackW)
	rest := trackW - draw.Width(filled)
	var suffix string
	switch {
	case f.StoppedShort(): // ended, but not at the line
		suffix = m.styles.Failed.Render("✗ " + format.Duration(f.Elapsed))
	case f.Status == live.Done && f.HasTimeToN: // --finish-at N: when it crossed the line, as the leaderboard ranks
		suffix = m.styles.Done.Render("✓ " + format.Duration(f.TimeToN))
	case f.Status == live.Done:
		suffix = m.styles.Done.Render("✓ " + format.Duration(f.Elapsed))
	case f.Status == live.Failed:
		suffix = m.styles.Failed.Render("✗")
	default:
		if f.UserTokens > 0 {
			suffix = m.styles.Label.Render(format.Count(f.UserTokens) + " tok")
		}
	}
	return m.styles.Spark.Render(filled) + m.styles.Track.Render(strings.Repeat("·", rest)+"┃") + " " + suffix
}

// SilentAfter is how long a lane that has begun its answer may hear
// nothing before it says "silent 2.4s" instead of "streaming": a second,
// past the quarter-second pauses of a slow provider (the feel's stalls,
// metrics.StallGap) and well short of the stall limit that ends it.
const SilentAfter = time.Second

// status is the lane's state in words, for the top border.
func (m *Model) status() string {
	f := m.figures
	switch {
	case m.loading != "":
		return m.styles.Thinking.Render("◌ loading")
	case m.preparing:
		return m.styles.Waiting.Render("◌ waiting")
	}
	switch f.Status {
	case live.Thinking, live.Streaming:
		if f.Silent >= SilentAfter {
			return m.styles.Waiting.Render("◌ silent " + format.Duration(f.Silent))
		}
		if f.Status == live.Thinking {
			return m.styles.Thinking.Render("◆ thinking")
		}
		return m.styles.Streaming.Render("▶ streaming")
	case live.Done:
		if f.Lost > 0 { // some of its streams a broken recording lost: no place
			return m.styles.Waiting.Render("✂ truncated")
		}
		if f.StoppedShort() { // its place would reward writing less
			return m.styles.Failed.Render("✗ short " + itoa(f.UserTokens) + "/" + itoa(f.FinishAt))
		}
		if m.place >= 1 && m.place <= 3 {
			return m.styles.Places[m.place-1].Render("✓ " + format.Ordinal(m.place))
		}
		if m.place > 3 {
			return m.styles.Done.Render("✓ " + format.Ordinal(m.place))
		}
		return m.styles.Done.Render("✓ done")
	case live.Failed:
		switch probes.KindOf(f.Err) {
		case probes.KindCancelled:
			return m.styles.Waiting.Render("■ stopped")
		case probes.KindTruncated: // a broken recording lost it: no one knows how it ended
			return m.styles.Waiting.Render("✂ truncated")
		}
		return m.styles.Failed.Render("✗ failed")
	}
	return m.styles.Waiting.Render("◌ waiting")
}

// speedField is the lane's headline speed: per-user output speed.
func (m *Model) speedField() string {
	f := m.figures
	label := "speed "
	if f.Streams > 1 {
		label = "per-user "
	}
	if !f.HasSpeed {
		return m.styles.Label.Render(label + format.Undefined)
	}
	return m.styles.Label.Render(label) + m.styles.Value.Render(format.TPS(f.Speed)) + m.styles.Label.Render(" tok/s")
}

// figureFields are the live figures, most important first, for flow.
func (m *Model) figureFields() []string {
	f := m.figures
	field := func(label, value, unit string) string {
		s := m.styles.Value.Render(value)
		if label != "" {
			s = m.styles.Label.Render(label+" ") + s
		}
		if unit != "" {
			s += m.styles.Label.Render(" " + unit)
		}
		return s
	}
	if m.toolOnly() {
		return m.toolFields(field)
	}
	var fields []string
	switch {
	case f.HasTTFT && f.Streams > 1:
		fields = append(fields, field("TTFT p50", format.Duration(f.TTFT), "")+" "+field("max", format.Duration(f.TTFTMax), ""))
	case f.HasTTFT:
		fields = append(fields, field("TTFT", format.Duration(f.TTFT), ""))
	default:
		fields = append(fields, field("TTFT", format.Undefined, ""))
	}
	if f.Queued > 0 {
		fields = append(fields, m.styles.Queued.Render(itoa(f.Queued)+" queued"))
	}
	if f.HasTTFA && f.TTFA > f.TTFT {
		fields = append(fields, field("TTFA", format.Duration(f.TTFA), ""))
	}
	// With several streams "now" is the median of those streaming: none
	// streams between a queued stream's wait and its first token.
	if !f.Settled && f.HasTTFT && (f.Streams == 1 || f.NowTPS > 0) {
		fields = append(fields, field("now", format.TPS(f.NowTPS), "tok/s"))
	}
	fields = append(fields, m.speedField())
	// The server's own speeds (llama.cpp timings), prefill and decode apart,
	// and decode against this machine's memory limit.
	if f.HasServerPromptTPS {
		fields = append(fields, field("prefill", format.TPS(f.ServerPromptTPS), "tok/s"))
	}
	if f.HasServerTPS {
		fields = append(fields, field("decode", format.TPS(f.ServerTPS), "tok/s"))
	}
	if f.HasRoofline {
		fields = append(fields, m.styles.Label.Render(f.Roofline.Phrase()))
	}
	if f.Streams > 1 {
		switch {
		case f.HasAggregateTPS:
			fields = append(fields, field("aggregate", format.TPS(f.AggregateTPS), "tok/s"))
		case !f.Settled && f.HasTTFT:
			fields = append(fields, field("aggregate now", format.TPS(f.NowAggregateTPS), "tok/s"))
		}
	}
	if m.zoomed && f.Settled && f.HasSpeed {
		fields = append(fields, field("", "≈"+format.TPS(metrics.WordsPerSecond(f.Speed)), "words/s"))
	}
	if f.Streams > 1 {
		fields = append(fields, field("", format.Count(f.Tokens), "tok/user"))
	} else {
		fields = append(fields, field("", format.Count(f.Tokens), "tok"))
	}
	if loop, ok := metrics.AgentLoop(f.TTFT, f.Speed); ok && f.HasSpeed && m.agentLoop() {
		fields = append(fields, field(itoa(metrics.AgentCalls)+" agent calls", "≈"+format.Duration(loop), ""))
	}
	if f.Streams > 1 {
		fields = append(fields, m.styles.Label.Render(itoa(f.Streams)+" streams"))
	}
	return fields
}

// agentLoop is whether the race's answer is what an agent's chained calls
// are made of (metrics.Description.AgentLoop: chat's; a lane given no
// workload races chat), so the lane shows the agent loop's estimate.
func (m *Model) agentLoop() bool {
	w := m.figures.Workload
	return w == nil || w.Description().AgentLoop
}

// toolOnly is whether the lane is of a race whose answer is no text (a
// tool call: metrics.Description.NoText) and has written none: its TTFT,
// speed, track and sparkline would stand empty, and the workload's own
// figures take their place.
func (m *Model) toolOnly() bool {
	w := m.figures.Workload
	return w != nil && w.Description().NoText && !m.figures.HasTTFT
}

// toolFields are a tool-only lane's figures (metrics.FiguresOf), as the
// leaderboard's columns write them, "…" until the race on screen is
// among the run's finished races.
func (m *Model) toolFields(field func(label, value, unit string) string) []string {
	w := m.figures.Workload
	var fields []string
	for _, f := range w.Figures() {
		value := "…"
		if w.Settled() {
			value = f.Text(f.Of(w.WorkloadRuns))
		}
		fields = append(fields, field(f.Header, value, ""))
	}
	return fields
}

// networkLine is where stream 0's time to first token went, apart from
// the model: its request leaving, DNS, connect and TLS (none on a reused
// connection, as with --warm), the first response byte; all since the
// release. "" until the stream has ended. In width, the parts give way
// whole: DNS, connect and TLS first, the first byte last.
func (m *Model) networkLine(width int) string {
	r := m.provider.Streams[0].Result
	if r == nil || r.Phases.FirstByte == 0 {
		return ""
	}
	p := r.Phases
	label, value := m.styles.Label.Render, m.styles.Value.Render
	parts := []draw.Segment{{Text: label("sent ") + value("+"+format.Precise(r.Sent)), Rank: 1}}
	for _, ph := range []struct {
		name string
		at   time.Duration
	}{{"DNS", p.DNS}, {"connect", p.Connected}, {"TLS", p.TLS}} {
		if ph.at > 0 {
			parts = append(parts, draw.Segment{Text: label(ph.name+" ") + value(format.Precise(ph.at)), Rank: 2})
		}
	}
	if p.Connected == 0 {
		parts = append(parts, draw.Segment{Text: label("reused connection"), Rank: 1})
	}
	parts = append(parts, draw.Segment{Text: label("first byte ") + value(format.Precise(p.FirstByte))})
	lead := label("network  ")
	return lead + draw.Join(parts, label(" · "), width-draw.Width(lead))
}

// badges go in the bottom border: the stalls its streams had, or an
// answer that came in one burst, once settled (the leaderboard's feel
// column, which a narrow terminal drops, and the gap strip, which shows
// only the last events: either shows here at any size); the speed badge (what the speed is good for,
// metrics.SpeedBadge), and how it compares with reading speed, in those
// words or not at all.
func (m *Model) badges(width int) string {
	f := m.figures
	stalls := ""
	if f.Stalls > 0 || f.Feel == metrics.FeelOneBurst {
		stalls = m.styles.Stall.Render(f.Feel)
	}
	if !f.HasSpeed {
		return stalls
	}
	name := metrics.SpeedBadge(f.Speed)
	style := map[string]draw.Paint{"slow": m.styles.Slow, "conversational": m.styles.Conversational, "voice-ready": m.styles.VoiceReady}[name]
	badge := style.Render(name)
	switch { // a stall outranks the speed badge: the figures show the speed
	case stalls != "" && draw.Width(stalls)+2+draw.Width(badge) <= width:
		badge = stalls + "  " + badge
	case stalls != "":
		badge = stalls
	}
	if r := f.Speed / metrics.ReadingTPS; r >= 1 {
		if reading := m.styles.ReadingMarker.Render(format.Times(r) + " reading speed"); draw.Width(badge)+2+draw.Width(reading) <= width {
			return badge + "  " + reading
		}
	}
	return badge
}
