package report

import (
	"bytes"
	"context"
	"fmt"
	"image"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
	"tpsrace/testenv"
)

// openHeadless opens page in headless Chromium with one action (e.g.
// --screenshot=FILE) and returns the page's console messages: Chromium logs
// each one, errors and refused loads included, as a ":CONSOLE" line.
func openHeadless(t *testing.T, bin, page string, action ...string) []string {
	t.Helper()
	_, console := runHeadless(t, bin, page, action...)
	return console
}

// openHeadlessDOM opens page and returns its DOM once loaded (--dump-dom).
func openHeadlessDOM(t *testing.T, bin, page string, action ...string) string {
	t.Helper()
	dom, _ := runHeadless(t, bin, page, append(action, "--dump-dom")...)
	return dom
}

// runHeadless runs Chromium on page and returns its stdout and console lines.
func runHeadless(t *testing.T, bin, page string, action ...string) (string, []string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	args := append([]string{"--headless", "--disable-gpu", "--no-sandbox", "--no-first-run", "--enable-logging=stderr", "--v=0",
		"--user-data-dir=" + t.TempDir()}, action...)
	cmd := exec.CommandContext(ctx, bin, append(args, "file://"+page)...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("chromium %v: %v\n%s", action, err, stderr.String())
	}
	var console []string
	for line := range strings.Lines(stderr.String()) {
		if strings.Contains(line, ":CONSOLE") {
			console = append(console, line)
		}
	}
	return stdout.String(), console
}

// The HTML report opens in a real browser without a console message (its
// Content-Security-Policy would log any attempt to load something), its
// charts paint every probe's series, and it prints.
func TestHTMLReportInHeadlessChromium(t *testing.T) {
	bin := testenv.Require(t, "chromium")
	records := testdataRecords(t, "history-eu-west.jsonl", "history-us-east.jsonl", "bench-c1.json")
	var page bytes.Buffer
	if err := Summarise(records).WriteHTML(&page, records, []string{"history-eu-west.jsonl", "history-us-east.jsonl", "bench-c1.json"}); err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	path := filepath.Join(dir, "report.html")
	os.WriteFile(path, page.Bytes(), 0o644)

	// Three headless runs, in parallel: the screenshot, the print, and a
	// control page.
	t.Run("screenshot", func(t *testing.T) {
		t.Parallel()
		shot := filepath.Join(dir, "shot.png")
		if console := openHeadless(t, bin, path, "--window-size=1280,2800", "--screenshot="+shot); len(console) > 0 {
			t.Errorf("console messages opening the report:\n%s", strings.Join(console, ""))
		}
		f, err := os.Open(shot)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		img, err := png.Decode(f)
		if err != nil {
			t.Fatal(err)
		}
		// Three probes: the bench file's (none), eu-west and us-east, each
		// in its own colour, in every provider's charts.
		painted := countColors(img)
		for i, want := range seriesColors[:3] {
			if n := painted[want]; n < 200 {
				t.Errorf("series %d (%s): %d pixels painted, want the charts' lines and dots", i, want, n)
			}
		}
	})
	t.Run("print", func(t *testing.T) {
		t.Parallel()
		pdf := filepath.Join(dir, "report.pdf")
		if console := openHeadless(t, bin, path, "--no-pdf-header-footer", "--print-to-pdf="+pdf); len(console) > 0 {
			t.Errorf("console messages printing the report:\n%s", strings.Join(console, ""))
		}
		raw, err := os.ReadFile(pdf)
		if pages := bytes.Count(raw, []byte("/Type /Page\n")); err != nil || !bytes.HasPrefix(raw, []byte("%PDF")) || pages < 2 {
			t.Errorf("printing: %v, %d bytes, %d pages; want a PDF of several pages", err, len(raw), pages)
		}
	})
	// The check can fail: the same page with one network image is refused
	// by its policy, and Chromium says so on the console.
	t.Run("control", func(t *testing.T) {
		t.Parallel()
		control := filepath.Join(dir, "control.html")
		os.WriteFile(control, bytes.Replace(page.Bytes(), []byte("</body>"), []byte(`<img src="http://127.0.0.1:9/x.png"></body>`), 1), 0o644)
		if console := openHeadless(t, bin, control, "--dump-dom"); !strings.Contains(strings.Join(console, ""), "Content Security Policy") {
			t.Errorf("a page loading from the network logged %q; want the policy's refusal", console)
		}
	})
}

// countColors counts the pixels of img by colour, as "#rrggbb".
func countColors(img image.Image) map[string]int {
	rgb := map[uint32]int{}
	b := img.Bounds()
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			r, g, bl, _ := img.At(x, y).RGBA()
			rgb[r>>8<<16|g>>8<<8|bl>>8]++
		}
	}
	counts := map[string]int{}
	for c, n := range rgb {
		counts[fmt.Sprintf("#%06x", c)] = n
	}
	return counts
}
