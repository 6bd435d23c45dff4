//go:build unix

package cli

import (
	"bytes"
	"syscall"
	"testing"
)

func TestOpenFileLimitIsRaisedForTheStreams(t *testing.T) {
	var orig syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_NOFILE, &orig); err != nil {
		t.Skip(err)
	}
	if orig.Max < 1000 {
		t.Skipf("hard open-file limit %d is too low for this test", orig.Max)
	}
	defer syscall.Setrlimit(syscall.RLIMIT_NOFILE, &orig)
	low := orig
	low.Cur = 200
	if err := syscall.Setrlimit(syscall.RLIMIT_NOFILE, &low); err != nil {
		t.Skip(err)
	}
	var stderr bytes.Buffer
	ensureOpenFiles(800, &stderr)
	var now syscall.Rlimit
	syscall.Getrlimit(syscall.RLIMIT_NOFILE, &now)
	if now.Cur != openFilesNeeded(800) || stderr.Len() != 0 {
		t.Errorf("soft limit %d (want %d), stderr %q", now.Cur, openFilesNeeded(800), stderr.String())
	}
}
