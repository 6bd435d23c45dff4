package workload

import (
	"fmt"
	"strings"
	"time"

	"tpsrace/tokens"
)

// filler is the long-context padding: plain prose a model reads as
// context, repeated as far as needed.
var filler = strings.Fields(`the library keeps a record of every book that comes in and every book
that goes out and the people who work there write down the day the name of the reader and the
shelf where the book belongs so that anyone who asks can find it again in a few minutes even when
the building is full and the rooms are quiet except for the sound of pages`)

// Pad is prompt made exactly n o200k tokens long (when n leaves room for
// it): nonce first, so that no provider's prefix cache holds any of it, then
// filler, then prompt, the question to answer. The text after the nonce is
// the same for every nonce of one n.
func Pad(prompt string, n int, nonce string) string {
	head := "[" + nonce + "] Context follows; the question is at the end.\n"
	tail := "\n\nQuestion: " + prompt
	build := func(words int) string {
		var b strings.Builder
		b.WriteString(head)
		for i := range words {
			b.WriteString(" " + filler[i%len(filler)])
		}
		b.WriteString(tail)
		return b.String()
	}
	words := max(n-tokens.Count(head)-tokens.Count(tail), 0)
	text := build(words)
	// Words join without merging into fewer tokens, so the count moves by
	// the difference; a few steps settle it.
	for range 8 {
		diff := n - tokens.Count(text)
		if diff == 0 || words+diff < 0 {
			break
		}
		words += diff
		text = build(words)
	}
	return text
}

// Nonce is a race's unique first words: the instant its requests were
// built, to the nanosecond.
func Nonce(t time.Time) string { return fmt.Sprintf("race %x", t.UnixNano()) }
