package tokens

import (
	_ "embed"
	"sync"

	"tpsrace/tokens/internal/o200k"
)

//go:generate go run ./internal/genvocab

// o200kBin is the o200k_base vocabulary with its hash table, laid out as
// package o200k describes. It stays in the binary's read-only data: loading
// computes only where each token starts (800 KB, pointer-free, well under a
// millisecond), so the vocabulary never delays a race or burdens the
// garbage collector.
//
//go:embed o200k.bin
var o200kBin string

const vocabSize = o200k.Tokens

type vocab struct {
	info  string   // a byte per token: length − 1, plus o200k.NotSingle
	blob  string   // every token's bytes, in rank order
	slots string   // the hash table: little-endian uint32 rank+1 by o200k.Hash
	start []uint32 // token r is blob[start[r]:start[r+1]]
}

var loadVocab = sync.OnceValue(newVocab)

func newVocab() *vocab {
	const slotBytes = 4 << o200k.SlotBits
	v := &vocab{info: o200kBin[:vocabSize], blob: o200kBin[vocabSize : len(o200kBin)-slotBytes],
		slots: o200kBin[len(o200kBin)-slotBytes:], start: make([]uint32, vocabSize+1)}
	at := uint32(0)
	for r := range vocabSize {
		v.start[r] = at
		at += uint32(v.info[r]&^o200k.NotSingle) + 1
	}
	v.start[vocabSize] = at
	if int(at) != len(v.blob) {
		panic("tokens: o200k.bin is damaged; run go generate ./tokens")
	}
	return v
}

// single reports whether token r's bytes, counted as text, are one token
// (o200k.NotSingle, from tiktoken itself, is clear). A few hundred are not: ones that straddle pre-tokeniser pieces
// (" I'", "\n//") and parts of a UTF-8 sequence, which tiktoken reads as
// U+FFFD.
func (v *vocab) single(r int) bool { return v.info[r]&o200k.NotSingle == 0 }

func (v *vocab) token(r int) string { return v.blob[v.start[r]:v.start[r+1]] }

// rank returns s's rank, or -1 when s is not a token.
func (v *vocab) rank(s string) int {
	const mask = 1<<o200k.SlotBits - 1
	for i := o200k.Hash(s) & mask; ; i = (i + 1) & mask {
		slot := v.slots[4*i:]
		r := int(uint32(slot[0])|uint32(slot[1])<<8|uint32(slot[2])<<16|uint32(slot[3])<<24) - 1
		if r < 0 {
			return -1
		}
		if v.token(r) == s {
			return r
		}
	}
}
