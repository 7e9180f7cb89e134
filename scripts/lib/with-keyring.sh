#!/usr/bin/env bash
# Runs a command with a real Secret Service: GNOME Keyring on this D-Bus session
# (start it with dbus-run-session), unlocked with a throwaway password and kept in
# temporary directories, so that the app's keyring code is tested against the real
# thing and nothing touches the user's own keyring.
#   dbus-run-session -- scripts/lib/with-keyring.sh COMMAND...
set -euo pipefail
keyring_home="$(mktemp -d)"
trap 'rm -rf "$keyring_home"' EXIT
export XDG_DATA_HOME="$keyring_home/data" XDG_RUNTIME_DIR="$keyring_home/run"
mkdir -p "$XDG_DATA_HOME" "$XDG_RUNTIME_DIR"
chmod 700 "$XDG_RUNTIME_DIR"
printf 'throwaway' | gnome-keyring-daemon --unlock --components=secrets >/dev/null
export SCOREDESK_TEST_KEYRING=1
"$@"
