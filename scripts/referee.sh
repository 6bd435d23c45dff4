#!/usr/bin/env bash
# Measures the referee on this machine (docs/METRICS.md, "The referee"):
# every workload of the built-in simulated race, RUNS times each, with the
# flags raised, the client's wake-delay p95 and CPU share and the start
# skew of every race; then the chat race beside HOGS busy processes on its
# core (GOMAXPROCS=1, taskset), whether the kernel keeps its stamps on time; then
# a client that is saturated (a goroutine spinning on its one core, the
# test TestSaturatedClientIsFlagged), which raises client_saturated.
#   scripts/referee.sh            # 3 runs of each workload, a few minutes
#   RUNS=5 HOGS=6 scripts/referee.sh
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${RUNS:-3}
hogs=${HOGS:-6}
tmp=$(mktemp -d)
hog_pids=()
cleanup() {
  for pid in "${hog_pids[@]}"; do kill "$pid" 2>/dev/null || true; done
  rm -rf "$tmp"
}
trap cleanup EXIT
go build -o "$tmp/tpsrace" .

# one line per bench: workload, the flags the table shows, wake p99 (ms), CPU share, skew (ms)
race() {
  local label=$1; shift
  "$@" --format json 2>/dev/null | python3 -c '
import json, sys
d = json.load(sys.stdin)
flags = sorted({f for p in d["providers"] for f in p["summary"]["flags"]} | {f for r in d["races"] for f in r["flags"]})
races = d["races"]
print("%-14s flags %-28s wake p95 %-22s cpu %-20s skew %s" % (sys.argv[1], ",".join(flags) or "none",
  " ".join("%.3f" % r["wake_p95_ms"] for r in races), " ".join("%.3f" % r["client_cpu"] for r in races),
  " ".join("%.2f" % (r["start_skew_ms"] or 0) for r in races)))
' "$label"
}

echo "machine: $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg)"
for w in chat tool-call long-context cached-prefix json multi-turn; do
  for _ in $(seq "$runs"); do race "$w" "$tmp/tpsrace" bench --simulated --workload "$w"; done
done
for _ in $(seq "$hogs"); do taskset -c 0 sh -c 'while :; do :; done' & hog_pids+=($!); done
for _ in $(seq "$runs"); do race "beside hogs" taskset -c 0 env GOMAXPROCS=1 "$tmp/tpsrace" bench --simulated; done
for pid in "${hog_pids[@]}"; do kill "$pid"; done
hog_pids=()
go test ./benchdoc -run TestSaturatedClientIsFlagged -count 1 -v | grep -E 'evidence|^(ok|FAIL|---)'

