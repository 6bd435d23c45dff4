package recording

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"

	"tpsrace/probes"
)

// gzipMagic opens every gzip stream: a recording is read as gzip when it
// starts with it, whatever its name.
var gzipMagic = []byte{0x1f, 0x8b}

// Error is where a recording broke. What was read before Line is in the
// Recording returned with it.
type Error struct {
	Path string // "" when read from a reader
	Line int    // 1-based; 0 when the file could not be read at all
	Err  error
}

func (e *Error) Error() string {
	where := e.Path
	if e.Line > 0 {
		if where != "" {
			where += ":"
		}
		where += "line " + strconv.Itoa(e.Line)
	}
	if where == "" {
		return e.Err.Error()
	}
	return where + ": " + e.Err.Error()
}

func (e *Error) Unwrap() error { return e.Err }

// ErrNewer is the error (inside an *Error) for a recording of a newer major
// version than this tpsrace reads.
var ErrNewer = errors.New("recording from a newer tpsrace")

// Open reads the recording at path. On a truncated or corrupted file it
// returns what it read before the break together with an *Error naming the
// line; only when not even the header could be read is the Recording nil.
func Open(path string) (*Recording, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	rec, err := Read(f)
	var re *Error
	if errors.As(err, &re) {
		re.Path = path
	}
	return rec, err
}

// Read reads a recording (gzipped or not) from r; see Open.
func Read(r io.Reader) (*Recording, error) {
	br := bufio.NewReader(r)
	if magic, _ := br.Peek(len(gzipMagic)); bytes.Equal(magic, gzipMagic) {
		gz, err := gzip.NewReader(br)
		if err != nil {
			return nil, &Error{Err: fmt.Errorf("gzip: %w", err)}
		}
		br = bufio.NewReader(gz)
	}
	rd := reader{in: br}
	rec, err := rd.read()
	if err == nil {
		return rec, nil
	}
	broken := &Error{Line: rd.line, Err: err}
	if rec != nil {
		rec.broke(broken)
	}
	return rec, broken
}

type reader struct {
	in   *bufio.Reader
	line int
}

// next returns the next line, io.EOF after the last.
func (rd *reader) next() ([]byte, error) {
	b, err := rd.in.ReadBytes('\n')
	if len(b) > 0 || err == nil {
		rd.line++
	}
	switch {
	case err == io.EOF && len(b) > 0:
		return b, nil // a last line without its newline: json decides whether it is whole
	case err == io.EOF:
		rd.line++ // the line that is missing
		return nil, io.EOF
	case err != nil:
		return nil, fmt.Errorf("cannot read: %w", err) // gzip: unexpected EOF, checksum error
	}
	return b, nil
}

func (rd *reader) read() (*Recording, error) {
	first, err := rd.next()
	if err == io.EOF {
		return nil, errors.New("empty file: not a tpsrace recording")
	}
	if err != nil {
		return nil, err
	}
	rec, err := parseHeader(first)
	if err != nil && cutHeader(first) {
		return nil, fmt.Errorf("the recording is cut inside its first line, the header (%d bytes and no end): nothing in it can be read", len(first))
	}
	if err != nil {
		return nil, err
	}
	for {
		b, err := rd.next()
		if err == io.EOF {
			return rec, errors.New("the recording ends without its end line (cut short)")
		}
		if err != nil {
			return rec, err
		}
		done, err := rec.apply(b)
		if err != nil {
			return rec, err
		}
		if done {
			return rec, nil
		}
	}
}

// cutHeader: line is the whole file, ends without its newline, stops in
// the middle of a JSON value, and begins as a header does: a recording
// cut inside its first line, not some other file.
func cutHeader(line []byte) bool {
	var v any
	err := json.NewDecoder(bytes.NewReader(line)).Decode(&v)
	return bytes.HasPrefix(line, []byte(`{"type":"header",`)) && !bytes.HasSuffix(line, []byte("\n")) &&
		errors.Is(err, io.ErrUnexpectedEOF)
}

// parseHeader reads a header line into an empty recording, refusing what
// is not a recording or is of a newer major version.
func parseHeader(line []byte) (*Recording, error) {
	var h Header
	if json.Unmarshal(line, &h) != nil || !strings.HasPrefix(h.Schema, SchemaPrefix) {
		return nil, errors.New("not a tpsrace recording (the first line has no \"schema\": \"" + Schema + "\")")
	}
	v, err := strconv.Atoi(strings.TrimPrefix(h.Schema, SchemaPrefix))
	switch {
	case err != nil:
		return nil, fmt.Errorf("unknown recording schema %q (this tpsrace reads %s)", h.Schema, Schema)
	case v > major:
		return nil, fmt.Errorf("%w: this file is %s and this tpsrace reads %s: update tpsrace to replay it", ErrNewer, h.Schema, Schema)
	}
	return &Recording{Header: h}, nil
}

