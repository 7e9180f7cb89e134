# Installs what building and testing ScoreDesk needs, when it is missing.
# Source this file, then call ensure_build_environment.

# Debian packages: Tauri's WebKit and GTK, a virtual display, WebKit's WebDriver,
# PostgreSQL's server binaries for the test cluster; D-Bus for the keyring, and
# GNOME Keyring so that the window tests can use a real Secret Service; xmllint to
# validate served XML against its schema; Chromium and pdftotext to print pages;
# libjpeg-turbo's cjpeg, a JPEG encoder other than ours for the upload checks;
# img2pdf to make a scanner's PDF of a batch from scans, its JPEGs kept as they are
# (and python3-pil, which it brings, to code black-and-white pages in CCITT Group 4);
# sane-utils for scanimage, SANE's own front end, to write a scanner driver's PDF.
SYSTEM_PACKAGES=(
  build-essential pkg-config curl python3 python3-venv xauth xvfb
  libwebkit2gtk-4.1-dev libgtk-3-dev libsoup-3.0-dev librsvg2-dev libayatana-appindicator3-dev
  webkit2gtk-driver postgresql
  libdbus-1-dev dbus gnome-keyring
  libxml2-utils chromium poppler-utils libjpeg-turbo-progs img2pdf python3-pil sane-utils
)

# A cargo target directory that survives between runs (and between clones), so that
# only the first run pays for a cold build.
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$HOME/.cache/scoredesk/target}"
# No incremental compilation in these scripts: its caches grew a kept target
# directory by 22 GB over a few days of runs and filled the disk; the workspace's own
# crates rebuild in seconds without them.
export CARGO_INCREMENTAL="${CARGO_INCREMENTAL:-0}"
export PATH="$HOME/.cargo/bin:$PATH"

as_root() {
  if [ "$(id -u)" -eq 0 ]; then "$@"; else sudo "$@"; fi
}

