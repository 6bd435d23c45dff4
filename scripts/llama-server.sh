#!/usr/bin/env bash
# Builds llama.cpp's llama-server (CPU only) from the source that the npm
# package node-llama-cpp ships, caches it, and prints the binary's path.
#
#   bin=$(scripts/llama-server.sh) && export TPSRACE_LLAMA_SERVER=$bin
#
# Needs npm, git, cmake and a C++ compiler (Debian: npm git cmake g++).
# The first build takes about 9 minutes on 2 cores; later runs find the
# binary under ${XDG_CACHE_HOME:-~/.cache}/tpsrace/llama-server-<commit>/
# and print it at once. Progress goes to stderr, only the path to stdout.
set -euo pipefail

version=${NODE_LLAMA_CPP_VERSION:-3.21.1} # pinned: its bundle is one llama.cpp release
cache=${XDG_CACHE_HOME:-$HOME/.cache}/tpsrace
pkg=$cache/node-llama-cpp-$version
mkdir -p "$cache"

log() { printf 'llama-server.sh: %s\n' "$*" >&2; }

bundle=$pkg/package/llama/gitRelease.bundle
if [ ! -f "$bundle" ]; then
	log "fetching node-llama-cpp@$version from npm"
	tmp=$(mktemp -d)
	trap 'rm -rf "$tmp"' EXIT
	(cd "$tmp" && npm pack --silent "node-llama-cpp@$version" >/dev/null)
	mkdir -p "$pkg.partial"
	tar -xzf "$tmp"/node-llama-cpp-"$version".tgz -C "$pkg.partial"
	rm -rf "$pkg" && mv "$pkg.partial" "$pkg"
fi

commit=$(git bundle list-heads "$bundle" | awk 'NR==1 {print substr($1, 1, 12)}')
out=$cache/llama-server-$commit
if [ -x "$out/llama-server" ]; then
	echo "$out/llama-server"
	exit 0
fi

log "building llama-server from llama.cpp $commit (CPU only; about 9 minutes on 2 cores)"
src=$cache/llama.cpp-$commit
if [ ! -d "$src/.git" ]; then
	rm -rf "$src"
	git clone --quiet "$bundle" "$src" >&2
fi
cmake -S "$src" -B "$src/build" -DCMAKE_BUILD_TYPE=Release -DBUILD_SHARED_LIBS=OFF \
	-DLLAMA_CURL=OFF -DLLAMA_BUILD_TESTS=OFF -DLLAMA_BUILD_EXAMPLES=OFF -DGGML_NATIVE=OFF >&2
cmake --build "$src/build" --target llama-server -j "$(nproc)" >&2
mkdir -p "$out.partial"
cp "$src/build/bin/llama-server" "$out.partial/"
rm -rf "$out" && mv "$out.partial" "$out"
rm -rf "$src" # the source and objects are 1 GB; the binary is all we keep
echo "$out/llama-server"
