//! Results after scoring: an administrator's changes, scores rewritten from
//! answers, the durable queue of purges and replays, and retention.

mod changes;
pub(crate) mod jobs;
mod purge_group;
mod purges;
mod report;
mod report_rows;
mod retention;
mod scores;
mod statistics;

pub use jobs::{AuditRequest, ClaimedJob, Lease};
