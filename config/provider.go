// Package config turns providers.yaml into typed providers. Every error it
// returns names file:line:column and the key at fault, and no error or
// String method ever prints an API key.
package config

import (
	"fmt"
	"strings"
	"time"

	"tpsrace/workload"
)

// Kinds of provider.
const (
	KindOpenAI   = "openai"   // any OpenAI-compatible /chat/completions endpoint
	KindLlamaCpp = "llamacpp" // llama-server, attached (base_url) or spawned (model file)
)

// Config is one race: a prompt, its limits and the providers to race.
type Config struct {
	Path      string            // file it came from; "" for the built-in simulated race
	Prompt    string            // user message sent to every provider
	MaxTokens int               // max_tokens sent to every provider
	Timeout   Timeouts          // defaults for every provider
	Providers []Provider        // in file order, skipped ones removed
	Skipped   []Notice          // providers left out, and why (missing key, server not running...)
	Workload  workload.Workload // what the race asks for; the zero value is chat
	SLO       SLO               // the file's slo:, every provider's unless its own sets a bound
	Sweep     []int             // sweep: the concurrencies to race in turn (CheckSweep); nil: none
}

// Notice explains why a provider was skipped, with the place it was declared.
type Notice struct {
	Provider string
	Where    string // file:line:col
	Reason   string
}

func (n Notice) String() string { return n.Where + ": skipping " + n.Provider + ": " + n.Reason }

// Price is USD per million tokens.
type Price struct {
	InputPerMTok  float64 `yaml:"input_per_mtok"`
	OutputPerMTok float64 `yaml:"output_per_mtok"`
}

// Timeouts bound every phase of one stream. Zero means "use the default".
type Timeouts struct {
	Connect    time.Duration // dial + TLS + until response headers
	FirstToken time.Duration // release until the first text event
	Stall      time.Duration // longest gap allowed between two reads of the body
	Total      time.Duration // release until end of stream
}

// DefaultTimeouts are used for any phase neither the file nor a flag sets.
var DefaultTimeouts = Timeouts{Connect: 10 * time.Second, FirstToken: 60 * time.Second, Stall: 20 * time.Second, Total: 5 * time.Minute}

// Or fills every zero field of t from d.
func (t Timeouts) Or(d Timeouts) Timeouts {
	pick := func(a, b time.Duration) time.Duration {
		if a != 0 {
			return a
		}
		return b
	}
	return Timeouts{pick(t.Connect, d.Connect), pick(t.FirstToken, d.FirstToken), pick(t.Stall, d.Stall), pick(t.Total, d.Total)}
}

// SLO is the service level a stream must meet to count toward goodput
// (metrics.MeetsSLO): its first token within TTFT, an output speed of at
// least OutputTPS, the whole answer within E2E. A zero bound is not set;
// an SLO with none set is no SLO.
type SLO struct {
	TTFT      time.Duration
	OutputTPS float64
	E2E       time.Duration
}

// Set reports whether some bound is set.
func (s SLO) Set() bool { return s != SLO{} }

// Or fills every bound s does not set from d.
func (s SLO) Or(d SLO) SLO {
	if s.TTFT == 0 {
		s.TTFT = d.TTFT
	}
	if s.OutputTPS == 0 {
		s.OutputTPS = d.OutputTPS
	}
	if s.E2E == 0 {
		s.E2E = d.E2E
	}
	return s
}

// Provider is one entry of providers.yaml, with ${VAR}s expanded.
type Provider struct {
	Name    string
	Kind    string // KindOpenAI or KindLlamaCpp
	BaseURL string // ".../v1"; for spawned llama-server filled in at start
	APIKey  Secret // never printed; see KeyVar for what to show
	KeyVar  string // the environment variable the key came from, for hints ("check GROQ_API_KEY")
	Model   string
	Price   *Price
	Headers map[string]string
	Params  map[string]any // extra request body fields, passed through
	Timeout Timeouts       // already merged with the file's and the defaults
	SLO     SLO            // its slo:, merged with the file's

	// llama.cpp spawn mode (Kind == KindLlamaCpp and BaseURL == "").
	ModelPath string   // GGUF file, ~ expanded
	Server    string   // llama-server binary
	Args      []string // extra llama-server flags

	Where string // file:line:col of the entry, for errors about it

	// Box: for a llama.cpp server on this machine, what its memory roofline
	// rests on, measured when the server starts (llamacpp.BoxProbe) or read
	// from a recording; nil otherwise. Not configured.
	Box *Box
}

