//go:build linux

package timesync

import (
	"errors"
	"testing"

	"golang.org/x/sys/unix"
)

func TestFromTimex(t *testing.T) {
	for _, tc := range []struct {
		name     string
		state    int
		status   int32
		esterror int64
		err      error
		want     string
	}{
		{"synchronised", unix.TIME_OK, unix.STA_PLL, 400, nil, "synchronised ±0.4 ms"},
		{"unsync bit", unix.TIME_OK, unix.STA_UNSYNC, 400, nil, "NOT synchronised (the kernel says STA_UNSYNC: no time daemon disciplines this clock)"},
		{"time error", unix.TIME_ERROR, 0, 400, nil, "NOT synchronised (adjtimex returns TIME_ERROR)"},
		{"unreadable", 0, 0, 0, errors.New("operation not permitted"), "NOT synchronised (adjtimex: operation not permitted)"},
	} {
		if got := fromTimex(tc.state, tc.status, tc.esterror, tc.err).String(); got != tc.want {
			t.Errorf("%s: %q, want %q", tc.name, got, tc.want)
		}
	}
	t.Logf("this machine's clock: %s", Kernel.Read())
}
