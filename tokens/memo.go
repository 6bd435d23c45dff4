package tokens

import (
	"sync/atomic"

	"tpsrace/tokens/internal/o200k"
)

// lookupMemo remembers the last lookup of each of memoSize short strings,
// in front of the o200k table. The table is 4 MiB and its token bytes 1.4
// MB more, so a lookup there is one or two cache misses, where the memo's
// 128 KiB stay in a core's L2: a stream's text is mostly the same few
// thousand pieces (" the", ",", " cache"), as real text is (its words are
// Zipf-distributed: docs/BENCHMARKS.md gives the hit rate on the recorded
// streams). It is exact: an entry holds the string's bytes (up to
// memoLongest) and its length, and a hit returns what the table returned
// for them. Misses, strings that are no token included, replace the entry
// at their slot (direct-mapped): nothing to evict, nothing to age.
//
// Every stream's goroutine reads and writes it without a lock. An entry
// is a seqlock: a writer makes its sequence odd (one compare-and-swap;
// another writer at the same entry gives up, its result is only not
// remembered), stores the entry's words and makes the sequence even again;
// a reader takes the words only when the sequence was even and unchanged
// around them. Every word is read and written through sync/atomic, plain
// moves on amd64 for the reads, so a hit costs a hash and five loads.
type lookupMemo [memoSize]memoEntry

const (
	memoBits    = 12
	memoSize    = 1 << memoBits
	memoLongest = 16 // bytes: nearly every piece of text, no 128-byte token
)

type memoEntry struct {
	seq   atomic.Uint64    // odd while a writer fills the entry
	words [2]atomic.Uint64 // the string's bytes (memoWords)
	value atomic.Uint64    // memoValue: the length and what the table said
}

// A value's bits: the string's length (0 in an empty entry, which no
// string of 1..memoLongest bytes matches), single, valid and rank+1.
const (
	memoLengthShift = 32
	memoSingle      = 1 << 31
	memoValid       = 1 << 30
)

// memoRead is what memoValue stored: the table's answer.
func memoRead(v uint64) (rank int, single, valid bool) {
	return int(v&(1<<o200k.RankBits-1)) - 1, v&memoSingle != 0, v&memoValid != 0
}

func memoValue(n, rank int, single, valid bool) uint64 {
	v := uint64(n)<<memoLengthShift | uint64(rank+1)
	if single {
		v |= memoSingle
	}
	if valid {
		v |= memoValid
	}
	return v
}

// memoWords are two words that, with its length, say which string s is
// (1..memoLongest bytes): its first and last eight bytes, which overlap
// when it is shorter than 16; its first and last four when it is shorter
// than 8; its first, middle and last byte when it is shorter than 4. Each
// is one or two loads, not a loop over the bytes.
func memoWords(s string) (uint64, uint64) {
	n := len(s)
	switch {
	case n >= 8:
		return le64(s), le64(s[n-8:])
	case n >= 4:
		return le32(s) | le32(s[n-4:])<<32, 0
	}
	return uint64(s[0]) | uint64(s[n/2])<<8 | uint64(s[n-1])<<16, 0
}

func le64(s string) uint64 {
	_ = s[7]
	return uint64(s[0]) | uint64(s[1])<<8 | uint64(s[2])<<16 | uint64(s[3])<<24 |
		uint64(s[4])<<32 | uint64(s[5])<<40 | uint64(s[6])<<48 | uint64(s[7])<<56
}

func le32(s string) uint64 {
	_ = s[3]
	return uint64(s[0]) | uint64(s[1])<<8 | uint64(s[2])<<16 | uint64(s[3])<<24
}

// entry is the slot of a string of n bytes whose first word is w: a
// multiplicative hash of the first eight bytes and the length, not the
// table's hash of every byte.
func (m *lookupMemo) entry(w uint64, n int) *memoEntry {
	return &m[(w+uint64(n))*0x9e3779b97f4a7c15>>(64-memoBits)]
}

// get returns the value remembered for the string of n bytes with words
// w0 and w1, and false when the entry holds another string or is being
// written.
func (e *memoEntry) get(w0, w1 uint64, n int) (uint64, bool) {
	seq := e.seq.Load()
	v, a, b := e.value.Load(), e.words[0].Load(), e.words[1].Load()
	if seq&1 != 0 || e.seq.Load() != seq || a != w0 || b != w1 || v>>memoLengthShift != uint64(n) {
		return 0, false
	}
	return v, true
}

// put remembers value for the string with words w0 and w1, unless another
// goroutine is writing the entry.
func (e *memoEntry) put(w0, w1, value uint64) {
	seq := e.seq.Load()
	if seq&1 != 0 || !e.seq.CompareAndSwap(seq, seq+1) {
		return
	}
	e.words[0].Store(w0)
	e.words[1].Store(w1)
	e.value.Store(value)
	e.seq.Store(seq + 2)
}
