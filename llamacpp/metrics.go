package llamacpp

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"strconv"
	"strings"

	"tpsrace/config"
)

// Counters of llama-server's /metrics, all since the server started: take
// them before and after a race and subtract, for an attached server that
// served others before. The server adds a request to them when it ends.
const (
	MetricPromptTokens     = "llamacpp:prompt_tokens_total"            // prompt tokens processed
	MetricPromptSeconds    = "llamacpp:prompt_seconds_total"           // time spent on prompts, summed over slots
	MetricPredictedTokens  = "llamacpp:tokens_predicted_total"         // tokens generated
	MetricPredictedSeconds = "llamacpp:tokens_predicted_seconds_total" // time spent generating, summed over slots
)

// Gauges of /metrics: the state at the moment of the request.
const (
	MetricRequestsProcessing = "llamacpp:requests_processing" // busy slots
	MetricRequestsDeferred   = "llamacpp:requests_deferred"   // requests waiting for a slot
)

const metricsLimit = 4 << 20

// FetchMetrics reads GET /metrics of the server at p.BaseURL: every sample,
// by name (with its labels, if any, as written: `name{a="b"}`). llama-server
// serves it only when started with --metrics, as Start does.
func FetchMetrics(ctx context.Context, p config.Provider) (map[string]float64, error) {
	resp, err := getOK(ctx, p, "/metrics")
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	m, err := parseMetrics(io.LimitReader(resp.Body, metricsLimit))
	if err != nil {
		return nil, fmt.Errorf("GET %s/metrics: %w", config.RedactURL(root(p.BaseURL)), err)
	}
	return m, nil
}

// parseMetrics reads the Prometheus text format as llama-server writes it:
// "# HELP" and "# TYPE" comments, and one "name value [timestamp]" sample a
// line. A hand parser, because expfmt (the official one) brings protobuf and
// half of Prometheus with it for a dozen plain counters.
func parseMetrics(r io.Reader) (map[string]float64, error) {
	metrics := map[string]float64{}
	sc := bufio.NewScanner(r)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" || line[0] == '#' {
			continue
		}
		// A label value may hold spaces: the name runs to the closing brace.
		nameEnd := strings.IndexAny(line, " \t")
		if brace := strings.LastIndexByte(line, '}'); brace >= 0 && strings.IndexByte(line, '{') < nameEnd {
			nameEnd = brace + 1
		}
		if nameEnd <= 0 || nameEnd >= len(line) {
			return nil, fmt.Errorf("line %d: want \"name value\", got %q", n, line)
		}
		fields := strings.Fields(line[nameEnd:])
		value, err := strconv.ParseFloat(fields[0], 64) // "NaN" and "+Inf" included
		if err != nil || len(fields) > 2 {
			return nil, fmt.Errorf("line %d: want \"name value\", got %q", n, line)
		}
		metrics[line[:nameEnd]] = value
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	return metrics, nil
}
