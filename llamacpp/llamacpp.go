// Package llamacpp races a local llama.cpp server against the clouds. A
// providers.yaml entry of kind llamacpp either attaches to a running
// llama-server (base_url) or names a GGUF file, and then tpsrace starts
// llama-server itself (Start), waits for the model to load, and stops it
// after the race (Stop) with nothing left running.
//
// Around the race it tells what the lane ran on: the model, context size and
// slots from /props, this machine's CPU and GPU (Describe), what happens
// when there are more users than slots (QueueNote), and the server's own
// totals from /metrics (FetchMetrics).
package llamacpp

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"slices"
	"strings"
	"time"

	"tpsrace/config"
)

const (
	// DefaultServer is the binary used when neither the entry's server nor
	// $TPSRACE_LLAMA_SERVER names one, looked up in PATH.
	DefaultServer = "llama-server"
	// ServerEnv names the llama-server binary for entries that do not.
	ServerEnv = "TPSRACE_LLAMA_SERVER"
)

const installHint = "install llama.cpp (https://github.com/ggml-org/llama.cpp), or set " + ServerEnv

// checkTimeout bounds Check's GET: a local server answers at once, even
// while it loads its model.
const checkTimeout = 2 * time.Second

// Check tells, before a race, why an entry would spoil it: an attached
// llama-server that does not answer at its base_url, or, in spawn mode, a
// missing model file, a llama-server binary that cannot be found, or args
// that take the flags tpsrace sets. It returns "" when the entry can race
// (and for entries of other kinds). It starts nothing: in attach mode it
// sends one quick GET /health, in spawn mode it looks at files.
func Check(ctx context.Context, p config.Provider) (skipReason string) {
	if p.Kind != config.KindLlamaCpp {
		return ""
	}
	if p.Spawned() {
		if _, err := resolveSpawn(p); err != nil {
			return err.Error()
		}
		return ""
	}
	ctx, cancel := context.WithTimeout(ctx, checkTimeout)
	defer cancel()
	// Any answer will do, 503 "Loading model" included: something is there.
	resp, err := get(ctx, p, "/health")
	if err != nil {
		return fmt.Sprintf("no llama-server at %s (start it, or remove the entry)", config.RedactURL(root(p.BaseURL)))
	}
	resp.Body.Close()
	return ""
}

// reservedFlags are set by Start; the same flags in args would move the
// server away from the address tpsrace waits on, or load another model.
var reservedFlags = []string{"-m", "--model", "--host", "--port"}

// resolveSpawn checks a spawn-mode entry and returns its llama-server binary.
func resolveSpawn(p config.Provider) (string, error) {
	if err := checkModelFile(p.ModelPath); err != nil {
		return "", err
	}
	for _, arg := range p.Args {
		name, _, _ := strings.Cut(arg, "=")
		if slices.Contains(reservedFlags, name) {
			return "", fmt.Errorf("args: remove %s: tpsrace sets -m, --host and --port itself", name)
		}
	}
	return findServer(p)
}

// checkModelFile makes sure path is a GGUF file, so that a typo or a
// safetensors download is reported before llama-server is started.
func checkModelFile(path string) error {
	f, err := os.Open(path)
	if errors.Is(err, os.ErrNotExist) {
		return fmt.Errorf("model file not found: %s", path)
	}
	if err != nil {
		return fmt.Errorf("model file: %w", err)
	}
	defer f.Close()
	magic := make([]byte, 4)
	if _, err := io.ReadFull(f, magic); err != nil || string(magic) != "GGUF" {
		return fmt.Errorf("model %s is not a GGUF file (llama.cpp loads .gguf models)", path)
	}
	return nil
}

// findServer resolves the llama-server binary: the entry's server, else
// $TPSRACE_LLAMA_SERVER, else llama-server from PATH. The config fills in
// "llama-server" when the entry names none, so that name means "the default".
func findServer(p config.Provider) (string, error) {
	name, from := p.Server, "server "
	if name == "" || name == DefaultServer {
		name, from = DefaultServer, ""
		if env := os.Getenv(ServerEnv); env != "" {
			name, from = env, ServerEnv+"="
		}
	}
	path, err := exec.LookPath(name)
	switch {
	case err == nil:
		return path, nil
	case from == "":
		return "", errors.New("llama-server not found: " + installHint)
	default:
		return "", fmt.Errorf("llama-server not found: %s%s is not an executable file", from, name)
	}
}

// root is the server root of a base URL: llama-server serves the OpenAI API
// under /v1, and /health, /props and /metrics beside it.
func root(baseURL string) string {
	return strings.TrimSuffix(strings.TrimRight(baseURL, "/"), "/v1")
}

// get fetches path from the server root of p, with p's key and headers
// (llama-server started with --api-key wants the key for /props and /metrics).
func get(ctx context.Context, p config.Provider, path string) (*http.Response, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, root(p.BaseURL)+path, nil)
	if err != nil {
		return nil, errors.New("base_url is not a valid URL") // the error would show the URL, password and all
	}
	for k, v := range p.Headers {
		req.Header.Set(k, v)
	}
	if p.APIKey != "" {
		req.Header.Set("Authorization", "Bearer "+p.APIKey.Reveal())
	}
	return httpClient.Do(req)
}

// httpClient keeps no idle connections: a few requests around a race need
// none, and none is left open to a server that Stop ends.
var httpClient = &http.Client{Transport: &http.Transport{Proxy: http.ProxyFromEnvironment, DisableKeepAlives: true}}

// getOK is get for an answer that must be 200, with an error that says what
// to do otherwise. Errors name the URL without credentials and never carry
// the server's words, which could echo the key.
func getOK(ctx context.Context, p config.Provider, path string) (*http.Response, error) {
	where := config.RedactURL(root(p.BaseURL)) + path
	resp, err := get(ctx, p, path)
	if err != nil {
		if uerr, ok := errors.AsType[*url.Error](err); ok {
			err = uerr.Err // its own text repeats the URL, password and all
		}
		return nil, fmt.Errorf("GET %s: %w", where, err)
	}
	if resp.StatusCode == http.StatusOK {
		return resp, nil
	}
	resp.Body.Close()
	switch resp.StatusCode {
	case http.StatusUnauthorized:
		return nil, fmt.Errorf("GET %s: HTTP 401: the server wants an API key: set api_key in the entry", where)
	case http.StatusNotImplemented:
		return nil, fmt.Errorf("GET %s: HTTP 501: not enabled on this server (start llama-server with --metrics)", where)
	case http.StatusServiceUnavailable:
		return nil, fmt.Errorf("GET %s: HTTP 503: the server is still loading its model", where)
	}
	return nil, fmt.Errorf("GET %s: HTTP %d", where, resp.StatusCode)
}
