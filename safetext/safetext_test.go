package safetext

import (
	"bytes"
	"html"
	"regexp"
	"strings"
	"testing"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/extension"
	gmhtml "github.com/yuin/goldmark/renderer/html"
)

func TestHostileTextStaysText(t *testing.T) {
	for _, tc := range []struct{ in, line, text string }{
		{"bad key \x1b]0;PWNED\x07 \x1b[2J", "bad key  ", "bad key  "},
		{"clip\x1b]52;c;SGVsbG8=\x07board", "clipboard", "clipboard"},
		{"c1 \u009b31mred\u009d0;t\u009c", "c1 31mred0;t", "c1 31mred0;t"},
		{"a\x07b\x08c\td\ne\r\n", "abc d e  ", "abc d\ne\n"},
		{"bidi \u202egnp.exe\u202c", "bidi gnp.exe", "bidi gnp.exe"},
		{"raw \x9b byte", "raw \uFFFD byte", "raw \uFFFD byte"},
		{"plain é 日本", "plain é 日本", "plain é 日本"},
	} {
		if got := Line(tc.in); got != tc.line {
			t.Errorf("Line(%q) = %q, want %q", tc.in, got, tc.line)
		}
		if got := Text(tc.in); got != tc.text {
			t.Errorf("Text(%q) = %q, want %q", tc.in, got, tc.text)
		}
	}
}

func TestWriterDropsASequenceSplitAcrossWrites(t *testing.T) {
	var b bytes.Buffer
	w := Writer{&b}
	w.Write([]byte("x\x1b"))
	w.Write([]byte("]0;PWNED\x07y\n"))
	if got := b.String(); got != "x]0;PWNEDy\n" {
		t.Errorf("got %q", got)
	}
}

// Provider text in Markdown renders as its own characters: every character
// that could open a tag, a link, an image, emphasis, a code span, a block or
// a new table cell is escaped, and nothing else is touched.
func TestMarkdownIsInert(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{`<script>alert(1)</script>`, `&lt;script&gt;alert(1)&lt;/script&gt;`},
		{`<img src=x onerror="alert(1)">`, `&lt;img src=x onerror="alert(1)"&gt;`},
		{`[click](javascript:alert(1))`, `\[click\](javascript:alert(1))`},
		{`![x](http://evil.example/p.png)`, `!\[x\](http\://evil.example/p.png)`},
		{`<javascript:alert(1)>`, `&lt;javascript:alert(1)&gt;`},
		{`a | b || c`, `a \| b \|\| c`},
		{"two\nlines\r\nhere", `two lines  here`},
		{"`code` *em* _em_ ~~del~~ \\", "\\`code\\` \\*em\\* \\_em\\_ \\~\\~del\\~\\~ \\\\"},
		{`&lt; &amp;`, `&amp;lt; &amp;amp;`},
		{`# heading`, `\# heading`},
		{`  - item`, `\- item`},
		{`> quote`, `&gt; quote`},
		{`12. item`, `12\. item`},
		{`3) item`, `3\) item`},
		{`see www.evil.example or mail@evil.example`, `see www\.evil.example or mail\@evil.example`},
		{"bad key \x1b]0;PWNED\x07", `bad key`},
		{`401 invalid_api_key: Incorrect API key — check KEY 1.5`, `401 invalid\_api\_key: Incorrect API key — check KEY 1.5`},
		{`plain é 日本 = 3 - 2 + 1 #1`, `plain é 日本 = 3 - 2 + 1 #1`},
	} {
		if got := Markdown(tc.in); got != tc.want {
			t.Errorf("Markdown(%q)\n got %q\nwant %q", tc.in, got, tc.want)
		}
	}
}

// Rendered by a real CommonMark/GFM renderer that passes raw HTML through
// (as MkDocs and most wikis do), Markdown(s) is one paragraph, or one table
// cell, holding exactly Line(s): no element, link or autolink of its own.
func TestMarkdownRendersAsItsCharacters(t *testing.T) {
	gm := goldmark.New(goldmark.WithExtensions(extension.GFM), goldmark.WithRendererOptions(gmhtml.WithUnsafe()))
	render := func(md string) string {
		var out bytes.Buffer
		if err := gm.Convert([]byte(md), &out); err != nil {
			t.Fatal(err)
		}
		return strings.TrimSpace(out.String())
	}
	for _, in := range []string{
		`<script>alert(1)</script>`, `<img src=x onerror="alert(1)">`, `[click](javascript:alert(1))`,
		`![x](http://evil.example/p.png)`, `<javascript:alert(1)>`, `<http://evil.example>`, "two\nlines", "a | b",
		"`code` *em* **strong** _em_ ~~del~~ \\", `&lt; &amp; &#60;`, `# heading`, `## h`, `- item`, `+ item`, `* item`,
		`> quote`, `12. item`, `3) item`, `===`, `---`, `***`, `see www.evil.example, https://evil.example/x or mail@evil.example`,
		`    indented`, `[ref]: http://evil.example`, `<!-- comment -->`, `1\. escaped`, `a  \`, `:smile: 401 bad_key`,
	} {
		want := strings.TrimSpace(Line(in))
		got := render(Markdown(in))
		if text, ok := strings.CutPrefix(got, "<p>"); !ok || !strings.HasSuffix(text, "</p>") || strings.Count(text, "<") != 1 ||
			html.UnescapeString(strings.TrimSuffix(text, "</p>")) != want {
			t.Errorf("Markdown(%q) = %q renders as\n%s\nwant one paragraph reading %q", in, Markdown(in), got, want)
		}
		cell := render("| h |\n|---|\n| " + Markdown(in) + " |")
		if m := regexp.MustCompile(`<td>([^<]*)</td>`).FindAllStringSubmatch(cell, -1); len(m) != 1 || html.UnescapeString(m[0][1]) != want {
			t.Errorf("Markdown(%q) in a table cell renders as\n%s\nwant one cell reading %q", in, cell, want)
		}
	}
}
