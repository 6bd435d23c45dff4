package cli

import (
	"encoding/csv"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"tpsrace/safetext"
)

// markupError is the message of the simulator's fault=body-markup, as
// tpsrace reports it (401, its code, then the message; a hint follows).
const markupError = "401 invalid_api_key: bad key <img src=x onerror=\"document.title='PWNED'\"><script>document.title='PWNED'</script> " +
	"[docs](javascript:alert(1)) ![p](http://127.0.0.1:9/p.png) a | b\n# not a heading *nor bold* _nor em_"

// markupName is a provider name of the same kind, from a providers file.
const markupName = "<b>x</b>|[y](javascript:z)"

// An error body and a provider name carrying HTML and Markdown reach every
// bench format, and replay --bench, as text: inert Markdown, the terminal's
// plain line, CSV cells and JSON exactly as sent.
func TestMarkupStaysText(t *testing.T) {
	url, _ := countingSim(t)
	dir := t.TempDir()
	var file strings.Builder
	file.WriteString("providers:\n")
	for _, p := range [][2]string{{"good", "sim:ttft=1ms,tps=1000,tokens=5"}, {"markup", "sim:fault=body-markup"}, {markupName, "sim:ttft=1ms,tps=1000,tokens=5"}} {
		fmt.Fprintf(&file, "  - {name: %q, base_url: %q, model: %q}\n", p[0], url, p[1])
	}
	cfg := write(t, dir, "p.yaml", file.String())
	if code, _, errOut := run(t, dir, "bench", "--config", cfg, "--format", "json", "--out", "r.json", "--record", "r.tpsr"); code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	raw, _ := os.ReadFile(filepath.Join(dir, "r.json"))
	var doc Doc
	if err := json.Unmarshal(raw, &doc); err != nil {
		t.Fatal(err)
	}
	if e := doc.Providers[1].Runs[0].Error; e == nil || !strings.HasPrefix(*e, markupError) || doc.Providers[2].Name != markupName {
		t.Errorf("JSON must keep the error and the name exactly as sent: %q, %q", *doc.Providers[1].Runs[0].Error, doc.Providers[2].Name)
	}
	for _, cmd := range [][]string{{"bench", "--config", cfg}, {"replay", "r.tpsr", "--bench"}} {
		for _, format := range []string{"table", "markdown", "csv"} {
			args := append(cmd, "--format", format)
			code, out, errOut := run(t, dir, args...)
			if code != 0 {
				t.Fatalf("%v: exit %d: %s", args, code, errOut)
			}
			switch format {
			case "markdown":
				if strings.ContainsAny(out, "<>") || !strings.Contains(out, safetext.Markdown(markupError)) || !strings.Contains(out, safetext.Markdown(markupName)) {
					t.Errorf("%v: the markup is not inert:\n%s", args, out)
				}
			case "table":
				if !strings.Contains(out, safetext.Line(markupError)) || !strings.Contains(out, markupName) {
					t.Errorf("%v: the error and the name do not read as sent:\n%s", args, out)
				}
			case "csv":
				rows, err := csv.NewReader(strings.NewReader(out)).ReadAll()
				if err != nil {
					t.Fatal(err)
				}
				if !strings.HasPrefix(rows[2][5], safetext.Line(markupError)) || rows[3][0] != markupName {
					t.Errorf("%v: cells %q, %q; want the error and the name as sent", args, rows[2][5], rows[3][0])
				}
			}
		}
	}
}
