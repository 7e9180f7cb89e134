//! Structured logs with `tracing` (the level comes from `RUST_LOG`, default
//! `info`), and the Prometheus metrics served at `/metrics` ([`metrics`]).

pub mod metrics;

use tracing_subscriber::EnvFilter;

use crate::config::LogFormat;

/// Installs the global log subscriber once; later calls do nothing.
pub fn init(format: LogFormat) {
    let filter =
        EnvFilter::try_from_default_env().unwrap_or_else(|_| EnvFilter::new("info,sqlx=warn"));
    let builder = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stderr);
    let _ = match format {
        LogFormat::Json => builder.json().try_init(),
        LogFormat::Pretty => builder.try_init(),
    };
}
