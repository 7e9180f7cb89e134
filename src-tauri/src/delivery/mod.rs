//! The coordinator's work through the OData API: the assessments, their snapshots,
//! the printable pages, print batches and their attempts, and their answer sheets
//! scanned back (docs/desktop.md, "Delivery"). The server's 403 is the fence; the app only asks whether the
//! account gets past it, to show the screens.

mod attempts;
mod batches;
pub mod commands;
mod figures;
mod results;
mod results_admin;
pub mod retire;
mod scan_files;
pub mod sheet_commands;
mod sheet_decisions;
pub mod sheets;
mod snapshots;
mod uploads;

pub use attempts::{
    batch_attempts, create_attempts, AttemptsProgress, AttemptsSummary, BatchAttempt,
};
pub use batches::{create_print_batch, delivery_groups, print_batches, DeliveryGroup, PrintBatch};
pub use figures::{assessment_figures, save_results, Figures, EXPORT_FORMATS};
pub use results::{batch_results, first_scorable_task, BatchResult};
pub use results_admin::{
    assessment_results, audit_entry, audit_log, change_result, purge, purge_plan, AdminResult,
    AuditEntry, PurgePlan, PurgeTarget,
};
pub use retire::Made;
pub use snapshots::{
    create_snapshot, delivery_assessments, snapshots, DeliveryAssessment, Snapshot,
};
pub use uploads::{answer_files, upload_answer_file, AnswerFiles, UploadOutcome};

use crate::client::{ODataClient, RequestFailure};
use crate::error::CommandError;

/// Whether this account may use the delivery feeds (coordinators and
/// administrators): a read of no snapshots, which a scorer is refused.
pub async fn delivery_access(client: &ODataClient) -> Result<bool, CommandError> {
    match client
        .get_json("AssessmentSnapshots", &[("$top", "0")])
        .await
    {
        Ok(_) => Ok(true),
        Err(RequestFailure::Forbidden(_)) => Ok(false),
        Err(other) => Err(other.into()),
    }
}
