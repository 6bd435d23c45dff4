package tokens

import "testing"

func TestCount(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want int
	}{
		{"", 0},
		{" the", 1},  // fast path: one vocabulary entry
		{"Hello", 1}, //
		{"Hello, world!", 4},
		{"tokens per second", 3},
	} {
		if got := Count(tc.in); got != tc.want {
			t.Errorf("Count(%q) = %d, want %d", tc.in, got, tc.want)
		}
	}
}

func BenchmarkCountFastPath(b *testing.B) {
	Warm()
	for b.Loop() {
		Count(" cache")
	}
}

func BenchmarkCountEncoder(b *testing.B) {
	Warm()
	for b.Loop() {
		Count(" a CPU cache keeps recently used lines close to the core")
	}
}
