//! An operator importing a QTI package (made by qti-package-maker) with the CLI
//! every five minutes, into a new customer area each time so that every import
//! writes, while the server runs on the same database.

use std::path::PathBuf;
use std::sync::Arc;

use super::Load;
use crate::ledger::lock;
use crate::server::Server;

pub async fn run(load: Arc<Load>, server: Arc<Server>, package: PathBuf) {
    let mut n = 0;
    load.pause(60_000, 60_000).await;
    while !load.stopping() {
        n += 1;
        match import(&server, &package, n).await {
            Ok(imported) => lock(&load.ledger.imports).push(imported),
            Err(error) => load.recorder.fail(format!("import {n}: {error:#}")),
        }
        load.pause(300_000, 300_000).await;
    }
}

/// The new area and the questions the CLI says it created there.
async fn import(
    server: &Server,
    package: &std::path::Path,
    n: usize,
) -> anyhow::Result<(i32, usize)> {
    let begun = std::time::Instant::now();
    let area: i32 = server
        .cli(&[
            "customer".into(),
            "add".into(),
            "--name".into(),
            format!("Soak import {n}"),
        ])
        .await?
        .trim()
        .parse()?;
    let report = server
        .cli(&[
            "import".into(),
            "qti".into(),
            package.display().to_string(),
            "--customer".into(),
            area.to_string(),
        ])
        .await?;
    let created = report
        .lines()
        .filter(|line| {
            line.trim_start()
                .split(". question ")
                .nth(1)
                .is_some_and(|rest| rest.split_whitespace().nth(1) == Some("created"))
        })
        .count();
    anyhow::ensure!(created > 0, "the import created no question:\n{report}");
    eprintln!(
        "import {n}: {created} questions in area {area}, {:.1} s",
        begun.elapsed().as_secs_f64()
    );
    Ok((area, created))
}
