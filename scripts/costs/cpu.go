//go:build unix

package main

import (
	"fmt"
	"slices"
	"strings"
	"time"
)

// cpuClient is one client of the CPU table: how to run some races of it.
type cpuClient struct {
	name string
	run  func(model string, runs int) usage
}

func (m *measurer) cpuClients() []cpuClient {
	clients := []cpuClient{
		{"floor", func(model string, runs int) usage { return m.client("floor", model, streams, runs) }},
		{"decoding", func(model string, runs int) usage { return m.client("decoding", model, streams, runs) }},
	}
	if m.baseline != "" {
		clients = append(clients, cpuClient{"tpsrace before", func(model string, runs int) usage {
			return m.benchOf(m.baseline, model, streams, runs)
		}})
	}
	return append(clients, cpuClient{"tpsrace", func(model string, runs int) usage { return m.bench(model, streams, runs) }})
}

// cpuTable prints CPU per extra token of each client, and its ratio to the
// floor's, at 1 and 4 tokens per event: user and system CPU together (the
// issue's figure), then user CPU alone. Every client makes about the same
// reads, whose system time moves by ±10% between runs of one build on a
// shared box; the user row is each client's own work, and what separates
// two builds (Linux splits a process's CPU time into user and system by
// the ticks that land in each, so that row is a sample too). A ratio is
// the median of the paired samples' ratios (each client's sample k was
// taken beside the floor's sample k), with their lowest and highest: the
// spread says how far one run of this table can move on this box.
func (m *measurer) cpuTable() {
	clients := m.cpuClients()
	fmt.Printf("| CPU per extra token (%d races − 1, %d streams × %d tokens at %d tok/s, loopback; ratios: median (lowest–highest) of %d paired samples) |", manyRuns, streams, answer, simTPS, m.repeat)
	for _, c := range clients {
		fmt.Printf(" %s |", c.name)
	}
	for _, c := range clients[1:] {
		fmt.Printf(" %s ÷ floor |", c.name)
	}
	fmt.Printf("\n|---|%s\n", strings.Repeat("---|", 2*len(clients)-1))
	for _, chunk := range []int{1, 4} {
		all, user := m.marginalCPU(chunk, clients)
		tokens := "tokens"
		if chunk == 1 {
			tokens = "token"
		}
		row := func(what string, samples [][]time.Duration) {
			fmt.Printf("| %d %s/event%s |", chunk, tokens, what)
			for _, s := range samples {
				fmt.Printf(" %.0f ns |", float64(middle(s)))
			}
			for _, s := range samples[1:] {
				ratios := make([]float64, len(s))
				for k := range s {
					ratios[k] = float64(s[k]) / float64(samples[0][k])
				}
				fmt.Printf(" **%.2f×** (%.2f–%.2f) |", middle(ratios), slices.Min(ratios), slices.Max(ratios))
			}
			fmt.Println()
		}
		row("", all)
		row(", user CPU alone", user)
	}
	fmt.Println()
}

// marginalCPU is each client's CPU per token of manyRuns races minus one
// race, in all and user alone, which leaves start-up, the vocabulary and
// the report's fixed part out: m.repeat samples of each, taken in turn
// (floor, decoding, tpsrace, floor, ...) so that a change in the machine's
// load falls on all of them alike.
func (m *measurer) marginalCPU(chunk int, clients []cpuClient) (all, user [][]time.Duration) {
	model := m.model(chunk)
	all, user = make([][]time.Duration, len(clients)), make([][]time.Duration, len(clients))
	tokens := time.Duration((manyRuns - 1) * streams * answer)
	for range m.repeat {
		for i, c := range clients {
			many, one := c.run(model, manyRuns), c.run(model, 1)
			all[i] = append(all[i], (many.cpu-one.cpu)/tokens)
			user[i] = append(user[i], (many.user-one.user)/tokens)
		}
	}
	return all, user
}

// middle is the median of v (the upper middle of an even count), v unchanged.
func middle[T int64 | time.Duration | float64](v []T) T {
	v = slices.Clone(v)
	slices.Sort(v)
	return v[len(v)/2]
}
