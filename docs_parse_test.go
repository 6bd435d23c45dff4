package main

import (
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"
)

// page is what a doc shows to run: its commands, in order, and the output
// it quotes.
type page struct {
	path     string
	commands []docCommand
	outputs  []docOutput
}

// docCommand is one line of a ```sh block: the command as written (text,
// without its comment), its arguments after the program, and the exit
// status its comment gives ("# exit 2: …"; 0 when it gives none).
type docCommand struct {
	line int
	text string
	args []string
	exit int
}

// docOutput is a ```text block quoting what command printed on stream.
type docOutput struct {
	line    int
	command string
	stream  string // "stdout" or "stderr"
	lines   []string
}

// parseDoc reads the fenced blocks of a Markdown page and the marks on the
// line before each fence:
//
//	<!-- not run: REASON -->      the ```sh block after it is not run
//	<!-- stdout of: COMMAND -->   the ```text block after it is COMMAND's output
//	<!-- stderr of: COMMAND -->   the same, on stderr
func parseDoc(path string) (page, error) {
	raw, err := os.ReadFile(path)
	if err != nil {
		return page{}, err
	}
	doc := page{path: path}
	lines := strings.Split(string(raw), "\n")
	mark := ""
	for i := 0; i < len(lines); i++ {
		line := strings.TrimSpace(lines[i])
		if !strings.HasPrefix(line, "```") {
			mark = ""
			if strings.HasPrefix(line, "<!--") {
				mark = line
			}
			continue
		}
		lang, start := strings.TrimPrefix(line, "```"), i+1
		for i++; i < len(lines) && strings.TrimSpace(lines[i]) != "```"; i++ {
		}
		block := lines[start:min(i, len(lines))]
		if err := doc.add(mark, lang, start, block); err != nil {
			return doc, err
		}
		mark = ""
	}
	return doc, nil
}

// add takes one fenced block, starting at line start (0-based), as its
// mark says.
func (d *page) add(mark, lang string, start int, block []string) error {
	where := fmt.Sprintf("%s:%d", d.path, start)
	body, isMark := strings.CutPrefix(mark, "<!--")
	body = strings.TrimSpace(strings.TrimSuffix(body, "-->"))
	switch {
	case isMark && strings.HasPrefix(body, "not run:"):
		if strings.TrimSpace(strings.TrimPrefix(body, "not run:")) == "" {
			return fmt.Errorf("%s: <!-- not run: --> says no reason", where)
		}
		return nil
	case isMark && (strings.HasPrefix(body, "stdout of:") || strings.HasPrefix(body, "stderr of:")):
		stream, command, _ := strings.Cut(body, " of:")
		o := docOutput{line: start, command: strings.Join(strings.Fields(command), " "), stream: stream}
		for _, l := range block {
			if strings.TrimSpace(l) != "" {
				o.lines = append(o.lines, l)
			}
		}
		d.outputs = append(d.outputs, o)
		return nil
	case lang != "sh":
		return nil
	}
	for n, l := range block {
		c, err := parseCommand(l)
		if err != nil {
			return fmt.Errorf("%s:%d: %v; or mark the block <!-- not run: why -->", d.path, start+n+1, err)
		}
		if c.text != "" {
			c.line = start + n + 1
			d.commands = append(d.commands, c)
		}
	}
	return nil
}

