#!/usr/bin/env bash
# Runs the benchmarks and rewrites the results table in docs/BENCHMARKS.md.
#   scripts/bench.sh            # default: 5 samples each
#   COUNT=10 scripts/bench.sh
# The ratio row is the cost of measuring: tpsrace's CPU per streamed token
# over a minimal reference client's, on the same body (target ≤ 1.3).
set -euo pipefail
cd "$(dirname "$0")/.."
count=${COUNT:-5}
raw=$(mktemp)
# Each BenchmarkMeasuringCost op streams 20,000 tokens: 20 ops a sample is plenty.
{ go test -run '^$' -bench . -benchmem -benchtime 20x -count "$count" ./probes
  go test -run '^$' -bench . -benchmem -count "$count" ./tokens ./sim
} 2>/dev/null | tee "$raw" | grep -E '^(Benchmark|ok|FAIL)'

table=$(awk '
  /^Benchmark/ {
    name=$1; sub(/-[0-9]+$/, "", name)
    for (i = 3; i < NF; i++) if ($(i+1) ~ /\/(op|token)$/) { unit=$(i+1); key=name SUBSEP unit; sum[key]+=$i; n[key]++; if (!(key in seen)) { seen[key]=1; order[++k]=key } }
  }
  END {
    print "| benchmark | metric | mean of runs |"
    print "|---|---|---|"
    for (j = 1; j <= k; j++) { split(order[j], p, SUBSEP); printf "| %s | %s | %.0f |\n", p[1], p[2], sum[order[j]]/n[order[j]] }
    r = "BenchmarkMeasuringCost/reference" SUBSEP "cpu-ns/token"; t = "BenchmarkMeasuringCost/tpsrace" SUBSEP "cpu-ns/token"
    if (n[r] && n[t]) printf "| **cost of measuring** | tpsrace ÷ reference CPU per token | **%.2f×** |\n", (sum[t]/n[t]) / (sum[r]/n[r])
  }' "$raw")
rm -f "$raw"

machine="$(go env GOOS)/$(go env GOARCH), $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs), $(go version | cut -d' ' -f3)"
doc=docs/BENCHMARKS.md
awk -v table="$table" -v machine="$machine" -v count="$count" -v date="$(date -u +%Y-%m-%d)" '
  /<!-- results:start -->/ { print; print ""; print "Measured " date " on " machine ", " count " samples per benchmark."; print ""; print table; print ""; skip=1; next }
  /<!-- results:end -->/ { skip=0 }
  !skip { print }' "$doc" > "$doc.new" && mv "$doc.new" "$doc"
echo "updated $doc"
