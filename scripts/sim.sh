# Sourced by the measuring scripts: start_sim BIN DIR starts `BIN sim` on a
# free loopback port as a process of its own (its CPU is not the client's),
# its output in DIR/sim.out, and sets sim (its pid) and url (its base URL).
start_sim() {
  "$1" sim --addr 127.0.0.1:0 >"$2/sim.out" 2>&1 &
  sim=$!
  for _ in $(seq 100); do grep -q base_url "$2/sim.out" && break; sleep 0.05; done
  url=$(sed -n 's/.*base_url \([^ ]*\).*/\1/p' "$2/sim.out")
  [ -n "$url" ] || { echo "the simulator did not start: $(cat "$2/sim.out")" >&2; exit 1; }
}
