package probes

import "strings"

// thinkSplitter moves inline <think>…</think> text at the start of an answer
// (DeepSeek-R1 distills, QwQ on some servers) into reasoning. Only a leading
// block counts, so an answer that merely mentions the tag is left alone. Tags
// may be split across events, so a possible tag prefix is held back; the
// result is the same however the text was cut (FuzzThinkSplit). The text
// returned may be a view of content; what is held back is a copy, so content
// may be a view of a buffer the caller reuses.
type thinkSplitter struct {
	state   thinkState
	pending string
}

type thinkState int

const (
	beforeAnswer thinkState = iota // only white space so far; a <think> may still open
	inThink                        // inside the leading think block
	afterThink                     // just closed: drop the newlines that follow the tag
	inAnswer                       // plain answer text from here on
)

const openThink, closeThink = "<think>", "</think>"

func (t *thinkSplitter) split(content string) (answer, reasoning string) {
	if t.state == inAnswer { // nothing is held back once the answer began
		return content, ""
	}
	s := t.pending + content
	t.pending = ""
	for s != "" {
		switch t.state {
		case beforeAnswer:
			trimmed := strings.TrimLeft(s, " \t\r\n")
			answer += s[:len(s)-len(trimmed)] // white space before the tag is answer text either way
			s = trimmed
			switch {
			case s == "":
			case strings.HasPrefix(s, openThink):
				t.state, s = inThink, s[len(openThink):]
			case strings.HasPrefix(openThink, s):
				t.pending, s = strings.Clone(s), ""
			default:
				t.state = inAnswer
			}
		case inThink:
			if i := strings.Index(s, closeThink); i >= 0 {
				reasoning += s[:i]
				t.state, s = afterThink, s[i+len(closeThink):]
				continue
			}
			keep := partialSuffix(s, closeThink)
			reasoning += s[:len(s)-keep]
			t.pending, s = strings.Clone(s[len(s)-keep:]), ""
		case afterThink:
			if s = strings.TrimLeft(s, "\r\n"); s != "" {
				t.state = inAnswer
			}
		case inAnswer:
			answer, s = answer+s, ""
		}
	}
	return answer, reasoning
}

// flush returns text held back at the end of the stream.
func (t *thinkSplitter) flush() (answer, reasoning string) {
	s := t.pending
	t.pending = ""
	if t.state == inThink {
		return "", s
	}
	return s, ""
}

// partialSuffix is the length of the longest suffix of s that starts tag.
func partialSuffix(s, tag string) int {
	for n := min(len(tag)-1, len(s)); n > 0; n-- {
		if strings.HasSuffix(s, tag[:n]) {
			return n
		}
	}
	return 0
}
