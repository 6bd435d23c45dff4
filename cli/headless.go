package cli

import (
	"context"
	"io"

	"tpsrace/probes"
)

// startHeadless loads the race of a command without the dashboard (bench,
// watch): local servers started with their progress on stderr, those that
// fail left out, and the race ready to run again and again on connections
// reused across races (runs of them, for the cost notice; at each level of
// a sweep, whose highest level sizes the local servers' slots and the
// notices). The session's close ends all of it.
func (f *raceFlags) startHeadless(ctx context.Context, runs int, stderr io.Writer) (*session, probes.Race, error) {
	s, err := f.load(ctx, stderr)
	if err != nil {
		return nil, probes.Race{}, err
	}
	if s.levels, err = f.levels(s.cfg); err != nil {
		s.close()
		return nil, probes.Race{}, err
	}
	levels := s.levels
	if levels == nil {
		levels = []int{f.concurrency}
	}
	f.preflight(s.cfg, levels, runs, stderr)
	s.local.startForBench(ctx, s.cfg, levels[len(levels)-1], stderr)
	if len(s.cfg.Providers) == 0 {
		s.close()
		return nil, probes.Race{}, errAllFailed
	}
	clients := &probes.Clients{}
	closeSession := s.close
	s.close = func() { clients.Close(); closeSession() }
	race := probes.Race{Providers: s.cfg.Providers, Request: probes.Request{Prompt: s.cfg.Prompt, MaxTokens: s.cfg.MaxTokens, Tool: s.cfg.Workload.Tool, Answer: s.cfg.Workload.Answer},
		Concurrency: f.concurrency, Retries: f.retries, Clients: clients, Warm: f.warm}
	return s, race, nil
}
