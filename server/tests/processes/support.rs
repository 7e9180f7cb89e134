//! The `scoredesk-server` binary run as an operator runs it: `serve` on a port the
//! system picks, with JSON logs, read back from its standard error.

use std::process::{ExitStatus, Stdio};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use tokio::io::{AsyncBufReadExt, BufReader};
use tokio::process::{Child, Command};
use tokio::sync::oneshot;

/// One running `scoredesk-server serve`, killed when dropped.
pub struct ServerProcess {
    child: Child,
    /// `http://127.0.0.1:<port>`, as the process logged it.
    pub address: String,
    log: Arc<Mutex<Vec<String>>>,
}

impl ServerProcess {
    /// Starts `serve` on `database_url` with `settings` as `SCOREDESK_*` variables,
    /// and waits until it logs the address it listens on.
    pub async fn start(database_url: &str, settings: &[(&str, &str)]) -> Self {
        Self::start_wrapped(database_url, settings, &[]).await
    }

    /// As [`ServerProcess::start`], run by `wrapper` (a command and its arguments
    /// that end by running the binary and `serve`'s arguments they are given, such
    /// as `unshare ... sh -c '...; exec "$@"' sh`). The process keeps the wrapper's
    /// PID when the wrapper `exec`s.
    pub async fn start_wrapped(
        database_url: &str,
        settings: &[(&str, &str)],
        wrapper: &[&str],
    ) -> Self {
        let binary = env!("CARGO_BIN_EXE_scoredesk-server");
        let mut command = match wrapper.split_first() {
            None => Command::new(binary),
            Some((program, args)) => {
                let mut command = Command::new(program);
                command.args(args).arg(binary);
                command
            }
        };
        command
            .args(["serve", "--bind", "127.0.0.1:0"])
            .env_remove("SCOREDESK_CONFIG")
            .env("SCOREDESK_DATABASE_URL", database_url)
            .env("SCOREDESK_LOG_FORMAT", "json")
            .env("RUST_LOG", "info,sqlx=warn")
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .kill_on_drop(true);
        for (name, value) in settings {
            command.env(format!("SCOREDESK_{}", name.to_uppercase()), value);
        }
        let mut child = command.spawn().expect("scoredesk-server starts");
        let stderr = child.stderr.take().expect("standard error is piped");
        let log = Arc::new(Mutex::new(Vec::new()));
        let (found, address) = oneshot::channel();
        let kept = Arc::clone(&log);
        tokio::spawn(async move {
            let mut found = Some(found);
            let mut lines = BufReader::new(stderr).lines();
            while let Ok(Some(line)) = lines.next_line().await {
                if let Some(address) = serving_address(&line) {
                    if let Some(found) = found.take() {
                        let _ = found.send(address);
                    }
                }
                kept.lock().expect("the log lock").push(line);
            }
        });
        let address = match tokio::time::timeout(Duration::from_secs(120), address).await {
            Ok(Ok(address)) => address,
            _ => panic!(
                "scoredesk-server did not log its address; its log:\n{}",
                log.lock().expect("the log lock").join("\n")
            ),
        };
        Self {
            child,
            address: format!("http://{address}"),
            log,
        }
    }

    pub fn url(&self, path: &str) -> String {
        format!("{}{path}", self.address)
    }

    /// What the process has logged so far, one JSON object a line.
    pub fn log(&self) -> Vec<String> {
        self.log.lock().expect("the log lock").clone()
    }

    /// Sends SIGTERM, as systemd and container runtimes stop a service.
    pub async fn terminate(&self) {
        let pid = self.child.id().expect("the process is running");
        let status = Command::new("kill")
            .args(["-TERM", &pid.to_string()])
            .status()
            .await
            .expect("kill runs");
        assert!(status.success(), "kill -TERM {pid}");
    }

    pub fn pid(&self) -> u32 {
        self.child.id().expect("the process is running")
    }

