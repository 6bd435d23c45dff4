package tokens

import (
	"bytes"
	"encoding/base64"
	"math/rand/v2"
	"strconv"
	"sync"
	"testing"
	"unicode/utf8"

	"github.com/pkoukk/tiktoken-go-loader/assets"

	"tpsrace/tokens/internal/o200k"
)

// referenceRanks is the reference vocabulary: o200k_base.tiktoken as
// tiktoken-go-loader ships it (base64 token, space, rank), read into a map.
var referenceRanks = sync.OnceValue(func() map[string]int {
	src, err := assets.Assets.ReadFile("o200k_base.tiktoken")
	if err != nil {
		panic(err)
	}
	ranks := map[string]int{}
	for _, line := range bytes.Split(bytes.TrimSpace(src), []byte("\n")) {
		b64, rank, _ := bytes.Cut(line, []byte(" "))
		token, err := base64.StdEncoding.DecodeString(string(b64))
		if err != nil {
			panic(err)
		}
		r, err := strconv.Atoi(string(rank))
		if err != nil {
			panic(err)
		}
		ranks[string(token)] = r
	}
	return ranks
})

// vocabTokens is every token's bytes by rank, read from o200k.bin's info
// and blob.
func vocabTokens() []string {
	v, at := &o200kVocab, 0
	tokens := make([]string, vocabSize)
	for r := range tokens {
		n := int(v.info[r]&^o200k.NotSingle) + 1
		tokens[r], at = v.blob[at:at+n], at+n
	}
	return tokens
}

// TestVocabLayout: o200k.bin is info, blob and the table, nothing more.
func TestVocabLayout(t *testing.T) {
	v, blob := &o200kVocab, 0
	for r := range vocabSize {
		blob += int(v.info[r]&^o200k.NotSingle) + 1
	}
	if len(v.blob) != blob || len(v.slots) != slotBytes {
		t.Fatalf("blob %d bytes, info says %d; table %d bytes, want %d: run go generate ./tokens",
			len(v.blob), blob, len(v.slots), slotBytes)
	}
}

// TestLookupMatchesReference: the table finds every token of the reference
// vocabulary at its rank (and o200k.bin holds exactly those), and turns away
// every other string: substrings of random text and recorded streams, random
// bytes, and every token with a byte changed or added.
func TestLookupMatchesReference(t *testing.T) {
	ref, v := referenceRanks(), &o200kVocab
	if len(ref) != vocabSize {
		t.Fatalf("reference has %d tokens, want %d", len(ref), vocabSize)
	}
	check := func(s string) {
		t.Helper()
		want, ok := ref[s]
		if !ok {
			want = -1
		}
		for range 2 { // the table's answer, then the memo's for a short s
			got, single, valid := v.lookup(s)
			if got != want || single != (got >= 0 && v.single(got)) || valid != (got >= 0 && utf8.ValidString(s)) {
				t.Fatalf("lookup(%q) = %d (single %v, valid %v), reference rank %d", s, got, single, valid, want)
			}
		}
	}
	for r, token := range vocabTokens() {
		if ref[token] != r {
			t.Fatalf("o200k.bin's token %d %q is the reference's %d", r, token, ref[token])
		}
		check(token)
		check(token + " ")
		check(token[:len(token)-1] + string(token[len(token)-1]^1))
	}
	rng := rand.New(rand.NewPCG(5, 6))
	var texts []string
	for range 300 {
		texts = append(texts, randomText(rng, 1+rng.IntN(60)))
	}
	for _, stream := range fixtureStreams(t) {
		texts = append(texts, stream...)
	}
	for _, s := range texts {
		for i := range len(s) {
			for j := i + 1; j <= min(len(s), i+24); j++ {
				check(s[i:j])
			}
		}
	}
	for range 100000 {
		b := make([]byte, 1+rng.IntN(8))
		for i := range b {
			b[i] = byte(rng.UintN(256))
		}
		check(string(b))
	}
}
