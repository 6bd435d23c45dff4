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
// floor's, at 1 and 4 tokens per event.
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
		perToken := m.marginalCPU(chunk, clients)
		fmt.Printf("| %d token(s)/event |", chunk)
		for _, d := range perToken {
			fmt.Printf(" %.0f ns |", float64(d))
		}
		for _, d := range perToken[1:] {
			fmt.Printf(" **%.2f×** |", float64(d)/float64(perToken[0]))
		}
		fmt.Println()
	}
	fmt.Println()
}

// marginalCPU is each client's CPU per token of manyRuns races minus one
// race, which leaves start-up, the vocabulary and the report's fixed part
// out: the median of m.repeat samples, taken in turn (floor, decoding,
// tpsrace, floor, ...) so that a change in the machine's load falls on all
// of them alike.
func (m *measurer) marginalCPU(chunk int, clients []cpuClient) []time.Duration {
	model := m.model(chunk)
	samples := make([][]time.Duration, len(clients))
	for range m.repeat {
		for i, c := range clients {
			perToken := (c.run(model, manyRuns).cpu - c.run(model, 1).cpu) / time.Duration((manyRuns-1)*streams*answer)
			samples[i] = append(samples[i], perToken)
		}
	}
	medians := make([]time.Duration, len(clients))
	for i, v := range samples {
		slices.Sort(v)
		medians[i] = v[len(v)/2]
	}
	return medians
}
