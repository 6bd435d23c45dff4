package metrics

import (
	"strconv"

	"tpsrace/format"
	"tpsrace/workload"
)

// long-context: the prompt padded to each input size, one race per size;
// TTFT per size and the prefill speed they imply (PrefillTPS).
func init() {
	describe(Description{Workload: workload.LongContext, Figures: longContextFigures,
		StepHeader: "input", Step: func(s workload.Step, _ int) string { return format.Count(s.InputTokens) },
		Waiting: func(of string) string { return "size " + of + " raced · the prefill verdict comes with the last size" }})
}

func longContextFigures(w workload.Workload) []Figure {
	var figs []Figure
	for _, size := range w.InputTokens {
		figs = append(figs, Figure{Header: "TTFT " + SizeLabel(size), Name: "TTFT at " + format.Count(size) + " input tokens",
			Key: "ttft_by_input[input_tokens=" + strconv.Itoa(size) + "].ttft_ms.p50", Unit: Seconds, Detail: true,
			Help: "Median TTFT of the streams whose prompt was padded to this size.",
			Of: func(wr WorkloadRuns) Reading {
				for _, s := range wr.BySize {
					if s.InputTokens == size {
						return dist(s.TTFT)
					}
				}
				return Reading{}
			}})
	}
	return append(figs, Figure{Header: "prefill tok/s", Name: "prefill speed estimate", Key: "prefill_tps",
		Gauge: "tpsrace_last_prefill_tokens_per_second", Unit: TokensPerSecond, Better: HigherIsBetter, Decides: true,
		Help: "Input tokens per second of TTFT, the least-squares slope over the sizes raced; undefined, with why, " +
			"for one size, a flat or a noisy sweep.",
		Of: func(wr WorkloadRuns) Reading {
			r := wr.Ranked
			return Reading{Value: r.PrefillTPS, OK: r.HasPrefillTPS, Approx: true, Why: string(r.NoPrefill)}
		}})
}

// SizeLabel is an input size in a header: "1k", "32k", "1.5k", "500".
func SizeLabel(n int) string {
	if n < 1000 {
		return strconv.Itoa(n)
	}
	return strconv.FormatFloat(float64(n)/1000, 'f', -1, 64) + "k"
}
