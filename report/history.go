package report

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"

	"tpsrace/benchdoc"
)

// ReadRecords reads every document of a history file (JSON lines) or a
// bench JSON file (one document, indented): both are a stream of JSON values.
// Errors say which file and which document.
func ReadRecords(path string) ([]Record, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var records []Record
	dec := json.NewDecoder(f)
	for n := 1; ; n++ {
		var r Record
		err := dec.Decode(&r)
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil && n == 1 { // most likely the wrong file, not a damaged one
			return nil, fmt.Errorf("%s: not a tpsrace bench JSON or watch history file: %w", path, err)
		}
		if err != nil {
			return nil, fmt.Errorf("%s: document %d (byte %d): %w", path, n, dec.InputOffset(), err)
		}
		if r.Schema != benchdoc.Schema {
			return nil, fmt.Errorf("%s: document %d: schema %q, want %q (a tpsrace bench JSON or watch history file)", path, n, r.Schema, benchdoc.Schema)
		}
		records = append(records, r)
	}
	if len(records) == 0 {
		return nil, fmt.Errorf("%s: no bench document in the file", path)
	}
	return records, nil
}