    /// Kills the process at once (SIGKILL): a crash, with no chance to finish
    /// anything.
    pub async fn kill(&mut self) {
        self.child.kill().await.expect("the process is killed");
    }

    /// Waits for the process to exit, for at most `limit`.
    pub async fn exit_within(&mut self, limit: Duration) -> ExitStatus {
        match tokio::time::timeout(limit, self.child.wait()).await {
            Ok(status) => status.expect("waiting for the process"),
            Err(_) => panic!(
                "scoredesk-server still runs after {limit:?}; its log:\n{}",
                self.log().join("\n")
            ),
        }
    }
}

/// The address in the `serving` line of the JSON log (`App::serve`).
fn serving_address(line: &str) -> Option<String> {
    let entry: serde_json::Value = serde_json::from_str(line).ok()?;
    if entry["fields"]["message"] != "serving" {
        return None;
    }
    entry["fields"]["address"].as_str().map(str::to_owned)
}

/// Plain SQL on a test's database, beside the servers: `sqlite:` or PostgreSQL.
pub enum Sql {
    Sqlite(sqlx::SqlitePool),
    Postgres(sqlx::PgPool),
}

impl Sql {
    pub async fn connect(url: &str) -> Self {
        if url.starts_with("sqlite:") {
            Sql::Sqlite(
                sqlx::SqlitePool::connect(url)
                    .await
                    .expect("the SQLite file opens"),
            )
        } else {
            Sql::Postgres(
                sqlx::PgPool::connect(url)
                    .await
                    .expect("PostgreSQL answers"),
            )
        }
    }

    /// Waits until no session of a `scoredesk-server` on this PostgreSQL database
    /// is running a statement or has a transaction open (at most 20 s). A process
    /// killed after sending COMMIT leaves PostgreSQL to finish that transaction:
    /// until then, what a check reads may change between two statements. Idle
    /// sessions (the test's own store's) cannot commit anything. Nothing to wait
    /// for on SQLite.
    pub async fn wait_for_servers_transactions_to_end(&self) {
        let Sql::Postgres(pool) = self else { return };
        let busy = format!(
            "SELECT COUNT(*) FROM pg_stat_activity WHERE datname = current_database() \
             AND application_name = '{}' AND state <> 'idle'",
            scoredesk_server::store::APPLICATION_NAME
        );
        for _ in 0..200 {
            let sessions: i64 = sqlx::query_scalar(&busy).fetch_one(pool).await.unwrap();
            if sessions == 0 {
                return;
            }
            tokio::time::sleep(std::time::Duration::from_millis(100)).await;
        }
        panic!("a killed server's PostgreSQL transactions still open after 20 s");
    }

    pub async fn execute(&self, sql: &str) {
        match self {
            Sql::Sqlite(pool) => drop(sqlx::query(sql).execute(pool).await.expect(sql)),
            Sql::Postgres(pool) => drop(sqlx::query(sql).execute(pool).await.expect(sql)),
        }
    }

    /// The one BIGINT `sql` selects.
    pub async fn scalar(&self, sql: &str) -> i64 {
        match self {
            Sql::Sqlite(pool) => sqlx::query_scalar(sql).fetch_one(pool).await.expect(sql),
            Sql::Postgres(pool) => sqlx::query_scalar(sql).fetch_one(pool).await.expect(sql),
        }
    }

    /// The BIGINT pairs `sql` selects.
    pub async fn pairs(&self, sql: &str) -> Vec<(i64, Option<i64>)> {
        match self {
            Sql::Sqlite(pool) => sqlx::query_as(sql).fetch_all(pool).await.expect(sql),
            Sql::Postgres(pool) => sqlx::query_as(sql).fetch_all(pool).await.expect(sql),
        }
    }

    pub async fn close(self) {
        match self {
            Sql::Sqlite(pool) => pool.close().await,
            Sql::Postgres(pool) => pool.close().await,
        }
    }
}
