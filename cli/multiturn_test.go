package cli

import (
	"encoding/json"
	"strconv"
	"strings"
	"testing"
	"time"

	"tpsrace/format"
	"tpsrace/sim"
	"tpsrace/sim/simtest"
)

// A multi-turn race: each turn carries the provider's own earlier answers
// (its prompt grows by them), runs say their turn, and the verdict is on
// the whole conversation's time.
func TestBenchMultiTurn(t *testing.T) {
	dir := t.TempDir()
	srv, err := sim.Start("127.0.0.1:0", sim.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	cfg := write(t, dir, "p.yaml", `max_tokens: 20
workload: {name: multi-turn, follow_ups: ["Shorter, please.", "One word."]}
providers:
  - {name: slow, base_url: `+srv.URL()+`, model: "sim:ttft=60ms,tps=300,tokens=20"}
  - {name: fast, base_url: `+srv.URL()+`, model: "sim:ttft=10ms,tps=2000,tokens=20"}
`)
	code, out, errOut := run(t, dir, "bench", "--config", cfg, "--format", "json", "--record", "race.tpsr")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var doc multiTurnBench
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatal(err)
	}
	if doc.Runs != 3 || doc.Verdict.Metric != "conversation" || !strings.HasPrefix(doc.Verdict.Text, "fast is ") ||
		!strings.Contains(doc.Verdict.Text, "faster than slow over the conversation (") {
		t.Errorf("runs %d, verdict %+v", doc.Runs, doc.Verdict)
	}
	for _, p := range doc.Providers {
		checkConversation(t, p)
	}
	// The table and the Markdown show the turns, the best provider first.
	checkTurnsTable(t, dir, doc.Providers[1])
}

// multiTurnBench is the part of a multi-turn bench document the tests read.
type multiTurnBench struct {
	Runs      int
	Verdict   struct{ Metric, Text string }
	Providers []multiTurnProvider
}

// multiTurnProvider is one provider of a multiTurnBench.
type multiTurnProvider struct {
	Name string
	Runs []struct {
		Turn         int      `json:"turn"`
		PromptTokens int      `json:"prompt_tokens"`
		E2Ems        float64  `json:"e2e_ms"`
		TTFTms       *float64 `json:"ttft_ms"`
		OutputTPS    *float64 `json:"output_tps"`
	}
	Summary struct {
		ConversationMS *struct{ P50 *float64 } `json:"conversation_ms"`
		Turns          []struct {
			Turn        int
			TTFTms      struct{ P50 *float64 } `json:"ttft_ms"`
			OutputTPS   struct{ P50 *float64 } `json:"output_tps"`
			E2Ems       struct{ P50 *float64 } `json:"e2e_ms"`
			InputTokens *float64               `json:"input_tokens"`
		}
	}
}

// checkConversation checks p's turns: prompts growing by the answers,
// the conversation's time the turns' sum, and each turn's figures its
// one stream's.
func checkConversation(t *testing.T, p multiTurnProvider) {
	t.Helper()
	r := p.Runs
	if len(r) != 3 || r[0].Turn != 1 || r[2].Turn != 3 || !(r[0].PromptTokens < r[1].PromptTokens && r[1].PromptTokens < r[2].PromptTokens) {
		t.Fatalf("%s: runs %+v, want turns 1-3 with growing prompts", p.Name, r)
	}
	// The answer of 20 one-token words, and the follow-up, join the prompt.
	if grew := r[1].PromptTokens - r[0].PromptTokens; grew < 20+3 || grew > 20+5 {
		t.Errorf("%s: turn 2's prompt grew by %d tokens, want the answer's 20 and the follow-up's", p.Name, grew)
	}
	want := r[0].E2Ems + r[1].E2Ems + r[2].E2Ems
	if c := p.Summary.ConversationMS; c == nil || *c.P50 < want-0.01 || *c.P50 > want+0.01 {
		t.Errorf("%s: conversation %v, want the turns' %v", p.Name, c, want)
	}
	// One conversation: each turn's figures are its one stream's.
	if len(p.Summary.Turns) != 3 {
		t.Fatalf("%s: summary turns %+v", p.Name, p.Summary.Turns)
	}
	for i, turn := range p.Summary.Turns {
		if turn.Turn != i+1 || *turn.TTFTms.P50 != *r[i].TTFTms || *turn.OutputTPS.P50 != *r[i].OutputTPS || *turn.E2Ems.P50 != r[i].E2Ems ||
			turn.InputTokens == nil || *turn.InputTokens != float64(r[i].PromptTokens) {
			t.Errorf("%s: turn %d %+v, want run %+v", p.Name, i+1, turn, r[i])
		}
	}
}

