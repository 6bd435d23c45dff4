package main

import (
	"bufio"
	"bytes"
	"os"
	"os/exec"
	"regexp"
	"strconv"
	"testing"
)

// initLine is one package's line of GODEBUG=inittrace=1: "init PKG @0.5 ms,
// 9.4 ms clock, 1701032 bytes, 21283 allocs".
var initLine = regexp.MustCompile(`^init (\S+) @.* ([0-9]+) bytes, ([0-9]+) allocs`)

// initBudget is the most heap one package's init may allocate. Every
// command pays every linked package's init, `version` included, so what a
// package needs for some commands only is made on first use (issue 35,
// docs/BENCHMARKS.md, "Start-up"). The largest now are under 100 KB;
// the JSON-schema validator's meta-schemas were 1.7 MB before they were
// compiled on first use (third_party/README.md). Bytes, unlike time, read
// the same on any machine.
const initBudget = 256 << 10

func TestNoPackageInitAllocatesMuch(t *testing.T) {
	t.Parallel()
	cmd := exec.Command(tpsraceBinary(t), "version")
	cmd.Env = append(os.Environ(), "GODEBUG=inittrace=1")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("tpsrace version: %v\n%s", err, stderr.Bytes())
	}
	seen := 0
	for sc := bufio.NewScanner(&stderr); sc.Scan(); {
		m := initLine.FindStringSubmatch(sc.Text())
		if m == nil {
			continue
		}
		seen++
		if n, _ := strconv.Atoi(m[2]); n > initBudget {
			t.Errorf("package %s allocates %d KB in %s allocations at init, which every command pays (at most %d KB): make it on first use",
				m[1], n>>10, m[3], initBudget>>10)
		}
	}
	if seen < 100 {
		t.Fatalf("read %d init lines from GODEBUG=inittrace=1, want one a package:\n%s", seen, stderr.Bytes())
	}
}
