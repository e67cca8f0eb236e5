#!/usr/bin/env bash
# Runs a command under Node 22 LTS: the machine's own Node when it is 22 or newer, else the one
# scripts/use-node22.sh installs from the npm registry (put first on PATH, so `npm` and `node` inside the
# command use it too). The package scripts that run Bosun or its tests go through here, so `npm test` and
# `npm run start:web` work on a machine whose Node is older (Debian's 20, end-of-life).
set -euo pipefail
# shellcheck source=./use-node22.sh
source "$(dirname "$0")/use-node22.sh"
exec "$@"
