#!/usr/bin/env bash
# Runs a command with a real, unlocked Secret Service (gnome-keyring on a private D-Bus session bus),
# so keytar is tested for real. Where none can be started, the command runs as is and the keychain
# tests report the keychain as unavailable (and fail, unless BOSUN_ALLOW_NO_KEYCHAIN=1).
set -euo pipefail
if [ -z "${BOSUN_KEYRING_READY:-}" ] && command -v dbus-run-session >/dev/null && command -v gnome-keyring-daemon >/dev/null; then
  export BOSUN_KEYRING_READY=1
  exec dbus-run-session -- "$0" "$@"
fi
if [ -n "${BOSUN_KEYRING_READY:-}" ] && [ -n "${DBUS_SESSION_BUS_ADDRESS:-}" ]; then
  export XDG_RUNTIME_DIR="${XDG_RUNTIME_DIR:-$(mktemp -d)}"
  export HOME_KEYRING_DIR="$(mktemp -d)"
  # A password on stdin creates and unlocks a fresh login keyring in a throw-away folder.
  eval "$(printf 'bosun-test-keyring' | HOME="$HOME_KEYRING_DIR" gnome-keyring-daemon --unlock --components=secrets 2>/dev/null)" || true
  export GNOME_KEYRING_CONTROL SSH_AUTH_SOCK 2>/dev/null || true
fi
exec "$@"
