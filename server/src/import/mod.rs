//! Bringing a customer's own content in (docs/content.md): a QTI package read
//! (documents::qti_content, on the scoredesk-qti crate), planned as one assessment
//! (model::content) and stored in one transaction (store), with a report of what
//! was created, what was unchanged, what became a new revision and what was
//! skipped and why. The command line and the HTTP feed both import through here.

mod report;
mod roster;

use scoredesk_qti::{Package, PackageError};

use crate::documents::qti_content;
use crate::model::area::CustomerArea;
use crate::store::{now_millis, Store, StoreError};

pub use report::{ImportReport, ReportBand, ReportQuestion, ReportSkipped};
pub use roster::{import_roster, import_roster_bytes, read_and_plan, RosterError, RosterReport};

/// Why an import stored nothing.
#[derive(Debug, thiserror::Error)]
pub enum ImportError {
    /// The package is malformed or hostile: the part and what is wrong there.
    #[error(transparent)]
    Package(#[from] PackageError),
    /// The package is sound but none of its items can be imported.
    #[error("no item of the package can be imported: {0}")]
    NothingToImport(String),
    #[error(transparent)]
    Store(#[from] StoreError),
}

/// Reads a package; CPU work (XML, images), for a blocking thread. `progress` is
/// called with (items read, items in all).
pub fn read_qti(
    bytes: &[u8],
    progress: &mut dyn FnMut(usize, usize),
) -> Result<Package, ImportError> {
    let package = scoredesk_qti::read_package_with_progress(bytes, progress)?;
    if package.items.is_empty() {
        let reasons: Vec<String> = package
            .skipped
            .iter()
            .take(3)
            .map(|skip| format!("{} ({}): {}", skip.file, skip.identifier, skip.reason))
            .collect();
        let reasons = if reasons.is_empty() {
            "it has no items".to_owned()
        } else {
            reasons.join("; ")
        };
        return Err(ImportError::NothingToImport(reasons));
    }
    Ok(package)
}

/// Whether an import is kept or only shown.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    /// Everything is done in a transaction that is then rolled back: the report
    /// says exactly what importing would do.
    Preview,
    Commit,
}

/// Imports `package` into `area` (or previews it); `fallback_name` names an
/// assessment whose package has no title.
pub async fn store_qti(
    store: &Store,
    area: CustomerArea,
    package: &Package,
    fallback_name: &str,
    mode: Mode,
) -> Result<ImportReport, ImportError> {
    let plan = qti_content::plan(package, fallback_name);
    let mut tx = store.begin().await?;
    let outcome = tx.import_content(area, &plan, now_millis()).await?;
    match mode {
        Mode::Commit => tx.commit().await?,
        // Dropping the transaction rolls it back.
        Mode::Preview => drop(tx),
    }
    Ok(ImportReport::new(package, &plan, &outcome, mode))
}
