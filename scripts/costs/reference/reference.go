// Package reference holds the yardsticks for what measuring costs, two
// minimal streaming clients: Floor, the least any client can do (plain
// net/http, split SSE lines with a bufio.Scanner, decode nothing), and
// Stream, the least a client that reads the text can do (the same, and
// decode each event's JSON with encoding/json). scripts/costs runs them as
// processes beside tpsrace; BenchmarkMeasuringCost runs Stream in-process.
package reference

import (
	"bufio"
	"bytes"
	"encoding/json"
	"net/http"
	"strings"
	"time"
)

// Floor posts body to url/chat/completions and splits the stream into
// lines. It returns the number of data lines but [DONE] and the time from
// release to the first of them.
func Floor(client *http.Client, url, body string, release time.Time) (events int, first time.Duration, err error) {
	resp, err := client.Post(url+"/chat/completions", "application/json", strings.NewReader(body))
	if err != nil {
		return 0, 0, err
	}
	defer resp.Body.Close()
	sc := bufio.NewScanner(resp.Body)
	for sc.Scan() {
		payload, ok := bytes.CutPrefix(sc.Bytes(), []byte("data: "))
		if !ok || string(payload) == "[DONE]" {
			continue
		}
		if events == 0 {
			first = time.Since(release)
		}
		events++
	}
	return events, first, sc.Err()
}

// Stream posts body to url/chat/completions and reads the stream. It returns
// the number of events that carried text and the time from release to the
// first of them.
func Stream(client *http.Client, url, body string, release time.Time) (events int, first time.Duration, err error) {
	resp, err := client.Post(url+"/chat/completions", "application/json", strings.NewReader(body))
	if err != nil {
		return 0, 0, err
	}
	defer resp.Body.Close()
	sc := bufio.NewScanner(resp.Body)
	for sc.Scan() {
		payload, ok := bytes.CutPrefix(sc.Bytes(), []byte("data: "))
		if !ok || string(payload) == "[DONE]" {
			continue
		}
		var c struct {
			Choices []struct {
				Delta struct {
					Content string `json:"content"`
				} `json:"delta"`
			} `json:"choices"`
		}
		if err := json.Unmarshal(payload, &c); err != nil {
			return events, first, err
		}
		if len(c.Choices) > 0 && c.Choices[0].Delta.Content != "" {
			if events == 0 {
				first = time.Since(release)
			}
			events++
		}
	}
	return events, first, sc.Err()
}
