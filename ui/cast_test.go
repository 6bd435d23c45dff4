package ui

import (
	"bufio"
	"bytes"
	"encoding/json"
	"regexp"
	"strings"
	"testing"

	"tpsrace/recording"
)

// lineRedraw opens a frame that rewrites changed lines in place.
var lineRedraw = regexp.MustCompile(`^\x1b\[\d+;1H`)

type castEvent struct {
	at   float64
	kind string
	data string
}

// readCast parses an asciicast v2 file: its header and its events.
func readCast(t *testing.T, raw []byte) (header map[string]any, events []castEvent) {
	t.Helper()
	sc := bufio.NewScanner(bytes.NewReader(raw))
	sc.Buffer(nil, 1<<24)
	for n := 1; sc.Scan(); n++ {
		if n == 1 {
			if err := json.Unmarshal(sc.Bytes(), &header); err != nil {
				t.Fatalf("header: %v", err)
			}
			continue
		}
		var e []any
		if err := json.Unmarshal(sc.Bytes(), &e); err != nil || len(e) != 3 {
			t.Fatalf("line %d is not an event [t, type, data]: %v %s", n, err, sc.Bytes())
		}
		at, _ := e[0].(float64)
		kind, _ := e[1].(string)
		data, _ := e[2].(string)
		events = append(events, castEvent{at, kind, data})
	}
	return header, events
}

// A cast of the shipped recording: an asciicast v2 header with the size,
// timed output events at the recorded pace (halved at 2×), and a last frame
// that is the final leaderboard.
func TestCast(t *testing.T) {
	rec, err := recording.Open("../testdata/race.tpsr")
	if err != nil {
		t.Fatal(err)
	}
	length := (&Replay{Results: rec.Races[0].Results}).length()
	for _, tc := range []struct {
		speed   float64
		present bool
	}{{1, false}, {2, false}, {1, true}} {
		speed := tc.speed
		var out bytes.Buffer
		replay := &Replay{Results: rec.Races[0].Results, RecordedAt: rec.Header.RecordedAt}
		if err := WriteCast(&out, Options{Config: rec.Report().Config, Replay: replay, Present: tc.present}, 100, 30, speed); err != nil {
			t.Fatal(err)
		}
		header, events := readCast(t, out.Bytes())
		if header["version"] != 2.0 || header["width"] != 100.0 || header["height"] != 30.0 {
			t.Fatalf("header %v, want version 2, 100x30", header)
		}
		var frames []castEvent
		for i, e := range events {
			if e.kind != "o" || (i > 0 && e.at < events[i-1].at) {
				t.Fatalf("event %d %+v: want output events in time order", i, e)
			}
			if strings.HasPrefix(e.data, "\x1b[H") || lineRedraw.MatchString(e.data) { // a whole screen, or changed lines
				frames = append(frames, e)
			}
		}
		wantEnd := length.Seconds() / speed
		if tc.present { // the countdown comes first
			wantEnd += countdownFrom
		}
		if len(frames) < int(wantEnd/CastFrame.Seconds())/2 {
			t.Errorf("%v×: %d frames for a %.2fs cast", speed, len(frames), wantEnd)
		}
		lastFrame := frames[len(frames)-1]
		if !strings.HasPrefix(lastFrame.data, "\x1b[H") {
			t.Errorf("%v×: the last frame is not a whole screen", speed)
		}
		if d := lastFrame.at - wantEnd; d < 0 || d > CastFrame.Seconds() {
			t.Errorf("%v×: last frame at %.3fs, want the race's end at %.3fs", speed, lastFrame.at, wantEnd)
		}
		if end := events[len(events)-1].at; end < lastFrame.at+castHold.Seconds() {
			t.Errorf("%v×: the cast ends at %.2fs, before the final leaderboard was held %v", speed, end, castHold)
		}
		wants := []string{"REPLAY", "finished in", "sim-wafer is", "faster than sim-lpu", "sim-flaky", "failed"}
		if tc.present {
			wants = []string{"REPLAY", "1st", "sim-wafer is", "faster than sim-lpu", "sim-flaky failed"} // the podium
		}
		for _, key := range []string{"space pause", "←/→ scrub", "q quit", "? help"} {
			if strings.Contains(out.String(), key) {
				t.Errorf("%v× (present %v): the cast shows the key %q nobody can press", speed, tc.present, key)
			}
		}
		for _, want := range wants {
			if !strings.Contains(lastFrame.data, want) {
				t.Errorf("%v× (present %v): the last frame lacks %q:\n%s", speed, tc.present, want, lastFrame.data)
			}
		}
	}
}
