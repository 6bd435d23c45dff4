package cli

import (
	"fmt"
	"io"
	"os"

	"github.com/charmbracelet/lipgloss"
	"github.com/muesli/termenv"

	"tpsrace/picture"
	"tpsrace/ui"
	"tpsrace/ui/theme"
)

// writeFiles renders the replay into the files asked for: --cast, --gif,
// --svg, each from the dashboard's own frames (ui.PlayFrames).
func (c *replayCmd) writeFiles(opts ui.Options, width, height int, pictures picture.Options, stderr io.Writer) error {
	if c.cast != "" {
		if err := c.writeCast(opts, width, height, stderr); err != nil {
			return err
		}
	}
	for _, out := range []struct {
		path  string
		write func(*picture.Film, io.Writer) error
	}{{c.gif, (*picture.Film).WriteGIF}, {c.svg, (*picture.Film).WriteSVG}} {
		if out.path == "" {
			continue
		}
		if err := c.writePicture(opts, width, height, pictures, out.path, out.write, stderr); err != nil {
			return err
		}
	}
	return nil
}

// writeCast renders the replay into c.cast, in 256 colours on a dark
// background (plain text with NO_COLOR).
func (c *replayCmd) writeCast(opts ui.Options, width, height int, stderr io.Writer) error {
	profile := termenv.ANSI256
	if os.Getenv("NO_COLOR") != "" {
		profile = termenv.Ascii
	}
	lipgloss.SetColorProfile(profile)
	lipgloss.SetHasDarkBackground(true)
	return writeFile(c.cast, func(w io.Writer) error {
		return ui.WriteCast(w, opts, width, height, c.speed)
	}, stderr, "(asciinema play "+c.cast+")")
}

// pictureOptions checks --pixels and --fps, which only --gif and --svg
// read, and that the terminal's cells fit in the picture: before any work.
func (c *replayCmd) pictureOptions(width, height int) (picture.Options, error) {
	o := picture.Options{Cols: width, Rows: height, FPS: c.fps,
		Background: lipgloss.Color("#000000"), Foreground: lipgloss.Color("#ffffff")} // the theme's, once drawing
	if _, err := fmt.Sscanf(c.pixels, "%dx%d", &o.Width, &o.Height); err != nil || o.Width < 1 || o.Height < 1 {
		return o, usageError{fmt.Errorf("--pixels %q: want WIDTHxHEIGHT in pixels (e.g. 1280x720)", c.pixels)}
	}
	if c.fps < 1 || c.fps > picture.MaxFPS {
		return o, usageError{fmt.Errorf("--fps %d: want 1 to %d (the dashboard draws %d frames a second)", c.fps, picture.MaxFPS, picture.MaxFPS)}
	}
	if err := o.Check(); err != nil {
		return o, usageError{fmt.Errorf("--size %s --pixels %s: %w", c.size, c.pixels, err)}
	}
	return o, nil
}

// writePicture renders the replay into path with write: in true colour, the
// theme's own (dark unless --theme light), on the theme's background.
func (c *replayCmd) writePicture(opts ui.Options, width, height int, o picture.Options, path string,
	write func(*picture.Film, io.Writer) error, stderr io.Writer) error {
	lipgloss.SetColorProfile(termenv.TrueColor)
	lipgloss.SetHasDarkBackground(opts.Theme != theme.Light)
	palette := opts.Palette()
	o.Background, o.Foreground = palette.Background, palette.Text
	film, err := picture.NewFilm(o)
	if err != nil {
		return err
	}
	end, err := ui.PlayFrames(opts, width, height, c.speed, func(f ui.Frame) error {
		film.Add(f.At, f.View)
		return nil
	})
	if err != nil {
		return err
	}
	film.End(end)
	note := fmt.Sprintf("(%d frames, %.1fs, %dx%d pixels)", film.Scenes(), film.Length().Seconds(), o.Width, o.Height)
	return writeFile(path, func(w io.Writer) error { return write(film, w) }, stderr, note)
}

// writeFile creates path, writes it with write and says so on stderr.
func writeFile(path string, write func(io.Writer) error, stderr io.Writer, note string) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	err = write(f)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		fmt.Fprintln(stderr, "wrote", path, note)
	}
	return err
}
