package ui

import (
	"os"
	"path/filepath"
	"slices"
	"sync"
	"time"

	tea "github.com/charmbracelet/bubbletea"
)

// save writes the finished races to SaveDir/tpsrace-YYYYMMDD-HHMMSS.json.
func (m *Model) save() tea.Cmd {
	opts := m.c.opts
	switch {
	case opts.Save == nil:
		m.say(true, "saving is not available here")
		return nil
	case len(m.s.history) == 0:
		m.say(true, "nothing to save yet: no race has finished")
		return nil
	}
	cfg := m.s.saveConfig(m.c.config)
	races, conc, dir, write, record := slices.Clone(m.s.history), m.s.historyConc, m.c.saveDir(), opts.Save, opts.Record
	return func() tea.Msg {
		stem := filepath.Join(dir, "tpsrace-"+time.Now().Format("20060102-150405"))
		path := stem + ".json"
		f, err := os.Create(path)
		if err != nil {
			return savedMsg{err: err}
		}
		err = write(f, cfg, conc, races, false)
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		if err == nil && record != nil {
			err = record(stem+".tpsr", cfg, conc, races, false)
			path += " and " + stem + ".tpsr"
		}
		return savedMsg{path: path, err: err}
	}
}

// recordHistory rewrites Options.RecordPath with the races `s` would save.
func (m *Model) recordHistory() tea.Cmd {
	write := m.recordWrite(false)
	if write == nil {
		return nil
	}
	return func() tea.Msg {
		if err := write(); err != nil {
			return savedMsg{err: err}
		}
		return nil
	}
}

// recorder numbers the writes of Options.RecordPath: they run in the
// background and may end out of order, and none replaces a newer one (the
// last, shutdown's, holds the race stopped in flight).
type recorder struct {
	mu            sync.Mutex
	made, written int // writes made (numbered from 1); the newest written
}

// recordWrite is a write of the history to Options.RecordPath, as it is
// now (interrupted: its last race was stopped in flight); nil when there is
// nothing to record.
func (m *Model) recordWrite(interrupted bool) func() error {
	opts := m.c.opts
	if opts.RecordPath == "" || opts.Record == nil || len(m.s.history) == 0 {
		return nil
	}
	cfg := m.s.saveConfig(m.c.config)
	races, conc, path, record := slices.Clone(m.s.history), m.s.historyConc, opts.RecordPath, opts.Record
	r := &m.c.recorder
	r.mu.Lock()
	r.made++
	n := r.made
	r.mu.Unlock()
	return func() error {
		r.mu.Lock()
		defer r.mu.Unlock()
		if n < r.written {
			return nil
		}
		r.written = n
		return record(path, cfg, conc, races, interrupted)
	}
}
