package report

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

// render is md as a docs site renders it: CommonMark with GitHub's tables,
// strikethrough and bare-URL links, raw HTML passed through (as MkDocs,
// Hugo with unsafe on, and most wikis do).
func render(t *testing.T, md string) string {
	t.Helper()
	var out bytes.Buffer
	gm := goldmark.New(goldmark.WithExtensions(extension.GFM), goldmark.WithRendererOptions(gmhtml.WithUnsafe()))
	if err := gm.Convert([]byte(md), &out); err != nil {
		t.Fatal(err)
	}
	return out.String()
}

var tagName = regexp.MustCompile(`<(/?)([a-zA-Z][a-zA-Z0-9]*)`)

// tags are the elements of a rendered page, by name.
func tags(page string) map[string]bool {
	names := map[string]bool{}
	for _, m := range tagName.FindAllStringSubmatch(page, -1) {
		names[strings.ToLower(m[2])] = true
	}
	return names
}

// renderedText is page's text: tags dropped, entities decoded.
func renderedText(page string) string {
	return html.UnescapeString(regexp.MustCompile(`<[^>]*>`).ReplaceAllString(page, ""))
}

// The Markdown of bench, report and --compare, rendered by a real
// CommonMark/GFM renderer that passes raw HTML through, has only the
// elements tpsrace writes (tables, lists, headings, its own bold), and every
// provider word reads as sent.
func TestRenderedMarkdownIsInert(t *testing.T) {
	records := hostileRecords()
	o := Summarise(records)
	var summary, comparison, bench bytes.Buffer
	o.Write(&summary, "markdown")
	changes, _ := Compare(o, o, false)
	WriteComparison(&comparison, changes, "a.json", "b.json", "markdown")
	b := Of(&records[0].Bench)
	for i := range b.Providers {
		b.Providers[i].Streams = []Stream{{Error: ptr(hostileError(b.Providers[i].Name))}}
	}
	b.Write(&bench, "markdown")
	ours := map[string]bool{"h2": true, "h3": true, "p": true, "strong": true, "ul": true, "li": true,
		"table": true, "thead": true, "tbody": true, "tr": true, "th": true, "td": true}
	for what, md := range map[string]string{"report": summary.String(), "--compare": comparison.String(), "bench": bench.String()} {
		page := render(t, md)
		for name := range tags(page) {
			if !ours[name] {
				t.Errorf("%s: the rendered page has a <%s> element, from a provider's words:\n%s", what, name, page)
			}
		}
		text := renderedText(page)
		for _, w := range hostileWords {
			if !strings.Contains(text, w) {
				t.Errorf("%s: %q does not read as sent once rendered", what, w)
			}
		}
	}
	// The check can fail: the words written as they came render as markup.
	if page := render(t, strings.Join(hostileWords, "\n\n")); !tags(page)["script"] || !tags(page)["a"] || !tags(page)["img"] || !tags(page)["em"] {
		t.Errorf("the raw words rendered without script, link, image or emphasis:\n%s", page)
	}
}
