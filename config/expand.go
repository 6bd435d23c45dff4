package config

import (
	"errors"
	"slices"
	"strings"
)

// expansion is a string value with its ${VAR}s replaced.
type expansion struct {
	value string
	refs  []string // variables it refers to, in order
	unset []string // those of refs that are unset or empty (they expand to "")
}

// expand replaces each ${NAME} in s with the variable's value and each $$
// with $. Any other $ is kept as it is, so prices such as "$5" need no escape.
func expand(s string, getenv func(string) (string, bool)) (expansion, error) {
	var x expansion
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] != '$' || i+1 == len(s) {
			b.WriteByte(s[i])
			continue
		}
		switch s[i+1] {
		case '$':
			b.WriteByte('$')
			i++
		case '{':
			end := strings.IndexByte(s[i+2:], '}')
			if end < 0 {
				return x, errors.New("unterminated ${")
			}
			name := s[i+2 : i+2+end]
			if !isVarName(name) {
				return x, errors.New("${...} must hold a variable name made of letters, digits and _")
			}
			x.refs = append(x.refs, name)
			if v, _ := getenv(name); v != "" {
				b.WriteString(v)
			} else {
				x.unset = append(x.unset, name)
			}
			i += 2 + end
		default:
			b.WriteByte('$')
		}
	}
	x.value = b.String()
	return x, nil
}

func isVarName(s string) bool {
	if s == "" || s[0] >= '0' && s[0] <= '9' {
		return false
	}
	for _, c := range s {
		if !(c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9') {
			return false
		}
	}
	return true
}

// notSet names missing variables for a Notice: "A is not set", "A and B are not set".
func notSet(vars []string) string {
	var names []string
	for _, v := range vars {
		if !slices.Contains(names, v) {
			names = append(names, v)
		}
	}
	if len(names) == 1 {
		return names[0] + " is not set"
	}
	return strings.Join(names[:len(names)-1], ", ") + " and " + names[len(names)-1] + " are not set"
}

// envName suggests a variable name for a provider's key: "groq" -> "GROQ_API_KEY".
func envName(provider string) string {
	name := strings.Map(func(c rune) rune {
		switch {
		case c >= 'a' && c <= 'z':
			return c - 'a' + 'A'
		case c >= 'A' && c <= 'Z' || c >= '0' && c <= '9':
			return c
		}
		return '_'
	}, provider)
	if !isVarName(name) {
		name = "PROVIDER"
	}
	return name + "_API_KEY"
}
