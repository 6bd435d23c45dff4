package ui

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
)

// written is what draw and clear wrote to t.out since the last call.
func written(t *testing.T, term *terminal) string {
	t.Helper()
	b, err := os.ReadFile(term.out.Name())
	if err != nil {
		t.Fatal(err)
	}
	if err := term.out.Truncate(0); err != nil {
		t.Fatal(err)
	}
	if _, err := term.out.Seek(0, 0); err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// fileTerminal is a terminal that draws into a file, read back by written.
func fileTerminal(t *testing.T) *terminal {
	t.Helper()
	out, err := os.Create(filepath.Join(t.TempDir(), "out"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { out.Close() })
	return &terminal{out: out}
}

func TestTerminalWritesTheRowsThatChanged(t *testing.T) {
	term := fileTerminal(t)
	const sync, unsync, erase = "\x1b[?2026h", "\x1b[?2026l", "\x1b[m\x1b[2K"

	// The first frame on a blank screen: every row that is not blank.
	term.draw([]string{"title", "", "last"})
	if got, want := written(t, term), sync+"\x1b[1;1H"+erase+"title"+"\x1b[3;1H"+erase+"last"+unsync; got != want {
		t.Errorf("first frame wrote %q, want %q", got, want)
	}
	// The next: only the rows that changed, a row emptied included.
	term.draw([]string{"title", "middle", ""})
	if got, want := written(t, term), sync+"\x1b[2;1H"+erase+"middle"+"\x1b[3;1H"+erase+unsync; got != want {
		t.Errorf("second frame wrote %q, want %q", got, want)
	}
	// The same screen again: nothing at all.
	term.draw([]string{"title", "middle", ""})
	if got := written(t, term); got != "" {
		t.Errorf("an unchanged frame wrote %q", got)
	}
	// After a resize the screen is cleared and every row drawn again.
	term.clear()
	term.draw([]string{"title", "middle", ""})
	if got := written(t, term); !strings.HasPrefix(got, "\x1b[2J") || !strings.Contains(got, "title") || !strings.Contains(got, "middle") {
		t.Errorf("after a resize wrote %q, want the screen cleared and drawn whole", got)
	}
}

// A command that panics, even one of a batch, gives the terminal back
// before the panic goes on: Bubble Tea does not catch it (Run).
func TestTerminalIsGivenBackBeforeACommandPanics(t *testing.T) {
	term := fileTerminal(t)
	cmd := term.guard(tea.Batch(func() tea.Msg { return nil }, func() tea.Msg { panic("boom") }))
	batch, ok := cmd().(tea.BatchMsg)
	if !ok || len(batch) != 2 {
		t.Fatalf("the batch came back as %#v", cmd())
	}
	if got := written(t, term); got != "" {
		t.Fatalf("before any panic, wrote %q", got)
	}
	recovered := func() (r any) {
		defer func() { r = recover() }()
		batch[1]()
		return nil
	}()
	if recovered != "boom" {
		t.Errorf("the panic went on as %v, want boom", recovered)
	}
	if got := written(t, term); !strings.HasSuffix(got, leaveModes) {
		t.Errorf("on the panic wrote %q, want the terminal given back (%q)", got, leaveModes)
	}
}
