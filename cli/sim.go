package cli

import (
	"context"
	"flag"
	"fmt"
	"io"

	"tpsrace/sim"
)

// simCmd is `tpsrace sim`: the simulator alone, for demos, other tools, and
// for pointing providers.yaml at.
type simCmd struct {
	addr string
	opts sim.Options
}

func (c *simCmd) flags() *flag.FlagSet {
	fs := flag.NewFlagSet("tpsrace sim", flag.ContinueOnError)
	fs.StringVar(&c.addr, "addr", "127.0.0.1:8088", "address to listen on")
	fs.DurationVar(&c.opts.LoadTime, "load-time", 0, "answer /health with 503 \"Loading model\" for this long, as llama-server does")
	fs.IntVar(&c.opts.Slots, "slots", 0, "generate at most N streams at once, queueing the rest (llama-server --parallel); 0 = unlimited")
	fs.DurationVar(&c.opts.AcceptDelay, "accept-delay", 0, "accept each connection this late (a slow-connect fault)")
	return fs
}

func (c *simCmd) run(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := c.flags()
	if err := parseFlags(fs, args, stdout); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return usageError{fmt.Errorf("sim takes no arguments, got %q (see: tpsrace help sim)", fs.Args())}
	}
	srv, err := sim.Start(c.addr, c.opts)
	if err != nil {
		return usageError{fmt.Errorf("--addr %s: %w", c.addr, err)}
	}
	defer srv.Close()
	fmt.Fprintf(stdout, simURLPrefix+"%s\nmodels: sim:wafer, sim:lpu, sim:gpu, sim:laptop, or sim:ttft=250ms,tps=400,tokens=300,chunk=1 (see docs/SIMULATOR.md)\n", srv.URL())
	<-ctx.Done()
	return nil
}
