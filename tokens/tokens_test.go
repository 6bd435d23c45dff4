package tokens

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"tpsrace/testenv"

	"github.com/pkoukk/tiktoken-go"
	tiktoken_loader "github.com/pkoukk/tiktoken-go-loader"
)

// tiktokenCount is the reference: tiktoken-go's o200k_base encoder.
var tiktokenCount = sync.OnceValue(func() func(string) int {
	tiktoken.SetBpeLoader(tiktoken_loader.NewOfflineLoader())
	enc, err := tiktoken.GetEncoding(tiktoken.MODEL_O200K_BASE)
	if err != nil {
		panic(err)
	}
	var mu sync.Mutex
	return func(s string) int {
		mu.Lock()
		defer mu.Unlock()
		return len(enc.EncodeOrdinary(s))
	}
})

func TestCount(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want int
	}{
		{"", 0},
		{" the", 1},
		{"Hello", 1},
		{"Hello, world!", 4},
		{"tokens per second", 3},
	} {
		if got := Count(tc.in); got != tc.want {
			t.Errorf("Count(%q) = %d, want %d", tc.in, got, tc.want)
		}
	}
}

// fixtureStreams returns, for every recorded stream, the strings of its
// data payloads in order (each event's deltas, as a provider split them).
func fixtureStreams(t testing.TB) map[string][]string {
	fixtureDir := filepath.Join(testenv.Require(t, "fixtures"), "sse")
	files, _ := filepath.Glob(filepath.Join(fixtureDir, "*.sse"))
	if len(files) == 0 {
		t.Fatalf("no recorded streams (*.sse) in %s", fixtureDir)
	}
	streams := map[string][]string{}
	for _, f := range files {
		body, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var texts []string
		for line := range bytes.Lines(body) {
			payload, ok := bytes.CutPrefix(bytes.TrimSpace(line), []byte("data:"))
			var v any
			if ok && json.Unmarshal(payload, &v) == nil {
				texts = appendStrings(texts, v)
			}
		}
		streams[filepath.Base(f)] = texts
		streams[filepath.Base(f)+" (raw)"] = []string{string(body)}
	}
	return streams
}

func appendStrings(out []string, v any) []string {
	switch v := v.(type) {
	case string:
		return append(out, v)
	case []any:
		for _, e := range v {
			out = appendStrings(out, e)
		}
	case map[string]any:
		for _, e := range v {
			out = appendStrings(out, e)
		}
	}
	return out
}

// tricky are texts at the edges of the pre-tokeniser's alternatives.
var tricky = []string{
	"don't", "DON'T", "they're", "we'LL", "I'm", "it'S", "'s", "x'", "x'l", "x're", "ſ'ſ", "'ſ",
	"\u0301", "\u0301A", "a\u0301b", "A\u0301", "ǅungla", "ǅ", "ʰa", "中文字符", "a中b", "Ǆa",
	"12345", "1 234", "١٢٣٤", "Ⅻ", "½x",
	"  x", "x  ", "\n  \n", "\n  ", "  \n  x", "\r\n\r\n", "a\n\nb", " \n", "\t\tx", "x\u00a0\u00a0y", "\u3000x",
	"!!", " !!\n\n", "a/b//\n/c", "<think>", "...", " ...", "—dash", "😀😀 x", " 😀",
	"\xff", "a\xffb", "\xe2\x82", "x\xc3", "\xc0\xaf", "Hello\x00world",
	"```go\nfunc main() {\n\tfmt.Println(\"hi\")\n}\n```",
}