// Box is what the memory roofline of a llama.cpp lane rests on
// (metrics.MemoryRoofline): the machine's memory bandwidth and the size of
// one instance of its last-level cache (the one a core shares, an AMD CCX's
// L3, not the chip's sum), and the bytes of weights one decode step of the
// model reads. A figure not known is 0.
type Box struct {
	MemoryBandwidth float64 `json:"memory_bandwidth_bytes_per_s"`
	// BandwidthDisturbed: measured while something else slowed the copy
	// (llamacpp.CopyBandwidth), so MemoryBandwidth is low.
	BandwidthDisturbed bool  `json:"memory_bandwidth_disturbed,omitempty"`
	CacheBytes         int64 `json:"last_level_cache_bytes"`
	DecodeBytes        int64 `json:"decode_bytes_per_token"`
}

// Secret is a value that must never be shown: printing it with any fmt verb,
// or encoding it as JSON, gives "[REDACTED]", so a Provider in a log line, an
// error or a panic cannot leak its key. Reveal is the one way to read it.
type Secret string

func (s Secret) String() string               { return redacted(s) }
func (s Secret) GoString() string             { return redacted(s) }
func (s Secret) MarshalJSON() ([]byte, error) { return []byte(`"` + redacted(s) + `"`), nil }
func (s Secret) Format(f fmt.State, _ rune)   { fmt.Fprint(f, redacted(s)) }
func (s Secret) Reveal() string               { return string(s) }

func redacted(s Secret) string {
	if s == "" {
		return ""
	}
	return "[REDACTED]"
}

// Simulated reports whether the provider is served by tpsrace's simulator:
// the built-in providers, or a file's that names a sim: model (only the
// simulator serves those; a real provider refuses the model).
func (p Provider) Simulated() bool { return SimulatedModel(p.Model) }

// SimulatedModel reports whether model is one of the simulator's (sim:...).
func SimulatedModel(model string) bool { return strings.HasPrefix(model, "sim:") }

// Simulated reports whether any provider of the race is simulated. Such a
// race is a simulated race in every view (the dashboard's banner, bench's
// JSON and notes, a recording's header, watch's label), however it came to
// race: --simulated, the dashboard's fallback, a providers file pointed at
// a `tpsrace sim`, or a replay of one. Its figures are the simulator's, in
// whole or in part; where only some providers are, the views say how many
// (SimulatedCount) or name them. It is read from the providers, never set,
// so no view can tell it otherwise.
func (c *Config) Simulated() bool { return SimulatedCount(c.Providers) > 0 }

// SimulatedCount is how many of providers are simulated.
func SimulatedCount(providers []Provider) int {
	n := 0
	for _, p := range providers {
		if p.Simulated() {
			n++
		}
	}
	return n
}

// Spawned reports whether tpsrace must start llama-server itself.
func (p Provider) Spawned() bool { return p.Kind == KindLlamaCpp && p.BaseURL == "" }

// RedactedURL is BaseURL with any user:password replaced, safe to show.
func (p Provider) RedactedURL() string { return RedactURL(p.BaseURL) }

// RedactURL hides credentials embedded in a URL. It works on the text, so
// that a URL too broken to parse ("user:pass@host" without a scheme, a stray
// space) does not show its password either.
func RedactURL(raw string) string {
	scheme, rest := "", raw
	if i := strings.Index(raw, "://"); i >= 0 {
		scheme, rest = raw[:i+3], raw[i+3:]
	}
	authority := rest
	if end := strings.IndexAny(rest, "/?#"); end >= 0 {
		authority = rest[:end]
	}
	at := strings.LastIndex(authority, "@")
	if at < 0 {
		return raw
	}
	return scheme + "REDACTED" + rest[at:]
}
