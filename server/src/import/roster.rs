//! Bringing a school's roster in (docs/rosters.md): the file read
//! (documents::roster), planned (model::roster) and applied in one transaction
//! (store), or previewed: applied, counted and rolled back. A problem with the
//! file or a conflict with what is stored leaves everything as it was.

use std::path::Path;

use crate::documents::roster::{read_roster, read_roster_bytes, RosterSource};
use crate::model::area::CustomerArea;
use crate::model::roster::{RosterCounts, RosterPlan, RosterProblem};
use crate::store::{RosterApplied, Store, StoreError};

use super::Mode;

/// Why a roster stored nothing.
#[derive(Debug, thiserror::Error)]
pub enum RosterError {
    /// The file is malformed: the file, line and column, and what is wrong there.
    #[error(transparent)]
    File(#[from] RosterProblem),
    /// A record conflicts with what the area holds.
    #[error("{0}")]
    Conflict(String),
    #[error(transparent)]
    Store(#[from] StoreError),
}

/// What a roster import did (or would do).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RosterReport {
    /// "OneRoster 1.2" or "plain CSV".
    pub format: String,
    pub counts: RosterCounts,
    /// Records that are no participant, counted by role ("teacher": 3).
    pub not_participants: Vec<(String, usize)>,
    pub preview: bool,
}

/// Reads the roster at `path` (CPU and file work, for a blocking thread) and plans it.
pub fn read_and_plan(path: &Path) -> Result<(String, RosterPlan), RosterProblem> {
    planned(read_roster(path)?)
}

fn planned(source: RosterSource) -> Result<(String, RosterPlan), RosterProblem> {
    let format = match &source {
        RosterSource::OneRoster(export) => format!("OneRoster {}", export.version),
        RosterSource::Plain(_) => "plain CSV".to_owned(),
    };
    Ok((format, source.plan()?))
}

/// Applies (or previews) the roster at `path` in `area`.
pub async fn import_roster(
    store: &Store,
    area: CustomerArea,
    path: &Path,
    mode: Mode,
) -> Result<RosterReport, RosterError> {
    let owned = path.to_owned();
    let read = tokio::task::spawn_blocking(move || read_and_plan(&owned)).await;
    apply(store, area, read, mode).await
}

/// Applies (or previews) a roster sent whole (`ImportRoster`): a zip or a plain
/// CSV, `file` its name for messages.
pub async fn import_roster_bytes(
    store: &Store,
    area: CustomerArea,
    file: String,
    bytes: Vec<u8>,
    mode: Mode,
) -> Result<RosterReport, RosterError> {
    let read = tokio::task::spawn_blocking(move || planned(read_roster_bytes(&file, bytes)?)).await;
    apply(store, area, read, mode).await
}

async fn apply(
    store: &Store,
    area: CustomerArea,
    read: Result<Result<(String, RosterPlan), RosterProblem>, tokio::task::JoinError>,
    mode: Mode,
) -> Result<RosterReport, RosterError> {
    let (format, plan) =
        read.map_err(|e| RosterError::Conflict(format!("reading the roster stopped: {e}")))??;
    let mut tx = store.begin().await?;
    let counts = match tx.apply_roster(area, &plan).await? {
        RosterApplied::Done(counts) => counts,
        // Dropping the transaction rolls it back.
        RosterApplied::Conflict(conflict) => return Err(RosterError::Conflict(conflict)),
    };
    match mode {
        Mode::Commit => tx.commit().await?,
        Mode::Preview => drop(tx),
    }
    Ok(RosterReport {
        format,
        counts,
        not_participants: plan.not_participants.into_iter().collect(),
        preview: mode == Mode::Preview,
    })
}