// TestMatchesTiktoken: the same counts as tiktoken itself on the recorded
// streams, the tricky texts, vocabulary entries and random text.
func TestMatchesTiktoken(t *testing.T) {
	ref := tiktokenCount()
	check := func(s string) {
		t.Helper()
		if got, want := Count(s), ref(s); got != want {
			t.Fatalf("Count(%q) = %d, tiktoken %d", s, got, want)
		}
	}
	for _, texts := range fixtureStreams(t) {
		for _, s := range texts {
			check(s)
		}
		check(strings.Join(texts, ""))
	}
	for _, s := range tricky {
		check(s)
	}
	// Every token that is not single, and every 8th (TestEveryTokenCountsOne
	// holds every token to tiktoken's verdict on whether it counts 1).
	v := &o200kVocab
	for r, token := range vocabTokens() {
		if !v.single(r) || r%8 == 0 {
			check(token)
		}
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for range 3000 {
		check(randomText(rng, 1+rng.IntN(40)))
	}
}

// randomText strings together characters of every class the pre-tokeniser
// tells apart, weighted toward the ones its alternatives hinge on.
func randomText(rng *rand.Rand, n int) string {
	const alphabet = "aAzZsStTlLrReEvVdDmM'’ \n\r\t0123456789.,!?/-_()\"\u00a0\u3000\u0301\u0308ʰǅ中ſ١½é😀\xff\xe2"
	chars := strings.Split(alphabet, "")
	var b strings.Builder
	for range n {
		if rng.IntN(4) == 0 {
			b.WriteString([]string{"the", " cache", "Hello", "'s", "  ", "\n\n", "HTTP", "n't"}[rng.IntN(8)])
			continue
		}
		b.WriteString(chars[rng.IntN(len(chars))])
	}
	return b.String()
}

func FuzzMatchesTiktoken(f *testing.F) {
	for _, s := range tricky {
		f.Add(s)
	}
	ref := tiktokenCount()
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := Count(s), ref(s); got != want {
			t.Fatalf("Count(%q) = %d, tiktoken %d", s, got, want)
		}
	})
}

func BenchmarkCountOneToken(b *testing.B) {
	Warm()
	for b.Loop() {
		Count(" cache")
	}
}

func BenchmarkCountSentence(b *testing.B) {
	Warm()
	for b.Loop() {
		Count(" a CPU cache keeps recently used lines close to the core")
	}
}

func BenchmarkTiktokenSentence(b *testing.B) {
	ref := tiktokenCount()
	for b.Loop() {
		ref(" a CPU cache keeps recently used lines close to the core")
	}
}

// TestEveryTokenCountsOne is what Count's one-lookup shortcut rests on: the
// tokens o200k.bin marks single are the ones whose own bytes count 1.
func TestEveryTokenCountsOne(t *testing.T) {
	v := &o200kVocab
	var parts []bpePart
	for r, token := range vocabTokens() {
		tok := validUTF8(token)
		if n, _ := v.countPieces(tok, len(tok), parts); (n == 1) != v.single(r) {
			t.Errorf("token %d %q counts %d, marked single %v", r, token, n, v.single(r))
		}
	}
}

// counted feeds parts to a Counter and returns its total: by Add and by
// AddCounted in turn, each AddCounted's own figure checked against Count.
func counted(parts []string) int {
	var c Counter
	for i, p := range parts {
		if i%2 == 0 {
			c.Add(p)
		} else if n := c.AddCounted(p); n != Count(p) {
			panic(fmt.Sprintf("AddCounted(%q) = %d, Count %d", p, n, Count(p)))
		}
	}
	return c.Total()
}

// TestCounterEqualsCount: counting as the text arrives gives Count of the
// whole text, for every recorded stream split as its provider sent it, and
// for random texts and recorded streams cut at random bytes.
func TestCounterEqualsCount(t *testing.T) {
	check := func(name string, parts []string) {
		t.Helper()
		if got, want := counted(parts), Count(strings.Join(parts, "")); got != want {
			t.Fatalf("%s: Counter %d, Count %d, parts %q", name, got, want, parts)
		}
	}
	rng := rand.New(rand.NewPCG(3, 4))
	for name, texts := range fixtureStreams(t) {
		check(name, texts)
		whole := strings.Join(texts, "")
		for range 20 {
			check(name+" cut at random", randomCuts(rng, whole))
		}
	}
	for _, s := range tricky {
		for range 20 {
			check("tricky", randomCuts(rng, s+" "+s+"\n"+s))
		}
	}
	for range 3000 {
		check("random", randomCuts(rng, randomText(rng, 1+rng.IntN(60))))
	}
	var words []string // one-token deltas, as most streams send: AddCounted's known pieces
	for i := range 600 {
		words = append(words, []string{" the", " cache", "\n\n", "Hello", ",", " world"}[i%6])
	}
	check("one-token deltas", words)
	for range 200 { // several batches of settleBatch
		check("long random", randomCuts(rng, randomText(rng, 100+rng.IntN(1000))))
	}
}

