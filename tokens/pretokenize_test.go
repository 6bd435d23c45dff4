package tokens

import (
	"math/rand/v2"
	"testing"
)

// nextPiece's shortcut for ASCII lowercase words ends every piece where the
// alternatives (piece) end it: at every position of the recorded streams,
// the tricky texts and random text.
func TestNextPieceShortcutIsPiece(t *testing.T) {
	texts := append([]string{}, tricky...)
	for _, stream := range fixtureStreams(t) {
		texts = append(texts, stream...)
	}
	rng := rand.New(rand.NewPCG(3, 4))
	for range 3000 {
		texts = append(texts, randomText(rng, 1+rng.IntN(40)))
	}
	for _, s := range texts {
		checkPieces(t, s)
	}
}

func FuzzNextPiece(f *testing.F) {
	for _, s := range append(tricky, " don't", "abc\u00e9", " x'LL", "a b") {
		f.Add(s)
	}
	f.Fuzz(checkPieces)
}

func checkPieces(t *testing.T, s string) {
	s = validUTF8(s)
	for i := range len(s) {
		if got, want := nextPiece(s, i), piece(s, i); got != want {
			t.Fatalf("%q at %d: nextPiece ends at %d, piece at %d", s, i, got, want)
		}
	}
}
