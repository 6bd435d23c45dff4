// Package o200k is the layout of tokens/o200k.bin, shared by the generator
// that writes it and package tokens that reads it:
//
//	info   Tokens bytes: token r's length − 1, plus NotSingle
//	blob   every token's bytes, in rank order
//	slots  1<<SlotBits little-endian uint64 entries: an open-addressing hash
//	       table (linear probing) by Hash of the token's bytes, 0 empty
//
// An entry holds everything a lookup needs, so a lookup reads the table and,
// when the entry's length and fingerprint match, the token's bytes in blob to
// confirm it: two places in memory, where a table of ranks sent it to the
// token's start first. The table is built when the file is generated, so
// loading costs nothing: no work, no allocation.
package o200k

// Tokens is the number of tokens in o200k_base, ranks 0..Tokens-1.
const Tokens = 199998

// SlotBits: 2^19 slots for 2e5 tokens, so a table at most 40% full.
const SlotBits = 19

// NotSingle marks a token whose own bytes tiktoken does not count as one
// token (they straddle pre-tokeniser pieces, or are part of a UTF-8 sequence).
const NotSingle = 0x80

// An entry's bits: rank+1 (0 marks an empty slot), Valid, the info byte
// (length − 1 and NotSingle), where the token starts in blob, and a fingerprint: bits of
// its Hash that the slot's index does not use, which turn away nearly every
// other string of the same length without reading blob.
const (
	RankBits         = 18      // rank+1 ≤ 199998 < 1<<18
	Valid            = 1 << 23 // the token is valid UTF-8 (1,174 single ones are not: "\xa1")
	InfoShift        = 24
	StartShift       = 32 // 21 bits: blob is about 1.4 MB < 2 MiB
	FingerprintShift = 53 // the last 11 bits
	// KeyMask is the bits a lookup compares before reading blob: the length
	// (not NotSingle) and the fingerprint.
	KeyMask = 0x7F<<InfoShift | (1<<(64-FingerprintShift)-1)<<FingerprintShift
)

// Entry is a slot's value for token rank r with the given info byte, start in
// blob, Hash and validity.
func Entry(r int, info byte, start int, hash uint32, valid bool) uint64 {
	e := Key(int(info&^NotSingle)+1, hash) | uint64(r+1) | uint64(info&NotSingle)<<InfoShift |
		uint64(start)<<StartShift
	if valid {
		e |= Valid
	}
	return e
}

// Key is the bits of an entry (under KeyMask) that a string of n bytes
// (1..128) with the given Hash must match to be the entry's token.
func Key(n int, hash uint32) uint64 {
	return uint64(n-1)<<InfoShift | uint64(hash>>SlotBits)<<FingerprintShift&KeyMask
}

// Hash is the table's hash of a byte string: fixed, so the table can be
// built ahead; 8 bytes at a time, mixed by multiplication (splitmix64's
// constants).
func Hash(s string) uint32 {
	h := uint64(len(s)) * 0x9e3779b97f4a7c15
	for len(s) >= 8 {
		w := uint64(s[0]) | uint64(s[1])<<8 | uint64(s[2])<<16 | uint64(s[3])<<24 |
			uint64(s[4])<<32 | uint64(s[5])<<40 | uint64(s[6])<<48 | uint64(s[7])<<56
		h = (h ^ w) * 0xbf58476d1ce4e5b9
		h ^= h >> 31
		s = s[8:]
	}
	var w uint64
	for i := range len(s) {
		w |= uint64(s[i]) << (8 * i)
	}
	h = (h ^ w) * 0x94d049bb133111eb
	return uint32(h >> 32) // a product's high bits depend on all of its inputs' bits
}
