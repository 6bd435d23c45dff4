package config

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
)

// A Provider printed any way, or encoded, never shows its key.
func TestSecretNeverPrints(t *testing.T) {
	const key = "sk-print-canary-77f1"
	p := Provider{Name: "x", APIKey: Secret(key)}
	js, _ := json.Marshal(p)
	for _, out := range []string{fmt.Sprint(p), fmt.Sprintf("%v %+v %#v %s %q", p, p, p, p.APIKey, p.APIKey), string(js)} {
		if strings.Contains(out, key) {
			t.Errorf("key printed: %s", out)
		}
	}
	if p.APIKey.Reveal() != key {
		t.Error("Reveal must return the key")
	}
}
