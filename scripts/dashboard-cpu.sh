#!/usr/bin/env bash
# What the dashboard costs in CPU: one race of 8 simulated providers at
# 2000 tok/s each, drawn by the real binary in a 240x60 tmux window, against
# the same race headless (tpsrace bench). Prints one line per sample and a
# Markdown table (docs/BENCHMARKS.md, "Dashboard CPU", explains it):
#   scripts/dashboard-cpu.sh                     # 3 samples of each, about a minute
#   REPEAT=5 TOKENS=40000 SIZE=160x48 scripts/dashboard-cpu.sh
#   BIN=/tmp/tpsrace-main scripts/dashboard-cpu.sh   # another build (say, main's) instead of this tree's
#   PROFILE=/tmp/prof scripts/dashboard-cpu.sh       # also a pprof CPU profile of each dashboard run
#   HEADLESS=0 BIN=… scripts/dashboard-cpu.sh         # the dashboard only: twice the samples a minute, to alternate two builds
# Beside them, the floor: scripts/costs's client that only splits lines
# (decodes nothing), streaming as many events a second for as long, so the
# table says what any client pays for this race's reads on this machine.
# CPU is the process's own utime+stime (/proc/PID/stat for the dashboard,
# getrusage via /usr/bin/time for bench) over its wall time, from exec to the
# end of the race; the simulator runs in its own process and is not counted.
# Output speed is each run's median per-user tok/s (the dashboard's from the
# JSON that `s` saves), so a dashboard that slowed the streams would show.
# Page faults (minor) and context switches (voluntary and not, the
# dashboard's summed over its threads) say where a machine whose kernel
# entries are dear spends the difference (docs/BENCHMARKS-DASHBOARD.md,
# "Ninth round"); peak resident memory (getrusage's maxrss, the dashboard's
# VmHWM) what a change costs in memory.
# PROFILE=DIR builds with -tags pprof (BIN must be such a build too) and
# writes DIR/dashboard-K.pprof and DIR/headless-K.pprof, each process's
# first TOKENS/2000 − 1 seconds, and prints the share of a core spent under
# Bubble Tea and package ui (the frames, the renderer, the relay; not the
# collector's share) and the dashboard's samples over headless's (all of
# what drawing costs, the collector and the scheduler included).
set -euo pipefail
cd "$(dirname "$0")/.."
repeat=${REPEAT:-3}
tokens=${TOKENS:-20000} # 10 s at 2000 tok/s
size=${SIZE:-240x60}
providers=${PROVIDERS:-8}
model=${MODEL:-"sim:ttft=0,tps=2000,tokens=$tokens,chunk=1"} # one token per event, at 2000 tok/s
profile=${PROFILE:-}
[ -z "$profile" ] || mkdir -p "$profile"
headless_too=${HEADLESS:-1} # 0: the dashboard's runs only
seconds=$((tokens > 4000 ? tokens / 2000 - 1 : 1)) # profiled, and slept through before the pane is looked at, of a race of tokens/2000 s
tmp=$(mktemp -d)
sock="tpsrace-cpu-$$"
trap 'tmux -L "$sock" kill-server 2>/dev/null || true; [ -n "${sim:-}" ] && kill "$sim" 2>/dev/null; rm -rf "$tmp"' EXIT
bin=${BIN:-}
if [ -z "$bin" ]; then
  go build ${profile:+-tags pprof} -o "$tmp/tpsrace" .
  bin=$tmp/tpsrace
fi

go build -o "$tmp/costs" ./scripts/costs

. scripts/sim.sh
start_sim "$bin" "$tmp"

cfg=$tmp/providers.yaml
{
  echo "prompt: \"Explain how a CPU cache works.\""
  echo "max_tokens: $tokens"
  echo "providers:"
  for i in $(seq "$providers"); do
    printf '  - name: sim-%d\n    base_url: %s\n    api_key: cpu\n    model: "%s"\n' "$i" "$url" "$model"
  done
} >"$cfg"
chmod 600 "$cfg"

