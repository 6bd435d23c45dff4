package config

import (
	"bytes"
	"fmt"
	"io"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"

	"go.yaml.in/yaml/v3"
)

// Error is one problem in a providers file, with the place to fix it.
// Parse and Load return every Error they find, joined with errors.Join in
// file order, so the file can be fixed in one pass.
type Error struct {
	File      string
	Line, Col int    // 1-based
	Key       string // path to the value at fault, such as providers[1].model; "" for the whole file
	Msg       string
	Hint      string // how to fix it; "" when Msg says enough
}

// Error formats the problem as "file:line:col: key: msg (hint)".
func (e *Error) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s:%d:%d: ", e.File, e.Line, e.Col)
	if e.Key != "" {
		b.WriteString(e.Key + ": ")
	}
	b.WriteString(e.Msg)
	if e.Hint != "" {
		b.WriteString(" (" + e.Hint + ")")
	}
	return b.String()
}

// yamlPrefix is what yaml.v3 puts before the problem in its errors. It
// and the shapes below are compiled on first use: only a file that fails
// needs them, and every command would pay for them at start-up.
var yamlPrefix = lazyRegexp(`^yaml: (line \d+: )?`)

// syntaxError turns a yaml.v3 parse error into an *Error. yaml.v3 names only
// a line, and for most errors the line where the enclosing block starts,
// counted from 0, or none at all. So the line is found again: the first one
// at which the file, cut short there, fails the same way (an error on line 3
// shows once line 3 is read; an unterminated quote, from the line it opens).
// A binary search finds it in a few parses.
func syntaxError(file string, data []byte, err error) *Error {
	problem := yamlProblem(err)
	lines := bytes.SplitAfter(data, []byte("\n"))
	ends := make([]int, len(lines)+1) // ends[k]: length of the first k lines
	for i, l := range lines {
		ends[i+1] = ends[i] + len(l)
	}
	line := sort.Search(len(lines), func(k int) bool {
		return yamlProblem(firstYAMLError(data[:ends[k+1]])) == problem
	}) + 1
	line = min(line, len(lines)) // the whole file fails that way, so this only guards
	e := &Error{File: file, Line: line, Col: 1, Msg: "YAML syntax error: " + problem}
	text := bytes.TrimRight(lines[line-1], "\r\n")
	e.Col = len(text) - len(bytes.TrimLeft(text, " ")) + 1
	previous := []byte{}
	if line > 1 {
		previous = lines[line-2]
	}
	switch {
	case bytes.Contains(text, []byte("\t")):
		e.Hint = "indent with spaces, not tabs"
	case listItemWithoutSpace().Match(previous) || listItemWithoutSpace().Match(text):
		e.Hint = `put a space after the dash of a list item: "- name:"`
	case varRef().Match(text) && strings.Contains(problem, "'}'"):
		// In a flow mapping {…} the braces of ${VAR} end the mapping.
		ref := varRef().FindIndex(text)
		e.Col = ref[0] + 1
		e.Hint = fmt.Sprintf(`quote it: "%s"; inside {…} its braces end the mapping`, text[ref[0]:ref[1]])
	case strings.Contains(problem, "mapping values are not allowed"):
		if m := colonInValue().FindSubmatchIndex(text); m != nil {
			e.Col = m[2] + 1
			e.Hint = fmt.Sprintf("a colon and a space inside a value start a new key: quote the value, %s: %q",
				bytes.TrimSpace(text[:m[2]-2]), bytes.TrimSpace(text[m[2]:]))
		}
	}
	return e
}

// The shapes of common YAML mistakes, for syntaxError's hints.
var (
	varRef               = lazyRegexp(`\$\{[A-Za-z_][A-Za-z0-9_]*\}`)
	listItemWithoutSpace = lazyRegexp(`^\s*-[A-Za-z_]+:`)                      // "-name: groq"
	colonInValue         = lazyRegexp(`^\s*(?:- )?[\w.-]+: +([^"'\s].*: .*)$`) // "prompt: Summarize this: the cache"
)

// lazyRegexp is expr compiled on its first use.
func lazyRegexp(expr string) func() *regexp.Regexp {
	return sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(expr) })
}

// yamlProblem returns a yaml.v3 error without its prefix and line; "" for nil.
func yamlProblem(err error) string {
	if err == nil {
		return ""
	}
	return yamlPrefix().ReplaceAllString(err.Error(), "")
}

// firstYAMLError parses every document in data and returns the first error.
func firstYAMLError(data []byte) error {
	dec := yaml.NewDecoder(bytes.NewReader(data))
	for {
		var doc yaml.Node
		if err := dec.Decode(&doc); err != nil {
			if err == io.EOF {
				return nil
			}
			return err
		}
	}
}

// quote shows a value from the file in a message, cut short when long.
// Never call it on an API key or a header value.
func quote(s string) string {
	const limit = 40
	if utf8.RuneCountInString(s) > limit {
		s = string([]rune(s)[:limit]) + "..."
	}
	return strconv.Quote(s)
}

// Closest returns the candidate nearest to key, ignoring case, if it is near
// enough to be a likely typo; "" otherwise.
func Closest(key string, candidates []string) string {
	allowed := min(max(utf8.RuneCountInString(key)/3, 1), 3)
	best, bestDistance := "", allowed+1
	for _, c := range candidates {
		if d := editDistance(strings.ToLower(key), c); d < bestDistance {
			best, bestDistance = c, d
		}
	}
	return best
}

// editDistance counts the insertions, deletions, substitutions and swaps of
// neighbours that turn a into b (optimal string alignment distance), so the
// common typo "modle" is one edit from "model".
func editDistance(a, b string) int {
	s, t := []rune(a), []rune(b)
	// d[i][j] is the distance between s[:i] and t[:j].
	d := make([][]int, len(s)+1)
	for i := range d {
		d[i] = make([]int, len(t)+1)
		d[i][0] = i
	}
	for j := range d[0] {
		d[0][j] = j
	}
	for i := 1; i <= len(s); i++ {
		for j := 1; j <= len(t); j++ {
			cost := 1
			if s[i-1] == t[j-1] {
				cost = 0
			}
			d[i][j] = min(d[i-1][j]+1, d[i][j-1]+1, d[i-1][j-1]+cost)
			if i > 1 && j > 1 && s[i-1] == t[j-2] && s[i-2] == t[j-1] {
				d[i][j] = min(d[i][j], d[i-2][j-2]+1)
			}
		}
	}
	return d[len(s)][len(t)]
}
