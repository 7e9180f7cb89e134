# Starts a private PostgreSQL cluster for the tests and removes it on exit.
# Source this file, then call start_private_postgres; it exports SCOREDESK_TEST_PG_URL.

pg_bin_dir() {
  local dir
  for dir in /usr/lib/postgresql/*/bin; do
    [ -x "$dir/initdb" ] && { echo "$dir"; return 0; }
  done
  return 1
}

free_port() {
  python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1]); s.close()'
}

start_private_postgres() {
  local bin
  bin=$(pg_bin_dir) || { echo "PostgreSQL server binaries are missing" >&2; return 1; }
  # PostgreSQL refuses to run as root: use an unprivileged system account.
  local user=scoredesk-pg
  id -u "$user" >/dev/null 2>&1 || useradd --system --no-create-home --shell /usr/sbin/nologin "$user"
  PG_DIR=$(mktemp -d /tmp/scoredesk-pg.XXXXXX)
  chown "$user" "$PG_DIR"
  local port; port=$(free_port)
  runuser -u "$user" -- "$bin/initdb" -D "$PG_DIR/data" -U postgres -A trust --no-sync -E UTF8 >"$PG_DIR/initdb.log" 2>&1 \
    || { cat "$PG_DIR/initdb.log" >&2; return 1; }
  # Durability is worthless for a throwaway cluster; speed is not.
  runuser -u "$user" -- "$bin/pg_ctl" -D "$PG_DIR/data" -l "$PG_DIR/server.log" -w start \
    -o "-c listen_addresses=127.0.0.1 -p $port -k $PG_DIR -c max_connections=400 -c fsync=off -c synchronous_commit=off -c full_page_writes=off" \
    >/dev/null || { cat "$PG_DIR/server.log" >&2; return 1; }
  PG_BIN=$bin
  PG_USER=$user
  export SCOREDESK_TEST_PG_URL="postgres://postgres@127.0.0.1:$port/postgres"
  trap stop_private_postgres EXIT
  echo "private PostgreSQL on port $port ($PG_DIR)"
}

stop_private_postgres() {
  if [ -n "${PG_DIR:-}" ] && [ -d "$PG_DIR" ]; then
    runuser -u "$PG_USER" -- "$PG_BIN/pg_ctl" -D "$PG_DIR/data" -m immediate stop >/dev/null 2>&1 || true
    rm -rf "$PG_DIR"
  fi
}

# Starts (creating it the first time) the benchmarks' PostgreSQL cluster in $1, kept
# between runs as the SQLite benchmark file is, so that its 1,000,000 rows are seeded
# once. Durable as an operator would run it (fsync on), with commits acknowledged
# before they are flushed (synchronous_commit off), which is what SQLite's WAL with
# synchronous=NORMAL does too. Exports SCOREDESK_BENCH_PG_URL; stopped on exit.
start_bench_postgres() {
  local dir=$1 bin
  bin=$(pg_bin_dir) || { echo "PostgreSQL server binaries are missing" >&2; return 1; }
  local user=scoredesk-pg
  id -u "$user" >/dev/null 2>&1 || useradd --system --no-create-home --shell /usr/sbin/nologin "$user"
  mkdir -p "$dir"
  chown "$user" "$dir"
  if [ ! -f "$dir/data/PG_VERSION" ]; then
    runuser -u "$user" -- "$bin/initdb" -D "$dir/data" -U postgres -A trust -E UTF8 >"$dir/initdb.log" 2>&1 \
      || { cat "$dir/initdb.log" >&2; return 1; }
  fi
  # A cluster an interrupted run left running is stopped first: its port is unknown.
  if runuser -u "$user" -- "$bin/pg_ctl" -D "$dir/data" status >/dev/null 2>&1; then
    runuser -u "$user" -- "$bin/pg_ctl" -D "$dir/data" -m fast stop >/dev/null
  fi
  local port; port=$(free_port)
  runuser -u "$user" -- "$bin/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w start \
    -o "-c listen_addresses=127.0.0.1 -p $port -k $dir -c max_connections=200 -c synchronous_commit=off -c shared_buffers=512MB -c log_autovacuum_min_duration=0" \
    >/dev/null || { cat "$dir/server.log" >&2; return 1; }
  BENCH_PG_DIR=$dir
  PG_BIN=$bin
  PG_USER=$user
  export SCOREDESK_BENCH_PG_URL="postgres://postgres@127.0.0.1:$port/postgres"
  trap stop_bench_postgres EXIT
  echo "benchmark PostgreSQL on port $port ($dir)"
}

stop_bench_postgres() {
  if [ -n "${BENCH_PG_DIR:-}" ]; then
    runuser -u "$PG_USER" -- "$PG_BIN/pg_ctl" -D "$BENCH_PG_DIR/data" -m fast stop >/dev/null 2>&1 || true
  fi
}
