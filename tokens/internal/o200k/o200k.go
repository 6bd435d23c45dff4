// Package o200k is the layout of tokens/o200k.bin, shared by the generator
// that writes it and package tokens that reads it:
//
//	info   Tokens bytes: token r's length − 1, plus NotSingle
//	blob   every token's bytes, in rank order
//	slots  1<<SlotBits little-endian uint32s: an open-addressing hash table
//	       (linear probing) of rank+1 by Hash of the token's bytes, 0 empty
//	starts Tokens+1 little-endian uint32s: where token r starts in blob, and
//	       blob's length
//
// The table and the starts are built when the file is generated, so loading
// costs nothing: no work, no allocation.
package o200k

// Tokens is the number of tokens in o200k_base, ranks 0..Tokens-1.
const Tokens = 199998

// SlotBits: 2^19 slots for 2e5 tokens, so a table at most 40% full.
const SlotBits = 19

// NotSingle marks a token whose own bytes tiktoken does not count as one
// token (they straddle pre-tokeniser pieces, or are part of a UTF-8 sequence).
const NotSingle = 0x80

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