ensure_system_packages() {
  local missing=() package
  for package in "${SYSTEM_PACKAGES[@]}"; do
    dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" || missing+=("$package")
  done
  command -v node >/dev/null && command -v npm >/dev/null || missing+=(nodejs npm)
  if [ ${#missing[@]} -gt 0 ]; then
    echo "installing Debian packages: ${missing[*]}"
    as_root apt-get update -qq
    as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
  fi
}

ensure_tauri_driver() {
  command -v tauri-driver >/dev/null || cargo install tauri-driver --locked
}

# cargo-machete: the test command fails on a dependency no source uses.
ensure_cargo_machete() {
  command -v cargo-machete >/dev/null || cargo install cargo-machete --version 0.9.2 --locked
}

# cargo-deb builds the server's Debian package (scripts/package).
ensure_cargo_deb() {
  command -v cargo-deb >/dev/null || cargo install cargo-deb --version 3.8.0 --locked
}

# The Tauri CLI for `tauri build` (scripts/package), in a directory of its own: kept
# out of ui/package-lock.json, where npm records only this platform's build of it and
# `npm ci` then refuses the lock file elsewhere.
TAURI_CLI_DIR="$HOME/.cache/scoredesk/tauri-cli-2.12.5"
ensure_tauri_cli() {
  if [ ! -x "$TAURI_CLI_DIR/node_modules/.bin/tauri" ]; then
    npm install --prefix "$TAURI_CLI_DIR" --no-package-lock --no-audit --no-fund @tauri-apps/cli@2.12.5
  fi
  export TAURI_CLI="$TAURI_CLI_DIR/node_modules/.bin/tauri"
}

ensure_ui_packages() {
  # npm ci when node_modules is missing or older than the lock file.
  if [ ! -d ui/node_modules ] || [ ui/package-lock.json -nt ui/node_modules/.package-lock.json ]; then
    (cd ui && npm ci --no-audit --no-fund)
  fi
}

# pyodata, a real OData client, in a private virtual environment for the tests.
PYODATA_VENV="$HOME/.cache/scoredesk/pyodata-1.12.1"
ensure_pyodata() {
  if [ ! -x "$PYODATA_VENV/bin/python" ] || ! "$PYODATA_VENV/bin/python" -c "import pyodata" 2>/dev/null; then
    python3 -m venv "$PYODATA_VENV"
    "$PYODATA_VENV/bin/pip" install --quiet pyodata==1.12.1 requests
  fi
  export SCOREDESK_PYODATA_PYTHON="$PYODATA_VENV/bin/python"
}

# datajs and breeze-client, the JavaScript OData clients of many existing apps, from
# npm (tests/odata-js), for the tests of $batch as they write it (issue 31).
ensure_odata_js() {
  local dir=tests/odata-js
  if [ ! -d "$dir/node_modules/breeze-client" ] || [ "$dir/package-lock.json" -nt "$dir/node_modules/.package-lock.json" ]; then
    (cd "$dir" && npm ci --silent --no-audit --no-fund)
  fi
  export SCOREDESK_ODATA_JS_DIR="$PWD/$dir"
}

# pyslet, an Atom OData client, in a private virtual environment for the tests of
# the Atom format (issue 19).
PYSLET_VENV="$HOME/.cache/scoredesk/pyslet-0.7.20170805"
ensure_pyslet() {
  if [ ! -x "$PYSLET_VENV/bin/python" ] || ! "$PYSLET_VENV/bin/python" -c "import pyslet.odata2.client" 2>/dev/null; then
    python3 -m venv "$PYSLET_VENV"
    "$PYSLET_VENV/bin/pip" install --quiet pyslet==0.7.20170805
  fi
  export SCOREDESK_PYSLET_PYTHON="$PYSLET_VENV/bin/python"
}

# Five third-party tools from PyPI for the import tests: qti-package-maker writes
# QTI 2.1 packages (as Blackboard exports them) and QTI 1.2 (Canvas's profile),
# citolab-qti-convert upgrades them to QTI 3.0, text2qti turns a plain-text quiz into
# a Canvas QTI 1.2 export, moodle_questions writes Moodle XML banks, moocloze writes
# Moodle cloze questions. Pinned, in a private virtual environment.
QTI_TOOLS_VENV="$HOME/.cache/scoredesk/qti-tools-26.7.14-0.2.0-t2q0.7.1-mq0.2.1-mc1.0.2"
ensure_qti_tools() {
  if [ ! -x "$QTI_TOOLS_VENV/bin/qti-convert" ] || [ ! -x "$QTI_TOOLS_VENV/bin/text2qti" ] \
    || ! "$QTI_TOOLS_VENV/bin/python" -c "import qti_package_maker, moodle_questions, moocloze" 2>/dev/null; then
    python3 -m venv "$QTI_TOOLS_VENV"
    "$QTI_TOOLS_VENV/bin/pip" install --quiet qti-package-maker==26.7.14 citolab-qti-convert==0.2.0 text2qti==0.7.1 moodle-questions==0.2.1 moocloze==1.0.2
  fi
  export SCOREDESK_QTI_PYTHON="$QTI_TOOLS_VENV/bin/python"
  export SCOREDESK_QTI_CONVERT="$QTI_TOOLS_VENV/bin/qti-convert"
}

# numpy and scipy from PyPI, pinned in a private virtual environment: the item
# analysis's figures are checked against them (server/tests/statistics_reference.rs).
STATS_TOOLS_VENV="$HOME/.cache/scoredesk/stats-tools-numpy2.1.3-scipy1.14.1-openpyxl3.1.5"
ensure_stats_tools() {
  if ! "$STATS_TOOLS_VENV/bin/python" -c "import numpy, scipy, openpyxl" 2>/dev/null; then
    python3 -m venv "$STATS_TOOLS_VENV"
    "$STATS_TOOLS_VENV/bin/pip" install --quiet numpy==2.1.3 scipy==1.14.1 openpyxl==3.1.5
  fi
  export SCOREDESK_STATS_PYTHON="$STATS_TOOLS_VENV/bin/python"
}

# scikit-learn and pingouin from PyPI, pinned in a private virtual environment:
# the agreement between markers is checked against their weighted kappa and ICC
# (server/tests/agreement_reference.rs).
AGREEMENT_TOOLS_VENV="$HOME/.cache/scoredesk/agreement-tools-scikit-learn1.5.2-pingouin0.5.5"
ensure_agreement_tools() {
  if ! "$AGREEMENT_TOOLS_VENV/bin/python" -c "import sklearn, pingouin" 2>/dev/null; then
    python3 -m venv "$AGREEMENT_TOOLS_VENV"
    "$AGREEMENT_TOOLS_VENV/bin/pip" install --quiet scikit-learn==1.5.2 pingouin==0.5.5
  fi
  export SCOREDESK_AGREEMENT_PYTHON="$AGREEMENT_TOOLS_VENV/bin/python"
}

# Every change of a test's code links a new test binary of a few hundred MB beside
# the old ones, which cargo never removes: the shared target directory filled the
# disk twice (63 GB of them; then, in one day of work, 17 GB of binaries older than
# 90 minutes). Those untouched for four hours are removed; cargo links a missing
# one again when it is needed.
prune_stale_test_binaries() {
  local deps="$CARGO_TARGET_DIR/debug/deps"
  [ -d "$deps" ] || return 0
  find "$deps" -maxdepth 1 -type f -executable ! -name '*.so' -mmin +240 -delete
}

ensure_build_environment() {
  prune_stale_test_binaries
  ensure_system_packages
  ensure_tauri_driver
  ensure_ui_packages
}

# step NAME COMMAND...: runs a step and says how long it took.
step() {
  local name=$1; shift
  local started=$SECONDS
  echo "==> $name"
  "$@"
  echo "<== $name ($((SECONDS - started)) s)"
}
