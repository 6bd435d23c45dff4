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
	if err != nil {
		return rec, &Error{Line: rd.line, Err: err}
	}
	return rec, nil
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
	if err != nil {
		return nil, err
	}
	for {
		b, err := rd.next()
		if err == io.EOF {
			rec.Interrupted = true
			return rec, fmt.Errorf("the recording ends without its end line (cut short): it holds %s", rec.holds())
		}
		if err != nil {
			return rec, rec.broken(err)
		}
		done, err := rec.apply(b)
		if err != nil {
			return rec, rec.broken(err)
		}
		if done {
			rec.Complete = true
			return rec, nil
		}
	}
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

// broken marks rec as cut short by err.
func (rec *Recording) broken(err error) error {
	rec.Interrupted = true
	return fmt.Errorf("%w: the recording is broken here; it holds %s before it", err, rec.holds())
}

func (rec *Recording) holds() string {
	n := len(rec.Races)
	if n == 1 {
		return "1 race"
	}
	return strconv.Itoa(n) + " races"
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
		rec.Races = append(rec.Races, Race{Release: l.Release, Results: make([][]probes.Result, len(rec.Header.Providers)), load: l.ClientLoad.load()})
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
		res := l.result(rec.Header.Providers[l.Provider], race.Release)
		res.Load = race.load
		race.Results[l.Provider] = append(race.Results[l.Provider], res)
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
