package ui

import (
	"github.com/charmbracelet/bubbles/key"

	"tpsrace/ui/lane"
)

// KeyMap is the dashboard's keys. Global keys are matched first; the rest
// go to the active pane (the zoomed lane, or the prompt editor).
type KeyMap struct {
	Race        key.Binding
	Edit        key.Binding
	Zoom        key.Binding
	Back        key.Binding
	Focus       key.Binding
	FocusBack   key.Binding
	Concurrency key.Binding
	Pause       key.Binding
	Chart       key.Binding
	Save        key.Binding
	Help        key.Binding
	Quit        key.Binding
}

// DefaultKeyMap is the dashboard's keys.
func DefaultKeyMap() KeyMap {
	return KeyMap{
		Race:        key.NewBinding(key.WithKeys("enter", "r"), key.WithHelp("enter/r", "race again")),
		Edit:        key.NewBinding(key.WithKeys("e"), key.WithHelp("e", "edit prompt")),
		Zoom:        key.NewBinding(key.WithKeys("1", "2", "3", "4", "5", "6", "7", "8", "9"), key.WithHelp("1-9", "zoom lane")),
		Back:        key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "back")),
		Focus:       key.NewBinding(key.WithKeys("tab"), key.WithHelp("tab", "focus next lane")),
		FocusBack:   key.NewBinding(key.WithKeys("shift+tab"), key.WithHelp("shift+tab", "focus previous lane")),
		Concurrency: key.NewBinding(key.WithKeys("c"), key.WithHelp("c", "concurrency 1→4→16→64")),
		Pause:       key.NewBinding(key.WithKeys("p"), key.WithHelp("p", "pause display")),
		Chart:       key.NewBinding(key.WithKeys("v"), key.WithHelp("v", "chart: tokens / tok/s")),
		Save:        key.NewBinding(key.WithKeys("s"), key.WithHelp("s", "save results")),
		Help:        key.NewBinding(key.WithKeys("?"), key.WithHelp("?", "help, figures")),
		Quit:        key.NewBinding(key.WithKeys("q", "ctrl+c"), key.WithHelp("q", "quit")),
	}
}

// ShortHelp implements help.KeyMap.
func (k KeyMap) ShortHelp() []key.Binding {
	return []key.Binding{k.Race, k.Edit, k.Zoom, k.Concurrency, k.Save, k.Pause, k.Help, k.Quit}
}

// FullHelp implements help.KeyMap.
func (k KeyMap) FullHelp() [][]key.Binding {
	return [][]key.Binding{
		{k.Race, k.Edit, k.Concurrency},
		{k.Zoom, k.Back, k.Focus, k.FocusBack},
		{k.Chart, k.Save, k.Pause, k.Help, k.Quit},
	}
}

// zoomedKeys is the help while a lane is zoomed: its scrolling first.
type zoomedKeys struct {
	KeyMap
	lane lane.KeyMap
}

func (k zoomedKeys) ShortHelp() []key.Binding {
	return append(k.lane.ShortHelp(), k.Back, k.Focus, k.Race, k.Help, k.Quit)
}

func (k zoomedKeys) FullHelp() [][]key.Binding {
	return append(k.lane.FullHelp(), k.KeyMap.FullHelp()...)
}

// presentKeys is the help in presenter mode, which zooms no lane.
type presentKeys struct{ KeyMap }

func (k presentKeys) ShortHelp() []key.Binding {
	return []key.Binding{k.Race, k.Edit, k.Concurrency, k.Save, k.Pause, k.Help, k.Quit}
}

func (k presentKeys) FullHelp() [][]key.Binding {
	return [][]key.Binding{{k.Race, k.Edit, k.Concurrency}, {k.Save, k.Pause, k.Help, k.Quit}}
}

// EditorKeyMap is the keys of the prompt editor.
type EditorKeyMap struct {
	Confirm key.Binding
	Newline key.Binding
	Cancel  key.Binding
}

// DefaultEditorKeyMap is the prompt editor's keys.
func DefaultEditorKeyMap() EditorKeyMap {
	return EditorKeyMap{
		Confirm: key.NewBinding(key.WithKeys("enter", "ctrl+s"), key.WithHelp("enter/ctrl+s", "race this prompt")),
		Newline: key.NewBinding(key.WithKeys("alt+enter", "ctrl+j"), key.WithHelp("alt+enter", "new line")),
		Cancel:  key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "cancel")),
	}
}

// ShortHelp implements help.KeyMap.
func (k EditorKeyMap) ShortHelp() []key.Binding { return []key.Binding{k.Confirm, k.Newline, k.Cancel} }

// FullHelp implements help.KeyMap.
func (k EditorKeyMap) FullHelp() [][]key.Binding { return [][]key.Binding{k.ShortHelp()} }
