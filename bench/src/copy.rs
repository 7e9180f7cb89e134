//! A fresh copy of the seeded database for each run: the scoring round trips score
//! 20,000 tasks, and a run must start from the same state as the last, so that
//! figures compare and a decay is the code's, not the leftovers' of earlier runs.

use std::path::Path;

use anyhow::Context;
use sqlx::Connection;

/// Copies the SQLite file (checkpointed first) beside itself; returns the copy's URL.
pub async fn sqlite(file: &Path) -> anyhow::Result<String> {
    let mut connection =
        sqlx::SqliteConnection::connect(&format!("sqlite:{}", file.display())).await?;
    sqlx::query("PRAGMA wal_checkpoint(TRUNCATE)")
        .execute(&mut connection)
        .await?;
    connection.close().await?;
    let copy = file.with_extension("run.db");
    for suffix in ["-wal", "-shm"] {
        let _ = std::fs::remove_file(format!("{}{suffix}", copy.display()));
    }
    std::fs::copy(file, &copy).with_context(|| format!("copying {}", file.display()))?;
    Ok(format!("sqlite:{}", copy.display()))
}

/// Makes `<name>_run` from the seeded database `url` names, as a template; returns
/// the copy's URL.
pub async fn postgres(url: &str) -> anyhow::Result<String> {
    let (server, name) = url
        .rsplit_once('/')
        .context("a database URL ends in /NAME")?;
    let run = format!("{name}_run");
    let mut connection = sqlx::PgConnection::connect(&format!("{server}/postgres")).await?;
    sqlx::query(&format!("DROP DATABASE IF EXISTS \"{run}\""))
        .execute(&mut connection)
        .await?;
    sqlx::query(&format!("CREATE DATABASE \"{run}\" TEMPLATE \"{name}\""))
        .execute(&mut connection)
        .await?;
    connection.close().await?;
    Ok(format!("{server}/{run}"))
}
