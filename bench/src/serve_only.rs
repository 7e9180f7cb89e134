//! `--serve-only`: ours and the bare handler started as a measurement starts them,
//! on a copy of one database, serving until the process is killed, so that a
//! profiler watches both in this one process with its allocator
//! (`scripts/profile --beside-bare`).

use std::io::Write;
use std::path::Path;

use crate::{copy, settle, start};

/// Serves both on a copy of the SQLite file or the PostgreSQL database given (one
/// of the two); prints `ours=ROOT` and `bare=ROOT` once both answer.
pub async fn run(sqlite: Option<&Path>, postgres: Option<&str>) -> anyhow::Result<()> {
    let url = match (sqlite, postgres) {
        (Some(file), None) => copy::sqlite(file).await?,
        (None, Some(url)) => copy::postgres(url).await?,
        _ => anyhow::bail!("--serve-only serves one database: give --sqlite or --postgres"),
    };
    let (ours, theirs, customer, database, _store) = start(&url).await?;
    settle(&database).await?;
    println!("ours={ours}/deliveryodata/{customer}");
    println!("bare={theirs}");
    std::io::stdout().flush()?;
    std::future::pending::<()>().await;
    Ok(())
}
