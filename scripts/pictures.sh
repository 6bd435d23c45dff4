#!/usr/bin/env bash
# Regenerates the README's pictures from real races of the built-in simulated
# providers: docs/race.png (the dashboard at 160x48, mid-race) and
# docs/present.png (--present at 120x30, mid-race).
#
#   scripts/pictures.sh
#
# Each picture is the real binary in a tmux terminal, captured with its colours
# and drawn by xterm.js in headless Chromium (scripts/picture.js): xterm draws
# every cell at its own place, so the braille chart lines up with the text,
# which an SVG of whole lines (freeze) does not do when the font lacks braille.
# Needs tmux, chromium (Debian packages) and npm; the npm packages, pinned
# below, are installed once under ~/.cache/tpsrace/pictures.
set -euo pipefail
cd "$(dirname "$0")/.."

node_dir=${XDG_CACHE_HOME:-$HOME/.cache}/tpsrace/pictures
packages=(@xterm/xterm@5.5.0 @xterm/addon-canvas@0.7.0 playwright-core@1.49.1)
if [ ! -f "$node_dir/.installed" ] || [ "$(cat "$node_dir/.installed")" != "${packages[*]}" ]; then
	mkdir -p "$node_dir"
	(cd "$node_dir" && npm install --silent --no-save --prefix . "${packages[@]}" >&2)
	echo "${packages[*]}" >"$node_dir/.installed"
fi

work=$(mktemp -d)
socket=tpsrace-pictures-$$
trap 'tmux -L "$socket" kill-server 2>/dev/null || true; rm -rf "$work"' EXIT
go build -o "$work/tpsrace" .

# shot NAME SIZE SECONDS [ARGS...]: run tpsrace at SIZE (WxH) in a folder with
# no providers.yaml (so it races the simulated providers), capture the screen
# SECONDS after it started, and write docs/NAME.png.
shot() {
	local name=$1 size=$2 wait=$3
	shift 3
	local cols=${size%x*} rows=${size#*x}
	(cd "$work" && tmux -L "$socket" new-session -d -s "$name" -x "$cols" -y "$rows" -- \
		env -u CI TERM=xterm-256color COLORTERM=truecolor ./tpsrace "$@")
	sleep "$wait"
	tmux -L "$socket" capture-pane -t "$name" -e -p >"$work/$name.ansi"
	tmux -L "$socket" kill-session -t "$name"
	NODE_PATH=$node_dir/node_modules node scripts/picture.js "$work/$name.ansi" "docs/$name.png" "$cols" "$rows"
	echo "wrote docs/$name.png ($size, ${wait}s into the race)"
}

shot race 160x48 3.5
shot present 120x30 4.5 --present
