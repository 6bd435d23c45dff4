package llamastats

import (
	"context"
	"net"
	"strings"
	"testing"

	"github.com/muesli/termenv"

	"tpsrace/config"
	"tpsrace/ui/theme"
)

// A server that does not answer is said in the line, and the watch goes on.
func TestUnreachableServerIsSaid(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	url := "http://" + ln.Addr().String() + "/v1"
	ln.Close() // nothing listens there now

	m := New(DefaultStyles(theme.New(theme.Dark, true, termenv.Ascii)))
	if m.View() != "" {
		t.Errorf("View with nothing watched = %q, want none", m.View())
	}
	cmd := m.Watch(context.Background(), 0, config.Provider{Kind: config.KindLlamaCpp, BaseURL: url})
	if got := m.View(); !strings.Contains(got, "reading…") {
		t.Errorf("before the first reading: %q", got)
	}
	reading := cmd()
	m, next := m.Update(reading)
	if got := m.View(); !strings.Contains(got, "GET http://"+ln.Addr().String()+"/metrics") || !strings.Contains(got, "refused") {
		t.Errorf("after a failed reading: %q, want the error", got)
	}
	if next == nil {
		t.Error("no next reading after a failed one")
	}
	m.Stop()
	if next() != nil || m.View() != "" {
		t.Error("a stopped watch still reads or shows")
	}
	if again, _ := m.Update(reading); again.View() != "" {
		t.Error("a reading of a stopped watch was taken")
	}
	m.Watch(context.Background(), 1, config.Provider{Kind: config.KindLlamaCpp, BaseURL: url})
	if again, _ := m.Update(reading); !strings.Contains(again.View(), "reading…") {
		t.Errorf("a reading of an earlier watch was taken: %q", again.View())
	}
}
