#!/usr/bin/env bash
# Checks the desktop app's Debian package (argument: the .deb): the binary, its
# launcher and icons, its dependencies on WebKitGTK, and that every library the
# binary needs resolves on this machine.
set -euo pipefail
deb=$1
fail() { echo "FAIL: $*" >&2; exit 1; }

# Paths as installed (dpkg-deb lists them with or without a leading ./).
files=$(dpkg-deb -c "$deb" | awk '{print $6}' | sed 's|^\./||; s|^|/|')
binary=$(grep -E '^/usr/bin/.' <<<"$files" | head -1) || fail "$deb installs no binary"
grep -qE '^/usr/share/applications/.*\.desktop$' <<<"$files" || fail "$deb installs no launcher"
grep -qE '^/usr/share/icons/hicolor/.*\.png$' <<<"$files" || fail "$deb installs no icon"
control=$(dpkg-deb -f "$deb")
grep -q '^Depends:.*libwebkit2gtk-4.1-0' <<<"$control" || fail "no dependency on WebKitGTK: $control"

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
dpkg-deb -x "$deb" "$work/root"
launcher=$(find "$work/root/usr/share/applications" -name '*.desktop' | head -1)
exec_line=$(sed -n 's/^Exec=//p' "$launcher")
[ -x "$work/root/usr/bin/${exec_line%% *}" ] || fail "the launcher runs ${exec_line}, which the package does not install"
missing=$(ldd "$work/root$binary" | grep 'not found' || true)
[ -z "$missing" ] || fail "libraries not found: $missing"
echo "desktop package: $binary, its launcher, icons and libraries checked"
