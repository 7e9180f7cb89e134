//! The `scoredesk-server` binary as operators run it, each test starting real
//! processes: several of them on one PostgreSQL database, and stopping on SIGTERM.

// A test binary: a failed unwrap is a failed test, which is what we want.
#![allow(clippy::unwrap_used)]

mod backup;
mod cluster;
mod crash_import;
mod crash_sheets;
mod crash_uploads;
mod disk_full;
mod postgres_restart;
mod purge_crash;
mod purges_shared;
mod scanning;
mod several_processes;
mod sheets_pdf;
mod sheets_scan;
mod sheets_short_answers;
mod shutdown;
mod support;
mod uploading;
