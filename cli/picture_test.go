package cli

import (
	"bytes"
	"context"
	"encoding/xml"
	"image"
	"image/gif"
	"image/png"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"tpsrace/testenv"
)

// The shipped recording as a GIF: at least 10 frames of the requested
// size, at the default size and at 80x24 cells in a smaller picture.
func TestReplayGif(t *testing.T) {
	dir := t.TempDir()
	recorded, _ := filepath.Abs("../testdata/race.tpsr")
	for _, tc := range []struct {
		args          []string
		width, height int
	}{
		{nil, 1280, 720},
		{[]string{"--size", "80x24", "--pixels", "960x540", "--fps", "5", "--present"}, 960, 540},
	} {
		args := append([]string{"replay", recorded, "--gif", "r.gif"}, tc.args...)
		code, _, errOut := run(t, dir, args...)
		if code != 0 || !strings.Contains(errOut, "wrote r.gif (") {
			t.Fatalf("%q: exit %d: %s", args, code, errOut)
		}
		f, err := os.Open(filepath.Join(dir, "r.gif"))
		if err != nil {
			t.Fatal(err)
		}
		g, err := gif.DecodeAll(f)
		f.Close()
		if err != nil {
			t.Fatalf("%q: not a GIF: %v", args, err)
		}
		if g.Config.Width != tc.width || g.Config.Height != tc.height || len(g.Image) < 10 {
			t.Errorf("%q: %dx%d with %d frames, want %dx%d with 10 or more", args, g.Config.Width, g.Config.Height, len(g.Image), tc.width, tc.height)
		}
		if last := g.Delay[len(g.Delay)-1]; last < 300 {
			t.Errorf("%q: the final leaderboard is held %d/100s, want 3s or more", args, last)
		}
	}
}

// The shipped recording at 0.36× is 10 s of race on screen: as an SVG it
// is XML, under 1 MB (GitHub shows it), and plays: headless Chromium shows
// it differently at 1 s and at 3 s.
func TestReplaySvg(t *testing.T) {
	dir := t.TempDir()
	recorded, _ := filepath.Abs("../testdata/race.tpsr")
	code, _, errOut := run(t, dir, "replay", recorded, "--svg", "r.svg", "--speed", "0.36")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	raw, err := os.ReadFile(filepath.Join(dir, "r.svg"))
	if err != nil {
		t.Fatal(err)
	}
	if len(raw) >= 1<<20 {
		t.Errorf("the SVG of a 10 s race is %d bytes, want under 1 MB", len(raw))
	}
	for d := xml.NewDecoder(bytes.NewReader(raw)); ; {
		if _, err := d.Token(); err == io.EOF {
			break
		} else if err != nil {
			t.Fatalf("not XML: %v", err)
		}
	}
	t.Logf("%d bytes: %s", len(raw), errOut)

	bin := testenv.Require(t, "chromium")
	at1, at3 := screenshot(t, bin, raw, time.Second), screenshot(t, bin, raw, 3*time.Second)
	if at1.Bounds() != at3.Bounds() || bytes.Equal(at1.Pix, at3.Pix) {
		t.Errorf("the SVG looks the same at 1s and 3s (%v, %v): it does not play", at1.Bounds(), at3.Bounds())
	}
}

// screenshot is the SVG in headless Chromium with its animations at at: a
// page holds it and seeks every animation there before the screenshot.
// (A --virtual-time-budget plays it instead, but over the SVG's thousands
// of animated pieces that took 8 to 40 s on a loaded 2-core machine, and
// now and then never returned.)
func screenshot(t *testing.T, bin string, svg []byte, at time.Duration) *image.NRGBA {
	t.Helper()
	dir := t.TempDir()
	page := filepath.Join(dir, "page.html")
	html := `<!doctype html><body style="margin:0;overflow:hidden">` + string(svg) +
		`<script>for (const a of document.getAnimations()) { a.currentTime = ` + strconv.FormatInt(at.Milliseconds(), 10) + `; a.pause(); }</script></body>`
	if err := os.WriteFile(page, []byte(html), 0o644); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	shot := filepath.Join(dir, "shot.png")
	cmd := exec.CommandContext(ctx, bin, "--headless", "--disable-gpu", "--no-sandbox", "--no-first-run", "--user-data-dir="+t.TempDir(),
		"--window-size=1280,720", "--screenshot="+shot, "file://"+page)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("chromium: %v\n%s", err, out)
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
	nrgba := image.NewNRGBA(img.Bounds())
	for y := img.Bounds().Min.Y; y < img.Bounds().Max.Y; y++ {
		for x := img.Bounds().Min.X; x < img.Bounds().Max.X; x++ {
			nrgba.Set(x, y, img.At(x, y))
		}
	}
	return nrgba
}