# speed FILE: the median across providers of each one's median per-user tok/s.
speed() { jq '[.providers[].summary.output_tps.p50] | sort | .[length/2|floor]' "$1"; }
# late is how long after the race's end (its release, started_at, plus its
# longest stream) the instant $2 came, in seconds: the dashboard is idle by
# then, so its CPU time is the race's, and its wall time is cut at the end.
late() {
  local started
  started=$(date -d "$(jq -r .started_at "$1")" +%s.%N)
  jq --arg now "$2" --arg started "$started" '($now | tonumber) - ($started | tonumber) - ([.providers[].runs[].e2e_ms] | max / 1000)' "$1"
}
clk=$(getconf CLK_TCK)

headless() {
  env ${profile:+TPSRACE_CPUPROFILE=$profile/headless-$k.pprof TPSRACE_CPUPROFILE_SECONDS=$seconds} /usr/bin/time -f '%U %S %e %R %w %c %M' -o "$tmp/time" "$bin" bench --config "$cfg" --format json --out "$tmp/bench.json" 2>/dev/null
  read -r user sys wall faults vol invol rss <"$tmp/time"
  echo "$(awk -v u="$user" -v s="$sys" -v w="$wall" 'BEGIN { printf "%.1f", 100 * (u + s) / w }') $wall $(speed "$tmp/bench.json") $faults $((vol + invol)) $((rss / 1024))"
}

# floor: the same events a second for as long, to a client that only splits
# lines: $providers streams at once, races of 2,000 tokens one after another.
floor() {
  /usr/bin/time -f '%U %S %e %R %w %c %M' -o "$tmp/time" "$tmp/costs" -client floor -url "$url" -model "$model" \
    -concurrency "$providers" -runs $((tokens > 2000 ? tokens / 2000 : 1)) >/dev/null
  read -r user sys wall faults vol invol rss <"$tmp/time"
  echo "$(awk -v u="$user" -v s="$sys" -v w="$wall" 'BEGIN { printf "%.1f", 100 * (u + s) / w }') $wall - $faults $((vol + invol)) $((rss / 1024))"
}

