package tokens

import (
	_ "embed"
	"unicode/utf8"

	"tpsrace/tokens/internal/o200k"
)

//go:generate go run ./internal/genvocab

// o200kBin is the o200k_base vocabulary with its hash table, laid out as
// package o200k describes. It stays in the binary's read-only data and is
// only sliced: no work and no allocation,
// so the first count of a process (in its first race, after that event's
// time is taken) neither takes the CPU from the other streams nor grows the
// heap while they start.
//
//go:embed o200k.bin
var o200kBin string

const vocabSize = o200k.Tokens

type vocab struct {
	info  string // a byte per token: length − 1, plus o200k.NotSingle
	blob  string // every token's bytes, in rank order
	slots string // the hash table: little-endian uint64 entries (o200k.Entry)
	memo  *lookupMemo
}

// o200kVocab slices o200k.bin where package o200k says its parts lie: a
// few words set at start-up, no memory read (TestVocabLayout checks the
// file). A package value, not a lazily built one: the lookup of a stream's
// every delta should not pay a sync.Once's check.
var o200kVocab = vocab{
	info:  o200kBin[:vocabSize],
	blob:  o200kBin[vocabSize : len(o200kBin)-slotBytes],
	slots: o200kBin[len(o200kBin)-slotBytes:],
	memo:  &o200kMemo,
}

// o200kMemo is o200kVocab's memo: a zero array, so it costs nothing until
// the first lookups write it.
var o200kMemo lookupMemo

const slotBytes = 8 << o200k.SlotBits

// single reports whether token r's bytes, counted as text, are one token
// (o200k.NotSingle, from tiktoken itself, is clear). A few hundred are not:
// ones that straddle pre-tokeniser pieces (" I'", "\n//") and parts of a
// UTF-8 sequence, which tiktoken reads as U+FFFD.
func (v *vocab) single(r int) bool { return v.info[r]&o200k.NotSingle == 0 }

// lookup returns s's rank, or -1 when s is not a token, whether s counts as
// one token (single of its rank) and whether s is valid UTF-8, which the
// table records so that a stream's one-token delta is not scanned for it.
// A short string's answer is remembered (lookupMemo).
func (v *vocab) lookup(s string) (rank int, single, valid bool) {
	if m, ok := v.remembered(s); ok {
		return memoRead(m)
	}
	return v.findAndRemember(s)
}

// oneToken reports whether s counts as one token, and whether it is valid
// UTF-8 (checked once, for both answers): a stream's first question of
// each delta. The memo answers a delta it has seen; else only a delta of
// one piece is looked up, since one of several pieces is never one token:
// a delta of a few words (a provider that sends several tokens an event)
// costs a pre-tokeniser step, not a probe of the 4 MiB table, and never
// takes a memo slot from a piece.
func (v *vocab) oneToken(s string) (one, valid bool) {
	if m, ok := v.remembered(s); ok {
		if _, single, tokenValid := memoRead(m); single && tokenValid {
			return true, true
		}
		return false, utf8.ValidString(s) // the memo's flag is the table's: false for no token
	}
	if s == "" || !utf8.ValidString(s) {
		return false, false
	}
	if nextPiece(s, 0) != len(s) {
		return false, true
	}
	_, single, tokenValid := v.findAndRemember(s)
	return single && tokenValid, true
}

// remembered is the memo's value for s (memoValue), when it holds one.
func (v *vocab) remembered(s string) (uint64, bool) {
	n := len(s)
	if n == 0 || n > memoLongest {
		return 0, false
	}
	w0, w1 := memoWords(s)
	return v.memo.entry(w0, n).get(w0, w1, n)
}

// findAndRemember is find, its answer remembered where s is short enough.
func (v *vocab) findAndRemember(s string) (rank int, single, valid bool) {
	rank, single, valid = v.find(s)
	if n := len(s); n > 0 && n <= memoLongest {
		w0, w1 := memoWords(s)
		v.memo.entry(w0, n).put(w0, w1, memoValue(n, rank, single, valid))
	}
	return rank, single, valid
}

// find is lookup in the table itself. Byte-pair merging asks it for the
// pairs of a piece that is no token, which would only crowd the memo.
func (v *vocab) find(s string) (rank int, single, valid bool) {
	if len(s) == 0 || len(s) > 128 {
		return -1, false, false
	}
	const mask = 1<<o200k.SlotBits - 1
	h := o200k.Hash(s)
	key := o200k.Key(len(s), h)
	for i := h & mask; ; i = (i + 1) & mask {
		b := v.slots[8*i : 8*i+8]
		e := uint64(b[0]) | uint64(b[1])<<8 | uint64(b[2])<<16 | uint64(b[3])<<24 |
			uint64(b[4])<<32 | uint64(b[5])<<40 | uint64(b[6])<<48 | uint64(b[7])<<56
		if e == 0 {
			return -1, false, false
		}
		if e&o200k.KeyMask != key {
			continue
		}
		start := int(e >> o200k.StartShift & (1<<(o200k.FingerprintShift-o200k.StartShift) - 1))
		if v.blob[start:start+len(s)] == s {
			return int(e&(1<<o200k.RankBits-1)) - 1, e&(o200k.NotSingle<<o200k.InfoShift) == 0, e&o200k.Valid != 0
		}
	}
}

// rank returns s's rank, or -1 when s is not a token.
func (v *vocab) rank(s string) int {
	r, _, _ := v.lookup(s)
	return r
}
