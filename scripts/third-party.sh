#!/usr/bin/env bash
# Checks third_party/jsonschema against the published module it was copied
# from (third_party/README.md): prints the diff, which must touch draft.go
# alone, and runs the module's own tests on the patched copy.
#   scripts/third-party.sh           # against v6.0.3
#   scripts/third-party.sh v6.0.4    # after an update
# Needs the Go module proxy (it downloads the published module).
set -euo pipefail
cd "$(dirname "$0")/.."
version=${1:-v6.0.3}
upstream=$(GOFLAGS=-mod=mod go mod download -json "github.com/santhosh-tekuri/jsonschema/v6@$version" | jq -r .Dir)
copy=third_party/jsonschema
skip=(-x '*_test.go' -x testdata -x 'go.work*')

diff -ru "${skip[@]}" "$upstream" "$copy" || true
others=$(diff -rq "${skip[@]}" "$upstream" "$copy" | grep -v "/draft.go differ$" || true)
if [ -n "$others" ]; then
  echo "third-party: more than draft.go differs from $version:" >&2
  echo "$others" >&2
  exit 1
fi

# The module's tests, on a copy of the published module with the patched file.
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cp -r "$upstream"/. "$work"
chmod -R u+w "$work"
cp "$copy/draft.go" "$work/draft.go"
# Example_fromHTTPS fetches a schema from GitHub.
(cd "$work" && GOWORK=off GOFLAGS=-mod=mod go test -count=1 -skip Example_fromHTTPS ./...)
