package ui

import (
	"strings"

	"github.com/charmbracelet/bubbles/cursor"
	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/bubbles/textarea"
	tea "github.com/charmbracelet/bubbletea"
)

// promptEditor is the root's child for `e`: a text area for the next
// race's prompt. Its Update says what a key did; the root acts on it
// (closes the editor, races the prompt).
type promptEditor struct {
	c    *common
	area textarea.Model
	keys EditorKeyMap
}

// editOutcome is what a key did to the editor.
type editOutcome int

const (
	editing       editOutcome = iota // the text changed, or nothing
	editCancelled                    // esc: the prompt stays as it was
	editConfirmed                    // enter: race prompt()
	editEmpty                        // enter on an empty prompt: refused
)

func newPromptEditor(c *common) *promptEditor {
	keys := DefaultEditorKeyMap()
	area := textarea.New()
	area.ShowLineNumbers = false
	area.Placeholder = "the prompt to race"
	area.CharLimit = 0
	area.KeyMap.InsertNewline = keys.Newline
	area.Cursor.SetMode(cursor.CursorStatic) // a blinking cursor would need frames of its own
	return &promptEditor{c: c, area: area, keys: keys}
}

// open starts editing prompt.
func (e *promptEditor) open(prompt string) {
	e.area.SetValue(prompt)
	e.area.Focus()
}

func (e *promptEditor) close() { e.area.Blur() }

// prompt is the text, trimmed.
func (e promptEditor) prompt() string { return strings.TrimSpace(e.area.Value()) }

// setSize fits the editor to the window's body.
func (e *promptEditor) setSize(body int) {
	e.area.SetWidth(max(e.c.width-4, 10))
	e.area.SetHeight(max(body-5, 1))
}

// Update handles a key.
func (e promptEditor) Update(msg tea.KeyMsg) (promptEditor, tea.Cmd, editOutcome) {
	switch {
	case key.Matches(msg, e.keys.Cancel):
		return e, nil, editCancelled
	case key.Matches(msg, e.keys.Confirm):
		if e.prompt() == "" {
			return e, nil, editEmpty
		}
		return e, nil, editConfirmed
	}
	var cmd tea.Cmd
	e.area, cmd = e.area.Update(msg)
	return e, cmd, editing
}

// View is the editor's box, as lines.
func (e promptEditor) View() []string {
	s := e.c.styles
	title := s.Title.Render("Edit the prompt") + s.Label.Render(" — every provider gets it at the same instant")
	return splitLines(s.Editor.Width(max(e.c.width-2, 10)).Render(title + "\n\n" + e.area.View()))
}
