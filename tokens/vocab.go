package tokens

import (
	_ "embed"
	"sync"

	"tpsrace/tokens/internal/o200k"
)

//go:generate go run ./internal/genvocab

// o200kBin is the o200k_base vocabulary with its hash table and where each
// token starts, laid out as package o200k describes. It stays in the
// binary's read-only data and loading slices it: no work and no allocation,
// so the first count of a process (in its first race, after that event's
// time is taken) neither takes the CPU from the other streams nor grows the
// heap while they start.
//
//go:embed o200k.bin
var o200kBin string

const vocabSize = o200k.Tokens

type vocab struct {
	info   string // a byte per token: length − 1, plus o200k.NotSingle
	blob   string // every token's bytes, in rank order
	slots  string // the hash table: little-endian uint32 rank+1 by o200k.Hash
	starts string // little-endian uint32s: token r is blob[start(r):start(r+1)]
}

var loadVocab = sync.OnceValue(newVocab)

func newVocab() *vocab {
	const slotBytes, startBytes = 4 << o200k.SlotBits, 4 * (vocabSize + 1)
	slots := len(o200kBin) - startBytes - slotBytes
	v := &vocab{info: o200kBin[:vocabSize], blob: o200kBin[vocabSize:slots],
		slots: o200kBin[slots : slots+slotBytes], starts: o200kBin[slots+slotBytes:]}
	if slots < vocabSize || v.start(vocabSize) != len(v.blob) {
		panic("tokens: o200k.bin is damaged; run go generate ./tokens")
	}
	return v
}

// start is where token r starts in blob (r == vocabSize: blob's length).
func (v *vocab) start(r int) int {
	b := v.starts[4*r:]
	return int(uint32(b[0]) | uint32(b[1])<<8 | uint32(b[2])<<16 | uint32(b[3])<<24)
}

// single reports whether token r's bytes, counted as text, are one token
// (o200k.NotSingle, from tiktoken itself, is clear). A few hundred are not: ones that straddle pre-tokeniser pieces
// (" I'", "\n//") and parts of a UTF-8 sequence, which tiktoken reads as
// U+FFFD.
func (v *vocab) single(r int) bool { return v.info[r]&o200k.NotSingle == 0 }

func (v *vocab) token(r int) string { return v.blob[v.start(r):v.start(r+1)] }

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
