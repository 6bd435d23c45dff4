// Package llamacpptest holds what the tests that race a real llama-server
// (named TestReal…, so `go test -run Real ./...` runs them all) share: a
// tiny model written on the spot, so nothing is downloaded, and the rule
// for a machine without llama-server.
//
//	if reason := llamacpp.Check(ctx, p); reason != "" {
//		llamacpptest.Missing(t, reason)
//	}
//	p.ModelPath = llamacpptest.Model(t)
package llamacpptest

import (
	"os"
	"testing"
)

// Missing ends a test whose llama-server cannot be found: it skips, saying
// how to get one, except under CI=true, where it fails, so that CI never
// goes green without having raced the real server (.ci/run builds it with
// scripts/llama-server.sh).
func Missing(t testing.TB, reason string) {
	t.Helper()
	const how = "to build one: export TPSRACE_LLAMA_SERVER=$(scripts/llama-server.sh)"
	if os.Getenv("CI") == "true" {
		t.Fatalf("CI=true, and a real llama-server is needed: %s (%s)", reason, how)
	}
	t.Skipf("%s (%s)", reason, how)
}
