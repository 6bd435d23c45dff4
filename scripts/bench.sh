#!/usr/bin/env bash
# Measures what measuring costs a tpsrace user and rewrites the results in
# docs/BENCHMARKS.md (which explains every row):
#   scripts/bench.sh              # 3 samples of each figure, a few minutes
#   REPEAT=5 scripts/bench.sh
#   BASELINE=/path/to/older/tpsrace scripts/bench.sh   # its CPU per token beside
# Whole processes, side by side with minimal reference clients in the same
# run (scripts/costs), then the package micro-benchmarks.
set -euo pipefail
cd "$(dirname "$0")/.."
repeat=${REPEAT:-3}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
go build -o "$tmp/tpsrace" .
go build -o "$tmp/costs" ./scripts/costs
costs=$("$tmp/costs" -tpsrace "$tmp/tpsrace" ${BASELINE:+-baseline "$BASELINE"} -repeat "$repeat")
echo "$costs"

micro=$(go test -run '^$' -bench . -benchmem -count 1 ./tokens ./probes ./metrics ./sim ./ui 2>/dev/null | awk '
  /^Benchmark/ { name=$1; sub(/-[0-9]+$/, "", name); printf "| %s |", name; for (i = 3; i < NF; i += 2) printf " %s %s", $i, $(i+1); print " |" }')
echo "$micro"

machine="$(go env GOOS)/$(go env GOARCH), $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs), $(go version | cut -d' ' -f3), load average $(cut -d' ' -f1-3 /proc/loadavg) when it ended"
doc=docs/BENCHMARKS.md
awk -v costs="$costs" -v micro="$micro" -v machine="$machine" -v repeat="$repeat" -v date="$(date -u +%Y-%m-%d)" '
  /<!-- results:start -->/ {
    print; print ""; print "Measured " date " on " machine "; median of " repeat " samples per figure (two more for start-up and TTFT)."; print ""
    print costs; print ""; print "| micro-benchmark | per op |"; print "|---|---|"; print micro; print ""; skip=1; next }
  /<!-- results:end -->/ { skip=0 }
  !skip { print }' "$doc" > "$doc.new" && mv "$doc.new" "$doc"
echo "updated $doc"
