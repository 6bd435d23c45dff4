package draw

import "testing"

func TestJoinDropsWholeSegmentsByRank(t *testing.T) {
	segs := []Segment{{"tpsrace", 0}, {"racing 100ms", 1}, {"4 providers C=1", 3}, {"start skew 875µs", 4}, {"heat 2/3", 2}}
	for _, tc := range []struct {
		width int
		want  string
	}{
		{200, "tpsrace · racing 100ms · 4 providers C=1 · start skew 875µs · heat 2/3"},
		{60, "tpsrace · racing 100ms · 4 providers C=1 · heat 2/3"},
		{40, "tpsrace · racing 100ms · heat 2/3"},
		{20, "tpsrace"},
		{3, ""},
	} {
		if got := Join(segs, " · ", tc.width); got != tc.want {
			t.Errorf("width %d: %q, want %q", tc.width, got, tc.want)
		}
	}
}

func TestWordsCutsBetweenWords(t *testing.T) {
	s := "a is faster than b in 3/3 runs; ratio 8.0× (95% CI 2.4–2.6×)"
	for _, tc := range []struct {
		width int
		want  string
	}{
		{100, s},
		{55, "a is faster than b in 3/3 runs; ratio 8.0× …"},
		{42, "a is faster than b in 3/3 runs; ratio …"},
		{3, "a …"},
		{1, "…"},
		{0, ""},
	} {
		got := Words(s, tc.width)
		if got != tc.want || Width(got) > tc.width {
			t.Errorf("width %d: %q, want %q", tc.width, got, tc.want)
		}
	}
}

// Split keeps the words that fit, a parenthesised group whole, and the
// rest after them.
func TestSplitCutsBetweenWords(t *testing.T) {
	s := "503 model is overloaded (retry after 2) now"
	for _, tc := range []struct {
		width      int
		head, rest string
	}{
		{100, s, ""},
		{30, "503 model is overloaded", "(retry after 2) now"},
		{39, "503 model is overloaded (retry after 2)", "now"},
		{2, "", s},
	} {
		if head, rest := Split(s, tc.width); head != tc.head || rest != tc.rest {
			t.Errorf("width %d: %q, %q; want %q, %q", tc.width, head, rest, tc.head, tc.rest)
		}
	}
}
