package cli

import (
	"encoding/json"
	"strconv"
	"strings"
	"testing"

	"tpsrace/benchdoc"
	"tpsrace/sim"
	"tpsrace/sim/simtest"
	"tpsrace/testenv"
)

// The check: a server with 8 full-speed decode slots at 100 tok/s
// (each user gets 100 × 8/C past 8), swept over 1,2,4,8,16,32: per user
// about 100 up to C=8, then 50 and 25; aggregate about 100·C, then 800;
// the knee at 8. Each figure within 7% (the aggregate's own window
// includes the request's way in and out, a few ms of 640). Wall-clock
// speeds: testenv.Timed's rule. A level at which tpsrace itself saturated
// (the sweep stops there, or a level is flagged client_saturated) is the
// client's own load reading.
func TestSweepFindsTheSlotsKnee(t *testing.T) {
	srv := simtest.Start(t, sim.Options{})
	dir := t.TempDir()
	const model = "sim:ttft=0s,tps=100,tokens=64,batch=8"
	cfg := write(t, dir, "p.yaml", "max_tokens: 64\nproviders:\n  - name: slots\n    base_url: "+srv.URL()+"\n    model: \""+model+"\"\n")
	sched, _ := sim.ParseSchedule(model)
	sweep := func() benchdoc.Bench {
		code, out, errOut := run(t, dir, "bench", "--config", cfg, "--sweep", "1,2,4,8,16,32", "--format", "json")
		if code != 0 {
			t.Fatalf("exit %d: %s", code, errOut)
		}
		var doc benchdoc.Bench
		if err := json.Unmarshal([]byte(out), &doc); err != nil || doc.Sweep == nil || len(doc.Levels) == 0 {
			t.Fatalf("no sweep in the document (%v):\n%s", err, out)
		}
		return doc
	}
	if !timingAsserted { // the detector's own load saturates tpsrace, and the sweep rightly stops: no figure is held
		doc := sweep()
		t.Logf("under the race detector: %s", doc.SweepVerdict)
		return
	}
	testenv.Timed(t, func(a *testenv.Attempt) {
		doc := sweep()
		if doc.SweepStopped != nil {
			a.Load = *doc.SweepStopped
			a.Missf("the sweep stopped climbing")
		}
		for _, level := range doc.Levels {
			p := level.Providers[0]
			if p.ClientBent {
				a.Load = "C=" + strconv.Itoa(level.Concurrency) + ": " + p.Evidence["client_saturated"]
			}
			if p.PerUserTPS == nil || p.AggregateTPS == nil {
				t.Fatalf("C=%d: no per-user or aggregate speed: %+v", level.Concurrency, p)
			}
			c := strconv.Itoa(level.Concurrency)
			a.Within("C="+c+" per user", *p.PerUserTPS, sched.PerUserTPS(level.Concurrency), 0.07, "tok/s")
			a.Within("C="+c+" aggregate", *p.AggregateTPS, sched.AggregateTPS(level.Concurrency), 0.07, "tok/s")
		}
		if k := doc.Knees[0]; k.Concurrency == nil || *k.Concurrency != 8 {
			a.Missf("knee %v, want 8 (%s)", value(k.Concurrency), doc.SweepVerdict)
		}
		if !strings.HasPrefix(doc.SweepVerdict, "slots holds ") || !strings.Contains(doc.SweepVerdict, " at C=8") {
			a.Missf("verdict: %s", doc.SweepVerdict)
		}
	})
}

func value[T any](p *T) any {
	if p == nil {
		return "null"
	}
	return *p
}

// --sweep's levels are checked before anything is sent, and what a
// dashboard sweep cannot honour is refused before the terminal is taken.
func TestSweepFlagErrors(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"bench", "--simulated", "--sweep", "4,2"}, "--sweep \"4,2\": levels must rise"},
		{[]string{"bench", "--simulated", "--sweep", "1,4", "--concurrency", "2"}, "give one of them"},
		{[]string{"bench", "--simulated", "--sweep", "1,4", "--workload", "tool-call"}, "a concurrency sweep races the chat workload"},
		{[]string{"--simulated", "--sweep", "1,4", "--finish-at", "20"}, "a sweep's curve is per-user and aggregate speed"},
		{[]string{"--simulated", "--sweep", "1,4", "--start-at", "+1m"}, "a sweep races one per level"},
		{[]string{"--simulated", "--sweep", "1,4"}, "the dashboard needs a terminal"},
		{[]string{"bench", "--simulated", "--sweep", "1,4", "--start-at", "+1m"}, "a sweep races one per level"},
	} {
		if code, _, errOut := run(t, t.TempDir(), c.args...); code != 2 || !strings.Contains(errOut, c.want) {
			t.Errorf("%v: exit %d, %q; want 2 and %q", c.args, code, errOut, c.want)
		}
	}
}

// A recorded sweep replays to the same sweep: every level, the knees, the
// verdict and why it stopped (asked again of the recorded loads); the
// dashboard replay (ui/sweepview) needs a terminal, and films no sweep.
func TestSweepRecordingReplays(t *testing.T) {
	srv := simtest.Start(t, sim.Options{})
	dir := t.TempDir()
	cfg := write(t, dir, "p.yaml", "max_tokens: 20\nproviders:\n  - name: a\n    base_url: "+srv.URL()+"\n    model: \"sim:ttft=0s,tps=800,tokens=20,batch=2\"\n"+
		"  - name: b\n    base_url: "+srv.URL()+"\n    model: \"sim:ttft=5ms,tps=400,tokens=20\"\nsweep: [1, 2, 4]\n")
	code, live, errOut := run(t, dir, "bench", "--config", cfg, "--runs", "2", "--format", "json", "--record", "s.tpsr")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	code, replayed, errOut := run(t, dir, "replay", "s.tpsr", "--bench", "--format", "json")
	if code != 0 {
		t.Fatalf("replay: exit %d: %s", code, errOut)
	}
	var a, b benchdoc.Bench
	if json.Unmarshal([]byte(live), &a) != nil || json.Unmarshal([]byte(replayed), &b) != nil || a.Sweep == nil || b.Sweep == nil {
		t.Fatalf("documents without a sweep:\n%s\n%s", live, replayed)
	}
	want, _ := json.Marshal(a.Sweep)
	got, _ := json.Marshal(b.Sweep)
	if string(got) != string(want) {
		t.Errorf("replayed sweep\n%s\nwant the live one\n%s", got, want)
	}
	if len(a.Levels) == 0 || len(a.Levels[0].Providers) != 2 || a.Levels[0].Providers[0].OK != 2 {
		t.Errorf("levels %+v: want 2 providers with 2 streams (2 runs) at C=1", a.Levels)
	}
	if code, _, errOut := run(t, dir, "replay", "s.tpsr"); code != 2 || !strings.Contains(errOut, "the dashboard needs a terminal") {
		t.Errorf("dashboard replay: exit %d, %q", code, errOut)
	}
	if code, _, errOut := run(t, dir, "replay", "s.tpsr", "--gif", "s.gif"); code != 2 || !strings.Contains(errOut, "film a race, not a sweep") {
		t.Errorf("replay --gif: exit %d, %q", code, errOut)
	}
}
