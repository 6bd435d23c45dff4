package cli

import (
	"bytes"
	"path/filepath"
	"strings"
	"testing"

	"tpsrace/config"
	"tpsrace/recording"
)

// What `s` saves from a --finish-at dashboard (or replay) keeps the finish
// line: the JSON ranks and decides by the time to N as the screen did, and
// the recording replays so.
func TestSaveKeepsTheFinishLine(t *testing.T) {
	cfg := &config.Config{Prompt: "hi", MaxTokens: 40}
	var doc bytes.Buffer
	if err := saveJSON(30)(&doc, cfg, 2, nil, false); err != nil || !strings.Contains(doc.String(), `"finish_at": 30`) {
		t.Errorf("saved JSON (%v) lacks the finish line:\n%s", err, doc.String())
	}
	path := filepath.Join(t.TempDir(), "r.tpsr")
	if err := saveRecording(30)(path, cfg, 2, nil, false); err != nil {
		t.Fatal(err)
	}
	rec, err := recording.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	if rec.Header.FinishAt != 30 || rec.Report().FinishAt != 30 {
		t.Errorf("saved recording: finish_at %d; want 30", rec.Header.FinishAt)
	}
}
