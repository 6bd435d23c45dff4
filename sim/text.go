package sim

import (
	"strings"
	"sync"
)

// passage is the simulated text: common lowercase words, each of which is
// exactly one o200k token with its leading space (tested), so the streamed
// text counts exactly as many o200k tokens as were scheduled.
const passage = `the model reads the prompt and starts to write an answer one token at a time
each token is a small piece of text and the server sends it as soon as it is ready so the user
can read along while the rest is still being made a fast chip keeps the whole model close to its
cores and moves data in a few cycles while a slower one waits on memory for most of the time
that is why the first token can take a while and the others come in a steady stream the speed
you see depends on the size of the model the length of the prompt how many users share the same
machine and how far the data must travel over the network to reach you when more people ask at
once each of them gets a smaller share of the work but the total amount of text the server can
produce goes up until the memory is full a laptop runs the same kind of model on its own graphics
card and never sends your words away but it is much slower than a large cloud this race shows
those numbers side by side so you can pick the service that fits your needs best`

// words are the passage's tokens, made on first use (few commands run the
// simulator).
var words = sync.OnceValue(func() []string {
	fields := strings.Fields(passage)
	for i, w := range fields {
		fields[i] = " " + w
	}
	return fields
})

// word returns token i of every simulated answer (reasoning included): the
// passage, over and over.
func word(i int) string {
	w := words()
	return w[i%len(w)]
}

// text returns tokens [from, to) joined.
func text(from, to int) string {
	var b strings.Builder
	for i := from; i < to; i++ {
		b.WriteString(word(i))
	}
	return b.String()
}
