package benchdoc_test

import (
	"strings"
	"testing"

	"tpsrace/testenv"
)

// The felt stream against servers whose rhythm is known: a planned pause
// is exactly one stall of its length; a stream slower than reading makes
// the reader wait what each gap exceeds a word's reading time (250 ms at
// 240 words/min); a fast steady one never stalls nor makes one wait.
func TestFeelAgainstKnownRhythms(t *testing.T) {
	// The figures are measured on the wall clock: a busy machine adds
	// jitter to the gaps (a stall longer, a steady stream less even), so a
	// miss is measured again where the client saw its own load
	// (testenv.Timed).
	testenv.Timed(t, func(a *testenv.Attempt) {
		errorf := a.Missf
		b := raceRuns(t, 1, []string{"paused", "slow", "steady", "dropped"}, func(int) []string {
			return []string{"sim:ttft=5ms,tps=2000,tokens=30,pause=400ms@10", "sim:ttft=5ms,tps=2,tokens=4", "sim:ttft=5ms,tps=100,tokens=20",
				"sim:ttft=5ms,tps=100,tokens=20,fault=close,after=10"}
		}, 0)
		paused, slow, steady := b.Providers[0].Streams[0], b.Providers[1].Streams[0], b.Providers[2].Streams[0]
		a.Load = saturation(b)

		// The client reads the paused event a little earlier or later than the
		// one before it, so the gap is the pause within a few ms.
		if paused.Stalls == nil || *paused.Stalls != 1 || paused.LongestStallMS == nil || *paused.LongestStallMS < 380 || *paused.LongestStallMS > 600 {
			errorf("pause=400ms@10: stalls %v longest %v ms, want 1 of 400 ms", deref(paused.Stalls), deref(paused.LongestStallMS))
		}
		if label := b.Providers[0].Summary.FeelLabel; label == nil || !strings.HasPrefix(*label, "1 stall · ") {
			errorf("pause=400ms@10: feel %v", deref(label))
		}
		if paused.ReaderWaitMS == nil || *paused.ReaderWaitMS != 0 {
			errorf("10 words in 5 ms, then the pause: the reader still reads them; wait %v", deref(paused.ReaderWaitMS))
		}

		// Gaps of 500 ms: 3 stalls, each a wait of 500 − 250 ms.
		if slow.Stalls == nil || *slow.Stalls != 3 || slow.ReaderWaitMS == nil || *slow.ReaderWaitMS < 700 || *slow.ReaderWaitMS > 850 {
			errorf("tps=2: stalls %v reader wait %v ms, want 3 and about 750", deref(slow.Stalls), deref(slow.ReaderWaitMS))
		}

		if steady.Stalls == nil || *steady.Stalls != 0 || steady.LongestStallMS != nil || *steady.ReaderWaitMS != 0 {
			errorf("tps=100: stalls %v longest %v wait %v", deref(steady.Stalls), deref(steady.LongestStallMS), deref(steady.ReaderWaitMS))
		}
		// Gaps of 10 ms never pause visibly; gaps of 500 ms are all pause.
		if steady.PausedShare == nil || *steady.PausedShare != 0 || slow.PausedShare == nil || *slow.PausedShare != 1 {
			errorf("paused share: tps=100 %v, want 0; tps=2 %v, want 1", deref(steady.PausedShare), deref(slow.PausedShare))
		}
		if label := b.Providers[2].Summary.FeelLabel; label == nil || *label != "smooth" {
			errorf("tps=100: feel %v, want smooth", deref(label))
		}

		// The same steady rhythm, dropped after 10 tokens: its figures are what
		// arrived, but a stream that failed is not called smooth (properties,
		// not timings: never retried).
		dropped := b.Providers[3]
		if run := dropped.Streams[0]; dropped.Summary.Failed != 1 || run.Burstiness == nil || run.Stalls == nil {
			t.Errorf("fault=close,after=10: failed %d, burstiness %v, stalls %v", dropped.Summary.Failed, deref(run.Burstiness), deref(run.Stalls))
		}
		if run := dropped.Streams[0]; run.Stalls != nil && *run.Stalls != 0 {
			errorf("fault=close,after=10: %d stalls in a steady rhythm, want 0", *run.Stalls)
		}
		if label := dropped.Summary.FeelLabel; label != nil {
			t.Errorf("fault=close,after=10: feel %q, want none (null)", *label)
		}
	})
}

func deref[T any](p *T) any {
	if p == nil {
		return nil
	}
	return *p
}
