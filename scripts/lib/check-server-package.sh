#!/usr/bin/env bash
# Checks the server's Debian package (argument: the .deb): its control data, the
# files it installs, its unit file, and the server it holds started as the unit
# starts it, on a fresh SQLite database with the demo data.
set -euo pipefail
deb=$1
fail() { echo "FAIL: $*" >&2; exit 1; }

# Paths as installed (dpkg-deb lists them with or without a leading ./).
files=$(dpkg-deb -c "$deb" | awk '{print $6}' | sed 's|^\./||; s|^|/|')
for expected in /usr/bin/scoredesk-server /etc/scoredesk/scoredesk.toml \
  /usr/share/doc/scoredesk-server/operations.md; do
  grep -qx "$expected" <<<"$files" || fail "$deb does not install $expected"
done
unit_path=$(grep -E '^/(usr/)?lib/systemd/system/scoredesk-server\.service$' <<<"$files") \
  || fail "$deb installs no systemd unit"
control=$(dpkg-deb -f "$deb")
grep -q '^Depends:.*adduser' <<<"$control" || fail "the package does not depend on adduser"
grep -q '^Depends:.*libc6' <<<"$control" || fail "the package's library dependencies are missing"

work=$(mktemp -d)
trap 'kill "${server_pid:-}" 2>/dev/null || true; rm -rf "$work"' EXIT
dpkg-deb -x "$deb" "$work/root"
dpkg-deb -e "$deb" "$work/control"
grep -qx '/etc/scoredesk/scoredesk.toml' "$work/control/conffiles" \
  || fail "the configuration is not a conffile (an upgrade would overwrite it)"
for script in postinst postrm prerm; do
  [ ! -e "$work/control/$script" ] || sh -n "$work/control/$script" || fail "$script is not valid sh"
done
# The user and its directory come first: the unit is started at the end of postinst.
user_line=$(grep -n 'adduser --system' "$work/control/postinst" | cut -d: -f1) \
  || fail "postinst creates no system user"
start_line=$(grep -n 'deb-systemd-invoke' "$work/control/postinst" | head -1 | cut -d: -f1)
[ -n "$start_line" ] && [ "$user_line" -lt "$start_line" ] \
  || fail "postinst starts the unit before it creates its user"
grep -q 'systemctl\|deb-systemd-helper' "$work/control/postinst" \
  || fail "postinst does not enable the unit"
unit="$work/root/$unit_path"
grep -q '^User=scoredesk$' "$unit" || fail "the unit does not run as the scoredesk user"
grep -q '^StateDirectory=scoredesk$' "$unit" || fail "the unit has no /var/lib/scoredesk"

# systemd's own check of the unit, with the packaged binary where the unit expects it.
exec_start=$(sed -n 's/^ExecStart=//p' "$unit")
binary=${exec_start%% *}
sed "s|$binary|$work/root$binary|" "$unit" > "$work/scoredesk-server.service"
if systemd-analyze --version >/dev/null 2>&1; then
  verify=$(systemd-analyze verify "$work/scoredesk-server.service" 2>&1) || fail "systemd-analyze verify: $verify"
  ! grep -qi 'scoredesk-server.service' <<<"$verify" || fail "systemd-analyze verify: $verify"
  echo "systemd-analyze verify: the unit is valid"
fi

# The server as the unit starts it: its ExecStart, with the packaged binary and
# configuration, the database and address moved into the scratch directory.
args=${exec_start#"$binary"}
args=${args//\/etc\/scoredesk/$work/root/etc/scoredesk}
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
export SCOREDESK_DATABASE_URL="sqlite:$work/scoredesk.db" SCOREDESK_BIND="127.0.0.1:$port"
# shellcheck disable=SC2086 # the unit's arguments, split as systemd splits them
"$work/root$binary" ${args/ serve/ seed --demo} > "$work/seed.log"
# shellcheck disable=SC2086
"$work/root$binary" $args 2> "$work/server.log" &
server_pid=$!
for _ in $(seq 1 100); do
  curl -fsS "http://127.0.0.1:$port/health" > "$work/health.json" 2>/dev/null && break
  sleep 0.1
done
grep -q '"status":"ok"' "$work/health.json" || fail "/health: $(cat "$work/health.json" "$work/server.log")"
area=$(sed -n 's/.*customer areas \[\([0-9]*\),.*/\1/p' "$work/seed.log")
count=$(curl -fsS -u northwind-admin:scoredesk-demo \
  "http://127.0.0.1:$port/deliveryodata/$area/ScoringTasks/\$count")
[ "$count" -gt 0 ] || fail "the demo's scoring tasks: $count"
grep -q '"message":"serving"' "$work/server.log" || fail "the log is not the configured JSON"
kill -TERM "$server_pid"
wait "$server_pid" || fail "the server did not exit cleanly on SIGTERM"
echo "server package: files, control data and unit checked; /health ok; $count demo scoring tasks served"
