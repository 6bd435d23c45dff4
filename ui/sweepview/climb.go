package sweepview

import (
	"context"
	"slices"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"tpsrace/benchdoc"
	"tpsrace/probes"
)

// levelStartMsg: the sweep began racing its level at concurrency (index
// of the levels asked), streams in all over its races.
type levelStartMsg struct {
	concurrency, index, streams int
}

// progressMsg: done of the level's streams have ended.
type progressMsg struct{ done int }

// levelDoneMsg: a level's races ended.
type levelDoneMsg struct{ level benchdoc.Level }

// sweepDoneMsg: the sweep ended; stopped says why it stopped climbing
// when tpsrace saturated (benchdoc.Stop), "" otherwise.
type sweepDoneMsg struct{ stopped string }

// climb races the sweep in a goroutine (benchdoc.Climb: each level warmed,
// stopping where tpsrace saturates) and sends what happens to out. A level
// runs opts.Runs races, each passed to opts.Record. Progress is dropped
// when the program is behind, never the levels: the races never wait on a
// frame.
func climb(ctx context.Context, opts Options, out chan<- tea.Msg) {
	defer close(out)
	runs := max(opts.Runs, 1)
	_, stopped := benchdoc.Climb(ctx, opts.Race, opts.Levels, func(race probes.Race) [][][]probes.Result {
		out <- levelStartMsg{race.Concurrency, slices.Index(opts.Levels, race.Concurrency), runs * race.Concurrency * len(race.Providers)}
		var races [][][]probes.Result
		done := 0
		seq := opts.Config.Workload.Sequence()
		for range runs {
			if ctx.Err() != nil {
				break
			}
			_, race.Request.Nonce = seq.Next(time.Now())
			updates := make(chan probes.Update, 1024)
			drained := make(chan struct{})
			go func() {
				defer close(drained)
				for u := range updates {
					if u.Done == nil {
						continue
					}
					done++
					select {
					case out <- progressMsg{done}:
					default:
					}
				}
			}()
			results := race.Run(ctx, updates)
			close(updates)
			<-drained
			races = append(races, results)
			if opts.Record != nil {
				opts.Record(results)
			}
		}
		out <- levelDoneMsg{benchdoc.Level{Concurrency: race.Concurrency, Races: races}}
		return races
	})
	out <- sweepDoneMsg{stopped}
}

// listen is the command that waits for climb's next message.
func listen(in <-chan tea.Msg) tea.Cmd {
	return func() tea.Msg {
		msg, ok := <-in
		if !ok {
			return nil
		}
		return msg
	}
}
