//go:build unix

package cli

import (
	"bytes"
	"fmt"
	"syscall"
	"testing"

	"tpsrace/testenv"
)

func TestOpenFileLimitIsRaisedForTheStreams(t *testing.T) {
	var orig syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_NOFILE, &orig); err != nil {
		testenv.Unavailable(t, "cannot read the open-file limit: "+err.Error())
	}
	if orig.Max < 1000 {
		testenv.Unavailable(t, fmt.Sprintf("the hard open-file limit %d is below the 1000 this test raises the soft one to", orig.Max))
	}
	defer syscall.Setrlimit(syscall.RLIMIT_NOFILE, &orig)
	low := orig
	low.Cur = 200
	if err := syscall.Setrlimit(syscall.RLIMIT_NOFILE, &low); err != nil {
		testenv.Unavailable(t, "cannot lower the open-file limit: "+err.Error())
	}
	var stderr bytes.Buffer
	ensureOpenFiles(800, &stderr)
	var now syscall.Rlimit
	syscall.Getrlimit(syscall.RLIMIT_NOFILE, &now)
	if now.Cur != openFilesNeeded(800) || stderr.Len() != 0 {
		t.Errorf("soft limit %d (want %d), stderr %q", now.Cur, openFilesNeeded(800), stderr.String())
	}
}