dashboard() {
  rm -rf "$tmp/dash" && mkdir "$tmp/dash"
  tmux -L "$sock" kill-server 2>/dev/null || true
  local env=""
  if [ -n "$profile" ]; then
    env="TPSRACE_CPUPROFILE=$profile/dashboard-$1.pprof TPSRACE_CPUPROFILE_SECONDS=$seconds"
  fi
  tmux -L "$sock" -f /dev/null new-session -d -x "${size%x*}" -y "${size#*x}" -c "$tmp/dash" \
    "exec env -u CI TERM=xterm-256color $env '$bin' --config '$cfg'"
  local pid
  pid=$(tmux -L "$sock" list-panes -F '#{pane_pid}')
  await_finish "$sock" "$pid" "$seconds" # its wall time is cut at the race's end (late)
  # minflt (field 10), utime+stime (14, 15) and starttime (22), in clock
  # ticks; the fields are counted after the command name's closing parenthesis.
  local stat up now switches rss
  stat=$(sed 's/.*) //' "/proc/$pid/stat")
  up=$(cut -d' ' -f1 /proc/uptime)
  now=$(date +%s.%N)
  switches=$(cat /proc/"$pid"/task/*/status | awk '/ctxt_switches/ { n += $2 } END { print n }')
  rss=$(awk '/^VmHWM:/ { print int($2 / 1024) }' /proc/"$pid"/status)
  tmux -L "$sock" send-keys s
  # The file shows as soon as it is created; it is whole once the status line says "saved".
  for _ in $(seq 200); do tmux -L "$sock" capture-pane -p | grep -q 'saved tpsrace-' && break; sleep 0.05; done
  tmux -L "$sock" send-keys q
  echo "$stat" | awk -v up="$up" -v clk="$clk" -v speed="$(speed "$tmp"/dash/tpsrace-*.json)" \
    -v late="$(late "$tmp"/dash/tpsrace-*.json "$now")" \
    -v switches="$switches" -v rss="$rss" '{ cpu = ($12 + $13) / clk; wall = up - $20 / clk - late; printf "%.1f %.2f %s %d %d %d\n", 100 * cpu / wall, wall, speed, $8, switches, rss }'
}

# total PROFILE: points of a core in all the profile's samples.
total() {
  go tool pprof -top -nodecount=1 "$bin" "$1" 2>/dev/null |
    sed -n 's/.*Total samples = \([0-9.]*\)\(m*\)s.*/\1 \2/p' |
    awk -v s="$seconds" '{ printf "%.1f\n", 100 * $1 / ($2 == "m" ? 1000 : 1) / s }'
}

# uishare PROFILE: points of a core under Bubble Tea and package ui.
uishare() {
  go tool pprof -top -nodecount=100000 -focus='bubbletea|tpsrace/ui\.|tpsrace/ui/' "$bin" "$1" 2>/dev/null |
    sed -n 's/^Showing nodes accounting for \([0-9.]*\)\(m*\)s.*/\1 \2/p' |
    awk -v s="$seconds" '{ printf "%.1f\n", 100 * $1 / ($2 == "m" ? 1000 : 1) / s }'
}

median() { sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
: >"$tmp/h" && : >"$tmp/d" && : >"$tmp/u" && : >"$tmp/o" && : >"$tmp/f"
for k in $(seq "$repeat"); do
  said="headless not run (HEADLESS=0)"
  if [ "$headless_too" != 0 ]; then
    h=$(headless) || exit 1
    echo "$h" >>"$tmp/h"
    f=$(floor) || exit 1
    echo "$f" >>"$tmp/f"
    said="floor ${f%% *}%; headless ${h%% *}% of a core (wall, tok/s, faults, switches, peak MB: ${h#* })"
  fi
  d=$(dashboard "$k") || exit 1
  echo "$d" >>"$tmp/d"
  if [ -n "$profile" ] && [ "$headless_too" != 0 ]; then
    uishare "$profile/dashboard-$k.pprof" >>"$tmp/u"
    awk -v d="$(total "$profile/dashboard-$k.pprof")" -v h="$(total "$profile/headless-$k.pprof")" 'BEGIN { printf "%.1f\n", d - h }' >>"$tmp/o"
  fi
  echo "sample $k: $said; dashboard ${d%% *}% (${d#* }); load $(cut -d' ' -f1-3 /proc/loadavg)" >&2
done
hc=$(cut -d' ' -f1 "$tmp/h" | median) && dc=$(cut -d' ' -f1 "$tmp/d" | median)
hs=$(cut -d' ' -f3 "$tmp/h" | median) && ds=$(cut -d' ' -f3 "$tmp/d" | median)
hf=$(cut -d' ' -f4 "$tmp/h" | median) && df=$(cut -d' ' -f4 "$tmp/d" | median)
hw=$(cut -d' ' -f5 "$tmp/h" | median) && dw=$(cut -d' ' -f5 "$tmp/d" | median)
hm=$(cut -d' ' -f6 "$tmp/h" | median) && dm=$(cut -d' ' -f6 "$tmp/d" | median)
echo "| $providers × \`$model\`, C=1 | CPU, % of one core | median per-user tok/s | page faults | context switches | peak RSS, MB |"
echo "|---|---|---|---|---|---|"
if [ "$headless_too" != 0 ]; then
  echo "| the floor (\`scripts/costs -client floor\`: splits lines, decodes nothing) | $(cut -d' ' -f1 "$tmp/f" | median) % | | $(cut -d' ' -f4 "$tmp/f" | median) | $(cut -d' ' -f5 "$tmp/f" | median) | $(cut -d' ' -f6 "$tmp/f" | median) |"
  echo "| headless (\`tpsrace bench\`) | $hc % | $hs | $hf | $hw | $hm |"
fi
echo "| dashboard at $size in tmux | $dc % | $ds | $df | $dw | $dm |"
[ -z "$profile" ] || [ "$headless_too" = 0 ] || echo "| of which Bubble Tea and package ui (pprof) | $(median <"$tmp/u") points | | | | |"
[ -z "$profile" ] || [ "$headless_too" = 0 ] || echo "| dashboard over headless, all samples (pprof) | $(median <"$tmp/o") points | | | | |"
echo "median of $repeat samples; $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs), $(go version | cut -d' ' -f3), load average $(cut -d' ' -f1-3 /proc/loadavg) at the end"
