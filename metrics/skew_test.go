package metrics

import (
	"testing"
	"time"

	"tpsrace/probes"
	"tpsrace/workload"
)

func TestStartSkewOnOneMachine(t *testing.T) {
	us := time.Microsecond
	release := time.Unix(1, 0)
	streams := []probes.Result{{Release: release, Sent: 40 * us}, {Release: release, Sent: 12 * us}, {Release: release, Sent: 31 * us}, {Sent: time.Hour}}
	if s, ok := StartSkewOf(streams); !ok || s.Spread != 28*us || s.Bound != 0 || !s.Known || s.String() != "28µs" {
		t.Errorf("%+v (%v) %q; want 28µs (latest 40µs − earliest 12µs; a stream never released was not sent)", s, ok, s)
	}
	if _, ok := StartSkewOf(streams[:1]); ok {
		t.Error("one stream has no skew")
	}
	// A skew over the flag's 5ms limit reads over it, in the header as in
	// start_skew's evidence: not "5.0ms, over 5ms".
	for sent, want := range map[time.Duration]string{5040 * us: "5.04ms", 5000 * us: "5.0ms", 7200 * us: "7.2ms"} {
		skew, _ := StartSkewOf([]probes.Result{{Release: release}, {Release: release, Sent: sent}})
		if skew.String() != want {
			t.Errorf("start skew %v reads %q, want %q", sent, skew, want)
		}
	}
	flagged := RefereeOf(nil, workload.Workload{}, [][][]probes.Result{{{{Release: release}}, {{Release: release, Sent: 5040 * us}}}}).Races[0]
	if ev := flagged[FlagStartSkew]; ev != "start skew 5.04ms, over 5ms" {
		t.Errorf("start_skew evidence %q", ev)
	}
	// Streams that connected after the release were slowed on their way to
	// the request by it: the evidence says what opens them before.
	cold := probes.Result{Release: release, Sent: 5040 * us}
	cold.Phases.Connected = 4 * time.Millisecond
	flagged = RefereeOf(nil, workload.Workload{}, [][][]probes.Result{{{{Release: release}}, {cold}}}).Races[0]
	if ev := flagged[FlagStartSkew]; ev != "start skew 5.04ms, over 5ms; 1 stream connected after the release (--warm connects before it)" {
		t.Errorf("start_skew evidence, a cold stream: %q", ev)
	}
}

// Across hosts each stream's instant is its host's release after the common
// instant plus its own send; the bound is the two largest clock errors of
// the hosts involved, and a host whose clock is not synchronised makes the
// skew unknown.
func TestStartSkewAcrossHosts(t *testing.T) {
	us, ms := time.Microsecond, time.Millisecond
	release := time.Unix(1, 0)
	fra := &probes.Host{Name: "fra", Offset: 200 * us, Synchronised: true, ClockError: 400 * us}
	iad := &probes.Host{Name: "iad", Offset: 2 * ms, Synchronised: true, ClockError: 500 * us}
	sin := &probes.Host{Name: "sin", Offset: ms, Synchronised: true, ClockError: 300 * us}
	streams := []probes.Result{
		{Release: release, Host: fra, Sent: 300 * us}, {Release: release, Host: fra, Sent: 900 * us},
		{Release: release, Host: iad, Sent: 300 * us},
		{Release: release, Host: sin, Sent: 0},
	}
	s, ok := StartSkewOf(streams)
	if !ok || s.Spread != 1800*us || s.Bound != 900*us || s.Hosts != 3 || s.String() != "1.8ms ± 0.9ms across 3 probes" {
		t.Errorf("%+v (%v) %q; want 2.3ms − 0.5ms ± (0.5ms + 0.4ms) across 3 probes", s, ok, s)
	}
	if s.Over(2*ms) != true || s.Over(3*ms) {
		t.Error("1.8ms ± 0.9ms may be over 2ms, not over 3ms")
	}
	sin.Synchronised, sin.ClockError = false, 0
	s, ok = StartSkewOf(streams)
	if !ok || s.Known || !s.Over(time.Hour) || s.String() != "unknown across 3 probes (the clock of sin is not synchronised)" {
		t.Errorf("%+v (%v) %q; want unknown, naming sin", s, ok, s)
	}
	// One host's streams, as a merged race's report per probe reads them:
	// one clock read them, synchronised or not.
	if s, ok := StartSkewOf(streams[:2]); !ok || !s.Known || s.Spread != 600*us || s.Hosts != 0 || s.String() != "600µs" {
		t.Errorf("one host: %+v (%v) %q; want 600µs, on one clock", s, ok, s)
	}
}
