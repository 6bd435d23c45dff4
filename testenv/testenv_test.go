package testenv

import (
	"fmt"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// recorder stands in for a test: it records how Require ended it.
type recorder struct {
	testing.TB
	ended string // "skip" or "fatal"
	msg   string
}

func (r *recorder) Helper() {}
func (r *recorder) Skipf(format string, args ...any) {
	r.ended, r.msg = "skip", fmt.Sprintf(format, args...)
	runtime.Goexit()
}
func (r *recorder) Fatalf(format string, args ...any) {
	r.ended, r.msg = "fatal", fmt.Sprintf(format, args...)
	runtime.Goexit()
}

func require(name string) (path string, r *recorder) {
	r = &recorder{}
	done := make(chan struct{})
	go func() {
		defer close(done)
		path = Require(r, name)
	}()
	<-done
	return path, r
}

func TestMissingToolSkipsHereAndFailsUnderCI(t *testing.T) {
	t.Setenv("PATH", t.TempDir())
	for ci, want := range map[string]string{"": "skip", "false": "skip", "true": "fatal", "1": "fatal"} {
		t.Setenv("CI", ci)
		_, r := require("tmux")
		if r.ended != want || !strings.Contains(r.msg, "apt-get install -y tmux") {
			t.Errorf("CI=%q: ended %q (%s), want %s with the install command", ci, r.ended, r.msg, want)
		}
	}
}

func TestLlamaServerFromTheEnvironment(t *testing.T) {
	t.Setenv("CI", "")
	t.Setenv(LlamaServerEnv, filepath.Join(t.TempDir(), "llama-server"))
	if _, r := require("llama-server"); r.ended != "skip" || !strings.Contains(r.msg, LlamaServerEnv+"=") {
		t.Errorf("a missing $%s: ended %q (%s), want a skip naming it", LlamaServerEnv, r.ended, r.msg)
	}
	t.Setenv(LlamaServerEnv, "true") // a name, looked up in PATH
	if path, r := require("llama-server"); r.ended != "" || !strings.HasSuffix(path, "/true") {
		t.Errorf("%s=true: got %q, ended %q (%s)", LlamaServerEnv, path, r.ended, r.msg)
	}
}

func TestUnknownPartFails(t *testing.T) {
	if _, r := require("tmuxx"); r.ended != "fatal" {
		t.Errorf("an unknown part ended %q, want the test failed", r.ended)
	}
}
