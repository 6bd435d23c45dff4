// Package llamacpptest holds what the tests that race a real llama-server
// (named TestReal…, so `go test -run Real ./...` runs them all) share: a
// tiny model written on the spot, so nothing is downloaded. A machine
// without llama-server is handled by testenv, as every missing real part is.
//
//	p.ModelPath = llamacpptest.Model(t)
//	if reason := llamacpp.Check(ctx, p); reason != "" {
//		testenv.Missing(t, "llama-server", reason)
//	}
package llamacpptest
