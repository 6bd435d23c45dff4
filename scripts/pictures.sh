#!/usr/bin/env bash
# Regenerates the README's pictures, animated, from a recorded race of the
# built-in simulated providers: docs/race.gif (the dashboard at 120x40 in a
# 1280x720 picture, the race at true speed, then its final leaderboard) and
# docs/present.gif (--present at 100x30: countdown, big digits, podium).
#
#   scripts/pictures.sh              # from testdata/race.tpsr: the same pictures every time
#   scripts/pictures.sh fresh.tpsr   # from another recording, e.g. a fresh one:
#                                    #   (cd "$(mktemp -d)" && tpsrace bench --runs 1 --record fresh.tpsr)
#
# The pictures are tpsrace's own `replay --gif`: the dashboard's frames drawn
# by package picture (Go Mono, and box drawing, blocks and braille drawn from
# their code points), with no terminal, browser or other program. Each is kept
# under 2 MB for the README; `--svg` makes a vector picture instead
# (docs/RECORDING.md, "Pictures for slides").
set -euo pipefail
cd "$(dirname "$0")/.."

recording=${1:-testdata/race.tpsr}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
go build -o "$work/tpsrace" .

# picture NAME ARGS...: docs/NAME.gif from the recording, refused over 2 MB.
picture() {
	local name=$1
	shift
	"$work/tpsrace" replay "$recording" --gif "docs/$name.gif" "$@"
	local size
	size=$(wc -c <"docs/$name.gif")
	if [ "$size" -ge $((2 * 1024 * 1024)) ]; then
		echo "docs/$name.gif is $size bytes: over 2 MB, too big for the README (try --fps 5)" >&2
		exit 1
	fi
}

picture race --size 120x40 --pixels 1280x720 --fps 10
picture present --present --size 100x30 --pixels 1280x720 --fps 10
