package config

// Keys and files: a key written in the file is warned about, a file that is
// missing is named, and no key shows in any printing path.

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"tpsrace/testenv"
)

func TestLiteralKeyWarnings(t *testing.T) {
	const key = "gsk-literal-0123456789"
	yaml := "providers:\n  - name: my-groq\n    base_url: https://api.groq.com/openai/v1\n    api_key: " + key + "\n    model: m\n"
	cfg, warnings := mustParse(t, yaml, env())
	if cfg.Providers[0].APIKey != key || cfg.Providers[0].KeyVar != "" {
		t.Errorf("APIKey %q, KeyVar %q", cfg.Providers[0].APIKey, cfg.Providers[0].KeyVar)
	}
	want := "t.yaml:4:14: providers[0].api_key: API key written in the file; keep it in the environment and write api_key: ${MY_GROQ_API_KEY}"
	if len(warnings) != 1 || warnings[0] != want {
		t.Errorf("warnings = %q, want [%q]", warnings, want)
	}

	if runtime.GOOS == "windows" {
		testenv.OtherOS(t, "no permission bits on Windows")
	}
	path := filepath.Join(t.TempDir(), "providers.yaml")
	if err := os.WriteFile(path, []byte(yaml), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		mode fs.FileMode
		loud bool
	}{{0o600, false}, {0o644, true}, {0o640, true}} {
		if err := os.Chmod(path, tt.mode); err != nil {
			t.Fatal(err)
		}
		_, warnings, err := Load(path, env())
		if err != nil {
			t.Fatal(err)
		}
		if len(warnings) != 1 || strings.Contains(warnings[0], "readable by other users") != tt.loud || strings.Contains(warnings[0], key) {
			t.Errorf("mode %o: warnings = %q, want one, loud: %v", tt.mode, warnings, tt.loud)
		}
	}
	_, warnings, _ = Load(path, env())
	if want := "(mode 0640): chmod 600 " + path; !strings.Contains(warnings[0], want) {
		t.Errorf("warning %q, want it to contain %q", warnings[0], want)
	}
}

func TestLoadMissingFile(t *testing.T) {
	if _, _, err := Load(filepath.Join(t.TempDir(), "none.yaml"), env()); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("err = %v, want fs.ErrNotExist", err)
	}
}

// canary stands for a real API key; it must never show in any message.
const canary = "sk-CANARY-d0n0tpr1nt"

func TestKeysNeverShow(t *testing.T) {
	files := []string{
		// A literal key, beside errors of every kind in the same entry.
		`providers:
  - name: a
    kind: opneai
    base_url: "https://user:` + canary + `@x test/v1"
    api_key: ` + canary + `
    model: ""
    modle: m
    headers: {Authorization: "Bearer ` + canary + `\n"}
`,
		// Keys from the environment, used in every text field.
		`prompt: ${SECRET}
providers:
  - name: b
    base_url: ${SECRET}/v1
    api_key: ${SECRET}
    model: ${SECRET}
    headers: {Authorization: "Bearer ${SECRET}"}
  - name: c
    base_url: https://${SECRET}@x.test/chat/completions
    api_key: ${SECRET}
    model: m
  - name: d
    base_url: https://x.test/v1
    api_key: "${SECRET"
    model: m
`,
		// A literal key that comes out fine, so it gets a warning.
		"providers:\n  - {name: e, base_url: \"https://x.test/v1\", api_key: " + canary + ", model: m}\n",
	}
	for i, yaml := range files {
		path := filepath.Join(t.TempDir(), "providers.yaml")
		if err := os.WriteFile(path, []byte(yaml), 0o644); err != nil {
			t.Fatal(err)
		}
		cfg, warnings, err := Load(path, env("SECRET", canary))
		var shown []string
		shown = append(shown, warnings...)
		if err != nil {
			shown = append(shown, err.Error())
		}
		if cfg != nil {
			for _, n := range cfg.Skipped {
				shown = append(shown, n.String())
			}
			for _, p := range cfg.Providers {
				shown = append(shown, p.RedactedURL(), p.Where)
			}
		}
		if len(shown) == 0 {
			t.Errorf("file %d: no messages at all; the test checks nothing", i)
		}
		for _, s := range shown {
			if strings.Contains(s, canary) {
				t.Errorf("file %d shows the key: %s", i, s)
			}
		}
	}
}

func TestRedactURL(t *testing.T) {
	for raw, want := range map[string]string{
		"https://api.groq.com/openai/v1":   "https://api.groq.com/openai/v1",
		"https://bob:secret@x.test/v1":     "https://REDACTED@x.test/v1",
		"https://token@x.test:8443/v1?a=b": "https://REDACTED@x.test:8443/v1?a=b",
		"https://bob:se@cret@x.test/v1":    "https://REDACTED@x.test/v1",
		"https://bob:sec ret@x test/v1":    "https://REDACTED@x test/v1",
		"bob:secret@x.test/v1":             "REDACTED@x.test/v1",
		"http://127.0.0.1:8080/v1/a@b":     "http://127.0.0.1:8080/v1/a@b",
		"":                                 "",
	} {
		if got := RedactURL(raw); got != want {
			t.Errorf("RedactURL(%q) = %q, want %q", raw, got, want)
		}
	}
}
