//go:build !unix

package cli

import "io"

// ensureOpenFiles: only Unix limits open files per process this way.
func ensureOpenFiles(streams int, stderr io.Writer) {}
