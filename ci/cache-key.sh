#!/usr/bin/env bash
# Prints the cache key of ctxbench installed compiled from this checkout (ci/install.sh): the
# checkout's content (without node_modules, .git and dist) and Node's ABI. The action and the
# sharded example's merge job share it, so every job of a run restores one install.
# (hashFiles() cannot read outside the workspace, so the key is made here.)
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
digest="$(cd "$root" && find . \( -name node_modules -o -name .git -o -name dist \) -prune -o -type f -print0 | LC_ALL=C sort -z | xargs -0 sha256sum | sha256sum | cut -c1-16)"
echo "ctxbench-installed-${RUNNER_OS:-$(uname -s)}-node$(node -p process.versions.modules)-$digest"
