//! What every part of the store runs on: statements rendered for either backend
//! and run on the read lane or in a transaction, one request's writes, rows of a
//! shape known at run time, the schema's names, errors, what operators watch, and
//! SQLite's checkpoints.

mod backup;
mod built;
mod error;
mod exec;
mod observed;
mod plan_cache;
mod read_lane;
pub mod schema;
pub(crate) mod script;
mod values;
mod wal_checkpoints;
mod write_scope;

pub use backup::{BackupError, BackupMade};
pub use built::Built;
pub use error::StoreError;
pub use exec::{Record, Scalar, Tx};
pub use observed::{PoolUse, TasksInStatus};
pub use plan_cache::PlansMade;
pub(crate) use read_lane::ReadLane;
pub use values::MediaColumn;
pub(crate) use wal_checkpoints::SqliteWrites;
pub use wal_checkpoints::WritePermit;
pub use write_scope::WriteScope;
