package config

import (
	"errors"
	"regexp"
	"testing"
)

// formatted is how every error from Parse must start.
var formatted = regexp.MustCompile(`^fuzz\.yaml:[1-9][0-9]*:[1-9][0-9]*: `)

// FuzzParse checks that Parse never panics and that every error it returns is
// an *Error naming file:line:col. Seeds live in testdata/fuzz/FuzzParse.
func FuzzParse(f *testing.F) {
	getenv := env("GROQ_API_KEY", "gsk-fuzz", "HOME", "/home/fuzz")
	f.Fuzz(func(t *testing.T, data []byte) {
		cfg, _, err := Parse("fuzz.yaml", data, getenv)
		if err == nil {
			if cfg == nil {
				t.Fatal("no Config and no error")
			}
			return
		}
		if cfg != nil {
			t.Fatal("a Config and an error")
		}
		joined, ok := err.(interface{ Unwrap() []error })
		if !ok {
			t.Fatalf("error is %T, not joined *Errors: %v", err, err)
		}
		for _, e := range joined.Unwrap() {
			var ce *Error
			if !errors.As(e, &ce) || !formatted.MatchString(e.Error()) {
				t.Fatalf("badly formed error %T: %q", e, e)
			}
		}
	})
}
