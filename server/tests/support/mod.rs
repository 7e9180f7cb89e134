//! What the binary's tests share: running the real `scoredesk-server` as an operator
//! does, and serving with it until the test ends.

#![allow(dead_code)]

use std::io::Write;
use std::net::TcpListener;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

pub const BINARY: &str = env!("CARGO_BIN_EXE_scoredesk-server");

/// Runs the binary with `args` on `database_url`, `stdin` written to it.
fn output_of(database_url: &str, args: &[&str], stdin: Option<&str>) -> std::process::Output {
    let mut child = Command::new(BINARY)
        .arg("--database-url")
        .arg(database_url)
        .args(args)
        .env_remove("SCOREDESK_PASSWORD")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary starts");
    if let Some(input) = stdin {
        child
            .stdin
            .take()
            .expect("stdin")
            .write_all(input.as_bytes())
            .expect("writing stdin");
    }
    drop(child.stdin.take());
    child.wait_with_output().expect("the binary finishes")
}

/// Runs a command that must succeed; returns what it printed.
pub fn run(database_url: &str, args: &[&str], stdin: Option<&str>) -> String {
    let output = output_of(database_url, args, stdin);
    assert!(
        output.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8(output.stdout).expect("UTF-8 output")
}

/// Runs a command that must fail; returns what it said on standard error.
pub fn run_refused(database_url: &str, args: &[&str], stdin: Option<&str>) -> String {
    let output = output_of(database_url, args, stdin);
    assert!(!output.status.success(), "{args:?} must fail");
    String::from_utf8_lossy(&output.stderr).into_owned()
}

pub struct Server(pub Child);

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

pub fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .expect("port 0")
        .local_addr()
        .expect("address")
        .port()
}

pub async fn wait_until_healthy(base: &str) {
    let deadline = Instant::now() + Duration::from_secs(30);
    // The server is a separate process: poll its health check (a connection refused
    // means it is still starting), never a fixed sleep.
    while Instant::now() < deadline {
        if let Ok(response) = reqwest::get(format!("{base}/health")).await {
            if response.status().is_success() {
                return;
            }
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    panic!("the server did not become healthy at {base}");
}

impl Server {
    /// `serve` on a free port with `config` (a TOML file's text) and the database at
    /// `database_url`; returns once the health check answers, with the base URL.
    pub async fn start(database_url: &str, config: &str, dir: &Path) -> (Self, String) {
        Self::start_logging(database_url, config, dir, None).await
    }

    /// As [`Server::start`], its log (at `info`) written to `log` when given.
    pub async fn start_logging(
        database_url: &str,
        config: &str,
        dir: &Path,
        log: Option<&Path>,
    ) -> (Self, String) {
        let config_file = dir.join("scoredesk.toml");
        std::fs::write(&config_file, config).expect("writing the configuration");
        let port = free_port();
        let server = Server(
            Command::new(BINARY)
                .arg("--config")
                .arg(&config_file)
                .args([
                    "--database-url",
                    database_url,
                    "serve",
                    "--bind",
                    &format!("127.0.0.1:{port}"),
                ])
                .env("RUST_LOG", if log.is_some() { "info" } else { "warn" })
                .stdout(Stdio::null())
                .stderr(log.map_or_else(Stdio::null, |path| {
                    Stdio::from(std::fs::File::create(path).expect("the log file"))
                }))
                .spawn()
                .expect("serve starts"),
        );
        let base = format!("http://127.0.0.1:{port}");
        wait_until_healthy(&base).await;
        (server, base)
    }

    /// The most memory the process has held so far (VmHWM), in bytes.
    pub fn peak_memory(&self) -> u64 {
        let status = std::fs::read_to_string(format!("/proc/{}/status", self.0.id()))
            .expect("the server's /proc status");
        let line = status
            .lines()
            .find(|line| line.starts_with("VmHWM:"))
            .expect("VmHWM in /proc status");
        let kib: u64 = line
            .split_whitespace()
            .nth(1)
            .and_then(|n| n.parse().ok())
            .expect("a number of kB");
        kib * 1024
    }

    /// The threads the process runs now.
    pub fn threads(&self) -> u64 {
        let status = std::fs::read_to_string(format!("/proc/{}/status", self.0.id()))
            .expect("the server's /proc status");
        status
            .lines()
            .find_map(|line| line.strip_prefix("Threads:"))
            .and_then(|n| n.trim().parse().ok())
            .expect("Threads in /proc status")
    }
}

/// An area with one scorer account, made through the command line; returns the area.
pub fn area_with_account(database_url: &str, username: &str, password: &str) -> i32 {
    run(database_url, &["migrate"], None);
    let area: i32 = run(database_url, &["customer", "add", "--name", "Limits"], None)
        .trim()
        .parse()
        .expect("an area ID");
    add_scorer(database_url, area, username, password);
    area
}

/// Another scorer account in `area`.
pub fn add_scorer(database_url: &str, area: i32, username: &str, password: &str) {
    add_account(database_url, area, username, password, "scorer");
}

/// An account of `role` in `area`.
pub fn add_account(database_url: &str, area: i32, username: &str, password: &str, role: &str) {
    run(
        database_url,
        &[
            "account",
            "add",
            "--username",
            username,
            "--customer",
            &area.to_string(),
            "--role",
            role,
        ],
        Some(password),
    );
}
