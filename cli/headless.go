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
	go probes.Warm() // on another core while the providers file is read: off the way to the first request
	s, err := f.load(ctx, stderr)
	if err != nil {
		return nil, probes.Race{}, err
	}
	if s.levels, err = f.levels(s.cfg); err != nil {
		s.close()
		return nil, probes.Race{}, err
	}
	race, err := f.readyHeadless(ctx, s, runs, stderr)
	if err != nil {
		s.close()
		return nil, probes.Race{}, err
	}
	return s, race, nil
}

// readyHeadless starts a loaded session's local servers for its levels (or
// --concurrency's one) and makes its race, on pooled connections the
// session's close closes. The dashboard's sweep, raced without lanes,
// readies its session the same way.
func (f *raceFlags) readyHeadless(ctx context.Context, s *session, runs int, stderr io.Writer) (probes.Race, error) {
	levels := s.levels
	if levels == nil {
		levels = []int{f.concurrency}
	}
	f.preflight(s.cfg, levels, runs, stderr)
	s.local.startForBench(ctx, s.cfg, levels[len(levels)-1], stderr)
	if len(s.cfg.Providers) == 0 {
		return probes.Race{}, errAllFailed
	}
	clients := &probes.Clients{}
	closeSession := s.close
	s.close = func() { clients.Close(); closeSession() }
	return probes.Race{Providers: s.cfg.Providers, Request: probes.Request{Prompt: s.cfg.Prompt, MaxTokens: s.cfg.MaxTokens, Tool: s.cfg.Workload.Tool, Answer: s.cfg.Workload.Answer},
		Concurrency: f.concurrency, Retries: f.retries, Clients: clients, Warm: f.warm}, nil
}
