package metrics

import (
	"slices"
	"testing"
	"time"

	"tpsrace/config"
)

func TestMeetsSLO(t *testing.T) {
	slo := config.SLO{TTFT: 500 * ms, OutputTPS: 50, E2E: 10 * time.Second}
	good := Figures{Completed: true, HasTTFT: true, TTFT: 500 * ms, HasOutputTPS: true, OutputTPS: 50, E2E: 10 * time.Second}
	if missed := MeetsSLO(good, slo); missed != nil {
		t.Errorf("on every bound exactly: missed %v", missed)
	}
	slow := good
	slow.TTFT, slow.OutputTPS = 501*ms, 49.9
	if missed := MeetsSLO(slow, slo); !slices.Equal(missed, []string{BoundTTFT, BoundOutputTPS}) {
		t.Errorf("slow: missed %v", missed)
	}
	failed := Figures{E2E: time.Second}
	if missed := MeetsSLO(failed, config.SLO{E2E: 2 * time.Second}); !slices.Equal(missed, []string{BoundCompleted}) {
		t.Errorf("failed: missed %v", missed)
	}
	oneEvent := good
	oneEvent.HasOutputTPS = false
	if missed := MeetsSLO(oneEvent, config.SLO{OutputTPS: 1}); !slices.Equal(missed, []string{BoundOutputTPS}) {
		t.Errorf("no speed: missed %v", missed)
	}
}

func TestGoodputOf(t *testing.T) {
	slo := config.SLO{TTFT: 500 * ms}
	streams := []Figures{{Completed: true, HasTTFT: true, TTFT: 100 * ms}, {Completed: true, HasTTFT: true, TTFT: 600 * ms},
		{Completed: true, HasTTFT: true, TTFT: 200 * ms}, {HasTTFT: true, TTFT: 50 * ms}}
	g, ok := GoodputOf(streams, slo, 2*time.Second, 4)
	if !ok || g.Met != 2 || g.Streams != 4 || g.Share != 0.5 || !g.HasPerSecond || g.PerSecond != 1 {
		t.Errorf("%+v %v", g, ok)
	}
	if g, _ := GoodputOf(streams, slo, 2*time.Second, 1); g.HasPerSecond {
		t.Errorf("C=1 has no rate: %+v", g)
	}
	if _, ok := GoodputOf(streams, config.SLO{}, time.Second, 4); ok {
		t.Error("no SLO, no goodput")
	}
}
