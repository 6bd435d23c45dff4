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
// the ticks that land in each, so that row is a sample too).
func (m *measurer) cpuTable() {
	clients := m.cpuClients()
	fmt.Printf("| CPU per extra token (%d races − 1, %d streams × %d tokens at %d tok/s, loopback) |", manyRuns, streams, answer, simTPS)
	for _, c := range clients {
		fmt.Printf(" %s |", c.name)
	}
	for _, c := range clients[1:] {
		fmt.Printf(" %s ÷ floor |", c.name)
	}
	fmt.Printf("\n|---|%s\n", strings.Repeat("---|", 2*len(clients)-1))
	for _, chunk := range []int{1, 4} {
		all, user := m.marginalCPU(chunk, clients)
		row := func(what string, perToken []time.Duration) {
			fmt.Printf("| %d token(s)/event%s |", chunk, what)
			for _, d := range perToken {
				fmt.Printf(" %.0f ns |", float64(d))
			}
			for _, d := range perToken[1:] {
				fmt.Printf(" **%.2f×** |", float64(d)/float64(perToken[0]))
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
// the report's fixed part out: the medians of m.repeat samples, taken in
// turn (floor, decoding, tpsrace, floor, ...) so that a change in the
// machine's load falls on all of them alike.
func (m *measurer) marginalCPU(chunk int, clients []cpuClient) (all, user []time.Duration) {
	model := m.model(chunk)
	samples := make([][2][]time.Duration, len(clients))
	tokens := time.Duration((manyRuns - 1) * streams * answer)
	for range m.repeat {
		for i, c := range clients {
			many, one := c.run(model, manyRuns), c.run(model, 1)
			samples[i][0] = append(samples[i][0], (many.cpu-one.cpu)/tokens)
			samples[i][1] = append(samples[i][1], (many.user-one.user)/tokens)
		}
	}
	middle := func(v []time.Duration) time.Duration {
		slices.Sort(v)
		return v[len(v)/2]
	}
	for _, s := range samples {
		all, user = append(all, middle(s[0])), append(user, middle(s[1]))
	}
	return all, user
}
