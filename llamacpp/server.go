package llamacpp

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"time"

	"tpsrace/config"
)

const (
	// LoadTimeout bounds Start's wait for the model to load, unless the
	// context's deadline comes sooner. A 70B model read from a slow disk
	// takes minutes; a server that takes longer is stuck.
	LoadTimeout = 10 * time.Minute
	// StopGrace is how long Stop waits after SIGTERM before SIGKILL.
	StopGrace = 5 * time.Second
)

const (
	healthPoll    = 100 * time.Millisecond
	healthTimeout = 2 * time.Second       // one /health request; a loading server answers at once
	killWait      = 5 * time.Second       // after SIGKILL: only an unkillable (D-state) process takes long
	goneCheck     = 10 * time.Millisecond // polling for the last process of the group
	logTailLines  = 12                    // of the server's log, in Start's errors
	logTailBytes  = 64 << 10              // read from the end of the log for those lines
)

// Server is a llama-server that Start spawned. Stop it when done (defer
// it): that is what guarantees no llama-server outlives tpsrace.
type Server struct {
	baseURL string
	logPath string
	process *os.Process

	exited  chan struct{} // closed when the server process has exited
	exitErr error         // its exit status, set before exited is closed

	stopGrace time.Duration
	stopOnce  sync.Once
	stopErr   error
}

// Start spawns llama-server for a spawn-mode provider and waits until its
// model is loaded. The command line is
//
//	SERVER -m MODEL --host 127.0.0.1 --port PORT --metrics ARGS...
//
// on a free loopback port, in its own process group, with stdout and stderr
// in a temporary log file (LogPath; Stop says what becomes of it). While
// the model loads (/health answers 503), progress, when not nil, is called
// from Start's goroutine about ten times a second with "loading model… 3.2s".
//
// Start fails when the server exits early or has not loaded within
// LoadTimeout (or the context's deadline), with the log's last lines in the
// error; when ctx is cancelled; and for the problems Check reports. On
// failure nothing is left running. The context bounds the start only: once
// Start returns, the server runs until Stop.
func Start(ctx context.Context, p config.Provider, progress func(string)) (*Server, error) {
	if !p.Spawned() {
		return nil, fmt.Errorf("%s: tpsrace starts llama-server only for an entry with a model file and no base_url", p.Name)
	}
	bin, err := resolveSpawn(p)
	if err != nil {
		return nil, err
	}
	port, err := freePort()
	if err != nil {
		return nil, err
	}
	log, err := os.CreateTemp("", "tpsrace-llama-server-*.log")
	if err != nil {
		return nil, fmt.Errorf("creating llama-server's log file: %w", err)
	}
	defer log.Close() // the server writes through its own descriptor

	args := append([]string{"-m", p.ModelPath, "--host", "127.0.0.1", "--port", port, "--metrics"}, p.Args...)
	cmd := exec.Command(bin, args...)
	cmd.Stdout, cmd.Stderr = log, log
	cmd.SysProcAttr = procAttr()
	if err := cmd.Start(); err != nil {
		_ = os.Remove(log.Name()) // empty: nothing ran
		return nil, fmt.Errorf("starting %s: %w", bin, err)
	}
	s := &Server{
		baseURL:   "http://" + net.JoinHostPort("127.0.0.1", port) + "/v1",
		logPath:   log.Name(),
		process:   cmd.Process,
		exited:    make(chan struct{}),
		stopGrace: StopGrace,
	}
	go func() {
		s.exitErr = cmd.Wait()
		close(s.exited)
	}()
	if err := s.waitLoaded(ctx, progress); err != nil {
		// The log stays: err names it, or the start was cancelled.
		if stopErr := s.halt(); stopErr != nil {
			err = errors.Join(err, stopErr)
		}
		return nil, err
	}
	return s, nil
}

// BaseURL is the server's OpenAI API: "http://127.0.0.1:PORT/v1", for the
// provider's BaseURL in the race.
func (s *Server) BaseURL() string { return s.baseURL }

// LogPath is the file holding the server's output.
func (s *Server) LogPath() string { return s.logPath }

