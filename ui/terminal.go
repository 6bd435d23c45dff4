package ui

import (
	"os"
	"slices"
	"strconv"
	"sync"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/term"
)

// The dashboard draws its own screen where it can (Run, on Unix), and
// Bubble Tea runs the model, reads the keys and the mouse. Bubble Tea's
// standard renderer was a third of what drawing cost at 8 × 2,000 tok/s
// (docs/BENCHMARKS-DASHBOARD.md, "Seventh round"): it ticks 60 times a second, its
// first frame waits for a tick, and it measures and cuts every changed
// line again where compose has cut them already. Here a frame's changed
// rows are written as soon as Update has drawn it, in one write: each row
// addressed, erased and written whole. Autowrap is off while the
// dashboard runs, so a row that came out too wide is cut by the terminal
// rather than wrapped onto the next. The price is owning what the renderer
// did besides: raw mode, the alternate screen, the cursor, the mouse and
// paste modes, resizes (terminal_unix.go), and the restore on the way out,
// a panic included.

// enterModes take the terminal over: the alternate screen, cleared, no
// cursor, no autowrap, the mouse's button events (SGR) and bracketed paste,
// as tea.WithAltScreen and tea.WithMouseCellMotion set them.
const enterModes = ansi.SetModeAltScreenSaveCursor + ansi.EraseEntireScreen + ansi.ResetModeTextCursorEnable +
	ansi.ResetModeAutoWrap + ansi.SetModeMouseButtonEvent + ansi.SetModeMouseExtSgr + ansi.SetModeBracketedPaste

// leaveModes give the terminal back as it was.
const leaveModes = ansi.ResetModeBracketedPaste + ansi.ResetModeMouseExtSgr + ansi.ResetModeMouseButtonEvent +
	ansi.SetModeAutoWrap + ansi.SetModeTextCursorEnable + ansi.ResetModeAltScreenSaveCursor

// terminal is the dashboard's own terminal: in, in raw mode, for Bubble
// Tea to read; out, drawn on.
type terminal struct {
	in, out *os.File
	saved   *term.State // in's mode before raw
	shown   []string    // the screen on out now, a row each; nil when out is blank
	buf     []byte      // a frame's output, kept for the next
	left    sync.Once   // leave's
}

// enter puts in into raw mode and takes out over (enterModes).
func (t *terminal) enter() error {
	saved, err := term.MakeRaw(t.in.Fd())
	if err != nil {
		t.closeIn()
		return err
	}
	t.saved = saved
	if _, err := t.out.WriteString(enterModes); err != nil {
		t.leave()
		return err
	}
	return nil
}

// leave gives the terminal back: what enter changed, undone, once however
// often it is called.
func (t *terminal) leave() {
	t.left.Do(func() {
		_, _ = t.out.WriteString(ansi.ResetStyle + leaveModes)
		if t.saved != nil {
			_ = term.Restore(t.in.Fd(), t.saved)
		}
		t.closeIn()
	})
}

// guard is cmd, and each command of a batch it returns, run so that a
// panic in it gives the terminal back before the process dies of it:
// Bubble Tea, told not to catch panics (Run), runs commands on goroutines
// of its own, where Run's deferred leave cannot see them.
func (t *terminal) guard(cmd tea.Cmd) tea.Cmd {
	if cmd == nil {
		return nil
	}
	return func() tea.Msg {
		defer func() {
			if r := recover(); r != nil {
				t.leave()
				panic(r)
			}
		}()
		msg := cmd()
		if batch, ok := msg.(tea.BatchMsg); ok {
			for i := range batch {
				batch[i] = t.guard(batch[i])
			}
		}
		return msg
	}
}

// closeIn closes in where ownTerminal opened it (/dev/tty).
func (t *terminal) closeIn() {
	if t.in != nil && t.in != os.Stdin {
		_ = t.in.Close()
	}
}

// size is out's size, as Bubble Tea tells a model.
func (t *terminal) size() (tea.WindowSizeMsg, error) {
	w, h, err := term.GetSize(t.out.Fd())
	return tea.WindowSizeMsg{Width: w, Height: h}, err
}

// clear blanks out: after a resize every row is drawn again.
func (t *terminal) clear() {
	_, _ = t.out.WriteString(ansi.EraseEntireScreen)
	t.shown = nil
}

// draw writes the rows that differ from the rows shown, in one write,
// which terminals that know synchronized output show at once. rows is
// kept as the screen shown: its caller makes a new slice for each frame.
func (t *terminal) draw(rows []string) {
	if slices.Equal(rows, t.shown) {
		return
	}
	b := append(t.buf[:0], ansi.SetModeSynchronizedOutput...)
	for i, row := range rows {
		was := "" // a row not shown yet is blank
		if i < len(t.shown) {
			was = t.shown[i]
		}
		if row != was {
			b = append(b, "\x1b["...)
			b = strconv.AppendInt(b, int64(i+1), 10)
			b = append(b, ";1H"+ansi.ResetStyle+ansi.EraseEntireLine...)
			b = append(b, row...)
		}
	}
	b = append(b, ansi.ResetModeSynchronizedOutput...)
	_, _ = t.out.Write(b)
	t.buf, t.shown = b, rows
}

// onTerminal is the model Run hands Bubble Tea when the dashboard draws
// on its terminal itself: the dashboard's, whose View it draws there.
type onTerminal struct {
	Model
	t *terminal
}

func (o onTerminal) Init() tea.Cmd { return o.t.guard(o.Model.Init()) }

func (o onTerminal) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	if _, ok := msg.(tea.WindowSizeMsg); ok {
		o.t.clear()
	}
	next, cmd := o.Model.Update(msg)
	o.Model = next.(Model)
	return o, o.t.guard(cmd)
}

// View draws the dashboard's screen on the terminal. Bubble Tea calls it
// after every Update, on its event loop, and has no renderer to give the
// string to.
func (o onTerminal) View() string {
	o.t.draw(o.Model.drawn.rows)
	return ""
}
