// Package tokens counts o200k_base tokens, the one scale on which tpsrace
// compares providers whose own tokenizers differ. The vocabulary is compiled
// into the binary (tiktoken-go-loader), so nothing is ever downloaded.
package tokens

import (
	"sync"

	"github.com/pkoukk/tiktoken-go"
	tiktoken_loader "github.com/pkoukk/tiktoken-go-loader"
)

const vocabURL = "https://openaipublic.blob.core.windows.net/encodings/o200k_base.tiktoken" // a map key, never fetched

var load = sync.OnceValue(func() *counter {
	loader := tiktoken_loader.NewOfflineLoader()
	tiktoken.SetBpeLoader(loader)
	ranks, err := loader.LoadTiktokenBpe(vocabURL)
	if err != nil {
		panic("tokens: embedded o200k vocabulary: " + err.Error())
	}
	enc, err := tiktoken.GetEncoding(tiktoken.MODEL_O200K_BASE)
	if err != nil {
		panic("tokens: o200k encoding: " + err.Error())
	}
	return &counter{ranks: ranks, enc: enc}
})

type counter struct {
	ranks map[string]int // read-only after load
	enc   *tiktoken.Tiktoken
	mu    sync.Mutex // the encoder is not documented as safe for concurrent use
}

// Count returns the number of o200k tokens in s. A string that is itself one
// vocabulary entry (most streamed deltas are) is counted by a map lookup; only
// the rest goes through the BPE encoder.
func Count(s string) int {
	if s == "" {
		return 0
	}
	c := load()
	if _, ok := c.ranks[s]; ok {
		return 1
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.enc.EncodeOrdinary(s))
}

// Warm loads the vocabulary now, so the first counted event of a race does
// not pay for it (about 100 ms).
func Warm() { load() }