// Stop ends the server: SIGTERM to its process group, SIGKILL after
// StopGrace, and it returns once every process of the group has exited. It
// is safe to call more than once; later calls return the first one's result.
//
// A server that ran until Stop leaves nothing behind: its log held nothing
// anyone was shown, and a file kept per run would pile up in the temporary
// folder. One that had exited on its own (a crash mid-race) keeps its log,
// and Stop's error says so, with where the log is and how it ends.
func (s *Server) Stop() error {
	s.stopOnce.Do(func() {
		select {
		case <-s.exited:
			s.stopErr = fmt.Errorf("llama-server had exited on its own (%v)%s", s.exitErr, s.logTail())
			_ = s.halt() // whatever it started
			return
		default:
		}
		if s.stopErr = s.halt(); s.stopErr == nil {
			_ = os.Remove(s.logPath)
		}
	})
	return s.stopErr
}

// halt ends the server's process group (Stop).
func (s *Server) halt() error {
	// Errors are ESRCH at most: the group is already gone, which waitGone sees.
	_ = signalGroup(s.process, true)
	if s.waitGone(s.stopGrace) {
		return nil
	}
	_ = signalGroup(s.process, false)
	if s.waitGone(killWait) {
		return nil
	}
	return fmt.Errorf("llama-server (process group %d) is still running after SIGKILL", s.process.Pid)
}

// waitGone waits up to d for the server process to exit and then for the
// rest of its process group (anything it started).
func (s *Server) waitGone(d time.Duration) bool {
	deadline := time.NewTimer(d)
	defer deadline.Stop()
	select {
	case <-s.exited:
	case <-deadline.C:
		return false
	}
	for groupAlive(s.process) {
		select {
		case <-time.After(goneCheck):
		case <-deadline.C:
			return false
		}
	}
	return true
}

// waitLoaded polls /health until it answers 200 OK.
func (s *Server) waitLoaded(ctx context.Context, progress func(string)) error {
	ctx, cancel := context.WithTimeout(ctx, LoadTimeout)
	defer cancel()
	began := time.Now()
	tick := time.NewTicker(healthPoll)
	defer tick.Stop()
	for {
		if s.healthy(ctx) {
			return nil
		}
		if progress != nil {
			progress(fmt.Sprintf("loading model… %.1fs", time.Since(began).Seconds()))
		}
		select {
		case <-s.exited:
			return fmt.Errorf("llama-server exited before its model was loaded (%v)%s", s.exitErr, s.logTail())
		case <-ctx.Done():
			if errors.Is(ctx.Err(), context.DeadlineExceeded) {
				return fmt.Errorf("llama-server had not loaded its model after %s%s", time.Since(began).Round(100*time.Millisecond), s.logTail())
			}
			return fmt.Errorf("llama-server start cancelled while it loaded its model: %w", ctx.Err())
		case <-tick.C:
		}
	}
}

// healthy reports whether /health answers 200: llama-server answers 503
// while it loads the model, and nothing at all before it listens.
func (s *Server) healthy(ctx context.Context) bool {
	ctx, cancel := context.WithTimeout(ctx, healthTimeout)
	defer cancel()
	resp, err := get(ctx, config.Provider{BaseURL: s.baseURL}, "/health")
	if err != nil {
		return false
	}
	resp.Body.Close()
	return resp.StatusCode == http.StatusOK
}

// logTail is the end of the server's log, for an error: where the log is
// and its last lines, indented.
func (s *Server) logTail() string {
	head := "; its log is " + s.logPath
	f, err := os.Open(s.logPath)
	if err != nil {
		return head
	}
	defer f.Close()
	if info, err := f.Stat(); err == nil && info.Size() > logTailBytes {
		_, _ = f.Seek(-logTailBytes, io.SeekEnd)
	}
	data, _ := io.ReadAll(f)
	lines := strings.Split(strings.TrimRight(string(bytes.ToValidUTF8(data, nil)), "\r\n\t "), "\n")
	if len(lines) == 1 && lines[0] == "" {
		return head + " (empty)"
	}
	lines = lines[max(len(lines)-logTailLines, 0):]
	return head + ", ending:\n  " + strings.Join(lines, "\n  ")
}

// freePort picks a loopback port that is free now. Another program could
// take it before llama-server binds it; the server then exits with a bind
// error, which Start reports with the log.
func freePort() (string, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", fmt.Errorf("finding a free port for llama-server: %w", err)
	}
	defer ln.Close()
	return strconv.Itoa(ln.Addr().(*net.TCPAddr).Port), nil
}
