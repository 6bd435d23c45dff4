package cli

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"

	"tpsrace/config"
	"tpsrace/format"
	"tpsrace/metrics"
	"tpsrace/tokens"
)

// maxConcurrency is config.MaxConcurrency, the most streams per provider.
const maxConcurrency = config.MaxConcurrency

// costNoticeAbove is the concurrency above which bench says what a race of
// a paid provider may cost, before it sends anything.
const costNoticeAbove = 64

// checkOutput refuses, before any work, an output path (named by flag) that
// cannot be written; done says what has not happened yet ("nothing was
// sent"). An empty path is no output.
func checkOutput(flag, path, done string) error {
	if path == "" {
		return nil
	}
	if err := checkWritable(path); err != nil {
		return usageError{fmt.Errorf("%s %s: cannot write it: %w (%s)", flag, path, err, done)}
	}
	return nil
}

// checkWritable says why path cannot be written (nil when it can), so a paid
// race is never measured only to be lost. It leaves an existing file as it
// was and removes a file it had to create.
func checkWritable(path string) error {
	err := tryWrite(path)
	if errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("the folder %s does not exist", filepath.Dir(path))
	}
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err // the caller names the path
	}
	return err
}

func tryWrite(path string) error {
	if info, err := os.Stat(path); err == nil && info.IsDir() {
		return errors.New("it is a directory")
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if errors.Is(err, fs.ErrExist) {
		f, err = os.OpenFile(path, os.O_WRONLY, 0)
		if err != nil {
			return err
		}
		return f.Close()
	}
	if err != nil {
		return err
	}
	f.Close()
	return os.Remove(path)
}

// checkDirWritable says why a file cannot be created in dir (nil when it can).
func checkDirWritable(dir string) error {
	f, err := os.CreateTemp(dir, ".tpsrace-check-*")
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	if err != nil {
		return err
	}
	f.Close()
	return os.Remove(f.Name())
}

// noticeCost says, for each paid provider raced above costNoticeAbove
// streams, the most its races may cost: every stream's prompt and max_tokens
// at the provider's prices.
func noticeCost(cfg *config.Config, concurrency, runs int, stderr io.Writer) {
	if concurrency <= costNoticeAbove {
		return
	}
	promptTokens := tokens.Count(cfg.Prompt)
	for _, p := range cfg.Providers {
		if p.Price == nil || (p.Price.InputPerMTok == 0 && p.Price.OutputPerMTok == 0) {
			continue
		}
		most := metrics.Cost(*p.Price, promptTokens, cfg.MaxTokens) * float64(concurrency*runs)
		fmt.Fprintf(stderr, "%s: %d streams × %s may cost up to %s (max_tokens %d at its prices)\n",
			p.Name, concurrency, format.Plural(runs, "race"), format.USD(most), cfg.MaxTokens)
	}
}

// openFilesNeeded is how many file descriptors a race of streams needs: one
// socket each, plus room for the process's own files, logs and listeners.
func openFilesNeeded(streams int) uint64 { return uint64(streams) + 64 }
