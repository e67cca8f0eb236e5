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
  # The folders made here are removed when the command ends (they were left in /tmp, two a run).
  made=()
  if [ -z "${XDG_RUNTIME_DIR:-}" ]; then
    XDG_RUNTIME_DIR="$(mktemp -d)"
    made+=("$XDG_RUNTIME_DIR")
    export XDG_RUNTIME_DIR
  fi
  HOME_KEYRING_DIR="$(mktemp -d)"
  made+=("$HOME_KEYRING_DIR")
  export HOME_KEYRING_DIR
  trap 'rm -rf "${made[@]}"' EXIT
  trap 'exit 130' INT
  trap 'exit 143' TERM
  # A password on stdin creates and unlocks a fresh login keyring in a throw-away folder.
  eval "$(printf 'bosun-test-keyring' | HOME="$HOME_KEYRING_DIR" gnome-keyring-daemon --unlock --components=secrets 2>/dev/null)" || true
  export GNOME_KEYRING_CONTROL SSH_AUTH_SOCK 2>/dev/null || true
  # Not exec: this shell stays to remove the folders, and passes the command's status on.
  status=0
  "$@" || status=$?
  exit "$status"
fi
exec "$@"
