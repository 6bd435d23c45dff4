package recording

import (
	"bufio"
	"compress/gzip"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"strings"

	"tpsrace/config"
	"tpsrace/probes"
)

// Writer writes one recording: the header at once, each race as it is
// added, the end line at Close. Each line is flushed when written, so a
// session that dies mid-way leaves every race it finished readable.
type Writer struct {
	buf     *bufio.Writer
	gz      *gzip.Writer // nil unless gzipped
	file    *os.File     // nil unless Create opened it
	enc     *json.Encoder
	secrets []string
	races   int
	err     error
}

// Create writes a recording to path, gzipped when path ends in ".gz".
// The API keys of cfg are redacted from
// every failure message, in case a server echoed one.
func Create(path string, h Header, cfg *config.Config) (*Writer, error) {
	f, err := os.Create(path)
	if err != nil {
		return nil, err
	}
	return newFileWriter(f, path, h, cfg)
}

func newFileWriter(f *os.File, path string, h Header, cfg *config.Config) (*Writer, error) {
	w := NewWriter(f, h, cfg, strings.HasSuffix(path, ".gz"))
	w.file = f
	if w.err != nil {
		f.Close()
		return nil, w.err
	}
	return w, nil
}

// NewWriter writes a recording to out and writes its header.
func NewWriter(out io.Writer, h Header, cfg *config.Config, gzipped bool) *Writer {
	w := &Writer{}
	if gzipped {
		w.gz = gzip.NewWriter(out)
		out = w.gz
	}
	w.buf = bufio.NewWriter(out)
	w.enc = json.NewEncoder(w.buf)
	w.enc.SetEscapeHTML(false)
	for _, p := range cfg.Providers {
		w.secrets = append(w.secrets, p.APIKey.Reveal())
	}
	h.Type, h.Schema = typeHeader, Schema
	w.line(h)
	w.flush()
	return w
}

// Race adds one finished race, results[provider][stream] in the header's
// provider order.
func (w *Writer) Race(results [][]probes.Result) error {
	rl := raceLine{Type: typeRace, Race: w.races}
	for _, streams := range results {
		for _, r := range streams {
			if rl.Release.IsZero() {
				rl.Release = r.Release
			}

		}
	}
	w.line(rl)
	redact := func(s string) string { return probes.Redact(s, w.secrets...) }
	for p, streams := range results {
		for i := range streams {
			w.line(newStreamLine(w.races, p, &streams[i], redact))
		}
	}
	w.races++
	w.flush()
	return w.err
}

// Close writes the end line (interrupted: the user stopped the session)
// and closes the file; it returns the first error of the whole recording.
func (w *Writer) Close(interrupted bool) error {
	w.line(endLine{Type: typeEnd, Interrupted: interrupted})
	w.flush()
	if w.gz != nil && w.err == nil {
		w.err = w.gz.Close()
	}
	if w.file != nil {
		if err := w.file.Close(); w.err == nil {
			w.err = err
		}
	}
	return w.err
}

func (w *Writer) line(v any) {
	if w.err == nil {
		w.err = w.enc.Encode(v)
	}
}

func (w *Writer) flush() {
	if w.err == nil {
		w.err = w.buf.Flush()
	}
	if w.gz != nil && w.err == nil {
		w.err = w.gz.Flush()
	}
}

// WriteFile writes a whole recording to path at once (the dashboard's `s`
// and --record, which rewrite their file after every race).
func WriteFile(path string, h Header, cfg *config.Config, races [][][]probes.Result, interrupted bool) error {
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*")
	if err != nil {
		return err
	}
	w, err := newFileWriter(f, path, h, cfg)
	if err != nil {
		os.Remove(f.Name())
		return err
	}
	for _, race := range races {
		w.Race(race)
	}
	if err := w.Close(interrupted); err != nil {
		os.Remove(f.Name())
		return err
	}
	return os.Rename(f.Name(), path)
}
