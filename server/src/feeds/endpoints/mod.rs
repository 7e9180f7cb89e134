//! What the server answers besides OData: the health check, the metrics, and the
//! printable pages of snapshots and print batches behind signed links.

pub mod health;
pub mod marked_script;
pub mod metrics;
pub mod print;
