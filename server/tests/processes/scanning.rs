//! `scoredesk-server sheets scan` as an operator types it: what the `sheets scan`
//! tests share.

use std::path::Path;
use std::process::{Command, Output};

use scoredesk_e2e::TestApp;

/// The command reading the scans in `dir` for print batch `batch` of Northwind,
/// with the coordinator's `decisions` file when there is one.
pub fn sheets_scan(app: &TestApp, dir: &Path, batch: i64, decisions: Option<&Path>) -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_scoredesk-server"));
    command
        .arg("--database-url")
        .arg(app.database_url())
        .env_remove("SCOREDESK_CONFIG")
        .args(["sheets", "scan"])
        .arg(dir)
        .args([
            "--customer",
            &app.northwind().to_string(),
            "--batch",
            &batch.to_string(),
        ]);
    if let Some(file) = decisions {
        command.arg("--decisions").arg(file);
    }
    command
}

/// What a run printed, its standard output then its errors.
pub fn said(output: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    )
}
