//! External delivery (spec, "External delivery"): snapshots, print batches and
//! their sheets, attempts, and answer uploads.

mod batch_sheets;
mod batches;
mod retire;
mod snapshot_reads;
mod snapshots;
mod upload_arrays;
mod upload_attempts;
mod upload_writer;
mod uploads;

pub use batch_sheets::BatchSheets;
pub use batches::{NewAttempt, NewPrintBatch};
pub use retire::StoredPrintBatch;
pub use snapshot_reads::StoredSnapshot;
pub use snapshots::{NewSnapshot, SnapshotSource};
pub use upload_writer::UploadWriter;
pub use uploads::{AttemptForUpload, BatchForUpload, CheckedUpload};