// parseCommand reads "go run . ARGS  # comment" or "tpsrace ARGS": words
// split at spaces, quotes as a shell reads them, nothing a shell would
// run (pipes, redirections, substitutions).
func parseCommand(line string) (docCommand, error) {
	words, comment, err := shellWords(line)
	if err != nil || len(words) == 0 {
		return docCommand{}, err
	}
	var c docCommand
	switch {
	case len(words) >= 3 && words[0] == "go" && words[1] == "run" && words[2] == ".":
		c.args = words[3:]
	case len(words) > 1 && words[0] == "tpsrace":
		c.args = words[1:]
	default:
		return c, fmt.Errorf("`%s` is not a command the docs test runs (go run . ARGS or tpsrace ARGS)", strings.TrimSpace(line))
	}
	c.text = strings.Join(strings.Fields(strings.TrimSpace(strings.SplitN(line, " #", 2)[0])), " ")
	if rest, ok := strings.CutPrefix(strings.TrimSpace(comment), "exit "); ok {
		n, _, _ := strings.Cut(rest, ":")
		if c.exit, err = strconv.Atoi(strings.TrimSpace(n)); err != nil {
			return c, fmt.Errorf("comment %q: want exit N", comment)
		}
	}
	return c, nil
}

// shellWords splits a line as sh would for the simple commands the docs
// show: '…' and "…" quote, # outside quotes starts the comment.
func shellWords(line string) (words []string, comment string, err error) {
	var word strings.Builder
	inWord, quote := false, rune(0)
	for i, r := range line {
		switch {
		case quote != 0 && r == quote:
			quote = 0
		case quote != 0:
			word.WriteRune(r)
		case r == '\'' || r == '"':
			quote, inWord = r, true
		case r == '#' && !inWord:
			return words, line[i+1:], nil
		case strings.ContainsRune("|&;<>$`()\\[]", r):
			return nil, "", fmt.Errorf("`%s`: %q is for a shell, not a command the docs test runs", strings.TrimSpace(line), r)
		case r == ' ' || r == '\t':
			if inWord {
				words, inWord = append(words, word.String()), false
				word.Reset()
			}
		default:
			word.WriteRune(r)
			inWord = true
		}
	}
	if quote != 0 {
		return nil, "", fmt.Errorf("`%s`: a quote is not closed", line)
	}
	if inWord {
		words = append(words, word.String())
	}
	return words, "", nil
}

// The parser itself: marks, exits, quotes and refusals.
func TestParseDocMarks(t *testing.T) {
	path := t.TempDir() + "/p.md"
	text := "intro\n\n```sh\ngo run . bench --simulated --prompt 'a b'   # the race\n" +
		"tpsrace bench --max-tokens 0   # exit 2: refused\n```\n\n" +
		"<!-- not run: opens the dashboard -->\n```sh\ngo run .\nexport X=$(y)\n```\n\n" +
		"<!-- stderr of: tpsrace bench --max-tokens 0 -->\n```text\ntpsrace: --max-tokens must be … 0\n```\n"
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	doc, err := parseDoc(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(doc.commands) != 2 || doc.commands[0].args[3] != "a b" || doc.commands[0].exit != 0 ||
		doc.commands[1].exit != 2 || doc.commands[1].text != "tpsrace bench --max-tokens 0" {
		t.Errorf("commands %+v", doc.commands)
	}
	if len(doc.outputs) != 1 || doc.outputs[0].stream != "stderr" || doc.outputs[0].command != "tpsrace bench --max-tokens 0" {
		t.Errorf("outputs %+v", doc.outputs)
	}
	if !containsLine("x\ntpsrace: --max-tokens must be at least 1, got 0 (…)\n", doc.outputs[0].lines[0]) {
		t.Error("… does not stand for what varies")
	}
	if containsLine("tpsrace: --max-tokens must be\nat least 1, got 0\n", doc.outputs[0].lines[0]) ||
		containsLine("tpsrace: 0 --max-tokens must be\n", doc.outputs[0].lines[0]) {
		t.Error("a quoted line matches across lines or out of order")
	}
	for _, bad := range []string{"```sh\nls -l\n```\n", "```sh\ngo run . bench > x\n```\n", "<!-- not run: -->\n```sh\ngo run .\n```\n"} {
		if err := os.WriteFile(path, []byte(bad), 0o644); err != nil {
			t.Fatal(err)
		}
		if _, err := parseDoc(path); err == nil {
			t.Errorf("%q: no error", bad)
		}
	}
}
