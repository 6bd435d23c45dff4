package report

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"html"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"tpsrace/benchdoc"
	"tpsrace/safetext"
	"tpsrace/testenv"
)

// hostileWords are text a provider or a shared file could carry: each would
// act if it reached a page, or a Markdown renderer, as markup.
var hostileWords = []string{
	`<script>document.title="PWNED-script"</script>`,
	`<img src=x onerror="document.title='PWNED-img'">`,
	`[click](javascript:document.title='PWNED-link')`,
	`![pixel](http://127.0.0.1:9/p.png) a | b`,
	`</title></table><svg onload="document.title='PWNED-svg'">`,
	`**bold** _em_ ` + "`code`" + ` # &amp; &lt;b&gt;`,
}

// hostileRecords race providers named with hostileWords, each failing once
// with an error of the same kind over two lines, a model name too long for
// any table, and a prompt and probe of the same kind.
func hostileRecords() []Record {
	at := time.Date(2026, 12, 3, 9, 0, 0, 0, time.UTC)
	ttft, tps := 120.0, 80.0
	var providers []Provider
	for i, w := range hostileWords {
		providers = append(providers, Provider{Name: w, Model: hostileWords[(i+1)%len(hostileWords)],
			Streams: []Stream{{OK: true, TTFTms: &ttft, OutputTPS: &tps, E2Ems: 900}, {Error: ptr(hostileError(w))}}})
	}
	providers = append(providers, Provider{Name: "long", Model: "accounts/" + strings.Repeat("very-long-model-name-without-a-break-", 6),
		Streams: []Stream{{OK: true, TTFTms: &ttft, OutputTPS: &tps, E2Ems: 900}}})
	return []Record{{Bench: benchdoc.Bench{Schema: benchdoc.Schema, StartedAt: at, Prompt: hostileWords[4] + "\n" + hostileWords[0], MaxTokens: 64,
		Concurrency: 1, Runs: 1, Providers: providers}, Probe: hostileWords[2]}}
}

// hostileError is an error body carrying w, over two lines.
func hostileError(w string) string { return "401 " + w + "\nnext | line" }

// inspected is what the inspection script reports of a page.
type inspected struct {
	Width, TableRight float64 // the page's scroll width; the rightmost table edge
	Active            int     // scripts other than the inspection, images, links, elements with handlers
	Texts             []string
	Title             string // the title when the page was dumped, after every handler had its chance
}

// inspectionScript reports the page's layout and text in a <pre id="inspect">.
const inspectionScript = `<script>
const texts = [...document.querySelectorAll('h2,h3,td,li,p,span')].map(e => e.textContent);
const active = document.querySelectorAll('script,img,a,iframe,object,[onerror],[onload],[onclick]').length - 1;
const right = Math.max(0, ...[...document.querySelectorAll('table')].map(t => t.getBoundingClientRect().right));
const pre = document.createElement('pre'); pre.id = 'inspect';
pre.textContent = JSON.stringify({Width: document.documentElement.scrollWidth, TableRight: right, Active: active, Texts: texts});
document.body.appendChild(pre);
</script>`

// inspect opens page in headless Chromium in a 1280×800 window without its
// Content-Security-Policy (which would stop an injected script on its own:
// this checks the escaping, not the policy) and with inspectionScript.
func inspect(t *testing.T, bin string, page []byte) inspected {
	t.Helper()
	csp := regexp.MustCompile(`<meta http-equiv="Content-Security-Policy"[^>]*>`)
	if !csp.Match(page) {
		t.Fatal("the page has no Content-Security-Policy")
	}
	open := csp.ReplaceAll(page, nil)
	open = bytes.Replace(open, []byte("</body>"), []byte(inspectionScript+"</body>"), 1)
	path := filepath.Join(t.TempDir(), "open.html")
	os.WriteFile(path, open, 0o644)
	dom := openHeadlessDOM(t, bin, path, "--window-size=1280,800")
	var got inspected
	m := regexp.MustCompile(`(?s)<pre id="inspect">(.*?)</pre>`).FindStringSubmatch(dom)
	if m == nil {
		t.Fatalf("the inspection did not run:\n%s", dom)
	}
	if err := json.Unmarshal([]byte(html.UnescapeString(m[1])), &got); err != nil {
		t.Fatal(err)
	}
	if m := regexp.MustCompile(`(?s)<title>(.*?)</title>`).FindStringSubmatch(dom); m != nil {
		got.Title = html.UnescapeString(m[1])
	}
	return got
}

