#!/usr/bin/env bash
# Installs this checkout of ctxbench as a compiled package into DIR, as an engine author's
# tarball install would: a copy of the checkout gets its development dependencies and compiles
# dist/ (npm ci runs the prepare script), npm pack makes the tarball, and DIR gets that tarball
# with production dependencies only. Afterwards DIR/node_modules/.bin/ctxbench runs compiled
# JavaScript; the checkout itself is left as it was.
set -euo pipefail
target="${1:?usage: ci/install.sh DIR}"
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="$(mktemp -d)"
trap 'rm -rf "$build"' EXIT

tar -C "$root" --exclude=./node_modules --exclude=./dist --exclude=./.git -cf - . | tar -C "$build" -xf -
(cd "$build" && npm ci --no-audit --no-fund && npm pack --ignore-scripts --pack-destination "$build" > /dev/null)
mkdir -p "$target"
npm install --omit=dev --no-audit --no-fund --prefix "$target" "$build"/ctxbench-*.tgz
test -f "$target/node_modules/ctxbench/dist/harness/cli/bin.js"
echo "ctxbench: installed the compiled package in $target ($("$target/node_modules/.bin/ctxbench" --version 2>/dev/null || echo "version unknown"))"
