package config

import (
	"fmt"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"
)

// MaxConcurrency is the most simultaneous streams per provider tpsrace
// accepts. Each stream holds a socket and a goroutine on this machine; well
// before a thousand of them the race measures the client's own sockets and
// scheduler more than the provider, and real providers rate-limit far lower.
const MaxConcurrency = 1024

// MaxSweepLevels bounds a sweep's levels: each is a race of its own.
const MaxSweepLevels = 16

// CheckSweep is the one rule for a concurrency sweep's levels (--sweep,
// sweep:): 2 to MaxSweepLevels of them, each 1 to MaxConcurrency users,
// rising, so the curve is read in the order it was raced.
func CheckSweep(levels []int) error {
	switch {
	case len(levels) < 2:
		return fmt.Errorf("a sweep needs at least two levels, got %v (one level is --concurrency N)", levels)
	case len(levels) > MaxSweepLevels:
		return fmt.Errorf("at most %d levels, got %d", MaxSweepLevels, len(levels))
	}
	for i, c := range levels {
		if c < 1 || c > MaxConcurrency {
			return fmt.Errorf("level %d must be 1 to %d users, got %d", i+1, MaxConcurrency, c)
		}
		if i > 0 && c <= levels[i-1] {
			return fmt.Errorf("levels must rise, got %d after %d", c, levels[i-1])
		}
	}
	return nil
}

// ParseSweep reads --sweep's comma-separated levels ("1,4,16,64").
func ParseSweep(text string) ([]int, error) {
	var levels []int
	for _, item := range strings.Split(text, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(item))
		if err != nil {
			return nil, fmt.Errorf("%q: want whole numbers, comma-separated, such as 1,4,16,64", text)
		}
		levels = append(levels, n)
	}
	if err := CheckSweep(levels); err != nil {
		return nil, fmt.Errorf("%q: %w", text, err)
	}
	return levels, nil
}

// sweep reads sweep: [1, 4, 16, 64].
func (p *parser) sweep(n *yaml.Node) []int {
	if n == nil {
		return nil
	}
	n = resolve(n)
	const hint = "write it as [1, 4, 16, 64]"
	if n.Kind != yaml.SequenceNode {
		p.fail(n, "sweep", "expected a list of concurrencies, got "+describe(n), hint)
		return nil
	}
	var levels []int
	for i, item := range n.Content {
		v, ok := p.wholeNumber(item, fmt.Sprintf("sweep[%d]", i))
		if !ok {
			return nil
		}
		levels = append(levels, v)
	}
	if err := CheckSweep(levels); err != nil {
		p.fail(n, "sweep", err.Error(), hint)
		return nil
	}
	return levels
}
