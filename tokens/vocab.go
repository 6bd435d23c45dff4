package tokens

import (
	_ "embed"
	"hash/maphash"
	"sync"
)

//go:generate go run ./internal/genvocab

// o200kBin is the o200k_base vocabulary in the compact form genvocab writes:
// a byte per token in rank order (its length − 1, plus bit 7 when tiktoken
// does not encode the token's bytes as that one token, see single), then
// every token's bytes in rank order. It stays in the binary's read-only data; loading builds only the
// two pointer-free tables of vocab (about 3 MB, a few ms), which the garbage
// collector never has to scan.
//
//go:embed o200k.bin
var o200kBin string

const vocabSize = 199998 // tokens in o200k_base, ranks 0..vocabSize-1

// vocab finds a byte string's rank with one hash and, nearly always, one
// comparison: an open-addressing table of rank+1 (0 is empty), at most 40%
// full.
type vocab struct {
	info  string   // a byte per token: length − 1, bit 7 for not single
	blob  string   // every token's bytes, in rank order
	start []uint32 // token r is blob[start[r]:start[r+1]]
	slots []uint32 // rank+1 by hash, linear probing
	seed  maphash.Seed
}

const slotBits = 19 // 2^19 slots for 2e5 tokens

var loadVocab = sync.OnceValue(newVocab)

func newVocab() *vocab {
	info, blob := o200kBin[:vocabSize], o200kBin[vocabSize:]
	v := &vocab{info: info, blob: blob, start: make([]uint32, vocabSize+1), slots: make([]uint32, 1<<slotBits), seed: maphash.MakeSeed()}
	at := uint32(0)
	for r := range vocabSize {
		v.start[r] = at
		at += uint32(info[r]&0x7f) + 1
	}
	v.start[vocabSize] = at
	if int(at) != len(blob) {
		panic("tokens: o200k.bin is damaged; run go generate ./tokens")
	}
	const mask = 1<<slotBits - 1
	for r := range vocabSize {
		i := maphash.String(v.seed, v.token(r)) & mask
		for v.slots[i] != 0 {
			i = (i + 1) & mask
		}
		v.slots[i] = uint32(r + 1)
	}
	return v
}

// single reports whether token r's bytes, counted as text, are that one
// token. A few hundred are not: ones that straddle pre-tokeniser pieces
// (" I'", "\n//") and parts of a UTF-8 sequence, which tiktoken reads as
// U+FFFD.
func (v *vocab) single(r int) bool { return v.info[r]&0x80 == 0 }

func (v *vocab) token(r int) string { return v.blob[v.start[r]:v.start[r+1]] }

// rank returns b's rank, or -1 when b is not a token.
func (v *vocab) rank(b string) int {
	const mask = 1<<slotBits - 1
	for i := maphash.String(v.seed, b) & mask; v.slots[i] != 0; i = (i + 1) & mask {
		if r := int(v.slots[i] - 1); v.token(r) == b {
			return r
		}
	}
	return -1
}
