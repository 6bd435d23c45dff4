package sweepview

import (
	"context"
	"os"
	"testing"

	"github.com/charmbracelet/lipgloss"
	"github.com/muesli/termenv"

	"tpsrace/recording"
	"tpsrace/ui/theme"
)

func TestMain(m *testing.M) {
	lipgloss.SetColorProfile(termenv.Ascii)
	lipgloss.SetHasDarkBackground(true)
	os.Exit(m.Run())
}

// recorded is testdata/slots.tpsr.gz on the sweep view: a sweep of the
// simulator over loopback (bench --sweep 1,2,4,8,16 --runs 2 with an
// output_tps: 150 SLO) of eight full-speed slots at 200 tok/s and two at
// 600, its knee at C=2, tpsrace saturated at C=16 on a busy machine.
func recorded(t *testing.T, present bool) Model {
	t.Helper()
	rec, err := recording.Open("testdata/slots.tpsr.gz")
	if err != nil {
		t.Fatal(err)
	}
	in := rec.SweepReport()
	return New(context.Background(), Options{Config: in.Config, Levels: in.Asked, Raced: in.Levels, Stopped: in.Stopped,
		Present: present, Palette: theme.New(theme.Auto, true, termenv.Ascii)})
}
