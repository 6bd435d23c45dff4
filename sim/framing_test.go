package sim

import (
	"context"
	"io"
	"strings"
	"testing"
)

// Each framing shows on the wire as the WHATWG rules spell it.
func TestFramings(t *testing.T) {
	s := startServer(t, Options{})
	body := func(framing string) string {
		t.Helper()
		resp, _ := post(t, context.Background(), s, chatBody("sim:ttft=0s,tps=1000,tokens=3,framing="+framing, nil))
		defer resp.Body.Close()
		b, err := io.ReadAll(resp.Body)
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	for _, tc := range []struct {
		framing string
		ok      func(string) bool
	}{
		{"crlf", func(b string) bool {
			return strings.HasSuffix(b, "data: [DONE]\r\n\r\n") && strings.Count(b, "\n") == strings.Count(b, "\r\n")
		}},
		{"cr", func(b string) bool { return !strings.Contains(b, "\n") && strings.HasSuffix(b, "data: [DONE]\r\r") }},
		{"bom", func(b string) bool { return strings.HasPrefix(b, "\uFEFFdata: {") && strings.Count(b, "\uFEFF") == 1 }},
		{"split", func(b string) bool {
			return strings.Contains(b, ",\ndata: \"") && strings.HasSuffix(b, "data: [DONE]\n\n")
		}},
		{"fields", func(b string) bool {
			return strings.HasPrefix(b, "id: 1\ndata: {") && strings.Contains(b, "retry: 1000\n\nid: 2\n")
		}},
		{"split+fields+crlf", func(b string) bool { return strings.Contains(b, ",\r\n: sim\r\ndata: \"") }},
		{"noend", func(b string) bool { return strings.HasSuffix(b, "}\n\ndata: [DONE]\n") }},
	} {
		if b := body(tc.framing); !tc.ok(b) {
			t.Errorf("framing=%s:\n%q", tc.framing, b)
		}
	}
	if _, err := ParseSchedule("sim:framing=crlf+tabs"); err == nil || !strings.Contains(err.Error(), "bom, split") {
		t.Errorf("framing=crlf+tabs: %v", err)
	}
}

func TestCommaOutsideString(t *testing.T) {
	for s, want := range map[string]int{
		`{"a":"x,y","b":1}`:   10,
		`{"a":"x\",y","b":1}`: 12,
		`{"a":"x\\","b":1}`:   10,
		`{"a":1}`:             -1,
	} {
		if got := commaOutsideString([]byte(s)); got != want {
			t.Errorf("%s: %d, want %d", s, got, want)
		}
	}
}
