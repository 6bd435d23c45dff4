#!/usr/bin/env bash
# How far one box goes: the highest event rate `tpsrace bench` sustains
# before its referee flags client_saturated, and memory per stream at
# C=1024. docs/BENCHMARKS.md, "Scale on one box", explains the figures.
#   scripts/scale.sh                          # the ramp, then memory
#   ONLY=ramp TPS=500 scripts/scale.sh        # the ramp only, 500 tok/s a stream
#   BIN=/tmp/tpsrace-main scripts/scale.sh    # another build (say, main's)
#   DASHBOARD=1 ONLY=ramp scripts/scale.sh    # the ramp in the dashboard (240x60 tmux), not bench
# The ramp races one simulated provider, one token per event, at TPS tok/s
# a stream with C = 4, 8, 16, 24, 32, 48, … streams (C × TPS events a
# second), until two races in a row are flagged. Each line: the event rate
# the race reached (its events ÷ its longest stream), then what the
# referee's client_saturated rule reads (metrics/saturation.go), from the
# race's JSON: tpsrace's CPU over the race as a share of GOMAXPROCS cores
# (flagged at 0.9 or more), the wake probe's p95 lateness over the race
# (wake_p95_ms), and the limit a stream's lateness is held to: 25% of its
# own mean gap between events, that gap at least 1 ms (the median stream's,
# its gap read from the JSON as (e2e − TTFT) ÷ (events − 1)); then the
# provider's flags and how many streams were flagged client_saturated. The
# simulator is a process of its own on the same box: at high rates it
# competes for the same cores. With DASHBOARD=1 each race runs in the real
# dashboard in a 240x60 tmux window, whose referee reads the same inputs,
# and `s` saves the same JSON (peak RSS is then VmHWM).
# Memory: peak RSS of a race of 1024 streams minus one of 16, ÷ 1008, the
# streams TOKENS long (2000 by default).
set -euo pipefail
cd "$(dirname "$0")/.."
tps=${TPS:-1000}
tokens=${TOKENS:-2000}
only=${ONLY:-}
dashboard=${DASHBOARD:-}
tmp=$(mktemp -d)
sock="tpsrace-scale-$$"
trap 'tmux -L "$sock" kill-server 2>/dev/null || true; [ -n "${sim:-}" ] && kill "$sim" 2>/dev/null; rm -rf "$tmp"' EXIT
bin=${BIN:-}
if [ -z "$bin" ]; then
  go build -o "$tmp/tpsrace" .
  bin=$tmp/tpsrace
fi
. scripts/sim.sh
start_sim "$bin" "$tmp"

# race C TPS: one bench race of C streams; prints "events/s cpu cores
# wake_p95_ms limit_ms flags saturated_streams peak_kB".
race() {
  printf 'prompt: "Explain how a CPU cache works."\nmax_tokens: %d\nproviders:\n  - name: sim\n    base_url: %s\n    api_key: scale\n    model: "sim:ttft=0,tps=%d,tokens=%d,chunk=1"\n' \
    "$tokens" "$url" "$2" "$tokens" >"$tmp/p.yaml"
  chmod 600 "$tmp/p.yaml"
  if [ -n "$dashboard" ]; then
    dashboard "$1" "$2"
  else
    /usr/bin/time -f '%M' -o "$tmp/time" "$bin" bench --config "$tmp/p.yaml" --concurrency "$1" --format json --out "$tmp/b.json" >/dev/null 2>&1 || true
  fi
  jq -r --arg kb "$(cat "$tmp/time")" '
    .providers[0].runs as $runs |
    ([$runs[].events] | add) as $events | ([$runs[].e2e_ms] | max) as $ms |
    ([$runs[] | select(.events >= 2) | [(.e2e_ms - .ttft_ms) / (.events - 1), 1] | max * 0.25] | sort) as $limits |
    (if ($limits | length) > 0 then $limits[($limits | length - 1) / 2 | floor] * 1000 | round / 1000 else "-" end) as $limit |
    ([$runs[] | select(.flags | index("client_saturated"))] | length) as $saturated |
    "\($events / $ms * 1000 | floor) \(.races[0].client_cpu) \(.races[0].gomaxprocs) \(.races[0].wake_p95_ms) \($limit) \(.providers[0].summary.flags | join(",") | if . == "" then "-" else . end) \($saturated)/\($runs | length) \($kb)"' "$tmp/b.json"
}

# dashboard C TPS: the race of p.yaml in the dashboard, its JSON as b.json
# and its peak RSS (VmHWM) in kB as time; the pane is looked at from half
# a second before the race's end (await_finish).
dashboard() {
  rm -rf "$tmp/dash" && mkdir "$tmp/dash"
  tmux -L "$sock" kill-server 2>/dev/null || true
  tmux -L "$sock" -f /dev/null new-session -d -x 240 -y 60 -c "$tmp/dash" \
    "exec env -u CI TERM=xterm-256color '$bin' --config '$tmp/p.yaml' --concurrency $1"
  local pid
  pid=$(tmux -L "$sock" list-panes -F '#{pane_pid}')
  await_finish "$sock" "$pid" "$(awk -v t="$tokens" -v r="$2" 'BEGIN { print (t / r > 0.5 ? t / r - 0.5 : 0) }')"
  sed -n 's/^VmHWM:[[:space:]]*\([0-9]*\) kB/\1/p' "/proc/$pid/status" >"$tmp/time"
  tmux -L "$sock" send-keys s
  for _ in $(seq 200); do tmux -L "$sock" capture-pane -p | grep -q 'saved tpsrace-' && break; sleep 0.05; done
  tmux -L "$sock" send-keys q
  cp "$tmp"/dash/tpsrace-*.json "$tmp/b.json"
}

if [ "$only" != memory ]; then
  echo "| streams | target events/s | events/s reached | CPU, share of GOMAXPROCS | cores | wake p95 | 25% of mean gap (≥ 1 ms) | flags | streams client_saturated |"
  echo "|---|---|---|---|---|---|---|---|---|"
  flagged=0
  for c in 4 8 16 24 32 48 64 96 128 192 256 384 512 768 1024; do
    read -r rate cpu procs wake limit flags saturated _ < <(race "$c" "$tps")
    echo "| $c | $((c * tps)) | $rate | $cpu | $procs | $wake ms | $limit ms | $flags | $saturated |"
    if [[ $flags == *client_saturated* ]]; then flagged=$((flagged + 1)); else flagged=0; fi
    [ "$flagged" -lt 2 ] || break
  done
fi
if [ "$only" != ramp ]; then
  read -r _ _ _ _ _ _ _ kb16 < <(race 16 "$tps")
  read -r _ _ _ _ _ _ _ kb1024 < <(race 1024 "$tps")
  echo "memory: peak RSS $kb16 kB at C=16, $kb1024 kB at C=1024: $(awk -v a="$kb16" -v b="$kb1024" 'BEGIN { printf "%.3f", (b - a) * 1024 / 1008 / 1e6 }') MB per stream ($tokens tokens a stream)"
fi
echo "$(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs), $(go version | cut -d' ' -f3), load average $(cut -d' ' -f1-3 /proc/loadavg) at the end"