// broke marks rec as broken where e says: a race the break fell in (one
// that lacks streams) leaves Races for Cut, and e says what rec holds.
func (rec *Recording) broke(e *Error) {
	rec.Broken = e
	if n := len(rec.Races); n > 0 && !rec.whole(rec.Races[n-1]) {
		cut := rec.Races[n-1]
		rec.Races = rec.Races[:n-1]
		rec.Cut = &cut
		rec.markLost(rec.Cut, e.Line)
	}
	holds := "it holds " + races(len(rec.Races))
	if rec.Cut != nil {
		holds += ", and race " + strconv.Itoa(len(rec.Races)+1) + " is incomplete (left out)"
	}
	e.Err = fmt.Errorf("%w: the recording is broken here: %s", e.Err, holds)
}

// whole is whether race holds every stream the header promises: each
// provider's concurrency streams (its level's in a sweep: width), or the
// one stream of a provider that never raced (its local server could not
// start).
func (rec *Recording) whole(race Race) bool {
	for _, streams := range race.Results {
		unreleased := len(streams) == 1 && streams[0].Release.IsZero()
		if len(streams) != rec.width(race) && !unreleased {
			return false
		}
	}
	return true
}

// markLost adds to race, cut by the break at line, each stream it lacks, as
// a failure of kind probes.KindTruncated at the release: the dashboard
// replay shows it lost, never waiting or queued.
func (rec *Recording) markLost(race *Race, line int) {
	width := rec.width(*race)
	for p, streams := range race.Results {
		for s := len(streams); s < width; s++ {
			prov := rec.Header.Providers[p]
			race.Results[p] = append(race.Results[p], probes.Result{Provider: prov.Name, Model: prov.Model, Stream: s, Release: race.Release,
				Err: &probes.Failure{Kind: probes.KindTruncated, Message: "not in the recording: it is broken at line " + strconv.Itoa(line)}})
		}
	}
}

// races is "1 whole race", "2 whole races".
func races(n int) string {
	if n == 1 {
		return "1 whole race"
	}
	return strconv.Itoa(n) + " whole races"
}

// Truncation says, for a report or the dashboard, what a broken recording
// lost: "race 3 of 3 is incomplete: the recording is broken at line 412",
// or "the recording is broken at line 12, after 2 whole races"; "" for a
// whole file.
func (rec *Recording) Truncation() string {
	switch {
	case rec.Broken == nil:
		return ""
	case rec.Cut != nil:
		n := strconv.Itoa(len(rec.Races) + 1)
		return "race " + n + " of " + n + " is incomplete: the recording is broken at line " + strconv.Itoa(rec.Broken.Line)
	}
	return "the recording is broken at line " + strconv.Itoa(rec.Broken.Line) + ", after " + races(len(rec.Races))
}

// apply adds one line to rec; done is true for the end line.
func (rec *Recording) apply(b []byte) (done bool, err error) {
	var kind struct {
		Type string `json:"type"`
	}
	if err := json.Unmarshal(b, &kind); err != nil {
		return false, err
	}
	switch kind.Type {
	case typeRace:
		var l raceLine
		if err := json.Unmarshal(b, &l); err != nil {
			return false, err
		}
		if l.Race != len(rec.Races) {
			return false, fmt.Errorf("race %d where race %d was due", l.Race, len(rec.Races))
		}
		rec.Races = append(rec.Races, Race{Release: l.Release, Results: make([][]probes.Result, len(rec.Header.Providers))})
	case typeStream:
		var l streamLine
		if err := json.Unmarshal(b, &l); err != nil {
			return false, err
		}
		if len(rec.Races) == 0 {
			return false, errors.New("a stream line before any race line")
		}
		if l.Race != len(rec.Races)-1 {
			return false, fmt.Errorf("a stream of race %d where race %d is open", l.Race, len(rec.Races)-1)
		}
		if l.Provider < 0 || l.Provider >= len(rec.Header.Providers) {
			return false, fmt.Errorf("a stream of provider %d, but the header lists %d providers", l.Provider, len(rec.Header.Providers))
		}
		race := &rec.Races[len(rec.Races)-1]
		prov := rec.Header.Providers[l.Provider]
		r := l.result(prov, race.Release)
		r.Host = rec.Header.host(prov.Probe)
		race.Results[l.Provider] = append(race.Results[l.Provider], r)
	case typeEnd:
		var l endLine
		if err := json.Unmarshal(b, &l); err != nil {
			return false, err
		}
		rec.Interrupted = l.Interrupted
		return true, nil
	default:
		// A line type from a later minor revision of v1: skipped, as the
		// format promises readers may.
	}
	return false, nil
}
