package metrics

import (
	"slices"
	"testing"
)

func TestTokenCountsDiffer(t *testing.T) {
	for _, tc := range []struct {
		provider, o200k int
		differ          bool
	}{
		{95, 100, false}, {105, 100, false}, {94, 100, true}, {106, 100, true}, {100, 100, false}, {7, 0, false},
	} {
		if got := TokenCountsDiffer(tc.provider, tc.o200k); got != tc.differ {
			t.Errorf("TokenCountsDiffer(%d, %d) = %v, want %v", tc.provider, tc.o200k, got, tc.differ)
		}
	}
}

func TestRank(t *testing.T) {
	standings := []Standing{
		{Failed: true},           // 0: failed, last
		{HasTTFT: true, TTFT: 5}, // 1: no speed yet, low TTFT
		{HasSpeed: true, Speed: 100, HasTTFT: true, TTFT: 9}, // 2
		{HasSpeed: true, Speed: 300, HasTTFT: true, TTFT: 9}, // 3: fastest
		{HasSpeed: true, Speed: 100, HasTTFT: true, TTFT: 3}, // 4: ties 2 on speed, lower TTFT
		{}, // 5: waiting, no TTFT: after 1
		{HasSpeed: true, Speed: 100, HasTTFT: true, TTFT: 3}, // 6: ties 4 exactly: file order
	}
	if got, want := Rank(standings), []int{3, 4, 6, 2, 1, 5, 0}; !slices.Equal(got, want) {
		t.Errorf("Rank = %v, want %v", got, want)
	}
}
