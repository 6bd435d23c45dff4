package config

import (
	"slices"
	"strings"
	"testing"
)

func TestSweep(t *testing.T) {
	cfg, _ := mustParse(t, "sweep: [1, 4, 16, 64]\n", env())
	if !slices.Equal(cfg.Sweep, []int{1, 4, 16, 64}) {
		t.Errorf("sweep %v", cfg.Sweep)
	}
	if levels, err := ParseSweep(" 1,2 ,4"); err != nil || !slices.Equal(levels, []int{1, 2, 4}) {
		t.Errorf("ParseSweep: %v, %v", levels, err)
	}
	for _, c := range []struct{ text, want string }{
		{"4", "at least two levels"},
		{"1,x", "want whole numbers"},
		{"4,2", "levels must rise, got 2 after 4"},
		{"0,2", "level 1 must be 1 to 1024 users, got 0"},
		{"1,2000", "got 2000"},
	} {
		if _, err := ParseSweep(c.text); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("ParseSweep(%q): %v, want %q", c.text, err, c.want)
		}
	}
	for _, c := range []struct{ yaml, want string }{
		{"sweep: [1, 8, 4]\n", `t.yaml:1:8: sweep: levels must rise, got 4 after 8 (write it as [1, 4, 16, 64])`},
		{"sweep: 1,4\n", `t.yaml:1:8: sweep: expected a list of concurrencies`},
		{"sweep: [1, two]\n", `t.yaml:1:12: sweep[1]: expected a whole number`},
		{"swep: [1, 2]\n", `did you mean "sweep"?`},
	} {
		_, _, err := Parse("t.yaml", []byte(c.yaml), env())
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: %v, want %q", c.yaml, err, c.want)
		}
	}
}
