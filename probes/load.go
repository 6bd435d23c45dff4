package probes

import (
	"math"
	"runtime"
	"runtime/metrics"
	"time"
)

// ClientLoad is how busy tpsrace itself was during a race, so that a race
// can say when it measured its own client rather than the providers
// (metrics' client_saturated flag).
type ClientLoad struct {
	// CPU: the process's CPU time over the race ÷ (GOMAXPROCS × the race's
	// wall time): 1 means every core Go may use was busy. NaN where the
	// platform does not report process CPU time.
	CPU        float64
	GOMAXPROCS int
	// SchedP99: the 99th percentile of the time goroutines waited runnable
	// before running (runtime/metrics /sched/latencies:seconds) during the
	// race: the probes' reads wait this long when the client is the
	// bottleneck. Bucket resolution: the upper bound of the bucket.
	SchedP99 time.Duration
}

const schedLatencies = "/sched/latencies:seconds"

// loadMeter takes the process's CPU time and scheduling latencies at the
// release, to subtract from those at the end.
type loadMeter struct {
	start time.Time
	cpu   time.Duration
	sched *metrics.Float64Histogram
}

func startLoad() *loadMeter {
	s := []metrics.Sample{{Name: schedLatencies}}
	metrics.Read(s)
	return &loadMeter{start: time.Now(), cpu: processCPU(), sched: s[0].Value.Float64Histogram()}
}

// end is the load from startLoad to now.
func (m *loadMeter) end() *ClientLoad {
	wall := time.Since(m.start)
	s := []metrics.Sample{{Name: schedLatencies}}
	metrics.Read(s)
	l := &ClientLoad{GOMAXPROCS: runtime.GOMAXPROCS(0), CPU: math.NaN()}
	if cpu := processCPU(); cpu >= 0 && m.cpu >= 0 && wall > 0 {
		l.CPU = float64(cpu-m.cpu) / (float64(wall) * float64(l.GOMAXPROCS))
	}
	l.SchedP99 = histogramP99(m.sched, s[0].Value.Float64Histogram())
	return l
}

// histogramP99 is the upper bound of the bucket holding the 99th
// percentile of what after counted beyond before (same buckets).
func histogramP99(before, after *metrics.Float64Histogram) time.Duration {
	if before == nil || after == nil || len(before.Counts) != len(after.Counts) {
		return 0
	}
	var total uint64
	for i := range after.Counts {
		total += after.Counts[i] - before.Counts[i]
	}
	if total == 0 {
		return 0
	}
	rank := uint64(math.Ceil(0.99 * float64(total)))
	var seen uint64
	for i := range after.Counts {
		if seen += after.Counts[i] - before.Counts[i]; seen >= rank {
			upper := after.Buckets[i+1]
			if math.IsInf(upper, 1) {
				upper = after.Buckets[i]
			}
			return time.Duration(upper * float64(time.Second))
		}
	}
	return 0
}