// Provider words in the HTML report, opened in a browser, run nothing and
// read as sent; with them, a model name longer than any column, and four
// files of two setups, no table is wider than a 1280-pixel window.
func TestHTMLReportIsInertAndFits(t *testing.T) {
	bin := testenv.Require(t, "chromium")
	records := append(testdataRecords(t, "history-eu-west.jsonl", "history-us-east.jsonl", "bench-c1.json", "bench-c4.json"), hostileRecords()...)
	var page bytes.Buffer
	if err := Summarise(records).WriteHTML(&page, records, []string{hostileWords[1] + ".jsonl"}); err != nil {
		t.Fatal(err)
	}
	t.Run("page", func(t *testing.T) {
		t.Parallel()
		got := inspect(t, bin, page.Bytes())
		if got.Title != "tpsrace report" || got.Active != 0 {
			t.Errorf("title %q, %d active elements: a provider's markup ran", got.Title, got.Active)
		}
		all := strings.Join(got.Texts, "\n")
		for _, w := range hostileWords {
			if !strings.Contains(all, w) || !strings.Contains(all, "1 × "+safetext.Line(hostileError(w))) {
				t.Errorf("%q, as a name and in an error, does not read as sent on the page", w)
			}
		}
		if !strings.Contains(all, `prompt "`+hostileWords[4]+" <script>") { // cut after 100 characters
			t.Errorf("the setup's prompt does not read as sent")
		}
		if got.Width > 1280 || got.TableRight > 1280 {
			t.Errorf("the page is %v px wide, its widest table ends at %v px: wider than the 1280 px window", got.Width, got.TableRight)
		}
	})
	// The checks can fail: the same page with one word unescaped runs it,
	// and without wrapping its model names it is too wide.
	t.Run("control", func(t *testing.T) {
		t.Parallel()
		escaped := html.EscapeString(hostileWords[1])
		if !bytes.Contains(page.Bytes(), []byte(escaped)) {
			t.Fatalf("the page does not hold %q", escaped)
		}
		raw := bytes.Replace(page.Bytes(), []byte(escaped), []byte(hostileWords[1]), 1)
		if got := inspect(t, bin, raw); got.Title != "PWNED-img" || got.Active == 0 {
			t.Errorf("title %q, %d active elements; want the unescaped image's handler to have run", got.Title, got.Active)
		}
		unwrapped := bytes.Replace(page.Bytes(), []byte("white-space: normal; overflow-wrap: anywhere;"), nil, 1)
		if got := inspect(t, bin, unwrapped); got.TableRight <= 1280 {
			t.Errorf("without wrapping, the widest table ends at %v px; want past the window", got.TableRight)
		}
	})
}

// cellCount is the number of cells of a Markdown table row: its pipes that
// no backslash escapes, less one.
func cellCount(row string) int {
	n := 0
	for i := 0; i < len(row); i++ {
		switch row[i] {
		case '\\':
			i++
		case '|':
			n++
		}
	}
	return n - 1
}

// checkMarkdown requires every hostile word in md only in its inert form
// (safetext.Markdown: the same characters once rendered), and every table
// row as many cells as its header.
func checkMarkdown(t *testing.T, what, md string) {
	t.Helper()
	for _, w := range hostileWords[:5] { // the sixth is the inert form of nothing in particular
		if strings.Contains(md, w) {
			t.Errorf("%s: %q is written as it came, live markup", what, w)
		}
	}
	for _, w := range []string{hostileWords[0], hostileWords[3], hostileWords[5]} {
		if !strings.Contains(md, safetext.Markdown(w)) {
			t.Errorf("%s: %q is not there in its inert form %q:\n%s", what, w, safetext.Markdown(w), md)
		}
	}
	if strings.ContainsAny(md, "<>") {
		t.Errorf("%s: a raw < or > is left:\n%s", what, md)
	}
	header := 0
	for line := range strings.Lines(md) {
		switch {
		case !strings.HasPrefix(line, "|"):
			header = 0
		case header == 0:
			header = cellCount(line)
		case cellCount(line) != header:
			t.Errorf("%s: a row of %d cells under a header of %d: %s", what, cellCount(line), header, line)
		}
	}
}

// Provider words in the Markdown and CSV summaries, comparison and bench
// report: inert in Markdown, as sent (defused as formulas) in CSV.
func TestMarkdownAndCSVAreInert(t *testing.T) {
	records := hostileRecords()
	o := Summarise(records)
	var md, csvOut, cmp bytes.Buffer
	if err := o.Write(&md, "markdown"); err != nil {
		t.Fatal(err)
	}
	checkMarkdown(t, "report markdown", md.String())
	if want := safetext.Markdown(hostileWords[0] + " (" + hostileWords[1] + "): 1 × " + hostileError(hostileWords[0])); !strings.Contains(md.String(), "- "+want+"\n") {
		t.Errorf("report markdown: the failure is not one inert line %q:\n%s", want, md.String())
	}
	changes, err := Compare(o, o, false)
	if err != nil {
		t.Fatal(err)
	}
	WriteComparison(&cmp, changes, hostileWords[0], hostileWords[3], "markdown")
	checkMarkdown(t, "report --compare", cmp.String())

	b := Of(&records[0].Bench)
	for i := range b.Providers {
		b.Providers[i].Streams = []Stream{{Error: ptr("401 " + hostileWords[(i+2)%len(hostileWords)] + "\nsecond line | cell")}}
	}
	var bench bytes.Buffer
	if err := b.Write(&bench, "markdown"); err != nil {
		t.Fatal(err)
	}
	checkMarkdown(t, "bench markdown", bench.String())
	if !strings.Contains(bench.String(), "failed: 1 × 401 "+safetext.Markdown(hostileWords[3]+" second line | cell")) {
		t.Errorf("bench markdown: the error is not one inert line:\n%s", bench.String())
	}

	if err := o.Write(&csvOut, "csv"); err != nil {
		t.Fatal(err)
	}
	rows, err := csv.NewReader(&csvOut).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, r := range rows[1:] {
		names = append(names, r[0])
	}
	for _, w := range hostileWords {
		if !slices.Contains(names, w) {
			t.Errorf("csv: provider %q does not read as sent (names %q)", w, names)
		}
	}
}