// checkTurnsTable checks that replay --bench shows fast's turns, and fast
// before slow.
func checkTurnsTable(t *testing.T, dir string, fast multiTurnProvider) {
	t.Helper()
	code, table, errOut := run(t, dir, "replay", "race.tpsr", "--bench")
	if code != 0 {
		t.Fatalf("replay: exit %d: %s", code, errOut)
	}
	turnRow := func(turn string, cells ...string) string {
		return strings.Join(append([]string{"fast", turn}, cells...), " ")
	}
	for _, want := range []string{"Turns (p50 over 1 conversation;",
		turnRow("1", format.Duration(ms(*fast.Runs[0].TTFTms)), format.TPS(*fast.Runs[0].OutputTPS), strconv.Itoa(fast.Runs[0].PromptTokens), format.Duration(ms(fast.Runs[0].E2Ems))),
		turnRow("3", format.Duration(ms(*fast.Runs[2].TTFTms)), format.TPS(*fast.Runs[2].OutputTPS), strconv.Itoa(fast.Runs[2].PromptTokens), format.Duration(ms(fast.Runs[2].E2Ems))),
		turnRow("all", "-", "-", "-", format.Duration(ms(*fast.Summary.ConversationMS.P50)))} {
		if !strings.Contains(strings.Join(strings.Fields(table), " "), want) {
			t.Errorf("the table lacks %q:\n%s", want, table)
		}
	}
	if strings.Index(table, "fast ") > strings.Index(table, "slow ") {
		t.Errorf("slow listed before fast:\n%s", table)
	}
}

func ms(v float64) time.Duration { return time.Duration(v * float64(time.Millisecond)) }

// A multi-turn provider that reports no usage has each turn's prompt
// counted as what was sent, the conversation so far (o200k), for its
// prompt_tokens and its cost, as the simulator counted it for the one
// that does; the recording keeps the count, so the replay is the same.
func TestMultiTurnWithoutUsageCountsTheConversation(t *testing.T) {
	dir := t.TempDir()
	srv := simtest.Start(t, sim.Options{})
	cfg := write(t, dir, "p.yaml", `max_tokens: 20
workload: multi-turn
providers:
  - {name: usage, base_url: `+srv.URL()+`, model: "sim:ttft=5ms,tps=2000,tokens=20", price: {input_per_mtok: 1, output_per_mtok: 1}}
  - {name: silent, base_url: `+srv.URL()+`, model: "sim:ttft=5ms,tps=2000,tokens=20,usage=none", price: {input_per_mtok: 1, output_per_mtok: 1}}
`)
	code, live, errOut := run(t, dir, "bench", "--config", cfg, "--format", "json", "--record", "race.tpsr")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var doc struct {
		Providers []struct {
			Name string
			Runs []struct {
				PromptTokens int     `json:"prompt_tokens"`
				TokenSource  string  `json:"token_source"`
				CostUSD      float64 `json:"cost_usd"`
			}
		}
	}
	if err := json.Unmarshal([]byte(live), &doc); err != nil {
		t.Fatal(err)
	}
	withUsage, silent := doc.Providers[0].Runs, doc.Providers[1].Runs
	for turn := range 3 {
		s, u := silent[turn], withUsage[turn]
		// Counted per message, not as the simulator's one joined text: a token or two apart a message.
		if s.TokenSource != "estimate" || s.PromptTokens < u.PromptTokens-3 || s.PromptTokens > u.PromptTokens+3 {
			t.Errorf("turn %d: %d prompt tokens (%s) without usage, the simulator counted %d", turn+1, s.PromptTokens, s.TokenSource, u.PromptTokens)
		}
		if want := float64(s.PromptTokens+20) / 1e6; s.CostUSD < want*0.999 || s.CostUSD > want*1.001 {
			t.Errorf("turn %d: cost %v, want %v (its prompt and 20 output tokens at $1/Mtok)", turn+1, s.CostUSD, want)
		}
	}
	code, replayed, errOut := run(t, dir, "replay", "race.tpsr", "--bench", "--format", "json")
	if code != 0 || replayed != live {
		t.Errorf("replay: exit %d %s; the same report: %v", code, errOut, replayed == live)
	}
}
