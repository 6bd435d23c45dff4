package tokens

import "math"

// bpeCount is the number of tokens tiktoken's byte-pair encoder makes of one
// piece: starting from single bytes, merge the adjacent pair whose joined
// bytes have the lowest rank (the leftmost on a tie) until no pair is a
// token. It follows tiktoken's bytePairMerge step by step; only the count
// is kept. parts is scratch space, reused across calls.
func (v *vocab) bpeCount(piece string, parts []bpePart) (int, []bpePart) {
	parts = parts[:0]
	for i := range len(piece) + 1 {
		parts = append(parts, bpePart{start: i, rank: math.MaxInt})
	}
	// rankOf is the rank of parts[i] joined with the skip+1 parts after it.
	rankOf := func(i, skip int) int {
		if i+skip+2 < len(parts) {
			if r, _, _ := v.find(piece[parts[i].start:parts[i+skip+2].start]); r >= 0 {
				return r
			}
		}
		return math.MaxInt
	}
	for i := 0; i < len(parts)-2; i++ {
		parts[i].rank = rankOf(i, 0)
	}
	for len(parts) > 1 {
		lowest, at := math.MaxInt, -1
		for i := 0; i < len(parts)-1; i++ {
			if parts[i].rank < lowest {
				lowest, at = parts[i].rank, i
			}
		}
		if at < 0 {
			break
		}
		parts[at].rank = rankOf(at, 1)
		if at > 0 {
			parts[at-1].rank = rankOf(at-1, 1)
		}
		parts = append(parts[:at+1], parts[at+2:]...)
	}
	return len(parts) - 1, parts
}

type bpePart struct{ start, rank int }
