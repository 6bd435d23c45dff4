package tokens

import (
	"maps"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"testing"
	"unicode/utf8"
)

// TestMemoMatchesTable: every lookup through the memo, a hit or a miss,
// answers what the table does, while goroutines that share the memo write
// its entries at once (go test -race reads every word's access). The
// strings are more than the memo's slots, tokens and not, of every length
// around memoLongest, so entries are replaced as they are read.
func TestMemoMatchesTable(t *testing.T) {
	v := o200kVocab
	v.memo = new(lookupMemo)
	rng := rand.New(rand.NewPCG(7, 8))
	var texts []string
	for _, tok := range vocabTokens()[:3*memoSize] {
		texts = append(texts, tok, tok+"x")
	}
	for range 2000 {
		texts = append(texts, randomText(rng, 1+rng.IntN(memoLongest+4)))
	}
	var wg sync.WaitGroup
	for g := range 4 {
		wg.Go(func() {
			order := rand.New(rand.NewPCG(uint64(g), 9))
			for range 20 * len(texts) {
				s := texts[order.IntN(len(texts))]
				rank, single, valid := v.lookup(s)
				wantRank, wantSingle, wantValid := v.find(s)
				if rank != wantRank || single != wantSingle || valid != wantValid {
					t.Errorf("lookup(%q) = %d %v %v, the table %d %v %v", s, rank, single, valid, wantRank, wantSingle, wantValid)
					return
				}
			}
		})
	}
	wg.Wait()
}

// TestMemoWordsTellStringsApart: two different strings of one length never
// have the same words, the memo's whole check of which string an entry
// holds.
func TestMemoWordsTellStringsApart(t *testing.T) {
	rng := rand.New(rand.NewPCG(10, 11))
	for n := 1; n <= memoLongest; n++ {
		seen := map[[2]uint64]string{}
		for range 20000 {
			b := make([]byte, n)
			for i := range b {
				b[i] = "ab\x00\xff"[rng.IntN(4)]
			}
			s := string(b)
			w0, w1 := memoWords(s)
			if other, ok := seen[[2]uint64{w0, w1}]; ok && other != s {
				t.Fatalf("%q and %q have the same words", other, s)
			}
			seen[[2]uint64{w0, w1}] = s
		}
	}
}

// BenchmarkMemoFixtures reports how often the memo answers the lookups a
// stream's reader makes as each delta arrives (AddCounted: the delta, and
// each piece of a delta that is not one token), over the recorded streams:
// each with an empty memo (cold-%, a process's first stream), and read one
// after another (warm-%); and over a long answer of real prose, this
// project's docs/*.md sent one piece a delta (prose-%: the recorded
// streams are trimmed to a few dozen events each). The pieces settle
// counts later (where a delta was not a piece) are not among them.
func BenchmarkMemoFixtures(b *testing.B) {
	streams := fixtureDeltas(b)
	names := slices.Sorted(maps.Keys(streams))
	prose := proseDeltas(b)
	var cold, warm, long memoCount
	for b.Loop() {
		cold, warm, long = memoCount{}, memoCount{}, memoCount{}
		shared := new(lookupMemo)
		for _, name := range names {
			fresh := new(lookupMemo)
			for _, d := range streams[name] {
				cold.delta(fresh, d)
				warm.delta(shared, d)
			}
		}
		fresh := new(lookupMemo)
		for _, d := range prose {
			long.delta(fresh, d)
		}
	}
	b.ReportMetric(cold.percent(), "cold-%")
	b.ReportMetric(warm.percent(), "warm-%")
	b.ReportMetric(long.percent(), "prose-%")
}

// proseDeltas is docs/*.md cut into its o200k pieces, in order.
func proseDeltas(b *testing.B) []string {
	files, _ := filepath.Glob("../docs/*.md")
	var deltas []string
	for _, f := range files {
		text, err := os.ReadFile(f)
		if err != nil {
			b.Fatal(err)
		}
		s := validUTF8(string(text))
		for i := 0; i < len(s); {
			end := nextPiece(s, i)
			deltas, i = append(deltas, s[i:end]), end
		}
	}
	if len(deltas) == 0 {
		b.Fatal("no docs/*.md")
	}
	return deltas
}

type memoCount struct{ hits, lookups int }

// delta makes the lookups AddCounted makes for d through memo, counting
// the ones the memo answered.
func (c *memoCount) delta(memo *lookupMemo, d string) {
	v := o200kVocab
	v.memo = memo
	look := func(s string) (single, valid bool) {
		c.lookups++
		if n := len(s); n <= memoLongest {
			w0, w1 := memoWords(s)
			if _, ok := memo.entry(w0, n).get(w0, w1, n); ok {
				c.hits++
			}
		}
		_, single, valid = v.lookup(s)
		return single, valid
	}
	if single, valid := look(d); (single && valid) || !utf8.ValidString(d) {
		return
	}
	for i := 0; i < len(d); {
		end := nextPiece(d, i)
		look(d[i:end])
		i = end
	}
}

func (c memoCount) percent() float64 { return 100 * float64(c.hits) / float64(max(c.lookups, 1)) }
