# Sourced by the measuring scripts. start_sim BIN DIR starts `BIN sim` on a
# free loopback port as a process of its own (its CPU is not the client's),
# its output in DIR/sim.out, and sets sim (its pid) and url (its base URL).
start_sim() {
  "$1" sim --addr 127.0.0.1:0 >"$2/sim.out" 2>&1 &
  sim=$!
  for _ in $(seq 100); do grep -q base_url "$2/sim.out" && break; sleep 0.05; done
  url=$(sed -n 's/.*base_url \([^ ]*\).*/\1/p' "$2/sim.out")
  [ -n "$url" ] || { echo "the simulator did not start: $(cat "$2/sim.out")" >&2; exit 1; }
}

# await_finish SOCK PID SECONDS waits for the dashboard PID in tmux server
# SOCK to say "finished in": it sleeps SECONDS (most of the race), then
# looks twice a second, and exits if the dashboard ended first. The pane is
# not looked at while the race runs: a look is work for tmux beside the
# dashboard, on the same cores, and 20 a second cost the dashboard about 4
# points of a core on the Firecracker guest and made its wake probe read
# late (docs/BENCHMARKS-DASHBOARD.md, "Fourteenth round").
await_finish() {
  sleep "$3"
  until tmux -L "$1" capture-pane -p | grep -q 'finished in'; do
    kill -0 "$2" 2>/dev/null || { echo "the dashboard ended early" >&2; exit 1; }
    sleep 0.5
  done
}
