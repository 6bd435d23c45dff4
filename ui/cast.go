package ui

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"
)

// WriteCast renders opts.Replay headlessly (PlayFrames) into an asciicast
// v2 file (asciinema play, the asciinema web player). speed > 1 plays
// faster. The first frame draws the whole screen, each later one rewrites
// the lines that changed, which keeps a cast small, and the last redraws
// the whole screen, the final leaderboard. Colours are whatever lipgloss's
// profile is.
func WriteCast(out io.Writer, opts Options, width, height int, speed float64) error {
	if opts.Replay == nil {
		return fmt.Errorf("cast: need a replay")
	}
	enc := json.NewEncoder(out)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(map[string]any{"version": 2, "width": width, "height": height,
		"timestamp": opts.Replay.RecordedAt.Unix(), "title": "tpsrace replay", "env": map[string]string{"TERM": "xterm-256color"}}); err != nil {
		return err
	}
	emit := func(at float64, data string) error { return enc.Encode([]any{at, "o", data}) }
	if err := emit(0, "\x1b[?25l"); err != nil { // no cursor
		return err
	}
	last := ""
	end, err := PlayFrames(opts, width, height, speed, func(f Frame) error {
		data := redraw(last, f.View)
		if f.Final {
			data = screen(f.View)
		}
		last = f.View
		return emit(f.At.Seconds(), data)
	})
	if err != nil {
		return err
	}
	return emit(end.Seconds(), "")
}

// screen redraws a whole view from the top left corner.
func screen(view string) string {
	return "\x1b[H" + strings.ReplaceAll(view, "\n", "\x1b[K\r\n") + "\x1b[K\x1b[J"
}

// redraw turns the screen showing before into after: each changed line
// rewritten in place (the first frame, with nothing before, whole).
func redraw(before, after string) string {
	if before == "" {
		return screen(after)
	}
	old, lines := strings.Split(before, "\n"), strings.Split(after, "\n")
	var b strings.Builder
	for i, line := range lines {
		if i >= len(old) || old[i] != line {
			fmt.Fprintf(&b, "\x1b[%d;1H%s\x1b[K", i+1, line)
		}
	}
	return b.String()
}
