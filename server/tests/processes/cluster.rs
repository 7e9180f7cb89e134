//! A PostgreSQL cluster of a test's own, which it may stop and start again: the
//! tests' shared cluster serves every other test meanwhile. Run by an unprivileged
//! system account when the tests run as root (PostgreSQL refuses root), as
//! scripts/lib/postgres.sh runs the shared one.

use std::path::{Path, PathBuf};
use std::process::Command;

pub struct Cluster {
    dir: tempfile::TempDir,
    bin: PathBuf,
    pub port: u16,
}

const USER: &str = "scoredesk-pg";

fn running_as_root() -> bool {
    Command::new("id")
        .arg("-u")
        .output()
        .is_ok_and(|o| String::from_utf8_lossy(&o.stdout).trim() == "0")
}

/// `program args`, as the cluster's owner.
fn as_owner(program: &Path, args: &[&str]) -> Command {
    if running_as_root() {
        let mut command = Command::new("runuser");
        command.args(["-u", USER, "--"]).arg(program).args(args);
        command
    } else {
        let mut command = Command::new(program);
        command.args(args);
        command
    }
}

fn postgres_bin() -> PathBuf {
    let mut found: Vec<PathBuf> = std::fs::read_dir("/usr/lib/postgresql")
        .expect("PostgreSQL's server binaries (scripts/test installs them)")
        .filter_map(|entry| entry.ok().map(|e| e.path().join("bin")))
        .filter(|bin| bin.join("initdb").exists())
        .collect();
    found.sort();
    found.pop().expect("an initdb under /usr/lib/postgresql")
}

impl Cluster {
    pub fn start() -> Cluster {
        let dir = tempfile::Builder::new()
            .prefix("scoredesk-fault-pg")
            .tempdir()
            .unwrap();
        if running_as_root() {
            let owned = Command::new("chown")
                .arg(USER)
                .arg(dir.path())
                .status()
                .unwrap();
            assert!(owned.success(), "chown {USER}");
        }
        let bin = postgres_bin();
        let data = dir.path().join("data");
        let out = as_owner(
            &bin.join("initdb"),
            &[
                "-D",
                data.to_str().unwrap(),
                "-U",
                "postgres",
                "-A",
                "trust",
                "--no-sync",
                "-E",
                "UTF8",
            ],
        )
        .output()
        .unwrap();
        assert!(
            out.status.success(),
            "initdb: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        let port = std::net::TcpListener::bind("127.0.0.1:0")
            .unwrap()
            .local_addr()
            .unwrap()
            .port();
        let cluster = Cluster { dir, bin, port };
        cluster.start_again();
        cluster
    }

    fn data(&self) -> String {
        self.dir.path().join("data").display().to_string()
    }

    pub fn url(&self, database: &str) -> String {
        format!("postgres://postgres@127.0.0.1:{}/{database}", self.port)
    }

    /// Starts the stopped cluster on its port, and waits until it takes connections.
    pub fn start_again(&self) {
        let log = self.dir.path().join("server.log").display().to_string();
        let options = format!(
            "-c listen_addresses=127.0.0.1 -p {} -k {} -c fsync=off -c full_page_writes=off",
            self.port,
            self.dir.path().display()
        );
        let out = as_owner(
            &self.bin.join("pg_ctl"),
            &[
                "-D",
                &self.data(),
                "-l",
                &log,
                "-w",
                "start",
                "-o",
                &options,
            ],
        )
        .output()
        .unwrap();
        assert!(
            out.status.success(),
            "pg_ctl start: {}{}",
            String::from_utf8_lossy(&out.stderr),
            std::fs::read_to_string(&log).unwrap_or_default()
        );
    }

    /// Stops the cluster as an operator's restart does: `pg_ctl stop -m fast`
    /// ends every session (57P01) and rolls back their open transactions.
    pub fn stop(&self) {
        let out = as_owner(
            &self.bin.join("pg_ctl"),
            &["-D", &self.data(), "-m", "fast", "-w", "stop"],
        )
        .output()
        .unwrap();
        assert!(
            out.status.success(),
            "pg_ctl stop: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
}

impl Drop for Cluster {
    fn drop(&mut self) {
        let _ = as_owner(
            &self.bin.join("pg_ctl"),
            &["-D", &self.data(), "-m", "immediate", "stop"],
        )
        .output();
    }
}
