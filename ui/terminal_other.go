//go:build !unix

package ui

import (
	"context"

	tea "github.com/charmbracelet/bubbletea"
)

// ownTerminal is never ok here: Bubble Tea's renderer draws the dashboard,
// with the console set up as it knows how (terminal.go says why Unix draws
// its own).
func ownTerminal() (*terminal, bool) { return nil, false }

func (t *terminal) watchSize(context.Context, *tea.Program) {}
