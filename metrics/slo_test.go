package metrics

import (
	"slices"
	"testing"
	"time"

	"tpsrace/config"
	"tpsrace/probes"
	"tpsrace/workload"
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

// Goodput counts the ended streams under an SLO, a failure never good; a
// stream in flight has met nothing yet; good answers per second only at
// C > 1, over the races' time.
func TestGoodputOfWorkloadRuns(t *testing.T) {
	slo := config.SLO{TTFT: 500 * ms}
	stream := func(f Figures) Stream { f.E2E = time.Second; return Stream{Figures: f}.JudgeSLO(slo) }
	race := []Stream{stream(Figures{Completed: true, HasTTFT: true, TTFT: 100 * ms}), stream(Figures{Completed: true, HasTTFT: true, TTFT: 600 * ms}),
		stream(Figures{Completed: true, HasTTFT: true, TTFT: 200 * ms}), stream(Figures{HasTTFT: true, TTFT: 50 * ms})}
	wr := WorkloadRunsOf(workload.Workload{}, [][]Stream{race, race}, 0)
	if g := wr.All.Goodput; !wr.All.HasGoodput || g.Met != 4 || g.Streams != 8 || g.Share != 0.5 || !g.HasPerSecond || g.PerSecond != 2 {
		t.Errorf("%+v", g)
	}
	one := WorkloadRunsOf(workload.Workload{}, [][]Stream{race[:1], race[1:2]}, 0)
	if g := one.All.Goodput; g.HasPerSecond || g.Met != 1 || g.Streams != 2 {
		t.Errorf("C=1 has no rate: %+v", g)
	}
	inFlight := SummaryOf([]Stream{race[0], StreamSoFar(probes.Events{}, 0).JudgeSLO(slo)}, 0)
	if g := inFlight.Goodput; g.Streams != 1 || g.Met != 1 {
		t.Errorf("a stream in flight is not judged yet: %+v", g)
	}
	if r := SummaryOf([]Stream{{Figures: race[0].Figures}}, 0); r.HasGoodput {
		t.Error("no SLO, no goodput")
	}
}