// randomCuts cuts s at random byte offsets, UTF-8 sequences included.
func randomCuts(rng *rand.Rand, s string) []string {
	var parts []string
	for s != "" {
		n := 1 + rng.IntN(min(len(s), 8))
		parts, s = append(parts, s[:n]), s[n:]
	}
	return parts
}

// BenchmarkCounter is a stream's two counts per delta of 1 or 4 one-token
// words: the delta's own and the whole answer's (AddCounted).
func BenchmarkCounter(b *testing.B) {
	words := strings.Fields("the cache keeps recently used lines close to the core so that a load finds its data in a few cycles instead of hundreds")
	for _, perDelta := range []int{1, 4} {
		deltas := make([]string, 2000)
		for i := range deltas {
			for k := range perDelta {
				deltas[i] += " " + words[(i*perDelta+k)%len(words)]
			}
		}
		b.Run(fmt.Sprintf("tokens=%d", perDelta), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				var c Counter
				for _, d := range deltas {
					c.AddCounted(d)
				}
				if c.Total() != len(deltas)*perDelta {
					b.Fatal(c.Total())
				}
			}
			b.ReportMetric(float64(b.Elapsed())/float64(b.N*len(deltas)), "ns/delta")
		})
	}
}

func FuzzCounter(f *testing.F) {
	for _, s := range tricky {
		f.Add(s, uint64(len(s)))
	}
	f.Fuzz(func(t *testing.T, s string, seed uint64) {
		parts := randomCuts(rand.New(rand.NewPCG(seed, 0)), s)
		if got, want := counted(parts), Count(s); got != want {
			t.Fatalf("Counter %d, Count %d, parts %q", got, want, parts)
		}
	})
}

// BenchmarkCounterFixtures is BenchmarkCounter on every recorded stream:
// its answer's and reasoning's deltas as the provider split them, each
// counted as a stream's reader counts it (AddCounted).
func BenchmarkCounterFixtures(b *testing.B) {
	for name, deltas := range fixtureDeltas(b) {
		b.Run(name, func(b *testing.B) {
			for b.Loop() {
				var c Counter
				for _, d := range deltas {
					c.AddCounted(d)
				}
				c.Total()
			}
			b.ReportMetric(float64(b.Elapsed())/float64(b.N*len(deltas)), "ns/delta")
		})
	}
}

// fixtureDeltas returns, for every recorded stream with text, the content
// and reasoning deltas of its chunks in order.
func fixtureDeltas(b *testing.B) map[string][]string {
	fixtureDir := filepath.Join(testenv.Require(b, "fixtures"), "sse")
	files, _ := filepath.Glob(filepath.Join(fixtureDir, "*.sse"))
	streams := map[string][]string{}
	for _, f := range files {
		body, err := os.ReadFile(f)
		if err != nil {
			b.Fatal(err)
		}
		var deltas []string
		for line := range bytes.Lines(body) {
			payload, _ := bytes.CutPrefix(bytes.TrimSpace(line), []byte("data:"))
			var chunk struct {
				Choices []struct {
					Delta struct {
						Content          string `json:"content"`
						ReasoningContent string `json:"reasoning_content"`
						Reasoning        string `json:"reasoning"`
					} `json:"delta"`
				} `json:"choices"`
			}
			if json.Unmarshal(payload, &chunk) != nil {
				continue
			}
			for _, c := range chunk.Choices {
				for _, d := range []string{c.Delta.Content, c.Delta.ReasoningContent, c.Delta.Reasoning} {
					if d != "" {
						deltas = append(deltas, d)
					}
				}
			}
		}
		if len(deltas) > 0 {
			streams[strings.TrimSuffix(filepath.Base(f), ".sse")] = deltas
		}
	}
	return streams
}
